"""Bidding, the skat decision, declaring, a flow step's own actions and table calls."""

from __future__ import annotations

from skatcore.bots.heuristic.tables import BIT, DOUBLING_CALLS, JACK_MASK
from skatcore.engine.deal import PASS, PICK_UP, PLAY_HAND, Bid, Call, Declare, Hold, SeatView


class Bidding:
    """Part of :class:`~skatcore.bots.heuristic.HeuristicPlayer`."""

    _plan: tuple[tuple[int, ...], str] | None  # see HeuristicPlayer

    def call(self, view: SeatView) -> list[Call]:
        """Kontra as a defender holding several trumps and aces; Re as a declarer with a strong game."""
        out: list[Call] = []
        d = view.declaration
        if d is None:
            return out
        g = self.info.games[d.game]
        hand = view.hand
        for c in view.legal:
            if c.name not in DOUBLING_CALLS:
                continue  # other calls (conceding ...) it does not judge
            if view.seat == view.declarer:
                if g.family != "null" and (hand & g.trump).bit_count() >= 7:
                    out.append(c)
            elif g.family != "null" and (hand & g.trump).bit_count() >= 4 and (hand & JACK_MASK).bit_count() >= 2:
                out.append(c)
        return out

    # -- bidding, skat, discard, declaration -------------------------------------
    def _bid(self, view: SeatView):
        limit = self._limit(view.hand, view.seat == 0)
        legal = view.legal
        first = legal[0]
        if isinstance(first, Hold):
            return first if view.bid <= limit else PASS
        if isinstance(first, Bid) and first.value <= limit:
            return first
        return PASS

    def _skat(self, view: SeatView):
        legal = view.legal
        hand, bid = view.hand, view.bid
        fore = view.seat == 0
        pickup, hand_games = self._evaluate(hand, fore)
        options = []
        if PLAY_HAND in legal:
            best = self._best(hand_games, bid)
            if best:
                options.append((best[0], PLAY_HAND))
        if PICK_UP in legal:
            best = self._best(pickup, bid)
            if best:
                options.append((best[0], PICK_UP))
        if self.rules.steps_at["skat"]:  # the skat steps' offers (a turn-up ...), judged by their outlooks
            for offer, (limit, expected) in self._offers(hand, fore).items():
                if offer in legal:
                    options.append((expected if limit >= bid else expected - 100.0, offer))
        if not options:
            return legal[0]
        return max(options, key=lambda o: o[0])[1]

    def _best(self, cands, bid):
        """(expected, cand) of the best candidate (no null below the bid)."""
        best = None
        for p, v, cand in cands:
            if cand.null and v < bid:
                continue
            e = self._expected(p, v, cand.lost, bid, cand.base)
            if best is None or e > best[0]:
                best = (e, cand)
        return best

    def _declare(self, view: SeatView):
        legal = view.legal
        hand, bid, fore = view.hand, view.bid, view.seat == 0
        info = self.info
        known = hand | sum(BIT[c] for c in view.discard)
        plan = self._plan
        self._plan = None
        best, key = legal[0], None
        for a in legal:
            d = a.declaration
            g = info.games[d.game]
            if d.schneider or d.schwarz or (d.ouvert and g.family != "null"):
                continue  # no announcements in suit and grand
            if not self.rules.contracts[d.game].declarer:
                continue  # a game without declarer (a soloist's Ramsch): only when nothing else is left (legal[0])
            mat = g.table.matadors(known if view.discard else hand)
            v = info.value(d, mat)
            p = self._win_p(hand, d, fore=fore)
            if plan is not None and plan[1] == d.game:
                p = min(1.0, p + 0.05)
            e = self._expected(p, v, info.lost_factor(d), bid, self.rules.contracts[d.game].base)
            if key is None or e > key:
                best, key = a, e
        if key is None or key < 0:
            # reach the bid if the best plain game cannot: an announcement may
            for a in legal:
                d = a.declaration
                g = info.games[d.game]
                if self.rules.contracts[d.game].goal != "card_points":
                    continue
                v = info.value(d, g.table.matadors(known if view.discard else hand))
                if v >= bid and d.schneider and not (d.schwarz or d.ouvert) and self._win_p(hand, d, fore=fore) > 0.9:
                    return a
        return best

    def _step_action(self, view: SeatView):
        """A step's own actions: a declaration it expects to win (a grand hand
        instead of pushing the skat), else pick up the skat if it may, else
        the first action the step lists that is no declaration."""
        legal = view.legal
        for a in legal:
            if isinstance(a, Declare):
                d = a.declaration
                p = self._win_p(view.hand, d, fore=view.seat == 0)
                lf = self.info.lost_factor(d)
                if p >= lf / (1.0 + lf) + 0.1:
                    return a
        if PICK_UP in legal:
            return PICK_UP
        return next((a for a in legal if not isinstance(a, Declare)), legal[0])  # a declaration only when judged worth it

