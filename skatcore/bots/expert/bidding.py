"""The expert's bidding, discard and contract choice: each candidate contract
is judged by double-dummy outcomes over sampled skats and opponent hands,
valued by the ruleset's own game values and lost factors (so the player
reacts to a variant's incentives)."""

from __future__ import annotations

import random

from skatcore.bots.heuristic.tables import BIT, cards_in
from skatcore.bots.solver import Position, Solver
from skatcore.engine.deal import PASS, Bid, Declare, Discard, Hold, SeatView


class SolverBidding:
    """Part of :class:`~skatcore.bots.expert.ExpertPlayer` (mixed in before
    the heuristic player, whose estimates serve as priors)."""

    PRIOR = 2.0  # the heuristic's win probability counts as this many layouts

    # -- shared: how often a contract is won from a 12-card hand ----------------------
    def _dd_wins(self, cand, hand12: int, opponents: list[tuple[int, int]], seat: int) -> tuple[float, Discard]:
        """Share of the opponent layouts in which ``cand`` is won double-dummy
        after the heuristic's discard for it, and that discard."""
        g = cand.g
        k = self.info.skat
        if cand.null:
            pair = self._null_discard(hand12, (), k)
        else:
            pair = self._top_pair(hand12, self._trump_discard_scores(hand12, g), k)
        mine = hand12
        for c in pair.cards:
            mine &= ~BIT[c]
        contract = self.rules.contracts[cand.d.game]
        if contract.goal == "card_points":
            solver = Solver(g.table, seat, "points", node_limit=self.nodes)
            need = self.rules.thresholds.win - sum(g.points[c] for c in pair.cards)
        elif contract.goal == "no_trick":
            solver = Solver(g.table, seat, "tricks", invert=True, node_limit=self.nodes)
            need = self.rules.deck.hand
        else:
            return 0.0, pair
        wins = 0.0
        for a, b in opponents:
            hands = [0, 0, 0]
            hands[seat] = mine
            hands[(seat + 1) % 3], hands[(seat + 2) % 3] = a, b
            solver.new_deal()
            aborted = solver.aborted
            won = solver.reaches(Position(tuple(hands), 0, ()), need)
            wins += 0.5 if solver.aborted != aborted else won
        return wins / max(1, len(opponents)), pair

    def _layouts(self, unseen: int, sizes: tuple[int, ...], n: int, rng: random.Random) -> list[tuple[int, ...]]:
        """``n`` random splits of ``unseen`` into parts of ``sizes`` cards."""
        cards = list(cards_in(unseen))
        out = []
        for _ in range(n):
            rng.shuffle(cards)
            parts, i = [], 0
            for size in sizes:
                parts.append(sum(BIT[c] for c in cards[i:i + size]))
                i += size
            out.append(tuple(parts))
        return out

    def _blend(self, p_heuristic: float, p_dd: float, n: int) -> float:
        return (self.PRIOR * p_heuristic + n * p_dd) / (self.PRIOR + n)

    def _plain_pickup(self, bid: int):
        """The pickup candidates worth solving: the two suits with most trumps, grand, null."""
        return [c for c in self.info.cands["pickup"] if not c.d.ouvert and c.g.family in ("suit", "grand", "null")]

    # -- bidding -------------------------------------------------------------------
    def _bid(self, view: SeatView):
        if not self.rules.table.plain:
            return super()._bid(view)
        limit = self._expert_limit(view.hand, view.seat)
        first = view.legal[0]
        if isinstance(first, Hold):
            return first if view.bid <= limit else PASS
        if isinstance(first, Bid) and first.value <= limit:
            return first
        return PASS

    def _expert_limit(self, hand: int, seat: int) -> int:
        """The highest value whose contract is expected to score positively,
        a contract's chance being its double-dummy win share over sampled
        skats and opponent hands (picking up, the heuristic's discard),
        blended with the heuristic's estimate."""
        key = ("expert-limit", hand)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        best = self._limit(hand)  # hand games, the skat steps' offers: the heuristic's view
        if self._may_bid(hand):
            deck = self.rules.deck
            rng = random.Random(hand ^ (self.seed or 0))
            layouts = self._layouts(deck.mask & ~hand, (deck.skat, deck.hand, deck.hand), self.bid_worlds, rng)
            pickup = self._evaluate(hand)[0]
            suits = sorted((x for x in pickup if x[2].g.family == "suit"), key=lambda x: -(hand & x[2].g.trump).bit_count())
            for p, v, cand in pickup:
                if cand.d.ouvert or cand.g.family not in ("suit", "grand", "null") or \
                        cand.g.family == "suit" and all(cand is not s[2] for s in suits[:2]) or v <= best:
                    continue
                wins = 0.0
                for skat, a, b in layouts:
                    w, _ = self._dd_wins(cand, hand | skat, [(a, b)], seat)
                    wins += w
                q = self._blend(p, wins / len(layouts), len(layouts))
                if q >= self._need(v, cand.lost):
                    best = v
        self._cache[key] = best
        return best

    # -- discard and declaration -------------------------------------------------------
    def _discard(self, view: SeatView):
        if view.declarer is None or view.step is not None or not self.rules.table.plain:
            # a discard inside a step (the skat passed round, a turned card), hidden or straw-man hands
            return super()._discard(view)
        hand, bid = view.hand, view.bid
        deck = self.rules.deck
        rng = random.Random((self.seed or 0) ^ hand)
        layouts = self._layouts(deck.mask & ~hand, (deck.hand, deck.hand), self.bid_worlds, rng)
        best = None
        suits = sorted((c for c in self._plain_pickup(bid) if c.g.family == "suit"),
                       key=lambda c: -(hand & c.g.trump).bit_count())[:2]
        for cand in self._plain_pickup(bid):
            if cand.null and cand.value(0) < bid or cand.g.family == "suit" and cand not in suits:
                continue
            share, pair = self._dd_wins(cand, hand, layouts, view.seat)
            rest = hand
            for c in pair.cards:
                rest &= ~BIT[c]
            p = self._blend(self._win_p(rest, cand.d), share, len(layouts))
            v = cand.value(0 if cand.null else cand.g.table.matadors(hand))
            e = self._expected(p, v, cand.lost, bid, cand.base)
            if best is None or e > best[0]:
                best = (e, pair, cand.d.game)
        if best is None or best[1] not in view.legal:
            return super()._discard(view)
        self._expert_plan = best[2]
        return best[1]

    def _declare(self, view: SeatView):
        plan = getattr(self, "_expert_plan", None)
        self._expert_plan = None
        if plan is not None:
            for a in view.legal:
                d = a.declaration
                if isinstance(a, Declare) and d.game == plan and not (d.hand or d.ouvert or d.schneider or d.schwarz):
                    self._plan = None
                    return a
        return super()._declare(view)
