"""The compiled inner loop of :mod:`skatcore.engine.compiled`: complete random
deals, one after the other, on plain integer arrays.

Everything rule-shaped arrives as tables (:class:`~skatcore.engine.compiled.EngineTables`);
the loop only knows the flow of a deal with bidding (as :class:`~skatcore.engine.deal.Deal`
runs it) and picks every action uniformly among the legal ones.  Randomness is
xoshiro128** on 32-bit words kept in int64 (no product exceeds 2**38), so the
loop gives the same deals compiled and under ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from skatcore import numba_cache  # noqa: F401 (the cache of the functions below stamped with their imports)

M32 = 0xFFFFFFFF
HOLD, PASS = -1, -2          # bidding calls besides ladder values (as BatchDeal.calls)
VALUED, NULL, NO_DECLARER = 0, 1, 2  # contract kinds: base x multiplier, fixed value, no declarer
# trailing-zero count of a 32-bit power of two (de Bruijn)
_DEBRUIJN = np.array([0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
                      31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9], dtype=np.int64)


@njit(cache=True)
def _rotl(x, k):
    return ((x << k) | (x >> (32 - k))) & M32


@njit(cache=True)
def _next(s):
    """The next 32-bit output of xoshiro128** with state ``s`` (4 words)."""
    result = (_rotl((s[1] * 5) & M32, 7) * 9) & M32
    t = (s[1] << 9) & M32
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 11)
    return result


@njit(cache=True)
def _below(s, n):
    """A uniform integer in ``0 .. n-1`` (n < 2**31)."""
    return (_next(s) * n) >> 32


@njit(cache=True)
def _seed(s, seed, index):
    """The state of deal ``index`` of run ``seed``: both words mixed in, never all zero."""
    s[0] = (seed & M32) ^ 0x9E3779B9
    s[1] = ((seed >> 32) & M32) ^ 0x243F6A88
    s[2] = (index & M32) ^ 0xB7E15162
    s[3] = ((index >> 32) & M32) ^ 0x85A308D3
    for _ in range(12):
        _next(s)


@njit(cache=True)
def popcount(x):
    """The number of set bits of ``x`` (32 bits)."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & M32) >> 24


@njit(cache=True)
def lowest(x):
    """The index of the lowest set bit of ``x`` (x > 0, 32 bits)."""
    return _DEBRUIJN[(((x & -x) * 0x077CB531) & M32) >> 27]


@njit(cache=True)
def nth(x, k):
    """The card of the k-th lowest set bit of ``x``."""
    for _ in range(k):
        x &= x - 1
    return lowest(x)


@njit(cache=True)
def trick_winner(c, leader, trick, follow, strength, points):
    """The seat that takes a three-card trick led by ``leader`` under
    contract ``c``, and the trick's card points."""
    led = follow[c, trick[0]]
    s0, s1, s2 = strength[c, led, trick[0]], strength[c, led, trick[1]], strength[c, led, trick[2]]
    w = (leader + (0 if s0 > s1 and s0 > s2 else 1 if s1 > s2 else 2)) % 3
    return w, points[c, trick[0]] + points[c, trick[1]] + points[c, trick[2]]


@njit(cache=True)
def taker(c, t, leader, decl, trick, follow, strength, points, wins, win_row, win_number, win_leader, win_decl):
    """:func:`trick_winner` of trick ``t`` (0-based) where a plugin decides
    trick winners: its table (:mod:`skatcore.engine.trick_table`; none, of
    no rows, leaves it to the card order)."""
    if wins.shape[0] == 0:
        return trick_winner(c, leader, trick, follow, strength, points)
    r = win_row[c, win_number[t] + win_leader[leader] + win_decl[decl + 1]]
    w = (leader + wins[r, (trick[0] << 10) | (trick[1] << 5) | trick[2]]) % 3
    return w, points[c, trick[0]] + points[c, trick[1]] + points[c, trick[2]]


@njit(cache=True)
def part_over(part, survivor, bid_idx):
    """After a pass ends part ``part`` of the bidding (1: middlehand asks
    forehand, 2: rearhand asks the survivor) with ``survivor`` left: the next
    (part, asker, answerer), and the declarer, -1 while nobody has won the bidding."""
    if part == 1:
        return 2, 2, survivor, -1
    if bid_idx >= 0:
        return part, 0, 0, survivor
    return 3, 0, 0, -1  # nobody bid: forehand alone


@njit(cache=True)
def take_trick(w, p, pts0, pts1, pts2, won0, won1, won2):
    """The seats' card points and trick counts after seat ``w`` takes a
    trick of ``p`` points (scalars, not an array: the deal loops stay in registers)."""
    if w == 0:
        return pts0 + p, pts1, pts2, won0 + 1, won1, won2
    if w == 1:
        return pts0, pts1 + p, pts2, won0, won1 + 1, won2
    return pts0, pts1, pts2 + p, won0, won1, won2 + 1


