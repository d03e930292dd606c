"""Per-deal outcomes and the paired statistics built on them.

A deal (simulated, or a real game re-scored) gives one :func:`deal_row` per
ruleset: the plain facts a researcher exports (``--per-deal``) and from
which every statistic is computed.  A :class:`Metric` turns a row into an
integer numerator and denominator; its value over many deals is
``sum(num) / sum(den)`` times ``scale``:

* ``den`` is 1 on every deal (a rate over all deals, a mean per deal):
  the paired difference has the closed form of :class:`~skatcore.sim.stats.MeanSums`;
* otherwise (a rate over declarer games, which differ by ruleset) the
  seeded bootstrap of :class:`~skatcore.sim.stats.RatioBoot`.

A metric's ``key`` is the same everywhere: the per-ruleset JSON
(``win_rate``, ``contract_mix.grand``), the differences, the summary and
the per-deal export's column names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from skatcore.engine.table import people
from skatcore.model import SEATS
from skatcore.sim.stats import REPLICATES, Interval, MeanSums, RatioBoot, poisson_weights

SF_WIN, SF_DEFENDER = 50, 40
CHAIN = ("kontra", "re", "supra", "resupra")

#: columns of the per-deal export, in order; a comparison adds its settling declarations after ``calls``
ROW_KEYS = ("seed", "deal", "ruleset", "game", "all_pass", "declarer", "declarer_player", "bid", "hand", "won", "overbid",
            "value", "score", "declarer_points", "calls", "forehand", "middlehand", "rearhand",
            "forehand_player", "middlehand_player", "rearhand_player", "sheet_factor", "ramsch_round", "server_score")


def settling(rules: Sequence) -> dict[str, frozenset[str]]:
    """The declarations that may settle a deal before its first card, by the
    name their plugin gives them (Schenken: ``schenken``), each with the
    values that settle it: what the table calls that ``settle`` write."""
    out: dict[str, set[str]] = {}
    for r in rules:
        for c in r.calls.values():
            if c.settles:
                out.setdefault(c.writes, set()).add(str(c.value))
    return {key: frozenset(values) for key, values in out.items()}


def row_keys(rules: Sequence) -> tuple[str, ...]:
    """The per-deal export's columns for a comparison of ``rules``: each
    settling declaration is a column (what was said, ``None``: nothing)."""
    at = ROW_KEYS.index("calls") + 1
    return (*ROW_KEYS[:at], *settling(rules), *ROW_KEYS[at:])


def deal_row(result, *, seed: int | None, deal: int, all_pass: bool, players: Sequence[str] = ("", "", ""),
             said: Mapping[str, object] | None = None, server_score: int | None = None, sheet_factor: int = 1,
             ramsch_round: bool = False, people: int = 3) -> dict:
    """The facts of one scored deal under one ruleset (``players`` by seat;
    ``said``: the settling declarations' values, see :func:`settling`;
    ``people``: the persons at the table, 2 where a straw man is nobody's)."""
    r = result
    declared = r.declarer is not None and r.won is not None
    calls = [c for c in CHAIN if c in (r.extra.get("calls") or ())]
    return {
        "seed": seed, "deal": deal, "ruleset": r.ruleset, "game": r.game, "all_pass": all_pass,
        "declarer": SEATS[r.declarer] if r.declarer is not None else None,
        "declarer_player": players[r.declarer] if r.declarer is not None else None,
        "bid": r.bid, "hand": r.hand, "won": r.won, "overbid": r.overbid,
        "value": r.value if declared else None, "score": r.score if declared else None,
        "declarer_points": r.declarer_points, "calls": " ".join(calls),
        **{k: None if v is None else str(v) for k, v in (said or {}).items()},
        **{s: r.scores.get(s, 0) for s in SEATS},
        **{f"{s}_player": players[k] for k, s in enumerate(SEATS)},
        "sheet_factor": sheet_factor, "ramsch_round": ramsch_round, "server_score": server_score, "people": people,
    }


def _entries(row) -> list[int]:
    return [row[s] for s in SEATS]


def _declared(row) -> int:
    return int(row["won"] is not None and row["declarer"] is not None)


def _per_player(row, total: int) -> int:
    """``total`` over the persons at the table, times 6 (an integer for 2 or 3)."""
    return total * (6 // row.get("people", 3))


def _sf_total(row) -> int:
    """Seeger-Fabian points of the deal, every person's seat added up."""
    total = sum(_entries(row))
    if _declared(row):
        total += SF_WIN if row["won"] else -SF_WIN + (row.get("people", 3) - 1) * SF_DEFENDER
    return total


@dataclass(frozen=True)
class Metric:
    """One statistic: ``sum(num) / sum(den) * scale`` over deals."""

    key: str
    label: str
    num: Callable[[dict], int]
    den: Callable[[dict], int] | None = None   # None: 1 on every deal (closed form)
    scale: float = 1.0
    share: bool = False                          # shown as a percentage
    headline: bool = False                       # --until-ci watches it

    @property
    def closed(self) -> bool:
        return self.den is None


def metrics_for(rules: Sequence, games: Sequence[str] = ()) -> list[Metric]:
    """The statistics of a comparison of ``rules`` (compiled): the deal
    statistics, the contract mix and per-contract rates over every contract
    of any of them, and the session rules any of them has."""
    contracts = list(dict.fromkeys(["passed", *(c for r in rules for c in r.contracts), *games]))
    declarable = [c for c in contracts if any(c in r.contracts and r.contracts[c].declarer for r in rules)]
    decl = _declared
    out = [
        Metric("win_rate", "declarer win rate", lambda r: int(bool(r["won"])) * decl(r), decl, share=True, headline=True),
        Metric("hand_rate", "hand game rate", lambda r: int(bool(r["hand"])) * decl(r), decl, share=True),
        Metric("mean_value", "mean game value", lambda r: r["value"] or 0, decl),
        Metric("mean_abs_entry", "mean |sheet entry| per deal", lambda r: sum(abs(e) for e in _entries(r))),
        Metric("all_pass_rate", "all-pass rate", lambda r: int(r["all_pass"]), share=True, headline=True),
        Metric("overbid_rate", "overbid rate", lambda r: int(bool(r["overbid"])) * decl(r), decl, share=True),
        # a player's share: the seats' total over the persons at the table (x 6 in the row, / 6 in the scale)
        Metric("classic_per_36", "classic points / 36 deals", lambda r: _per_player(r, sum(_entries(r))), scale=6.0),
        Metric("seeger_fabian_per_36", "Seeger-Fabian / 36 deals", lambda r: _per_player(r, _sf_total(r)), scale=6.0),
    ]
    out += [Metric(f"contract_mix.{g}", f"mix: {g}", (lambda r, g=g: int(r["game"] == g)), share=True, headline=True)
            for g in contracts]
    out += [Metric(f"win_rate_by_contract.{g}", f"win rate: {g}", (lambda r, g=g: int(r["game"] == g and bool(r["won"]))),
                   (lambda r, g=g: int(r["game"] == g) * decl(r)), share=True) for g in declarable]
    out += [Metric(f"mean_value_by_contract.{g}", f"mean value: {g}", (lambda r, g=g: (r["value"] or 0) * (r["game"] == g)),
                   (lambda r, g=g: int(r["game"] == g) * decl(r))) for g in declarable]
    calls = [c for c in CHAIN if any(c in r.calls for r in rules)]
    for c in calls:
        out.append(Metric(f"calls.{c}_rate", f"{c} rate", (lambda r, c=c: int(c in r["calls"].split())), decl, share=True))
        out.append(Metric(f"calls.{c}_win_rate", f"declarer wins after {c}", (lambda r, c=c: int(c in r["calls"].split() and bool(r["won"]))),
                          (lambda r, c=c: int(c in r["calls"].split())), share=True))
    for key, values in settling(rules).items():  # said at all, and said so that the deal ended (accepted)
        out.append(Metric(f"calls.{key}_rate", f"{key.capitalize()} offered", (lambda r, k=key: int(r.get(k) is not None)),
                          decl, share=True))
        out.append(Metric(f"calls.{key}_accepted_rate", f"{key.capitalize()} accepted",
                          (lambda r, k=key, v=values: int(r.get(k) in v)), decl, share=True))
    if any(r.pm.hook.skat_session_deal.get_hookimpls() for r in rules):
        out.append(Metric("session.bock_share", "Bock deals (sheet x2 or more)", lambda r: int(r["sheet_factor"] > 1),
                          share=True))
        out.append(Metric("session.ramsch_round_share", "Ramsch-round deals", lambda r: int(r["ramsch_round"]), share=True))
    # what goes on the sheet (Bock doubles it), by seat a person plays under any of the rulesets
    seats = [s for i, s in enumerate(SEATS) if any(i in people(r) for r in rules)]
    for s in seats:
        out.append(Metric(f"per_seat_per_36.{s}", f"{s} total / 36 deals", (lambda r, s=s: r[s] * r["sheet_factor"]),
                          scale=36.0))
    for s in seats:
        # pairwise settlement (A9): each pays every other person the difference, persons x own - sum of all
        out.append(Metric(f"settlement_per_36.{s}", f"{s} settlement / 36 deals",
                          (lambda r, s=s: (r.get("people", 3) * r[s] - sum(_entries(r))) * r["sheet_factor"]), scale=36.0))
    return out


def row_matrix(metrics: Sequence[Metric], rows: Sequence[dict]) -> tuple[np.ndarray, np.ndarray]:
    """``(num, den)`` of ``rows`` (one ruleset), each ``(metrics, deals)``."""
    num = np.array([[m.num(r) for r in rows] for m in metrics], dtype=np.int64).reshape(len(metrics), len(rows))
    den = np.array([[1 if m.den is None else m.den(r) for r in rows] for m in metrics],
                   dtype=np.int64).reshape(len(metrics), len(rows))
    return num, den


class Tally:
    """Paired sums of every metric over ``sides`` rulesets: mergeable,
    exact, constant memory (bootstrap replicates for ratio metrics)."""

    def __init__(self, metrics: Sequence[Metric], sides: int, seed: int, replicates: int = REPLICATES):
        self.metrics, self.sides, self.seed, self.replicates = list(metrics), sides, seed, replicates
        self.means = {m.key: MeanSums(sides) for m in self.metrics if m.closed}
        self.ratios = {m.key: RatioBoot(sides, replicates) for m in self.metrics if not m.closed}
        self.n = 0

    def add(self, start: int, rows: Sequence[Sequence[dict]]) -> None:
        """Deals ``start, start+1, ...``: ``rows[side][k]`` is deal ``start+k`` under ruleset ``side``."""
        k = len(rows[0])
        if not k:
            return
        mats = [row_matrix(self.metrics, side) for side in rows]
        weights = poisson_weights(self.seed, start, start + k, self.replicates) if self.ratios else None
        for j, m in enumerate(self.metrics):
            num = np.stack([mats[s][0][j] for s in range(self.sides)])
            if m.closed:
                self.means[m.key].add(num)
            else:
                den = np.stack([mats[s][1][j] for s in range(self.sides)])
                self.ratios[m.key].add(self.seed, start, num, den, weights)
        self.n += k

    def __getstate__(self):  # the metrics' functions stay behind: a merged tally needs only the sums
        return {**self.__dict__, "metrics": [m.key for m in self.metrics]}

    def merge(self, other: "Tally") -> "Tally":
        for key, sums in other.means.items():
            self.means[key].merge(sums)
        for key, boot in other.ratios.items():
            self.ratios[key].merge(boot)
        self.n += other.n
        return self

    def value(self, m: Metric, side: int) -> Interval:
        if m.closed:
            return self.means[m.key].value(side, m.scale)
        iv = self.ratios[m.key].value(side)
        return _scaled(iv, m.scale)

    def diff(self, m: Metric, side: int, base: int = 0) -> Interval:
        """Ruleset ``side`` minus ruleset ``base`` with its paired interval."""
        if m.closed:
            return self.means[m.key].diff(base, side, m.scale)
        return _scaled(self.ratios[m.key].diff(base, side), m.scale)


def _scaled(iv: Interval, scale: float) -> Interval:
    if scale == 1.0:
        return iv
    f = (lambda x: None if x is None else x * scale)
    return Interval(f(iv.estimate), f(iv.low), f(iv.high), iv.n, iv.method)
