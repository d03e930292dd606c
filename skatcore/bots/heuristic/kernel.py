"""Complete deals of three heuristic players, compiled with numba.

The heuristic's hand evaluation (:mod:`.evaluation`), bidding, skat
decision, discard and declaration (:mod:`.bidding`, :mod:`.discard`) and card
play (:mod:`.kernel_play`) on the arrays :mod:`.compiled` builds once per
ruleset from the Python player's own tables and coefficients (so a refit of
``HeuristicPlayer.COEF`` reaches this loop with the next build).  Floating
point sums run in the Python player's order, so both take the same decisions;
``tests/bots/test_heuristic_compiled.py`` checks that deal by deal.

The deals come in as hands (``skatcore.sim.play.seeded_deal``), the outputs
and the scoring are those of :func:`skatcore.engine.kernel.play_deals`.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from skatcore import numba_cache  # noqa: F401 (the cache of the functions below stamped with their imports)
from skatcore.bots.heuristic.kernel_play import JACKS, play_declarer, play_defender, play_fewest_points, play_null
from skatcore.engine.kernel import (
    HOLD,
    NULL,
    PASS,
    lowest,
    nth,
    part_over,
    popcount,
    score_deal,
    take_trick,
    taker,
    trick_gain,
)

SUIT, GRAND, NULLF = 0, 1, 2        # heuristic families (3: none it judges)
PRE, POST, HAND = 0, 1, 2          # when a win probability is estimated


@njit(cache=True)
def null_risk(hand, null_t):
    return null_t[hand & 0xFF] + null_t[hand >> 8 & 0xFF] + null_t[hand >> 16 & 0xFF] + null_t[hand >> 24 & 0xFF]


@njit(cache=True)
def strength(hand, std, fore, side_t, grand_t, trumpx_t, jacks_t, grand_fore):
    """Evaluation._strength of a standard layout: suit ``std`` 0..3 or grand (4); ``fore``: in forehand."""
    cj, sj, hj = hand >> 3 & 1, hand >> 11 & 1, hand >> 19 & 1
    if std == 4:
        return (jacks_t[cj | sj << 1 | hj << 2 | (hand >> 27 & 1) << 3] + grand_t[hand & 0xF7]
                + grand_t[hand >> 8 & 0xF7] + grand_t[hand >> 16 & 0xF7] + grand_t[hand >> 24 & 0xF7]
                + (grand_fore if fore else 0.0))
    nj = popcount(hand & JACKS)
    bs = hand >> (8 * std) & 0xF7
    t = nj + popcount(bs)
    v = nj + cj * 1.0 + sj * 0.6 + hj * 0.3 + trumpx_t[bs] - 7.8
    void = 0.5 if t >= 5 else 0.2
    for k in range(4):
        if k != std:
            b = hand >> (8 * k) & 0xF7
            v += side_t[b] if b else void
    return v


@njit(cache=True)
def _x(hand, c, ouvert, fore, H):
    """Evaluation._x: the strength (null: minus the risk) of ``hand`` for contract ``c``."""
    if H[0][c] == NULLF:
        r = null_risk(hand, H[5])
        return -2.0 * r if ouvert else -r
    return strength(hand, H[1][c], fore, H[2], H[3], H[4], H[18], H[19])


@njit(cache=True)
def _p(a, x, b):
    return 1.0 / (1.0 + math.exp(-(a * x + b)))


@njit(cache=True)
def _matadors(cards, c, trumps, n_trumps):
    m = 0
    if n_trumps[c]:
        top = (cards >> trumps[c, 0]) & 1
        while m < n_trumps[c] and ((cards >> trumps[c, m]) & 1) == top:
            m += 1
        if not top:
            m = -m
    return m


@njit(cache=True)
def _expected(p, value, lost, bid, base, bonus):
    if value < bid:  # overbid: lost at the bid rounded up to the base
        lv = -(-bid // base) * base if base else bid
        return float(-lost * lv - bonus)
    return p * (value + bonus) - (1 - p) * (lost * value + bonus)


@njit(cache=True)
def _cand(q, hand, mcards, when, fore, H):
    """(p, value) of candidate row ``q`` (Evaluation._candidates)."""
    hfam, coef, trumps, n_trumps, mat_offset, cand_c, cand_ouvert, cand_value = (
        H[0], H[7], H[9], H[10], H[11], H[12], H[13], H[16])
    c = cand_c[q]
    f = hfam[c]
    x = _x(hand, c, cand_ouvert[q], fore, H)
    m = 0 if f == NULLF else _matadors(mcards, c, trumps, n_trumps)
    return _p(coef[f, when, 0], x, coef[f, when, 1]), cand_value[q, m + mat_offset]


@njit(cache=True)
def limit(hand, fore, H):
    """Evaluation._limit: the highest bid ``hand`` holds (``fore``: in forehand)."""
    hfam, coef, bonus, cand_c, cand_ouvert, cand_lost, cand_end = H[0], H[7], H[8], H[12], H[13], H[14], H[17]
    n = cand_end[1]
    may = False  # Evaluation._may_bid
    for q in range(n):
        when = PRE if q < cand_end[0] else HAND
        c = cand_c[q]
        f = hfam[c]
        if cand_lost[q] < 1 or coef[f, when, 0] * _x(hand, c, cand_ouvert[q], fore, H) + coef[f, when, 1] >= 0.0:
            may = True
            break
    best = 0
    if may:
        for q in range(n):
            p, v = _cand(q, hand, hand, PRE if q < cand_end[0] else HAND, fore, H)
            lost = cand_lost[q]
            if v > best and p >= (lost * v + bonus) / ((1 + lost) * v + 2 * bonus):
                best = v
    return best


@njit(cache=True)
def _best(hand, bid, lo, hi, when, fore, H):
    """Bidding._best over candidate rows ``lo..hi-1``: (found, expected)."""
    cand_c, cand_lost, cand_base, bonus, hfam = H[12], H[14], H[15], H[8], H[0]
    found, key = False, 0.0
    for q in range(lo, hi):
        p, v = _cand(q, hand, hand, when, fore, H)
        if hfam[cand_c[q]] == NULLF and v < bid:
            continue
        e = _expected(p, v, cand_lost[q], bid, cand_base[q], bonus)
        if not found or e > key:
            found, key = True, e
    return found, key


@njit(cache=True)
def plays_hand(hand, bid, fore, H):
    """Bidding._skat: True to play hand (ties go to hand, offered first)."""
    cand_end = H[17]
    fh, eh = _best(hand, bid, cand_end[0], cand_end[1], HAND, fore, H)
    fp, ep = _best(hand, bid, 0, cand_end[0], PRE, fore, H)
    return fh and (not fp or eh >= ep)


@njit(cache=True)
def _top_pair(held, c, H, points, power, follow, class_mask):
    """Discarding._top_pair on Discarding._trump_discard_scores (suit/grand)."""
    hfam, len_bonus = H[0], H[6]
    score = np.full(32, -100.0)
    for k in range(4):
        sm = held & class_mask[c, k]
        n = popcount(sm)
        if not n:
            continue
        has_a = sm >> (8 * k) & 1
        bonus = len_bonus[n] - (2.0 if has_a and n >= 4 else 0.0)  # a long suit with the ace: keep it whole
        x = sm
        while x:
            card = lowest(x)
            x &= x - 1
            r = card % 8
            if r == 0:
                s = -8.0 + (2.0 if n == 1 and hfam[c] == SUIT else 0.0)
            elif r == 4:
                s = -3.0 if has_a else (6.0 if n <= 2 else 3.0)
            else:
                s = 2.0 + points[c, card] * 0.1
            score[card] = s + bonus
    x = held & class_mask[c, 4]
    while x:  # trumps go only if nothing else can
        card = lowest(x)
        x &= x - 1
        score[card] = -50.0 - power[c, card]
    a = b = -1
    x = held
    while x:
        card = lowest(x)
        x &= x - 1
        if a < 0 or score[card] > score[a]:
            a, b = card, a
        elif b < 0 or score[card] > score[b]:
            b = card
    return (1 << a) | (1 << b)


@njit(cache=True)
def _null_pair(held, null_t):
    """Discarding._null_discard: the two of the suits' two highest cards whose removal leaves the safest null hand."""
    top = np.zeros(8, np.int64)
    nt = 0
    for suit in range(4):
        x = held & (0xFF << (8 * suit))
        for _ in range(2):
            if x:
                top[nt] = lowest(x)
                nt += 1
                x &= x - 1
    best, key = 0, 0.0
    for i in range(nt):
        for j in range(i + 1, nt):
            pair = (1 << top[i]) | (1 << top[j])
            r = null_risk(held & ~pair, null_t)
            if best == 0 or r < key:
                best, key = pair, r
    return best