@njit(cache=True)
def play_deals(seed, start, n,
               packets, ladder, skip_bidding, all_pass,
               kind, follow, class_mask, strength, points, trumps, n_trumps,
               wins, win_row, win_number, win_leader, win_decl, cp_trick, cp_end, cp_row,
               route_start, route_end, opt_contract, opt_null_value, opt_base, opt_factor,
               table_value, table_mult, table_won, point_class, mat_offset,
               deck, calls, discard, plays,
               contract, option, declarer, bid, won, overbid, value, score, multiplier, matadors,
               declarer_points, declarer_tricks, trick_points, tricks_won, skat_mask, last_winner):
    """Play deals ``start .. start+n-1`` of run ``seed`` into the output arrays
    (row ``i`` is deal ``start+i``).  ``calls`` has 0 rows unless the calls are kept."""
    s = np.zeros(4, np.int64)
    perm = np.zeros(32, np.int64)
    hands = np.zeros(3, np.int64)
    trick = np.zeros(3, np.int64)
    n_ladder = len(ladder)
    keep_calls = calls.shape[0] > 0
    for i in range(n):
        _seed(s, seed, start + i)
        # -- deal: a uniform shuffle, packets 3-skat-4-3 -----------------------------
        for j in range(32):
            perm[j] = j
        for j in range(31, 0, -1):
            k = _below(s, j + 1)
            perm[j], perm[k] = perm[k], perm[j]
        for j in range(32):
            deck[i, j] = perm[j]
        for seat in range(3):
            h = 0
            for j in range(10):
                h |= 1 << perm[packets[seat, j]]
            hands[seat] = h
        skat = (1 << perm[9]) | (1 << perm[10])
        # -- bidding (docs/rules/official.md#a4, as Deal._bid) ------------------------------------------
        bid_idx, decl, ncalls = -1, -1, 0
        if not skip_bidding:
            part, asker, answerer, awaiting = 1, 1, 0, False
            while True:
                call, survivor = 0, -1
                if part == 3:  # forehand alone: the minimum bid, or pass
                    if _below(s, 2) == 0:
                        bid_idx, decl, call = 0, 0, ladder[0]
                    else:
                        call = PASS
                elif awaiting:
                    if _below(s, 2) == 0:
                        call, awaiting = HOLD, False
                    else:
                        call, survivor = PASS, asker
                else:
                    options = n_ladder - (bid_idx + 1)
                    k = _below(s, options + 1)
                    if k == options:
                        call, survivor = PASS, answerer
                    else:
                        bid_idx += 1 + k
                        call, awaiting = ladder[bid_idx], True
                if keep_calls:
                    calls[i, ncalls] = call
                ncalls += 1
                if part == 3:
                    break
                if survivor >= 0:  # a part ends with a pass
                    awaiting = False
                    part, asker, answerer, decl = part_over(part, survivor, bid_idx)
                    if decl >= 0:
                        break
        b = ladder[bid_idx] if bid_idx >= 0 else 0
        # -- skat and declaration -------------------------------------------------------
        c, o = -1, -1
        discard[i, 0] = discard[i, 1] = -1
        if decl >= 0:
            route = 0 if _below(s, 2) == 0 else 1  # 0 pick up, 1 hand
            if route == 0:
                held = hands[decl] | skat
                a = _below(s, 12)
                k = _below(s, 11)
                if k >= a:
                    k += 1
                d0, d1 = nth(held, min(a, k)), nth(held, max(a, k))
                discard[i, 0], discard[i, 1] = d0, d1
                skat = (1 << d0) | (1 << d1)
                hands[decl] = held & ~skat
            valid = 0
            for q in range(route_start[route], route_end[route]):
                if opt_null_value[q] == 0 or opt_null_value[q] >= b:
                    valid += 1
            k = _below(s, valid)
            for q in range(route_start[route], route_end[route]):
                if opt_null_value[q] == 0 or opt_null_value[q] >= b:
                    if k == 0:
                        o = q
                        break
                    k -= 1
            c = opt_contract[o]
        elif all_pass >= 0:
            c = all_pass
        contract[i], option[i], declarer[i], bid[i] = c, o, decl, b
        for j in range(30):
            plays[i, j] = -1
        if c < 0:  # thrown in
            continue
        # -- tricks -----------------------------------------------------------------------
        held = hands[decl] | skat if decl >= 0 else 0  # the declarer's cards with the skat, for matadors
        leader, n_played, pts0, pts1, pts2, won0, won1, won2 = 0, 0, 0, 0, 0, 0, 0, 0
        last, gain = -1, 0
        for t in range(10):
            for j in range(3):
                seat = (leader + j) % 3
                hand = hands[seat]
                legal = hand
                if j > 0:
                    follows = hand & class_mask[c, follow[c, trick[0]]]
                    if follows:
                        legal = follows
                card = nth(legal, _below(s, popcount(legal)))
                hands[seat] = hand & ~(1 << card)
                trick[j] = card
                plays[i, n_played] = card
                n_played += 1
            w, p = taker(c, t, leader, decl, trick, follow, strength, points, wins, win_row, win_number, win_leader, win_decl)
            pts0, pts1, pts2, won0, won1, won2 = take_trick(w, p, pts0, pts1, pts2, won0, won1, won2)
            gain += trick_gain(c, decl, w, trick, cp_trick, cp_row)
            leader = last = w
            if kind[c] == NULL and w == decl:  # a null declarer's first trick ends the deal
                break
        score_deal(i, c, o, decl, b, held, skat, last, pts0, pts1, pts2, won0, won1, won2, gain,
                   kind, points, trumps, n_trumps, opt_null_value, opt_base, opt_factor, cp_end, cp_row,
                   table_value, table_mult, table_won, point_class, mat_offset,
                   won, overbid, value, score, multiplier, matadors,
                   declarer_points, declarer_tricks, trick_points, tricks_won, skat_mask, last_winner)


