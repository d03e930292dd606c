"""The compiled part of the double-dummy solver (:mod:`skatcore.bots.solver`):
the search on a window of card points, on the solver's own card numbering
(see :class:`skatcore.bots.solver.Flat`); its moves and bounds are
:mod:`skatcore.bots.solver_moves`, its transposition table
:mod:`skatcore.bots.solver_table`.  Plain Python under ``NUMBA_DISABLE_JIT=1``."""

from __future__ import annotations

import numpy as np
from numba import njit

from skatcore import numba_cache  # noqa: F401 (the cache of the functions below stamped with their imports)

from .solver_moves import (
    judged,
    last_trick,
    quick_points,
    search_moves,
    sure_trumps,
    three_tricks,
    two_tricks,
    winning_index,
)
from .solver_table import (
    ALL_CARDS,
    MOD3,
    POINTS,
    WAYS,
    bucket_of,
    like_bounds,
    popcount,
    position_key,
    prefetch,
    store,
    store_like,
)

MAX_DEPTH = 40


# stack frame fields of the iterative search
(_F_NTR, _F_LEADER, _F_T0, _F_T1, _F_ALPHA, _F_BETA, _F_LIVE, _F_N, _F_I, _F_KEY, _F_SLOT, _F_RESULT, _F_BEST,
 _F_CREDIT, _F_ALPHA0, _F_BETA0, _F_LIKE, _F_REM) = range(18)


