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
from collections.abc import Sequence

from skatcore.cards import cards_in, mask_of, name, names
from skatcore.engine.actions import (  # noqa: F401
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
from skatcore.engine.bidding import Bidding, bids_above
from skatcore.engine.facts import DealFacts
from skatcore.engine.seating import Seating
from skatcore.engine.tricks import PLAYS_BY_BYTE, TrickPlay
from skatcore.engine.view import SeatView, Trick
from skatcore.errors import InputError
from skatcore.model import FOREHAND, MIDDLEHAND, SEATS, STANDARD_DECK, Declaration, ScoreResult


def deal_cards(seed: int | random.Random | None = None, deck=None) -> tuple[list[int], list[int]]:
    """A uniformly random deal, packets 3-skat-4-3 (docs/rules/official.md#a1).

    :param deck: the ruleset's :class:`~skatcore.model.Deck` (``rules.deck``);
        another deck than the 32 cards is dealt by its own packets.
    :returns: ``(hands, skat)``: three 10-card lists (forehand, middlehand,
        rearhand) and the two skat cards.
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    if deck is not None and deck is not STANDARD_DECK and deck != STANDARD_DECK:
        return deck.deal(rng)
    r = rng.random
    deck = sorted(range(32), key=lambda _: r())  # a uniform shuffle, faster than rng.shuffle
    return [[deck[i] for i in packet] for packet in _PACKETS], deck[9:11]


# positions in the shuffled deck of each seat's cards: 3 each, 2 to the skat, 4 each, 3 each
_PACKETS = tuple(tuple(range(3 * s, 3 * s + 3)) + tuple(range(11 + 4 * s, 15 + 4 * s)) + tuple(range(23 + 3 * s, 26 + 3 * s))
                 for s in range(3))


class Deal(Seating, Bidding, TrickPlay, DealFacts):
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

    Its jobs live in one module each: :class:`~skatcore.engine.seating.Seating`
    (who plays and sees a seat), :class:`~skatcore.engine.bidding.Bidding`,
    :class:`~skatcore.engine.tricks.TrickPlay` (tricks, table calls,
    concessions) and :class:`~skatcore.engine.facts.DealFacts` (facts and
    score); this class runs the skat, the declaration and the flow steps.
    """

    def __init__(self, rules, hands, skat, aside=(), played=()):
        self.hands = [mask_of(h) for h in hands]
        deck = rules.deck
        sizes = [deck.hand if s in deck.seats else 0 for s in range(3)]
        if len(hands) != 3 \
                or any(len(h) != n or m.bit_count() != n for h, m, n in zip(hands, self.hands, sizes, strict=True)) \
                or len(skat) != deck.skat or len(aside) != deck.aside \
                or (self.hands[0] | self.hands[1] | self.hands[2] | mask_of(skat) | mask_of(aside)) != deck.mask:
            _check_cards([list(h) for h in hands], list(skat), deck, list(aside))  # says what is wrong
        self.rules = rules
        self.dealt = tuple(tuple(h) for h in hands)
        self.aside = tuple(aside)
        seats = deck.seats
        self.play_only(seats)
        plans = rules.table.seats
        self._silent = tuple(s not in seats or not plans[s].bids for s in range(3))  # pass without being asked
        self._persons = tuple(s for s in seats if plans[s].controller == "own")  # who calls and concedes
        self.beneath: dict[int, int] = {}  # stacks: card -> the card under it, turned up when it is played
        self.piles: dict[int, list[int]] = {}  # piles: seat -> face-down cards, top first
        if not rules.table.plain:
            self._arrange(plans)
        self.skat = mask_of(skat)
        self.original_skat = tuple(skat)
        self.phase = Phase.BIDDING
        self.done = False  # a plain attribute: read once per move by every driver loop
        self._legal_mask: int | None = None  # playable cards of the player to move, once computed
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
        self.trick_points = [0, 0, 0]
        self.tricks_won = [0, 0, 0]
        self.conceded: set[int] = set()
        self.concession_by: str | None = None  # "declarer" or "defenders"
        self.settled = False  # ended by a settling table call before the first card
        self._result: ScoreResult | None = None
        self.aside_to: str | None = None  # whom the cards laid aside counted for, once scored (Facts.facts)
        # contract families the player who declares now declared earlier in the series (Series.once_each)
        self.played = frozenset(played)
        self.step = None  # the running Step, while phase is STEP
        self.state: dict = {}  # per-step state, by step name
        self.marks: dict = {}  # what steps showed every seat (SeatView.marks) and scoring reads (facts.marks)
        self.hidden: set[int] = set()  # history indices a step hides from the other seats
        self._pending: list | None = None  # steps still to run between the tricks just played
        if rules.skip_bidding:  # every deal goes the all-pass way (e.g. every deal a Ramsch)
            self._all_passed()
        else:
            self._run_steps("start")
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

    def legal_actions(self) -> list[Action]:
        """What the player to move may do now (concessions aside, see :class:`Concede`)."""
        p = self.phase
        if p is _PLAY:
            m = self._legal_mask = self._playable()  # _play reuses it when this card comes back
            return PLAYS_BY_BYTE[0][m & 255] + PLAYS_BY_BYTE[1][m >> 8 & 255] + \
                PLAYS_BY_BYTE[2][m >> 16 & 255] + PLAYS_BY_BYTE[3][m >> 24]
        if p is Phase.BIDDING:
            if self.bidding_part == 3:
                return (Bid(self.rules.min_bid), PASS)
            if self.awaiting_answer:
                return (HOLD, PASS)
            return bids_above(self.rules.ladder, self.bid)
        if self.step is not None:  # a running step, whatever kind of decision it asks for
            return self.step.legal(self)
        if p is Phase.SKAT:
            return [PICK_UP, PLAY_HAND, *(a for s in self.rules.steps_at["skat"] for a in s.offers(self))]
        if p is Phase.DISCARD:
            return self.discard_options(self.to_move)
        if p is Phase.DECLARE:
            key = ("declare", self.route, self.bid)
            options = self.rules.cache.get(key)
            if options is None:
                options = self.rules.cache[key] = tuple(Declare(d) for d in self._declarations())
            return options
        return []

    def _declarations(self) -> list[Declaration]:
        rules = self.rules
        return [d for d in rules.options[self.route]
                if not rules.contracts[d.game].no_trick or rules.contracts[d.game].fixed[(d.hand, d.ouvert)] >= self.bid]

    def discard_options(self, seat: int, forbidden: int = 0) -> Sequence[Discard]:
        """Every way ``seat`` may put the skat's number of cards away, none of
        the ``forbidden`` cards (a mask)."""
        allowed = tuple(cards_in(self.hands[seat] & ~forbidden))
        k = len(self.original_skat)  # a deck's skat size (Sechserskat: 3)
        if k == 2:
            return Discards(allowed)
        from itertools import combinations

        return [Discard(c) for c in combinations(allowed, k)]

    # -- transitions ---------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Perform ``action`` for the player to move; InputError if illegal."""
        p = self.phase
        if p is _PLAY and type(action) is Play:  # the hot path: 30 of ~40 moves of a deal
            seat = self.to_move
            self._play(action.card)
            self.history.append((seat, action))
            return
        seat = action.seat if isinstance(action, (Concede, Call)) else self.to_move
        if isinstance(action, Concede):
            self._concede(action.seat)
        elif isinstance(action, Call):
            self._call(action)
        elif p is Phase.PLAY and isinstance(action, Play):
            self._play(action.card)
        elif p is Phase.BIDDING and isinstance(action, (Bid, Hold, Pass)):
            self._bid(action)
            self._skip_silent()
        elif self.step is not None:
            step = self.step
            n = len(self.history)
            step.apply(self, action)
            if step.hides(action):
                self.hidden.add(n)
        elif p is Phase.SKAT and isinstance(action, (PickUp, PlayHand)):
            self.route = "pickup" if isinstance(action, PickUp) else "hand"
            if self.route == "pickup":
                self.take_skat(seat)
                self.phase = Phase.DISCARD
            else:
                self.phase = Phase.DECLARE
        elif p is Phase.SKAT and (step := next((s for s in self.rules.steps_at["skat"] if action in s.offers(self)), None)):
            self._enter(step)
            step.apply(self, action)
        elif p is Phase.DISCARD and isinstance(action, Discard):
            self.put_away(seat, action.cards)
            if self.declaration is not None:  # declared before taking the skat (a step's route)
                self.start_play(self.declaration.game)
            else:
                self.phase = Phase.DECLARE
        elif p is Phase.DECLARE and isinstance(action, Declare):
            self._declare(action.declaration)
        else:
            raise InputError(f"{action} is not possible now ({self._expected()})")
        self.history.append((seat, action))

    # -- the step API: how steps move a deal on -------------------------------
    def take_skat(self, seat: int) -> None:
        """``seat`` picks the skat up (a declarer's pickup counts as such)."""
        if seat == self.declarer:
            self.picked_up = True
        self.hands[seat] |= self.skat
        self.skat = 0

    def put_away(self, seat: int, cards) -> None:
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
        self.declaration = self.rules.check_declaration(d, self.bid, route)
        self.start_play(self.declaration.game)

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

    def _enter(self, step) -> None:
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
        return f"{who} to {self.step.name if self.phase is Phase.STEP else self.phase.value}"

    def start_play(self, game: str) -> None:
        """Play ``game`` (declared, or without declarer): the steps waiting for
        the first card run first."""
        self.contract = self.rules.contract(game)
        self.table = self.rules.tricks[game]
        self.step = None
        if not self._run_steps("first_card"):
            self._begin_tricks()

    def _declare(self, d: Declaration) -> None:
        if d.hand == self.picked_up:
            raise InputError("a hand game cannot be declared after picking up the skat" if d.hand
                             else "the skat was not picked up: declare a hand game")
        self.declare(self.declarer, d)


_PLAY = Phase.PLAY


class Discards(Sequence):
    """The legal discards (every pair of the cards allowed), built lazily:
    66 Discard objects per pickup would cost more than the rest of the deal."""

    __slots__ = ("_n", "cards")

    def __init__(self, cards: tuple[int, ...]):
        self.cards = cards
        self._n = len(cards)

    def __len__(self) -> int:
        return self._n * (self._n - 1) // 2

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        a, n = 0, self._n
        while i >= n - 1 - a:  # row a holds the pairs (a, a+1 .. n-1)
            i -= n - 1 - a
            a += 1
        return Discard((self.cards[a], self.cards[a + 1 + i]))

    def __repr__(self) -> str:
        return f"Discards({names(self.cards)})"


def _check_cards(hands, skat, deck=STANDARD_DECK, aside=()) -> None:
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
