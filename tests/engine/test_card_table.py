"""Card-point rules (skat_card_points) on the compiled paths: the tables of
skatcore.engine.card_table agree with the rules key by key (counted here
by hand), a rule that reads more than the key, or answers from anything but
its arguments, is refused with the reason and its deals are scored on their
own facts, and the compiled engine and the compiled heuristic give Deal's
rows under such rulesets - the points crossing every line and the deck's
120 both ways."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from engine.test_compiled import assert_same_as_deal
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcore.bots.heuristic.compiled import play_heuristic
from skatcore.cards import POINTS, parse_card
from skatcore.engine.card_table import END_SHAPE, SKATS, card_tables, explore, tabled
from skatcore.engine.compiled import engine_tables, play_random
from skatcore.engine.trick_table import C0, C1, C2, SLOT
from skatcore.hookspecs import hookimpl
from skatcore.model import CardPointRule
from skatcore.sim.dealing import seeded_deals
from skatcore.testing import compile_with

JACKS = {parse_card("CJ"), parse_card("SJ")}
VALUED = ("clubs", "spades", "hearts", "diamonds", "grand")


def card_rules(**params):
    return compile_with("official", {"card_points": ("card_points", params)})


def test_the_black_jacks_by_hand():
    rules = card_rules(black_jacks=10)
    t = card_tables(rules)
    contracts = list(rules.contracts)
    want = np.array([10 if {a, b, c} >= JACKS else 0 for a, b, c in zip(C0, C1, C2, strict=True)])
    for name in VALUED:
        assert (t.trick[t.row[contracts.index(name), 0], SLOT] == want).all()
        assert t.row[contracts.index(name), 1] == -1  # no end rule
    assert (t.row[contracts.index("null")] == -1).all()  # a null counts no card points
    assert t.calls == 1 + len(SLOT)  # the contract never read: one walk over the tricks


@pytest.mark.parametrize("bonus", [0, 10])
def test_the_skat_and_the_last_trick_by_hand(bonus):
    """The skat's points count against the declarer where a defender took the last trick;
    ``bonus`` to whoever took it, for the declarer or against him."""
    rules = card_rules(last_trick=bonus, skat="last_trick")
    t = card_tables(rules)
    grid = t.end[t.row[0, 1]].reshape(END_SHAPE)
    for decl, last, taken in itertools.product(range(3), range(3), range(1, 10)):
        for lo, hi in SKATS:
            skat = POINTS[lo] + POINTS[hi]
            want = bonus if last == decl else -bonus - skat
            assert grid[decl, last, taken, lo << 5 | hi] == want
    assert len(set(t.row[:5, 1])) == 1  # one row for every suit and grand
    assert t.calls < 40_000  # the skat is walked only where a defender took the last trick


def test_explore_walks_only_what_is_read():
    """A function of three parts that reads ``b`` only where ``a`` is odd and
    ``c`` only where ``b`` is 2: explore's leaves give its every answer, in
    far fewer calls than the parts' product."""
    rng = random.Random(7)
    values = {(a, b, c): rng.randrange(100) for a in range(5) for b in range(4) for c in range(6)}

    def f(a, b, c, read):
        read.add("a")
        if a % 2 == 0:
            return values[a, 0, 0]
        read.add("b")
        if b != 2:
            return values[a, b, 0]
        read.add("c")
        return values[a, b, c]

    def ask(assigned):
        read: set[str] = set()
        k = {"a": 0, "b": 0, "c": 0, **assigned}
        return f(k["a"], k["b"], k["c"], read), read

    budget = [10_000]
    leaves = explore([("a", list(range(5))), ("b", list(range(4))), ("c", list(range(6)))], ask, budget)
    for a, b, c in values:
        got = [v for k, v in leaves if all(k.get(p, x) == x or p not in k for p, x in zip("abc", (a, b, c), strict=True))]
        assert got == [f(a, b, c, set())]
    assert 10_000 - budget[0] < 5 * 4 * 6 / 2


# -- rules the tables cannot hold ------------------------------------------------------


def rule(**kw):
    class One:
        @hookimpl
        def skat_card_points(self):
            return [CardPointRule("house", "for the house", **kw)]
    return One


class Counting:
    """Counts its calls: state kept between them."""

    def __init__(self):
        self.n = 0

    def jacks(self, t, f):
        self.n += 1
        return 10 if set(t.cards) >= JACKS else 0

    @hookimpl
    def skat_card_points(self):
        return [CardPointRule("counting", "for the jacks", trick=self.jacks)]


