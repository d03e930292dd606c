"""The heuristic player's card play (:mod:`.play`) compiled with numba.

The same rules of thumb, decision by decision, on the compiled engine's
arrays (row ``c`` of each table is the contract being played): ``follow``,
``class_mask``, ``strength``, ``points`` as :mod:`skatcore.engine.compiled`
builds them, and the heuristic's own ``power``, ``higher``, ``lower`` (as
:class:`~skatcore.bots.heuristic.tables.GameTables` derives them).  Ties go to the
lowest card, as Python's ``min``/``max`` over ``cards_in`` order do.
``tests/bots/test_heuristic_compiled.py`` demands the very same cards as
:class:`~skatcore.bots.heuristic.HeuristicPlayer` through ``Deal``.
"""

from __future__ import annotations

from numba import njit

from skatcore import numba_cache  # noqa: F401 (the cache of the functions below stamped with their imports)
from skatcore.engine.kernel import lowest, popcount

TRUMP = 4                      # the trump class (skatcore.rules.compiler.TRUMP)
JACKS = (1 << 3) | (1 << 11) | (1 << 19) | (1 << 27)


@njit(cache=True)
def _low(c, mask, points, power, follow):
    """The weakest card of ``mask``: fewest points, then lowest power (trumps above)."""
    best, k1, k2 = -1, 0, 0
    while mask:
        card = lowest(mask)
        mask &= mask - 1
        a, b = points[c, card], power[c, card] + (100 if follow[c, card] == TRUMP else 0)
        if best < 0 or a < k1 or (a == k1 and b < k2):
            best, k1, k2 = card, a, b
    return best


@njit(cache=True)
def _high(c, mask, power, follow):
    best, key = -1, 0
    while mask:
        card = lowest(mask)
        mask &= mask - 1
        k = power[c, card] + (1000 if follow[c, card] == TRUMP else 0)
        if best < 0 or k > key:
            best, key = card, k
    return best


@njit(cache=True)
def _winning(c, trick, n, follow, strength):
    """(index of the winning card, its strength, the led class)."""
    led = follow[c, trick[0]]
    wi = 0
    for i in range(1, n):
        if strength[c, led, trick[i]] > strength[c, led, trick[wi]]:
            wi = i
    return wi, strength[c, led, trick[wi]], led


@njit(cache=True)
def _beating(c, legal, led, ws, strength):
    """The cards of ``legal`` that beat strength ``ws`` of class ``led``."""
    out = 0
    x = legal
    while x:
        card = lowest(x)
        x &= x - 1
        if strength[c, led, card] > ws:
            out |= 1 << card
    return out


@njit(cache=True)
def _masters(c, mask, unseen, higher):
    """The cards of ``mask`` no unseen card beats."""
    out = 0
    x = mask
    while x:
        card = lowest(x)
        x &= x - 1
        if not (higher[c, card] & unseen):
            out |= 1 << card
    return out


@njit(cache=True)
def _most_points(c, mask, points, power):
    """max by (points, -power)."""
    best, k1, k2 = -1, 0, 0
    while mask:
        card = lowest(mask)
        mask &= mask - 1
        a, b = points[c, card], -power[c, card]
        if best < 0 or a > k1 or (a == k1 and b > k2):
            best, k1, k2 = card, a, b
    return best


@njit(cache=True)
def _by_power(c, mask, power, highest):
    """The first card of highest (or lowest) power."""
    best, key = -1, 0
    while mask:
        card = lowest(mask)
        mask &= mask - 1
        k = power[c, card]
        if best < 0 or (k > key if highest else k < key):
            best, key = card, k
    return best


@njit(cache=True)
def _by_strength(c, mask, led, strength, highest):
    best, key = -1, 0
    while mask:
        card = lowest(mask)
        mask &= mask - 1
        k = strength[c, led, card]
        if best < 0 or (k > key if highest else k < key):
            best, key = card, k
    return best


