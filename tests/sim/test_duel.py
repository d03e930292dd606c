"""``skat duel``: duplicate play of two players on the same deals."""

from __future__ import annotations

import json

from skatcore.cli.main import main
from skatcore.model import ScoreResult
from skatcore.sim.duel import duel
from skatcore.sim.simulate import seat_points


def test_a_player_against_itself_scores_exactly_even():
    """The heuristic decides deterministically: both plays of each deal are the same game."""
    out = duel("official", "heuristic", "heuristic", 12, 3).to_json()
    assert out["score_diff"] == {"estimate": 0.0, "low": 0.0, "high": 0.0, "n": 12, "method": "exact", "significant": False}
    assert out["declarer_games"]["A"] == out["declarer_games"]["B"]
    assert out["contract_mix"]["A"] == out["contract_mix"]["B"]


def test_heuristic_beats_random(capsys):
    rc = main(["duel", "heuristic", "random", "--deals", "15", "--seed", "2", "--json"])
    out = json.loads(capsys.readouterr()[0])
    assert rc == 0 and out["players"] == ["heuristic", "random"] and out["deals"] == 15
    assert out["score_diff"]["significant"] and out["score_diff"]["low"] > 0
    assert out["declarer_win_rate"]["B"]["estimate"] < 0.2 < out["declarer_win_rate"]["A"]["estimate"]
    assert abs(sum(out["contract_mix"]["B"].values()) - 1) < 1e-3


def test_chunks_and_processes_do_not_change_a_digit():
    one = duel("official", "heuristic", "random", 10, 5).to_json()
    two = duel("official", "heuristic", "random", 10, 5, jobs=2).to_json()
    assert one == two


def test_seat_points():
    lost = ScoreResult.__new__(ScoreResult)
    lost.scores, lost.declarer, lost.won = {"middlehand": -48}, 1, False
    assert seat_points(lost) == ([0, -48, 0], [40, -98, 40])
