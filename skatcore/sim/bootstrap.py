"""The seeded Poisson bootstrap's replicate sums, compiled.

:func:`skatcore.sim.stats.poisson_weights` defines the weights: deal ``i``
of a run seeded ``seed`` weighs ``np.random.default_rng([seed, i, 0x5CA7])
.poisson(1.0, replicates)`` in the replicates.  Drawn through NumPy that
costs a generator per deal (~50 us) and, for a chunk, a deals x replicates
matrix.  :func:`replicate_sums` gives ``values @ poisson_weights(...)``
without either: NumPy's own algorithms written out in numba (the
``SeedSequence`` hash of the entropy words, the ``PCG64`` generator on
128-bit integers, ``Generator.poisson``'s multiplication method below 10),
each deal's weights drawn into a buffer and added at once into the sums of
the rows where the deal counts.  Integer sums, so the very same digits;
``tests/sim/test_bootstrap.py`` draws against NumPy.  With numba's JIT off
:func:`skatcore.sim.stats.replicate_sums` takes NumPy's generators and a product, as defined.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, types
from numba.extending import intrinsic

from skatcore import numba_cache  # noqa: F401 (the cache of the functions below stamped with their imports)

TAG = 0x5CA7  # the third entropy word of every deal's generator
_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645  # PCG64's 128-bit LCG multiplier
u64 = np.uint64


def replicate_sums(seed: int, start: int, values: np.ndarray, replicates: int) -> np.ndarray:
    """``values @ poisson_weights(seed, start, start + k, replicates)`` of
    ``values`` (``(rows, k)`` int64, column ``j`` deal ``start + j``), exact,
    as int64 ``(rows, replicates)``: identical rows summed once, a deal no row
    counts draws no weights.  Compiled code only: :func:`skatcore.sim.stats.replicate_sums`
    chooses (NumPy's generators where numba's JIT is off)."""
    if seed < 0 or start < 0:
        raise ValueError(f"seeds and deal numbers are not negative: {seed}, {start}")
    first: dict[bytes, int] = {}  # a row's values -> the first row with them (many metrics share a denominator)
    inverse = np.array([first.setdefault(row.tobytes(), r) for r, row in enumerate(values)], np.int64)
    unique = np.unique(inverse)
    out = np.zeros((len(unique), replicates), np.int64)
    _sums(np.array(_words(seed), np.int64), start, np.ascontiguousarray(values[unique].T), math.exp(-1.0), out)
    return out[np.searchsorted(unique, inverse)]


def _words(n: int) -> list[int]:
    """An entropy integer as SeedSequence takes it: 32-bit words, least significant first."""
    out = []
    while True:
        out.append(n & 0xFFFFFFFF)
        n >>= 32
        if not n:
            return out


def _pcg_step(typingctx, high, low, inc_high, inc_low):
    """PCG64's step ``state * multiplier + inc`` on LLVM's 128-bit integers."""
    sig = types.UniTuple(types.uint64, 2)(types.uint64, types.uint64, types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        i128, i64 = ir.IntType(128), ir.IntType(64)

        def joined(h, lo):
            return builder.or_(builder.shl(builder.zext(h, i128), ir.Constant(i128, 64)), builder.zext(lo, i128))

        state = builder.add(builder.mul(joined(args[0], args[1]), ir.Constant(i128, _MULTIPLIER)),
                            joined(args[2], args[3]))
        parts = [builder.trunc(builder.lshr(state, ir.Constant(i128, 64)), i64), builder.trunc(state, i64)]
        return context.make_tuple(builder, signature.return_type, parts)

    return sig, codegen


pcg_step: Any = intrinsic(_pcg_step)  # (high, low, inc high, inc low) -> the next (high, low), in compiled code


@njit(cache=True, inline="always")
def hashmix(value, hash_const):
    value = (value ^ hash_const[0]) & 0xFFFFFFFF
    hash_const[0] = (hash_const[0] * 0x931E8875) & 0xFFFFFFFF
    value = (value * hash_const[0]) & 0xFFFFFFFF
    return value ^ (value >> 16)


@njit(cache=True, inline="always")
def mix(x, y):
    r = (0xCA01F9DD * x - 0x4973F715 * y) & 0xFFFFFFFF
    return r ^ (r >> 16)


@njit(cache=True)
def seeded(entropy, n):
    """PCG64(SeedSequence(entropy[:n])): its (state high, low, inc high, low)."""
    hash_const = np.array([0x43B0D7E5], np.int64)
    pool = np.empty(4, np.int64)
    for i in range(4):
        pool[i] = hashmix(entropy[i] if i < n else 0, hash_const)
    for src in range(4):
        for dst in range(4):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src], hash_const))
    for src in range(4, n):
        for dst in range(4):
            pool[dst] = mix(pool[dst], hashmix(entropy[src], hash_const))
    b = 0x8B51F9DD
    words = np.empty(4, np.uint64)  # generate_state(4, uint64): pairs of 32-bit words, little end first
    for i in range(8):
        v = (pool[i % 4] ^ b) & 0xFFFFFFFF
        b = (b * 0x58F38DED) & 0xFFFFFFFF
        v = (v * b) & 0xFFFFFFFF
        v ^= v >> 16
        if i % 2:
            words[i // 2] |= u64(v) << u64(32)
        else:
            words[i // 2] = u64(v)
    inc_high = (words[2] << u64(1)) | (words[3] >> u64(63))
    inc_low = (words[3] << u64(1)) | u64(1)
    high, low = pcg_step(u64(0), u64(0), inc_high, inc_low)
    added = low + words[1]
    high, low = high + words[0] + (u64(1) if added < low else u64(0)), added
    high, low = pcg_step(high, low, inc_high, inc_low)
    return high, low, inc_high, inc_low


@njit(cache=True, inline="always")
def _entropy(entropy, words, i):
    """SeedSequence's entropy of deal ``i``: the seed's words, then ``i``'s, then :data:`TAG`; its length."""
    m = words
    while True:
        entropy[m] = i & 0xFFFFFFFF
        m += 1
        i >>= 32
        if not i:
            break
    entropy[m] = TAG
    return m + 1


