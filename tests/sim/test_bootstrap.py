"""The bootstrap's replicate sums drawn in numba (skatcore.sim.bootstrap)
against NumPy's generators (skatcore.sim.stats.poisson_weights, the
definition): the very same integers, on generated inputs and a chunk as
``skat compare`` draws it, and with numba's JIT off (skatcore.sim.stats.replicate_sums)."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcore.sim.stats import poisson_weights, replicate_sums


@settings(max_examples=40, deadline=None)
@given(seed=st.one_of(st.integers(0, 2**32 - 1), st.integers(0, 2**63 - 1)),
       start=st.one_of(st.integers(0, 10**6), st.integers(2**32 - 40, 2**32 + 40)),
       values=st.lists(st.lists(st.integers(-300, 300) | st.just(0), min_size=1, max_size=12), min_size=1, max_size=9),
       replicates=st.sampled_from([1, 2, 7, 64, 1000]))
def test_replicate_sums_are_numpys_weights_times_the_values(seed, start, values, replicates):
    """Deal ``start + j``'s replicate weights are NumPy's ``default_rng([seed, start + j, 0x5CA7])
    .poisson(1.0)``: the compiled draws add up to the very same sums, seeds of one and two words,
    deal numbers past 2**32, rows repeated, zero and negative values, deals no row counts."""
    k = min(len(v) for v in values)
    v = np.array([row[:k] for row in values], np.int64)
    v = np.concatenate([v, v[:1]])  # a repeated row
    expected = v @ poisson_weights(seed, start, start + k, replicates)
    assert (replicate_sums(seed, start, v, replicates) == expected).all()


def test_replicate_sums_of_a_chunk_as_compare_draws_it():
    """A chunk's size of deals and the full 1000 replicates, mostly 0/1 values as the metrics give."""
    rng = np.random.default_rng(11)
    v = (rng.random((24, 600)) < 0.3) * rng.integers(1, 40, (24, 600))
    assert (replicate_sums(17, 4000, v, 1000) == v @ poisson_weights(17, 4000, 4600)).all()


def test_replicate_sums_without_jit_are_the_same():
    """NUMBA_DISABLE_JIT=1: NumPy's generators and a product, the same sums."""
    code = ("import numpy as np; from skatcore.sim.stats import replicate_sums; "
            "v = np.arange(-6, 30).reshape(4, 9) % 5; print(replicate_sums(2**40 + 3, 77, v, 50).tolist())")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    plain = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    v = np.arange(-6, 30).reshape(4, 9) % 5
    assert plain.strip() == str(replicate_sums(2**40 + 3, 77, v, 50).tolist())
