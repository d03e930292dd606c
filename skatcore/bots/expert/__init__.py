"""The expert player: perfect-information Monte Carlo card play (sampled
layouts of the unseen cards, each solved double-dummy), solver-based discard
and contract choice, and bidding from estimated outcomes under the ruleset's
own values.  The heuristic player is its fallback and its tie-breaker."""

from __future__ import annotations

import random
import time
from collections import Counter

from skatcore.bots.expert.bidding import SolverBidding
from skatcore.bots.expert.worlds import Knowledge, all_equivalent, bidding_levels, sample
from skatcore.bots.heuristic import HeuristicPlayer
from skatcore.bots.heuristic.play import PLAY_CARD
from skatcore.bots.solver import Position, Solver
from skatcore.cards import cards_in
from skatcore.engine.deal import Phase, SeatView
from skatcore.rules.compiler import CompiledRules

SOLVABLE = ("card_points", "no_trick", "fewest_points")


class ExpertPlayer(SolverBidding, HeuristicPlayer):
    """PIMC card play over double-dummy solutions.

    For each card decision it samples ``worlds`` layouts of the cards it
    cannot see (consistent with the cards played, the voids shown, an ouvert
    hand, its own discard, and - by weighting - with how far each player
    bid), solves each layout for every card it may play, and plays the card
    that reaches the contract's goal in the most layouts: the declarer's 61
    (or the ruleset's threshold), the defenders' 60, a null without a trick;
    schneider breaks ties, then the heuristic's own choice.  In a Ramsch
    (fewest points) each layout is solved with the two others against it,
    from the last five tricks on (before that the heuristic plays).
    A hand shown to it (a straw man, ``SeatView.others``) lies where it is
    in every layout.  A contract no goal of the solver covers, and a table
    with cards in stacks or a pile or with two-card tricks, are played by the
    heuristic (``counters["fallback_moves"]``).

    :param worlds: layouts per card decision.
    :param ms: a time budget per card decision (milliseconds; at least two
        layouts are solved), instead of a fixed count.
    :param bid_worlds: layouts per contract when bidding and discarding.
    :param nodes: the solver's node budget per search (a card whose search
        runs out counts half a win in that layout).
    """

    FEWEST_POINTS_TRICKS = 5  # a game of fewest points is solved (exact points, no node budget) from this many tricks left
    MIN_WORLDS = 3  # layouts solved before a card decision may stop early

    def __init__(self, rules: CompiledRules, seed: int | None = None, worlds: int = 10, ms: float | None = None,
                 bid_worlds: int = 6, nodes: int = 20_000):
        super().__init__(rules, seed)
        self.rng = random.Random(seed)
        self.worlds = max(1, int(worlds))
        self.ms = ms
        self.bid_worlds = max(1, int(bid_worlds))
        self.nodes = max(0, int(nodes))
        self.counters: Counter = Counter()
        self._solvers: dict = {}
        # the solver plays three hands whose every card is playable: not cards in stacks or a pile, nor two-card tricks
        self._open_table = len(rules.deck.seats) == 3 and all(p.arrangement == "hand" for p in rules.table.seats)

    def act(self, view: SeatView):
        if view.phase is Phase.PLAY and len(view.legal) > 1:
            return PLAY_CARD[self._pimc(view)]
        return super().act(view)

    # -- card play ---------------------------------------------------------------
    def _solver(self, table, seat: int, goal: str) -> Solver:
        key = (id(table), seat, goal)
        s = self._solvers.get(key)
        if s is None:
            if goal == "card_points":
                s = Solver(table, seat, "points", node_limit=self.nodes)
            elif goal == "no_trick":  # the declarer maximises the others' tricks
                s = Solver(table, seat, "tricks", invert=True, node_limit=self.nodes)
            else:  # fewest points: the others take the points (exact values: no node limit)
                s = Solver(table, seat, "points", invert=True)
            self._solvers[key] = s
        return s

    def _pimc(self, view: SeatView) -> int:
        fallback = self._play(view)  # the heuristic's card: tie-breaker and fallback (keeps its state current)
        d = view.declaration
        game = d.game if d is not None else self.rules.all_pass
        contract = self.rules.contracts[game]
        goal = contract.goal
        if goal not in SOLVABLE or (goal != "fewest_points") != (view.declarer is not None) \
                or not self._open_table or (goal == "fewest_points" and view.hand.bit_count() > self.FEWEST_POINTS_TRICKS):
            self.counters["fallback_moves"] += 1
            return fallback
        table = self.rules.tricks[game]
        kn = Knowledge.of(view, table, self.rules.deck)
        legal = sum(1 << a.card for a in view.legal)
        live = self.rules.deck.mask & ~(kn.played[0] | kn.played[1] | kn.played[2]) | sum(1 << c for c in kn.trick)
        if all_equivalent(table, legal, live, goal != "no_trick"):
            self.counters["equivalent_moves"] += 1  # no layout can tell the cards apart
            return fallback
        me, declarer = view.seat, view.declarer
        solver = self._solver(table, me if declarer is None else declarer, goal)
        win = self.rules.thresholds.win
        schneider = self.rules.thresholds.schneider
        weights = self._bid_weights(view)
        scores: Counter = Counter()
        positions = []
        start = time.process_time() if self.ms is not None else 0.0
        budget = self.worlds if self.ms is None else 10_000
        n = 0
        while n < budget:
            world = self._draw(kn, weights)
            if world is None:
                break
            hands, skat = world
            n += 1
            solver.new_deal()
            pos = Position(tuple(hands[s] & ~kn.played[s] for s in range(3)), kn.leader, kn.trick)
            if goal == "card_points":
                have = kn.declarer_points + sum(table.points[c] for c in cards_in(skat))
                positions.append((pos, have))
                self._credit(scores, solver.card_values(pos, win - have), me == declarer)
            elif goal == "no_trick":  # the defenders take every trick: the null is made
                self._credit(scores, solver.card_values(pos, solver.live(pos)), me == declarer)
            else:
                for c, v in solver.card_values(pos).items():
                    scores[c] += v  # the others' points: more is better for me
            if self.ms is not None:
                if n >= 2 and (time.process_time() - start) * 1000 >= self.ms:
                    break
            elif goal != "fewest_points" and n >= self.MIN_WORLDS and self._settled(scores, n, budget - n):
                break
        if not scores:
            self.counters["fallback_moves"] += 1
            return fallback
        self.counters["pimc_moves"] += 1
        self.counters["worlds"] += n
        best = max(scores.values())
        tied = [c for c in scores if scores[c] >= best - 1e-9]
        if len(tied) > 1 and positions and best in (0, n):  # the game is decided in every layout: schneider decides
            extra: Counter = Counter()
            for pos, have in positions[:4]:
                solver.new_deal()
                self._credit(extra, solver.card_values(pos, schneider - have), me == declarer)
            top = max(extra[c] for c in tied)
            tied = [c for c in tied if extra[c] >= top - 1e-9]
        return fallback if fallback in tied else min(tied)

    @staticmethod
    def _settled(scores: Counter, n: int, left: int) -> bool:
        """Whether more layouts cannot change the choice: one card leads every
        other by more than the layouts left, or every card reaches the goal
        in every layout so far (or none does)."""
        ranked = sorted(scores.values(), reverse=True)
        if ranked[0] == ranked[-1]:
            return ranked[0] in (0, n)
        return ranked[0] - ranked[1] > left

    @staticmethod
    def _credit(scores: Counter, values: dict[int, int], maximise: bool) -> None:
        """Add one layout's answers (1 reached, 0 not, 2 unknown) from the mover's side."""
        for c, v in values.items():
            got = 0.5 if v == 2 else v
            scores[c] += got if maximise else 1 - got

    def _draw(self, kn: Knowledge, weights):
        """One world, accepted with the probability the bidding gives it."""
        world = None
        for _ in range(4):
            world = sample(kn, self.rng)
            if world is None or weights is None or self.rng.random() < weights(world[0], kn):
                return world
        return world

    def _bid_weights(self, view: SeatView):
        """How plausible a world's hands are given how far each player bid:
        a hand the heuristic would not bid as high as its player did, or
        would have bid past where its player passed, counts a quarter."""
        high, passed = bidding_levels(view)
        if not any(high) and all(p is None for p in passed):
            return None
        me = view.seat
        ladder = self.rules.ladder

        def weight(hands, kn: Knowledge) -> float:
            w = 1.0
            for s in range(3):
                if s == me:
                    continue
                if high[s] == 0 and passed[s] is None:
                    continue
                limit = self._limit(hands[s] | kn.played[s]) if (hands[s] | kn.played[s]).bit_count() == \
                    self.rules.deck.hand else None
                if limit is None:
                    continue
                if high[s] and limit < high[s]:
                    w *= 0.25
                if passed[s] is not None:
                    nxt = next((v for v in ladder if v > passed[s]), None)
                    if nxt is not None and limit >= nxt and s != view.declarer:
                        w *= 0.25
            return w

        return weight
