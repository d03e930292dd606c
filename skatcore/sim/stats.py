"""Paired statistics: 95% confidence intervals of differences between
rulesets (or players) measured on the very same deals.

Two kinds of statistic:

* a **per-deal mean** (a rate over all deals such as the all-pass rate, a
  mean sheet entry, points per 36 deals): each deal gives one number under
  each side, the difference of means is the mean of the per-deal differences
  ``d``, and its interval is the closed form ``mean(d) +- z * sd(d) / sqrt(n)``
  (normal approximation, ``z`` = 1.96);
* a **ratio** of sums whose denominator differs by side (the declarer win
  rate is wins over declarer games, and the two rulesets have different
  declarer games): no closed form fits, so the interval is a seeded
  **Poisson bootstrap**: replicate ``b`` weighs deal ``i`` by a Poisson(1)
  count drawn from ``(seed, i)`` alone.  The same weights serve both sides
  (the deals stay paired), and since a deal's weights depend on its index
  only, sums over chunks (processes, Dask workers, a stream of games) give
  the very same replicates in constant memory.

Everything is accumulated as exact integer sums (:class:`MeanSums`,
:class:`RatioBoot`) so chunking never changes a digit; :class:`Interval`
is the answer.  The replicates' sums are drawn in numba
(:func:`replicate_sums`: NumPy's very draws, no weights' matrix).  ``skat compare`` and ``skat duel`` both use this module.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

LEVEL = 0.95
Z = NormalDist().inv_cdf(0.5 + LEVEL / 2)  # 1.959963...
REPLICATES = 1000


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95% interval, from ``n`` deals (or games).

    ``method`` is ``closed`` (normal approximation of a mean), ``bootstrap``
    (seeded percentile bootstrap) or ``exact`` (no spread: every deal gave
    the same difference).  ``low``/``high`` are ``None`` when there is no
    data to judge from."""

    estimate: float | None
    low: float | None
    high: float | None
    n: int
    method: str

    @property
    def significant(self) -> bool:
        """The interval excludes 0."""
        return self.low is not None and self.high is not None and (self.low > 0 or self.high < 0)

    @property
    def half_width(self) -> float | None:
        return None if self.low is None or self.high is None else (self.high - self.low) / 2

    @property
    def strength(self) -> float:
        """The estimate in half-widths of its interval (ranks findings by size
        relative to their uncertainty); infinite for an exact non-zero one."""
        if self.estimate is None or self.low is None:
            return 0.0
        hw = self.half_width
        return abs(self.estimate) / hw if hw else (math.inf if self.estimate else 0.0)

    def to_json(self, digits: int = 4) -> dict:
        def r(x):
            return None if x is None else round(x, digits)
        return {"estimate": r(self.estimate), "low": r(self.low), "high": r(self.high), "n": self.n,
                "method": self.method, "significant": self.significant}


def interval_from_sums(n: int, total: float, squares: float, scale: float = 1.0) -> Interval:
    """Closed-form interval of a mean from ``n``, the sum and the sum of
    squares of the values (per-deal differences for a paired comparison)."""
    if n == 0:
        return Interval(None, None, None, 0, "closed")
    mean = total / n
    if n == 1:
        return Interval(mean * scale, None, None, 1, "closed")
    var = max(0.0, (squares - total * total / n) / (n - 1))
    half = Z * math.sqrt(var / n)
    method = "closed" if var > 0 else "exact"
    return Interval(mean * scale, (mean - half) * scale, (mean + half) * scale, n, method)


def mean_ci(values) -> Interval:
    """Closed-form 95% interval of the mean of ``values``."""
    v = np.asarray(values, dtype=float)
    return interval_from_sums(len(v), float(v.sum()), float((v * v).sum()))