@njit(cache=True)
def play_declarer(c, legal, unseen, trick, n, follow, class_mask, strength, points, power, higher):
    trump = class_mask[c, TRUMP]
    if n == 0:
        mine_t, opp_t = legal & trump, unseen & trump
        if mine_t and opp_t:
            top = _high(c, mine_t, power, follow)
            if not (higher[c, top] & unseen):
                return top
            jacks = mine_t & JACKS
            if jacks and (popcount(mine_t) > popcount(opp_t) or popcount(mine_t) >= 4):
                return _high(c, jacks, power, follow)
            if popcount(mine_t) >= 3:
                return _low(c, mine_t, points, power, follow)
        side = legal & ~trump
        best, bk = -1, -1
        x = side
        while x:  # cash masters of the side suits
            card = lowest(x)
            x &= x - 1
            if not (higher[c, card] & unseen) and points[c, card] + 1 > bk:
                best, bk = card, points[c, card] + 1
        if best >= 0:
            return best
        if side:  # low card of the longest side suit (trumps nobody else holds are kept to come back in)
            bestk, bl = 0, -1
            for k in range(4):
                m = popcount(side & class_mask[c, k])
                if m > bl:
                    bestk, bl = k, m
            return _low(c, side & class_mask[c, bestk], points, power, follow)
        if mine_t and not opp_t:
            return _low(c, mine_t, points, power, follow)
        return _high(c, legal, power, follow)
    _wi, ws, led = _winning(c, trick, n, follow, strength)
    tpts = 0
    for i in range(n):
        tpts += points[c, trick[i]]
    winners = _beating(c, legal, led, ws, strength)
    if n == 2:
        if winners and (tpts > 0 or follow[c, lowest(winners)] != TRUMP):
            best, k1, k2 = -1, 0, 0  # min by (trump, power)
            x = winners
            while x:
                card = lowest(x)
                x &= x - 1
                a, b = 1 if follow[c, card] == TRUMP else 0, power[c, card]
                if best < 0 or a < k1 or (a == k1 and b < k2):
                    best, k1, k2 = card, a, b
            return best
        return _low(c, legal, points, power, follow)
    masters = _masters(c, winners, unseen, higher)
    if masters:
        return _most_points(c, masters, points, power)
    if winners and tpts >= 10:
        return _by_power(c, winners, power, True)
    return _low(c, legal, points, power, follow)


@njit(cache=True)
def play_defender(c, seat, decl, legal, unseen, unseen_decl, trick, n, decl_followed,
                  follow, class_mask, strength, points, power, higher):
    """``unseen_decl``: the declarer's cards in an ouvert game, else ``unseen``;
    ``decl_followed[k]``: -1 before a trick led in class ``k``, else whether the
    declarer followed the first one."""
    trump = class_mask[c, TRUMP]
    partner = 3 - seat - decl
    if n == 0:
        side = legal & ~trump
        x = side
        while x:
            card = lowest(x)
            x &= x - 1
            if card % 8 == 0 and not (higher[c, card] & unseen):  # a master ace
                return card
        if side:
            long_way = (seat + 1) % 3 == decl  # the declarer behind: the long suit
            bestk, bl = -1, 0
            for k in range(4):
                m = popcount(side & class_mask[c, k])
                if m and (bestk < 0 or (m > bl if long_way else m < bl)):
                    bestk, bl = k, m
            return _low(c, side & class_mask[c, bestk], points, power, follow)
        return _low(c, legal, points, power, follow)
    leader = (seat - n) % 3
    wi, ws, led = _winning(c, trick, n, follow, strength)
    winner = (leader + wi) % 3
    tpts = 0
    for i in range(n):
        tpts += points[c, trick[i]]
    winners = _beating(c, legal, led, ws, strength)
    if winner == partner:
        wc = trick[wi]
        safe = n == 2 or not (higher[c, wc] & unseen_decl & class_mask[c, follow[c, wc]])
        if n == 1 and follow[c, wc] != TRUMP and led != TRUMP:
            # the declarer may be void and trump: safe only if he has shown the suit before
            safe = safe and decl_followed[led] != 0
        if safe:  # smear: the most points, from a side suit rather than trumps
            best, k1, k2, k3 = -1, 0, 0, 0
            x = legal
            while x:
                card = lowest(x)
                x &= x - 1
                a, b, d = 1 if follow[c, card] != TRUMP else 0, points[c, card], -power[c, card]
                if best < 0 or a > k1 or (a == k1 and (b > k2 or (b == k2 and d > k3))):
                    best, k1, k2, k3 = card, a, b, d
            return best
        if winners and n == 1:
            masters = _masters(c, winners, unseen, higher)
            if masters:
                best, key = -1, 0
                x = masters
                while x:
                    card = lowest(x)
                    x &= x - 1
                    if best < 0 or points[c, card] > key:
                        best, key = card, points[c, card]
                return best
        return _low(c, legal, points, power, follow)
    if winners:  # the declarer is winning
        if n == 2:
            best, k1, k2 = -1, 0, 0.0
            x = winners
            while x:
                card = lowest(x)
                x &= x - 1
                a, b = 1 if follow[c, card] == TRUMP else 0, power[c, card] - points[c, card] * 0.01
                if best < 0 or a < k1 or (a == k1 and b < k2):
                    best, k1, k2 = card, a, b
            return best
        masters = _masters(c, winners, unseen, higher)
        if masters:
            return _most_points(c, masters, points, power)
        if tpts >= 10:
            return _by_power(c, winners, power, True)
    return _low(c, legal, points, power, follow)