@njit(cache=True)
def discard(held, bid, fore, H, points, power, follow, class_mask):
    """Discarding._discard: (the two cards as a mask, the contract they were chosen for)."""
    (hfam, _hstd, _side_t, _grand_t, _trumpx_t, null_t, _len_bonus, coef, bonus, trumps, n_trumps, mat_offset,
     cand_c, cand_ouvert, cand_lost, cand_base, cand_value, cand_end, _jacks_t, _grand_fore, _goal) = H
    s1, s2, n1, n2 = -1, -1, 0, 0  # the two suit games with the most trumps (a stable sort)
    for q in range(cand_end[0]):
        c = cand_c[q]
        if hfam[c] == SUIT:
            t = popcount(held & class_mask[c, 4])
            if s1 < 0 or t > n1:
                s2, n2, s1, n1 = s1, n1, q, t
            elif s2 < 0 or t > n2:
                s2, n2 = q, t
    found, key, best, plan = False, 0.0, 0, -1
    null_pair = 0
    for q in range(cand_end[0]):
        c = cand_c[q]
        f = hfam[c]
        null = f == NULLF
        if (null and cand_value[q, mat_offset] < bid) or (f == SUIT and q != s1 and q != s2):
            continue
        if null:
            if not null_pair:
                null_pair = _null_pair(held, null_t)
            pair = null_pair
        else:
            pair = _top_pair(held, c, H, points, power, follow, class_mask)
        rest = held & ~pair
        v = cand_value[q, (0 if null else _matadors(held, c, trumps, n_trumps)) + mat_offset]
        p = _p(coef[f, POST, 0], _x(rest, c, cand_ouvert[q], fore, H), coef[f, POST, 1])
        e = _expected(p, v, cand_lost[q], bid, cand_base[q], bonus)
        if not found or e > key:
            found, key, best, plan = True, e, pair, c
    if not found:  # the first legal discard: the two lowest cards
        best = (1 << nth(held, 0)) | (1 << nth(held, 1))
    return best, plan


