"""Card points by hook (skat_card_points, docs/rules/house-rules.md#b15):
the points are counted before the lines are judged, the explanation and
the facts show both counts, and every path - Deal, the compiled engines,
the ISS replay, deal records - gives the same, or refuses what it cannot
know.  Expected values come from the tricks counted here by hand
(:func:`hand_count`), never from the code under test."""

from __future__ import annotations

import pytest
from engine.test_compiled import assert_same_as_deal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatcore import get_rules
from skatcore.bots.heuristic import HeuristicPlayer
from skatcore.bots.heuristic.compiled import play_heuristic
from skatcore.cards import POINTS, cards_in, parse_card
from skatcore.engine.compiled import engine_tables, play_random
from skatcore.errors import InputError
from skatcore.hookspecs import hookimpl
from skatcore.model import SEATS, CardPointRule, Thresholds, Trick, WinCondition
from skatcore.records import iss_fast
from skatcore.records.iss import score_line
from skatcore.sim.dealing import seeded_deals
from skatcore.sim.play import play, seeded_deal
from skatcore.sim.speed import iss_line
from skatcore.testing import compile_with, score
from skatcore.testing import play_random as play_deals

OFFICIAL = get_rules("official")
BLACK_JACKS = compile_with("official", {"card_points": ("card_points", {"black_jacks": 10})})
LAST_TRICK = compile_with("official", {"card_points": ("card_points", {"last_trick": 10, "skat": "last_trick"})})
JACKS = {parse_card("CJ"), parse_card("SJ")}


def hand_count(deal) -> tuple[list[int], int, int | None]:
    """Each seat's card points in its tricks, the skat's, and who took both black jacks in one trick."""
    points, jacks = [0, 0, 0], None
    for t in deal.tricks:
        points[t.winner] += sum(POINTS[c] for c in t.cards)
        if JACKS.issubset(t.cards):
            jacks = t.winner
    return points, sum(POINTS[c] for c in cards_in(deal.skat)), jacks


def played_out(rules, seed: int, deals: int = 60):
    """Declarer games with card points (no null) played to their last trick."""
    return [d for d in play_deals(rules, seed, deals=deals)
            if d.declarer is not None and not d.contract.no_trick and len(d.tricks) == 10 and not d.concession_by]


def _lines(th: Thresholds, points: int) -> tuple[bool, bool, bool]:
    return points >= th.win, points >= th.schneider, points < th.out_of_schneider


# -- the count, by hand --------------------------------------------------------------


