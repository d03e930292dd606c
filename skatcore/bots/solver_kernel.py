"""The compiled part of the double-dummy solver (:mod:`skatcore.bots.solver`):
the search on a window of card points and its move generation and bounds,
on the solver's own card numbering (see :class:`skatcore.bots.solver.Flat`);
its transposition table is :mod:`skatcore.bots.solver_table`.  Plain Python
under ``NUMBA_DISABLE_JIT=1``."""

from __future__ import annotations

import numpy as np
from numba import njit

from .solver_table import (
    _CARDS,
    _LIKE,
    _MOD3,
    _TAG_SHIFT,
    POINTS,
    WAYS,
    _bucket,
    _card,
    _clz,
    _like_bounds,
    _popcount,
    _prefetch,
    _store,
    _store_like,
    canonical,
)

# rows of the flattened trick table, indexed by the solver's own card ids
FOLLOW, POWER = 0, 2  # POINTS = 1 (solver_table)
ABOVE = 3             # the cards of the same class that beat it
SAME = 4              # the cards of the same class with as many card points
STRENGTH = 5          # 5 rows: strength of each card in a trick led with class k
CLASS = 10            # cols 0..4: the mask of class k
RUFF = 11             # cols 0..4: the cards outside class k that beat all of it when k is led (trumps)
TRUMPS = 5            # RUFF's col 5: the trumps, if they beat all else in any trick in the same order (else 0)
ROWS = 12

MAX_DEPTH = 40


@njit(cache=True, inline="always")
def _trick_winner(T, c0, c1, c2):
    k = T[FOLLOW, c0]
    a, b, d = T[STRENGTH + k, c0], T[STRENGTH + k, c1], T[STRENGTH + k, c2]
    if a > b and a > d:
        return 0
    if b > d:
        return 1
    return 2


@njit(cache=True, inline="always")
def _lead_score(T, hands, p, declarer, c, over, pts):
    """How promising a lead of ``c`` by ``p`` is (card points count): a master
    no opponent can ruff cashes its points first; then a low card to the
    partner's master, or into his ruff; else something low.  ``over``: the
    cards in play above ``c`` in its class that ``p`` does not hold."""
    k = T[FOLLOW, c]
    cls, ruff = T[CLASS, k], T[RUFF, k]
    low = -pts - (T[POWER, c] >> 2)
    s1, s2 = _MOD3[p + 1], _MOD3[p + 2]
    mine = p == declarer
    h1, h2 = hands[s1], hands[s2]
    ruffs1 = h1 & cls == 0 and h1 & ruff != 0
    ruffs2 = h2 & cls == 0 and h2 & ruff != 0
    if mine:  # both others are opponents
        if over == 0:
            return 20 + low if ruffs1 or ruffs2 else 100 + pts
        return low
    mate, mate_ruffs, opp_ruffs = s1, ruffs1, ruffs2
    if s2 != declarer:
        mate, mate_ruffs, opp_ruffs = s2, ruffs2, ruffs1
    if over == 0:
        return 20 + low if opp_ruffs else 100 + pts
    top = np.int64(1) << (63 - _clz(over))
    if hands[mate] & top != 0 and not opp_ruffs:
        return 60 + low
    if mate_ruffs and not opp_ruffs:
        return 40 + low
    if opp_ruffs and not mate_ruffs:
        return 20 + low
    return low


