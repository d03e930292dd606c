"""A chunk's compiled outcomes as the per-deal facts of a comparison, in arrays.

Where the compiled engine played every deal of a chunk under a ruleset
(:func:`skatcore.sim.fastpath.whole`: no deal left to ``Deal``, no session
rules), ``skat compare`` reads its :class:`~skatcore.engine.compiled.Outcomes`
column by column instead of deal by deal: :meth:`OutcomeRows.columns` are
the :class:`~skatcore.sim.outcomes.Columns` the metrics read, and
:meth:`OutcomeRows.rows` (``--per-deal`` only) the very rows
:func:`~skatcore.sim.outcomes.deal_row` makes of each deal's
:meth:`~skatcore.engine.compiled.Outcomes.brief`: the same values, so the
same statistics and the same bytes in the export
(``tests/sim/test_compare_arrays.py`` builds both).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from skatcore.engine.compiled import with_calls
from skatcore.model import SEATS
from skatcore.sim.outcomes import CHAIN


class OutcomeRows:
    """Deals ``out.start ..`` of compiled outcomes ``out`` under one ruleset
    of a comparison: ``slots`` the players (slot ``p`` in seat ``(p + i) % 3``),
    ``said`` the ruleset's settling declarations (:func:`~skatcore.sim.outcomes.settling`),
    ``people`` the persons at its table."""

    def __init__(self, out, *, seed: int, slots: Sequence[str], said: Sequence[str] = (), people: int = 3):
        self.out, self.seed, self.slots, self.said, self.people = out, seed, tuple(slots), tuple(said), people
        self.n = len(out)
        self.declared = out.declarer >= 0
        hands = np.array([o.hand for o in out.tables.options] or [False], np.bool_)
        self.hand = self.declared & hands[np.maximum(out.option, 0)]
        # a Brief's won is bool(won) where there is a declarer, None where not; overbid False where not
        self.won = self.declared & (out.won != 0)
        self.overbid = self.declared & out.overbid
        self.game = np.array([*out.contracts, "passed"], dtype=object)[out.contract]  # -1: thrown in
        self.calls = {}  # deal -> the table calls' text of deal_row (only deals scored with their calls have any)
        for j, extra in out.extra.items():
            made = extra.get("calls") or ()
            if self.declared[j] and any(c in made for c in CHAIN):
                self.calls[j] = " ".join(c for c in CHAIN if c in made)

    def columns(self) -> Facts:
        """The metrics' columns (:class:`~skatcore.sim.outcomes.Columns`'s keys and values)."""
        out, i8 = self.out, np.int64
        c = Facts(self)
        c.update({"declared": self.declared.astype(i8), "won": self.won.astype(i8), "hand": self.hand.astype(i8),
                  "overbid": self.overbid.astype(i8), "value": np.where(self.declared, out.value, 0).astype(i8),
                  "all_pass": (out.bid == 0).astype(i8), "people": np.full(self.n, self.people, i8),
                  "sheet_factor": np.ones(self.n, i8), "ramsch_round": np.zeros(self.n, i8), "game": self.game})
        for s, seat in enumerate(SEATS):
            c[seat] = out.scores[:, s].astype(i8)
        for key in self.said:
            c[key] = self.settled(key)
        return c

    def settled(self, key: str) -> np.ndarray:
        """What each deal's declarations say under ``key`` (a settling declaration; None: nothing), as text."""
        out = self.out
        options = out.tables.options
        by_option = np.array([None, *(_text(o.declarations.get(key)) for o in options)], dtype=object)
        col = by_option[out.option + 1]  # option -1: none declared, nothing said
        for j in out.said:
            if out.option[j] >= 0:  # as Outcomes.declarations: the option's, with the calls made
                made = with_calls(out.rules, options[out.option[j]], [name for _, name in out.said[j]])
                col[j] = _text(made.declarations.get(key))
        return col

    def rows(self) -> list[dict]:
        """The deals' :func:`~skatcore.sim.outcomes.deal_row` rows."""
        out, n, start = self.out, self.n, self.out.start
        declared = self.declared.tolist()
        d = out.declarer.tolist()
        seats = [[self.slots[(s - i) % 3] for s in range(3)] for i in range(3)]  # deal i % 3: the players by seat
        value, score, bid = out.value.tolist(), out.score.tolist(), out.bid.tolist()
        points = np.where(out.multiplier < 0, -1, out.declarer_points).tolist()  # a null game counts no points
        game, hand, won, overbid = self.game.tolist(), self.hand.tolist(), self.won.tolist(), self.overbid.tolist()
        scores = out.scores.tolist()
        said = {key: self.settled(key).tolist() for key in self.said}
        name = out.rules.name
        rows = []
        for j in range(n):
            i = start + j
            players = seats[i % 3]
            yes = declared[j]
            dj = d[j]
            fh, mh, rh = scores[j]
            rows.append({
                "seed": self.seed, "deal": i, "ruleset": name, "game": game[j], "all_pass": bid[j] == 0,
                "declarer": SEATS[dj] if yes else None, "declarer_player": players[dj] if yes else None,
                "bid": bid[j] if yes else None, "hand": hand[j], "won": won[j] if yes else None, "overbid": overbid[j],
                "value": value[j] if yes else None, "score": score[j] if yes else None,
                "declarer_points": points[j] if yes and points[j] >= 0 else None, "calls": self.calls.get(j, ""),
                **{key: said[key][j] for key in self.said},
                "forehand": fh, "middlehand": mh, "rearhand": rh,
                "forehand_player": players[0], "middlehand_player": players[1], "rearhand_player": players[2],
                "sheet_factor": 1, "ramsch_round": False, "server_score": None, "people": self.people,
            })
        return rows


class Facts(dict):
    """:class:`~skatcore.sim.outcomes.Columns` of compiled outcomes: the
    facts set at once, ``total`` and ``calls.<name>`` built when first read,
    another ruleset's settling declaration None on every deal."""

    def __init__(self, rows: OutcomeRows):
        super().__init__()
        self.of = rows

    def __missing__(self, key: str) -> np.ndarray:
        n = self.of.n
        if key == "total":
            col = self["forehand"] + self["middlehand"] + self["rearhand"]
        elif key.startswith("calls."):
            name = key[len("calls."):]
            col = np.zeros(n, np.int64)
            for j, text in self.of.calls.items():
                col[j] = name in text.split()
        else:
            col = np.full(n, None, dtype=object)
        self[key] = col
        return col


def _text(v) -> str | None:
    return None if v is None else str(v)
