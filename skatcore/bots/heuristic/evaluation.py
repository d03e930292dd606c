"""Hand evaluation: strength of a hand per contract, win probabilities,
expected scores and the highest bid a hand holds (incl. the offers of the
ruleset's skat steps, judged by their outlooks)."""

from __future__ import annotations

import math

from skatcore.bots.heuristic.tables import (
    _GRAND,
    _GRAND_JACKS,
    _NULL_RISK,
    _SIDE,
    _TRUMPX,
    ACE,
    CJ,
    GRAND_FORE,
    HJ,
    JACK_MASK,
    SJ,
    TEN,
    GameTables,
    _grand_side,
    declaration_key,
    jack_bits,
    logistic,
)
from skatcore.model import Declaration
from skatcore.rules.compiler import TRUMP


class Evaluation:
    """Part of :class:`~skatcore.bots.heuristic.HeuristicPlayer`."""

    # -- hand evaluation ---------------------------------------------------------
    def strength(self, hand: int, g: GameTables, fore: bool = False) -> float:
        """Log-odds-like strength of ``hand`` (10 cards) as declarer of ``g``;
        ``fore``: the declarer is forehand (leads the first trick; grand only)."""
        key = (hand, g.name, fore)
        v = self._strengths.get(key)
        if v is None:
            v = self._strengths[key] = self._strength(hand, g, fore)
        return v

    @staticmethod
    def _strength(hand: int, g: GameTables, fore: bool = False) -> float:
        fam = g.family
        std = g.std
        if std is not None:
            b = (hand & 0xF7, hand >> 8 & 0xF7, hand >> 16 & 0xF7, hand >> 24 & 0xF7)
            if std == 4:
                return (_GRAND_JACKS[jack_bits(hand)] + _GRAND[b[0]] + _GRAND[b[1]] + _GRAND[b[2]] + _GRAND[b[3]]
                        + (GRAND_FORE if fore else 0.0))
            nj = (hand & JACK_MASK).bit_count()
            t = nj + b[std].bit_count()
            v = nj + (hand >> CJ & 1) * 1.0 + (hand >> SJ & 1) * 0.6 + (hand >> HJ & 1) * 0.3 + _TRUMPX[b[std]] - 7.8
            void = 0.5 if t >= 5 else 0.2
            for k in range(4):
                if k != std:
                    v += _SIDE[b[k]] if b[k] else void
            return v
        if fam == "suit":
            t = (hand & g.trump).bit_count()
            s = t * 1.0 + (hand >> CJ & 1) * 1.0 + (hand >> SJ & 1) * 0.6 + (hand >> HJ & 1) * 0.3
            s += 0.3 * bool(hand & g.trump_ace) + 0.15 * bool(hand & g.trump_ten)
            for k in range(4):
                m = g.plain[k]
                if not m:
                    continue
                sm = hand & m
                n = sm.bit_count()
                if n == 0:
                    s += 0.5 if t >= 5 else 0.2
                    continue
                a, ten = sm >> ACE[k] & 1, sm >> TEN[k] & 1
                if a:
                    s += 1.1 + 0.7 * ten - 0.15 * max(0, n - 3)
                elif ten:
                    s += -0.4 if n == 1 else 0.1
                elif n == 1:
                    s += 0.1
            return s - 7.8
        if fam == "grand":  # another trump layout: the same judgement by the suits' aces and tens
            s = _GRAND_JACKS[jack_bits(hand)]
            for k in range(4):
                sm = hand & g.plain[k]
                s += _grand_side(sm.bit_count(), sm >> ACE[k] & 1, sm >> TEN[k] & 1)
            return s + (GRAND_FORE if fore else 0.0)
        if fam == "null":
            return -Evaluation.null_risk(hand)
        return -99.0

    @staticmethod
    def null_risk(hand: int) -> float:
        """Unsafe suits of a null hand (rank i-th from the bottom must be <= 2i)."""
        return _NULL_RISK[hand & 0xFF] + _NULL_RISK[hand >> 8 & 0xFF] + _NULL_RISK[hand >> 16 & 0xFF] + _NULL_RISK[hand >> 24 & 0xFF]

    def _x(self, hand: int, d: Declaration, fore: bool = False) -> float:
        g = self.info.games[d.game]
        if g.family == "null":
            r = self.null_risk(hand)
            return -2.0 * r if d.ouvert else -r
        return self.strength(hand, g, fore)

    def _win_p(self, hand: int, d: Declaration, when: str | None = None, fore: bool = False) -> float:
        """Estimated win probability of ``d`` with ``hand`` (10 cards, or 11
        with a turned card); ``when``: pre / post / hand (default: hand for a
        hand game, else post); ``fore``: the declarer leads the first trick."""
        fam = self.info.games[d.game].family
        if fam not in ("suit", "grand", "null"):
            return 0.0
        a, b = self.COEF[(fam, when or ("hand" if d.hand else "post"))]
        return logistic(a * self._x(hand, d, fore) + b)

    def _expected(self, p: float, value: int, lost: int, bid: int, base: int | None) -> float:
        if value < bid:  # overbid: lost at the bid rounded up to the base
            lv = -(-bid // base) * base if base else bid
            return -lost * lv - self.GAME_BONUS
        return p * (value + self.GAME_BONUS) - (1 - p) * (lost * value + self.GAME_BONUS)

    def _need(self, value: int, lost: int) -> float:
        """Break-even win probability of a game worth ``value``."""
        return (lost * value + self.GAME_BONUS) / ((1 + lost) * value + 2 * self.GAME_BONUS)

    def _candidates(self, hand: int, route: str, known: int | None = None, fore: bool = False):
        """``(p, value, cand)`` for each plain declaration of ``route``;
        ``known`` = the 12 cards incl. the skat (matadors then known); ``fore``: forehand.
        The same estimate as :meth:`_win_p`, inlined: bidding asks it often."""
        when = "hand" if route == "hand" else ("pre" if known is None else "post")
        rows = self.info.rows.get((route, when))
        if rows is None:
            rows = self.info.rows[(route, when)] = tuple(
                (c, c.g, c.null, c.d.ouvert, *self.COEF[(c.g.family, when)]) for c in self.info.cands[route])
        mcards = known if known is not None else hand
        mats = self._mats
        res = []
        risk = None
        exp = math.exp
        strength = self.strength
        for cand, g, null, ouvert, a, b in rows:
            if null:
                if risk is None:
                    risk = self.null_risk(hand)
                x = -2.0 * risk if ouvert else -risk
                v = cand.value(0)
            else:
                x = strength(hand, g, fore)
                key = (mcards, g.name)
                m = mats.get(key)
                if m is None:
                    m = mats[key] = g.table.matadors(mcards)
                v = cand.value(m)
            res.append((1.0 / (1.0 + exp(-(a * x + b))), v, cand))
        return res

    def _evaluate(self, hand: int, fore: bool = False):
        key = ("eval", hand, fore)
        ev = self._cache.get(key)
        if ev is None:
            ev = self._cache[key] = (self._candidates(hand, "pickup", fore=fore),
                                     self._candidates(hand, "hand", fore=fore))
        return ev

    def _may_bid(self, hand: int, fore: bool = False) -> bool:
        """Quick test: some plain contract has a win probability of 1/2 or
        more (the break-even point never lies below 1/2 when a lost game
        costs at least its value), so the full evaluation is worth it."""
        info = self.info
        rows = info.rows.get("quick")
        if rows is None:
            rows = info.rows["quick"] = tuple(
                (c.g, c.null, c.d.ouvert, c.lost, *self.COEF[(c.g.family, "hand" if c.d.hand else "pre")])
                for route in ("pickup", "hand") for c in info.cands[route])
        risk = None
        for g, null, ouvert, lost, a, b in rows:
            if lost < 1:
                return True
            if null:
                if risk is None:
                    risk = self.null_risk(hand)
                x = -2.0 * risk if ouvert else -risk
            else:
                x = self.strength(hand, g, fore)
            if a * x + b >= 0.0:
                return True
        return False

    def _limit(self, hand: int, fore: bool = False) -> int:
        """The highest bid this hand will hold (``fore``: in forehand): the best
        value among contracts whose expected score is positive, with the hand's own matadors."""
        cached = self._cache.get(("limit", hand, fore))
        if cached is not None:
            return cached
        best = 0
        if self._may_bid(hand, fore):
            for cands in self._evaluate(hand, fore):
                for p, v, cand in cands:
                    if v > best and p >= self._need(v, cand.lost):
                        best = v
        if self.rules.steps_at["skat"]:
            for limit, _ in self._offers(hand, fore).values():
                best = max(best, limit)
        self._cache[("limit", hand, fore)] = best
        return best

    def _offers(self, hand: int, fore: bool = False) -> dict:
        """``{offer: (limit, expected score)}`` of the skat steps' offers this
        hand can judge (:meth:`~skatcore.engine.steps.Step.outlooks`)."""
        key = ("offers", hand, fore)
        out = self._cache.get(key)
        if out is None:
            out = self._cache[key] = {offer: self._judge_outlooks(hand, outlooks, fore)
                                      for step in self.rules.steps_at["skat"]
                                      for offer, outlooks in step.outlooks(self.rules, hand).items() if outlooks}
        return out

    def _judge_outlooks(self, hand: int, outlooks, fore: bool = False) -> tuple[int, float]:
        """``(limit, expected score)`` of an offer: each outlook's best suit or
        grand declaration before the skat, the card it brings counted as one
        more trump where it is trump."""
        info = self.info
        judged: dict = {}
        expected, lowest, ok = 0.0, None, True
        for o in outlooks:
            best = None
            for d in o.declarations:
                g = info.games[d.game]
                if g.family not in ("suit", "grand"):
                    continue
                trump = o.card >= 0 and g.follow[o.card] == TRUMP
                r = judged.get((declaration_key(d), trump))
                if r is None:
                    a, b = self.COEF[(g.family, "pre")]
                    p = logistic(a * (self.strength(hand, g, fore) + (self.TRUMP_GAIN[g.family] if trump else 0.0)) + b)
                    v = info.value(d, g.table.matadors(hand))
                    r = judged[(declaration_key(d), trump)] = (p, v, self._expected(p, v, info.lost_factor(d), 0, None))
                if best is None or r[2] > best[2]:
                    best = r
            if best is None:
                ok = False
                continue
            expected += best[2] / len(outlooks)
            if lowest is None or best[1] < lowest:
                lowest = best[1]
        # bid only what the worst outlook is still worth, and only if the offer pays on average
        return ((lowest or 0) if ok and expected > 0 else 0), expected
