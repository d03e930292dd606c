"""The double-dummy solver's moves and bounds (:mod:`skatcore.bots.solver_kernel`
searches with them): the cards worth searching in the order most likely to
settle a position first, the sure winners that bound a take, and the last
two tricks solved directly.  On the solver's own card numbering (see
:class:`skatcore.bots.solver.Flat`).  Plain Python under ``NUMBA_DISABLE_JIT=1``."""

from __future__ import annotations

import numpy as np
from numba import njit

from skatcore import numba_cache  # noqa: F401 (the cache of the functions below stamped with their imports)

from .solver_table import MOD3, POINTS, card_of, clz, popcount

# rows of the flattened trick table, indexed by the solver's own card ids
FOLLOW, POWER = 0, 2  # POINTS = 1 (solver_table)
ABOVE = 3             # the cards of the same class that beat it
SAME = 4              # the cards of the same class with as many card points
STRENGTH = 5          # 5 rows: strength of each card in a trick led with class k
CLASS = 10            # cols 0..4: the mask of class k
RUFF = 11             # cols 0..4: the cards outside class k that beat all of it when k is led (trumps)
TRUMPS = 5            # RUFF's col 5: the trumps, if they beat all else in any trick in the same order (else 0)
WROW = 12             # where a plugin decides trick winners: col 3 * trick + leader, the row of its table W
OUTER = 13            # each solver id's card id (W is by card ids)
EQUAL = 14            # the cards of the same class that may stand for it where only tricks count (ABOVE, less
                      # those a plugin deciding trick winners tells apart; SAME likewise where points count)
