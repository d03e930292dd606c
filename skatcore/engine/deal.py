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
from functools import lru_cache

from skatcore.cards import CARD_NAMES, cards_in, mask_of, name, names
from skatcore.errors import InputError
from types import MappingProxyType

from skatcore.model import FOREHAND, MIDDLEHAND, REARHAND, SEATS, STANDARD_DECK, Declaration, RamschFacts, ScoreResult
from skatcore.engine.scoring import make_facts, passed_result
from skatcore.engine.actions import (HOLD, PASS, PICK_UP, PLAY_HAND, PLAYS, UNSEEN, Action, Bid, Call, Concede, Declare, Discard,  # noqa: F401
                                     Hold, Pass, Phase, PickUp, Play, PlayHand, Unseen)
from skatcore.engine.view import SeatView, Trick  # noqa: F401 (re-exported: the deal's public names)




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


class Deal:
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
    """

    def __init__(self, rules, hands, skat, aside=(), played=()):
        self.hands = [mask_of(h) for h in hands]
        deck = rules.deck
        sizes = [deck.hand if s in deck.seats else 0 for s in range(3)]
        if len(hands) != 3 or any(len(h) != n or m.bit_count() != n for h, m, n in zip(hands, self.hands, sizes)) \
                or len(skat) != deck.skat or len(aside) != deck.aside \
                or (self.hands[0] | self.hands[1] | self.hands[2] | mask_of(skat) | mask_of(aside)) != deck.mask:
            _check_cards([list(h) for h in hands], list(skat), deck, list(aside))  # says what is wrong
        self.rules = rules
        self.dealt = tuple(tuple(h) for h in hands)
        self.aside = tuple(aside)
        seats = deck.seats
        self._k = len(seats)  # cards per trick
        self._next = tuple(seats[(seats.index(s) + 1) % len(seats)] if s in seats else s for s in range(3))
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
        # contract families the player who declares now declared earlier in the series (Series.once_each)
        self.played = frozenset(played)
        self.step = None  # the running Step, while phase is STEP
        self.state: dict = {}  # per-step state, by step name
        self.marks: dict = {}  # what steps showed every seat (SeatView.marks) and scoring reads (facts.marks)
        self.hidden: set[int] = set()  # history indices a step hides from the other seats
        if rules.skip_bidding:  # every deal goes the all-pass way (e.g. every deal a Ramsch)
            self._all_passed()
        else:
            self._run_steps("start")
        self._skip_silent()

    def _arrange(self, plans) -> None:
        for s in self.rules.deck.seats:
            plan, dealt = plans[s], self.dealt[s]
            k = plan.open
            if plan.arrangement == "stacks":  # layer j of the stacks = cards dealt j*k..; the last layer on top
                for j in range(1, len(dealt) // k):
                    for i in range(k):
                        self.beneath[dealt[j * k + i]] = dealt[(j - 1) * k + i]
                self.hands[s] = mask_of(dealt[-k:])
            elif plan.arrangement == "pile":
                self.hands[s] = mask_of(dealt[:k])
                self.piles[s] = list(dealt[k:])

    # -- queries -------------------------------------------------------------
    @property
    def thrown_in(self) -> bool:
        return self.done and self.contract is None

    def hand_of(self, seat: int) -> list[int]:
        return list(cards_in(self.hands[seat]))

    def controller(self, seat: int) -> int | None:
        """The seat whose person makes ``seat``'s moves: the seat itself, the
        defending person for a seat the defender plays (``None`` until there
        is a declarer), ``None`` for a seat nobody plays (its moves are forced)."""
        who = self.rules.table.seats[seat].controller
        if who == "own":
            return seat
        if who == "nobody" or self.declarer is None:
            return None
        plans = self.rules.table.seats
        return next((s for s in self.rules.deck.seats if s != self.declarer and plans[s].controller == "own"), None)

    def sees(self, viewer: int, seat: int) -> bool:
        """Whether the person playing ``viewer`` may see ``seat``'s open cards now."""
        me = self.controller(viewer)
        if me is None:
            return False
        if seat == me:
            return True
        for moment, to in self.rules.table.seats[seat].shown:
            if self._reached(moment) and (to == "all" or to == "declarer" and me == self.declarer
                                          or to == "controller" and self.controller(seat) == me):
                return True
        return False

    def _reached(self, moment: str) -> bool:
        if moment == "deal":
            return True
        if moment == "declared":
            return self.declaration is not None
        first = self.tricks[0] if self.tricks else None
        if moment == "first_card":
            return first is not None and bool(first.cards)
        return first is not None and first.winner is not None  # first_trick

    def view(self, seat: int) -> "SeatView":
        """What ``seat`` may know now: its own cards, every public call and
        card played, the declarer's cards in an ouvert game,
        and what the steps showed (``marks``), and its own discards - never other hands or the skat."""
        return SeatView(self, seat, self.legal_actions() if self.to_move == seat else ())

    def legal_actions(self) -> list[Action]:
        """What the player to move may do now (concessions aside, see :class:`Concede`)."""
        p = self.phase
        if p is _PLAY:
            m = self._legal_mask = self._playable()  # _play reuses it when this card comes back
            return _PLAYS_BY_BYTE[0][m & 255] + _PLAYS_BY_BYTE[1][m >> 8 & 255] + \
                _PLAYS_BY_BYTE[2][m >> 16 & 255] + _PLAYS_BY_BYTE[3][m >> 24]
        if p is Phase.BIDDING:
            if self.bidding_part == 3:
                return (Bid(self.rules.min_bid), PASS)
            if self.awaiting_answer:
                return (HOLD, PASS)
            return _bids_above(self.rules.ladder, self.bid)
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

    def _playable(self) -> int:
        hand = self.hands[self.to_move]
        trick = self.tricks[-1].cards
        if not trick:
            return hand
        t = self.table
        follow = hand & t.class_mask[t.follow[trick[0]]]
        return follow or hand

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

    def end_step(self, then: Phase = Phase.PLAY) -> None:
        """The running step is over; the deal goes on at the core's ``then``:
        the first trick (a ``"first_card"`` step), or the declarer's
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

    def _bid(self, action) -> None:
        seat = self.to_move
        if self.bidding_part == 3:  # forehand alone: play at the minimum bid or pass
            if isinstance(action, Bid):
                if action.value != self.rules.min_bid:
                    raise InputError(f"forehand alone can only bid {self.rules.min_bid}, not {action.value}")
                self.bid = action.value
                self._bidding_won(FOREHAND)
            elif isinstance(action, Pass):
                self._all_passed()
            else:
                raise InputError("nobody has bid: forehand says a bid or passes")
            return
        if self.awaiting_answer:
            if isinstance(action, Bid):
                raise InputError(f"{SEATS[seat]} must answer {self.bid} with yes or pass")
            self.awaiting_answer = False
            if isinstance(action, Pass):
                self._part_over(survivor=self.asker)
            else:
                self.to_move = self.asker
            return
        if isinstance(action, Hold):
            raise InputError(f"{SEATS[seat]} is asking: name a bid or pass")
        if isinstance(action, Pass):
            self._part_over(survivor=self.answerer)
            return
        v = action.value
        if v not in self.rules.ladder:
            raise InputError(f"{v} is not a game value on the bid ladder of {self.rules.name} (next: {_next_on(self.rules.ladder, v)})")
        if v <= self.bid:
            raise InputError(f"bid {v} must exceed {self.bid}")
        self.bid = v
        self.awaiting_answer = True
        self.to_move = self.answerer

    def _skip_silent(self) -> None:
        """Seats that do not bid pass without being asked (nothing recorded)."""
        while self.phase is Phase.BIDDING and self._silent[self.to_move]:
            self._bid(PASS)

    def _part_over(self, survivor: int) -> None:
        if self.bidding_part == 1:
            self.bidding_part = 2
            self.asker, self.answerer = REARHAND, survivor
            self.to_move = REARHAND
        elif self.bid:
            self._bidding_won(survivor)
        else:  # nobody named a value: forehand may play at the minimum bid
            self.bidding_part = 3
            self.to_move = FOREHAND

    def _bidding_won(self, seat: int) -> None:
        self.declarer = seat
        self.to_move = seat
        self.phase = Phase.SKAT

    def _all_passed(self) -> None:
        if self.rules.all_pass == "throw_in":
            self.done = True
            self.phase = Phase.DONE
            self.to_move = None
            self._result = passed_result(self.rules)
        elif not self._run_steps("all_passed"):  # a contract without declarer, e.g. Ramsch
            self.start_play(self.rules.all_pass)

    def start_play(self, game: str) -> None:
        """Play ``game`` (declared, or without declarer): the steps waiting for
        the first card run first."""
        self.contract = self.rules.contract(game)
        self.table = self.rules.tricks[game]
        self.step = None
        if not self._run_steps("first_card"):
            self._begin_tricks()

    def _begin_tricks(self) -> None:
        self.phase = Phase.PLAY
        self.tricks.append(Trick(leader=FOREHAND))
        self.to_move = FOREHAND

    def set_declarer(self, seat: int, bid: int) -> None:
        """Skip the bidding (a record that gives only ``declarer`` and ``bid``)."""
        if self.phase is not Phase.BIDDING or self.history:
            raise InputError("the bidding has already started")
        if bid not in self.rules.ladder:
            raise InputError(f"{bid} is not a game value on the bid ladder of {self.rules.name} (next: {_next_on(self.rules.ladder, bid)})")
        if self._silent[seat]:
            raise InputError(f"{SEATS[seat]} does not bid in {self.rules.name}, so it cannot be the declarer")
        self.bid = bid
        self._bidding_won(seat)

    def _declare(self, d: Declaration) -> None:
        if d.hand == self.picked_up:
            raise InputError("a hand game cannot be declared after picking up the skat" if d.hand
                             else "the skat was not picked up: declare a hand game")
        self.declare(self.declarer, d)

    def _play(self, c: int) -> None:
        seat = self.to_move
        hand = self.hands[seat]
        bit = 1 << c
        if not hand & bit:
            if self.unplayed() & ~hand & bit and c in self.dealt[seat]:
                raise InputError(f"{name(c)} is not turned up yet: {SEATS[seat]} plays only its open cards")
            raise InputError(f"{SEATS[seat]} does not hold {name(c)}")
        trick = self.tricks[-1]
        cards = trick.cards
        legal = self._legal_mask
        if legal is None:
            legal = self._playable()
        if not legal & bit:
            t = self.table
            led = self.tricks[-1].cards[0]
            what = "trump" if t.follow[led] == 4 else f"{CARD_NAMES[led][0]} (suit of {name(led)})"
            held = names(cards_in(self.hands[seat] & t.class_mask[t.follow[led]]))
            raise InputError(f"{name(c)} does not follow {what} lead; {SEATS[seat]} holds {' '.join(held)}")
        self._legal_mask = None
        self.hands[seat] = hand ^ bit
        if self.beneath and c in self.beneath:
            self.hands[seat] |= 1 << self.beneath[c]  # the card beneath is turned up
        cards.append(c)
        k = self._k
        if len(cards) < k:
            self.to_move = self._next[seat]
            return
        t = self.table
        pts = t.points
        if k == 3:
            s = t.strength[t.follow[cards[0]]]
            a, b, d = s[cards[0]], s[cards[1]], s[cards[2]]
            winner = (trick.leader + (0 if a > b and a > d else 1 if b > d else 2)) % 3
            self.trick_points[winner] += pts[cards[0]] + pts[cards[1]] + pts[cards[2]]
        else:
            winner = trick.leader
            for _ in range(t.winner_index(cards)):
                winner = self._next[winner]
            self.trick_points[winner] += sum(pts[x] for x in cards)
        trick.winner = winner
        self.tricks_won[winner] += 1
        for s, pile in self.piles.items():  # a pile turns up cards until its open cards are complete again
            want = self.rules.table.seats[s].open
            while pile and self.hands[s].bit_count() < want:
                self.hands[s] |= 1 << pile.pop(0)
        if len(self.tricks) == self.rules.deck.hand or (self.contract.no_trick and winner == self.declarer):
            self._finish()
        else:
            self.tricks.append(Trick(leader=winner))
            self.to_move = winner

    @property
    def decided(self) -> bool:
        """Between tricks, the outcome can no longer change (A8 early end):
        the defenders took a trick against an announced schwarz (ouvert
        included).  Play may go on; a record may stop here (:meth:`end_decided`)."""
        if self.done or self.declarer is None or self.contract.no_trick or not self.declaration.schwarz:
            return False
        if self.tricks and self.tricks[-1].cards and self.tricks[-1].winner is None:
            return False  # in the middle of a trick
        return any(t.winner is not None and t.winner != self.declarer for t in self.tricks)

    def end_decided(self) -> None:
        """End a :attr:`decided` deal where it stands, as the International
        Skat Server does: the declarer has lost; unplayed cards go to the defenders."""
        if not self.decided:
            raise InputError("the deal is not decided yet")
        self.concession_by = "declarer"
        self._finish()

    def legal_calls(self, seat: int) -> list[Call]:
        """Table calls ``seat`` may make now (out of turn; not part of
        :meth:`legal_actions`, so a player is asked separately)."""
        if self.phase is not Phase.PLAY or self.declarer is None or not self.rules.calls or seat not in self._persons:
            return []  # a seat played by another seat's person (a straw man) or by nobody makes no calls
        made = self.declaration.declarations
        role = "declarer" if seat == self.declarer else "defender"
        out = []
        for c in self.rules.calls.values():
            if made.get(c.writes) == c.value or c.by != role or (c.after and not made.get(c.after)):
                continue
            if c.requires and any(made.get(k) != v for k, v in c.requires.items()):
                continue
            if self.rules.declaration_refusals.get((self.declaration.game, self.declaration.hand, c.writes)):
                continue  # a declaration this contract refuses (Schenken in a null game)
            if not self._in_window(c, seat):
                continue
            if c.may and not c.may([(s, a) for s, a in self.history if isinstance(a, (Bid, Hold, Pass))], seat, self.declarer):
                continue
            out.append(Call(seat, c.name))
        return out

    def _in_window(self, c, seat: int) -> bool:
        first = self.tricks[0].cards
        if c.window == "first_lead":
            return not first and len(self.tricks) == 1
        if c.window == "next_card":
            # nothing played since the call it answers
            for who, a in reversed(self.history):
                if isinstance(a, Call) and a.name == c.after:
                    return True
                if isinstance(a, Play):
                    return False
            return False
        # own_first_card: the caller has not yet played to the first trick
        leader = self.tricks[0].leader
        return len(self.tricks) == 1 and len(first) <= (seat - leader) % 3

    def _call(self, action: Call) -> None:
        if action not in self.legal_calls(action.seat):
            c = self.rules.calls.get(action.name)
            why = "no such call in this ruleset" if c is None else "not possible now"
            raise InputError(f"{SEATS[action.seat]} cannot call {action.name}: {why}")
        c = self.rules.calls[action.name]
        d = self.declaration
        self.declaration = Declaration(d.game, d.hand, d.schneider, d.schwarz, d.ouvert,
                                       {**d.declarations, c.writes: c.value})
        if c.settles:  # e.g. Schenken accepted: no card is played
            self.settled = True
            self._finish()

    def _concede(self, seat: int) -> None:
        if self.phase is not Phase.PLAY or self.declarer is None:
            raise InputError("conceding is possible only during play of a declarer game")
        if seat not in self._persons:  # a straw man is conceded by the person playing it
            who = self.controller(seat)
            raise InputError(f"{SEATS[seat]} is played by {'nobody' if who is None else SEATS[who]}: only a person concedes")
        self.conceded.add(seat)
        defenders = set(self._persons) - {self.declarer}
        if defenders <= self.conceded:
            self.concession_by = "defenders"
        elif self.declarer in self.conceded and (
            seat == self.declarer and self.hands[self.declarer].bit_count() >= self.rules.deck.hand - 1 or self.conceded & defenders
        ):
            self.concession_by = "declarer"
        if self.concession_by:
            self._finish()

    def _finish(self) -> None:
        self.done = True
        self.phase = Phase.DONE
        self.to_move = None

    # -- result ----------------------------------------------------------------
    def facts(self):
        """Facts of the finished deal: :class:`GameFacts` of a declarer game
        (cards not yet played go to the side that did not concede), or
        :class:`RamschFacts` of a deal without declarer."""
        if not self.done or self.contract is None:
            raise InputError("the deal is not finished")
        pts = self.table.points
        if self.declarer is None:
            last = self.tricks[-1]
            return RamschFacts(self.contract, tuple(self.trick_points), tuple(self.tricks_won),
                               tuple(cards_in(self.skat)), sum(pts[c] for c in cards_in(self.skat)), last.winner,
                               marks=MappingProxyType(dict(self.marks)))
        decl = self.declarer
        all_cards = self.declarer_cards()
        if self.settled:  # nothing was played: the plugin that settled it says how it counts
            outcome = self.rules.call_hook("skat_settled_outcome", contract=self.contract,
                                           declaration=self.declaration, bid=self.bid) or {}
            return make_facts(self.rules, self.contract, self.declaration, bid=self.bid, declarer=decl,
                              matadors=self.table.matadors(all_cards),
                              declarer_points=outcome.get("declarer_points", 0),
                              declarer_tricks=outcome.get("declarer_tricks"), defender_tricks=None)
        points = self.trick_points[decl] + sum(pts[c] for c in cards_in(self.skat))
        dtricks = self.tricks_won[decl]
        ftricks = sum(self.tricks_won) - dtricks
        unplayed = self.unplayed()
        if self.concession_by and unplayed:
            rest_points = sum(pts[c] for c in cards_in(unplayed))
            rest_points += sum(pts[c] for c in self.tricks[-1].cards if self.tricks[-1].winner is None)
            rest_tricks = self.rules.deck.hand - dtricks - ftricks
            if self.concession_by == "defenders" and self.contract.no_trick:
                # a null declarer wins by taking no trick: conceding defenders
                # keep the rest (crediting it to the declarer lost the null)
                ftricks += rest_tricks
            elif self.concession_by == "defenders":
                points, dtricks = points + rest_points, dtricks + rest_tricks
            else:
                ftricks += rest_tricks
                if self.contract.no_trick:
                    dtricks = max(dtricks, 1)  # a conceded null counts as lost
        points += self._aside_points(points)
        last = next((t for t in reversed(self.tricks) if t.winner is not None), None)
        return make_facts(
            self.rules, self.contract, self.declaration,
            bid=self.bid, declarer=decl, matadors=self.table.matadors(all_cards),
            declarer_points=points, declarer_tricks=dtricks, defender_tricks=ftricks,
            last_trick=tuple(last.cards) if last else (), last_trick_winner=last.winner if last else None,
            tricks=tuple(t for t in self.tricks if t.winner is not None),
        )

    def declarer_cards(self) -> int:
        """The cards matadors are counted from (A6, B4): the declarer's cards as
        held at the declaration (played since, or still held) plus the skat as
        it lies now.  Cards a push moved away no longer count, cards pushed to
        the declarer (into the skat) do."""
        decl = self.declarer
        held = self.hands[decl]
        for trick in self.tricks:
            seat = trick.leader
            for c in trick.cards:
                if seat == decl:
                    held |= 1 << c
                seat = self._next[seat]
        under = [self.beneath[c] for c in cards_in(held) if c in self.beneath]
        while under:  # cards still lying beneath the declarer's open cards
            c = under.pop()
            held |= 1 << c
            under += [self.beneath[c]] if c in self.beneath else []
        return held | self.skat

    def unplayed(self) -> int:
        """Cards still held, open or not yet turned up (a mask)."""
        rest = self.hands[0] | self.hands[1] | self.hands[2]
        if self.beneath:
            played = {c for t in self.tricks for c in t.cards}
            rest |= mask_of(b for c, b in self.beneath.items() if b not in played)
        return rest | mask_of(c for pile in self.piles.values() for c in pile)

    def _aside_points(self, declarer_points: int) -> int:
        """The laid-aside cards' points that count for the declarer (``Deck.aside_to``)."""
        to = self.rules.deck.aside_to
        if not self.aside or to in ("nobody", "defenders"):
            return 0
        pts = self.table.points
        worth = sum(pts[c] for c in self.aside)
        if to == "declarer":
            return worth
        in_play = sum(pts[c] for c in self.rules.deck.cards) - worth
        return worth if declarer_points > in_play - declarer_points else 0  # more_points; a tie: the defenders

    def result(self) -> ScoreResult:
        """The score of the finished deal (a thrown-in deal scores 0)."""
        if self._result is None:
            self._result = self.rules.score(self.facts())
        return self._result


_PLAY = Phase.PLAY
# the Play actions of the cards set in one byte of a hand mask, per byte position
# (the last position covers 12 bits: cards 24..35, the sixes of a 36-card deck included)
_PLAYS_BY_BYTE = tuple(tuple(tuple(PLAYS[8 * k + i] for i in range(12 if k == 3 else 8) if b >> i & 1)
                             for b in range(4096 if k == 3 else 256)) for k in range(4))


@lru_cache(maxsize=4096)
def _bids_above(ladder: tuple[int, ...], bid: int) -> tuple:
    return (*(Bid(v) for v in ladder if v > bid), PASS)


class Discards(Sequence):
    """The legal discards (every pair of the cards allowed), built lazily:
    66 Discard objects per pickup would cost more than the rest of the deal."""

    __slots__ = ("cards", "_n")

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


def _next_on(ladder, v) -> str:
    higher = [x for x in ladder if x > v]
    lower = [x for x in ladder if x < v]
    near = [str(x) for x in (lower[-1:] + higher[:1])]
    return " or ".join(near) if near else "none"


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
