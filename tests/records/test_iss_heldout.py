"""The held-out ISS games (tests/data/iss/heldout.sgf) replay through Deal
and score what the server scored, and none of them is a game of the sample."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from skatcore import get_rules
from skatcore.records.iss import parse_sgf, replay, score_record

HELDOUT = Path(__file__).resolve().parents[1] / "data" / "iss" / "heldout.sgf"
LINES = [line for line in HELDOUT.read_text("utf-8").splitlines() if line.strip()]
IDS = [re.search(r"ID\[(\d+)\]", line).group(1) for line in LINES]  # type: ignore[union-attr]
SAMPLE = next((p / "shared/data/iss/iss-sample-25.sgf" for p in Path(__file__).parents
               if (p / "shared/data/iss/iss-sample-25.sgf").is_file()), None)


@pytest.fixture(scope="module")
def rules():
    return get_rules("official")


def test_sixteen_games_none_twice_none_of_the_sample():
    assert len(LINES) == 16 == len(set(IDS))
    if SAMPLE is not None:
        assert not set(IDS) & set(re.findall(r"ID\[(\d+)\]", SAMPLE.read_text("utf-8")))


@pytest.mark.parametrize("line", LINES, ids=[f"iss-{i}" for i in IDS])
def test_heldout_game_scores_what_the_server_scored(line, rules):
    record = parse_sgf(line)
    out, explanation = score_record(record, rules)
    assert out["id"] == record.id
    if record.outcome == "passed":
        assert (out["game"], out["score"]) == ("passed", 0), explanation
        return
    assert out["score"] == record.v and out["won"] == record.won, f"{explanation}\n  ISS: R[{record.result_text}]"
    facts = replay(record, rules).facts()
    assert (facts.declarer, facts.matadors, facts.declarer_points, facts.declarer_tricks) \
        == (record.d, record.m, record.p, record.t)
