"""The compiled check of ISS games (:mod:`skatcore.records.iss_fast`): every
move of a batch of games replayed on integer arrays, as
:class:`~skatcore.engine.deal.Deal` would replay it through
:func:`skatcore.records.iss.replay`, reading the compiled engine's tables
(:func:`~skatcore.engine.compiled.engine_tables`: ladder, follow-suit masks,
trick order, card points).

It covers the happy path only: a move the replay would refuse, or one it
handles in a way this loop does not model, marks the game ``FALLBACK`` and
the caller replays it through ``Deal``, which then says what is wrong.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from skatcore.engine.kernel import NULL, _lowest, _popcount, trick_winner

# move codes: cards are 0..31, a bid is BID + value
Y, P, S, RE, SC, HIDDEN, SHOWN, DISCARD, ANNOUNCE = 32, 33, 34, 35, 36, 37, 38, 39, 40
TI, LE = 41, 44  # + the seat that timed out / left
BID = 1000
SERVER = 3  # who: the server (``w``)
OK, FALLBACK = 0, 1
NONE, BY_DECLARER, BY_DEFENDERS = 0, 1, 2  # concession_by
_BIDDING, _SKAT, _DISCARD, _DECLARE, _PLAY, _DONE = range(6)


@njit(cache=True)
def _points_of(mask, c, points):
    total = 0
    while mask:
        total += points[c, _lowest(mask)]
        mask &= mask - 1
    return total


@njit(cache=True)
def check_games(n, deck, starts, who, code, ann_cards, ann_shown, mv_disc, picked_at_announce,
                decl_contract, decl_null, decl_schwarz,
                ladder, kind, follow, class_mask, strength, points,
                status, declarer, bid, concession, dpoints, dtricks, ftricks, held, resigned, n_resigned,
                claim_stands, gone):
    """Replay games ``0 .. n-1``; ``status[i]`` OK or FALLBACK.

    Inputs per game: ``deck`` the 32 cards as dealt (forehand's 10, middlehand's,
    rearhand's, the skat), moves ``starts[i] .. starts[i+1]-1`` of ``who`` and
    ``code``, the announcement's first two shown cards ``ann_cards`` (``ann_shown``
    how many it shows), a discard given as a move of its own ``mv_disc``, and
    what the caller made of the announcement: whether the skat was picked up
    before it, the contract index (-1: none), a null game's value (checked
    against the bid here), schwarz announced.  Outputs: the facts of the finished deal (declarer -1:
    thrown in) and how it ended (resignations in order, a claim that stood,
    ``gone`` seat * 2 + (1 if left else 0), or -1).
    """
    hands = np.zeros(3, np.int64)
    trick = np.zeros(3, np.int64)
    won = np.zeros(3, np.int64)
    pts = np.zeros(3, np.int64)
    for i in range(n):
        status[i] = _one(i, deck, starts, who, code, ann_cards, ann_shown, mv_disc, picked_at_announce,
                         decl_contract, decl_null, decl_schwarz, ladder, kind, follow, class_mask, strength, points,
                         declarer, bid, concession, dpoints, dtricks, ftricks, held, resigned, n_resigned,
                         claim_stands, gone, hands, trick, won, pts)


@njit(cache=True)
def _concede(seat, decl, conceded, hand_size):
    """As ``Deal._concede`` in play: (conceded, concession_by)."""
    conceded |= 1 << seat
    defenders = 7 & ~(1 << decl)
    if conceded & defenders == defenders:
        return conceded, BY_DEFENDERS
    if conceded >> decl & 1 and (seat == decl and hand_size >= 9 or conceded & defenders):
        return conceded, BY_DECLARER
    return conceded, NONE


@njit(cache=True)
def _one(i, deck, starts, who, code, ann_cards, ann_shown, mv_disc, picked_at_announce,
         decl_contract, decl_null, decl_schwarz, ladder, kind, follow, class_mask, strength, points,
         declarer, bid, concession, dpoints, dtricks, ftricks, held, resigned, n_resigned,
         claim_stands, gone, hands, trick, won, pts):
    for s in range(3):
        h = 0
        for j in range(10):
            h |= 1 << deck[i, 10 * s + j]
        hands[s] = h
        won[s] = pts[s] = 0
    skat = (1 << deck[i, 30]) | (1 << deck[i, 31])
    phase, to_move, b, part, asker, answerer, awaiting = _BIDDING, 1, 0, 1, 1, 0, False
    decl, c, picked, pending, claimed = -1, -1, False, False, False
    conceded, by, leader, pos, n_tricks = 0, NONE, 0, 0, 0
    n_resigned[i], gone[i], claim_stands[i] = 0, -1, False
    for k in range(starts[i], starts[i + 1]):
        w, m = who[k], code[k]
        if w == SERVER:
            if m >= TI and m < TI + 6:  # a player timed out or left
                if phase == _DONE:
                    continue
                if phase != _PLAY:
                    return FALLBACK  # before the game was declared: not scorable (Deal's reason)
                seat = (m - TI) % 3
                gone[i] = 2 * seat + (1 if m >= LE else 0)
                if seat == decl:
                    conceded, by = _concede(seat, decl, conceded, _popcount(hands[decl]))
                    if by == NONE:
                        conceded, by = _concede((seat + 1) % 3, decl, conceded, _popcount(hands[decl]))
                else:
                    for d in range(3):
                        if d != decl and not conceded >> d & 1:
                            if by != NONE:
                                return FALLBACK  # conceding after the end: Deal refuses
                            conceded, by = _concede(d, decl, conceded, _popcount(hands[decl]))
                if by != NONE:
                    phase = _DONE
            elif m == SHOWN and phase == _DISCARD:
                pass  # the skat shown to the declarer (checked by the caller)
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
            conceded, by = _concede(w, decl, conceded, _popcount(hands[decl]))
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
            pos += 1
            if pos < 3:
                to_move = (w + 1) % 3
                continue
            winner, p = trick_winner(c, leader, trick, follow, strength, points)
            pts[winner] += p
            won[winner] += 1
            n_tricks += 1
            pos = 0
            if n_tricks == 10 or (kind[c] == NULL and winner == decl):
                phase = _DONE
            else:
                leader = to_move = winner
        elif m >= BID or m == Y or m == P:  # bidding (docs/rules/official.md#a4, as Bidding._bid)
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
        elif m == ANNOUNCE or m == DISCARD:
            if m == ANNOUNCE:
                if phase == _SKAT:
                    phase = _DECLARE  # a hand game
                if phase == _DISCARD:
                    if ann_shown[i] == 0:
                        pending = True  # the discard follows as a move of its own
                        continue
                    skat = _put_away(hands, decl, ann_cards[i, 0], ann_cards[i, 1] if ann_shown[i] > 1 else -1)
                    if skat < 0:
                        return FALLBACK
                    phase = _DECLARE
            else:
                if phase != _DISCARD:
                    return FALLBACK
                skat = _put_away(hands, decl, mv_disc[i, 0], mv_disc[i, 1])
                if skat < 0:
                    return FALLBACK
                phase = _DECLARE
                if not pending:
                    continue
                pending = False
            # declare: what the caller checked must be what the replay reached
            if phase != _DECLARE or decl_contract[i] < 0 or picked != picked_at_announce[i]:
                return FALLBACK
            if kind[decl_contract[i]] == NULL and decl_null[i] < b:
                return FALLBACK  # a null game worth less than the bid
            c, phase, leader, to_move = decl_contract[i], _PLAY, 0, 0
        else:
            return FALLBACK
    if phase != _DONE and claimed and conceded & ~(1 << decl):
        # a defender resigned to the declarer's claim and the record ends: the claim stands
        for d in range(3):
            if d != decl and not conceded >> d & 1:
                if by != NONE:
                    return FALLBACK
                conceded, by = _concede(d, decl, conceded, _popcount(hands[decl]))
        claim_stands[i] = True
        if by != NONE:
            phase = _DONE
    if phase == _PLAY and kind[c] != NULL and decl_schwarz[i] and pos == 0 and won[(decl + 1) % 3] + won[(decl + 2) % 3]:
        by, phase = BY_DECLARER, _DONE  # decided: the server ends the game (A8)
    if phase != _DONE:
        return FALLBACK
    declarer[i], bid[i], concession[i] = decl, b, by
    if decl < 0:
        return OK
    # the facts of the deal (as DealFacts.facts on a plain table)
    points_ = pts[decl] + _points_of(skat, c, points)
    dt = won[decl]
    ft = won[0] + won[1] + won[2] - dt
    unplayed = hands[0] | hands[1] | hands[2]
    if by != NONE and unplayed:
        rest_points = _points_of(unplayed, c, points)
        for j in range(pos):
            rest_points += points[c, trick[j]]
        rest_tricks = 10 - dt - ft
        if by == BY_DEFENDERS and kind[c] == NULL:
            ft += rest_tricks
        elif by == BY_DEFENDERS:
            points_ += rest_points
            dt += rest_tricks
        else:
            ft += rest_tricks
            if kind[c] == NULL:
                dt = max(dt, 1)
    dpoints[i], dtricks[i], ftricks[i] = points_, dt, ft
    h = (1 << deck[i, 30]) | (1 << deck[i, 31])  # matadors count the dealt hand and the skat
    for j in range(10):
        h |= 1 << deck[i, 10 * decl + j]
    held[i] = h
    return OK


@njit(cache=True)
def _put_away(hands, decl, a, b):
    """The declarer lays ``a`` and ``b`` down: the new skat, or -1 where Deal refuses."""
    if a < 0 or b < 0 or a == b or not hands[decl] >> a & 1 or not hands[decl] >> b & 1:
        return -1
    skat = (1 << a) | (1 << b)
    hands[decl] &= ~skat
    return skat
