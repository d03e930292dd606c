"""Constants a :class:`~skatcore.engine.deal.Deal` reads on every move,
worked out once per ruleset and contract from the compiled tables and kept
in ``CompiledRules.cache``: a deal then starts and plays its cards without
asking the ruleset again (issue 39: ``Deal`` twice as fast)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from skatcore.engine.actions import PASS, PLAYS, Bid, Play
from skatcore.engine.bidding import bids_above

if TYPE_CHECKING:
    from skatcore.model import Contract, Declaration
    from skatcore.rules.compiler import CompiledRules, TrickTable

LAYOUT = "deal_layout"  # its key in CompiledRules.cache


def _plays(low: int, bits: int) -> tuple[tuple[Play, ...], ...]:
    """The Play actions of the cards ``low .. low + bits - 1`` set in a hand
    mask shifted down by ``low``, by those bits."""
    return tuple(tuple(PLAYS[low + i] for i in range(bits) if b >> i & 1) for b in range(1 << bits))


# a hand mask's plays in three lookups, PLAYS_A[m & 2047] + PLAYS_B[m >> 11 & 2047] + PLAYS_C[m >> 22]:
# cards 0-10, 11-21 and from 22 on: to 31, and to the sixes (32-35) once a ruleset deals them (layout()
# extends the list in place, in one step; 16 times as big)
PLAYS_A, PLAYS_B, PLAYS_C = _plays(0, 11), _plays(11, 11), list(_plays(22, 10))


class Game(NamedTuple):
    """Per contract: what its trick play reads, by card where it is a tuple."""

    contract: Contract
    table: TrickTable
    follow: tuple[int, ...]  # the cards that follow card c when it is led (class_mask[follow[c]])
    strength: tuple[tuple[int, ...], ...]  # the strengths of the cards in a trick card c leads
    points: tuple[int, ...]
    no_trick: bool


@dataclass(frozen=True, slots=True)  # slots: read on every bid and trick (a NamedTuple's fields read slower)
class Layout:
    """Per ruleset: the deck's sizes, who bids, plays, calls and concedes."""

    sizes: tuple[int, int, int]  # cards dealt per seat, forehand first
    hand: int  # cards dealt to a seat in play: tricks per deal
    skat: int
    aside: int
    mask: int  # every card of the deck (-1 if its sizes do not add up to its cards: no deal passes unchecked)
    plain: bool  # every seat an ordinary hand of its own person
    in_play: tuple[int, ...]
    k: int
    fast3: bool
    next: tuple[int, ...]
    silent: tuple[bool, ...]  # seats that pass without being asked
    any_silent: bool
    persons: tuple[int, ...]
    start: bool  # some step waits at the start
    first_card: bool  # some step waits for the first card
    skat_offers: bool  # some step offers its actions at the skat
    quick: bool  # trick play needs no hook, no step and no stacks or piles (Deal.apply plays a card inline)
    bids: dict[int, tuple]  # the bids above each bid on the ladder, then pass
    ladder: frozenset[int]  # the values one may bid
    alone: tuple  # forehand alone: the minimum bid or pass
    games: dict[str, Game]  # by contract name
    offered: dict[int, Declaration]  # the declarations Deal.legal_actions offers, by id (kept alive here)
    checked: dict[tuple, tuple[Declaration, Declaration]]  # (id, bid, route) of those -> (it, as checked)


def layout(rules: CompiledRules) -> Layout:
    """The ruleset's :class:`Layout`, built on first use."""
    got = rules.cache.get(LAYOUT)
    if got is None:
        deck, plans, at = rules.deck, rules.table.seats, rules.steps_at
        if deck.mask >> 32 and len(PLAYS_C) == 1 << 10:
            PLAYS_C[1 << 10:] = _plays(22, 14)[1 << 10:]
        seats = tuple(deck.seats)
        silent = tuple(s not in seats or not plans[s].bids for s in range(3))
        fast3 = len(seats) == 3 and not (rules.trick_hook or at["trick"] or at["last_trick"])
        sizes = (deck.hand if 0 in seats else 0, deck.hand if 1 in seats else 0, deck.hand if 2 in seats else 0)
        counted = sum(sizes) + deck.skat + deck.aside == len(deck.cards)  # then dealing all of them deals each once
        got = rules.cache[LAYOUT] = Layout(
            sizes=sizes, hand=deck.hand, skat=deck.skat, aside=deck.aside, mask=deck.mask if counted else -1,
            plain=rules.table.plain,
            in_play=seats, k=len(seats), fast3=fast3,
            next=tuple(seats[(seats.index(s) + 1) % len(seats)] if s in seats else s for s in range(3)),
            silent=silent, any_silent=any(silent), persons=tuple(s for s in seats if plans[s].controller == "own"),
            start=bool(at["start"]), first_card=bool(at["first_card"]), skat_offers=bool(at["skat"]),
            quick=fast3 and rules.table.plain,
            bids={b: bids_above(rules.ladder, b) for b in (0, *rules.ladder)}, ladder=frozenset(rules.ladder),
            alone=(Bid(rules.min_bid), PASS), games={n: _game(rules, n) for n in rules.contracts}, offered={}, checked={})
    return got


def _game(rules: CompiledRules, name: str) -> Game:
    t = rules.tricks[name]
    contract = rules.contracts[name]
    return Game(contract, t, tuple(t.class_mask[k] for k in t.follow), tuple(t.strength[k] for k in t.follow), t.points,
                contract.no_trick)