@njit(cache=True)
def play_null(c, seat, decl, legal, unseen, trick, n, follow, class_mask, strength, power, higher, lower):
    if n == 0:
        if seat == decl:  # lead a card that must lose: nothing lower is still out
            best, bk = -1, 0
            x = legal
            while x:
                card = lowest(x)
                x &= x - 1
                if higher[c, card] & unseen and not (lower[c, card] & unseen) and (best < 0 or power[c, card] < bk):
                    best, bk = card, power[c, card]
            if best >= 0:
                return best
        return _by_power(c, legal, power, False)
    wi, ws, led = _winning(c, trick, n, follow, strength)
    winner = (seat + wi - n) % 3
    under = 0
    x = legal
    while x:
        card = lowest(x)
        x &= x - 1
        if strength[c, led, card] < ws:
            under |= 1 << card
    if seat == decl:
        if under:
            best, k1, k2 = -1, 0, 0
            x = under
            while x:
                card = lowest(x)
                x &= x - 1
                a, b = strength[c, led, card], power[c, card]
                if best < 0 or a > k1 or (a == k1 and b > k2):
                    best, k1, k2 = card, a, b
            return best
        weakest = _by_strength(c, legal, led, strength, False)
        if strength[c, led, weakest] < 0 or not legal & class_mask[c, led]:
            return _by_power(c, legal, power, True)
        return weakest
    if winner == decl:
        if under:
            return _by_strength(c, under, led, strength, True)
        return _by_power(c, legal, power, True)
    if n == 1 and (seat + 1) % 3 == decl and legal & class_mask[c, led]:
        return _by_power(c, legal & class_mask[c, led], power, False)
    return _by_power(c, legal, power, True)  # the declarer has already ducked: get rid of a high card


@njit(cache=True)
def play_fewest_points(c, legal, unseen, trick, n, follow, class_mask, strength, points, power, higher):
    if n == 0:
        side = legal & ~class_mask[c, TRUMP]
        pool = side if side else legal
        best, k1, k2, k3, k4 = -1, 0, 0, 0, 0
        x = pool
        while x:  # min by (not sure to lose, points, power, length of its class)
            card = lowest(x)
            x &= x - 1
            a = 0 if higher[c, card] & unseen else 1
            b, d, e = points[c, card], power[c, card], popcount(pool & class_mask[c, follow[c, card]])
            if best < 0 or (a, b, d, e) < (k1, k2, k3, k4):
                best, k1, k2, k3, k4 = card, a, b, d, e
        return best
    _wi, ws, led = _winning(c, trick, n, follow, strength)
    under = 0
    x = legal
    while x:
        card = lowest(x)
        x &= x - 1
        if strength[c, led, card] < ws:
            under |= 1 << card
    if not legal & class_mask[c, led] and under and under == legal:  # void and not trumping: dump points
        best, k1, k2 = -1, 0, 0
        x = under
        while x:
            card = lowest(x)
            x &= x - 1
            a, b = points[c, card], power[c, card]
            if best < 0 or a > k1 or (a == k1 and b > k2):
                best, k1, k2 = card, a, b
        return best
    if under:
        best, k1, k2 = -1, 0, 0
        x = under
        while x:
            card = lowest(x)
            x &= x - 1
            s = strength[c, led, card]
            a, b = (s, -points[c, card]) if s >= 0 else (-1, points[c, card])
            if best < 0 or a > k1 or (a == k1 and b > k2):
                best, k1, k2 = card, a, b
        return best
    best, key = -1, 0  # every card wins: take with the fewest points, shedding a high card
    x = legal
    while x:
        card = lowest(x)
        x &= x - 1
        if n == 2:
            k = points[c, card] * 1000 - power[c, card]  # min by (points, -power); power < 1000
            if best < 0 or k < key:
                best, key = card, k
        else:
            k = power[c, card] - 3 * points[c, card]
            if best < 0 or k > key:
                best, key = card, k
    return best