@njit(cache=True)
def trick_gain(c, decl, w, trick, cp_trick, cp_row):
    """What the house rules' card points of ``trick``, taken by seat ``w``,
    change of the declarer's under contract ``c``: the points
    :mod:`skatcore.engine.card_table` gives its taker, for the declarer or
    against him where a defender took it; 0 without such a table."""
    r = cp_row[c, 0]
    if r < 0:
        return 0
    n = cp_trick[r, (trick[0] << 10) | (trick[1] << 5) | trick[2]]
    return n if w == decl else -n


@njit(cache=True)
def end_gain(c, decl, dt, last, skat, cp_end, cp_row):
    """What the house rules' card points at the end of a suit or grand game
    change of the declarer's, by the last trick's taker ``last``, the
    declarer's tricks ``dt`` and the ``skat`` (a mask of its two cards); 0
    without such a table."""
    r = cp_row[c, 1]
    if r < 0:
        return 0
    lo = lowest(skat)
    hi = lowest(skat & (skat - 1))
    return cp_end[r, ((decl * 3 + last) * 11 + dt) * 1024 + (lo << 5 | hi)]


@njit(cache=True)
def score_deal(i, c, o, decl, b, held, skat, last, pts0, pts1, pts2, won0, won1, won2, gain,
               kind, points, trumps, n_trumps, opt_null_value, opt_base, opt_factor, cp_end, cp_row,
               table_value, table_mult, table_won, point_class, mat_offset,
               won, overbid, value, score, multiplier, matadors,
               declarer_points, declarer_tricks, trick_points, tricks_won, skat_mask, last_winner):
    """Row ``i`` of the outputs from a played deal: contract ``c``, option
    ``o``, declarer ``decl`` (-1: none) at bid ``b``, ``held`` the declarer's
    cards with the skat (matadors), ``skat`` what lies in the skat at the end,
    ``gain`` the sum of :func:`trick_gain` over the tricks.  The declarer's
    card points are with the house rules' (``gain`` and :func:`end_gain`);
    the lines' class of points beyond 0..120 is that of 0 or 120
    (:mod:`skatcore.engine.card_table` tabulates only lines within)."""
    trick_points[i, 0], trick_points[i, 1], trick_points[i, 2] = pts0, pts1, pts2
    tricks_won[i, 0], tricks_won[i, 1], tricks_won[i, 2] = won0, won1, won2
    skat_mask[i], last_winner[i] = skat, last
    if decl < 0:
        return
    # -- score (as scoring.score_game; the multiplier from the ruleset's items) -----
    dp = trick_points[i, decl]
    x = skat
    while x:
        dp += points[c, lowest(x)]
        x &= x - 1
    dt = tricks_won[i, decl]
    ft = won0 + won1 + won2 - dt
    if kind[c] == VALUED:
        dp += gain + end_gain(c, decl, dt, last, skat, cp_end, cp_row)
    declarer_points[i], declarer_tricks[i] = dp, dt
    m = 0
    if n_trumps[c]:
        top = (held >> trumps[c, 0]) & 1
        while m < n_trumps[c] and ((held >> trumps[c, m]) & 1) == top:
            m += 1
        if not top:
            m = -m
    matadors[i] = m
    if kind[c] == NULL:
        v = opt_null_value[o]
        ok = dt == 0
        lost_value = v
        multiplier[i] = -1
    else:
        sc = 1 if dt == 0 else 2 if ft == 0 else 0
        cell = (o, m + mat_offset, point_class[min(max(dp, 0), 120)], sc)
        v = table_value[cell]
        multiplier[i] = table_mult[cell]
        ok = table_won[cell] and v >= b
        overbid[i] = v < b
        base = opt_base[o]
        lost_value = -(-b // base) * base if v < b else v
    value[i] = v
    won[i] = 1 if ok else 0
    score[i] = v if ok else -opt_factor[o] * lost_value
