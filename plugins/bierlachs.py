"""Bierlachs (docs/rules/house-rules.md#b8), a pub game to a target, usually 501.

Only negative points are written: when a declarer wins 33, each defender
gets -33; a declarer who loses gets the usual negative score.  Any other
positive entry (a Ramsch Durchmarsch +120) likewise becomes minus that for
each of the two others.  The first player whose total reaches -``target``
loses (buys the round) and the game is over: the sheet takes no more deals.
"""

from __future__ import annotations

from skatcore.hookspecs import hookimpl

KEY = "bierlachs"


class Bierlachs:
    """Sheet entries turned negative; the first to reach -target loses."""

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "target": {"type": "integer", "minimum": 1, "default": 501,
                       "description": "the first player whose total reaches -target loses"},
        },
    }

    def __init__(self, target=501):
        self.target = target

    @hookimpl(wrapper=True)
    def skat_sheet_entries(self, result, facts, entries):
        out = yield
        moved = {s: v for s, v in out.items() if v < 0}
        for seat, v in out.items():
            if v > 0:
                for other in range(3):
                    if other != seat:
                        moved[other] = moved.get(other, 0) - v
        if moved != out:
            result.explanation += "; Bierlachs: only minus points"
        return moved

    @hookimpl
    def skat_session_after_deal(self, state, line):
        losers = [p for p in state.players if state.totals[p] <= -self.target]
        if losers and not state.closed:
            worst = min(losers, key=lambda p: state.totals[p])
            state.closed = (f"Bierlachs: {worst} reached {state.totals[worst]} at deal {line.index} "
                            f"(target -{self.target}) and buys the round")
            line.marks.append(f"{worst} loses the Bierlachs")