REFUSED = {
    "declarer's jacks": (rule(trick=lambda t, f: 10 if set(t.cards) >= JACKS and t.winner == f.declarer else 0),
                         "reads declarer (test_card_table.py:"),
    "the leader": (rule(trick=lambda t, f: 5 if t.leader == 0 else 0), "reads the trick's leader, outside"),
    "hand games": (rule(end=lambda f: {f.declarer: 10} if f.declaration.hand else {}), "reads declaration (test_card_table.py:"),
    "every trick": (rule(end=lambda f: {t.winner: 1 for t in f.tricks}), "reads every trick, outside"),
    "to another seat": (rule(trick=lambda t, f: {0: 5} if set(t.cards) >= JACKS else 0), "answers {0: 5}: the tables hold an int"),
    "random": (rule(trick=lambda t, f: random.choice([0, 0, 1]) if set(t.cards) >= JACKS else 0), "a rule's code"),
    "state": (Counting, "a rule's code reads the attribute n (test_card_table.py:"),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_a_rule_reading_more_than_the_key_is_scored_on_each_deals_facts(case):
    plugin, why = REFUSED[case]
    rules = compile_with("official", {"house": plugin})
    got = card_tables(rules)
    assert isinstance(got, str) and got.startswith("card points by house rules (") and why in got, got
    assert not tabled(rules)
    tables = engine_tables(rules)
    assert tables.why == got
    if case != "random":  # its answers differ from Deal's replay of the same deal by design
        out = play_random(rules, 40, seed=3, keep=True)
        assert out.own_facts.any()  # (a key whose scoring read nothing outside it stays tabulated)
        assert_same_as_deal(rules, out, range(40))


# -- every path gives Deal's rows -------------------------------------------------------


class Swing:
    """``points`` to whoever takes a trick holding an ace (-``points`` where the
    rule takes them): the declarer's count goes past 120 and below 0."""

    params_schema = {"type": "object", "properties": {"points": {"type": "integer"}}}

    def __init__(self, points=40):
        self.points = points

    def aces(self, t, f):
        return self.points if any(c % 8 == 0 for c in t.cards) else 0  # ids 0, 8, 16, 24: the aces

    @hookimpl
    def skat_card_points(self):
        return [CardPointRule("aces", "for the aces", trick=self.aces)]


RULESETS = {
    "black jacks and the skat": lambda: card_rules(black_jacks=10, skat="last_trick"),
    "the last trick, texas": lambda: compile_with("texas", {"cp": ("card_points", {"last_trick": 30})}),
    "40 for an ace": lambda: compile_with("official", {"swing": Swing}),
    "-40 for an ace": lambda: compile_with("official", {"swing": (Swing, {"points": -40})}),
    "pub (calls)": lambda: compile_with("pub", {"cp": ("card_points", {"black_jacks": 20, "skat": "last_trick"})}),
}


@pytest.mark.parametrize("name", list(RULESETS))
def test_the_compiled_engines_give_deal_rows(name):
    rules = RULESETS[name]()
    tables = engine_tables(rules, hand_back=True)
    assert tabled(rules) and tables.why is None
    played = [play_random(rules, 150, seed=5, keep=True)] if not tables.hands_back else []  # (pub: pushes)
    heur = play_heuristic(rules, seeded_deals(6, 0, 150), 6, 0, keep=True, hand_back=True)
    rows = [i for i in range(150) if not heur.unfinished[i]]
    if played:
        assert_same_as_deal(rules, played[0], range(150))
    assert_same_as_deal(rules, heur, rows)
    if name.startswith("pub"):
        assert heur.said  # Kontra called: scored with the calls, from the adjusted points
    for o in (*played, heur):
        for i in rows:
            want = o.replay(i).result() if o.declarer[i] >= 0 and o.multiplier[i] >= 0 else None
            if want is not None:
                assert o.brief(i).declarer_points == want.declarer_points


def test_deals_without_declarer_are_replayed_without_being_asked_to_keep_the_bidding():
    """Texas plays a Ramsch when all pass: its card points are scored on each deal's own facts,
    replayed from the bidding the engine keeps for it."""
    rules = RULESETS["the last trick, texas"]()
    heur = play_heuristic(rules, seeded_deals(8, 0, 300), 8, 0, hand_back=True)
    ramsch = [i for i in range(300) if heur.declarer[i] < 0 and heur.contract[i] >= 0]
    assert ramsch and heur.own_facts[ramsch].all()
    assert_same_as_deal(rules, heur, ramsch)


@settings(deadline=None, max_examples=8)
@given(st.integers(0, 2**31), st.sampled_from(["40 for an ace", "-40 for an ace"]))
def test_points_beyond_the_deck_are_judged_as_deal_judges_them(seed, name):
    rules = RULESETS[name]()
    out = play_random(rules, 60, seed=seed, keep=True)
    assert_same_as_deal(rules, out, range(60))
