"""What the player to move may do and doing it: :meth:`Deal.legal_actions`
and :meth:`Deal.apply` (part of :class:`~skatcore.engine.deal.Deal`).

Every deal a simulation, a replay or a player drives passes here about 40
times, so the usual moves take short paths: a card of a three-handed trick
without hook or step between tricks (``_quick``: most deals of most
rulesets) is played inline, with the legal cards as a bitmask the tables of
:mod:`skatcore.engine.layout` turn into actions; a bid, yes or pass, and the
declarer's pickup, discard and declaration skip the questions of the general
path (:meth:`Moves._apply_other`), which takes everything else and says why
an action is not possible.  Both give the same states and errors
(tests/engine/test_deal_paths.py drives the general path beside the short
ones, move by move).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from operator import attrgetter
from typing import TYPE_CHECKING, Any, overload

from skatcore.cards import names
from skatcore.engine.actions import (
    HOLD,
    PASS,
    PICK_UP,
    PLAY_HAND,
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
)
from skatcore.engine.bidding import bids_above
from skatcore.engine.layout import PLAYS_A, PLAYS_B, PLAYS_C
from skatcore.engine.state import DealState
from skatcore.engine.view import Trick
from skatcore.errors import InputError

if TYPE_CHECKING:
    from skatcore.engine.deal import Deal
    from skatcore.engine.steps import Step
    from skatcore.model import Declaration

# the phases as constants: Phase.X asks the Enum class's __getattr__ hook each time
_PLAY, _BIDDING, _SKAT, _DISCARD, _DECLARE = Phase.PLAY, Phase.BIDDING, Phase.SKAT, Phase.DISCARD, Phase.DECLARE
_new_trick = object.__new__
_BITS = tuple(1 << c for c in range(64))  # card -> its bit
_CARD = attrgetter("card")
_FOLLOWING: dict[int, tuple[Play, ...]] = {}  # the plays of the cards that follow a lead, by their mask


class Moves(DealState):
    """Part of :class:`~skatcore.engine.deal.Deal`: its legal actions and applying them."""

    __slots__ = ()

    @property
    def _deal(self) -> Deal:
        """This deal, as the steps take it."""
        return self  # type: ignore[return-value]  # Moves is a part of Deal

    def legal_actions(self) -> Sequence[Action]:
        """What the player to move may do now (concessions aside, see :class:`Concede`)."""
        p = self.phase
        if p is _PLAY:
            hand = self.hands[self.to_move]  # type: ignore[index]  # someone is to move in play
            cards = self._cards
            if cards:
                follow = hand & self._follow[cards[0]]
                if follow:  # else any card
                    self.legal_mask = follow  # apply() checks the card against it
                    plays = _FOLLOWING.get(follow)  # a few thousand sets at most (subsets of a suit, of the trumps)
                    if plays is None:
                        plays = PLAYS_A[follow & 2047] + PLAYS_B[follow >> 11 & 2047] + PLAYS_C[follow >> 22]
                        if len(_FOLLOWING) < 1 << 15:
                            _FOLLOWING[follow] = plays
                    return plays
            self.legal_mask = hand
            return PLAYS_A[hand & 2047] + PLAYS_B[hand >> 11 & 2047] + PLAYS_C[hand >> 22]
        if p is _BIDDING:
            if self.bidding_part == 3:
                return self._lay.alone
            if self.awaiting_answer:
                return _HOLD_OR_PASS
            return self._lay.bids.get(self.bid) or bids_above(self.rules.ladder, self.bid)
        if self.step is not None:  # a running step, whatever kind of decision it asks for
            return self.step.legal(self._deal)
        if p is _SKAT:
            if not self._lay.skat_offers:
                return [PICK_UP, PLAY_HAND]
            return [PICK_UP, PLAY_HAND, *self._offers()]
        if p is _DISCARD and self.to_move is not None:
            return self.discard_options(self.to_move)
        if p is _DECLARE:
            key = ("declare", self.route, self.bid)
            options = self.rules.cache.get(key)
            if options is None:
                options = self.rules.cache[key] = tuple(Declare(d) for d in self._declarations())
                self._lay.offered.update((id(o.declaration), o.declaration) for o in options)
            return options
        return []

    # (helpers, so that legal_actions and apply keep ``self`` a plain local: a closure over it costs every call)
    def _offers(self) -> list[Any]:
        """What the ``"skat"`` steps offer beside picking up and playing hand."""
        deal = self._deal
        return [a for s in self.rules.steps_at["skat"] for a in s.offers(deal)]

    def _offering(self, action: Any) -> Step | None:
        """The ``"skat"`` step that offers ``action``, if any."""
        deal = self._deal
        return next((s for s in self.rules.steps_at["skat"] if action in s.offers(deal)), None)

    def _declarations(self) -> list[Declaration]:
        rules = self.rules
        return [d for d in rules.options[self.route]
                if not rules.contracts[d.game].no_trick or rules.contracts[d.game].fixed[(d.hand, d.ouvert)] >= self.bid]

    def discard_options(self, seat: int, forbidden: int = 0) -> Sequence[Discard]:
        """Every way ``seat`` may put the skat's number of cards away, none of
        the ``forbidden`` cards (a mask)."""
        m = self.hands[seat] & ~forbidden
        allowed = tuple(map(_CARD, PLAYS_A[m & 2047] + PLAYS_B[m >> 11 & 2047] + PLAYS_C[m >> 22]))  # cards_in(m)
        k = len(self.original_skat)  # a deck's skat size (Sechserskat: 3)
        if k == 2:
            return Discards(allowed)
        return [Discard(c) for c in combinations(allowed, k)]

    # -- transitions ---------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Perform ``action`` for the player to move; InputError if illegal."""
        p = self.phase
        seat = self.to_move
        if p is _PLAY and type(action) is Play and seat is not None:  # the hot path: 30 of ~40 moves of a deal
            c = action.card
            legal = self.legal_mask
            hand = self.hands[seat]
            if self._quick and legal is not None and legal >> c & 1 and (rest := hand ^ _BITS[c]) < hand:
                # TrickPlay._play inline (three in play, no trick hook or step, a card legal_actions() offered and
                # the hand holds: its bit went, not came; bits from a table, fewer new ints)
                self.legal_mask = None
                self.hands[seat] = rest
                self.history.append((seat, action))
                cards = self._cards
                cards.append(c)
                if len(cards) < 3:
                    self.to_move = self._next[seat]
                    return
                # the trick is complete: who takes it (as _play does three cards), then the next trick or the end
                a, b, d = cards
                s = self._strength[a]
                x, y, z = s[a], s[b], s[d]
                trick = self._trick
                winner = (trick.leader + (0 if x > y and x > z else 1 if y > z else 2)) % 3  # type: ignore[union-attr]
                pts = self._points
                self.trick_points[winner] += pts[a] + pts[b] + pts[d]
                trick.winner = winner  # type: ignore[union-attr]
                self.tricks_won[winner] += 1
                if len(self.tricks) == self._lay.hand or (self._no_trick and winner == self.declarer):
                    self._finish()
                    return
                self._cards = cards = []
                trick = _new_trick(Trick)  # Trick(winner, cards), without a call of its __init__
                trick.leader, trick.cards, trick.winner = winner, cards, None
                self._trick = trick
                self.tricks.append(trick)
                self.to_move = winner
                return
            self._play(c)
            self.history.append((seat, action))
            return
        if p is _BIDDING and type(action) in _BIDDING_ACTIONS:  # seat is not None while bidding
            if self.bidding_part != 3 and not self._silent_bidders:  # Bidding._bid's legal moves, inline
                kind = type(action)
                if self.awaiting_answer:
                    if kind is not Bid:
                        self.awaiting_answer = False
                        if kind is Hold:
                            self.to_move = self.asker
                        else:
                            self._part_over(self.asker)
                        self.history.append((seat, action))  # type: ignore[arg-type]
                        return
                elif kind is Pass:
                    self._part_over(self.answerer)
                    self.history.append((seat, action))  # type: ignore[arg-type]
                    return
                elif kind is Bid and (v := action.value) in self._lay.ladder and v > self.bid:  # type: ignore[union-attr]
                    self.bid = v
                    self.awaiting_answer = True
                    self.to_move = self.answerer
                    self.history.append((seat, action))  # type: ignore[arg-type]
                    return
            self._bid(action)
            if self._silent_bidders:
                self._skip_silent()
            self.history.append((seat, action))  # type: ignore[arg-type]
            return
        if _DECLARER_ACTIONS.get(type(action)) is p and self.step is None and seat is not None:
            if type(action) is PlayHand:  # what _apply_other does for them, without asking every kind
                self.route, self.phase = "hand", _DECLARE
            else:
                self._declarer_acts(seat, action)
            self.history.append((seat, action))
            return
        self._apply_other(action, p, seat)

    def _apply_other(self, action: Action, p: Phase, seat: int | None) -> None:
        """``apply`` for every kind of action in every phase: the general path."""
        seat = action.seat if isinstance(action, (Concede, Call)) else seat
        if seat is None:  # nobody is to move: the deal is over
            raise InputError(f"{action} is not possible now ({self._expected()})")
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
            step.apply(self._deal, action)
            if step.hides(action):
                self.hidden.add(n)
        elif p is Phase.SKAT and isinstance(action, (PickUp, PlayHand)):
            self._declarer_acts(seat, action)
        elif p is Phase.SKAT and (offering := self._offering(action)):
            self._enter(offering)
            offering.apply(self._deal, action)
        elif (p is Phase.DISCARD and isinstance(action, Discard)) or (p is Phase.DECLARE and isinstance(action, Declare)):
            self._declarer_acts(seat, action)
        else:
            raise InputError(f"{action} is not possible now ({self._expected()})")
        self.history.append((seat, action))

    def _declarer_acts(self, seat: int, action: Action) -> None:
        """The declarer picks up the skat or plays hand, discards, declares."""
        if isinstance(action, Declare):  # the commonest first (an action is one kind only)
            d = action.declaration
            if d.hand == self.picked_up:
                raise InputError("a hand game cannot be declared after picking up the skat" if d.hand
                                 else "the skat was not picked up: declare a hand game")
            if self.declarer is None:
                raise InputError("nobody has won the bidding, so nobody declares")
            self.declare(self.declarer, d)
        elif isinstance(action, Discard):
            self.put_away(seat, action.cards)
            if self.declaration is not None:  # declared before taking the skat (a step's route)
                self.start_play(self.declaration.game)
            else:
                self.phase = _DECLARE
        elif isinstance(action, PickUp):
            self.route = "pickup"
            self.take_skat(seat)
            self.phase = _DISCARD
        else:
            self.route = "hand"
            self.phase = _DECLARE


