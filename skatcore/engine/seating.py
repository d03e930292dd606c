"""Who plays and who sees each seat of a deal: the seats' persons (a straw
man is played by a defender, a seat nobody plays has forced moves), cards in
stacks or a pile, and when a hand is shown (:class:`~skatcore.model.SeatPlan`)."""

from __future__ import annotations

from skatcore.cards import mask_of
from skatcore.engine.actions import Phase
from skatcore.engine.state import DealState
from skatcore.errors import InputError
from skatcore.model import SEATS


class Seating(DealState):
    """Part of :class:`~skatcore.engine.deal.Deal`: the table's seats."""

    __slots__ = ()

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

    def mover(self, seat: int) -> int | None:
        """:meth:`controller` of ``seat`` when it is to move (``None``: its one move is forced).  A seat nobody
        plays that has a choice to make (a straw man in a Ramsch when all pass: no declarer, so no defender
        to play it; a pile asked to push the skat) is the ruleset's fault: an :class:`InputError` naming it,
        not a crash of whoever drives the deal."""
        who = self.controller(seat)
        if who is not None and self.phase is Phase.PLAY:  # the usual move: nothing to ask
            return who
        n = len(self.legal_actions())
        if n == 0 and self.phase is not Phase.PLAY:  # (Revolution without the ouvert announcement its value
            # needs: a declarer with nothing to declare, an IndexError of whoever drove the deal)
            raise InputError(f"ruleset {self.rules.name!r}: {SEATS[seat]} is to move ({self.phase.value}) and the "
                             "rules leave nothing it may do (expected every game on the bid ladder to be one a "
                             "declarer can declare)")
        if who is None and n > 1:
            plan = self.rules.table.seats[seat].controller
            why = "the defender, and there is no declarer" if plan == "defender" else "nobody"
            raise InputError(f"ruleset {self.rules.name!r}: {SEATS[seat]} has a choice to make in a "
                             f"{self.contract.label if self.contract else 'deal'} but is played by {why} (skat_table: a straw man, half-dummy or "
                             "pile): nobody can play its cards (expected all pass to throw the deal in, or a step "
                             "taking the seat out of play)")
        return who

    def sees(self, viewer: int, seat: int) -> bool:
        """Whether the person playing ``viewer`` may see ``seat``'s open cards now."""
        me = self.controller(viewer)
        if me is None:
            return False
        if seat == me:
            return True
        for moment, to in self.rules.table.seats[seat].shown:
            if self._reached(moment) and (to == "all" or (to == "declarer" and me == self.declarer)
                                          or (to == "controller" and self.controller(seat) == me)):
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
