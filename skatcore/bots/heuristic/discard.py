"""Discarding: which cards go into the skat (suit, grand, null) or are passed on
before a game without declarer."""

from __future__ import annotations

from itertools import combinations

from skatcore.bots.heuristic.tables import (
    _LEN_BONUS,
    _RANK,
    ACE,
    BIT,
    NCARDS,
    SUIT_MASKS,
    GameTables,
    _Cand,
    cards_in,
    declaration_key,
)
from skatcore.engine.deal import Discard, Discards, SeatView
from skatcore.rules.compiler import TRUMP


class Discarding:
    """Part of :class:`~skatcore.bots.heuristic.HeuristicPlayer`."""

    _plan: tuple[tuple[int, ...], str] | None  # see HeuristicPlayer

    def _discard(self, view: SeatView):
        legal = view.legal
        hand, bid = view.hand, view.bid
        if view.declarer is None:  # the skat passed round before a game without declarer: the most dangerous cards
            return self._best_pair(legal, self._shed_scores(hand))
        best = None
        pairs: dict[str, Discard] = {}
        cands = self._pickup_cands(view)
        # of the suit games only the two with the most trumps are worth a look
        suits = sorted((c for c in cands if c.g.family == "suit"), key=lambda c: -(hand & c.g.trump).bit_count())[:2]
        for cand in cands:
            g = cand.g
            if (cand.null and cand.value(0) < bid) or (g.family == "suit" and cand not in suits):
                continue
            pair = pairs.get(g.name)
            if pair is None:
                pair = pairs[g.name] = (self._null_discard(hand, legal, self.info.skat) if cand.null
                                        else self._top_pair(hand, self._trump_discard_scores(hand, g), self.info.skat))
            rest = hand
            for c in pair.cards:
                rest &= ~BIT[c]
            v = cand.value(0 if cand.null else g.table.matadors(hand))
            e = self._expected(self._win_p(rest, cand.d, fore=view.seat == 0), v, cand.lost, bid, cand.base)
            if best is None or e > best[0]:
                best = (e, pair, g.name)
        if best is None:
            return legal[0]
        self._plan = (best[1].cards, best[2])
        return best[1]

    def _pickup_cands(self, view: SeatView):
        """The declarations open after the discard: the running step's
        (``view.declarable``, e.g. a turned card's contracts), else picking up's."""
        info = self.info
        if not view.declarable:
            return info.cands["pickup"]
        key = tuple(declaration_key(d) for d in view.declarable)
        cands = info.step_cands.get(key)
        if cands is None:
            cands = info.step_cands[key] = tuple(_Cand(info, d) for d in view.declarable
                                                 if info.games[d.game].family in ("suit", "grand"))
        return cands

    @staticmethod
    def _top_pair(hand: int, score, k: int = 2) -> Discard:
        """The ``k`` cards of ``hand`` that most want to go (a declarer may discard any)."""
        if k != 2:
            return Discard(tuple(sorted(sorted(cards_in(hand), key=lambda c: -score[c])[:k])))
        a = b = -1
        for c in cards_in(hand):
            if a < 0 or score[c] > score[a]:
                a, b = c, a
            elif b < 0 or score[c] > score[b]:
                b = c
        return Discard((a, b) if a < b else (b, a))

    def _best_pair(self, legal, score) -> Discard:
        if isinstance(legal, Discards) and len(legal.cards) >= 2:  # every pair of its cards in order: no Discard each
            cards, top, key = legal.cards, (0, 1), None
            for a in range(len(cards) - 1):
                first = score[cards[a]]
                for b in range(a + 1, len(cards)):
                    k = first + score[cards[b]]
                    if key is None or k > key:
                        top, key = (a, b), k
            return Discard((cards[top[0]], cards[top[1]]))
        best, key = legal[0], None
        for a in legal:
            k = sum(score[c] for c in a.cards)
            if key is None or k > key:
                best, key = a, k
        return best

    def _trump_discard_scores(self, hand: int, g: GameTables) -> list[float]:
        """How much each card wants to go into the skat (suit/grand)."""
        score = [-100.0] * NCARDS
        for k in range(4):
            sm = hand & g.plain[k]
            n = sm.bit_count()
            if not n:
                continue
            has_a = sm >> ACE[k] & 1
            bonus = _LEN_BONUS[n] - (2.0 if has_a and n >= 4 else 0.0)  # a long suit with the ace: keep it whole
            for c in cards_in(sm):
                r = _RANK[c]
                if r == "A":
                    s = -8.0 + (2.0 if n == 1 and g.family == "suit" else 0.0)
                elif r == "T":
                    s = -3.0 if has_a else (6.0 if n <= 2 else 3.0)
                else:
                    s = 2.0 + g.points[c] * 0.1
                score[c] = s + bonus
        # trumps go only if nothing else can (more than 10 trumps)
        for c in cards_in(hand & g.trump):
            score[c] = -50.0 - g.power[c]
        return score

    def _null_discard(self, hand: int, legal, k: int = 2) -> Discard:
        """The ``k`` cards whose removal leaves the safest null hand, among
        the highest cards of each suit (a declarer may discard any)."""
        top: list[int] = []
        for suit in range(4):
            top += cards_in(hand & SUIT_MASKS[suit])[:k]  # lowest ids = highest in null order
        best, key = None, None
        risk = self.null_risk
        for combo in combinations(top, k):
            rest = hand
            for c in combo:
                rest &= ~BIT[c]
            r = risk(rest)
            if key is None or r < key:
                best, key = combo, r
        if best is None:
            return legal[0]
        return Discard(tuple(sorted(best)))

    def _shed_scores(self, hand: int) -> list[float]:
        """How much each card wants to be passed on before the game without
        declarer (the all-pass contract): points, power and trumps."""
        g = self.info.games.get(self.rules.all_pass)
        score = [0.0] * NCARDS
        for c in cards_in(hand):
            pts = g.points[c] if g else 0
            power = g.power[c] if g else 0
            score[c] = pts + 0.3 * power + (8 if g and g.follow[c] == TRUMP else 0)
        return score

