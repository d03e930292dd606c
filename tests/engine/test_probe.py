"""House rules that read the play score the same on every path: the compiled
engines tabulate a plugin's scoring only at keys where the recording facts
(skatcore.engine.probe) show it read nothing outside the key; every other
deal is scored on its own facts, exactly as Deal scores it."""

from __future__ import annotations

import pytest
from engine.test_compiled import assert_same_as_deal

from skatcore import get_rules
from skatcore.bots.heuristic.compiled import play_heuristic
from skatcore.engine.compiled import engine_tables, play_random
from skatcore.engine.probe import SHEET_KEY, VALUE_KEY, Reads, reads_play, recording
from skatcore.engine.scoring import make_facts
from skatcore.hookspecs import hookimpl
from skatcore.model import Declaration, MultiplierItem, WinCondition
from skatcore.records import iss_fast
from skatcore.records.iss import score_line
from skatcore.sim.dealing import seeded_deals
from skatcore.sim.speed import declarer_deals, iss_line
from skatcore.testing import compile_with

SHIPPED_COMPILED = ["official", "texas", "danish", "danish-petersen", "pre1999", "danish-aarhus", "tournament",
                    "ramsch", "pub"]


class LastTrick:
    """docs/hooks.md's example: the declarer must take the last trick."""

    params_schema = {"type": "object", "additionalProperties": False}

    @hookimpl
    def skat_win_conditions(self):
        return [WinCondition("last_trick", lambda f: f.last_trick_winner == f.declarer, "lost the last trick")]


class Over100:
    """One more for a game with over 100 card points (reads the exact points)."""

    params_schema = {"type": "object", "additionalProperties": False}

    @hookimpl
    def skat_multiplier_items(self):
        return [MultiplierItem("over100", lambda f: int(f.declarer_points > 100), "over 100")]


class LastTrickDoubles:
    """The sheet entries double when the declarer took the last trick."""

    params_schema = {"type": "object", "additionalProperties": False}

    @hookimpl(wrapper=True)
    def skat_sheet_entries(self, result, facts, entries):
        out = yield
        if getattr(facts, "last_trick_winner", None) == getattr(facts, "declarer", -1):
            out = {s: 2 * v for s, v in out.items()}
        return out


def _facts(rules, **kw):
    args = dict(bid=18, declarer=1, matadors=2, declarer_points=70, declarer_tricks=6, defender_tricks=4)
    return make_facts(rules, rules.contracts["clubs"], Declaration("clubs"), **{**args, **kw})


def test_recording_facts_note_what_plugin_code_reads():
    official = get_rules("official")
    reads = Reads()
    assert official.score(recording(_facts(official), reads)).score == 36  # with 2, game 3 x 12
    assert set(reads.score) <= VALUE_KEY and "made_points" in reads.score  # the core's own reads are not noted
    assert reads.outside(SHEET_KEY, sheet=True) == {}

    rules = compile_with("official", {"last": LastTrick})
    reads = Reads()
    rules.score(recording(_facts(rules, last_trick_winner=2), reads))
    assert reads.score["last_trick_winner"].startswith("test_probe.py:")
    assert set(reads.outside(VALUE_KEY, sheet=False)) == {"last_trick_winner", "declarer"}
    assert set(reads.outside(SHEET_KEY, sheet=True)) == {"last_trick_winner"}


def test_a_summary_knows_whether_scoring_reads_the_play():
    assert not reads_play(get_rules("official"), _facts(get_rules("official")))
    assert reads_play(compile_with("official", {"last": LastTrick}), _facts(get_rules("official")))
    assert not reads_play(compile_with("official", {"o": Over100}), _facts(get_rules("official")))


@pytest.mark.parametrize("ruleset", SHIPPED_COMPILED)
def test_shipped_rulesets_tabulate_every_key(ruleset):
    """No shipped ruleset leaves the fast path: every key is proven by its reads."""
    tables = engine_tables(get_rules(ruleset), hand_back=True)
    assert tables.why is None and not tables.own_facts.any()


@pytest.mark.parametrize("plugin, read", [(LastTrick, "last_trick_winner"), (Over100, "declarer_points")])
def test_untabulable_keys_say_why(plugin, read):
    tables = engine_tables(compile_with("official", {"house": plugin}))
    assert read in tables.why and "test_probe.py:" in tables.why
    assert tables.own_facts.any() and tables.keep


@pytest.mark.parametrize("plugin", [LastTrick, Over100, LastTrickDoubles])
@pytest.mark.parametrize("base", ["official", "pub"])
def test_compiled_heuristic_gives_deal_rows(plugin, base):
    rules = compile_with(base, {"house": plugin})
    out = play_heuristic(rules, seeded_deals(1, 0, 250), 1, 0, hand_back=True)
    finished = [i for i in range(250) if not out.unfinished[i]]
    assert out.own_facts.sum() > 50  # the rule changed many games: they were scored on their own facts
    assert_same_as_deal(rules, out, finished)


