"""The double-dummy solver under a plugin that decides trick winners: its
value and every card's value agree with a brute force over every play line
of the last three or four tricks, the trick winners asked of the plugin
itself (CompiledRules.trick_winner) - not of the table the solver reads
(skatcore.engine.trick_table) - and analyse() / skat solve play such a deal."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from brute_play import brute as play_out
from brute_play import ending as deal_ending
from seven_takes import SevenTakes  # tests/seven_takes.py

from skatcore.bots.solver import Position, Solver, trick_rule
from skatcore.cards import parse_card
from skatcore.hookspecs import hookimpl
from skatcore.rules.compiler import get_rules
from skatcore.rules.trust import trusting
from skatcore.testing import compile_with

SEVENLAST = Path(__file__).resolve().parents[2] / "examples" / "house-sevenlast" / "house-sevenlast.yaml"


class LeaderTakesLast:
    """Whoever leads the last trick takes it, unless the declarer plays a jack to it (reads last,
    leader and declarer; null too)."""

    @hookimpl
    def skat_trick_winner(self, cards, last, leader, declarer):
        if not last:
            return None
        for i, c in enumerate(cards):
            if declarer is not None and (leader + i) % 3 == declarer and c % 8 == 3:  # the jacks: ids 3, 11, 19, 27
                return i
        return 0


@cache
def rulesets():
    with trusting():
        sevenlast = get_rules(str(SEVENLAST))
    return {"sevenlast": sevenlast, "seven_takes": compile_with("official", plugins={"seven_takes": SevenTakes}),
            "leader_last": compile_with("official", plugins={"leader_last": LeaderTakesLast})}


def brute(rules, game, hands, leader, trick, declarer, tricks_goal, invert):
    """What the counted side takes from here (the declarer's, or with ``invert`` the others'), every
    play line tried: the declarer maximises it, the others minimise it."""
    table = rules.tricks[game]

    def judge(cards, lead, left):
        w = (lead + rules.trick_winner(game, cards, 10 - left // 3, lead, declarer)) % 3
        counted = (w == declarer) != invert
        return w, ((1 if tricks_goal else sum(table.points[x] for x in cards)) if counted else 0)

    return play_out(rules, game, hands, leader, trick, declarer, judge)


def ending(rng, game, rules, tricks):
    """Random hands of ``tricks`` cards each, the seven of trumps among them most of the time."""
    seven = next((parse_card(t) for t in rules.tricks[game].order.trumps if t[1] == "7"), None)
    return deal_ending(rng, tricks, () if seven is None else (seven,))[0]


@pytest.mark.parametrize("which", ["sevenlast", "seven_takes", "leader_last"])
def test_the_solver_agrees_with_brute_force(which):
    rules = rulesets()[which]
    rng = random.Random(sum(map(ord, which)))
    differs = 0
    for case in range(40):
        game = rng.choice(["clubs", "spades", "hearts", "diamonds", "grand", "null"])
        null = game == "null"
        tricks = 3 if case % 3 else 4
        declarer, leader = rng.randrange(3), rng.randrange(3)
        hands = ending(rng, game, rules, tricks)
        rule = trick_rule(rules, game, declarer)
        assert rule is not None and not isinstance(rule, str)
        solver = Solver(rules.tricks[game], declarer, "tricks" if null else "points", invert=null, rule=rule)
        plain = Solver(rules.tricks[game], declarer, "tricks" if null else "points", invert=null)
        # the opening of the ending, and after one and two cards of its first trick
        pos = Position(hands, leader, ())
        for _ in range(3):
            want = brute(rules, game, pos.hands, pos.leader, pos.trick, declarer, null, null)
            assert solver.value(pos) == want, (which, game, case, pos)
            differs += plain.value(pos) != want  # the card order would have said otherwise
            for card, v in solver.card_values(pos).items():
                after, w = solver.play(pos, card)
                taken = 0
                if w is not None and (w == declarer) != null:
                    taken = 1 if null else sum(rules.tricks[game].points[x] for x in (*pos.trick, card))
                assert v == taken + brute(rules, game, after.hands, after.leader, after.trick, declarer, null, null)
            card = rng.choice([c for c in range(32) if pos.legal(rules.tricks[game]) >> c & 1])
            pos = solver.play(pos, card)[0]
    assert differs >= 5  # the rule mattered in these endings


MOOD = {"on": True}


class Moody:
    """Reads a global that can change: no table holds it, so no solver plays it."""

    @hookimpl
    def skat_trick_winner(self, cards):
        return 0 if MOOD["on"] and 31 in cards else None


def test_analyse_declines_a_rule_no_table_holds():
    from skatcore.bots.analysis import NotSolvable, analyse
    from skatcore.testing import play_random

    rules = compile_with("official", plugins={"moody": Moody})
    rng = random.Random(5)
    deal = next(d for d in (play_random(rules, rng)[0] for _ in range(50)) if d.declarer is not None and d.tricks)
    with pytest.raises(NotSolvable, match=r"reads the global MOOD, a dict that can change .*: the double-dummy solver "
                                          r"plays a trick-winner rule only from its table"):
        analyse(deal)


def test_the_expert_plays_the_rule():
    """The expert's layouts are solved under the rule (its solvers carry the
    table), and a deal it plays goes by the rule to the end."""
    from skatcore.bots.expert import ExpertPlayer
    from skatcore.sim.play import play, seeded_deal

    rules = rulesets()["sevenlast"]
    ruled = 0
    for i in range(3):
        hands, skat, seeds = seeded_deal(4, i)
        players = [ExpertPlayer(rules, seed=s, worlds=4, bid_worlds=2) for s in seeds]
        deal = play(rules, hands, skat, players)
        assert deal.done
        for p in players:
            ruled += sum(k.solver.rule is not None for k in p._memory.layouts)
            assert p.counters["pimc_moves"] > 0 or deal.contract is None
    assert ruled > 0
