"""``--verify N`` (skatcore.sim.verify) and the testing kit's
``assert_same_rows``: a run's deals on the compiled path and through Deal
must give the same rows; a difference stops the run with one line naming
the ruleset, the deal, the field and both values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_checks import refused

from skatcore.cli.main import main
from skatcore.rules import get_rules
from skatcore.sim import compare as compare_mod
from skatcore.sim.fastpath import compiled_outcomes
from skatcore.sim.simulate import Stats
from skatcore.sim.verify import NOT_NEEDED, SAME
from skatcore.testing import assert_same_rows

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))
TWO_PLAYER = ("skat-en-deux", "strohmann", "piloten-skat", "oma-skat", "offiziersskat", "schmegegge")
N = 216  # six sessions of 36 deals: Bock and Ramsch rounds come round

# the house rule of issue 20: the declarer must take the last trick (docs/hooks.md, skat_win_conditions)
LAST_TRICK = '''\
from skatcore.hookspecs import hookimpl
from skatcore.model import WinCondition


class LastTrick:
    """The declarer wins only if he also takes the last trick."""

    params_schema = {"type": "object", "additionalProperties": False, "properties": {}}

    @hookimpl
    def skat_win_conditions(self):
        return [WinCondition("last_trick", lambda f: f.last_trick_winner == f.declarer, "lost the last trick")]
'''


def _json(capsys, *argv) -> dict:
    rc = main([*argv, "--json"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    return json.loads(out)


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_every_shipped_ruleset_gives_the_same_rows_on_both_paths(capsys, ruleset):
    got = _json(capsys, "simulate", "--ruleset", ruleset, "--deals", str(N), "--seed", "3", "--verify", str(N))
    # a step at the skat, every deal pushed; a table of two (docs/rules/house-rules.md#b13): Deal only
    takes = ruleset not in ("tournee", "schieberamsch", *TWO_PLAYER)
    assert got["verify"] == ({"deals": N, "result": SAME} if takes else {"deals": 0, "result": NOT_NEEDED})


def test_compare_verifies_each_ruleset_and_says_so(capsys):
    got = _json(capsys, "compare", "official", "tournee", "--deals", "200", "--verify", "200")
    assert [r["verify"] for r in got["rulesets"]] == [{"deals": 200, "result": SAME}, {"deals": 0, "result": NOT_NEEDED}]
    assert main(["compare", "official", "texas", "--deals", "40", "--verify", "40", "--players", "heuristic,random,random"]) == 0
    out = capsys.readouterr().out
    assert "--verify: official: exact path: nothing to verify" in out and "--verify: texas: exact path" in out
    assert main(["simulate", "--deals", "200", "--verify", "200"]) == 0
    assert f"--verify: official: 200 deals, {SAME}" in capsys.readouterr().out


def test_the_path_is_explicit():
    rules = [get_rules("official")]
    assert list(compiled_outcomes(rules, ("heuristic",) * 3, 1, 0, 20, "compiled")) == [0]  # forced below MIN_DEALS
    assert compiled_outcomes(rules, ("heuristic",) * 3, 1, 0, 300, "exact") == {}
    with pytest.raises(ValueError, match="auto, compiled, exact"):
        compiled_outcomes(rules, ("heuristic",) * 3, 1, 0, 300, "fast")


def test_a_wrong_compiled_path_is_caught(capsys, monkeypatch):
    """One deal's score corrupted on the compiled path: the run stops before
    any statistic, naming the ruleset, the deal, the field and both values."""
    real, hit = compiled_outcomes, []

    def corrupt(rules, slots, seed, start, stop, path="auto"):
        out = real(rules, slots, seed, start, stop, path)
        for o in out.values():
            j = next(j for j in range(17 - start, len(o)) if o.declarer[j] >= 0)
            o.score[j] += 1
            hit.append((start + j, int(o.score[j])))
        return out

    monkeypatch.setattr(compare_mod, "compiled_outcomes", corrupt)
    err = refused(capsys, ["compare", "official", "--deals", "300", "--seed", "2", "--verify", "100"])
    deal, score = hit[0]
    assert f"official: deal {deal} (seed 2): field 'score' is {score} on the compiled path, {score - 1} through Deal" in err
    assert not capsys.readouterr().out


def test_statistics_are_compared_too(capsys, monkeypatch):
    """The compiled path sums its statistics from arrays: a slip there is caught though the rows agree."""
    real = Stats.add_outcomes

    def slip(self, out, start, persons):
        real(self, out, start, persons)
        self.overbid += 1

    monkeypatch.setattr(Stats, "add_outcomes", slip)
    refused(capsys, ["simulate", "--deals", "200", "--verify", "200"],
            "official: statistic 'overbid_rate' is", "on the compiled path", "through Deal (the rows agree)")


@pytest.mark.parametrize("argv, fragment", [
    (["simulate", "--verify", "x"], "argument --verify: expected a whole number of deals, not 'x'"),
    (["simulate", "--verify", "0"], "--verify must be a number of deals from 1 to --deals (1000), not 0"),
    (["simulate", "--deals", "50", "--verify", "51"], "--verify must be a number of deals from 1 to --deals (50), not 51"),
    (["compare", "official", "--verify", "-1"], "--verify must be a number of deals from 1 to --deals (1000), not -1"),
    (["compare", "official", "--games", "x.sgf", "--verify", "5"], "--verify does not go with --games"),
    (["compare", "official", "--deal", "x.yaml", "--verify", "5"], "--verify does not go with --deal"),
])
def test_bad_verify_is_one_line(capsys, argv, fragment):
    refused(capsys, argv, fragment)


def _last_trick(tmp_path) -> Path:
    (tmp_path / "lasttrick.py").write_text(LAST_TRICK, encoding="utf-8")
    ruleset = tmp_path / "lasttrick.yaml"
    ruleset.write_text("name: lasttrick\nextends: official\nplugins:\n  ./lasttrick.py:LastTrick: {}\n", encoding="utf-8")
    return ruleset


def test_a_rule_that_reads_the_last_trick_is_the_same_on_every_path(tmp_path, capsys):
    ruleset = _last_trick(tmp_path)
    assert_same_rows(ruleset, deals=300, seed=1)
    got = _json(capsys, "--trust", "compare", "official", str(ruleset), "--deals", "300", "--verify", "300")
    assert [r["verify"] for r in got["rulesets"]] == [{"deals": 300, "result": SAME}] * 2


def test_the_kit_names_ruleset_deal_and_field(tmp_path, monkeypatch):
    """assert_same_rows fails with the one line --verify gives (here on a
    corrupted compiled path, whatever the state of the real one)."""
    real = compiled_outcomes

    def corrupt(rules, slots, seed, start, stop, path="auto"):
        out = real(rules, slots, seed, start, stop, path)
        for o in out.values():
            if start <= 5 < start + len(o):
                o.won[5 - start] = 1 - o.won[5 - start] if o.declarer[5 - start] >= 0 else o.won[5 - start]
        return out

    monkeypatch.setattr(compare_mod, "compiled_outcomes", corrupt)
    dealt = real([get_rules("official")], ("heuristic",) * 3, 1, 0, 10, "compiled")[0]
    assert dealt.declarer[5] >= 0  # deal 5 of seed 1 is a declarer game
    with pytest.raises(AssertionError, match=r"^official: deal 5 \(seed 1\): field 'won' is (True|False) on the "
                                             r"compiled path, (True|False) through Deal$"):
        assert_same_rows("official", deals=40, seed=1)
