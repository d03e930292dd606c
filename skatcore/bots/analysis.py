"""Double-dummy analysis of a played deal (``skat solve``): what the declarer
gets under best play by everybody, at the start and after every card, and
which cards changed it - the analysis bridge players know from their
double-dummy solvers.

The value is the declarer's card points (skat included) in a game won by
card points, and the number of tricks the declarer cannot avoid in a game
won by taking no trick (0: the null is made).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from skatcore.bots.solver import Position, Solver
from skatcore.cards import CARD_NAMES, cards_in
from skatcore.model import SEATS


class NotSolvable(Exception):
    """A deal the analysis does not cover (no declarer, nothing played)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class Goal:
    """How one contract's double-dummy value is asked of the solver.

    ``card_points``: the declarer maximises his card points; ``no_trick``
    (null): the declarer minimises his tricks, so the solver counts the
    defenders' tricks with the declarer maximising them (``invert``).
    """

    contract: object
    table: object
    declarer: int
    solver: Solver = field(init=False)

    def __post_init__(self):
        if self.contract.goal == "card_points":
            self.solver = Solver(self.table, self.declarer, "points")
        elif self.contract.goal == "no_trick":
            self.solver = Solver(self.table, self.declarer, "tricks", invert=True)
        else:
            raise NotSolvable(f"a {self.contract.label} has no declarer: no double-dummy value to give")

    def value(self, pos: Position) -> int:
        """What the declarer gets from ``pos`` on: card points, or tricks he must take."""
        if self.contract.goal == "card_points":
            return self.solver.value(pos)
        return self.solver.live(pos) - self.solver.value(pos)

    def gained(self, trick: tuple[int, ...], winner: int) -> int:
        """What a finished trick adds to the declarer's count."""
        if winner != self.declarer:
            return 0
        return sum(self.table.points[c] for c in trick) if self.contract.goal == "card_points" else 1


def analyse(deal) -> dict:
    """The double-dummy course of a deal whose play has begun (or ended).

    :returns: ``contract``, ``declarer``, ``goal``, ``start`` (the value
        before the first card), ``tricks`` (each with its cards, winner and
        the value after it), ``changes`` (every card that moved the value:
        who, which card, from, to, how much was given away), ``played``
        (the value actually reached), ``complete`` (whether every card was
        played) and ``target`` (the value that wins: 61 points, or 0 tricks).
    :raises NotSolvable: a deal without declarer, or without play, or under a
        ruleset whose plugin decides trick winners.
    """
    if deal.contract is None or (deal.declarer is None and deal.contract.declarer):
        raise NotSolvable("no game was played")
    if deal.settled or not deal.tricks:
        raise NotSolvable("settled before the first card")
    if deal.rules.trick_hook:  # its positions would follow another trick winner than the deal did
        raise NotSolvable("a plugin decides trick winners (skat_trick_winner): the double-dummy solver knows only "
                          "the card order")
    goal = Goal(deal.contract, deal.table, deal.declarer)
    table = deal.table
    hands = list(deal.hands)
    for t in deal.tricks:
        for i, c in enumerate(t.cards):
            hands[(t.leader + i) % 3] |= 1 << c
    pos = Position(tuple(hands), deal.tricks[0].leader, ())
    taken = sum(table.points[c] for c in cards_in(deal.skat)) if deal.contract.goal == "card_points" else 0
    value = start = taken + goal.value(pos)
    tricks, changes = [], []
    for n, t in enumerate(deal.tricks, start=1):
        for c in t.cards:
            seat = pos.to_move
            trick = (*pos.trick, c)
            pos, winner = pos.play(c, table)
            if winner is not None:
                taken += goal.gained(trick, winner)
            after = taken + goal.value(pos) if pos.hands != (0, 0, 0) else taken
            if after != value:
                changes.append({"trick": n, "seat": SEATS[seat], "card": CARD_NAMES[c], "before": value, "after": after,
                                "gave_away": abs(after - value)})
            value = after
        if not t.cards:
            break
        tricks.append({"trick": n, "leader": SEATS[t.leader], "cards": [CARD_NAMES[c] for c in t.cards],
                       "winner": SEATS[t.winner] if t.winner is not None else None, "value": value})
    target = deal.rules.thresholds.win if deal.contract.goal == "card_points" else 0
    return {"contract": deal.contract.name, "declarer": SEATS[deal.declarer], "goal": deal.contract.goal,
            "target": target, "start": start, "tricks": tricks, "changes": changes, "played": taken,
            "complete": pos.hands == (0, 0, 0)}


def describe(result: dict) -> list[str]:
    """The analysis as lines of text."""
    points = result["goal"] == "card_points"

    def verdict(v: int) -> str:
        won = v >= result["target"] if points else v == 0
        return "wins" if won else "loses"

    unit = "card points" if points else "tricks the declarer must take"
    wins = f"{result['target']}+ wins" if points else "0 wins"
    lines = [f"{result['contract']} by {result['declarer']}; double-dummy value: {unit} ({wins})",
             f"  start     {result['start']:>4}  {verdict(result['start'])}"]
    by_trick: dict[int, list[dict]] = {}
    for ch in result["changes"]:
        by_trick.setdefault(ch["trick"], []).append(ch)
    for t in result["tricks"]:
        cards = " ".join(t["cards"])
        note = "; ".join(f"{ch['seat']} {ch['card']} gave away {ch['gave_away']}" for ch in by_trick.get(t["trick"], []))
        won = f"-> {t['winner']}" if t["winner"] else "(unfinished)"
        lines.append(f"  trick {t['trick']:<3} {t['value']:>4}  {cards:<9} {won}" + (f"   {note}" if note else ""))
    lines.append(f"  played    {result['played']:>4}" + ("" if result["complete"] else " (the record's play ends here)"))
    return lines
