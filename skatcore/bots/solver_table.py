"""The double-dummy solver's transposition table (:mod:`skatcore.bots.solver`):
its buckets, its keys (equal cards by their owners, like positions by
their shape) and the bit operations the compiled search shares.  Plain
Python under ``NUMBA_DISABLE_JIT=1``."""

from __future__ import annotations

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import config, njit, types
from numba.extending import intrinsic

from skatcore import numba_cache  # noqa: F401 (the cache of the functions below stamped with their imports)

from ..cards import CARD_NAMES

NC = len(CARD_NAMES)  # card ids 0..35 (the sixes of a 36-card deck included)
POINTS = 1            # the trick table's row of card points (see solver_kernel)

TT_BUCKETS = 1 << 17   # buckets of the transposition table: 8 MB, one cache line each
WAYS = 4               # entries of 16 bytes in a bucket
ALL_CARDS = (1 << 36) - 1
_TAG_SHIFT = 38        # key = cards out (36 bits) | leader << 36 | tag << 38 | like << 62
TAG_MASK = (1 << 24) - 1
_LIKE = np.int64(1) << 62

# the card of a one-card mask b is _BIT[b % 37] (2 is a primitive root mod 37)
_BIT = np.zeros(37, dtype=np.int64)
for _c in range(NC):
    _BIT[(1 << _c) % 37] = _c
MOD3 = np.array([0, 1, 2, 0, 1, 2], dtype=np.int64)


def _card_py(b):
    """The card of the one-card mask ``b``."""
    return _BIT[np.uint64(b) % np.uint64(37)]


def _clz_py(x):
    """Leading zeros of a positive 64-bit ``x``."""
    n = 0
    if x >> 32 == 0:
        n += 32
        x <<= 32
    if x >> 48 == 0:
        n += 16
        x <<= 16
    if x >> 56 == 0:
        n += 8
        x <<= 8
    if x >> 60 == 0:
        n += 4
        x <<= 4
    if x >> 62 == 0:
        n += 2
        x <<= 2
    if x >> 63 == 0:
        n += 1
    return n