@njit(cache=True)
def search(T, W, cfg, canon, hands, t0, t1, ntr, leader, alpha, beta, live, tt, moves, depth, stats):
    """What the declarer's side takes from this position, searched in the
    window (``alpha``, ``beta``): ``ntr`` cards ``t0``, ``t1`` of the trick
    led by ``leader`` are down; ``live`` is what is still to be taken.

    Fail-soft: the answer ``g`` is a lower bound if ``g >= beta``, an upper
    bound if ``g <= alpha``, else the exact take.  ``alpha = need - 1``,
    ``beta = need`` asks whether the side takes ``need`` (a null window).

    An alpha-beta, iterative (an explicit stack in ``moves``' rows from
    ``depth`` on) so that a node costs no function call.  ``W``: the trick
    winners of a plugin that decides them (no rows: the card order; see
    :func:`~skatcore.bots.solver_moves.winning_index`), ``cfg[7]`` then 1: no sure-winner bounds."""
    declarer, invert, tricks_goal, tag, limit, ngroups, nlike = cfg[0], cfg[1], cfg[2], cfg[3], cfg[4], cfg[5], cfg[6]
    F = np.empty((MAX_DEPTH, 18), dtype=np.int64)
    d = depth
    F[d, _F_NTR], F[d, _F_LEADER], F[d, _F_T0], F[d, _F_T1] = ntr, leader, t0, t1
    F[d, _F_ALPHA], F[d, _F_BETA], F[d, _F_LIVE], F[d, _F_CREDIT] = alpha, beta, live, 0
    F[d, _F_KEY] = 0  # (a trick's start works out its key)
    nodes = 0
    r = 0  # the bound a settled node answers (see above)
    entering = True
    while True:
        if entering:
            # a new node at depth d: settle it at once, or set up its moves
            nodes += 1
            if limit > 0 and nodes > limit:
                # over budget: take back the cards on the stack and give up
                for e in range(d - 1, depth - 1, -1):
                    q = MOD3[F[e, _F_LEADER] + F[e, _F_NTR]]
                    hands[q] ^= np.int64(1) << moves[e, F[e, _F_I]]
                stats[0] += nodes
                stats[1] += 1
                return alpha
            ntr, leader, a, b, live = F[d, _F_NTR], F[d, _F_LEADER], F[d, _F_ALPHA], F[d, _F_BETA], F[d, _F_LIVE]
            settled = True
            hint = -1
            if b <= 0:
                r = 0
            elif a >= live:
                r = live
            else:
                settled = False
                lo, hi = 0, live
                if ntr == 0:
                    rem = hands[0] | hands[1] | hands[2]
                    ncards = popcount(rem)
                    if ncards == 3:
                        r = last_trick(T, W, hands[0], hands[1], hands[2], leader, declarer, invert, tricks_goal)
                        settled = True
                    elif ncards == 6:
                        r = two_tricks(T, W, hands[0], hands[1], hands[2], leader, declarer, invert, tricks_goal, a, b)
                        settled = True
                    else:
                        key = F[d, _F_KEY]  # from the third hand's fetch ahead, else 0
                        if key == 0:
                            key = position_key(canon, ngroups, nlike, rem, leader, tag, False)
                        base = bucket_of(key)
                        prefetch(tt, base)
                        like = 0
                        if nlike > 0:  # fetched alongside: the two memory misses overlap
                            like = position_key(canon, ngroups, nlike, rem, leader, tag, True)
                            prefetch(tt, bucket_of(like))
                        F[d, _F_KEY], F[d, _F_SLOT], F[d, _F_REM], F[d, _F_LIKE] = key, base, rem, 0
                        sure_lo, sure_hi = 0, live
                        if tricks_goal == 0 and invert == 0 and ncards > 9 and cfg[7] == 0:
                            # sure winners: the leader's, and both sides' top trumps (Ramsch and null: a
                            # seat may not want them); worked out while the buckets are on their way (not
                            # for three tricks: solved in the wider window, fewer nodes above them)
                            h0, h1, h2 = hands[0], hands[1], hands[2]
                            q = quick_points(T, h0, h1, h2, leader)
                            mine = sure_trumps(T, h0, h1, h2, 1 << declarer)
                            theirs = sure_trumps(T, h0, h1, h2, 7 ^ (1 << declarer))
                            if mine > 0:  # only one side's (no branch around the call: numba would count a
                                theirs = 0  # reference to T there)
                            if leader == declarer:
                                sure_lo, sure_hi = max(q, mine), live - theirs
                            else:
                                sure_lo, sure_hi = mine, live - max(q, theirs)
                        for j in range(base, base + WAYS):
                            if tt[j, 0] == key:
                                lo = tt[j, 1] & 0xFF
                                hi = (tt[j, 1] >> 8) & 0xFF
                                hint = ((tt[j, 1] >> 24) & 0x3F) - 1
                                break
                        if lo < b and hi > a and lo < hi:
                            lo, hi = max(lo, sure_lo), min(hi, sure_hi)
                        if nlike > 0 and lo < b and hi > a and lo < hi:
                            # a like position's bounds, widened by the card points that differ
                            F[d, _F_LIKE] = like
                            lb = bucket_of(like)
                            for j in range(lb, lb + WAYS):
                                if tt[j, 0] == like:
                                    up, down = like_bounds(T, rem, (tt[j, 1] >> 24) & ALL_CARDS)
                                    lo = max(lo, (tt[j, 1] & 0xFF) - down)
                                    hi = min(hi, ((tt[j, 1] >> 8) & 0xFF) + up)
                        if lo >= b:
                            r = lo
                            settled = True
                        elif hi <= a:
                            r = hi
                            settled = True
                        elif lo == hi:
                            r = lo
                            settled = True
                        else:  # the bounds narrow the window
                            a, b = max(a, lo), min(b, hi)
                            if ncards == 9:
                                # three tricks left: solved directly, its bound kept like a searched one's
                                r = three_tricks(T, W, hands[0], hands[1], hands[2], leader, declarer, invert,
                                                  tricks_goal, a, b)
                                settled = True
                                bounds = store(tt, base, key, tag, a, b, live, r, -1)
                                if F[d, _F_LIKE] != 0:
                                    store_like(tt, like, tag, rem, bounds)
            if not settled:
                p = MOD3[leader + ntr]
                n = search_moves(T, hands[0], hands[1], hands[2], F[d, _F_T0], F[d, _F_T1], ntr, leader, declarer, invert, tricks_goal, moves, d)
                if hint >= 0:  # the lead that settled this position in an earlier search goes first
                    for j in range(1, n):
                        if moves[d, j] == hint:
                            for k in range(j, 0, -1):
                                moves[d, k] = moves[d, k - 1]
                            moves[d, 0] = hint
                            break
                F[d, _F_N] = n
                F[d, _F_I] = 0
                F[d, _F_BEST] = -1
                if ntr == 2:
                    # the children start tricks: fetch their buckets now, so that the lookups find them
                    t0, t1 = F[d, _F_T0], F[d, _F_T1]
                    rest = hands[0] | hands[1] | hands[2]
                    if popcount(rest) > 7:
                        for j in range(n):
                            c = moves[d, j]
                            crem = rest ^ (np.int64(1) << c)
                            w = MOD3[leader + winning_index(T, W, popcount(crem), t0, t1, c, leader)]
                            child = position_key(canon, ngroups, nlike, crem, w, tag, False)
                            moves[d, 16 + j] = child  # (the ordering's scores are spent): the child's key
                            prefetch(tt, bucket_of(child))
                F[d, _F_ALPHA], F[d, _F_BETA], F[d, _F_ALPHA0], F[d, _F_BETA0] = a, b, a, b
                F[d, _F_RESULT] = -1 if p == declarer else 1 << 20
            entering = False
        else:
            # back from a child with bound r: undo its card, cut off or go on
            settled = False
            i = F[d, _F_I]
            ntr, leader = F[d, _F_NTR], F[d, _F_LEADER]
            p = MOD3[leader + ntr]
            hands[p] ^= np.int64(1) << moves[d, i]
            r += F[d + 1, _F_CREDIT]  # what the side took in the trick this card completed
            F[d, _F_I] = i + 1
            if p == declarer:
                if r > F[d, _F_RESULT]:
                    F[d, _F_RESULT] = r
                    if r > F[d, _F_ALPHA]:
                        F[d, _F_ALPHA] = r
                        F[d, _F_BEST] = moves[d, i]
                settled = r >= F[d, _F_BETA]
            else:
                if r < F[d, _F_RESULT]:
                    F[d, _F_RESULT] = r
                    if r < F[d, _F_BETA]:
                        F[d, _F_BETA] = r
                        F[d, _F_BEST] = moves[d, i]
                settled = r <= F[d, _F_ALPHA]
            if i + 1 >= F[d, _F_N]:
                settled = True
            if settled:
                r = F[d, _F_RESULT]
                if ntr == 0:
                    bounds = store(tt, F[d, _F_SLOT], F[d, _F_KEY], tag, F[d, _F_ALPHA0], F[d, _F_BETA0],
                                    F[d, _F_LIVE], r, F[d, _F_BEST])
                    if F[d, _F_LIKE] != 0:
                        store_like(tt, F[d, _F_LIKE], tag, F[d, _F_REM], bounds)
        if settled:
            if d == depth:
                stats[0] += nodes
                return r
            d -= 1
            continue
        # play the next move of node d into a child at d + 1
        i = F[d, _F_I]
        ntr, leader = F[d, _F_NTR], F[d, _F_LEADER]
        p = MOD3[leader + ntr]
        c = moves[d, i]
        hands[p] ^= np.int64(1) << c
        e = d + 1
        F[e, _F_T0], F[e, _F_T1], F[e, _F_LIVE] = F[d, _F_T0], F[d, _F_T1], F[d, _F_LIVE]
        F[e, _F_ALPHA], F[e, _F_BETA] = F[d, _F_ALPHA], F[d, _F_BETA]
        F[e, _F_LEADER] = leader
        F[e, _F_NTR] = ntr + 1
        F[e, _F_CREDIT] = 0
        if ntr == 0:
            F[e, _F_T0] = c
        elif ntr == 1:
            F[e, _F_T1] = c
        else:
            t0, t1 = F[d, _F_T0], F[d, _F_T1]
            k, extra = judged(T, W, popcount(hands[0] | hands[1] | hands[2]), t0, t1, c, leader)
            w = MOD3[leader + k]
            weight = 1
            if tricks_goal == 0:
                weight = T[POINTS, t0] + T[POINTS, t1] + T[POINTS, c]
            F[e, _F_NTR] = 0
            F[e, _F_LEADER] = w
            F[e, _F_KEY] = moves[d, 16 + i]  # its key, worked out above (one of <= 6 cards reads none)
            F[e, _F_LIVE] -= weight
            credit = weight + extra if (w == declarer) != (invert == 1) else -extra  # extra: house rules' points
            F[e, _F_CREDIT] = credit
            F[e, _F_ALPHA] -= credit
            F[e, _F_BETA] -= credit
        d = e
        entering = True


