"""The expert player: perfect-information Monte Carlo card play (sampled
layouts of the unseen cards, each solved double-dummy), solver-based discard
and contract choice, and bidding from estimated outcomes under the ruleset's
own values.  The heuristic player is its fallback and its tie-breaker."""

from __future__ import annotations

import random
import time
from collections import Counter, defaultdict
from typing import ClassVar

from skatcore.bots.expert import conventions
from skatcore.bots.expert.bidding import SolverBidding
from skatcore.bots.expert.defence import Table, cheapest_key, discard_key, follow_rule, lead_class, lead_key, smear_key
from skatcore.bots.expert.inference import PlayModel, bid_weights, evidence
from skatcore.bots.expert.reuse import DealMemory, Kept
from skatcore.bots.expert.votes import Decision, Layout, Votes, credit, most_points, reaches, schneider_votes, settled
from skatcore.bots.expert.worlds import Knowledge, all_equivalent, sample
from skatcore.bots.heuristic import HeuristicPlayer
from skatcore.bots.heuristic.play import PLAY_CARD
from skatcore.bots.solver import Position, Solver, TrickRule, trick_rule
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
    that reaches the contract's goal in the most layouts (each weighted by
    how likely the bidding makes it): the declarer's 61 (or the ruleset's
    threshold), the defenders' 60, a null without a trick; where the cards
    that do best win (or lose) the game in every layout, they vote again on
    schneider (or out of it), except on a defender's lead.  With ``keep=1``
    the layouts of its last decision in the deal that still fit what it has
    seen are solved first, by the same solvers (their transposition tables
    answer much of the new positions: :mod:`~skatcore.bots.expert.reuse`).  Ties go to the
    expected card points over the layouts, then to a rule a player names: a defender's lead by
    :mod:`~skatcore.bots.expert.defence`, any other card the heuristic's, else the cheapest (with
    ``CONVENTIONS=1``: conventions fitted on XSkat's play, :mod:`~skatcore.bots.expert.conventions`).  In a Ramsch
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
    :param evidence: the other seats' latest cards a layout is weighted by
        (:mod:`~skatcore.bots.expert.inference`; 0: the bidding only).
    :param keep: 1: solve the layouts of the last card decision that still
        fit first (0, the default: sample every decision afresh; kept
        layouts were no faster with this solver and agreed less with people).
    """

    # the most a count may be (checked before any deal): 1,000 layouts, 100x the default, take seconds a card
    OPTION_LIMITS: ClassVar[dict[str, int]] = {"worlds": 1_000, "bid_worlds": 1_000}
    # rates of its counters that `skat duel` and `skat simulate` report (skatcore.sim.counters)
    COUNTER_RATES: ClassVar[dict[str, tuple[str, str]]] = {
        "layouts_per_decision": ("worlds", "pimc_moves"), "inference_changed_share": ("inference_changed", "pimc_moves"),
        "fallback_share": ("fallback_moves", "card_decisions"), "nodes_per_decision": ("solver_nodes", "pimc_moves")}
    FEWEST_POINTS_TRICKS = 5  # a game of fewest points is solved (exact points, no node budget) from this many tricks left
    MIN_WORLDS = 3  # layouts solved before a card decision may stop early
    LEAD_SLACK = 0.2  # a defender's lead within this share of the layouts of the best counts as level
    POINT_LAYOUTS = 6  # layouts whose exact card points break a tie (while within the vote's nodes)
    AGREE = PlayModel.AGREE  # the chance another seat plays the card the model (the heuristic) plays
    BID_MISFIT = 0.25  # the weight of a layout whose hand the heuristic would have bid otherwise than its player did
    SCHNEIDER = 1  # 1: where every layout wins (or loses) whatever the card, vote on schneider next
    DECLARER_WORLDS = 0  # layouts per card decision of the declarer (0: ``worlds``)
    DEFENDER_WORLDS = 0  # of a defender (0: ``worlds``)
    HEURISTIC_FIRST = 0  # 1: the heuristic's card among the level ones before the expected card points
    FOLLOW_RULES = 1  # 0: a defender's discard, second hand low and smear rules skipped (the heuristic's card)
    LEAD_SCHNEIDER = 0  # 1: the schneider vote on a defender's lead too (0: his lead rules stand)
    LEAD_POINTS = 1  # 0: a defender's level leads by his lead rules' order alone, not the expected card points first
    PLAY_SLACK = 0.0  # any other card within this share of the layouts of the best counts as level
    CONVENTIONS = 0  # 1: level cards by the fitted conventions (conventions.WEIGHTS) but a defender's lead; 2: all
    FOLLOW_POINTS = 0  # 1: a defender's level cards after the lead by the expected card points before the conventions
    DECLARER_CONVENTIONS = 2  # the declarer's: 2 the expected card points, then conventions; 1 conventions; 0 none
    record_ties = False  # True: ``last_ties`` describes the level cards of each decision (tools/bot_agreement.py)

    def __init__(self, rules: CompiledRules, seed: int | None = None, worlds: int = 10, ms: float | None = None,
                 bid_worlds: int = 6, nodes: int = 20_000, evidence: int = 6, keep: int = 0):
        super().__init__(rules, seed)
        self.rng = random.Random(seed)
        self.worlds = max(1, int(worlds))
        self.ms = ms
        self.bid_worlds = max(1, int(bid_worlds))
        self.nodes = max(0, int(nodes))
        self.evidence = max(0, int(evidence))
        self.keep = bool(int(keep))
        self._model: PlayModel | None = None
        self._memory = DealMemory()  # layouts and weights kept for the next card decision of the deal
        self.counters: Counter = Counter()
        self.last: Decision | None = None  # how the last card decision was made
        self.last_ties: tuple[str, dict] | None = None  # with record_ties: its situation and level cards described
        # the solver plays three hands whose every card is playable: not cards in stacks or a pile, nor two-card tricks
        self._open_table = len(rules.deck.seats) == 3 and all(p.arrangement == "hand" for p in rules.table.seats)

    def act(self, view: SeatView):
        if view.phase is Phase.PLAY and len(view.legal) > 1:
            self.counters["card_decisions"] += 1
            self.last_ties = None
            return PLAY_CARD[self._pimc(view)]
        return super().act(view)

    # -- card play ---------------------------------------------------------------
    def _solver(self, table, seat: int, goal: str, rule: TrickRule | None = None, skat: int | None = None) -> Solver:
        """A solver for one layout (its transposition table serves every question about that layout: the vote
        and the tie-break); ``rule``: trick winners and card points by house rules (by the layout's ``skat``)."""
        new = self._memory.solver
        if goal == "card_points":
            return new(table, seat, "points", False, self.nodes, rule, skat)
        if goal == "no_trick":  # the declarer maximises the others' tricks
            return new(table, seat, "tricks", True, self.nodes, rule)
        return new(table, seat, "points", True, 0, rule)  # fewest points: the others take them (exact, no limit)

    def _trick_rule(self, game: str, declarer: int | None) -> TrickRule | str | None:
        """Who takes a trick in ``game`` where a plugin decides it (``str``: why no solver can play it)."""
        key = ("solver_trick_rule", game, declarer)
        if key not in self.rules.cache:
            self.rules.cache[key] = trick_rule(self.rules, game, declarer)
        return self.rules.cache[key]

    def _pimc(self, view: SeatView) -> int:
        fallback = self._play(view)  # the heuristic's card: tie-breaker and fallback (keeps its state current)
        d = view.declaration
        game = d.game if d is not None else self.rules.all_pass
        contract = self.rules.contracts[game]
        goal = contract.goal
        if goal not in SOLVABLE or (goal != "fewest_points") != (view.declarer is not None) \
                or not self._open_table or (goal == "fewest_points" and view.hand.bit_count() > self.FEWEST_POINTS_TRICKS):
            self.counters["fallback_moves"] += 1
            self.last = Decision("fallback")
            return fallback
        rule = self._trick_rule(game, view.declarer)
        if isinstance(rule, str):  # a plugin decides trick winners and no table holds them
            self.counters["fallback_moves"] += 1
            self.last = Decision("fallback")
            return fallback
        table = self.rules.tricks[game]
        kn = Knowledge.of(view, table, self.rules.deck)
        legal = sum(1 << a.card for a in view.legal)
        live = self.rules.deck.mask & ~(kn.played[0] | kn.played[1] | kn.played[2]) | sum(1 << c for c in kn.trick)
        if rule is None and all_equivalent(table, legal, live, goal != "no_trick"):
            self.counters["equivalent_moves"] += 1  # no layout can tell the cards apart
            self.last = Decision("equivalent")
            return fallback
        me, declarer = view.seat, view.declarer
        win = self.rules.thresholds.win
        given = _given(view, table, rule) if rule is not None and rule.offset else 0  # house rules' card points so far
        kept = self._memory.start(view, kn, goal, self.keep)  # the last decision's layouts that still fit, solved first
        weights = self._weights(view, kn, table)
        scores: Votes = defaultdict(float)  # weighted by how likely the bidding makes each layout
        plain: Votes = defaultdict(float)   # the same, every layout counted alike
        positions: list[Layout] = []
        haves: list[int] = []  # the declarer's card points so far in each layout (his skat's included)
        layouts: list[Kept] = []
        contenders: list[int] | None = None  # the cards still searched (None: every legal card)
        lead = not view.trick and declarer is not None and me != declarer and goal == "card_points"
        start = time.process_time() if self.ms is not None else 0.0
        budget = (self.DECLARER_WORLDS or self.worlds) if me == declarer else (self.DEFENDER_WORLDS or self.worlds)
        if self.ms is not None:
            budget = 10_000
        n = 0
        mass = heaviest = 0.0
        gone = kn.played
        while n < budget:
            if kept:
                k = kept.pop(0)
                hands, skat, solver = k.hands(kn), k.skat, k.solver
                self.counters["reused_worlds"] += 1
            else:
                world = sample(kn, self.rng)
                if world is None:
                    break
                hands, skat = world
                solver = self._solver(table, me if declarer is None else declarer, goal, rule, skat)
                k = Kept((hands[0] | gone[0], hands[1] | gone[1], hands[2] | gone[2]), skat, solver)
            n += 1
            layouts.append(k)
            w = 1.0 if weights is None else weights(hands, skat)
            mass += w
            heaviest = max(heaviest, w)
            pos = Position(hands, kn.leader, kn.trick)
            one: Votes = defaultdict(float)
            positions.append(Layout(pos, w, solver, solver.nodes))
            if goal == "card_points":
                have = kn.declarer_points + sum(table.points[c] for c in cards_in(skat)) + given
                haves.append(have)
                credit(one, self._reaches(solver, pos, win - have, contenders), me == declarer)
            elif goal == "no_trick":  # the defenders take every trick: the null is made
                credit(one, self._reaches(solver, pos, solver.live(pos), contenders), me == declarer)
            else:
                one.update(solver.card_values(pos))  # the others' points: more is better for me
            for c, v in one.items():
                scores[c] += w * v
                plain[c] += v
            if goal != "fewest_points" and n >= self.MIN_WORLDS and self.ms is None:
                # a card that cannot catch up with the best (or come within a lead's slack of it) in the layouts
                # left, each weighing no more than the heaviest so far, is searched no more
                left = (budget - n) * heaviest
                reach = left + (self.LEAD_SLACK * (mass + left) if lead else 0.0) + 1e-9
                top = max(scores.values())
                contenders = [c for c in one if top - scores[c] <= reach]
            if self.ms is not None:
                if n >= 2 and (time.process_time() - start) * 1000 >= self.ms:
                    break
            elif goal != "fewest_points" and n >= self.MIN_WORLDS and settled(scores, mass, (budget - n) * heaviest):
                break
        if not scores:
            self.counters["fallback_moves"] += 1
            self.last = Decision("fallback")
            return fallback
        self._memory.keep(layouts + kept)  # kept layouts this decision did not need are as good for the next
        self.counters["pimc_moves"] += 1
        self.counters["worlds"] += n
        if goal == "card_points" and self.SCHNEIDER and (not lead or self.LEAD_SCHNEIDER):  # a defender's lead: his rules stand
            again = schneider_votes(scores, mass, positions, haves, me == declarer, self.rules.thresholds, self._reaches)
            self.counters["schneider_votes"] += again is not scores
            scores = again
        vote_nodes = sum(lay.nodes for lay in positions)
        card, how, tied = self._choose(view, kn, table, scores, mass,
                                       positions if goal == "card_points" else [], fallback, live, lead)
        nodes = sum(lay.nodes for lay in positions)
        self.counters["solver_nodes"] += nodes
        self.counters["point_nodes"] += nodes - vote_nodes
        self.last = Decision(how, dict(scores), mass, tuple(tied), n)
        if weights is not None:
            self.counters["inference_moves"] += 1
            searched = contenders if contenders is not None else list(plain)  # the cards searched in every layout
            top = max(plain[c] for c in searched)
            if card in searched and plain[card] < top - 1e-9:  # every layout alike would have made another the best
                self.counters["inference_changed"] += 1
        return card

    def _choose(self, view, kn: Knowledge, table, scores: Votes, mass: float, positions: list[Layout],
                fallback: int, live: int, lead: bool) -> tuple[int, str, list[int]]:
        """The best card by the layouts' votes, where they leave several level a tie-break (the class's
        docstring); also the step that decided and the cards the votes left level."""
        best = max(scores.values())
        g = self.info.games[view.declaration.game if view.declaration is not None else self.rules.all_pass]
        # a defender's lead: the layouts are few and a lead's effect is far off; a lead the rules
        # prefer stands unless the layouts count it clearly worse
        slack = (self.LEAD_SLACK if lead else self.PLAY_SLACK) * mass + 1e-9
        tied = level = [c for c in scores if scores[c] >= best - slack]
        if len(tied) == 1:
            return tied[0], "vote", level
        conventional = bool(positions) and (self.CONVENTIONS >= 2 or (bool(self.CONVENTIONS) and not lead))
        if self.record_ties or conventional:
            where, described = conventions.describe(view, kn, g, tied, fallback, live)
            self.last_ties = (where, described) if self.record_ties else None
        # the expected card points first: the declarer's level cards (DECLARER_CONVENTIONS 0 or 2), a defender's (FOLLOW_POINTS)
        mine = view.seat == view.declarer
        points_first = conventional and (self.DECLARER_CONVENTIONS != 1 if mine else bool(self.FOLLOW_POINTS))
        if conventional and not points_first:
            return conventions.choose(g, where, described, tied), "convention", level
        t = Table.of(view, kn, g) if lead else None
        if t is not None:  # the lead a strong defender plays, among those the layouts leave
            first = min(lead_class(g, t, c) for c in tied)
            tied = [c for c in tied if lead_class(g, t, c) == first]
            if len(tied) == 1:
                return tied[0], "lead_rule", level
        if self.HEURISTIC_FIRST and t is None and fallback in tied:
            return fallback, "heuristic", level
        if positions and (t is None or self.LEAD_POINTS):
            tied = most_points(table, positions, tied, view.seat == view.declarer, live, self.nodes, self.POINT_LAYOUTS)
            if len(tied) == 1:
                return tied[0], "points", level
        if points_first and (self.DECLARER_CONVENTIONS == 2 or not mine):
            return conventions.choose(g, where, described, tied), "convention", level
        if t is not None:
            return min(tied, key=lambda c: lead_key(g, t, c)), "lead_key", level
        follow = follow_rule(view, kn, g) if positions and self.FOLLOW_RULES else None
        if follow == "discard":  # void, the partner not winning: keep the long suits, get void in a short one
            return min(tied, key=lambda c: discard_key(g, view.hand, c)), "discard", level
        if follow == "second":  # second hand low: no points onto the partner's card before the declarer has played
            return min(tied, key=lambda c: cheapest_key(g, c)), "second_low", level
        if fallback in tied:
            return fallback, "heuristic", level
        if follow == "smear":
            return min(tied, key=lambda c: smear_key(g, c)), "smear", level
        return min(tied, key=lambda c: cheapest_key(g, c)), "cheapest", level

    @staticmethod
    def _reaches(solver: Solver, pos: Position, need: int, cards: list[int] | None) -> dict[int, int]:
        """One layout's answers for the cards still searched (a subclass may search others: the tests do)."""
        return reaches(solver, pos, need, cards)

    def _weights(self, view: SeatView, kn: Knowledge, table):
        """How likely a layout ``(hands, skat)`` is given the bidding and
        the other seats' cards (None: nothing to tell layouts apart)."""
        bids = self._bid_weights(view)
        found = evidence(view, kn, view.seat, self.evidence) if self.evidence else []
        if bids is None and not found:
            return None
        if self._model is None:
            self._model = PlayModel(self.rules, self.seed)
            self._model.AGREE = self.AGREE
        model = self._model
        priors, likelihoods = self._memory.priors, self._memory.evidence
        played = kn.played

        def weight(hands, skat: int) -> float:
            w = 1.0
            if bids is not None:  # the bidding's weight depends on the hands as dealt only
                dealt = (hands[0] | played[0], hands[1] | played[1], hands[2] | played[2])
                w = priors.get(dealt, -1.0)
                if w < 0:
                    w = priors[dealt] = bids(hands, kn)
            return w * model.weight(view, table, found, hands, skat, likelihoods) if found else w

        return weight

    def _bid_weights(self, view: SeatView):
        """How plausible a world's hands are given how far each player bid
        (:func:`~skatcore.bots.expert.inference.bid_weights`, by the heuristic's limit)."""
        return bid_weights(view, self._limit, self.rules.ladder, self.rules.deck.hand, self.BID_MISFIT)


def _given(view: SeatView, table, rule: TrickRule) -> int:
    """What house rules' card points gave the declarer in the tricks taken so far (against him: a defender's)."""
    given, left = 0, 30
    for leader, cards, winner in view.tricks:
        left -= 3
        points = sum(table.points[c] for c in cards)
        given += rule.counted(tuple(cards), left, leader, view.declarer, points) - (points if winner == view.declarer else 0)
    return given
