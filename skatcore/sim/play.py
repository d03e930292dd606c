"""One seeded deal played by bots.

Deal ``i`` of seed ``S`` gets its cards and its players' seeds from
``(S, i)`` only; players sit in *slots*, and for deal ``i`` the player of
slot ``p`` takes seat ``(p + i) % 3`` (the deal passes round the table).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from skatcore.bots import call_view
from skatcore.engine.deal import Deal, Phase, deal_cards
from skatcore.model import STANDARD_DECK

# ---------------------------------------------------------------------------
# One deal
# ---------------------------------------------------------------------------


def deal_rng(seed: int, i: int) -> random.Random:
    """The random source of deal ``i`` of a run seeded ``seed``."""
    return random.Random(f"skatcore/{seed}/{i}")


def seeded_deal(seed: int, i: int, deck=None) -> tuple:
    """``(hands, skat, player_seeds)`` of deal ``i``: the same under any ruleset
    with the 32-card deck (another ``deck``, e.g. ``rules.deck``, deals its
    own), then the cards laid aside if the deck lays any aside."""
    rng = deal_rng(seed, i)
    hands, skat, *aside = deal_cards(rng, deck)
    return (hands, skat, [rng.getrandbits(63) for _ in range(3)], *aside)


def play(rules, hands, skat, players: Sequence, aside=()) -> Deal:
    """Play one deal to the end; ``players[seat]`` acts for each seat, and
    for the seats that seat's person plays (a straw man: ``Deal.controller``).

    A player is not asked for a card when it has only one legal card (a
    seat nobody plays always has one).  Table calls (Kontra ...) are offered
    after every action to each seat that may make one and whose player has
    ``call(view)``.
    """
    return play_on(Deal(rules, hands, skat, aside), players)


def play_on(deal: Deal, players: Sequence, until: Phase | None = None) -> Deal:
    """Play ``deal`` on from where it stands, as :func:`play` does, to its
    end or until it reaches the phase ``until`` (``Phase.PLAY``: up to the
    first card)."""
    rules = deal.rules
    calls = bool(rules.calls) and any(hasattr(p, "call") for p in players)
    # every TableCall window closes in its until_trick (next_card in the trick of the
    # call it answers): no need to ask later
    last_call = max((c.until_trick for c in rules.calls.values()), default=1) if calls else 0
    while not deal.done and deal.phase is not until:
        if deal.phase is Phase.PLAY:
            if calls and len(deal.tricks) <= last_call:
                _offer_calls(deal, players)
                if deal.done:  # a call that settles the deal (Schenken accepted)
                    break
            legal = deal.legal_actions()
            if len(legal) == 1:
                deal.apply(legal[0])
                continue
        seat = deal.to_move
        who = deal.mover(seat)
        action = deal.legal_actions()[0] if who is None else players[who].act(deal.view(seat))
        deal.apply(action)
    return deal


def _offer_calls(deal: Deal, players) -> None:
    """Ask each seat that may call now, until nobody calls any more."""
    made = True
    while made:
        made = False
        for s in range(3):
            ask = getattr(players[s], "call", None)
            if ask is None:
                continue
            opts = deal.legal_calls(s)
            if not opts:
                continue
            for c in ask(call_view(deal.view(s), opts)) or ():
                if c in deal.legal_calls(s):
                    deal.apply(c)
                    made = True


def players_for(rules, factories, seed: int, i: int, pseeds) -> list:
    """The players of deal ``i``: slot ``p`` sits in seat ``(p + i) % 3``."""
    players = [None, None, None]
    for slot, f in enumerate(factories):
        seat = (slot + i) % 3
        players[seat] = f(rules=rules, seed=pseeds[seat])
    return players


def play_seeded(rules, factories, seed: int, i: int, dealt=None) -> tuple[Deal, list]:
    """Deal ``i`` of ``seed`` played under ``rules`` (``dealt``: its
    :func:`seeded_deal`, computed once for several rulesets): the finished
    Deal and its players by seat."""
    hands, skat, pseeds, *_ = dealt or seeded_deal(seed, i)
    players = players_for(rules, factories, seed, i, pseeds)
    if rules.deck is STANDARD_DECK:
        return play(rules, hands, skat, players), players
    # another deck (Sechserskat's 36 cards) is dealt by its own packets, from the same seed, with any cards laid aside
    hands, skat, *aside = deal_cards(deal_rng(seed, i), rules.deck)
    return play(rules, hands, skat, players, *aside), players


def all_passed(deal: Deal) -> bool:
    """Nobody bid (a step that replaces the bidding, a soloist, is not a pass)."""
    return deal.bid == 0 and not deal.rules.steps_at["start"]
