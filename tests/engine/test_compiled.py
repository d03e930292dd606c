"""The compiled engine must agree with the Deal state machine, deal by deal:
every deal is replayed action by action through Deal (which rejects any
illegal action) and must give the same result."""

import os
import subprocess
import sys

import numpy as np
import pytest

from skatcore.engine.compiled import Unsupported, play_random
from skatcore.rules import get_rules

SUPPORTED = ["official", "texas", "danish", "pre1999", "danish-aarhus", "tournament", "ramsch"]


def assert_same_as_deal(rules, out, rows):
    for i in rows:
        want = out.replay(i).result()
        got = (out.game(i), out.declarer[i], out.score[i], out.value[i], tuple(out.scores[i]))
        assert got == (want.game, -1 if want.declarer is None else want.declarer, want.score, want.value,
                       tuple(want.scores.values())), want.explanation
        if want.declarer is not None:
            assert (out.bid[i], bool(out.won[i]), bool(out.overbid[i])) == (want.bid, want.won, want.overbid)
            assert out.multiplier[i] == (-1 if want.multiplier is None else want.multiplier)
            if want.matadors is not None:
                assert out.matadors[i] == want.matadors
        assert out.result(i).explanation == want.explanation


@pytest.mark.parametrize("ruleset", SUPPORTED)
def test_compiled_deals_replay_identically_through_deal(ruleset):
    rules = get_rules(ruleset)
    out = play_random(rules, 400, seed=11, keep=True)
    assert len(out) == 400
    assert_same_as_deal(rules, out, range(400))
    games = {out.game(i) for i in range(400)}
    assert games == {"ramsch"} if ruleset == "ramsch" else len(games) >= 5


def test_compiled_plays_ramsch_when_all_pass(tmp_path):
    """A Ramsch-on-all-pass ruleset with only three rungs on the ladder, so
    that random players often all pass: the engine must then play and score
    the Ramsch exactly as Deal does."""
    top = get_rules("texas").ladder[-3]
    (tmp_path / "short.yaml").write_text(f"extends: texas\nplugins:\n  official: {{min_bid: {top}}}\n")
    rules = get_rules(str(tmp_path / "short.yaml"))
    out = play_random(rules, 400, seed=5, keep=True)
    ramsch = [i for i in range(400) if out.game(i) == "ramsch"]
    assert len(ramsch) > 10
    assert_same_as_deal(rules, out, ramsch)


def test_compiled_deals_depend_on_seed_and_index_only():
    rules = get_rules("official")
    a = play_random(rules, 300, seed=3)
    b = play_random(rules, 100, seed=3, start=200)
    c = play_random(rules, 300, seed=4)
    assert (a.scores[200:] == b.scores).all() and (a.deck[200:] == b.deck).all()
    assert not (a.scores == c.scores).all()


def test_compiled_deals_are_uniform_enough():
    """Every card lands in the skat about equally often (a broken shuffle would not)."""
    out = play_random(get_rules("official"), 20000, seed=1)
    counts = np.bincount(out.deck[:, 9:11].reshape(-1), minlength=32)
    assert counts.min() > 0.8 * 1250 and counts.max() < 1.2 * 1250


@pytest.mark.parametrize("ruleset", ["tournee", "schieberamsch", "pub", "danish-petersen"])
def test_compiled_refuses_steps_it_does_not_model(ruleset):
    with pytest.raises(Unsupported, match=f"ruleset '{ruleset}': .*flow steps .*(turn-up|push)"):
        play_random(get_rules(ruleset), 10, seed=1)


def test_compiled_engine_runs_without_jit():
    """NUMBA_DISABLE_JIT=1 runs the same loop as plain Python (debugging,
    coverage), and gives the very same deals."""
    code = ("from skatcore.engine.compiled import play_random; from skatcore.rules import get_rules; "
            "out = play_random(get_rules('official'), 5, seed=9, keep=True); "
            "[out.result(i) for i in range(5)]; print(out.scores.tolist(), out.plays.tolist())")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    plain = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    out = play_random(get_rules("official"), 5, seed=9)
    assert plain.strip() == f"{out.scores.tolist()} {out.plays.tolist()}"
