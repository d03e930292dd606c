"""The compiled heuristic (skatcore.bots.heuristic.compiled) must take the
Python HeuristicPlayer's decisions, deal by deal: the same bids, skat
decision, discard, declaration and cards through Deal (which rejects any
illegal action), and the same scores."""

import os
import subprocess
import sys

import pytest

from skatcore.bots.heuristic import HeuristicPlayer
from skatcore.bots.heuristic.compiled import play_heuristic
from skatcore.bots.heuristic.tables import rules_info
from skatcore.engine.compiled import Unsupported
from skatcore.rules import get_rules
from skatcore.sim.dealing import seeded_deals
from skatcore.sim.play import play_seeded

SUPPORTED = ["official", "texas", "danish", "pre1999", "danish-aarhus", "tournament", "ramsch"]


def assert_same_as_python(rules, out, seed, rows):
    for i in rows:
        want, _ = play_seeded(rules, [HeuristicPlayer] * 3, seed, out.start + i)
        got = out.replay(i)
        assert [a for _, a in got.history] == [a for _, a in want.history], f"deal {out.start + i}"
        r = want.result()
        assert (out.game(i), tuple(out.scores[i])) == (r.game, tuple(r.scores.values())), r.explanation
        assert got.result() == r


@pytest.mark.parametrize("ruleset", SUPPORTED)
def test_compiled_heuristic_takes_the_python_players_decisions(ruleset):
    rules = get_rules(ruleset)
    out = play_heuristic(rules, seeded_deals(21, 1000, 300), 21, 1000, keep=True)
    assert_same_as_python(rules, out, 21, range(300))
    games = {out.game(i) for i in range(300)}
    # the deals cover the contracts: every suit, grand and null (or Ramsch only)
    assert games == {"ramsch"} if ruleset == "ramsch" else {"clubs", "spades", "hearts", "diamonds", "grand"} <= games
    if ruleset == "official":
        assert (out.discard[:, 0] >= 0).any() and (out.discard[out.declarer >= 0, 0] < 0).any()  # pick-up and hand


def test_a_refit_of_the_coefficients_reaches_the_compiled_heuristic(monkeypatch):
    """Bolder coefficients (every game looks likelier to win) change the bidding
    of both players alike: the tables are rebuilt from HeuristicPlayer.COEF."""
    rules = get_rules("official")
    before = play_heuristic(rules, seeded_deals(3, 0, 200), 3)
    bold = {k: (a, b + 1.0) for k, (a, b) in HeuristicPlayer.COEF.items()}
    monkeypatch.setattr(HeuristicPlayer, "COEF", bold)
    monkeypatch.setattr(rules_info(rules), "rows", {})  # the Python player's rows, with the coefficients folded in
    out = play_heuristic(rules, seeded_deals(3, 0, 200), 3, keep=True)
    assert (out.bid > before.bid).sum() > 20
    assert_same_as_python(rules, out, 3, range(200))


@pytest.mark.parametrize("ruleset", ["pub", "danish-petersen"])
def test_table_calls_and_deals_left_to_deal(ruleset):
    """pub: Kontra and Re as the Python players say them (before the first
    card, in the history), scored with the calls; under both, the deals where
    all pass are left to Deal (a push round) unless asked to hand them back."""
    rules = get_rules(ruleset)
    with pytest.raises(Unsupported, match=f"ruleset '{ruleset}': flow steps \\(push\\) when all pass"):
        play_heuristic(rules, seeded_deals(21, 1000, 5), 21, 1000)
    out = play_heuristic(rules, seeded_deals(3, 1000, 300), 3, 1000, keep=True, hand_back=True)  # deals with a Re
    assert_same_as_python(rules, out, 3, [i for i in range(300) if not out.unfinished[i]])
    assert out.unfinished.sum() > 10 and (out.bid[out.unfinished] == 0).all()
    said = [tuple(name for _, name in v) for v in out.said.values()]
    if ruleset == "pub":
        assert said.count(("kontra",)) > 20 and ("kontra", "re") in said
        i = next(i for i, v in out.said.items() if len(v) == 2)
        assert out.brief(i).extra["calls"] == ["kontra", "re"]
        assert not out.overbid[i] and out.score[i] == 4 * (out.value[i] if out.won[i] == 1 else -2 * out.value[i])  # x2 x2
    else:
        assert not said


@pytest.mark.parametrize("ruleset", ["tournee", "schieberamsch"])
def test_compiled_heuristic_refuses_what_the_engine_does_not_model(ruleset):
    with pytest.raises(Unsupported, match=f"ruleset '{ruleset}'"):
        play_heuristic(get_rules(ruleset), seeded_deals(1, 0, 5), 1, hand_back=True)


def test_compiled_heuristic_runs_without_jit():
    code = ("from skatcore.bots.heuristic.compiled import play_heuristic; from skatcore.rules import get_rules; "
            "from skatcore.sim.dealing import seeded_deals; "
            "out = play_heuristic(get_rules('texas'), seeded_deals(9, 0, 20), 9); print(out.scores.tolist(), out.plays.tolist())")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    plain = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    out = play_heuristic(get_rules("texas"), seeded_deals(9, 0, 20), 9)
    assert plain.strip() == f"{out.scores.tolist()} {out.plays.tolist()}"