@settings(deadline=None, max_examples=25, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_the_black_jacks_count_for_their_taker_before_the_lines(seed):
    for deal in played_out(BLACK_JACKS, seed):
        points, skat, jacks = hand_count(deal)
        raw = points[deal.declarer] + skat
        bonus = 0 if jacks is None else 10 if jacks == deal.declarer else -10  # a defender's count against the declarer
        f = deal.facts()
        assert (f.raw_points, f.declarer_points, f.given) == (raw, raw + bonus, bonus)
        assert (f.made_points, f.defenders_schneider, f.declarer_schneider) == _lines(f.thresholds, raw + bonus)
        assert [(i.name, i.seat, i.points) for i in f.card_points] == ([] if jacks is None else [("black_jacks", jacks, 10)])
        result = deal.result()
        assert result.declarer_points == raw + bonus and result.extra["card_points"]["raw"] == raw
        if jacks is not None:
            sign = "+" if jacks == deal.declarer else "-"
            whose = "" if jacks == deal.declarer else f" ({SEATS[jacks]})"
            assert result.explanation.startswith(f"card points {raw} {sign} 10 for the black jacks{whose} = {raw + bonus}; ")


@settings(deadline=None, max_examples=25, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_the_last_trick_and_the_skat_go_to_its_taker(seed):
    for deal in played_out(LAST_TRICK, seed):
        points, skat, _ = hand_count(deal)
        last = deal.tricks[-1].winner
        raw = points[deal.declarer] + skat
        adjusted = raw + 10 if last == deal.declarer else raw - 10 - skat
        f = deal.facts()
        assert (f.raw_points, f.declarer_points) == (raw, adjusted)
        assert f.made_points == (adjusted >= 61) and f.defenders_schneider == (adjusted >= 90)
        want = [("last_trick", last, 10)] + ([("skat_to_last_trick", last, skat)] if last != deal.declarer and skat else [])
        assert [(i.name, i.seat, i.points) for i in f.card_points] == want


def test_the_rules_change_games():
    jacks = [d for d in played_out(BLACK_JACKS, 1, deals=200) if d.facts().card_points]
    moved = [d for d in played_out(LAST_TRICK, 1, deals=200) if d.facts().given < -10]  # the skat went too
    assert len(jacks) > 5 and len(moved) > 20
    assert any(d.result().won != (d.facts().raw_points >= 61 and not d.result().overbid) for d in jacks + moved)


def test_official_counts_no_card_points():
    for deal in played_out(OFFICIAL, 3):
        points, skat, _ = hand_count(deal)
        f = deal.facts()
        assert f.declarer_points == f.raw_points == points[deal.declarer] + skat and f.card_points == ()
        assert not deal.result().explanation.startswith("card points") and "card_points" not in deal.result().extra


class Bonus:
    """+N card points for taking trick ``number`` (made up, to cross each line)."""

    params_schema = {"type": "object", "additionalProperties": False,
                     "properties": {"points": {"type": "integer"}, "number": {"type": "integer"}}}

    def __init__(self, points=10, number=1):
        self.points, self.number = points, number

    @hookimpl
    def skat_card_points(self):
        return [CardPointRule("bonus", "for the bonus", end=self.end)]

    def end(self, facts):
        tricks = facts.tricks if hasattr(facts, "declarer_points") else facts.played
        return {tricks[self.number - 1].winner: self.points} if len(tricks) >= self.number else {}


@pytest.mark.parametrize("base", ["official", "texas"])
def test_each_line_is_crossed_by_the_bonus_alone(base):
    """Deals the declarer loses (or wins without schneider) by the cards: a
    bonus that lifts the count over the ruleset's line wins (makes schneider)."""
    th = get_rules(base).thresholds
    crossed = set()
    for n in range(1, 11):
        rules = compile_with(base, {"bonus": (Bonus, {"points": 12, "number": n})})
        for deal in played_out(rules, n, deals=80):
            f = deal.facts()
            if deal.tricks[n - 1].winner != deal.declarer or f.declaration.announced:
                continue
            raw = f.raw_points
            assert f.declarer_points == raw + 12
            for line, name in ((th.win, "win"), (th.schneider, "schneider")):
                if raw < line <= raw + 12:
                    crossed.add(name)
                    result = deal.result()
                    assert result.explanation.startswith(f"card points {raw} + 12 for the bonus = {raw + 12}")
                    if name == "win":
                        assert f.made_points and (result.won or result.overbid)
                    else:
                        assert f.defenders_schneider and "schneider" in result.explanation
    assert crossed == {"win", "schneider"}


def test_a_null_counts_no_card_points():
    rules = compile_with("official", {"bonus": Bonus})
    deals = (play(rules, *seeded_deal(5, i)[:2], [HeuristicPlayer(rules, s) for s in seeded_deal(5, i)[2]]) for i in range(300))
    nulls = [d for d in deals if d.contract is not None and d.contract.no_trick]
    assert nulls and all(d.facts().card_points == () for d in nulls)
    assert all(not d.result().explanation.startswith("card points") for d in nulls)


class LinesFromTheFacts:
    """A win condition that reads the ruleset's line from the facts, never restating it: 5 over the win line."""

    @hookimpl
    def skat_win_conditions(self):
        return [WinCondition("five_over", lambda f: f.declarer_points >= f.thresholds.win + 5,
                             "not 5 over the line", "the declarer needs 5 card points more than the win line")]


@pytest.mark.parametrize("base", ["official", "texas", "danish"])
def test_a_wrapper_reads_the_lines_from_the_facts(base):
    rules = compile_with(base, {"five": LinesFromTheFacts})
    assert get_rules(base).thresholds == rules.thresholds
    for deal in played_out(rules, 11, deals=100):
        f = deal.facts()
        assert f.thresholds == rules.thresholds
        if f.made_points and f.declarer_points < rules.thresholds.win + 5 and not deal.result().overbid:
            assert "not 5 over the line" in deal.result().explanation


# -- bad rules: one line naming the plugin -----------------------------------------


class Garbage:
    @hookimpl
    def skat_card_points(self):
        return [CardPointRule("garbage", "for nothing", trick=lambda t, f: "ten")]


class Raises:
    @hookimpl
    def skat_card_points(self):
        return [CardPointRule("raises", "for a bug", end=lambda f: {0: 1 // 0})]


@pytest.mark.parametrize(("plugin", "message"), [
    (Garbage, r"plugin 'bad': card-point rule 'garbage' \(skat_card_points\) answered 'ten': expected card points"),
    (Raises, r"plugin 'bad': card-point rule 'raises' \(skat_card_points\) failed: ZeroDivisionError"),
])
def test_a_bad_rule_is_one_line_naming_its_plugin(plugin, message):
    rules = compile_with("official", {"bad": plugin})
    with pytest.raises(InputError, match=message):
        for deal in play_deals(rules, 2, deals=40):
            deal.result()


def test_two_plugins_naming_one_rule_is_an_error():
    with pytest.raises(InputError, match=r"card-point rule 'bonus' is defined twice, by plugins 'a' and 'b'"):
        compile_with("official", {"a": Bonus, "b": Bonus})


# -- every path -----------------------------------------------------------------------


def test_the_compiled_engines_tabulate_the_shipped_rules_and_not_one_reading_every_trick():
    """The shipped rules read a trick's cards, or the last trick's taker and the skat: tables
    (skatcore.engine.card_table); a rule that reads every trick is left to each deal's facts."""
    for rules in (BLACK_JACKS, LAST_TRICK):
        tables = engine_tables(rules)
        assert tables.why is None and not tables.own_facts.any()
    tables = engine_tables(compile_with("official", {"bonus": Bonus}))
    assert tables.why.startswith("card points by house rules (bonus, which reads declarer_points (test_card_points.py:")
    assert tables.own_facts.any()
    assert engine_tables(OFFICIAL).why is None


class KeyOnly:
    """In a grand every player gets 5 card points (the defenders 10 together: the declarer's
    count falls by 5).  It reads only the contract, a field of the tables' key."""

    @hookimpl
    def skat_card_points(self):
        return [CardPointRule("grand5", "for the grand", end=lambda f: dict.fromkeys(range(3), 5) if f.contract.family == "grand" else {})]


def test_points_that_move_the_count_are_tabulated_from_the_key():
    """61 and 64 card points are one class of the lines (won, no schneider): -5 loses the one,
    not the other.  The kernels add the table's points before the class is looked up, so a rule
    that moves the declarer's count from the key is tabulated, and the rows are Deal's."""
    rules = compile_with("official", {"house": KeyOnly})
    tables = engine_tables(rules)
    assert tables.why is None and not tables.own_facts.any()
    out = play_random(rules, 300, seed=4, keep=True)
    assert_same_as_deal(rules, out, range(300))
    grands = [i for i in range(300) if out.game(i) == "grand"]
    assert grands and all(out.declarer_points[i] == out.replay(i).facts().raw_points - 5 for i in grands)


@pytest.mark.parametrize("rules", [BLACK_JACKS, LAST_TRICK, compile_with("texas", {"b": ("card_points", {"black_jacks": 10,
                                                                                                          "last_trick": 10})}),
                                   compile_with("ramsch", {"b": ("card_points", {"black_jacks": 10})}),
                                   compile_with("official", {"bonus": Bonus})],
                         ids=["black-jacks", "last-trick", "texas-with-ramsch", "ramsch", "untabulated"])
def test_compiled_engines_give_deal_rows(rules):
    out = play_random(rules, 200, seed=9, keep=True)
    assert_same_as_deal(rules, out, range(200))
    heur = play_heuristic(rules, seeded_deals(2, 0, 200), 2, 0, keep=True, hand_back=True)
    rows = [i for i in range(200) if not heur.unfinished[i]]
    assert_same_as_deal(rules, heur, rows)
    for i in rows:  # the per-deal rows' card points are the adjusted ones
        want = heur.replay(i).result()
        if want.multiplier is not None:
            assert int(heur.declarer_points[i]) == want.declarer_points
    assert any(heur.result(i).extra.get("card_points", {}).get("items") for i in rows)


@settings(deadline=None, max_examples=10, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**16))
def test_exact_compiled_and_iss_replay_agree_on_the_adjusted_points(seed):
    rules = compile_with("official", {"cp": ("card_points", {"black_jacks": 10, "last_trick": 5, "skat": "last_trick"})})
    out = play_random(OFFICIAL, 60, seed=seed, keep=True)  # official deals, written as ISS games, re-scored
    deals = [out.replay(i) for i in range(60) if out.declarer[i] >= 0]
    lines = [iss_line(d, k) for k, d in enumerate(deals)]
    fast = iss_fast.score_lines(lines, rules)
    assert any(not isinstance(g, Exception) for g in fast)
    for deal, line, got in zip(deals, lines, fast, strict=True):
        want = score_line(line, rules)
        assert (str(got) if isinstance(got, Exception) else got[0]) == (str(want) if isinstance(want, Exception) else want[0])
        if isinstance(got, Exception):  # an early end (A8): the last trick is not in the record
            assert "which the record does not hold" in str(got)
            continue
        ours = compile_with_deal(rules, deal)
        assert got[0]["declarer_points"] == ours.declarer_points and got[0]["score"] == ours.score
    compiled = play_random(rules, 60, seed=seed, keep=True)
    for i in range(60):
        exact = compiled.replay(i).result()
        assert compiled.brief(i).declarer_points == exact.declarer_points
        assert compiled.brief(i).score == exact.score


def compile_with_deal(rules, deal):
    """``deal`` (played under the official rules) replayed under ``rules``: its result."""
    from skatcore.records.deal import score_record
    from skatcore.records.writer import deal_record

    return score_record({**deal_record(deal), "ruleset": rules.name}, rules)


# -- records ------------------------------------------------------------------------------

SUMMARY = {"declarer": "middlehand", "bid": 18, "game": {"type": "clubs"},
           "outcome": {"declarer_points": 74, "declarer_tricks": 7, "matadors": {"with": 1}}}
RAMSCH = {"game": {"type": "ramsch"}, "outcome": {"points": {"forehand": 30, "middlehand": 40, "rearhand": 50},
                                                 "tricks": {"forehand": 3, "middlehand": 3, "rearhand": 4},
                                                 "last_trick": "rearhand"}}


def test_a_summary_cannot_be_scored_under_a_rule_that_reads_the_tricks():
    assert score(SUMMARY).score == 24
    with pytest.raises(InputError, match=r"outcome: a summary only .* scores from the play \(reads tricks \(card_points.py"):
        score(SUMMARY, BLACK_JACKS)
    ramsch = compile_with("ramsch", {"b": ("card_points", {"black_jacks": 10})})
    assert score(RAMSCH, get_rules("ramsch")).scores["rearhand"] < 0
    with pytest.raises(InputError, match=r"outcome: a summary only .* counts card points by house rules \(black_jacks\)"):
        score(RAMSCH, ramsch)


def test_a_rule_reading_only_the_key_scores_a_summary():
    rules = compile_with("official", {"house": KeyOnly})
    grand = {**SUMMARY, "game": {"type": "grand"}, "outcome": {"declarer_points": 64, "matadors": {"with": 1}}}
    assert score(grand).score == 48  # with 1, game 2 x 24
    result = score(grand, rules)  # 64 + 5 - 5 - 5 = 59: lost, 2 x 48
    assert (result.won, result.score, result.declarer_points) == (False, -96, 59)
    assert result.explanation.startswith("card points 64 - 5 for the grand (forehand) + 5 for the grand "
                                         "- 5 for the grand (rearhand) = 59; ")


def test_a_trick_knows_its_winning_card():
    """A3: a trick's winner is a seat; the card that took it is an index into its cards."""
    for deal in play_deals(OFFICIAL, 4, deals=20):
        for t in deal.tricks:
            if t.winner is None:
                continue
            by_order = deal.rules.tricks[deal.contract.name].winner_index(t.cards)
            assert t.winner_index == by_order and t.winning_card == t.cards[by_order]
            assert t.winner == (t.leader + by_order) % 3
    assert Trick(2, [1, 2, 3], 1).winner_index == 2 and Trick(0, [4, 5]).winner_index is None
    assert Trick(2, [1, 2], 0).winner_index == 1  # of two seats in play the other one follows
