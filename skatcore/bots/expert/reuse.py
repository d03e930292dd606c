"""What the expert carries from one card decision to its next in the same
deal: the layouts it solved, the weights it gave them.

A layout sampled at a decision that still fits what the seat knows at its
next one (each card played since in the hand that played it, the voids
shown since respected) is a sample of the new knowledge as good as a fresh
one (rejection sampling: the layouts were drawn from a set of which the
consistent ones are the new set).  Its :class:`~skatcore.bots.solver.Solver`
keeps its transposition entries (tagged per solver, absolute bounds of what
the declarer takes, each card with the hand it was dealt to), so the
positions reached since are often answered from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from skatcore.bots.expert.worlds import Knowledge, consistent
from skatcore.bots.solver import Solver, TrickRule
from skatcore.engine.deal import SeatView


@dataclass(eq=False)
class Kept:
    """One layout: each hand as it was when the play began (the cards played
    since included), the skat, and the solver that has searched it."""

    dealt: tuple[int, int, int]
    skat: int
    solver: Solver

    def hands(self, kn: Knowledge) -> tuple[int, int, int]:
        """The hands now."""
        p = kn.played
        return self.dealt[0] & ~p[0], self.dealt[1] & ~p[1], self.dealt[2] & ~p[2]


@dataclass
class DealMemory:
    """A seat's layouts and layout weights, for its decisions in one deal.

    ``priors`` holds each layout's weight by the bidding (it depends on the
    hands as dealt only), ``evidence`` each card choice's likelihood in the
    layouts (by the hand the seat held then: see
    :meth:`~skatcore.bots.expert.inference.PlayModel.weight`)."""

    key: tuple | None = None
    tricks: list = field(default_factory=list)
    layouts: list[Kept] = field(default_factory=list)
    priors: dict[tuple[int, int, int], float] = field(default_factory=dict)
    evidence: dict[tuple, float] = field(default_factory=dict)
    spare: dict[tuple, list[Solver]] = field(default_factory=dict)  # solvers of layouts dropped, by their set-up

    def solver(self, table, declarer: int, goal: str, invert: bool, node_limit: int,
               rule: TrickRule | None = None, skat: int | None = None) -> Solver:
        """A solver for a new layout (its ``skat``: where house rules count it):
        one of a layout dropped, its transposition entries forgotten
        (:meth:`~skatcore.bots.solver.Solver.new_deal`), else a new one."""
        spare = self.spare.get((id(table), declarer, goal, invert, node_limit, id(rule)))
        if spare:
            solver = spare.pop()
            solver.new_deal(skat)
            return solver
        return Solver(table, declarer, goal, invert, node_limit, rule, skat)

    def _drop(self, layouts: list[Kept]) -> None:
        for k in layouts:
            s = k.solver
            self.spare.setdefault((id(s.table), s.declarer, s.goal, s.invert, int(s.cfg[4]), id(s.rule)), []).append(s)

    def start(self, view: SeatView, kn: Knowledge, goal: str, keep: bool = True) -> list[Kept]:
        """The kept layouts that fit ``kn`` (called at each card decision):
        none, and everything forgotten, unless this is the same seat later in
        the same deal (the same contract and declarer, the same cards dealt
        to the seat, the tricks seen then a prefix of the tricks now).  With
        ``keep`` off none either, the weights remembered all the same."""
        me = view.seat
        key = (view.declaration, view.declarer, me, goal, kn.known[me] | kn.played[me], kn.skat_known)
        tricks = list(view.tricks)
        same = key == self.key and len(tricks) > len(self.tricks) and tricks[:len(self.tricks)] == self.tricks
        self.tricks = tricks
        if not same:
            self._drop(self.layouts)
            self.key = key
            self.layouts = []
            self.priors.clear()
            self.evidence.clear()
            return []
        if not keep:  # every layout drawn afresh: the last ones' solvers become spares
            self._drop(self.layouts)
            self.layouts = []
            return []
        fits = [k for k in self.layouts if consistent(kn, k.dealt, k.skat)]
        self._drop([k for k in self.layouts if k not in fits])
        self.layouts = fits
        return list(fits)

    def keep(self, layouts: list[Kept]) -> None:
        """The layouts of this decision (and those kept that it did not need), for the next."""
        self._drop([k for k in self.layouts if k not in layouts])
        self.layouts = layouts