@njit(cache=True, inline="always")
def _draw(high, low, inc_high, inc_low, prod, x, b, enlam, weights, lane):
    """One uniform of Generator.poisson(1.0)'s multiplication method (random_poisson_mult: uniforms
    multiplied until the product falls to exp(-1); the count is how many came before), without a
    branch on it (one would be guessed wrong every other draw): the count so far is stored at
    replicate ``b``, and a finished count moves ``b`` on (a lane done writes to the spare column)."""
    high, low = pcg_step(high, low, inc_high, inc_low)
    mixed = high ^ low  # PCG64's XSL-RR output, then next_double
    turn = high >> u64(58)
    raw = (mixed >> turn) | (mixed << ((u64(64) - turn) & u64(63)))
    prod *= (raw >> u64(11)) * (1.0 / 9007199254740992.0)
    done = prod <= enlam
    weights[lane, b] = x
    # arithmetic, not choices, which the compiler would turn back into branches: exact (x 1.0 + 0.0, x 0.0 + 1.0)
    d = np.int64(done)
    return high, low, prod * (1.0 - d) + d, (x + 1) * (1 - d), b + d * (b < weights.shape[1] - 1)


@njit(cache=True)
def _sums(seed_words, start, values, enlam, out):
    """``out += values.T @ weights`` of the deals ``start + j`` (rows of ``values``) that count
    anywhere, four deals at a time: four generators' draws interleave, each waiting on its own
    previous product only."""
    n, rows = values.shape
    replicates = out.shape[1]
    counted = np.zeros(n, np.int64)
    k = 0
    for j in range(n):
        for r in range(rows):
            if values[j, r]:
                counted[k] = j
                k += 1
                break
    entropy = np.empty(len(seed_words) + 3, np.int64)
    entropy[:len(seed_words)] = seed_words
    words = len(seed_words)
    weights = np.zeros((4, replicates + 1), np.int64)  # one spare column
    for g in range(0, k, 4):
        lanes = min(4, k - g)
        last = g + lanes - 1  # a missing lane repeats the last deal
        j0, j1, j2, j3 = counted[g], counted[min(g + 1, last)], counted[min(g + 2, last)], counted[min(g + 3, last)]
        h0, l0, i0, k0 = seeded(entropy, _entropy(entropy, words, start + j0))
        h1, l1, i1, k1 = seeded(entropy, _entropy(entropy, words, start + j1))
        h2, l2, i2, k2 = seeded(entropy, _entropy(entropy, words, start + j2))
        h3, l3, i3, k3 = seeded(entropy, _entropy(entropy, words, start + j3))
        p0 = p1 = p2 = p3 = 1.0
        x0 = x1 = x2 = x3 = 0
        b0 = b1 = b2 = b3 = 0
        while min(min(b0, b1), min(b2, b3)) < replicates:
            h0, l0, p0, x0, b0 = _draw(h0, l0, i0, k0, p0, x0, b0, enlam, weights, 0)
            h1, l1, p1, x1, b1 = _draw(h1, l1, i1, k1, p1, x1, b1, enlam, weights, 1)
            h2, l2, p2, x2, b2 = _draw(h2, l2, i2, k2, p2, x2, b2, enlam, weights, 2)
            h3, l3, p3, x3, b3 = _draw(h3, l3, i3, k3, p3, x3, b3, enlam, weights, 3)
        for q in range(lanes):
            j = counted[g + q]
            for r in range(rows):
                v = values[j, r]
                if v:
                    for b in range(replicates):
                        out[r, b] += v * weights[q, b]


