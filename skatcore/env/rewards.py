"""What a person at the table gets at the end of a deal, as every game
interface of :mod:`skatcore.env` pays it (``skat_v0``'s ``reward=``, the
OpenSpiel game's ``returns=``)."""

from __future__ import annotations

from collections.abc import Sequence

from skatcore.model import SEATS
from skatcore.sim.outcomes import SF_DEFENDER, SF_WIN

#: ``sheet``: the person's sheet entry; ``classic``: its settlement against the others (persons x own entry - the
#: sum of all, zero-sum); ``seeger_fabian``: the entry with the Seeger-Fabian points for a won or lost game
REWARDS = ("sheet", "classic", "seeger_fabian")


def deal_rewards(result, persons: Sequence[int], kind: str) -> dict[int, float]:
    """Seat -> reward of each person (``persons``: the seats people play) for the deal's ``result``."""
    entry: dict[int, float] = {s: result.scores.get(SEATS[s], 0) for s in persons}
    if kind == "classic":
        total = sum(entry.values())
        return {s: len(persons) * v - total for s, v in entry.items()}
    if kind == "seeger_fabian" and result.declarer is not None and result.won is not None:
        entry[result.declarer] += SF_WIN if result.won else -SF_WIN
        if not result.won:
            for s in persons:
                if s != result.declarer:
                    entry[s] += SF_DEFENDER
    return entry
