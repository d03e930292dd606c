"""The double-dummy solver under house rules that count card points
(skat_card_points): its value and every card's value agree with a brute
force over every play line of the last three or four tricks, the points
asked of the rules themselves (their ``trick`` and ``end`` functions) - not
of the tables the solver reads (skatcore.engine.card_table) - and
analyse() / skat solve play such a deal to the adjusted count Deal gives."""

from __future__ import annotations

import random
from functools import cache

import pytest
from brute_play import brute as play_out
from brute_play import ending as deal_ending
from seven_takes import SevenTakes  # tests/seven_takes.py

from skatcore.bots.analysis import NotSolvable, analyse
from skatcore.bots.solver import Position, Solver, trick_rule
from skatcore.cards import parse_card
from skatcore.engine.scoring import make_facts
from skatcore.hookspecs import hookimpl
from skatcore.model import CardPointRule, Declaration, Trick
from skatcore.testing import compile_with
from skatcore.testing import play_random as play_deals

JACKS = (parse_card("CJ"), parse_card("SJ"))
GAMES = ("clubs", "spades", "hearts", "diamonds", "grand")


class Aces:
    """5 card points to whoever takes a trick holding an ace (four such tricks at most)."""

    @hookimpl
    def skat_card_points(self):
        return [CardPointRule("aces", "for the aces", trick=lambda t, f: 5 if any(c % 8 == 0 for c in t.cards) else 0)]


@cache
def rulesets():
    cp = ("card_points", {"black_jacks": 10, "last_trick": 10, "skat": "last_trick"})
    return {"card points": compile_with("official", {"cp": cp}),
            "aces": compile_with("official", {"aces": Aces}),
            "with a trick rule": compile_with("official", {"cp": cp, "seven_takes": SevenTakes})}


def trick_points(rules, game, cards, leader, declarer, skat, last: bool) -> tuple[int, int]:
    """Who takes the trick ``cards``, and what it adds to the declarer's count, by the rules' own functions."""
    table = rules.tricks[game]
    w = (leader + rules.trick_winner(game, cards, 10 if last else 1, leader, declarer)) % 3
    net = sum(table.points[x] for x in cards) if w == declarer else 0
    contract = rules.contracts[game]
    facts = make_facts(rules, contract, Declaration(game), bid=18, declarer=declarer, matadors=1, declarer_points=60,
                       declarer_tricks=5, defender_tricks=5)
    for r in rules.card_points:
        if r.trick is not None:
            got = r.trick(Trick(leader, list(cards), w), facts)
            net += got if w == declarer else -got
        if r.end is not None and last:  # the end of a game played out: the last trick, the skat
            tricks = (*[Trick(0, [], 0)] * 9, Trick(leader, list(cards), w))
            end = make_facts(rules, contract, Declaration(game), bid=18, declarer=declarer, matadors=1,
                             declarer_points=60, declarer_tricks=5, defender_tricks=5, tricks=tricks,
                             last_trick=tuple(cards), last_trick_winner=w, skat=skat)
            net += sum(n if s == declarer else -n for s, n in r.end(end).items())
    return w, net


def brute(rules, game, hands, leader, trick, declarer, skat):
    """What the declarer adds to his count from here, every play line tried."""
    return play_out(rules, game, hands, leader, trick, declarer,
                    lambda cards, lead, left: trick_points(rules, game, cards, lead, declarer, skat, left == 0))


def ending(rng, tricks):
    """Random hands of ``tricks`` cards each, both black jacks among them most of the time, and a skat of two others."""
    hands, rest = deal_ending(rng, tricks, JACKS)
    return hands, tuple(sorted(rest[-2:]))


@pytest.mark.parametrize("which", ["card points", "aces", "with a trick rule"])
def test_the_solver_agrees_with_brute_force(which):
    rules = rulesets()[which]
    rng = random.Random(sum(map(ord, which)))
    differs = 0
    for case in range(30):
        game = rng.choice(GAMES)
        tricks = 3 if case % 3 else 4
        declarer, leader = rng.randrange(3), rng.randrange(3)
        hands, skat = ending(rng, tricks)
        rule = trick_rule(rules, game, declarer)
        assert rule is not None and not isinstance(rule, str), rule
        solver = Solver(rules.tricks[game], declarer, "points", rule=rule, skat=(1 << skat[0]) | (1 << skat[1]))
        plain = Solver(rules.tricks[game], declarer, "points")
        pos = Position(hands, leader, ())
        for _ in range(3):  # the opening of the ending, and after one and two cards of its first trick
            want = brute(rules, game, pos.hands, pos.leader, pos.trick, declarer, skat)
            assert solver.value(pos) == want, (which, game, case, pos)
            assert solver.reaches(pos, want) and not solver.reaches(pos, want + 1)
            differs += plain.value(pos) != want  # the cards' points alone would have said otherwise
            for card, v in solver.card_values(pos).items():
                after, w = solver.play(pos, card)
                taken = 0
                if w is not None:
                    _, taken = trick_points(rules, game, (*pos.trick, card), pos.leader, declarer, skat,
                                            after.hands == (0, 0, 0))
                assert v == taken + brute(rules, game, after.hands, after.leader, after.trick, declarer, skat)
            card = rng.choice([c for c in range(32) if pos.legal(rules.tricks[game]) >> c & 1])
            pos = solver.play(pos, card)[0]
    assert differs > 5


class Big:
    """40 card points for a trick holding an ace: up to 160 a deal, more than the solver counts."""

    @hookimpl
    def skat_card_points(self):
        return [CardPointRule("big", "for the aces", trick=lambda t, f: 40 if any(c % 8 == 0 for c in t.cards) else 0)]


def test_points_beyond_what_the_solver_counts_are_declined_with_the_reason():
    rules = compile_with("official", {"big": Big})
    why = trick_rule(rules, "grand", 0)
    assert why == "house rules' card points of up to 160 a deal: more than the double-dummy solver counts"
    deal = next(d for d in play_deals(rules, 3, deals=40) if d.contract is not None and d.contract.name == "grand")
    with pytest.raises(NotSolvable, match="more than the double-dummy solver counts"):
        analyse(deal)


def test_analyse_plays_a_deal_to_the_count_deal_gives():
    rules = rulesets()["card points"]
    seen = 0
    for deal in play_deals(rules, 8, deals=40):
        if deal.declarer is None or deal.contract.no_trick or len(deal.tricks) < 10:
            continue
        result = analyse(deal)
        assert result["complete"] and result["played"] == deal.facts().declarer_points
        seen += 1
    assert seen >= 10
