"""Tournée Skat (Wisconsin), docs/rules/tournee.md#b10, on top of the ``official`` plugin.

Contracts by skat route:
- **Tournée** (turn-up route): the turned skat card sets trump (a jack: grand
  or its suit); bases diamonds 5 ... clubs 8, grand 12; lost single with the
  first card, double with the second ("passt mir nicht").
- **Solo** (hand): official bases with grand 20 (set in the ruleset), no hand
  multiplier, lost single.  Grand ouvert is the only open solo: base 24, no
  ouvert multiplier.
- **Grand Guckser** (pick up both cards): only grand, base 16, lost double.
- **Null** without the skat: 20, ouvert 40 (the ruleset's null values), lost single.
Schneider at 91 (declarer out at 31); an announced schwarz adds 2 in all over an
unannounced one (schneider announced +1, schwarz announced +1), never 3.

The turn-up route is the flow step :class:`TurnUpStep`: at the skat the
declarer may *turn up* (beside pick up and hand), then keeps the first card
(``first``) or takes it unseen and turns up the second (``second``); the
turned card is shown to all (``SeatView.marks["turned"]``), both cards are
taken, two discarded, and one of the turned card's contracts is declared
with ``declarations.tournee_card`` set to the card used.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from skatcore.cards import CARD_NAMES, SUIT_NAMES, cards_in, name
from skatcore.engine.deal import Declare, Discard, Phase
from skatcore.engine.steps import Outlook, Step
from skatcore.errors import InputError
from skatcore.hookspecs import hookimpl
from skatcore.model import SEATS, Declaration, Thresholds

KEY = "tournee_card"
_base = {"type": "integer", "minimum": 1}


@dataclass(frozen=True, slots=True)
class TurnUp:
    """Tournée: look at the first skat card (unseen by the others)."""

    def __str__(self):
        return "turn up"


@dataclass(frozen=True, slots=True)
class TurnChoice:
    """Tournée: ``first`` shows and keeps the first card as trump; ``second``
    takes it unseen and turns up the second card, which sets trump."""

    card: str

    def __str__(self):
        return f"use the {self.card} card"


TURN_UP, FIRST_CARD, SECOND_CARD = TurnUp(), TurnChoice("first"), TurnChoice("second")


class TurnUpStep(Step):
    """The turn-up route: turn, take both cards, discard, declare the turned card's contract.

    :param contracts: card name -> the contracts it allows (a jack: grand or its suit).
    :param key: the declaration that records which card was used.
    """

    name = "turn-up"
    at = "skat"
    description = "the declarer may turn a skat card up to fix trumps (the first, or unseen the second)"

    def __init__(self, contracts: Mapping[str, tuple[str, ...]], key: str = KEY):
        self.contracts, self.key = contracts, key
        self.declarations = (key,)

    def prepare(self, rules) -> str | None:
        for card, games in self.contracts.items():
            for g in games:
                if g not in rules.contracts:
                    return f"turn-up card {card} allows contract {g!r}, which no plugin registers"
        return None

    def outlooks(self, rules, hand):
        """Turning up: the turned card is any card the declarer cannot see,
        kept as trump (``first``), and allows its contracts."""
        kept = rules.cache.get((self.name, "outlooks"))
        if kept is None:  # card id -> the declarations the first card allows
            kept = rules.cache[(self.name, "outlooks")] = tuple(
                tuple(Declaration(g, False, declarations={self.key: "first"}) for g in self.contracts.get(n, ()))
                for n in CARD_NAMES)
        return {TURN_UP: tuple(Outlook(c, kept[c]) for c in cards_in(rules.deck.mask & ~hand))}

    def declarable(self, deal):
        return tuple(self._declarations(deal)) if deal.state.get(self.name) == "discard" else ()

    def forms(self, rules, contract):
        if not any(contract.name in games for games in self.contracts.values()):
            return ()
        return [(f"{self.key} {card}", Declaration(contract.name, False, declarations={self.key: card}))
                for card in ("first", "second")]

    def offers(self, deal):
        return (TURN_UP,)

    def actions(self, rules):
        games = dict.fromkeys(g for allowed in self.contracts.values() for g in allowed)
        return [TURN_UP, FIRST_CARD, SECOND_CARD,
                *(Declare(Declaration(g, False, declarations={self.key: route})) for route in ("first", "second") for g in games)]

    def enter(self, deal) -> None:
        deal.state[self.name] = "turn"

    def legal(self, deal):
        now = deal.state[self.name]
        if now == "turn":
            return (FIRST_CARD, SECOND_CARD)
        if now == "discard":
            return deal.discard_options(deal.declarer)
        return tuple(Declare(d) for d in self._declarations(deal))

    def _declarations(self, deal) -> list[Declaration]:
        allowed = self.contracts.get(name(deal.marks["turned"]), ())
        return [Declaration(game, False, declarations={self.key: deal.route}) for game in allowed]

    def apply(self, deal, action) -> None:
        now, seat = deal.state[self.name], deal.declarer
        if action == TURN_UP and now == "turn" and deal.route == "":
            deal.route = "turning"
        elif now == "turn" and isinstance(action, TurnChoice) and action.card in ("first", "second"):
            deal.route = action.card
            deal.marks["turned"] = deal.original_skat[0 if action.card == "first" else 1]
            deal.take_skat(seat)
            deal.state[self.name] = "discard"
            deal.phase = Phase.DISCARD
        elif now == "discard" and isinstance(action, Discard):
            deal.put_away(seat, action.cards)
            deal.state[self.name] = "declare"
            deal.phase = Phase.DECLARE
        elif now == "declare" and isinstance(action, Declare):
            d = action.declaration
            if d.hand:
                raise InputError("a hand game cannot be declared after picking up the skat")
            turned = name(deal.marks["turned"])
            allowed = self.contracts.get(turned, ())
            if d.game not in allowed:
                raise InputError(f"the turned card {turned} allows {' or '.join(allowed) or 'nothing'}, not {d.game}")
            if d.declarations.get(self.key) != deal.route:
                d = Declaration(d.game, d.hand, d.schneider, d.schwarz, d.ouvert, {**d.declarations, self.key: deal.route})
            deal.declare(seat, d, route=self.name)
        else:
            raise InputError(f"{action} is not possible now ({SEATS[seat]} to {_WAITING[now]})")

    def claims(self, record) -> bool:
        return self.key in ((record.get("game") or {}).get("declarations") or {})

    def replay(self, deal, record):
        from skatcore.records.deal import apply_at, cards_at, declaration_in

        rules, game = deal.rules, record["game"]
        d = declaration_in(game, rules, rules.contract(game["type"]))
        route = d.declarations[self.key]
        if d.hand:
            raise InputError(f"{self.key} is a skat route: not in a hand game", path="game")
        if "hands" not in record:  # a summary: the turned card is known if the skat is given
            if "skat" in record:
                turned = CARD_NAMES[cards_at(record["skat"], "skat")[0 if route == "first" else 1]]
                allowed = self.contracts.get(turned, ())
                if d.game not in allowed:
                    raise InputError(f"the turned card {turned} allows {' or '.join(allowed) or 'nothing'}, not {d.game}",
                                     path="game.type")
            try:
                return rules.check_declaration(d, deal.bid, route=self.name)
            except InputError as exc:
                raise exc.at("game") from None
        where = f"game.declarations.{self.key}"
        apply_at(deal, TURN_UP, where)
        apply_at(deal, TurnChoice(route), where)
        if "discard" not in game:
            raise InputError(f"the skat was picked up: give the {rules.deck.skat} discarded cards", path="game.discard")
        apply_at(deal, Discard(tuple(cards_at(game["discard"], "game.discard"))), "game.discard")
        apply_at(deal, Declare(d), "game")
        return None


_WAITING = {"turn": "keep the first card or turn up the second", "discard": "discard", "declare": "declare"}


class Tournee:
    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "tournee_bases": {
                "type": "object", "additionalProperties": False,
                "properties": {k: _base for k in ("diamonds", "hearts", "spades", "clubs", "grand")},
                "description": "bases of a tournée by trump (default 5, 6, 7, 8, grand 12)",
            },
            "guckser_base": {**_base, "default": 16, "description": "base of the Grand Guckser"},
            "grand_ouvert_base": {**_base, "default": 24, "description": "base of the (solo) grand ouvert"},
        },
    }

    def __init__(self, tournee_bases=None, guckser_base=16, grand_ouvert_base=24):
        self.tournee_bases = {"diamonds": 5, "hearts": 6, "spades": 7, "clubs": 8, "grand": 12, **(tournee_bases or {})}
        self.guckser_base = guckser_base
        self.grand_ouvert_base = grand_ouvert_base

    @hookimpl
    def skat_register_declarations(self):
        return {KEY: {"enum": ["first", "second"], "description": "the turned skat card that set trump: first = skat[0], second = skat[1] (skat[0] taken unseen)"}}

    @hookimpl
    def skat_register_steps(self):
        contracts = {}
        for card in CARD_NAMES:
            suit = SUIT_NAMES[card[0]]
            contracts[card] = (suit, "grand") if card[1] == "J" else (suit,)
        return [TurnUpStep(contracts)]

    @hookimpl
    def skat_contract_allowed(self, contract, route):
        if route == "pickup":  # picking up both cards without turning: Grand Guckser only
            return contract.family == "grand"
        return None

    @hookimpl
    def skat_check_announcements(self, contract, hand, announced):
        if "ouvert" in announced and contract.family == "suit":
            return "only grand and null may be played ouvert in Tournée"
        return None

    @hookimpl
    def skat_base_value(self, contract, hand, announced):
        if contract.family not in ("suit", "grand"):
            return None
        if hand:
            return self.grand_ouvert_base if "ouvert" in announced else None  # solo: the official bases
        tournee = self.tournee_bases[contract.name if contract.family == "suit" else "grand"]
        guckser = self.guckser_base if contract.family == "grand" else tournee
        return lambda d: tournee if KEY in d.declarations else guckser

    @hookimpl
    def skat_lost_factor(self, contract, hand):
        if hand or contract.family == "null":
            return 1  # solos and nulls cost their value
        return lambda d: {"first": 1, "second": 2}.get(d.declarations.get(KEY), 2)  # Guckser: double

    @hookimpl
    def skat_thresholds(self):
        return Thresholds(win=61, schneider=91, out_of_schneider=31)

    @hookimpl
    def skat_min_bid(self):
        return 2 * min(self.tournee_bases.values())

    @hookimpl(wrapper=True)
    def skat_multiplier_items(self):
        chunks = yield
        out = []
        for chunk in chunks:
            items = []
            for item in chunk:
                if item.name in ("hand", "ouvert"):
                    continue  # no hand multiplier; grand ouvert has no ouvert multiplier
                items.append(item)
            out.append(items)
        return out