# the declarer's actions whose phase alone says what they do (no step running)
_DECLARER_ACTIONS = {PickUp: Phase.SKAT, PlayHand: Phase.SKAT, Discard: Phase.DISCARD, Declare: Phase.DECLARE}
_HOLD_OR_PASS = (HOLD, PASS)
_BIDDING_ACTIONS = frozenset({Bid, Hold, Pass})


class Discards(Sequence[Discard]):
    """The legal discards (every pair of the cards allowed), built lazily:
    66 Discard objects per pickup would cost more than the rest of the deal."""

    __slots__ = ("_n", "cards")

    def __init__(self, cards: tuple[int, ...]):
        self.cards = cards
        self._n = len(cards)

    def __len__(self) -> int:
        return self._n * (self._n - 1) // 2

    @overload
    def __getitem__(self, i: int) -> Discard: ...
    @overload
    def __getitem__(self, i: slice) -> list[Discard]: ...
    def __getitem__(self, i: int | slice) -> Discard | list[Discard]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = self._n
        size = n * (n - 1) // 2
        if i < 0:
            i += size
        if not 0 <= i < size:
            raise IndexError(i)
        a = 0
        while i >= n - 1 - a:  # row a holds the pairs (a, a+1 .. n-1)
            i -= n - 1 - a
            a += 1
        return Discard((self.cards[a], self.cards[a + 1 + i]))

    def __repr__(self) -> str:
        return f"Discards({names(self.cards)})"
