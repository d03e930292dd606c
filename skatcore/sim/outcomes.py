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

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from skatcore.engine.table import people
from skatcore.model import SEATS
from skatcore.sim.stats import REPLICATES, Interval, MeanSums, RatioBoot, replicate_sums

SF_WIN, SF_DEFENDER = 50, 40
CHAIN = ("kontra", "re", "supra", "resupra")

#: columns of the per-deal export, in order; a comparison adds its settling declarations after ``calls``
ROW_KEYS = ("seed", "deal", "ruleset", "game", "all_pass", "declarer", "declarer_player", "bid", "hand", "won", "overbid",
            "value", "score", "declarer_points", "calls", "forehand", "middlehand", "rearhand",
            "forehand_player", "middlehand_player", "rearhand_player", "sheet_factor", "ramsch_round", "server_score")


#: the order every table, chart and JSON object lists contracts in, as a Skat player ranks them; a
#: plugin's own contracts come after null (in the order given), then a Ramsch, passed last
SKAT_ORDER = ("grand", "clubs", "spades", "hearts", "diamonds", "null")
LAST = ("ramsch", "passed")


def skat_order(names: Iterable[str]) -> list[str]:
    """``names`` (contracts or contract kinds: ``suit`` stands where the suits do) in :data:`SKAT_ORDER`."""
    first = (*SKAT_ORDER[:1], "suit", *SKAT_ORDER[1:])

    def place(name: str) -> int:
        if name in first:
            return first.index(name)
        return len(first) + 1 + LAST.index(name) if name in LAST else len(first)
    return sorted(dict.fromkeys(names), key=place)  # stable: a plugin's contracts as given


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


_FACTS: dict[str, Callable[[dict], object]] = {
    "declared": lambda r: r["won"] is not None and r["declarer"] is not None,
    "won": lambda r: bool(r["won"]), "hand": lambda r: bool(r["hand"]), "overbid": lambda r: bool(r["overbid"]),
    "value": lambda r: r["value"] or 0, "all_pass": lambda r: r["all_pass"], "people": lambda r: r.get("people", 3),
    "sheet_factor": lambda r: r["sheet_factor"], "ramsch_round": lambda r: r["ramsch_round"],
    **{s: (lambda r, s=s: r[s]) for s in SEATS},
}


class Columns(dict):
    """What the metrics read of rows, one column per fact, built when first
    read: int64 for :data:`_FACTS` (None, False: 0), ``total`` (the seats'
    entries added up), ``calls.<name>`` (said: 1); the contract names as
    ``game``, and any other key (a settling declaration) its values as given."""

    def __init__(self, rows: Sequence[dict]):
        super().__init__()
        self.rows = rows

    def __missing__(self, key: str) -> np.ndarray:
        rows, n = self.rows, len(self.rows)
        if key in _FACTS:
            f = _FACTS[key]
            col = np.fromiter((f(r) for r in rows), np.int64, n)
        elif key == "total":
            col = self["forehand"] + self["middlehand"] + self["rearhand"]
        elif key.startswith("calls."):
            name = key[len("calls."):]
            col = np.fromiter((name in r["calls"].split() for r in rows), np.int64, n)
        else:
            col = np.array([r.get(key) for r in rows], dtype=object)
        self[key] = col
        return col


