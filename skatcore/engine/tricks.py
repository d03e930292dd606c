"""Trick play of a deal: following suit, taking tricks, the early end of a
decided game, table calls (Kontra ...) and concessions."""

from __future__ import annotations

from skatcore.cards import CARD_NAMES, cards_in, name, names
from skatcore.engine.actions import Bid, Call, Hold, Pass, Phase, Play
from skatcore.engine.state import DealState
from skatcore.engine.view import Trick
from skatcore.errors import InputError
from skatcore.model import FOREHAND, SEATS, Declaration

_PLAY, _DONE = Phase.PLAY, Phase.DONE  # Phase.X asks the Enum class's __getattr__ hook each time


def call_open(rules, c, made, declaration: Declaration, role: str) -> bool:
    """Whether the table call ``c`` is open to ``role`` (``declarer`` or
    ``defender``) given the declarations ``made`` so far: not made yet, the
    call it answers made, the values it requires, not refused by the game
    (Schenken in a null game).  Its window and ``may`` are the caller's."""
    if made.get(c.writes) == c.value or c.by != role or (c.after and not made.get(c.after)):
        return False
    if c.requires and any(made.get(k) != v for k, v in c.requires.items()):
        return False
    return not rules.declaration_refusals.get((declaration.game, declaration.hand, c.writes))


class TrickPlay(DealState):
    """Part of :class:`~skatcore.engine.deal.Deal`: the tricks, table calls and concessions."""

    __slots__ = ()

    def _begin_tricks(self) -> None:
        """The first trick, or after a step between tricks the next one."""
        self.phase = _PLAY
        if not self.tricks:
            self._held = self.hands[self.declarer] if self.declarer is not None else 0  # for declarer_cards()
            self._trick = Trick(FOREHAND, self._cards)
            self.tricks.append(self._trick)
            self.to_move = FOREHAND
        elif not self._between_tricks():  # the steps waiting between these tricks are over
            leader = self.tricks[-1].winner
            self._trick = Trick(leader, self._new_cards())
            self.tricks.append(self._trick)
            self.to_move = leader

    def _between_tricks(self) -> bool:
        """Enter the next step waiting after the trick just finished
        (``"trick"``; ``"last_trick"`` before the last one), one after the
        other; ``False`` when none (more) begins."""
        pending = self._pending
        if pending is None:
            at = self.rules.steps_at
            last = at["last_trick"] if len(self.tricks) == self.rules.deck.hand - 1 else ()
            pending = self._pending = [*at["trick"], *last]
        while pending:
            step = pending.pop(0)
            if step.begins(self):
                self._enter(step)
                return True
        self._pending = None
        return False

    def _new_cards(self) -> list[int]:
        self._cards = []
        return self._cards

    def _playable(self) -> int:
        hand = self.hands[self.to_move]
        trick = self.tricks[-1].cards
        if not trick:
            return hand
        return hand & self._follow[trick[0]] or hand

    def _play(self, c: int) -> None:
        seat = self.to_move
        hand = self.hands[seat]
        bit = 1 << c
        if not hand & bit:
            if c in self.piles.get(seat, ()) or (self.beneath and c in self.dealt[seat] and self.unplayed() & bit):
                raise InputError(f"{name(c)} is not turned up yet: {SEATS[seat]} plays only its open cards")
            raise InputError(f"{SEATS[seat]} does not hold {name(c)}")
        trick = self.tricks[-1]
        cards = trick.cards
        legal = self.legal_mask
        if legal is None:
            legal = self._playable()
        if not legal & bit:
            t = self.table
            led = self.tricks[-1].cards[0]
            what = "trump" if t.follow[led] == 4 else f"{CARD_NAMES[led][0]} (suit of {name(led)})"
            held = names(cards_in(self.hands[seat] & t.class_mask[t.follow[led]]))
            raise InputError(f"{name(c)} does not follow {what} lead; {SEATS[seat]} holds {' '.join(held)}")
        self.legal_mask = None
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
        if self._fast3:  # three cards by the card order alone (no skat_trick_winner, no step between tricks)
            s = t.strength[t.follow[cards[0]]]
            a, b, d = s[cards[0]], s[cards[1]], s[cards[2]]
            winner = (trick.leader + (0 if a > b and a > d else 1 if b > d else 2)) % 3
            self.trick_points[winner] += pts[cards[0]] + pts[cards[1]] + pts[cards[2]]
        else:
            winner = trick.leader
            won = self.rules.trick_winner(self.contract.name, cards, len(self.tricks), trick.leader, self.declarer) \
                if self.rules.trick_hook else t.winner_index(cards)
            for _ in range(won):
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
        elif self._fast3 or not self._between_tricks():
            self._trick = Trick(winner, self._new_cards())
            self.tricks.append(self._trick)
            self.to_move = winner

    @property
    def decided(self) -> bool:
        """Between tricks, the outcome can no longer change (A8 early end):
        the defenders took a trick against an announced schwarz (ouvert
        included).  Play may go on; a record may stop here (:meth:`end_decided`)."""
        if self.done or self.contract is None or self.declarer is None or self.contract.no_trick \
                or not self.declaration.schwarz:
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
        if self.phase is not Phase.PLAY or self.declarer is None or not self.rules.calls or seat not in self.persons:
            return []  # a seat played by another seat's person (a straw man) or by nobody makes no calls
        made = self.declaration.declarations
        role = "declarer" if seat == self.declarer else "defender"
        out = []
        for c in self.rules.calls.values():
            if not call_open(self.rules, c, made, self.declaration, role):
                continue
            if not self._in_window(c, seat):
                continue
            if c.may and not c.may([(s, a) for s, a in self.history if isinstance(a, (Bid, Hold, Pass))], seat, self.declarer):
                continue
            out.append(Call(seat, c.name))
        return out

    def _in_window(self, c, seat: int) -> bool:
        if c.window == "next_card":
            # nothing played since the call it answers
            for _who, a in reversed(self.history):
                if isinstance(a, Call) and a.name == c.after:
                    return True
                if isinstance(a, Play):
                    return False
            return False
        until, n = c.until_trick, len(self.tricks)  # the window closes in trick `until`
        if n > until:
            return False
        current = self.tricks[-1]
        if c.window == "first_lead":
            return n < until or not current.cards
        # own_first_card: the caller has not yet played to trick `until`
        return n < until or len(current.cards) <= (seat - current.leader) % 3

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
        if seat not in self.persons:  # a straw man is conceded by the person playing it
            who = self.controller(seat)
            raise InputError(f"{SEATS[seat]} is played by {'nobody' if who is None else SEATS[who]}: only a person concedes")
        self.conceded.add(seat)
        defenders = set(self.persons) - {self.declarer}
        if defenders <= self.conceded:
            self.concession_by = "defenders"
        elif self.declarer in self.conceded and (
            (seat == self.declarer and self.hands[self.declarer].bit_count() >= self.rules.deck.hand - 1) or self.conceded & defenders
        ):
            self.concession_by = "declarer"
        if self.concession_by:
            self._finish()

    def _finish(self) -> None:
        self.done = True
        self.phase = _DONE
        self.to_move = None
