"""The deal record of a played :class:`~skatcore.engine.deal.Deal`: the
reverse of the record reader (docs/formats.md#deal-record).

The core writes what it runs itself (the cards, the bidding, the game as
declared, the discard, the play); every compiled flow step adds its own
part (:meth:`~skatcore.engine.steps.Step.record`, the reverse of its
``replay``), so a record written here reads back to the same result.
"""

from __future__ import annotations

from collections.abc import Mapping

from skatcore.cards import names
from skatcore.engine.actions import Bid, Hold, Pass, Play
from skatcore.engine.deal import Deal, Phase
from skatcore.model import SEATS

FORMAT = "skat-deal/1"


def deal_record(deal: Deal, summary: bool = False) -> dict:
    """The record of ``deal``, played to its end (or settled before the first
    card).  ``summary``: without the cards and the play, a declarer game by
    ``declarer`` and ``bid`` instead of the calls: what a score sheet notes
    and session rules read (a Ramsch-round deal shows no bidding)."""
    rules = deal.rules
    doc: dict = {"format": FORMAT, "ruleset": rules.name}
    if not summary:
        doc["hands"] = {SEATS[s]: names(deal.dealt[s]) for s in rules.deck.seats}
        doc["skat"] = names(deal.original_skat)
        if deal.aside:
            doc["aside"] = names(deal.aside)
    if deal.thrown_in:  # just its bidding
        return {**doc, "bidding": ["pass" for _ in deal.history]}
    doc["game"] = _game(deal)
    for step in rules.steps:
        _merge(doc, step.record(deal))
    # a summary gives a declarer game's declarer and bid; all passed goes without saying when the game
    # played on implies it (a Ramsch, a step's after all passed)
    calls = [] if (summary and deal.bid) or (deal.bid == 0 and _passes_implied(deal, doc)) else bidding(deal)
    if calls:
        doc["bidding"] = calls
    if deal.declarer is not None and deal.contract.declarer:
        doc["declarer"] = SEATS[deal.declarer]
        if deal.bid and "bidding" not in doc:
            doc["bid"] = deal.bid
    if not summary:
        doc["play"] = [names([a.card])[0] for _, a in deal.history if type(a) is Play]
    return doc


def _merge(doc: dict, part) -> None:
    """A step's part into the record: mappings merged key by key (two steps
    each writing their own ``game.steps.<name>``)."""
    for key, value in part.items():
        if isinstance(value, Mapping):
            if not isinstance(doc.get(key), dict):
                doc[key] = {}
            _merge(doc[key], value)
        else:
            doc[key] = value


def _game(deal: Deal) -> dict:
    """``game`` as the core runs it: the contract, how it was declared, the discard."""
    game: dict = {"type": deal.contract.name}
    d = deal.declaration
    if d is None or not deal.contract.declarer:
        return game
    game.update({a: True for a in ("hand", "schneider", "schwarz", "ouvert") if getattr(d, a)})
    if deal.discard:
        game["discard"] = names(deal.discard)
    if d.declarations:
        game["declarations"] = dict(d.declarations)
    return game


def _passes_implied(deal: Deal, doc: dict) -> bool:
    """All passed and the record's game says so: a contract without declarer,
    or a step after all passed claims it (the reader passes for everybody)."""
    return not deal.contract.declarer or any(s.claims(doc) for s in deal.rules.steps_at["all_passed"])


def bidding(deal: Deal) -> list:
    """The calls of ``deal``'s bidding as a record lists them (a number,
    ``yes``, ``pass``; seats that do not bid pass unrecorded), replayed on a
    fresh deal of the same cards to tell them from a step's actions."""
    probe = Deal(deal.rules, deal.dealt, deal.original_skat, deal.aside, deal.played)
    calls: list = []
    for _, action in deal.history:
        if probe.phase is not Phase.BIDDING or not isinstance(action, (Bid, Hold, Pass)):
            break  # (no calls: the declarer was set, ``Deal.set_declarer``)
        probe.apply(action)
        calls.append(action.value if isinstance(action, Bid) else "yes" if isinstance(action, Hold) else "pass")
    return calls
