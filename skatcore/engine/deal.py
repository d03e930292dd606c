"""One deal of Skat as a state machine: bidding, skat, declaration, play.

``Deal.legal_actions()`` lists what the player to move may do and
``Deal.apply(action)`` does it, raising :class:`InputError` for anything
illegal.  Stages a plugin adds to a deal are
:class:`~skatcore.engine.steps.Step` objects the deal asks while they run.  Replaying a record, the ISS importer, bots and the terminal game all
drive this one object, so it is the single source of what is legal.  It reads
only :class:`~skatcore.rules.compiler.CompiledRules` tables, never a hook per move (a
deal settled by a table call asks ``skat_settled_outcome`` once, for its score).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import repeat
from operator import itemgetter
from typing import TYPE_CHECKING, Any, overload

from skatcore.cards import cards_in, mask_of, name
from skatcore.engine.actions import (
    HOLD,
    PASS,
    PICK_UP,
    PLAY_HAND,
    PLAYS,
    UNSEEN,
    Action,
    Bid,
    Call,
    Concede,
    Declare,
    Discard,
    Hold,
    Pass,
    Phase,
    PickUp,
    Play,
    PlayHand,
    Unseen,
)
from skatcore.engine.bidding import Bidding
from skatcore.engine.facts import DealFacts
from skatcore.engine.layout import LAYOUT, layout
from skatcore.engine.moves import Discards, Moves
from skatcore.engine.seating import Seating
from skatcore.engine.tricks import TrickPlay
from skatcore.engine.view import SeatView, Trick
from skatcore.errors import InputError
from skatcore.model import FOREHAND, MIDDLEHAND, SEATS, STANDARD_DECK, Deck, Declaration, ScoreResult

if TYPE_CHECKING:
    from skatcore.engine.steps import Step
    from skatcore.model.table import Dealt
    from skatcore.rules.compiler import CompiledRules

# the actions are imported from here too: one import for code that drives a deal
__all__ = ["HOLD", "PASS", "PICK_UP", "PLAYS", "PLAY_HAND", "UNSEEN", "Action", "Bid", "Call", "Concede", "Deal", "Declare",
           "Discard", "Discards", "Hold", "Pass", "Phase", "PickUp", "Play", "PlayHand", "SeatView", "Trick", "Unseen",
           "deal_cards"]


@overload
def deal_cards(seed: int | random.Random | None = None, deck: None = None) -> tuple[list[list[int]], list[int]]: ...
@overload
def deal_cards(seed: int | random.Random | None, deck: Deck) -> Dealt: ...
def deal_cards(seed: int | random.Random | None = None, deck: Deck | None = None) -> Dealt:
    """A uniformly random deal, packets 3-skat-4-3 (docs/rules/official.md#a1).

    :param deck: the ruleset's :class:`~skatcore.model.Deck` (``rules.deck``);
        another deck than the 32 cards is dealt by its own packets.
    :returns: ``(hands, skat)``: three 10-card lists (forehand, middlehand,
        rearhand) and the two skat cards.
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    if deck is not None and deck is not STANDARD_DECK and deck != STANDARD_DECK:
        return deck.deal(rng)
    keys = list(map(type(rng).random, repeat(rng, 32)))  # rng.random() 32 times: a uniform shuffle by random keys
    cards = sorted(_CARDS32, key=keys.__getitem__)
    g0, g1, g2 = _PACKET_CARDS
    return [list(g0(cards)), list(g1(cards)), list(g2(cards))], cards[9:11]


_CARDS32 = range(32)
_NONE_PLAYED: frozenset[str] = frozenset()
_BIDDING = Phase.BIDDING  # Phase.X asks the Enum class's __getattr__ hook each time
# positions in the shuffled deck of each seat's cards: 3 each, 2 to the skat, 4 each, 3 each
PACKETS = tuple(tuple(range(3 * s, 3 * s + 3)) + tuple(range(11 + 4 * s, 15 + 4 * s)) + tuple(range(23 + 3 * s, 26 + 3 * s))
                for s in range(3))
_PACKET_CARDS = tuple(itemgetter(*p) for p in PACKETS)


class Deal(Moves, Seating, Bidding, TrickPlay, DealFacts):
    """A deal under compiled rules, from the first bid to the last trick.

    ``Deal(rules, hands, skat)`` takes the three hands (forehand first) and
    the skat as card ids (``skatcore.cards.parse_card``), as
    ``deal_cards(seed)`` returns them.  Drive it with ``legal_actions()`` and
    ``apply(action)`` until ``done``; then ``result()`` scores it.  Read
    ``phase``, ``to_move``, ``declarer``, ``bid``, ``declaration``,
    ``history`` (every ``(seat, action)``) and ``tricks``; give a player only
    ``view(seat)``.

    ``hands`` are three card lists in the order dealt (a seat the deck does
    not deal gets none); ``aside`` the cards laid aside, if the deck has any.
    A seat whose cards lie in stacks or a pile (:class:`~skatcore.model.SeatPlan`)
    holds in ``hands`` only its open cards; the rest is turned up in play.

    Its jobs live in one module each: :class:`~skatcore.engine.moves.Moves`
    (``legal_actions`` and ``apply``), :class:`~skatcore.engine.seating.Seating`
    (who plays and sees a seat), :class:`~skatcore.engine.bidding.Bidding`,
    :class:`~skatcore.engine.tricks.TrickPlay` (tricks, table calls,
    concessions) and :class:`~skatcore.engine.facts.DealFacts` (facts and
    score); this class runs the skat, the declaration and the flow steps.
    """

    __slots__ = ()  # DealState's

    def __init__(self, rules: CompiledRules, hands: Sequence[Sequence[int]], skat: Sequence[int],
                 aside: Sequence[int] = (), played: Iterable[str] = ()) -> None:
        self._lay = lay = rules.cache.get(LAYOUT) or layout(rules)
        masks = []
        for h in (*hands, skat):  # mask_of, inline
            m = 0
            for c in h:
                m |= 1 << c
            masks.append(m)
        self.skat = m = masks.pop()
        self.hands = masks
        # as many cards as the deck deals, making up the deck: every card once (Layout.mask)
        if len(hands) != 3 or len(skat) != lay.skat or len(aside) != lay.aside \
                or (len(hands[0]), len(hands[1]), len(hands[2])) != lay.sizes \
                or masks[0] | masks[1] | masks[2] | m | (mask_of(aside) if aside else 0) != lay.mask:
            _check_cards([list(h) for h in hands], list(skat), rules.deck, list(aside))  # says what is wrong
        self.rules = rules
        self.dealt = tuple(map(tuple, hands))
        self.aside = tuple(aside)
        # play_only(deck.seats), worked out once per ruleset
        self.in_play, self._k, self._fast3, self._next = lay.in_play, lay.k, lay.fast3, lay.next
        self._quick = lay.quick  # apply() plays a card inline (Moves.apply)
        self._silent = lay.silent  # pass without being asked
        self._silent_bidders = lay.any_silent
        self.persons = lay.persons  # who calls and concedes
        self.beneath: dict[int, int] = {}  # stacks: card -> the card under it, turned up when it is played
        self.piles: dict[int, list[int]] = {}  # piles: seat -> face-down cards, top first
        if not lay.plain:
            self._arrange(rules.table.seats)
        self.original_skat = tuple(skat)
        self.phase = _BIDDING
        self.done = False  # a plain attribute: read once per move by every driver loop
        self.legal_mask: int | None = None  # playable cards of the player to move, once computed
        self.history: list[tuple[int, Action]] = []
        # bidding: part 1 middlehand asks forehand, part 2 rearhand asks the survivor
        self.bid = 0
        self.bidding_part = 1
        self.asker, self.answerer = MIDDLEHAND, FOREHAND
        self.awaiting_answer = False
        self.declarer: int | None = None
        self.declaration: Declaration | None = None
        self.contract = None
        self.table = None
        self.picked_up = False
        self.route = ""                  # "pickup", "hand", or a step's own route
        self.discard: tuple[int, ...] = ()
        self.to_move: int | None = MIDDLEHAND
        # play
        self.tricks: list[Trick] = []
        self._trick: Trick | None = None  # the trick in progress: tricks[-1] while phase is PLAY
        self._cards: list[int] = []  # its cards
        self.trick_points = [0, 0, 0]
        self.tricks_won = [0, 0, 0]
        self.conceded: set[int] = set()
        self.concession_by: str | None = None  # "declarer" or "defenders"
        self.settled = False  # ended by a settling table call before the first card
        self._result: ScoreResult | None = None
        self.aside_to: str | None = None  # whom the cards laid aside counted for, once scored (Facts.facts)
        # contract families the player who declares now declared earlier in the series (Series.once_each)
        self.played = frozenset(played) if played != () else _NONE_PLAYED
        self.step = None  # the running Step, while phase is STEP
        self.state: dict[str, Any] = {}  # per-step state, by step name
        self.marks: dict[str, Any] = {}  # what steps showed every seat (SeatView.marks) and scoring reads (facts.marks)
        self.hidden: set[int] = set()  # history indices a step hides from the other seats
        self._pending: list[Step] | None = None  # steps still to run between the tricks just played
        if rules.skip_bidding:  # every deal goes the all-pass way (e.g. every deal a Ramsch)
            self._all_passed()
        elif lay.start:
            self._run_steps("start")
        if lay.any_silent:
            self._skip_silent()

    # -- queries -------------------------------------------------------------
    @property
    def thrown_in(self) -> bool:
        return self.done and self.contract is None

    def hand_of(self, seat: int) -> list[int]:
        return list(cards_in(self.hands[seat]))

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now: its own cards, every public call and
        card played, the declarer's cards in an ouvert game,
        and what the steps showed (``marks``), and its own discards - never other hands or the skat."""
        return SeatView(self, seat, self.legal_actions() if self.to_move == seat else ())

    # -- the step API: how steps move a deal on -------------------------------
    def take_skat(self, seat: int) -> None:
        """``seat`` picks the skat up (a declarer's pickup counts as such)."""
        if seat == self.declarer:
            self.picked_up = True
        self.hands[seat] |= self.skat
        self.skat = 0

    def put_away(self, seat: int, cards: Iterable[int]) -> None:
        """``seat`` lays ``cards`` down as the new skat (the declarer's discard,
        or a step's); InputError naming the card that cannot go."""
        cards = tuple(cards)
        hand = self.hands[seat]
        k = len(self.original_skat)
        if len(cards) != k or len(set(cards)) != k:
            raise InputError(f"discard exactly {'two' if k == 2 else k} different cards")
        for c in cards:
            if not hand >> c & 1:
                raise InputError(f"cannot discard {name(c)}: {SEATS[seat]} does not hold it")
        self.skat = mask_of(cards)
        self.hands[seat] = hand & ~self.skat
        if seat == self.declarer:
            self.discard = cards

    def declare(self, seat: int, d: Declaration, route: str | None = None) -> None:
        """``seat`` declares ``d`` (checked; ``route`` names a step's own
        route, see :meth:`CompiledRules.check_declaration`) and play starts."""
        self.declarer = seat
        key = (id(d), self.bid, route)
        checked = self._lay.checked.get(key)
        if checked is None or checked[0] is not d:
            checked = (d, self.rules.check_declaration(d, self.bid, route))
            if self._lay.offered.get(id(d)) is d:  # one legal_actions() offers: kept by the ruleset, checked once
                self._lay.checked[key] = checked
        self.declaration = checked[1]
        self.start_play(checked[1].game)

    def bid_again(self) -> None:
        """The bidding starts over (a step after all passed: the players bid once more)."""
        self.step = None
        self.phase, self.bid, self.bidding_part, self.awaiting_answer = Phase.BIDDING, 0, 1, False
        self.asker, self.answerer, self.to_move = MIDDLEHAND, FOREHAND, MIDDLEHAND
        self._skip_silent()

    def play_only(self, seats: Sequence[int]) -> None:
        """Only ``seats`` (in table order) play to the tricks from now on, one
        card each: a step that takes a hand out of play (a dummy)."""
        self.in_play = tuple(seats)
        self._k = len(seats)  # cards per trick
        at = self.rules.steps_at
        self._fast3 = self._k == 3 and not (self.rules.trick_hook or at["trick"] or at["last_trick"])
        self._quick = self._fast3 and self.rules.table.plain
        self._next = tuple(seats[(seats.index(s) + 1) % len(seats)] if s in seats else s for s in range(3))

    def end_step(self, then: Phase = Phase.PLAY) -> None:
        """The running step is over; the deal goes on at the core's ``then``:
        the first trick (a ``"first_card"`` step), the next trick or the next
        step between tricks (a ``"trick"`` or ``"last_trick"`` step), or the declarer's
        ``DISCARD`` or ``DECLARE`` (a declaration made before the discard
        starts play after it)."""
        self.step = None
        if then is Phase.PLAY:
            self._begin_tricks()
        else:
            self.phase, self.to_move = then, self.declarer

    def _enter(self, step: Step) -> None:
        self.step = step
        self.phase = Phase.STEP
        step.enter(self)

    def _run_steps(self, moment: str) -> bool:
        """Enter the first step of ``moment`` that begins in this deal."""
        for step in self.rules.steps_at[moment]:
            if step.begins(self):
                self._enter(step)
                return True
        return False

    def _expected(self) -> str:
        if self.done:
            return "the deal is over"
        who = SEATS[self.to_move] if self.to_move is not None else "nobody"
        return f"{who} to {self.step.name if self.phase is Phase.STEP and self.step is not None else self.phase.value}"

    def start_play(self, game: str) -> None:
        """Play ``game`` (declared, or without declarer): the steps waiting for
        the first card run first."""
        g = self._lay.games.get(game)
        if g is None:
            self.rules.contract(game)  # says that there is no such contract
        self.contract, self.table, self._follow, self._strength, self._points, self._no_trick = g  # type: ignore[misc]
        self.step = None
        if not (self._lay.first_card and self._run_steps("first_card")):
            self._begin_tricks()



def _check_cards(hands: Sequence[Sequence[int]], skat: Sequence[int], deck: Deck = STANDARD_DECK,
                 aside: Sequence[int] = ()) -> None:
    """Why these cards are no deal of ``deck``, as an error at the card's
    place (``hands.middlehand[0]``, ``skat[1]``, ``aside[0]``): a deal record's paths too."""
    if len(hands) != 3:
        raise InputError(f"expected 3 hands, got {len(hands)}", path="hands")
    seen: dict[int, str] = {}
    for where, cards, size in [*((f"hands.{SEATS[i]}", h, deck.hand if i in deck.seats else 0) for i, h in enumerate(hands)),
                               ("skat", skat, deck.skat), ("aside", aside, deck.aside)]:
        if len(cards) != size:
            raise InputError(f"expected exactly {size} cards, got {len(cards)}", path=where)
        for i, c in enumerate(cards):
            here = f"{where}[{i}]"
            if c in seen:
                raise InputError(f"{name(c)} is dealt twice, already at {seen[c]} (expected {len(deck.cards)} different cards)",
                                 path=here)
            if not deck.mask >> c & 1:
                raise InputError(f"{name(c)} is not in the deck of this ruleset ({len(deck.cards)} cards, ranks {deck.ranks})",
                                 path=here)
            seen[c] = here
