"""The seeded deals of :func:`skatcore.sim.play.seeded_deal`, many at once.

Deal ``i`` of seed ``S`` is ``sorted(range(32), key=random)`` of a
``random.Random("skatcore/S/i")``.  Python seeds its Mersenne Twister from a
string by the bytes followed by their SHA-512, read as one big integer whose
32-bit words (lowest first) go to ``init_by_array``; :func:`_shuffle` runs
that generator (MT19937, as CPython's ``_randommodule.c``) compiled, so the
cards come out identical at a fraction of the cost.  ``tests/sim/test_fastpath.py``
compares them with :func:`~skatcore.sim.play.seeded_deal`.
"""

from __future__ import annotations

from hashlib import sha512

import numpy as np
from numba import njit

from skatcore import numba_cache  # noqa: F401 (the cache of the functions below stamped with their imports)
from skatcore.engine.deal import PACKETS

N, M = 624, 397
M32 = 0xFFFFFFFF


def _init_genrand() -> np.ndarray:
    """The state ``init_genrand(19650218)`` gives, where every ``init_by_array`` starts."""
    mt = [19650218]
    for k in range(1, N):
        mt.append((1812433253 * (mt[-1] ^ (mt[-1] >> 30)) + k) & M32)
    return np.array(mt, np.int64)


_START = _init_genrand()


@njit(cache=True)
def _init_by_array(mt, start, key):
    mt[:] = start
    i, j = 1, 0
    for _ in range(max(N, len(key))):
        mt[i] = ((mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525) & M32)) + key[j] + j) & M32
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= len(key):
            j = 0
    for _ in range(N - 1):
        mt[i] = ((mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941) & M32)) - i) & M32
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = 0x80000000


@njit(cache=True)
def _twist(mt, n):
    """The first ``n`` words of the next block (n <= N - M: they read only words of this one)."""
    for kk in range(n):
        y = (mt[kk] & 0x80000000) | (mt[kk + 1] & 0x7FFFFFFF)
        mt[kk] = mt[kk + M] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)


@njit(cache=True)
def _temper(y):
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    return y ^ (y >> 18)


@njit(cache=True)
def _shuffle(keys, starts, deck, start):
    """Deck ``d`` (row of ``deck``) from the key words ``keys[starts[d]:starts[d+1]]`` (``start``: :data:`_START`)."""
    mt = np.zeros(N, np.int64)
    r = np.zeros(32)
    for d in range(len(starts) - 1):
        _init_by_array(mt, start, keys[starts[d]:starts[d + 1]])
        _twist(mt, 64)  # Python's random() takes two words per float
        for k in range(32):
            a, b = _temper(mt[2 * k]) >> 5, _temper(mt[2 * k + 1]) >> 6
            r[k] = (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)
        for k in range(32):  # a stable insertion sort, as sorted(range(32), key=...)
            deck[d, k] = k
            j = k
            while j > 0 and r[deck[d, j - 1]] > r[k]:
                deck[d, j] = deck[d, j - 1]
                j -= 1
            deck[d, j] = k


def _key(text: str) -> bytes:
    """The init_by_array words of ``random.Random(text)``, little-endian: the
    bytes and their SHA-512 read as one big-endian integer (it has no leading
    zero byte: ``text`` starts with a letter), lowest byte first, zeros to
    a whole word."""
    a = text.encode()
    b = (a + sha512(a).digest())[::-1]
    return b + bytes(-len(b) % 4)


def seeded_decks(seed: int, start: int, n: int) -> np.ndarray:
    """The decks (n x 32, dealing order) of deals ``start .. start+n-1``."""
    keys = [_key(f"skatcore/{seed}/{i}") for i in range(start, start + n)]
    starts = np.zeros(n + 1, np.int64)
    np.cumsum([len(k) // 4 for k in keys], out=starts[1:])
    deck = np.zeros((n, 32), np.int64)
    words = np.frombuffer(b"".join(keys), "<u4").astype(np.int64)
    _shuffle(words, starts, deck, _START)
    return deck


def seeded_deals(seed: int, start: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Deals ``start .. start+n-1`` of run ``seed`` as ``skat simulate`` deals
    them: ``(deck, hands, skat)``, the deck in dealing order (n x 32), the
    hands (n x 3) and the skat (n) as masks."""
    deck = seeded_decks(seed, start, n)
    bits = np.int64(1) << deck
    hands = np.stack([np.bitwise_or.reduce(bits[:, list(p)], axis=1) for p in PACKETS], axis=1)
    return deck.astype(np.int8), hands, bits[:, 9] | bits[:, 10]
