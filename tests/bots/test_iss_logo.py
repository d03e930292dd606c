"""tools/iss_logo.py: leave-one-game-out agreement, checked by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from skatcore.errors import InputError
from skatcore.records.iss import parse_sgf
from tests.bots.test_expert_defence import GAME_1, FirstCard, Recorded
from tests.tool_module import load_tool

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    return load_tool("iss_logo")


def _rows(*pairs):
    return [{"all": p, "defender_leads": (0, 0), "opening_lead": (0, 0)} for p in pairs]


def test_logo_chooses_on_the_other_games_and_scores_the_one_left_out():
    tool = _tool()
    # variant 0 agrees on 5, 5, 9 of ten decisions in three games, variant 1 on 8, 8, 1
    table = [_rows((5, 10), (5, 10), (9, 10)), _rows((8, 10), (8, 10), (1, 10))]
    assert tool.best(table) == 0  # 19 against 17 of 30 in sample
    # without game 0 or 1: 14 against 9, variant 0 (5 each); without game 2: 10 against 16, variant 1 (1)
    rows, chosen = tool.logo(table)
    assert chosen == [0, 0, 1]
    assert tool.summed(rows, "all") == (5 + 5 + 1, 30)
    out = tool.report(["a", "b"], table, None)
    assert out["all"]["in_sample"]["agree"] == 19 and out["all"]["logo"]["agree"] == 11
    assert out["chosen_in_sample"] == "a" and out["chosen_per_left_out_game"] == {"a": 2, "b": 1}


def test_ties_go_to_the_variant_named_first():
    tool = _tool()
    table = [_rows((3, 4), (1, 4)), _rows((1, 4), (3, 4))]
    assert tool.best(table) == 0
    assert tool.logo(table)[1] == [1, 0]  # each game left out: the other game decides


def test_wilson_interval_by_hand():
    tool = _tool()
    lo, hi = tool.wilson(8, 10)
    # centre (0.8 + 1.96^2/20) / (1 + 1.96^2/10) = 0.7167, half 1.96 sqrt(0.016 + 0.009604) / 1.38415 = 0.2266
    assert lo == pytest.approx(0.4902, abs=1e-3) and hi == pytest.approx(0.9433, abs=1e-3)
    assert tool.wilson(0, 0) == (0.0, 1.0)


def test_bootstrap_of_games_that_all_agree_alike_is_a_point():
    tool = _tool()
    assert tool.bootstrap(_rows((2, 4), (5, 10), (1, 2)), "all", resamples=200) == (0.5, 0.5)


def test_per_game_counts_a_record_player_and_a_first_card_player():
    tool = _tool()
    record = parse_sgf(GAME_1)
    games = [("541932", 0, record)]
    exact = tool.per_game(games, Recorded, [1, 2])
    first = tool.per_game(games, FirstCard, [1])
    h, n = exact[0]["all"]
    assert h == n == 2 * first[0]["all"][1] > 30  # two seeds count every decision twice
    assert first[0]["all"][0] < first[0]["all"][1]
    assert tool.summed(tool.per_game(games, Recorded, [1]), "all") == (n // 2, n // 2)


def test_variants_parse_and_a_bad_one_is_an_input_error():
    tool = _tool()
    assert tool.parse("base") == {}
    assert tool.parse("LEAD_SLACK=0.1,SCHNEIDER=0") == {"LEAD_SLACK": 0.1, "SCHNEIDER": 0}
    with pytest.raises(InputError, match="LEAD_SLACK=x"):
        tool.parse("LEAD_SLACK=x")
    assert tool.main(["--variants", "worlds", "--files", str(ROOT / "tests/data/iss/heldout.sgf"), "--heldout"]) == 2


def test_counts_in_the_cache_are_not_played_again():
    tool = _tool()
    games = [("541932", 0, parse_sgf(GAME_1))]
    cache = {"x|541932|1": {k: [1, 2] for k in tool.KINDS}}
    assert tool.per_game(games, FirstCard, [1], cache=cache, key="x")[0]["all"] == (1, 2)  # as cached
    played = tool.per_game(games, Recorded, [2], cache=cache, key="x")[0]["all"]
    assert played[0] == played[1] > 15 and cache["x|541932|2"]["all"] == [played[0], played[1]]