@njit(cache=True, inline="always")
def _moves(T, hands, t0, t1, ntr, leader, declarer, invert, tricks_goal, out, d):
    """Fill ``out[d, :n]`` with the cards worth searching for the player to
    move, best first (``out[d, 16:16 + n]`` holds their ordering scores);
    return n."""
    p = leader + ntr
    if p >= 3:
        p -= 3
    hand = hands[p]
    live = hands[0] | hands[1] | hands[2]
    legal = hand
    lead_k = 0
    best_s = -1
    friendly = False
    third_beats, mate_third = False, False
    if ntr > 0:
        live |= np.int64(1) << t0
        lead_k = T[FOLLOW, t0]
        f = hand & T[CLASS, lead_k]
        if f != 0:
            legal = f
        best_seat = leader
        best_s = T[STRENGTH + lead_k, t0]
        if ntr > 1:
            live |= np.int64(1) << t1
            if T[STRENGTH + lead_k, t1] > best_s:
                best_s = T[STRENGTH + lead_k, t1]
                best_seat = leader + 1 if leader < 2 else 0
        # the trick now goes where the player to move wants it
        friendly = ((best_seat == declarer) == (p == declarer)) != (invert == 1)
        if ntr == 1:
            q = _MOD3[leader + 2]
            third = hands[q]
            third_beats = third & T[ABOVE, t0] != 0 or (third & T[CLASS, lead_k] == 0 and third & T[RUFF, lead_k] != 0)
            mate_third = (q == declarer) == (p == declarer)
    same = ABOVE if tricks_goal == 1 else SAME  # (in tricks, points do not matter)
    n = 0
    rest = legal
    while rest != 0:  # weakest first; ties end up strongest first
        b = rest & -rest
        rest ^= b
        c = _card(b)
        above = live & T[ABOVE, c]
        if above & -above & hand & T[same, c] != 0:
            continue  # equivalent to the next stronger card still in play
        pts = T[POINTS, c]
        if tricks_goal == 1:
            pts = 0
        if ntr == 0 and tricks_goal == 0 and invert == 0:
            sc = _lead_score(T, hands, p, declarer, c, above & ~hand, pts)
        elif ntr == 0:  # lead a sure winner with points, else something low
            sc = 100 + pts if above & ~hand == 0 else -pts - (T[POWER, c] >> 2)
        elif ntr == 1 and friendly and tricks_goal == 0 and invert == 0 and third_beats:
            sc = -pts - (T[POWER, c] >> 2)  # the third hand can beat the partner's lead: no smear
        elif ntr == 1 and mate_third and tricks_goal == 0 and invert == 0 and third_beats \
                and T[STRENGTH + lead_k, c] <= best_s:
            sc = 100 + pts  # the partner behind can take it: smear
        elif friendly:
            sc = pts  # smear
        elif T[STRENGTH + lead_k, c] > best_s:
            sc = 200 + pts - T[POWER, c]  # take it, cheaply
        else:
            sc = -pts - (T[POWER, c] >> 2)
        # insertion, highest score first
        j = n
        while j > 0 and out[d, 16 + j - 1] <= sc:
            out[d, j] = out[d, j - 1]
            out[d, 16 + j] = out[d, 16 + j - 1]
            j -= 1
        out[d, j] = c
        out[d, 16 + j] = sc
        n += 1
    return n


@njit(cache=True, inline="always")
def _quick(T, hands, leader):
    """Card points the leader's side is sure to take (a lower bound): the
    leader's cards that no one still in play can beat - cashed one after
    another, each as often as every other player holding a ruff still has
    to follow (his partner included: he must not be forced to take the lead)."""
    h = hands[leader]
    live = hands[0] | hands[1] | hands[2]
    a, b = hands[_MOD3[leader + 1]], hands[_MOD3[leader + 2]]
    pts = 0
    for k in range(5):
        cls = T[CLASS, k]
        if h & cls == 0:
            continue
        n = 20
        ruff = T[RUFF, k]
        if a & ruff != 0:
            n = _popcount(a & cls)
        if b & ruff != 0:
            n = min(n, _popcount(b & cls))
        top = 0  # the leader's cards of the class that nothing in play beats
        rest = h & cls
        while rest != 0:
            c = _card(rest & -rest)
            rest &= rest - 1
            if live & T[ABOVE, c] & ~h == 0:
                top += 1
        rest = h & cls
        while rest != 0:  # the n strongest of them are cashed
            c = _card(rest & -rest)
            rest &= rest - 1
            if live & T[ABOVE, c] & ~h == 0:
                if top <= n:
                    pts += T[POINTS, c]
                top -= 1
    return pts


