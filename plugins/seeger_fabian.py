"""Tournament scoring: Seeger-Fabian extra points (docs/rules/tournament.md#b1, DSkV).

At the end of a series, on top of the game scores:

* +50 for each game a player won as declarer, -50 for each game lost;
* for each lost game, at a 4-table the three other players (the dealer who
  sat out included) get +30 each; at a 3-table the two defenders +40 each.
* ``variant: "2001"`` (the 2001 proposal for 4-tables): a lost game gives
  the two active defenders +40 each and the sitting-out dealer nothing.

A series has 36 deals at a 3-table and 48 at a 4-table (each player deals
12 times); a sheet with more deals is refused, a shorter one is marked
unfinished.  Thrown-in deals count as deals of the series and score nothing;
Ramsch deals (no declarer) earn no extra points.
"""

from __future__ import annotations

from skatcore.errors import InputError
from skatcore.hookspecs import hookimpl
from skatcore.model import Column

KEY = "seeger_fabian"


class SeegerFabian:
    """Session plugin: Seeger-Fabian extra points and the length of a series."""

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "variant": {"enum": ["classic", "2001"], "default": "classic",
                        "description": "4-tables: a lost game gives the 3 others +30 (classic), or the 2 active defenders +40 (2001)"},
            "won": {"type": "integer", "minimum": 0, "default": 50, "description": "per game won as declarer"},
            "lost": {"type": "integer", "minimum": 0, "default": 50, "description": "taken off per game lost as declarer"},
            "deals_3": {"type": "integer", "minimum": 1, "default": 36, "description": "deals of a series at a 3-table"},
            "deals_4": {"type": "integer", "minimum": 1, "default": 48, "description": "deals of a series at a 4-table"},
        },
    }

    def __init__(self, variant="classic", won=50, lost=50, deals_3=36, deals_4=48):
        self.variant, self.won, self.lost = variant, won, lost
        self.series = {3: deals_3, 4: deals_4}

    @hookimpl
    def skat_session_start(self, state):
        state.data[KEY] = {"deals": 0}

    @hookimpl
    def skat_session_deal(self, state, line):
        if not line.counts:
            return
        n = state.data[KEY]["deals"] + 1
        limit = self.series[state.table_size]
        if n > limit:
            raise InputError(f"a series at a {state.table_size}-table has {limit} deals: this is deal {n}")
        state.data[KEY]["deals"] = n

    def extra_points(self, state) -> dict[str, dict[str, int]]:
        """Per player: games won, games lost, and points from the others' lost games."""
        out = {p: {"won": 0, "lost": 0, "defence": 0} for p in state.players}
        for line in state.lines:
            r = line.result
            if r.declarer is None or r.won is None:
                continue
            decl = line.declarer
            out[decl]["won" if r.won else "lost"] += 1
            if r.won:
                continue
            if state.table_size == 3 or self.variant == "2001":
                for p in line.active:
                    if p != decl:
                        out[p]["defence"] += 40
            else:
                for p in state.players:
                    if p != decl:
                        out[p]["defence"] += 30
        return out

    @hookimpl
    def skat_session_extra(self, state):
        counts = self.extra_points(state)
        played, limit = state.data[KEY]["deals"], self.series[state.table_size]
        if played < limit:
            state.notes.append(f"series unfinished: {played} of {limit} deals")
        won = {p: self.won * c["won"] - self.lost * c["lost"] for p, c in counts.items()}
        defence = {p: c["defence"] for p, c in counts.items()}
        return [
            Column("seeger_fabian_games", f"won/lost games x{self.won}", won),
            Column("seeger_fabian_defence", "opponents' lost games", defence),
        ]
