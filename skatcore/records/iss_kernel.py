"""The compiled replay of ISS games (:mod:`skatcore.records.iss_fast`): the
``MV[...]`` text of a batch of games read and replayed move by move on
integers, as :func:`skatcore.records.iss.replay` reads it and
:class:`~skatcore.engine.deal.Deal` plays it, on the compiled engine's tables
(:func:`~skatcore.engine.compiled.engine_tables`: ladder, follow-suit masks,
trick order, card points).

It covers the happy path only: a token or move the replay would refuse, or
one this loop does not model, marks the game ``FALLBACK`` and the caller
replays it through ``Deal``, which then says what is wrong.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from skatcore import numba_cache  # noqa: F401 (the cache of the functions below stamped with their imports)
from skatcore.engine.kernel import NULL, popcount, taker

# move codes: cards are 0..31, a bid is BID + value
Y, P, S, RE, SC, HIDDEN, SHOWN, DISCARD, ANNOUNCE = 32, 33, 34, 35, 36, 37, 38, 39, 40
TI, LE = 41, 44  # + the seat that timed out / left
BID = 1000
BAD = -1  # a token the lean path does not read
SERVER = 3  # who: the server (``w``)
OK, FALLBACK, GONE_BIDDING, GONE_UNDECLARED = 0, 1, 2, 3  # statuses; a player gone before the game: not scorable
NONE, BY_DECLARER, BY_DEFENDERS = 0, 1, 2  # concession_by
_BIDDING, _SKAT, _DISCARD, _DECLARE, _PLAY, _DONE = range(6)
LETTERS, FLAGS = b"GCSHDN", b"OHSZ"  # an announcement: game letter, then flags (bits 1, 2, 4, 8)


def _byte_table(chars: bytes) -> np.ndarray:
    table = np.full(256, -1, np.int64)
    for i, ch in enumerate(chars):
        table[ch] = i
    return table


_SUIT, _RANK = _byte_table(b"CSHD"), _byte_table(b"AKQJT987")  # a card is suit * 8 + rank (skatcore.cards)
_LETTER, _FLAG = _byte_table(LETTERS), _byte_table(FLAGS)
_DOT, _SPACE, _HIDDEN_CHAR = ord("."), ord(" "), ord("?")
_NULL_LETTER = LETTERS.index(b"N")


@njit(cache=True)
def _card(text, p, e):
    """The card spelled by ``text[p:e]``, or -1."""
    if e - p != 2:
        return -1
    s, r = _SUIT[text[p]], _RANK[text[p + 1]]
    return s * 8 + r if s >= 0 and r >= 0 else -1


@njit(cache=True)
def _cards(text, p, e, out, hidden):
    """The cards of ``text[p:e]`` spelled ``c1.c2...``: how many, the first
    ``len(out)`` in ``out``; -1 if a part is no card (a hidden card ``??``,
    -2 in ``out``, counts where ``hidden``)."""
    n = 0
    while True:
        q = p
        while q < e and text[q] != _DOT:
            q += 1
        c = _card(text, p, q)
        if c < 0 and hidden and q - p == 2 and text[p] == _HIDDEN_CHAR and text[p + 1] == _HIDDEN_CHAR:
            c = -2
        if c == -1:
            return -1
        if n < len(out):
            out[n] = c
        n += 1
        if q == e:
            return n
        p = q + 1


@njit(cache=True)
def _token(text, p, e, server, extra):
    """The code of the move token ``text[p:e]`` by the server or a player,
    as ``iss.replay_move`` and ``iss._server`` read it, or BAD.  An announcement
    puts (letter, flags, how many cards it shows) in ``extra[0:3]``; the
    cards of an announcement, a discard or the skat shown go to ``extra[3:5]``."""
    n = e - p
    extra[2] = extra[3] = extra[4] = -1
    if server:
        if n == 4 and text[p + 2] == _DOT and ord("0") <= text[p + 3] <= ord("2"):
            seat = text[p + 3] - ord("0")
            if text[p] == ord("T") and text[p + 1] == ord("I"):
                return TI + seat
            if text[p] == ord("L") and text[p + 1] == ord("E"):
                return LE + seat
        return SHOWN if _cards(text, p, e, extra[3:5], True) == 2 else BAD
    c = _card(text, p, e)
    if c >= 0:
        return c
    if n == 1:
        ch = text[p]
        if ch == ord("y"):
            return Y
        if ch == ord("p"):
            return P
        if ch == ord("s"):
            return S
    elif n == 2:
        a, b = text[p], text[p + 1]
        if a == ord("R") and b == ord("E"):
            return RE
        if a == ord("S") and b == ord("C"):
            return SC
        if a == _HIDDEN_CHAR and b == _HIDDEN_CHAR:
            return HIDDEN
    if n >= 3 and text[p] == ord("S") and text[p + 1] == ord("C") and text[p + 2] == _DOT:
        return SC  # cards laid open
    digits, v = 1 <= n <= 6, 0
    for q in range(p, e):
        d = text[q] - ord("0")
        digits = digits and 0 <= d <= 9
        v = 10 * v + d
    if digits:
        return BID + v
    if _cards(text, p, e, extra[3:5], False) >= 2:  # a discard after the announcement
        return DISCARD
    letter = _LETTER[text[p]] if n else -1
    if letter < 0:
        return BAD
    q, flags = p + 1, 0
    while q < e and _FLAG[text[q]] >= 0:
        flags |= 1 << _FLAG[text[q]]
        q += 1
    extra[0], extra[1], extra[2] = letter, flags, 0
    if q < e:
        if text[q] != _DOT or q + 1 == e:
            return BAD
        extra[2] = _cards(text, q + 1, e, extra[3:5], False)
        if extra[2] < 0:
            return BAD
    return ANNOUNCE


@njit(cache=True)
def check_games(n, text, starts, declarations, ladder, kind, follow, class_mask, strength, points,
                wins, win_row, win_number, win_leader, win_decl, status, declarer, bid, declared, concession, dpoints, dtricks, ftricks, held,
                resigned, n_resigned, claim_stands, gone, played, takers, skat_out):
    """Replay games ``0 .. n-1``, game ``i`` the text of its ``MV[...]`` in
    ``text[starts[i]:starts[i+1]]`` (ASCII codes, int64); ``status[i]`` OK or FALLBACK.

    ``declarations[letter, flags, hand]`` is what the ruleset makes of an
    announcement (:data:`LETTERS`, :data:`FLAGS` bits): contract index (-1:
    refused), a null game's value (checked against the bid here), schwarz
    announced.  Outputs: the facts of the finished deal (declarer -1: thrown
    in), ``declared`` the announcement's index into ``declarations``
    (flattened), and how it ended: resignations in order, a claim that
    stood, ``gone`` seat * 2 + (1 if left else 0), or -1.  Where ``played``
    has columns (30), the play too: the cards in order, each trick's taker
    (``takers``, -1: not taken) and the skat at the end (``skat_out``).
    """
    deck = np.zeros(32, np.int64)
    hands = np.zeros(3, np.int64)
    trick = np.zeros(3, np.int64)
    won = np.zeros(3, np.int64)
    pts = np.zeros(3, np.int64)
    extra = np.zeros(5, np.int64)
    for i in range(n):
        status[i] = _one(i, text, starts[i], starts[i + 1], declarations, ladder, kind, follow, class_mask, strength,
                         points, wins, win_row, win_number, win_leader, win_decl, declarer, bid, declared, concession, dpoints, dtricks, ftricks, held,
                         resigned, n_resigned, claim_stands, gone, played, takers, skat_out, deck, hands, trick, won, pts,
                         extra)


@njit(cache=True)
def _pairs(text, p, end):
    """``text[p:end]`` is `who move` pairs (who w, 0, 1 or 2; a move of printable ASCII)."""
    while True:
        while p < end and text[p] == _SPACE:
            p += 1
        if p == end:
            return True
        ch = text[p]
        if p + 2 >= end or text[p + 1] != _SPACE or not (ch == ord("w") or ord("0") <= ch <= ord("2")):
            return False
        p += 2
        if text[p] == _SPACE:
            return False
        while p < end and text[p] != _SPACE:
            if not 33 <= text[p] <= 126:
                return False
            p += 1


@njit(cache=True)
def _concede(seat, decl, conceded, hand_size):
    """As ``Deal._concede`` in play: (conceded, concession_by)."""
    conceded |= 1 << seat
    defenders = 7 & ~(1 << decl)
    if conceded & defenders == defenders:
        return conceded, BY_DEFENDERS
    if conceded >> decl & 1 and ((seat == decl and hand_size >= 9) or conceded & defenders):
        return conceded, BY_DECLARER
    return conceded, NONE


@njit(cache=True)
def _put_away(hands, decl, a, b):
    """The declarer lays ``a`` and ``b`` down: the new skat, or -1 where Deal refuses."""
    if a < 0 or b < 0 or a == b or not hands[decl] >> a & 1 or not hands[decl] >> b & 1:
        return -1
    skat = (1 << a) | (1 << b)
    hands[decl] &= ~skat
    return skat


@njit(cache=True)
def _one(i, text, p, end, declarations, ladder, kind, follow, class_mask, strength, points,
         wins, win_row, win_number, win_leader, win_decl, declarer, bid, declared, concession, dpoints, dtricks, ftricks, held,
         resigned, n_resigned, claim_stands, gone, played, takers, skat_out, deck, hands, trick, won, pts, extra):
    n_resigned[i], gone[i], claim_stands[i], declared[i] = 0, -1, False, -1
    play = played.shape[1] > 0
    if play:
        played[i, :] = -1
        takers[i, :] = -1
    # -- the deal: `w c1.c2...c32` -------------------------------------------------
    while p < end and text[p] == _SPACE:
        p += 1
    if end - p < 2 + 95 or text[p] != ord("w") or text[p + 1] != _SPACE:
        return FALLBACK
    p += 2
    e = p
    while e < end and text[e] != _SPACE:
        e += 1
    if _cards(text, p, e, deck, False) != 32:
        return FALLBACK
    seen = 0
    for j in range(32):
        seen |= 1 << deck[j]
    if seen != (1 << 32) - 1:
        return FALLBACK
    for s in range(3):
        h = 0
        for j in range(10):
            h |= 1 << deck[10 * s + j]
        hands[s] = h
        won[s] = pts[s] = 0
    skat = (1 << deck[30]) | (1 << deck[31])
    phase, to_move, b, part, asker, answerer, awaiting = _BIDDING, 1, 0, 1, 1, 0, False
    decl, c, picked, pending, claimed = -1, -1, False, -1, False
    conceded, by, leader, pos, n_tricks = 0, NONE, 0, 0, 0
    p = e
    while True:
        # -- the next `who move` pair ------------------------------------------------
        while p < end and text[p] == _SPACE:
            p += 1
        if p == end:
            break
        ch = text[p]
        if p + 2 >= end or text[p + 1] != _SPACE or not (ch == ord("w") or ord("0") <= ch <= ord("2")):
            return FALLBACK
        w = SERVER if ch == ord("w") else ch - ord("0")
        p += 2
        e = p
        while e < end and text[e] != _SPACE:
            e += 1
        m = _token(text, p, e, w == SERVER, extra)
        p = e
        if m == BAD:
            return FALLBACK
        if w == SERVER:
            if TI <= m < TI + 6:  # a player timed out or left
                if phase == _DONE:
                    continue
                seat = (m - TI) % 3
                gone[i] = 2 * seat + (1 if m >= LE else 0)
                if phase != _PLAY:  # the replay stops here, once the rest of the record reads as pairs
                    if not _pairs(text, p, end):
                        return FALLBACK
                    return GONE_BIDDING if phase == _BIDDING else GONE_UNDECLARED
                if seat == decl:
                    conceded, by = _concede(seat, decl, conceded, popcount(hands[decl]))
                    if by == NONE:
                        conceded, by = _concede((seat + 1) % 3, decl, conceded, popcount(hands[decl]))
                else:
                    for d in range(3):
                        if d != decl and not conceded >> d & 1:
                            if by != NONE:
                                return FALLBACK  # conceding after the end: Deal refuses
                            conceded, by = _concede(d, decl, conceded, popcount(hands[decl]))
                if by != NONE:
                    phase = _DONE
            elif m == SHOWN and phase == _DISCARD:  # the skat shown to the declarer: the skat dealt?
                a, z = extra[3], extra[4]
                if a != -2 and z != -2 and not ((a == deck[30] and z == deck[31]) or (a == deck[31] and z == deck[30])):
                    return FALLBACK
            else:
                return FALLBACK
            continue
        if phase == _DONE:
            return FALLBACK  # the deal is already over
        if m == HIDDEN:
            continue
        if m == RE:
            if phase != _PLAY or n_resigned[i] == resigned.shape[1]:
                return FALLBACK
            resigned[i, n_resigned[i]] = w
            n_resigned[i] += 1
            conceded, by = _concede(w, decl, conceded, popcount(hands[decl]))
            if by != NONE:
                phase = _DONE
            continue
        if m == SC:
            claimed = claimed or w == decl
            continue
        if w != to_move:
            return FALLBACK
        if m < 32:  # a card
            if phase != _PLAY:
                return FALLBACK
            bit = 1 << m
            hand = hands[w]
            if not hand & bit:
                return FALLBACK
            if pos > 0:
                follows = hand & class_mask[c, follow[c, trick[0]]]
                if follows and not follows & bit:
                    return FALLBACK
            hands[w] = hand ^ bit
            trick[pos] = m
            if play:
                played[i, 3 * n_tricks + pos] = m
            pos += 1
            if pos < 3:
                to_move = (w + 1) % 3
                continue
            winner, got = taker(c, n_tricks, leader, decl, trick, follow, strength, points,
                                wins, win_row, win_number, win_leader, win_decl)
            pts[winner] += got
            won[winner] += 1
            if play:
                takers[i, n_tricks] = winner
            n_tricks += 1
            pos = 0
            if n_tricks == 10 or (kind[c] == NULL and winner == decl):
                phase = _DONE
            else:
                leader = to_move = winner
        elif m >= BID or m in (Y, P):  # bidding (docs/rules/official.md#a4, as Bidding._bid)
            if phase != _BIDDING:
                return FALLBACK
            survivor = -1
            if part == 3:
                if m == P:
                    phase = _DONE  # all passed: thrown in (the caller's rulesets throw in)
                elif m - BID == ladder[0]:
                    b, decl, to_move, phase = m - BID, 0, 0, _SKAT
                else:
                    return FALLBACK
            elif awaiting:
                if m >= BID:
                    return FALLBACK
                awaiting = False
                if m == P:
                    survivor = asker
                else:
                    to_move = asker
            elif m == Y:
                return FALLBACK
            elif m == P:
                survivor = answerer
            else:
                v = m - BID
                on_ladder = False
                for rung in ladder:
                    on_ladder = on_ladder or rung == v
                if not on_ladder or v <= b:
                    return FALLBACK
                b, awaiting, to_move = v, True, answerer
            if survivor >= 0:  # a part of the bidding is over
                if part == 1:
                    part, asker, answerer, to_move = 2, 2, survivor, 2
                elif b:
                    decl, to_move, phase = survivor, survivor, _SKAT
                else:
                    part, to_move = 3, 0
        elif m == S:
            if phase != _SKAT:
                return FALLBACK
            hands[decl] |= skat
            skat, picked, phase = 0, True, _DISCARD
        elif m == ANNOUNCE:
            letter, flags, shown = extra[0], extra[1], extra[2]
            if phase == _SKAT:
                phase = _DECLARE  # a hand game
            # ouvert suit or grand implies hand; H after `s` is Deal's to refuse
            hand = (flags & 2) != 0 or not picked or ((flags & 1) != 0 and letter != _NULL_LETTER)
            if hand == picked or pending >= 0:
                return FALLBACK
            key = (letter * 16 + flags) * 2 + (1 if hand else 0)
            if phase == _DISCARD:
                if shown == 0:
                    pending = key  # the discard follows as a move of its own
                    continue
                skat = _put_away(hands, decl, extra[3], extra[4] if shown > 1 else -1)
                if skat < 0:
                    return FALLBACK
                phase = _DECLARE
            if phase != _DECLARE or not _declare(key, b, declarations, kind):
                return FALLBACK
            declared[i], c, phase, leader, to_move = key, declarations[key, 0], _PLAY, 0, 0
        elif m == DISCARD:
            if phase != _DISCARD:
                return FALLBACK
            skat = _put_away(hands, decl, extra[3], extra[4])
            if skat < 0:
                return FALLBACK
            phase = _DECLARE
            if pending >= 0:
                if not _declare(pending, b, declarations, kind):
                    return FALLBACK
                declared[i], c, phase, leader, to_move = pending, declarations[pending, 0], _PLAY, 0, 0
                pending = -1
        else:
            return FALLBACK
    if phase != _DONE and claimed and conceded & ~(1 << decl):
        # a defender resigned to the declarer's claim and the record ends: the claim stands
        for d in range(3):
            if d != decl and not conceded >> d & 1:
                if by != NONE:
                    return FALLBACK
                conceded, by = _concede(d, decl, conceded, popcount(hands[decl]))
        claim_stands[i] = True
        if by != NONE:
            phase = _DONE
    if phase == _PLAY and kind[c] != NULL and declarations[declared[i], 2] and pos == 0 \
            and won[(decl + 1) % 3] + won[(decl + 2) % 3]:
        by, phase = BY_DECLARER, _DONE  # decided: the server ends the game (A8)
    if phase != _DONE:
        return FALLBACK
    if wins.shape[0] > 0 and decl >= 0 and hands[0] | hands[1] | hands[2]:
        return FALLBACK  # ended early where a plugin decides trick winners: Deal says whether it can be scored
    declarer[i], bid[i], concession[i] = decl, b, by
    if play:
        skat_out[i] = skat
    if decl >= 0:
        _facts(i, decl, c, skat, by, pos, deck, hands, trick, won, pts, kind, points, dpoints, dtricks, ftricks, held)
    return OK


@njit(cache=True)
def _declare(key, b, declarations, kind):
    """The announcement ``key`` may be declared at bid ``b`` (a null game worth less may not)."""
    c = declarations[key, 0]
    return c >= 0 and not (kind[c] == NULL and declarations[key, 1] < b)


@njit(cache=True)
def _facts(i, decl, c, skat, by, pos, deck, hands, trick, won, pts, kind, points, dpoints, dtricks, ftricks, held):
    """The declarer's card points and tricks as ``DealFacts.facts`` counts them
    on a plain table (the rest to the side that did not concede), and the
    cards matadors count: the hand dealt and the skat."""
    got = pts[decl]
    for card in range(32):
        if skat >> card & 1:
            got += points[c, card]
    dt = won[decl]
    ft = won[0] + won[1] + won[2] - dt
    unplayed = hands[0] | hands[1] | hands[2]
    if by != NONE and unplayed:
        rest_points = 0
        for card in range(32):
            if unplayed >> card & 1:
                rest_points += points[c, card]
        for j in range(pos):
            rest_points += points[c, trick[j]]
        rest_tricks = 10 - dt - ft
        if by == BY_DEFENDERS and kind[c] == NULL:
            ft += rest_tricks
        elif by == BY_DEFENDERS:
            got += rest_points
            dt += rest_tricks
        else:
            ft += rest_tricks
            if kind[c] == NULL:
                dt = max(dt, 1)
    dpoints[i], dtricks[i], ftricks[i] = got, dt, ft
    h = (1 << deck[30]) | (1 << deck[31])
    for j in range(10):
        h |= 1 << deck[10 * decl + j]
    held[i] = h