@njit(cache=True, inline="always")
def _sure_trumps(T, hands, side):
    """Card points the seats in ``side`` (a mask of seats) take for sure
    with trumps: each of their trumps above which every trump still in play
    is theirs wins whatever trick it falls in."""
    trumps = T[RUFF, TRUMPS]
    live = (hands[0] | hands[1] | hands[2]) & trumps
    mine = live
    for seat in range(3):
        if not (side >> seat) & 1:
            mine &= ~hands[seat]
    others = live & ~mine
    pts = 0
    while mine != 0:  # strongest first, while no other trump is above
        c = 63 - _clz(mine)
        b = np.int64(1) << c
        if others >= b:
            break
        pts += T[POINTS, c]
        mine ^= b
    return pts


@njit(cache=True, inline="always")
def _last_trick(T, hands, leader, declarer, invert, tricks_goal):
    """What the declarer's side takes in the last trick: one card each, no choice left."""
    c0, c1, c2 = _card(hands[leader]), _card(hands[_MOD3[leader + 1]]), _card(hands[_MOD3[leader + 2]])
    w = _MOD3[leader + _trick_winner(T, c0, c1, c2)]
    if (w == declarer) == (invert == 1):
        return 0
    return 1 if tricks_goal == 1 else T[POINTS, c0] + T[POINTS, c1] + T[POINTS, c2]


@njit(cache=True)
def _two_tricks(T, hands, leader, declarer, invert, tricks_goal):
    """What the declarer's side takes in the last two tricks under best play:
    a plain minimax over the at most 2 x 2 x 2 ways to play the first of them
    (the last trick then plays itself) - cheaper than the table's lookups."""
    s1, s2 = _MOD3[leader + 1], _MOD3[leader + 2]
    h0, h1, h2 = hands[leader], hands[s1], hands[s2]
    best0 = -1 if leader == declarer else 1 << 20
    m0 = h0
    while m0 != 0:
        b0 = m0 & -m0
        m0 ^= b0
        c0 = _card(b0)
        cls = T[CLASS, T[FOLLOW, c0]]
        l1 = h1 & cls
        if l1 == 0:
            l1 = h1
        l2 = h2 & cls
        if l2 == 0:
            l2 = h2
        best1 = -1 if s1 == declarer else 1 << 20
        m1 = l1
        while m1 != 0:
            b1 = m1 & -m1
            m1 ^= b1
            c1 = _card(b1)
            best2 = -1 if s2 == declarer else 1 << 20
            m2 = l2
            while m2 != 0:
                b2 = m2 & -m2
                m2 ^= b2
                c2 = _card(b2)
                w = _MOD3[leader + _trick_winner(T, c0, c1, c2)]
                v = 0
                if (w == declarer) != (invert == 1):
                    v = 1 if tricks_goal == 1 else T[POINTS, c0] + T[POINTS, c1] + T[POINTS, c2]
                # the last trick: the one card each has left
                d0, d1, d2 = _card(h0 ^ b0), _card(h1 ^ b1), _card(h2 ^ b2)
                if w == s1:
                    d0, d1, d2 = d1, d2, d0
                elif w == s2:
                    d0, d1, d2 = d2, d0, d1
                w2 = _MOD3[w + _trick_winner(T, d0, d1, d2)]
                if (w2 == declarer) != (invert == 1):
                    v += 1 if tricks_goal == 1 else T[POINTS, d0] + T[POINTS, d1] + T[POINTS, d2]
                if (v > best2) == (s2 == declarer):
                    best2 = v
            if (best2 > best1) == (s1 == declarer):
                best1 = best2
        if (best1 > best0) == (leader == declarer):
            best0 = best1
    return best0


# stack frame fields of the iterative search
(_F_NTR, _F_LEADER, _F_T0, _F_T1, _F_ALPHA, _F_BETA, _F_LIVE, _F_N, _F_I, _F_KEY, _F_SLOT, _F_RESULT, _F_BEST,
 _F_CREDIT, _F_ALPHA0, _F_BETA0, _F_LIKE, _F_REM) = range(18)