ENDS = 15             # cols 0-2: what house rules add to the last trick by its taker (solver_rule.TrickRule)
ROWS = 16


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
def winning_index(T, W, nleft, c0, c1, c2, leader):
    """The index of the card that takes the trick ``c0 c1 c2`` led by
    ``leader``, ``nleft`` cards left in the hands after it: by the table
    ``W`` of a plugin that decides trick winners
    (:mod:`skatcore.engine.trick_table`, no rows: the card order)."""
    if W.shape[0] == 0:
        return _trick_winner(T, c0, c1, c2)
    r = T[WROW, 3 * (9 - nleft // 3) + leader]
    return np.int64(W[r, (T[OUTER, c0] << 10) | (T[OUTER, c1] << 5) | T[OUTER, c2]]) & 3


@njit(cache=True, inline="always")
def judged(T, W, nleft, c0, c1, c2, leader):
    """:func:`winning_index`, and the card points house rules add to the trick
    (``W``'s entries above the index, :func:`skatcore.bots.solver.trick_rule`):
    for the declarer's side where it takes the trick, against it where not."""
    if W.shape[0] == 0:
        return _trick_winner(T, c0, c1, c2), np.int64(0)
    r = T[WROW, 3 * (9 - nleft // 3) + leader]
    x = np.int64(W[r, (T[OUTER, c0] << 10) | (T[OUTER, c1] << 5) | T[OUTER, c2]])
    end = T[ENDS, MOD3[leader + (x & 3)]]  # read whatever the trick (no branch around it: numba would count references)
    return x & 3, (x >> 2) + (end if nleft == 0 else 0)  # the last trick: the end of the deal's points, by its taker


@njit(cache=True, inline="always")
def _lead_score(T, h1, h2, p, declarer, c, over, pts):
    """How promising a lead of ``c`` by ``p`` is (card points count): a master
    no opponent can ruff cashes its points first; the declarer then draws
    the defenders' trumps (the fewest points first, of equal points the
    higher); a defender leads low to his partner's master, or into his
    ruff; else something low.  ``over``: the
    cards in play above ``c`` in its class that ``p`` does not hold; ``h1``,
    ``h2``: the hands of the next seat and the one after."""
    k = T[FOLLOW, c]
    cls, ruff = T[CLASS, k], T[RUFF, k]
    low = -pts - (T[POWER, c] >> 2)
    s2 = MOD3[p + 2]
    mine = p == declarer
    ruffs1 = h1 & cls == 0 and h1 & ruff != 0
    ruffs2 = h2 & cls == 0 and h2 & ruff != 0
    if mine:  # both others are opponents
        if over == 0:
            return 20 + low if ruffs1 or ruffs2 else 100 + pts
        if (T[RUFF, TRUMPS] >> c) & 1 == 1:
            return 70 + (T[POWER, c] >> 2) - pts  # draw trumps (61?: -32% nodes)
        return low
    mate_hand, mate_ruffs, opp_ruffs = h1, ruffs1, ruffs2
    if s2 != declarer:
        mate_hand, mate_ruffs, opp_ruffs = h2, ruffs2, ruffs1
    if over == 0:
        return 20 + low if opp_ruffs else 100 + pts
    top = np.int64(1) << (63 - clz(over))
    if mate_hand & top != 0 and not opp_ruffs:
        return 60 + low
    if mate_ruffs and not opp_ruffs:
        return 40 + low
    if opp_ruffs and not mate_ruffs:
        return 20 + low
    return low


@njit(cache=True, inline="always")
def _seat(h0, h1, h2, s):
    """The hand of seat ``s`` of the three (scalars, not the search's array:
    an array handed to a compiled helper costs reference counts in its loops)."""
    if s == 0:
        return h0
    return h1 if s == 1 else h2


@njit(cache=True, inline="always")
def _equivalent_above(T, live, hand, c, same):
    """Whether ``hand`` also holds the next stronger card of ``c``'s class
    still in play (``live``) and it is equal to ``c`` (row ``same``: of the
    same card points, or ``EQUAL`` where only tricks count): then ``c`` need
    not be searched."""
    above = live & T[ABOVE, c]
    return above & -above & hand & T[same, c] != 0


@njit(cache=True, inline="always")
def _follows(T, hand, led):
    """The cards of ``hand`` that may follow ``led``: its class, else any."""
    f = hand & T[CLASS, T[FOLLOW, led]]
    return f if f != 0 else hand


@njit(cache=True, inline="always")
def search_moves(T, h0, h1, h2, t0, t1, ntr, leader, declarer, invert, tricks_goal, out, d):
    """Fill ``out[d, :n]`` with the cards worth searching for the player to
    move (seats' hands ``h0``, ``h1``, ``h2``), best first (``out[d, 16:16 +
    n]`` holds their ordering scores); return n."""
    p = leader + ntr
    if p >= 3:
        p -= 3
    hand = _seat(h0, h1, h2, p)
    next1, next2 = _seat(h0, h1, h2, MOD3[p + 1]), _seat(h0, h1, h2, MOD3[p + 2])
    live = h0 | h1 | h2
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
            q = MOD3[leader + 2]
            third = _seat(h0, h1, h2, q)
            third_beats = third & T[ABOVE, t0] != 0 or (third & T[CLASS, lead_k] == 0 and third & T[RUFF, lead_k] != 0)
            mate_third = (q == declarer) == (p == declarer)
    same = EQUAL if tricks_goal == 1 else SAME  # (in tricks, points do not matter)
    n = 0
    rest = legal
    while rest != 0:  # weakest first; ties end up strongest first
        b = rest & -rest
        rest ^= b
        c = card_of(b)
        above = live & T[ABOVE, c]
        if above & -above & hand & T[same, c] != 0:
            continue  # equivalent to the next stronger card still in play
        pts = T[POINTS, c]
        if tricks_goal == 1:
            pts = 0
        if ntr == 0 and tricks_goal == 0 and invert == 0:
            sc = _lead_score(T, next1, next2, p, declarer, c, above & ~hand, pts)
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
def _above(cards):
    """The bits above the strongest (highest) of ``cards`` (not 0): the cards no card of them beats."""
    return -(np.int64(2) << (63 - clz(cards)))


@njit(cache=True, inline="always")
def quick_points(T, h0, h1, h2, leader):
    """Card points the leader's side is sure to take (a lower bound): the
    leader's cards that no one still in play can beat - cashed one after
    another, each as often as every other player holding a ruff still has
    to follow (his partner included: he must not be forced to take the lead)."""
    h = _seat(h0, h1, h2, leader)
    live = h0 | h1 | h2
    a, b = _seat(h0, h1, h2, MOD3[leader + 1]), _seat(h0, h1, h2, MOD3[leader + 2])
    pts = 0
    for k in range(5):
        cls = T[CLASS, k]
        if h & cls == 0:
            continue
        n = 20
        ruff = T[RUFF, k]
        if a & ruff != 0:
            n = popcount(a & cls)
        if b & ruff != 0:
            n = min(n, popcount(b & cls))
        # the leader's cards of the class that nothing in play beats: those above the others' strongest
        top = h & cls
        others = live & cls & ~h
        if others != 0:
            top &= _above(others)
        for _ in range(popcount(top) - n):  # the n strongest of them are cashed
            top &= top - 1
        while top != 0:
            c = card_of(top & -top)
            top &= top - 1
            pts += T[POINTS, c]
    return pts


@njit(cache=True, inline="always")
def sure_trumps(T, h0, h1, h2, side):
    """Card points the seats in ``side`` (a mask of seats) take for sure
    with trumps: each of their trumps above which every trump still in play
    is theirs wins whatever trick it falls in."""
    trumps = T[RUFF, TRUMPS]
    live = (h0 | h1 | h2) & trumps
    mine = live
    if not side & 1:
        mine &= ~h0
    if not side & 2:
        mine &= ~h1
    if not side & 4:
        mine &= ~h2
    others = live & ~mine
    if others != 0:  # theirs above the strongest of the others
        mine &= _above(others)
    pts = 0
    while mine != 0:
        c = card_of(mine & -mine)
        mine &= mine - 1
        pts += T[POINTS, c]
    return pts


@njit(cache=True, inline="always")
def _taken(T, W, nleft, leader, declarer, invert, tricks_goal, c0, c1, c2):
    """The trick ``c0``, ``c1``, ``c2`` led by ``leader`` (``nleft`` cards left
    after it): who wins it, and what the declarer's side takes in it (its card points, or 1 trick)."""
    i, extra = judged(T, W, nleft, c0, c1, c2, leader)
    w = MOD3[leader + i]
    if (w == declarer) == (invert == 1):
        return w, -extra
    return w, (1 if tricks_goal == 1 else T[POINTS, c0] + T[POINTS, c1] + T[POINTS, c2]) + extra


@njit(cache=True, inline="always")
def last_trick(T, W, h0, h1, h2, leader, declarer, invert, tricks_goal):
    """What the declarer's side takes in the last trick: one card each, no choice left."""
    c0 = card_of(_seat(h0, h1, h2, leader))
    c1, c2 = card_of(_seat(h0, h1, h2, MOD3[leader + 1])), card_of(_seat(h0, h1, h2, MOD3[leader + 2]))
    return _taken(T, W, 0, leader, declarer, invert, tricks_goal, c0, c1, c2)[1]


@njit(cache=True, inline="always")
def _fold(maximise, best, a, b, v):
    """A reply worth ``v`` folded into a node's best value and its window (``a``, ``b``)."""
    if maximise:
        return max(best, v), max(a, v), b
    return min(best, v), a, min(b, v)


@njit(cache=True, inline="always")
def two_tricks(T, W, hand0, hand1, hand2, leader, declarer, invert, tricks_goal, alpha, beta):
    """What the declarer's side takes in the last two tricks under best play,
    searched in the window (``alpha``, ``beta``) and fail-soft like the
    search: an alpha-beta over the at most 2 x 2 x 2 ways to play the first
    of them (the last trick then plays itself) - cheaper than the table's lookups.

    ``alpha < beta``; the loops test the window rather than break out of
    it (a break made numba count a reference to ``T`` on every call)."""
    s1, s2 = MOD3[leader + 1], MOD3[leader + 2]
    h0, h1, h2 = _seat(hand0, hand1, hand2, leader), _seat(hand0, hand1, hand2, s1), _seat(hand0, hand1, hand2, s2)
    max0, max1, max2 = leader == declarer, s1 == declarer, s2 == declarer
    best0 = -1 if max0 else 1 << 20
    a0, b0 = alpha, beta
    m0 = h0
    while m0 != 0 and a0 < b0:
        b0bit = m0 & -m0
        m0 ^= b0bit
        c0 = card_of(b0bit)
        l1, l2 = _follows(T, h1, c0), _follows(T, h2, c0)
        best1 = -1 if max1 else 1 << 20
        a1, b1 = a0, b0
        m1 = l1
        while m1 != 0 and a1 < b1:
            b1bit = m1 & -m1
            m1 ^= b1bit
            c1 = card_of(b1bit)
            best2 = -1 if max2 else 1 << 20
            a2, b2 = a1, b1
            m2 = l2
            while m2 != 0 and a2 < b2:
                b2bit = m2 & -m2
                m2 ^= b2bit
                c2 = card_of(b2bit)
                w, v = _taken(T, W, 3, leader, declarer, invert, tricks_goal, c0, c1, c2)
                # the last trick: the one card each has left, the winner leads
                d0, d1, d2 = card_of(h0 ^ b0bit), card_of(h1 ^ b1bit), card_of(h2 ^ b2bit)
                if w == s1:
                    d0, d1, d2 = d1, d2, d0
                elif w == s2:
                    d0, d1, d2 = d2, d0, d1
                v += _taken(T, W, 0, w, declarer, invert, tricks_goal, d0, d1, d2)[1]
                best2, a2, b2 = _fold(max2, best2, a2, b2, v)
            best1, a1, b1 = _fold(max1, best1, a1, b1, best2)
        best0, a0, b0 = _fold(max0, best0, a0, b0, best1)
    return best0


@njit(cache=True)
def three_tricks(T, W, hand0, hand1, hand2, leader, declarer, invert, tricks_goal, alpha, beta):
    """What the declarer's side takes in the last three tricks, searched in
    the window (``alpha``, ``beta``) and fail-soft like the search: an
    alpha-beta over the first trick's plays (at most 3 x 3 x 3), each
    ending solved by :func:`two_tricks` - no nodes, no lookups below
    (``alpha < beta``, as there)."""
    s1, s2 = MOD3[leader + 1], MOD3[leader + 2]
    h0, h1, h2 = _seat(hand0, hand1, hand2, leader), _seat(hand0, hand1, hand2, s1), _seat(hand0, hand1, hand2, s2)
    max0, max1, max2 = leader == declarer, s1 == declarer, s2 == declarer
    live = h0 | h1 | h2
    same = EQUAL if tricks_goal == 1 else SAME
    best0 = -1 if max0 else 1 << 20
    a0, b0 = alpha, beta
    m0 = h0
    while m0 != 0 and a0 < b0:
        x0 = m0 & -m0
        m0 ^= x0
        c0 = card_of(x0)
        if _equivalent_above(T, live, h0, c0, same):
            continue  # equivalent to the next stronger card still in play
        l1, l2 = _follows(T, h1, c0), _follows(T, h2, c0)
        best1 = -1 if max1 else 1 << 20
        a1, b1 = a0, b0
        m1 = l1
        while m1 != 0 and a1 < b1:
            x1 = m1 & -m1
            m1 ^= x1
            c1 = card_of(x1)
            if _equivalent_above(T, live, h1, c1, same):
                continue
            best2 = -1 if max2 else 1 << 20
            a2, b2 = a1, b1
            m2 = l2
            while m2 != 0 and a2 < b2:
                x2 = m2 & -m2
                m2 ^= x2
                c2 = card_of(x2)
                if _equivalent_above(T, live, h2, c2, same):
                    continue
                w, v = _taken(T, W, 6, leader, declarer, invert, tricks_goal, c0, c1, c2)
                # the hands left by seat: the leader's, the next seat's and the one after's, turned back
                r0, r1, r2 = h0 ^ x0, h1 ^ x1, h2 ^ x2
                if leader == 1:
                    r0, r1, r2 = r2, r0, r1
                elif leader == 2:
                    r0, r1, r2 = r1, r2, r0
                v += two_tricks(T, W, r0, r1, r2, w, declarer, invert, tricks_goal, a2 - v, b2 - v)
                best2, a2, b2 = _fold(max2, best2, a2, b2, v)
            best1, a1, b1 = _fold(max1, best1, a1, b1, best2)
        best0, a0, b0 = _fold(max0, best0, a0, b0, best1)
    return best0