@njit(cache=True)
def declare(hand, known, bid, lo, hi, plan, fore, H, D, opt_contract, opt_null_value):
    """Bidding._declare among the options ``lo..hi-1`` of the route:
    ``known`` the declarer's cards for matadors, ``plan`` the contract the discard was for."""
    hfam, coef, bonus, trumps, n_trumps, mat_offset = H[0], H[7], H[8], H[9], H[10], H[11]
    consider, fallback, hvalue, hlost, hbase, ohand, ouvert = D
    first, best, key, found = -1, -1, 0.0, False
    for o in range(lo, hi):
        if opt_null_value[o] != 0 and opt_null_value[o] < bid:
            continue
        if first < 0:
            first = best = o
        if not consider[o]:
            continue  # no announcements in suit and grand, no game without declarer
        c = opt_contract[o]
        f = hfam[c]
        v = hvalue[o, _matadors(known, c, trumps, n_trumps) + mat_offset]
        when = HAND if ohand[o] else POST
        p = _p(coef[f, when, 0], _x(hand, c, ouvert[o], fore, H), coef[f, when, 1])
        if c == plan:
            p = min(1.0, p + 0.05)
        e = _expected(p, v, hlost[o], bid, hbase[o], bonus)
        if not found or e > key:
            found, key, best = True, e, o
    if not found or key < 0:
        # reach the bid if the best plain game cannot: an announcement may
        for o in range(lo, hi):
            if not fallback[o] or (opt_null_value[o] != 0 and opt_null_value[o] < bid):
                continue
            c = opt_contract[o]
            f = hfam[c]
            v = hvalue[o, _matadors(known, c, trumps, n_trumps) + mat_offset]
            when = HAND if ohand[o] else POST
            if v >= bid and _p(coef[f, when, 0], _x(hand, c, ouvert[o], fore, H), coef[f, when, 1]) > 0.9:
                return o
    return best