@pytest.mark.parametrize("plugin", [LastTrick, Over100, LastTrickDoubles])
def test_compiled_random_engine_gives_deal_rows(plugin):
    rules = compile_with("official", {"house": plugin})
    out = play_random(rules, 300, seed=5, keep=True)
    assert out.own_facts.any()
    assert_same_as_deal(rules, out, range(300))


def test_the_rule_is_not_silently_gone():
    """Under the last-trick rule the compiled path loses games the official rules win."""
    official = play_heuristic(get_rules("official"), seeded_deals(1, 0, 300), 1, 0)
    house = play_heuristic(compile_with("official", {"house": LastTrick}), seeded_deals(1, 0, 300), 1, 0)
    declared = official.declarer >= 0
    assert (house.won[declared] <= official.won[declared]).all()
    assert (house.won[declared] < official.won[declared]).sum() > 20


def test_iss_replay_takes_games_whose_scoring_reads_the_play_through_deal():
    rules = compile_with("official", {"house": LastTrick})
    lines = [iss_line(deal, k) for k, deal in enumerate(declarer_deals(get_rules("official"), 60))]
    assert iss_fast._tables(rules).probe and not iss_fast._tables(get_rules("official")).probe
    got = iss_fast.score_lines(lines, rules)
    want = [score_line(line, rules) for line in lines]
    assert [str(g) if isinstance(g, Exception) else g[0] for g in got] == \
           [str(w) if isinstance(w, Exception) else w[0] for w in want]
    assert any("lost the last trick" in (g[1] if not isinstance(g, Exception) else "") for g in got)


def test_a_rule_reading_the_exact_points_keeps_the_lean_iss_path(monkeypatch):
    """An ISS game's facts have the exact points: only the play is missing."""
    rules = compile_with("official", {"house": Over100})
    lines = [iss_line(deal, k) for k, deal in enumerate(declarer_deals(get_rules("official"), 40))]
    want = [score_line(line, rules)[0] for line in lines]
    through_deal = []
    monkeypatch.setattr(iss_fast, "score_line", lambda line, r: through_deal.append(line) or score_line(line, r))
    assert [g[0] for g in iss_fast.score_lines(lines, rules)] == want
    assert through_deal == []


def test_a_summary_record_under_a_rule_about_the_tricks_is_refused_not_guessed():
    from skatcore.errors import InputError
    from skatcore.testing import score

    summary = {"ruleset": "official", "dealer": 0, "declarer": "middlehand", "bid": 18, "game": {"type": "clubs"},
               "outcome": {"declarer_points": 74, "declarer_tricks": 7, "matadors": {"with": 1}}}
    assert score(summary).score == 24  # with 1, game 2 x 12
    assert score(summary, compile_with("official", {"o": Over100})).score == 24  # the exact points are given
    with pytest.raises(InputError, match=r"scores from the play \(reads last_trick_winner \(test_probe.py:\d+\)"):
        score(summary, compile_with("official", {"last": LastTrick}))


class OverHundredLastTrick:
    """Over 100 card points count one more only with the last trick (reads the play only above 100)."""

    params_schema = {"type": "object", "additionalProperties": False}

    @hookimpl
    def skat_multiplier_items(self):
        return [MultiplierItem("last100", lambda f: int(f.declarer_points > 100 and f.last_trick_winner == f.declarer),
                               "over 100 with the last trick")]


def test_what_a_summary_key_read_is_remembered_only_where_it_read_the_key_alone():
    from skatcore.errors import InputError
    from skatcore.testing import score

    rules = compile_with("official", {"h": OverHundredLastTrick})
    summary = {"ruleset": "official", "dealer": 0, "declarer": "middlehand", "bid": 18, "game": {"type": "clubs"},
               "outcome": {"declarer_points": 70, "declarer_tricks": 7, "matadors": {"with": 1}}}
    for _ in range(2):
        assert score(summary, rules).score == 24  # 70 points: the play is not read
    summary["outcome"] = {"declarer_points": 101, "declarer_tricks": 7, "matadors": {"with": 1}}  # the same key
    with pytest.raises(InputError, match="reads last_trick_winner"):
        score(summary, rules)


class Raises:
    """A bug: divides by zero when the declarer took the last trick."""

    params_schema = {"type": "object", "additionalProperties": False}

    @hookimpl
    def skat_multiplier_items(self):
        return [MultiplierItem("bug", lambda f: 1 // 0 if f.last_trick_winner == f.declarer else 0, "bug")]


def test_a_function_that_raises_is_one_line_naming_its_plugin_on_every_path():
    from skatcore.errors import InputError

    rules = compile_with("official", {"buggy": Raises})
    with pytest.raises(InputError) as deal_path:
        play_random(rules, 300, seed=5, keep=True)
    with pytest.raises(InputError) as compiled_path:
        play_heuristic(rules, seeded_deals(1, 0, 250), 1, 0)
    for err in (deal_path.value, compiled_path.value):
        assert str(err).endswith("plugin 'buggy': multiplier item 'bug' (skat_multiplier_items) failed: "
                                 "ZeroDivisionError: integer division or modulo by zero")