@njit(cache=True)
def search(T, cfg, canon, hands, t0, t1, ntr, leader, alpha, beta, live, tt, moves, depth, stats):
    """What the declarer's side takes from this position, searched in the
    window (``alpha``, ``beta``): ``ntr`` cards ``t0``, ``t1`` of the trick
    led by ``leader`` are down; ``live`` is what is still to be taken.

    Fail-soft: the answer ``g`` is a lower bound if ``g >= beta``, an upper
    bound if ``g <= alpha``, else the exact take.  ``alpha = need - 1``,
    ``beta = need`` asks whether the side takes ``need`` (a null window).

    An alpha-beta, iterative (an explicit stack in ``moves``' rows from
    ``depth`` on) so that a node costs no function call."""
    declarer, invert, tricks_goal, tag, limit, ngroups, nlike = cfg[0], cfg[1], cfg[2], cfg[3], cfg[4], cfg[5], cfg[6]
    F = np.empty((MAX_DEPTH, 18), dtype=np.int64)
    d = depth
    F[d, _F_NTR], F[d, _F_LEADER], F[d, _F_T0], F[d, _F_T1] = ntr, leader, t0, t1
    F[d, _F_ALPHA], F[d, _F_BETA], F[d, _F_LIVE], F[d, _F_CREDIT] = alpha, beta, live, 0
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
                    q = _MOD3[F[e, _F_LEADER] + F[e, _F_NTR]]
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
                    ncards = _popcount(rem)
                    if ncards == 3:
                        r = _last_trick(T, hands, leader, declarer, invert, tricks_goal)
                        settled = True
                    elif ncards == 6:
                        r = _two_tricks(T, hands, leader, declarer, invert, tricks_goal)
                        settled = True
                    else:
                        key = canonical(canon, 0, ngroups, rem) | (leader << 36) | (tag << _TAG_SHIFT)
                        base = _bucket(key)
                        _prefetch(tt, base)
                        like = 0
                        if nlike > 0:  # fetched alongside: the two memory misses overlap
                            like = canonical(canon, ngroups, nlike, rem) | (leader << 36) | (tag << _TAG_SHIFT) | _LIKE
                            _prefetch(tt, _bucket(like))
                        F[d, _F_KEY], F[d, _F_SLOT], F[d, _F_REM], F[d, _F_LIKE] = key, base, rem, 0
                        for j in range(base, base + WAYS):
                            if tt[j, 0] == key:
                                lo = tt[j, 1] & 0xFF
                                hi = (tt[j, 1] >> 8) & 0xFF
                                hint = ((tt[j, 1] >> 24) & 0x3F) - 1
                                break
                        if tricks_goal == 0 and invert == 0 and lo < b and hi > a and lo < hi:
                            # sure winners: the leader's, and both sides' top trumps (Ramsch and null: a
                            # seat may not want them)
                            q = _quick(T, hands, leader)
                            mine = _sure_trumps(T, hands, 1 << declarer)
                            theirs = 0 if mine > 0 else _sure_trumps(T, hands, 7 ^ (1 << declarer))  # one side's
                            if leader == declarer:
                                lo, hi = max(lo, q, mine), min(hi, live - theirs)
                            else:
                                lo, hi = max(lo, mine), min(hi, live - max(q, theirs))
                        if nlike > 0 and lo < b and hi > a and lo < hi:
                            # a like position's bounds, widened by the card points that differ
                            F[d, _F_LIKE] = like
                            lb = _bucket(like)
                            for j in range(lb, lb + WAYS):
                                if tt[j, 0] == like:
                                    up, down = _like_bounds(T, rem, (tt[j, 1] >> 24) & _CARDS)
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
            if not settled:
                p = _MOD3[leader + ntr]
                n = _moves(T, hands, F[d, _F_T0], F[d, _F_T1], ntr, leader, declarer, invert, tricks_goal, moves, d)
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
                    if _popcount(rest) > 7:
                        for j in range(n):
                            c = moves[d, j]
                            w = _MOD3[leader + _trick_winner(T, t0, t1, c)]
                            crem = rest ^ (np.int64(1) << c)
                            _prefetch(tt, _bucket(canonical(canon, 0, ngroups, crem) | (w << 36) | (tag << _TAG_SHIFT)))
                F[d, _F_ALPHA], F[d, _F_BETA], F[d, _F_ALPHA0], F[d, _F_BETA0] = a, b, a, b
                F[d, _F_RESULT] = -1 if p == declarer else 1 << 20
            entering = False
        else:
            # back from a child with bound r: undo its card, cut off or go on
            settled = False
            i = F[d, _F_I]
            ntr, leader = F[d, _F_NTR], F[d, _F_LEADER]
            p = _MOD3[leader + ntr]
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
                    bounds = _store(tt, F[d, _F_SLOT], F[d, _F_KEY], tag, F[d, _F_ALPHA0], F[d, _F_BETA0],
                                    F[d, _F_LIVE], r, F[d, _F_BEST])
                    if F[d, _F_LIKE] != 0:
                        _store_like(tt, F[d, _F_LIKE], tag, F[d, _F_REM], bounds)
        if settled:
            if d == depth:
                stats[0] += nodes
                return r
            d -= 1
            continue
        # play the next move of node d into a child at d + 1
        i = F[d, _F_I]
        ntr, leader = F[d, _F_NTR], F[d, _F_LEADER]
        p = _MOD3[leader + ntr]
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
            w = _MOD3[leader + _trick_winner(T, t0, t1, c)]
            weight = 1
            if tricks_goal == 0:
                weight = T[POINTS, t0] + T[POINTS, t1] + T[POINTS, c]
            F[e, _F_NTR] = 0
            F[e, _F_LEADER] = w
            F[e, _F_LIVE] -= weight
            if (w == declarer) != (invert == 1):
                F[e, _F_CREDIT] = weight
                F[e, _F_ALPHA] -= weight
                F[e, _F_BETA] -= weight
        d = e
        entering = True