@njit(cache=True)
def last_to_trick(c, me, decl, leader, legal, trick, wins, r, strength, follow, points, power, goal):
    """CardPlay._last_to_trick: the last card to a trick whose winner a
    plugin decides (row ``r`` of its table ``wins``), the card that serves the seat's
    goal best, or -1 where the plugin agrees with the card order for every
    legal card.  ``goal``: 0 card points, 1 no trick, 2 fewest points."""
    led = follow[c, trick[0]]
    s0, s1 = strength[c, led, trick[0]], strength[c, led, trick[1]]
    pts = points[c, trick[0]] + points[c, trick[1]]
    base = (trick[0] << 10) | (trick[1] << 5)
    differs = False
    best, b_good, b_taken, b_power = -1, 0, 0, 0
    rest = legal
    while rest:
        card = lowest(rest)
        rest &= rest - 1
        i = wins[r, base | card]
        s2 = strength[c, led, card]
        differs = differs or i != (0 if s0 > s1 and s0 > s2 else 1 if s1 > s2 else 2)
        w = (leader + i) % 3
        if goal == 1:
            good = (w == decl) != (me == decl)  # the declarer ducks, the defenders make him take it
        elif goal == 2 or decl < 0:
            good = w != me
        else:
            good = (w == decl) == (me == decl)
        taken = pts + points[c, card] if goal == 0 else 0
        taken = taken if good else -taken
        g = 1 if good else 0  # the best: good, then most taken (least given), then the lowest power; the first of equals
        if best < 0 or g > b_good or (g == b_good and (taken > b_taken or (taken == b_taken and power[c, card] < b_power))):
            best, b_good, b_taken, b_power = card, g, taken, power[c, card]
    return best if differs else -1


