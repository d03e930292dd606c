"""The expert under house rules that count card points (skat_card_points):
its solvers count them (tests/bots/test_solver_card_points.py checks the
values), each layout with its own skat, and its target is the declarer's
count with what the rules gave in the tricks so far - counted here by hand."""

from __future__ import annotations

from skatcore.bots.expert import ExpertPlayer, _given
from skatcore.bots.solver import trick_rule
from skatcore.cards import POINTS, parse_card
from skatcore.engine.deal import Phase
from skatcore.sim.play import play, seeded_deal
from skatcore.testing import compile_with

RULES = compile_with("official", {"cp": ("card_points", {"black_jacks": 10, "skat": "last_trick"})})
JACKS = {parse_card("CJ"), parse_card("SJ")}


class Watching(ExpertPlayer):
    """An expert that notes, at each card decision, what the rules gave the declarer so far (its ``_given``)."""

    seen: list = []  # one list for the test's players

    def act(self, view):
        if view.phase is Phase.PLAY and view.declarer is not None and view.tricks:
            d = view.declaration
            rule = trick_rule(self.rules, d.game, view.declarer)
            if rule is not None and not isinstance(rule, str):
                Watching.seen.append((tuple(view.tricks), view.declarer, _given(view, self.rules.tricks[d.game], rule)))
        return super().act(view)


def test_the_expert_plays_such_rules_with_its_solver_and_counts_what_they_gave():
    Watching.seen = []
    players_used = []
    for i in range(6):
        hands, skat, seeds = seeded_deal(21, i)
        players = [Watching(RULES, seed=s, worlds=4, bid_worlds=2, nodes=5_000) for s in seeds]
        deal = play(RULES, hands, skat, players)
        assert deal.done
        players_used += players
    assert sum(p.counters["pimc_moves"] for p in players_used) > 20  # the solver played, no fallback for the rules
    jacks_seen = 0
    for tricks, declarer, given in Watching.seen:
        by_hand = 0
        for _, cards, winner in tricks:  # 10 for both black jacks in one trick: for the declarer, or against him
            if set(cards) >= JACKS:
                by_hand += 10 if winner == declarer else -10
                jacks_seen += 1
        assert given == by_hand
    assert jacks_seen > 0


def test_a_layouts_skat_counts_at_the_end():
    """The skat to whoever takes the last trick: the solver of a layout counts that layout's skat."""
    from skatcore.bots.solver import Position, Solver

    rule = trick_rule(RULES, "grand", 0)
    assert rule is not None and not isinstance(rule, str) and rule.ends is not None
    aces = [parse_card(c) for c in ("SA", "HA")]
    sevens = [parse_card(c) for c in ("S7", "H7")]
    # the last trick: forehand (the declarer) leads D7, middlehand takes it with DA
    hands = (1 << parse_card("D7"), 1 << parse_card("DA"), 1 << parse_card("D8"))
    pos = Position(hands, 0, ())
    for skat, pts in (((1 << aces[0]) | (1 << aces[1]), 22), ((1 << sevens[0]) | (1 << sevens[1]), 0)):
        solver = Solver(RULES.tricks["grand"], 0, "points", rule=rule, skat=skat)
        assert solver.value(pos) == -pts == -(POINTS[aces[0]] + POINTS[aces[1]] if pts else 0)
        solver.new_deal(skat)
        assert solver.value(pos) == -pts