def _popcount_py(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x += x >> 8
    x += x >> 16
    return (x + (x >> 32)) & 0x7F


if getattr(config, "DISABLE_JIT", 0):
    def prefetch(tt, row):
        """(Plain Python: nothing to fetch ahead.)"""

    card_of, clz, popcount = _card_py, _clz_py, _popcount_py
else:
    @intrinsic
    def _fetch(typingctx, tt, row):
        """Ask the CPU to fetch the table's bucket starting at ``row`` into its
        caches now, so that the lookup after some other work finds it there."""
        def codegen(context, builder, signature, args):
            data = context.make_array(signature.args[0])(context, builder, args[0]).data
            i8p = ir.IntType(8).as_pointer()
            ptr = builder.bitcast(builder.gep(data, [builder.mul(args[1], ir.Constant(args[1].type, 2))]), i8p)
            fn = builder.module.declare_intrinsic(
                "llvm.prefetch", fnty=ir.FunctionType(ir.VoidType(), [i8p] + [ir.IntType(32)] * 3))
            i32 = ir.IntType(32)
            builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
            return context.get_dummy_value()
        return types.void(tt, row), codegen

    # the bit counts as single instructions (tzcnt, lzcnt, popcnt: LLVM's intrinsics), not as the
    # arithmetic of the plain Python versions above
    def _bit_op(name):
        @intrinsic
        def op(typingctx, x):
            def codegen(context, builder, signature, args):
                v = builder.zext(args[0], ir.IntType(64)) if args[0].type.width < 64 else args[0]
                if name == "ctpop":
                    return builder.ctpop(v)
                return getattr(builder, name)(v, ir.Constant(ir.IntType(1), 0))
            return types.int64(x), codegen
        return op

    _cttz_i, _ctlz_i, _ctpop_i = _bit_op("cttz"), _bit_op("ctlz"), _bit_op("ctpop")

    @njit(cache=True, inline="always")
    def prefetch(tt, row):
        _fetch(tt, row)  # type: ignore[call-arg]

    @njit(cache=True, inline="always")
    def card_of(b):
        """The card of the one-card mask ``b``."""
        return _cttz_i(np.int64(b))

    @njit(cache=True, inline="always")
    def clz(x):
        """Leading zeros of a positive 64-bit ``x``."""
        return _ctlz_i(np.int64(x))

    @njit(cache=True, inline="always")
    def popcount(x):
        return _ctpop_i(np.int64(x))


@njit(cache=True, inline="always")
def store(tt, base, key, tag, alpha, beta, live, g, best):
    """Record in the bucket at ``base`` what a search of the position ``key``
    in the window (``alpha``, ``beta``) found: the declarer's side takes at
    least ``g`` (``g >= beta``), at most ``g`` (``g <= alpha``) or exactly
    ``g``; ``best`` the lead that proved it (-1: none).  An entry's second
    word packs the bounds and the lead: lower | upper << 8 | cards remaining
    << 16 | (lead + 1) << 24; a full bucket gives up its entry of this deal
    with the fewest cards left (the cheapest to search again) or one of an
    old deal."""
    slot = -1
    worst = 1 << 30
    for j in range(base, base + WAYS):
        k = tt[j, 0]
        if k == key:
            slot = j
            break
        size = -1 if (k >> _TAG_SHIFT) & TAG_MASK != tag else (tt[j, 1] >> 16) & 0xFF
        if size < worst:
            worst = size
            slot = j
    lead = best + 1
    if tt[slot, 0] == key:
        lo, hi = tt[slot, 1] & 0xFF, (tt[slot, 1] >> 8) & 0xFF
        if lead == 0:
            lead = (tt[slot, 1] >> 24) & 0x3F
    else:
        tt[slot, 0] = key
        lo, hi = 0, live
    if g > alpha:
        lo = max(lo, g)
    if g < beta:
        hi = min(hi, g)
    tt[slot, 1] = lo | (hi << 8) | (popcount(key & ALL_CARDS) << 16) | (lead << 24)
    return lo | (hi << 8)


@njit(cache=True, inline="always")
def bucket_of(key):
    return ((((key & 0xFFFFFFFF) * 0x5BD1E995 + (key >> 32) * 0x2545F491) >> 16) & (TT_BUCKETS - 1)) * WAYS


@njit(cache=True, inline="always")
def store_like(tt, key, tag, rem, bounds):
    """Record under the key of a class of like positions (see
    :func:`like_bounds`) the bounds of the position with the cards ``rem``
    out: word two is lower | upper << 8 | cards remaining << 16 | rem << 24."""
    base = bucket_of(key)
    slot = -1
    worst = 1 << 30
    for j in range(base, base + WAYS):
        k = tt[j, 0]
        if k == key and (tt[j, 1] >> 24) & ALL_CARDS == rem:
            slot = j
            break
        size = -1 if (k >> _TAG_SHIFT) & TAG_MASK != tag else (tt[j, 1] >> 16) & 0xFF
        if size < worst:
            worst = size
            slot = j
    tt[slot, 0] = key
    tt[slot, 1] = bounds | (popcount(rem) << 16) | (rem << 24)


@njit(cache=True, inline="always")
def like_bounds(T, rem, rem0):
    """How far the take from the cards ``rem`` out may lie from the take
    from ``rem0`` in a like position (the same seats holding the same number
    of cards of each follow class in the same order of strength: the same
    plays, the same trick winners; only card points differ): pairing the
    cards by strength, what ``rem`` has more (``up``) and less (``down``)."""
    up, down = 0, 0
    x = rem ^ rem0
    if x == 0:
        return up, down
    # below the lowest card that differs and above the highest the two hold the same cards (as many of
    # each class): those pairs differ in nothing
    span = (np.int64(2) << (63 - clz(x))) - (x & -x)
    a, b = rem & span, rem0 & span
    while a != 0:
        ca, cb = card_of(a & -a), card_of(b & -b)
        a &= a - 1
        b &= b - 1
        diff = T[POINTS, ca] - T[POINTS, cb]
        if diff > 0:
            up += diff
        else:
            down -= diff
    return up, down


GROUP_CARDS = 11       # a longer run is split (the canon table has 2 ** GROUP_CARDS columns per group)
MAX_GROUPS = 16


@njit(cache=True)
def learn(canon, ngroups, owner, hands):
    """Note the seat of each card in ``hands`` in ``owner`` (-1: not seen);
    if that tells anything new, refill ``canon``.

    A group is a run of cards adjacent in strength within one follow class
    and (when card points count) with the same card points: ``canon[g, 0]``
    its lowest solver id, ``canon[g, 1]`` its size.  Two positions whose
    cards out differ only in which cards of a group are left, the same seats
    holding them in the same order of strength, play alike.  For each subset
    ``s`` of a group still out, ``canon[g, 2 + s]`` is the subset that
    stands for all of them: matched strongest first, each card to the
    strongest card left of the group that the same seat was dealt."""
    new = False
    for seat in range(3):
        h = hands[seat]
        while h != 0:
            c = card_of(h & -h)
            h &= h - 1
            if owner[c] != seat:
                owner[c] = seat
                new = True
    if not new:
        return
    below = np.empty((GROUP_CARDS + 1, 3), dtype=np.int64)
    for g in range(ngroups):
        lo, size = canon[g, 0], canon[g, 1]
        known = 0  # only cards seen can be out in a later question about this deal
        for j in range(size):
            if owner[lo + j] >= 0:
                known |= 1 << j
        # below[p, seat]: the strongest card of the group under position p that seat was dealt (-1: none)
        below[0, :] = -1
        for p in range(1, size + 1):
            below[p, :] = below[p - 1, :]
            if owner[lo + p - 1] >= 0:
                below[p, owner[lo + p - 1]] = p - 1
        # every subset of the known cards, in increasing order: the weakest card of a subset is matched
        # last, so its canonical subset is that of the others plus the strongest card of the weakest
        # one's seat under theirs
        canon[g, 2] = 0
        sub = known & -known
        while sub != 0:
            j = card_of(sub & -sub)
            rest = canon[g, 2 + (sub & (sub - 1))]
            under = card_of(rest & -rest) - lo if rest != 0 else size
            canon[g, 2 + sub] = rest | np.int64(1) << (lo + below[under, owner[lo + j]])
            sub = (sub - known) & known


@njit(cache=True, inline="always")
def canonical(canon, first, ngroups, rem):
    """The transposition key's card set for the cards ``rem`` still out: in
    each of the groups ``first`` .. ``first + ngroups - 1`` (see
    :func:`learn`: runs of equal cards, or whole follow classes for the like
    positions' key) the remaining cards replaced by the canonical ones with
    the same owners in the same order."""
    key = rem
    for g in range(first, first + ngroups):
        lo = canon[g, 0]
        sub = (rem >> lo) & ((np.int64(1) << canon[g, 1]) - 1)
        key = (key ^ (sub << lo)) | canon[g, 2 + sub]
    return key


@njit(cache=True, inline="always")
def position_key(canon, ngroups, nlike, rem, leader, tag, like):
    """The transposition key of the position with the cards ``rem`` out and
    ``leader`` to lead (see ``_TAG_SHIFT``): its equal cards canonical, or
    with ``like`` the key of its class of like positions (every follow
    class canonical)."""
    if like:
        return canonical(canon, ngroups, nlike, rem) | (leader << 36) | (tag << _TAG_SHIFT) | _LIKE
    return canonical(canon, 0, ngroups, rem) | (leader << 36) | (tag << _TAG_SHIFT)