@njit(cache=True)
def play_deals(hands_in, skat_in, H, D, power, higher, lower,
               packets, ladder, skip_bidding, all_pass,
               kind, follow, class_mask, strength_t, points, trumps, n_trumps,
               wins, win_row, win_number, win_leader, win_decl, cp_trick, cp_end, cp_row,
               route_start, route_end, opt_contract, opt_null_value, opt_base, opt_factor,
               table_value, table_mult, table_won, point_class, mat_offset,
               deck, calls, discards, plays,
               contract, option, declarer, bid, won, overbid, value, score, multiplier, matadors,
               declarer_points, declarer_tricks, trick_points, tricks_won, skat_mask, last_winner):
    """Play the deals ``hands_in`` (n x 3 masks) / ``skat_in`` with three
    heuristic players into the outputs of :func:`skatcore.engine.kernel.play_deals`."""
    hands = np.zeros(3, np.int64)
    limits = np.zeros(3, np.int64)
    trick = np.zeros(3, np.int64)
    followed = np.zeros(5, np.int64)
    n_ladder = len(ladder)
    keep_calls = calls.shape[0] > 0
    for i in range(len(skat_in)):
        for seat in range(3):
            hands[seat] = hands_in[i, seat]
        skat = skat_in[i]
        # -- bidding (as kernel.play_deals; each call by the hand's limit) ----------------------
        bid_idx, decl, ncalls = -1, -1, 0
        if not skip_bidding:
            for seat in range(3):
                limits[seat] = limit(hands[seat], seat == 0, H)
            part, asker, answerer, awaiting = 1, 1, 0, False
            while True:
                call, survivor = 0, -1
                if part == 3:  # forehand alone: the minimum bid, or pass
                    if ladder[0] <= limits[0]:
                        bid_idx, decl, call = 0, 0, ladder[0]
                    else:
                        call = PASS
                elif awaiting:
                    if ladder[bid_idx] <= limits[answerer]:
                        call, awaiting = HOLD, False
                    else:
                        call, survivor = PASS, asker
                elif bid_idx + 1 < n_ladder and ladder[bid_idx + 1] <= limits[asker]:
                    bid_idx += 1
                    call, awaiting = ladder[bid_idx], True
                else:
                    call, survivor = PASS, answerer
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
        # -- skat, discard and declaration ------------------------------------------------
        c, o, put = -1, -1, 0
        discards[i, 0] = discards[i, 1] = -1
        if decl >= 0:
            plan = -1
            hand = hands[decl]
            route = 1 if plays_hand(hand, b, decl == 0, H) else 0
            known = hand
            if route == 0:
                known = hand | skat
                put, plan = discard(known, b, decl == 0, H, points, power, follow, class_mask)
                discards[i, 0], discards[i, 1] = nth(put, 0), nth(put, 1)
                skat = put
                hand = hands[decl] = known & ~put
            o = declare(hand, known, b, route_start[route], route_end[route], plan, decl == 0, H, D, opt_contract,
                        opt_null_value)
            c = opt_contract[o]
        elif all_pass >= 0:
            c = all_pass
        contract[i], option[i], declarer[i], bid[i] = c, o, decl, b
        for j in range(30):
            plays[i, j] = -1
        if c < 0:  # thrown in
            continue
        # -- tricks -----------------------------------------------------------------------
        held = hands[decl] | skat if decl >= 0 else 0
        ouvert = o >= 0 and D[6][o]
        for k in range(5):
            followed[k] = -1
        leader, n_played, pts0, pts1, pts2, won0, won1, won2 = 0, 0, 0, 0, 0, 0, 0, 0
        played, last, gain = 0, -1, 0
        for t in range(10):
            for j in range(3):
                seat = (leader + j) % 3
                hand = hands[seat]
                legal = hand
                if j > 0:
                    follows = hand & class_mask[c, follow[c, trick[0]]]
                    if follows:
                        legal = follows
                card = -1
                if legal & (legal - 1) == 0:  # one legal card: nobody is asked
                    card = lowest(legal)
                elif j == 2 and wins.shape[0] > 0:  # a plugin decides who takes the trick
                    card = last_to_trick(c, seat, decl, leader, legal, trick, wins,
                                         win_row[c, win_number[t] + win_leader[leader] + win_decl[decl + 1]],
                                         strength_t, follow, points, power, H[20][c])
                if card < 0:
                    unseen = 0xFFFFFFFF & ~played & ~hand
                    if seat == decl:
                        unseen &= ~put
                    if H[0][c] == NULLF:  # the heuristic's null play (its family, as the Python player asks)
                        card = play_null(c, seat, decl, legal, unseen, trick, j, follow, class_mask, strength_t,
                                         power, higher, lower)
                    elif decl < 0:
                        card = play_fewest_points(c, legal, unseen, trick, j, follow, class_mask, strength_t, points,
                                                  power, higher)
                    elif seat == decl:
                        card = play_declarer(c, legal, unseen, trick, j, follow, class_mask, strength_t, points,
                                             power, higher)
                    else:
                        card = play_defender(c, seat, decl, legal, unseen, hands[decl] if ouvert else unseen, trick, j,
                                             followed, follow, class_mask, strength_t, points, power, higher)
                hands[seat] = hand & ~(1 << card)
                played |= 1 << card
                trick[j] = card
                plays[i, n_played] = card
                n_played += 1
            led = follow[c, trick[0]]
            if decl >= 0 and followed[led] < 0:
                followed[led] = 1 if follow[c, trick[(decl - leader) % 3]] == led else 0
            w, p = taker(c, t, leader, decl, trick, follow, strength_t, points, wins, win_row, win_number, win_leader, win_decl)
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
