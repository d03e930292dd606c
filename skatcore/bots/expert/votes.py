"""The votes of the expert's card play: each sampled layout solved
double-dummy for the cards still in contention, when more layouts cannot
change the choice, and the tie-break by exact card points over the layouts;
a :class:`Decision` records how a card was chosen."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from skatcore.bots.expert.worlds import all_equivalent
from skatcore.bots.solver import Position, Solver

Votes = defaultdict[int, float]  # by card: layouts (weighted) in which it does best


@dataclass
class Decision:
    """How the expert chose its last card (for the ISS breakdown and tests).

    ``how`` is the step that decided: ``"vote"`` (the layouts' votes alone),
    ``"lead_rule"`` (a defender's lead class), ``"points"`` (expected card
    points), ``"lead_key"``, ``"discard"`` (a defender's discard from his shortest suit),
    ``"second_low"`` (a defender's lowest card after the partner's lead),
    ``"heuristic"``, ``"smear"`` (points onto the partner's trick), ``"cheapest"``,
    ``"convention"`` (the fitted conventions, :mod:`~skatcore.bots.expert.conventions`); or
    ``"equivalent"`` / ``"fallback"`` when no layout was solved."""

    how: str
    scores: dict[int, float] = field(default_factory=dict)  # the weighted votes by card
    mass: float = 0.0                                        # their total weight
    tied: tuple[int, ...] = ()                               # the cards level on the votes
    worlds: int = 0


@dataclass(frozen=True)
class Layout:
    """One sampled layout of a decision: the position, its weight, and the
    solver that has searched it (its transposition table still holds it)."""

    pos: Position
    weight: float
    solver: Solver
    base: int = 0  # the solver's nodes before this decision (a layout kept from the last one has some)

    @property
    def nodes(self) -> int:
        """The solver's nodes in this decision."""
        return self.solver.nodes - self.base


def most_points(table, positions: list[Layout], tied: list[int], maximise: bool, live: int,
                nodes: int, layouts: int) -> list[int]:
    """The cards of ``tied`` with the most expected card points for the
    mover: each card's exact double-dummy take over (the first ``layouts``)
    layouts, weighted.  A layout whose search runs
    out of nodes for any of the cards, or whose searches together cost more
    than one search may (``nodes``), counts for none of them; the layouts
    stop once they have cost as many nodes as the vote (a hard decision
    gets more), or once one card leads by more than the layouts left could
    change (each by at most the points still out); cards no layout can tell
    apart (``live``: the cards still in play) are searched once."""
    groups = _equivalent_groups(table, tied, live, True, bool(positions) and positions[0].solver.rule is not None)
    if len(groups) == 1:
        return tied
    # at least one search's node limit (``nodes``); no node limit, no budget
    budget = max(nodes, sum(lay.nodes for lay in positions)) if nodes else 1 << 62
    spent = 0
    extra: Votes = defaultdict(float)
    counted = False
    used = positions[:layouts]
    # a card's take differs from another's by at most the points still out: past that lead nothing can change
    swing = positions[0].solver.live(positions[0].pos) if positions else 0
    left = sum(lay.weight for lay in used)
    for lay in used:
        left -= lay.weight
        solver, pos = lay.solver, lay.pos
        aborted, before = solver.aborted, solver.nodes
        got: dict[int, int] = {}
        for group in groups:
            c = group[0]
            after, taken = _after(solver, pos, c)
            got[c] = taken + solver.value(after)
            if solver.aborted != aborted or (nodes and solver.nodes - before > nodes):
                break
        else:
            counted = True
            for group in groups:
                for c in group:
                    extra[c] += lay.weight * (got[group[0]] if maximise else -got[group[0]])
        spent += solver.nodes - before
        if spent >= budget or (counted and _decided([extra[g[0]] for g in groups], left * swing)):
            break
    if not counted:
        return tied
    top = max(extra[c] for c in tied)
    return [c for c in tied if extra[c] >= top - 1e-9]


def _decided(values: list[float], left: float) -> bool:
    """Whether the best of ``values`` leads every other by more than ``left``."""
    ranked = sorted(values, reverse=True)
    return ranked[0] - ranked[1] > left + 1e-9


def reaches(solver: Solver, pos: Position, need: int, cards: list[int] | None) -> dict[int, int]:
    """Like :meth:`~skatcore.bots.solver.Solver.card_values` with ``need`` (1 reached, 0 not, 2
    unknown), for ``cards`` only (None: every legal card).  Every legal card: one call of the
    solver's root search; else one search per card, equivalent cards (see
    :func:`~skatcore.bots.expert.worlds.all_equivalent`) searched once."""
    table = solver.table
    if cards is None or len(cards) == pos.legal(table).bit_count():
        return solver.card_values(pos, need)
    out: dict[int, int] = {}
    for group in _equivalent_groups(table, cards, pos.cards, solver.goal == "points", solver.rule is not None):
        after, taken = _after(solver, pos, group[0])
        aborted = solver.aborted
        got = solver.reaches(after, need - taken)
        for c in group:
            out[c] = 2 if solver.aborted != aborted else int(got)
    return out


def _equivalent_groups(table, cards: list[int], live: int, points: bool, ruled: bool = False) -> list[list[int]]:
    """``cards`` in runs that are one choice (see :func:`all_equivalent`; ``live``: the cards still
    in play), by follow class and strength."""
    if ruled:  # a plugin decides trick winners: no card equals its neighbour in the card order
        return [[c] for c in cards]
    groups: list[list[int]] = []
    for c in sorted(cards, key=lambda c: (table.follow[c], table.strength[table.follow[c]][c])):
        if groups and all_equivalent(table, (1 << c) | (1 << groups[-1][-1]), live, points):
            groups[-1].append(c)
        else:
            groups.append([c])
    return groups


def _after(solver: Solver, pos: Position, card: int) -> tuple[Position, int]:
    """The position after ``card``, and what the solver's side took in the
    trick it completed (card points, or a trick when tricks count)."""
    after, winner = solver.play(pos, card)
    if winner is None or (winner == solver.declarer) == solver.invert:
        return after, 0
    return after, 1 if solver.goal == "tricks" else sum(solver.table.points[x] for x in (*pos.trick, card))


def settled(scores: Votes, mass: float, left: float) -> bool:
    """Whether more layouts cannot change the choice: one card leads every
    other by more than the weight of the layouts left, or every card
    reaches the goal in every layout so far (or none does)."""
    ranked = sorted(scores.values(), reverse=True)
    if ranked[0] - ranked[-1] < 1e-9:
        return ranked[0] < 1e-9 or ranked[0] > mass - 1e-9
    return ranked[0] - ranked[1] > left


def credit(scores: Votes, values: dict[int, int], maximise: bool) -> None:
    """Add one layout's answers (1 reached, 0 not, 2 unknown) from the mover's side."""
    for c, v in values.items():
        got = 0.5 if v == 2 else v
        scores[c] += got if maximise else 1 - got


def schneider_votes(scores: Votes, mass: float, positions: list[Layout], haves: list[int], declarer: bool,
                    thresholds, answers) -> Votes:
    """Where the cards that vote best win the game in every layout (or lose
    it in every one), a player goes on for the next step a sheet pays for:
    the declarer for schneider (``thresholds.schneider``, 90) or out of it
    (``out_of_schneider``, 31), the defenders against it.  Those cards'
    votes on that goal by the same layouts and solvers (``haves``: the
    declarer's card points home in each; ``answers``: as :func:`reaches`);
    ``scores`` itself where it does not apply."""
    best = max(scores.values())
    tied = [c for c in scores if scores[c] >= best - 1e-9]
    if len(tied) < 2 or not positions or not (best >= mass - 1e-9 or best <= 1e-9):
        return scores
    won = (best >= mass - 1e-9) == declarer  # the declarer wins in every layout
    target = thresholds.schneider if won else thresholds.out_of_schneider
    out: Votes = defaultdict(float)
    for lay, have in zip(positions, haves, strict=True):
        one: Votes = defaultdict(float)
        credit(one, answers(lay.solver, lay.pos, target - have, tied), declarer)
        for c in tied:
            out[c] += lay.weight * one[c]
    return out