@njit(cache=True)
def value(T, cfg, canon, hands, t0, t1, ntr, leader, live, tt, moves, depth, stats):
    """The exact amount the declarer's side takes: a bisection of null-window
    searches over [0, ``live``], each probe moving an end to the bound it
    found (a search in the full window took more nodes: 144M against 120M
    on 60 declared openings)."""
    lo, hi = np.int64(0), live
    while lo < hi:
        mid = (lo + hi + 1) // 2
        g = search(T, cfg, canon, hands, t0, t1, ntr, leader, mid - 1, mid, live, tt, moves, depth, stats)
        if g >= mid:
            lo = g
        else:
            hi = g
    return lo


@njit(cache=True)
def root(T, cfg, canon, hands, t0, t1, ntr, leader, need, live, exact, tt, moves, stats, out):
    """For each card the player to move may play, ``out[card]`` = whether the
    declarer's side then takes ``need`` more (0/1), or with ``exact`` how much
    it takes; cards equivalent to a searched one get no entry."""
    p = _MOD3[leader + ntr]
    n = _moves(T, hands, t0, t1, ntr, leader, cfg[0], cfg[1], cfg[2], moves, 0)
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
            w = _MOD3[leader + _trick_winner(T, t0, t1, c)]
            weight = 1
            if cfg[2] == 0:
                weight = T[POINTS, t0] + T[POINTS, t1] + T[POINTS, c]
            credit = weight if (w == cfg[0]) != (cfg[1] == 1) else 0
            nt, nl, nlive = np.int64(0), w, live - weight
        if exact:
            out[c] = credit + value(T, cfg, canon, hands, a0, a1, nt, nl, nlive, tt, moves, one, stats)
        else:
            aborted = stats[1]
            need_c = need - credit
            out[c] = 1 if search(T, cfg, canon, hands, a0, a1, nt, nl, need_c - 1, need_c, nlive, tt, moves, one,
                                  stats) >= need_c else 0
            if stats[1] != aborted:
                out[c] = 2  # unknown: the node budget ran out
        hands[p] ^= b
    return n


# ---------------------------------------------------------------------------
# Python side
# ---------------------------------------------------------------------------
