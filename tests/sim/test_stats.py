"""Paired intervals (skatcore.sim.stats) against hand computation: the closed
form of a mean of paired differences, and the seeded Poisson bootstrap
recomputed replicate by replicate."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcore.sim.stats import MeanSums, RatioBoot, Z, mean_ci, paired_ci, poisson_weights, ratio_diff_ci


def test_closed_form_paired_interval_by_hand():
    a = [0, 1, 0, 1, 1, 0, 0, 1]
    b = [1, 1, 0, 1, 1, 1, 0, 1]
    # differences 1,0,0,0,0,1,0,0: mean 1/4, sample variance (2 - 8/16)/7 = 3/14
    ci = paired_ci(a, b)
    half = 1.959963984540054 * math.sqrt(3 / 14 / 8)
    assert ci.estimate == pytest.approx(0.25)
    assert (ci.low, ci.high) == pytest.approx((0.25 - half, 0.25 + half))
    assert ci.n == 8 and ci.method == "closed" and not ci.significant  # 0.25 - 0.3207 < 0


def test_closed_form_significant_and_exact():
    ci = paired_ci([10, 20, 30, 40], [13, 22, 34, 41])  # d = 3, 2, 4, 1: mean 2.5, var 5/3
    assert ci.estimate == 2.5 and ci.half_width == pytest.approx(Z * math.sqrt(5 / 3 / 4))
    assert ci.significant and ci.strength == pytest.approx(2.5 / ci.half_width)
    same = paired_ci([1, 2, 3], [2, 3, 4])
    assert (same.low, same.high, same.method, same.significant) == (1.0, 1.0, "exact", True)
    assert mean_ci([]).estimate is None and not mean_ci([]).significant


def test_streaming_sums_equal_arrays_in_any_chunking():
    rng = np.random.default_rng(3)
    x = rng.integers(-60, 120, size=(3, 500))
    whole = MeanSums(3)
    whole.add(x)
    parts = MeanSums(3)
    for k in range(0, 500, 37):
        part = MeanSums(3)
        part.add(x[:, k:k + 37])
        parts.merge(part)
    assert whole.diff(0, 2) == parts.diff(0, 2) == paired_ci(x[0], x[2])
    assert whole.value(1, scale=36) == parts.value(1, scale=36)
    assert whole.value(1).estimate == pytest.approx(x[1].mean())


def test_seeded_bootstrap_by_hand():
    """The bootstrap interval is the 2.5/97.5 percentile of replicate ratio
    differences, each replicate weighing deal i by Poisson(1) from (seed, i)."""
    rng = np.random.default_rng(7)
    n, seed = 300, 42
    den_a, den_b = rng.integers(0, 2, n), rng.integers(0, 2, n)   # declarer games
    num_a = den_a * rng.integers(0, 2, n)                            # declarer wins
    num_b = den_b * rng.integers(0, 2, n)
    ci = ratio_diff_ci(num_a, den_a, num_b, den_b, seed=seed, replicates=400)
    reps = []
    for b in range(400):
        w = np.array([np.random.default_rng([seed, i, 0x5CA7]).poisson(1.0, 400)[b] for i in range(n)])
        reps.append((w * num_b).sum() / (w * den_b).sum() - (w * num_a).sum() / (w * den_a).sum())
    assert ci.estimate == pytest.approx(num_b.sum() / den_b.sum() - num_a.sum() / den_a.sum())
    assert (ci.low, ci.high) == pytest.approx(tuple(np.percentile(reps, [2.5, 97.5])))
    assert ci.method == "bootstrap" and ci.n == min(den_a.sum(), den_b.sum())
    # the same seed gives the same interval, another seed another one
    assert ratio_diff_ci(num_a, den_a, num_b, den_b, seed=seed, replicates=400) == ci
    assert ratio_diff_ci(num_a, den_a, num_b, den_b, seed=seed + 1, replicates=400) != ci


def test_bootstrap_of_a_plain_mean_agrees_with_the_closed_form():
    rng = np.random.default_rng(11)
    a, b = rng.integers(0, 2, 4000), rng.integers(0, 2, 4000)
    b[:800] = 1  # b wins more often
    closed = paired_ci(a, b)
    boot = ratio_diff_ci(a, np.ones(4000), b, np.ones(4000), seed=1)
    assert boot.estimate == pytest.approx(closed.estimate)
    assert boot.low == pytest.approx(closed.low, abs=0.006) and boot.high == pytest.approx(closed.high, abs=0.006)


def test_bootstrap_chunks_merge_exactly():
    rng = np.random.default_rng(5)
    num = rng.integers(0, 90, size=(2, 250)).astype(float)
    den = rng.integers(0, 2, size=(2, 250)).astype(float)
    whole = RatioBoot(2, 200)
    whole.add(9, 0, num, den)
    merged = RatioBoot(2, 200)
    for k in range(0, 250, 60):
        part = RatioBoot(2, 200)
        part.add(9, k, num[:, k:k + 60], den[:, k:k + 60])
        merged.merge(part)
    assert whole.diff(0, 1) == merged.diff(0, 1) and whole.value(1) == merged.value(1)
    assert poisson_weights(9, 3, 5, 200).tolist() == poisson_weights(9, 0, 5, 200)[3:].tolist()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(-100, 100), st.integers(-100, 100)), min_size=2, max_size=60))
def test_paired_interval_contains_its_estimate_and_is_antisymmetric(pairs):
    a, b = zip(*pairs, strict=True)
    ci, back = paired_ci(a, b), paired_ci(b, a)
    assert ci.low <= ci.estimate <= ci.high
    assert back.estimate == pytest.approx(-ci.estimate) and back.low == pytest.approx(-ci.high)


@pytest.mark.parametrize("seed", [1, 7, 2024])
def test_one_game_behind_a_rate_gives_no_interval(seed):
    """One declarer game under each side (a spades game won here, lost there,
    among games of other contracts): every resample repeats it, so the
    bootstrap would say [-100, -100] pp, "significant"; from one game there
    is no interval, as the closed form gives none from one deal."""
    den = [0, 1, 0, 0]
    iv = ratio_diff_ci([0, 1, 0, 0], den, [0, 0, 0, 0], den, seed=seed)
    assert iv.estimate == -1.0 and iv.n == 1
    assert iv.low is None and iv.high is None and not iv.significant
    two = ratio_diff_ci([1, 1, 0], [1, 1, 0], [0, 1, 0], [1, 1, 0], seed=seed)  # two games: an interval
    assert two.n == 2 and two.low is not None and two.low <= two.estimate <= two.high