@njit(cache=True)
def value(T, W, cfg, canon, hands, t0, t1, ntr, leader, live, tt, moves, depth, stats):
    """The exact amount the declarer's side takes: null-window searches from
    the top down, each probe one below the upper bound the last one found
    (skipping a point: a probe that succeeds is then at most one below the
    value), until one succeeds at the upper bound or just under it.

    Proofs that the declarer's side takes at least ``need`` cost more than
    proofs that it does not, the more so near the value: on 200 declared
    openings 23M nodes against 28M for a bisection of [0, ``live``] (whose
    probes below the value cost 60% of it) and 144M against 120M for one
    search in the full window (60 openings, an older solver)."""
    lo, hi = np.int64(0), live
    aborted = stats[1]
    while lo < hi:
        need = min(hi, max(lo + 1, hi - 1))
        g = search(T, W, cfg, canon, hands, t0, t1, ntr, leader, need - 1, need, live, tt, moves, depth, stats)
        if stats[1] != aborted:
            break  # over the node limit: no answer (the caller sees it counted), lo still a lower bound
        if g >= need:
            lo = g
        else:
            hi = g
    return lo


@njit(cache=True)
def root(T, W, cfg, canon, hands, t0, t1, ntr, leader, need, live, exact, tt, moves, stats, out):
    """For each card the player to move may play, ``out[card]`` = whether the
    declarer's side then takes ``need`` more (0/1), or with ``exact`` how much
    it takes; cards equivalent to a searched one get no entry."""
    p = MOD3[leader + ntr]
    n = search_moves(T, hands[0], hands[1], hands[2], t0, t1, ntr, leader, cfg[0], cfg[1], cfg[2], moves, 0)
    one = np.int64(1)
    for i in range(n):
        c = moves[0, i]
        b = np.int64(1) << c
        hands[p] ^= b
        credit = 0
        a0, a1, nt, nl, nlive = t0, t1, ntr + 1, leader, live
        if ntr == 0:
            a0 = c
        elif ntr == 1:
            a1 = c
        else:
            k, extra = judged(T, W, popcount(hands[0] | hands[1] | hands[2]), t0, t1, c, leader)
            w = MOD3[leader + k]
            weight = 1
            if cfg[2] == 0:
                weight = T[POINTS, t0] + T[POINTS, t1] + T[POINTS, c]
            credit = weight + extra if (w == cfg[0]) != (cfg[1] == 1) else -extra
            nt, nl, nlive = np.int64(0), w, live - weight
        if exact:
            out[c] = credit + value(T, W, cfg, canon, hands, a0, a1, nt, nl, nlive, tt, moves, one, stats)
        else:
            aborted = stats[1]
            need_c = need - credit
            out[c] = 1 if search(T, W, cfg, canon, hands, a0, a1, nt, nl, need_c - 1, need_c, nlive, tt, moves, one,
                                  stats) >= need_c else 0
            if stats[1] != aborted:
                out[c] = 2  # unknown: the node budget ran out
        hands[p] ^= b
    return n
