"""``skat compare``: the very same deals under several rulesets, with paired
95% intervals for every difference (:mod:`skatcore.sim.stats`), a summary
of the clearest findings, and the per-deal rows for export.

Deal ``i`` is seeded by ``(seed, i)`` alone, and every statistic is an exact
integer sum, so ``--jobs``, ``--dask`` and the chunk size never change a
digit; ``--until-ci`` simply deals on (deals ``N..2N-1``, ...) until the
headline intervals are narrow enough.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from skatcore.bots import resolve_player
from skatcore.engine.table import people
from skatcore.rules.compiler import get_rules
from skatcore.sim.fastpath import MIN_DEALS, compiled, compiled_outcomes, declined, whole
from skatcore.sim.outcome_rows import OutcomeRows
from skatcore.sim.outcomes import Columns, Metric, Tally, deal_row, metrics_for, settling
from skatcore.sim.sheet import Sheet
from skatcore.sim.simulate import (
    Stats,
    check_args,
    dask_workers,
    map_chunks,
    portable_ref,
    rules_of,
    seeded_deal,
    spans,
)
from skatcore.sim.stats import Interval

#: what "In short" lists of every ruleset whenever it is significant, in this order (a metric key's test)
ALWAYS = (lambda k: k == "win_rate",
          lambda k: k in ("classic_per_36", "seeger_fabian_per_36"),
          lambda k: k == "all_pass_rate" or k.startswith("contract_mix."))
ALSO, VALUES = 3, 3  # a ruleset's other significant differences in "In short", and its game values


def always(m: Metric) -> int | None:
    """The place of ``m`` among :data:`ALWAYS` (None: not one of them)."""
    return next((i for i, test in enumerate(ALWAYS) if test(m.key)), None)


def _fact(iv: Interval) -> tuple[float, float]:
    """A difference by its size and interval: two statistics with the same are one per-deal fact
    (mix: passed -x and mix: ramsch +x where every passed deal became a Ramsch)."""
    return round(abs(iv.estimate or 0.0), 9), round(iv.half_width or 0.0, 9)


def compare_chunk(task, path: str = "auto") -> tuple[list[Stats], Tally, list[list[dict]] | None]:
    """Deals ``start..stop-1`` under each ruleset: the per-ruleset
    :class:`Stats`, the paired :class:`Tally` and (``want_rows``) the rows;
    ``path``: where the compiled heuristic plays (:data:`~skatcore.sim.fastpath.PATHS`).
    ``task = (refs, slots, seed, start, stop, want_rows)``: plain values
    for processes and Dask workers (in this process a ref may be compiled rules).

    A ruleset whose deals the compiled engine played, all of them (no session
    rules), is read in arrays (:mod:`skatcore.sim.outcome_rows`), the others deal by deal."""
    refs, slots, seed, start, stop, want_rows = task
    rules = [rules_of(r) for r in refs]
    stats = [Stats(r.name, tuple(slots)) for r in rules]
    fast = compiled_outcomes(rules, slots, seed, start, stop, path)
    said = [settling([r]) for r in rules]  # the declarations that settle a deal (Schenken): row columns
    persons = [people(r) for r in rules]
    arrays = {k: OutcomeRows(fast[k], seed=seed, slots=slots, said=list(said[k]), people=len(persons[k]))
              for k in fast if whole(rules[k], fast[k])}
    for k in arrays:
        stats[k].add_outcomes(fast[k], start, persons[k])
    walk = [k for k in range(len(rules)) if k not in arrays]
    rows = _walk(rules, walk, slots, seed, start, stop, path, fast, stats, said, persons)
    tally = Tally(metrics_for(rules), len(rules), seed)
    tally.add_columns(start, [arrays[k].columns() if k in arrays else Columns(rows[k]) for k in range(len(rules))],
                      stop - start)
    if not want_rows:
        return stats, tally, None
    return stats, tally, [arrays[k].rows() if k in arrays else rows[k] for k in range(len(rules))]


def _walk(rules, walk, slots, seed, start, stop, path, fast, stats, said, persons) -> dict[int, list[dict]]:
    """The rows of the rulesets ``walk`` played deal by deal (through ``Deal``
    where the compiled engine left a deal, under their session rules), into their ``stats``."""
    rows: dict[int, list[dict]] = {k: [] for k in walk}
    if not walk:
        return rows
    factories = [resolve_player(p) for p in slots]
    sheets = {k: Sheet.for_chunk(rules[k], factories, seed, start) for k in walk}
    shared = any(k not in fast for k in walk)  # the cards of a deal, dealt once for the rulesets played through Deal
    why = {k: declined(rules[k], slots, stop - start, path) for k in walk if k not in fast}
    for i in range(start, stop):
        dealt = seeded_deal(seed, i) if shared else None
        seats = [slots[(s - i) % 3] for s in range(3)]
        for k in walk:
            played = sheets[k].play(i, dealt, fast.get(k))
            stats[k].add_result(played.result, i, played.all_pass and not played.forced, persons[k])
            stats[k].played_as(played.path, played.why or why.get(k, ""))
            for p in played.players:
                stats[k].bots.update(getattr(p, "counters", None) or {})
            made = played.declarations if said[k] else {}
            rows[k].append(deal_row(played.result, seed=seed, deal=i, players=seats,
                                    said={key: made.get(key) for key in said[k]}, all_pass=played.all_pass,
                                    sheet_factor=played.factor, ramsch_round=played.forced, people=len(persons[k])))
    return rows


@dataclass
class Comparison:
    """The merged result of a comparison: per-ruleset :class:`Stats`, the
    paired :class:`Tally` and the metrics, first ruleset the baseline."""

    names: list[str]
    metrics: list[Metric]
    stats: list[Stats]
    tally: Tally
    seed: int | None
    deals: int = 0
    #: ``--until-ci``'s rounds: (deals played, the widest headline interval's width, which it is)
    rounds: list[tuple[int, float, str]] = field(default_factory=list)

    def values(self, side: int) -> dict[str, Interval]:
        return {m.key: self.tally.value(m, side) for m in self.metrics}

    def differences(self, side: int) -> dict[str, Interval]:
        return {m.key: self.tally.diff(m, side) for m in self.metrics}

    def headline_width(self) -> float:
        """The widest interval (full width, display units: percentage points for
        shares) among the headline differences."""
        return self.widest()[0]

    def widest(self) -> tuple[float, str]:
        """The widest headline difference's interval width (as :meth:`headline_width`)
        and which it is (``texas: mix: grand``; empty while none has an estimate)."""
        widest = (0.0, "")
        for side in range(1, len(self.names)):
            for m in self.metrics:
                if m.headline:
                    iv = self.tally.diff(m, side)
                    if iv.estimate is None:
                        continue
                    width = math.inf if iv.low is None or iv.high is None else (iv.high - iv.low) * (100 if m.share else 1)
                    if width > widest[0]:
                        widest = (width, f"{self.names[side]}: {m.label}")
        return widest

    def findings(self, also: int = ALSO, values: int = VALUES) -> list[tuple[str, Metric, Interval]]:
        """The significant differences "In short" lists, ruleset by ruleset:
        every one of :data:`ALWAYS` (the declarer win rate, the points per 36
        deals, the contract mix; in that order, each kind largest first), then
        at most ``also`` others of play, scores and session, clearest first (a
        difference of the same size and interval as one listed is the same
        per-deal fact seen twice, left out); after every ruleset's, the game
        values, at most ``values`` a ruleset, largest first: the rules that
        differ mostly set them outright (Texas's grand base 16)."""
        first: list[tuple[str, Metric, Interval]] = []
        last: list[tuple[str, Metric, Interval]] = []
        for side in range(1, len(self.names)):
            name = self.names[side]
            found = [(m, iv) for m in self.metrics
                     for iv in [self.tally.diff(m, side)] if iv.significant and iv.estimate is not None]
            kinds = [(m, iv, always(m)) for m, iv in found]
            must = sorted(((m, iv, k) for m, iv, k in kinds if k is not None), key=lambda f: (f[2], -abs(f[1].estimate or 0.0)))
            rest = sorted(((m, iv) for m, iv, k in kinds if k is None and m.group != "values"),
                          key=lambda f: -f[1].strength)
            seen = {_fact(iv) for _m, iv, _k in must}
            extra: list[tuple[Metric, Interval]] = []
            for m, iv in rest:
                if len(extra) < also and _fact(iv) not in seen:
                    seen.add(_fact(iv))
                    extra.append((m, iv))
            set_out = sorted(((m, iv) for m, iv in found if m.group == "values"), key=lambda f: -abs(f[1].estimate or 0.0))
            first += [(name, m, iv) for m, iv, _k in must] + [(name, m, iv) for m, iv in extra]
            last += [(name, m, iv) for m, iv in set_out[:values]]
        return first + last

    def to_json(self) -> dict:
        base = self.names[0]
        return {
            "deals": self.deals,
            "seed": self.seed,
            "rulesets": [s.to_json() for s in self.stats],
            "intervals": {n: {k: iv.to_json() for k, iv in self.values(i).items()} for i, n in enumerate(self.names)},
            "differences": {n: {k: iv.to_json() for k, iv in self.differences(i).items()}
                            for i, n in enumerate(self.names) if i},
            "summary": [{"ruleset": n, "baseline": base, "statistic": m.key, "label": m.label, "group": m.group,
                         **iv.to_json()}
                        for n, m, iv in self.findings()],
        }


def compare(refs: Sequence[str], deals: int, seed: int, slots: Sequence[str] = ("heuristic",) * 3, *, jobs: int = 1,
            dask: str | None = None, until_ci: float | None = None, max_deals: int = 1_000_000,
            progress: Callable[[int, int], None] | None = None,
            on_rows: Callable[[list[dict]], None] | None = None,
            on_round: Callable[[Comparison], None] | None = None) -> Comparison:
    """Play deals ``0..deals-1`` under each ruleset (and, with ``until_ci``,
    on in doubling rounds until the headline intervals are narrower than
    ``until_ci`` or ``max_deals`` are played).  ``progress(done, total)``
    after every chunk; ``on_rows(rows)`` gets the rows in deal order;
    ``on_round(result)`` after each round of ``--until-ci`` (``result.deals`` played)."""
    check_args(refs, deals, jobs, slots)
    refs, slots = tuple(portable_ref(r) for r in refs), tuple(slots)
    rules = [get_rules(r) for r in refs]
    result = Comparison([r.name for r in rules], metrics_for(rules), [Stats(r.name, slots) for r in rules],
                        Tally(metrics_for(rules), len(rules), seed), seed)
    start, stop = 0, deals
    while True:
        _play(result, refs, slots, seed, start, stop, jobs, dask, progress, on_rows)
        result.deals = stop
        if until_ci is not None:
            result.rounds.append((stop, *result.widest()))
            if on_round:
                on_round(result)
        if until_ci is None or stop >= max_deals or result.headline_width() < until_ci:
            return result
        start, stop = stop, min(max_deals, 2 * stop)


def _play(result: Comparison, refs, slots, seed, start, stop, jobs, dask, progress, on_rows) -> None:
    workers = dask_workers(dask) if dask else jobs
    size = _chunk_size(refs, slots, seed, start, stop, workers)
    cuts = spans(start, stop, size)
    if len(cuts) > 1 and cuts[-1][1] - cuts[-1][0] < MIN_DEALS <= size:  # a short last chunk would go through Deal
        cuts[-2:] = [(cuts[-2][0], stop)]
    tasks = [(refs, slots, seed, a, b, on_rows is not None) for a, b in cuts]
    pending: dict[int, list] = {}
    next_start = start
    for task, (stats, tally, rows) in map_chunks(compare_chunk, tasks, jobs, dask):
        for total, part in zip(result.stats, stats, strict=True):
            total.merge(part)
        result.tally.merge(tally)
        if on_rows is not None:  # chunks finish in any order; rows go out in deal order
            pending[task[3]] = rows
            while next_start in pending:
                chunk = pending.pop(next_start)
                on_rows([side[k] for k in range(len(chunk[0])) for side in chunk])  # deal by deal
                next_start += len(chunk[0])
        if progress:
            progress(task[4] - task[3], stop)


def _chunk_size(refs, slots, seed, start, stop, workers: int) -> int:
    """Chunks of about two CPU seconds of work each, and at least four per
    worker; the size never changes the result.  Measured in CPU time (a busy
    machine does not make them small) on the first deals after a warm-up on
    the same deals (imports, rules, the compiled heuristic's tables and
    loops: loaded once here, a forked worker inherits them); where the
    compiled heuristic plays, on a chunk it takes (``fastpath.MIN_DEALS``):
    its deals cost a tenth of the Python players'."""
    n = stop - start
    fast = n >= 2 * MIN_DEALS and compiled([get_rules(r) for r in refs], slots)
    task = (refs, slots, seed, start, start + (MIN_DEALS if fast else min(n, 4)), False)
    compare_chunk(task)
    t = time.process_time()
    compare_chunk(task)
    per_deal = max(1e-5, (time.process_time() - t) / (task[4] - start))
    return max(10, min(int(2.0 / per_deal), math.ceil(n / (4 * workers)), 5000))


# ---------------------------------------------------------------------------
# In words (the table, the report)
# ---------------------------------------------------------------------------


def figure(x: float, m: Metric) -> str:
    """``52.1%`` for a share, ``31.40`` for a mean."""
    return f"{100 * x:.1f}%" if m.share else f"{x:.2f}"


def value_text(iv: Interval, m: Metric) -> str:
    """``52.1% (n 812)`` for a rate, ``31.40 (n 812)`` for a mean."""
    return f"{'-' if iv.estimate is None else figure(iv.estimate, m)} (n {iv.n})"


def diff_parts(iv: Interval, m: Metric) -> tuple[str, str]:
    """``("+9.7 pp", "[5.6, 13.8]")``: the difference and its 95% interval (empty when none)."""
    if iv.estimate is None:
        return "-", ""
    k, unit, digits = (100, " pp", 1) if m.share else (1, "", 2)
    interval = "" if iv.low is None or iv.high is None else f"[{k * iv.low:.{digits}f}, {k * iv.high:.{digits}f}]"
    return f"{k * iv.estimate:+.{digits}f}{unit}", interval


def diff_text(iv: Interval, m: Metric) -> str:
    """``+9.7 pp [5.6, 13.8]`` (the 95% interval); ``ns`` marks one that contains 0."""
    est, interval = diff_parts(iv, m)
    if iv.estimate is None:
        return est
    text = f"{est} {interval}".strip()
    return text if iv.significant else f"{text} ns"


def shown(result: Comparison) -> list[tuple[Metric, list[Interval], list[Interval]]]:
    """The metrics a table shows, each with its values by ruleset and its
    differences to the baseline (a contract nobody played, a call nobody made: left out)."""
    out = []
    for m in result.metrics:
        values = [result.tally.value(m, i) for i in range(len(result.names))]
        if all(v.estimate in (None, 0) for v in values) and (m.key.startswith(("contract_mix.", "calls."))
                                                            or "_by_contract." in m.key):
            continue
        out.append((m, values, [result.tally.diff(m, i) for i in range(1, len(result.names))]))
    return out


def stat_table(result: Comparison) -> tuple[list[str], list[list[str]]]:
    names = result.names
    columns = ["statistic", *names, *(f"Δ {n}" for n in names[1:])]
    rows = [["deals", *(str(result.deals) for _ in names), *("" for _ in names[1:])]]
    for m, values, diffs in shown(result):
        rows.append([m.label, *(value_text(v, m) for v in values), *(diff_text(d, m) for d in diffs)])
    return columns, rows


def finding_text(name: str, m: Metric, iv: Interval, base: str) -> str:
    return f"{name}: {m.label} {diff_text(iv, m)} vs {base} (n {iv.n})"