def _per_player(c, total):
    """``total`` over the persons at the table, times 6 (an integer for 2 or 3)."""
    return total * (6 // c["people"])


def _sf_total(c):
    """Seeger-Fabian points of the deal, every person's seat added up."""
    extra = np.where(c["won"] == 1, SF_WIN, -SF_WIN + (c["people"] - 1) * SF_DEFENDER)
    return c["total"] + c["declared"] * extra


def _is(c, g):
    return (c["game"] == g).astype(np.int64)


#: the report's tables of metrics, in the order "In short" ranks their findings: what the rules do to
#: play and scores first, game values (which the rules table mostly states outright) last
GROUPS = {"balance": "Declarer and defenders", "mix": "Contract mix", "scores": "Scores",
          "session": "Session and calls", "values": "Game values"}


@dataclass(frozen=True)
class Metric:
    """One statistic: ``sum(num) / sum(den) * scale`` over deals."""

    key: str
    label: str
    num: Callable[[dict], np.ndarray]            # of the rows' :func:`columns`
    den: Callable[[dict], np.ndarray] | None = None   # None: 1 on every deal (closed form)
    scale: float = 1.0
    share: bool = False                          # shown as a percentage
    headline: bool = False                       # --until-ci watches it
    group: str = "balance"                       # the report's table: one of :data:`GROUPS`

    @property
    def closed(self) -> bool:
        return self.den is None


def metrics_for(rules: Sequence, games: Sequence[str] = ()) -> list[Metric]:
    """The statistics of a comparison of ``rules`` (compiled): the deal
    statistics, the contract mix and per-contract rates over every contract
    of any of them, and the session rules any of them has."""
    contracts = skat_order(["passed", *(c for r in rules for c in r.contracts), *games])
    declarable = [c for c in contracts if any(c in r.contracts and r.contracts[c].declarer for r in rules)]
    def decl(c):
        return c["declared"]

    # Bock doubles what goes on the sheet: where a ruleset has it, each score says whether it counts it
    sessions = any(r.pm.hook.skat_session_deal.get_hookimpls() for r in rules)
    without, with_ = (" (without Bock)", " (with Bock)") if sessions else ("", "")
    out = [
        Metric("win_rate", "declarer win rate", lambda c: c["won"] * decl(c), decl, share=True, headline=True),
        Metric("hand_rate", "hand game rate", lambda c: c["hand"] * decl(c), decl, share=True),
        Metric("overbid_rate", "overbid rate", lambda c: c["overbid"] * decl(c), decl, share=True),
        # passing is a choice outside a Ramsch round only: the forced deals are a statistic of their own
        Metric("all_pass_rate", "all-pass rate", lambda c: c["all_pass"] * (1 - c["ramsch_round"]), share=True,
               headline=True, group="mix"),
        Metric("mean_value", "mean game value", lambda c: c["value"], decl, group="values"),
        Metric("mean_abs_entry", "mean |sheet entry| per deal" + without,
               lambda c: abs(c["forehand"]) + abs(c["middlehand"]) + abs(c["rearhand"]), group="scores"),
        # a player's share: the seats' total over the persons at the table (x 6 in the row, / 6 in the scale)
        Metric("classic_per_36", "classic points / 36 deals" + without, lambda c: _per_player(c, c["total"]),
               scale=6.0, group="scores"),
        Metric("seeger_fabian_per_36", "Seeger-Fabian / 36 deals" + without, lambda c: _per_player(c, _sf_total(c)),
               scale=6.0, group="scores"),
    ]
    out += [Metric(f"contract_mix.{g}", f"mix: {g}", (lambda c, g=g: _is(c, g)), share=True, headline=True, group="mix")
            for g in contracts]
    out += [Metric(f"win_rate_by_contract.{g}", f"win rate: {g}", (lambda c, g=g: _is(c, g) * c["won"]),
                   (lambda c, g=g: _is(c, g) * decl(c)), share=True) for g in declarable]
    out += [Metric(f"mean_value_by_contract.{g}", f"mean value: {g}", (lambda c, g=g: c["value"] * _is(c, g)),
                   (lambda c, g=g: _is(c, g) * decl(c)), group="values") for g in declarable]
    calls = [c for c in CHAIN if any(c in r.calls for r in rules)]
    for call in calls:
        key = f"calls.{call}"
        out.append(Metric(f"{key}_rate", f"{call} rate", (lambda c, k=key: c[k]), decl, share=True, group="session"))
        out.append(Metric(f"{key}_win_rate", f"declarer wins after {call}", (lambda c, k=key: c[k] * c["won"]),
                          (lambda c, k=key: c[k]), share=True, group="session"))
    for key, values in settling(rules).items():  # said at all, and said so that the deal ended (accepted)
        out.append(Metric(f"calls.{key}_rate", f"{key.capitalize()} offered",
                          (lambda c, k=key: np.fromiter((x is not None for x in c[k]), np.int64, len(c[k]))),
                          decl, share=True, group="session"))
        out.append(Metric(f"calls.{key}_accepted_rate", f"{key.capitalize()} accepted",
                          (lambda c, k=key, v=values: np.fromiter((x in v for x in c[k]), np.int64, len(c[k]))),
                          decl, share=True, group="session"))
    if sessions:
        out.append(Metric("session.bock_share", "Bock deals (sheet x2 or more)",
                          lambda c: (c["sheet_factor"] > 1).astype(np.int64), share=True, group="session"))
        out.append(Metric("session.ramsch_round_share", "Ramsch-round deals (passing forced)",
                          lambda c: c["ramsch_round"], share=True, group="session"))
    # what goes on the sheet (Bock doubles it), by seat a person plays under any of the rulesets
    seats = [s for i, s in enumerate(SEATS) if any(i in people(r) for r in rules)]
    for s in seats:
        out.append(Metric(f"per_seat_per_36.{s}", f"{s} total / 36 deals" + with_,
                          (lambda c, s=s: c[s] * c["sheet_factor"]), scale=36.0, group="scores"))
    for s in seats:
        # pairwise settlement (A9): each pays every other person the difference, persons x own - sum of all
        out.append(Metric(f"settlement_per_36.{s}", f"{s} settlement / 36 deals" + with_,
                          (lambda c, s=s: (c["people"] * c[s] - c["total"]) * c["sheet_factor"]), scale=36.0,
                          group="scores"))
    return out


def row_matrix(metrics: Sequence[Metric], rows: Sequence[dict]) -> tuple[np.ndarray, np.ndarray]:
    """``(num, den)`` of ``rows`` (one ruleset), each ``(metrics, deals)``:
    every metric at once over the rows' :class:`Columns`."""
    return column_matrix(metrics, Columns(rows), len(rows))


def column_matrix(metrics: Sequence[Metric], c: dict, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``(num, den)`` of ``n`` deals' columns ``c`` (:class:`Columns`, or
    :class:`~skatcore.sim.outcome_rows.Facts`), each ``(metrics, deals)``."""
    ones = np.ones(n, np.int64)
    num = np.array([m.num(c) for m in metrics], dtype=np.int64).reshape(len(metrics), n)
    den = np.array([ones if m.den is None else m.den(c) for m in metrics], dtype=np.int64).reshape(len(metrics), n)
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
        self.add_columns(start, [Columns(side) for side in rows], len(rows[0]))

    def add_columns(self, start: int, columns: Sequence[dict], k: int) -> None:
        """Deals ``start .. start+k-1`` as each ruleset's :class:`Columns` (or
        columns alike: :mod:`skatcore.sim.outcome_rows`), in ``columns[side]``."""
        if not k:
            return
        mats = [column_matrix(self.metrics, side, k) for side in columns]
        ratios = []
        for j, m in enumerate(self.metrics):
            num = np.stack([mats[s][0][j] for s in range(self.sides)])
            if m.closed:
                self.means[m.key].add(num)
            else:
                ratios.append((self.ratios[m.key], num, np.stack([mats[s][1][j] for s in range(self.sides)])))
        if ratios:  # every ratio's replicates at once: each deal's weights drawn once (stats.RatioBoot)
            values = np.concatenate([part for _, num, den in ratios for part in (num, den)])
            sums = replicate_sums(self.seed, start, values, self.replicates)
            for r, (boot, num, den) in enumerate(ratios):
                at = 2 * self.sides * r
                boot.add_sums(num, den, sums[at:at + self.sides], sums[at + self.sides:at + 2 * self.sides])
        self.n += k

    def __getstate__(self):  # the metrics' functions stay behind: a merged tally needs only the sums
        return {**self.__dict__, "metrics": [m.key for m in self.metrics]}

    def merge(self, other: Tally) -> Tally:
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
    def f(x):
        return None if x is None else x * scale
    return Interval(f(iv.estimate), f(iv.low), f(iv.high), iv.n, iv.method)