def paired_ci(a, b) -> Interval:
    """Closed-form 95% interval of ``mean(b) - mean(a)`` from the per-deal
    differences ``b[i] - a[i]`` (the same deals on both sides)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"paired samples need the same length, got {len(a)} and {len(b)}")
    return mean_ci(b - a)


@dataclass
class MeanSums:
    """Streaming sums for per-deal means of ``sides`` paired series: the
    sums, and the cross sums that give every paired difference its closed
    form (``sum((b - a)**2) = sum(b*b) + sum(a*a) - 2*sum(a*b)``).  Integer
    values keep the sums exact and mergeable."""

    sides: int

    def __post_init__(self):
        self.n = 0
        self.total = np.zeros(self.sides, dtype=np.int64)
        self.cross = np.zeros((self.sides, self.sides), dtype=np.int64)

    def add(self, values: np.ndarray) -> None:
        """``values``: ``(sides, k)`` integers, one column per deal."""
        v = np.asarray(values, dtype=np.int64)
        self.n += v.shape[1]
        self.total += v.sum(axis=1)
        self.cross += v @ v.T

    def merge(self, other: MeanSums) -> MeanSums:
        self.n += other.n
        self.total = self.total + other.total
        self.cross = self.cross + other.cross
        return self

    def value(self, side: int, scale: float = 1.0) -> Interval:
        return interval_from_sums(self.n, float(self.total[side]), float(self.cross[side, side]), scale)

    def diff(self, a: int, b: int, scale: float = 1.0) -> Interval:
        """``mean[b] - mean[a]`` with its closed-form paired interval."""
        squares = self.cross[b, b] + self.cross[a, a] - 2 * self.cross[a, b]
        return interval_from_sums(self.n, float(self.total[b] - self.total[a]), float(squares), scale)


# ---------------------------------------------------------------------------
# The seeded Poisson bootstrap
# ---------------------------------------------------------------------------


def poisson_weights(seed: int, start: int, stop: int, replicates: int = REPLICATES) -> np.ndarray:
    """Bootstrap weights of deals ``start..stop-1``: row ``i - start`` holds
    the Poisson(1) count of deal ``i`` in each replicate, drawn from
    ``(seed, i)`` only."""
    out = np.empty((stop - start, replicates), dtype=np.int64)
    for k, i in enumerate(range(start, stop)):
        out[k] = np.random.default_rng([seed, i, 0x5CA7]).poisson(1.0, replicates)
    return out


def percentile_interval(estimate: float | None, replicates: np.ndarray, n: int) -> Interval:
    """The 2.5% and 97.5% percentiles of the replicate estimates (NaN ones,
    replicates without data, left out); none from a single deal or game, whose
    resamples can only repeat it (as the closed form gives none from one)."""
    reps = replicates[~np.isnan(replicates)]
    if estimate is None or len(reps) < 2 or n < 2:
        return Interval(estimate, None, None, n, "bootstrap")
    tail = (1 - LEVEL) / 2 * 100
    low, high = np.percentile(reps, [tail, 100 - tail])
    return Interval(estimate, float(low), float(high), n, "bootstrap")


def _ratio(num, den):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def ratio_diff_ci(num_a, den_a, num_b, den_b, seed: int, start: int = 0,
                  replicates: int = REPLICATES) -> Interval:
    """Seeded bootstrap interval of ``sum(num_b)/sum(den_b) - sum(num_a)/sum(den_a)``
    over paired per-deal values (deal ``start + k`` at position ``k``)."""
    boot = RatioBoot(2, replicates)
    boot.add(seed, start, np.array([num_a, num_b], dtype=float), np.array([den_a, den_b], dtype=float))
    return boot.diff(0, 1)


def replicate_sums(seed: int, start: int, values, replicates: int = REPLICATES) -> np.ndarray:
    """``values @ poisson_weights(seed, start, start + k, replicates)``, exact
    int64 ``(rows, replicates)``, of ``(rows, k)`` integer values (column ``j``:
    deal ``start + j``): drawn in numba (:mod:`skatcore.sim.bootstrap`, the
    same integers without the weights' matrix), by NumPy where its JIT is off."""
    from numba import config

    values = np.asarray(values, dtype=np.int64)
    # numba.config sets its options from the environment at import: no stub declares them
    if config.DISABLE_JIT or not values.size:  # type: ignore[attr-defined]
        return weighted_sums(values, poisson_weights(seed, start, start + values.shape[1], replicates))
    from skatcore.sim.bootstrap import replicate_sums as compiled

    return compiled(seed, start, values, replicates)


_WEIGHTED: list[Callable[[np.ndarray, np.ndarray], np.ndarray]] = []


def weighted_sums(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``values @ weights`` of int64 arrays, exact, on one thread, skipping
    the zero values (most are 0/1 indicators): a float BLAS product starts
    its own threads, which beside other worker processes or on a busy
    machine cost ten times the work."""
    if not _WEIGHTED:
        from numba import config, njit

        # numba.config sets its options from the environment at import: no stub declares them
        disabled = config.DISABLE_JIT  # type: ignore[attr-defined]
        _WEIGHTED.append(np.matmul if disabled else njit(cache=True)(_weighted_sums))
    return _WEIGHTED[0](values, weights)


def _weighted_sums(values, weights):
    out = np.zeros((values.shape[0], weights.shape[1]), np.int64)
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            x = values[i, j]
            if x:
                for b in range(weights.shape[1]):
                    out[i, b] += x * weights[j, b]
    return out


@dataclass
class RatioBoot:
    """Streaming sums for ratios ``sum(num)/sum(den)`` of ``sides`` paired
    series (rulesets), with Poisson-bootstrap replicate sums: constant
    memory, mergeable, exact (integer-valued)."""

    sides: int
    replicates: int = REPLICATES

    def __post_init__(self):
        self.n = 0
        self.num = np.zeros(self.sides, dtype=np.int64)
        self.den = np.zeros(self.sides, dtype=np.int64)
        self.boot_num = np.zeros((self.sides, self.replicates), dtype=np.int64)
        self.boot_den = np.zeros((self.sides, self.replicates), dtype=np.int64)

    def add(self, seed: int, start: int, num: np.ndarray, den: np.ndarray, weights: np.ndarray | None = None) -> None:
        """Deals ``start..start+k-1``: ``num``/``den`` are ``(sides, k)`` integer-valued;
        ``weights`` (``(k, replicates)``) as :func:`poisson_weights` draws them when not given."""
        num, den = (a if a.dtype == np.int64 else np.rint(a).astype(np.int64) for a in (num, den))
        if weights is None:
            sums = replicate_sums(seed, start, np.concatenate([num, den]), self.replicates)
            self.add_sums(num, den, sums[:self.sides], sums[self.sides:])
        else:
            w = weights if weights.dtype == np.int64 else np.rint(weights).astype(np.int64)
            self.add_sums(num, den, weighted_sums(num, w), weighted_sums(den, w))

    def add_sums(self, num: np.ndarray, den: np.ndarray, boot_num: np.ndarray, boot_den: np.ndarray) -> None:
        """Deals with ``(sides, k)`` ``num``/``den`` and their replicate sums
        ``(sides, replicates)`` (``num @ weights``, :func:`skatcore.sim.bootstrap.replicate_sums`)."""
        self.n += num.shape[1]
        self.num += num.sum(axis=1)
        self.den += den.sum(axis=1)
        self.boot_num += boot_num
        self.boot_den += boot_den

    def merge(self, other: RatioBoot) -> RatioBoot:
        self.n += other.n
        for a in ("num", "den", "boot_num", "boot_den"):
            setattr(self, a, getattr(self, a) + getattr(other, a))
        return self

    def value(self, side: int) -> Interval:
        est = float(self.num[side] / self.den[side]) if self.den[side] else None
        return percentile_interval(est, _ratio(self.boot_num[side], self.boot_den[side]), int(self.den[side]))

    def diff(self, a: int, b: int) -> Interval:
        """``ratio[b] - ratio[a]`` with its paired bootstrap interval; ``n``
        is the smaller of the two denominators (games behind the rates)."""
        if not self.den[a] or not self.den[b]:
            return Interval(None, None, None, int(min(self.den[a], self.den[b])), "bootstrap")
        est = self.num[b] / self.den[b] - self.num[a] / self.den[a]
        reps = _ratio(self.boot_num[b], self.boot_den[b]) - _ratio(self.boot_num[a], self.boot_den[a])
        return percentile_interval(float(est), reps, int(min(self.den[a], self.den[b])))
