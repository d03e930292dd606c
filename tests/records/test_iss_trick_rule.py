"""ISS games re-scored under a ruleset whose plugin decides trick winners
(the trump seven takes the last trick): the lean path (compiled replay on
the rule's table, skatcore.engine.trick_table) gives exactly what the
replay through Deal gives, on real games and on random games played under
the rule; a game the plugin's winners cannot replay (it goes on from a
trick the rule gave another seat, or ends early) goes through Deal."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from seven_takes import SevenTakes  # tests/seven_takes.py

from skatcore.records import iss_fast, iss_kernel
from skatcore.records.iss import score_line
from skatcore.rules.compiler import get_rules
from skatcore.rules.trust import trusting
from skatcore.sim.speed import declarer_deals, iss_line
from skatcore.testing import compile_with

HERE = Path(__file__).parent
SAMPLE = next((p / "shared/data/iss/iss-sample-25.sgf" for p in HERE.parents
               if (p / "shared/data/iss/iss-sample-25.sgf").is_file()), None)
REAL = ([line for line in SAMPLE.read_text("utf-8").splitlines() if line.strip()] if SAMPLE else []) \
    + [(HERE / "iss-13577.sgf").read_text("utf-8").strip()]
SEVENLAST = HERE.parents[1] / "examples" / "house-sevenlast" / "house-sevenlast.yaml"


@pytest.fixture(scope="module")
def rules():
    with trusting():
        return get_rules(str(SEVENLAST))


def _text(item) -> str:
    return str(item) if isinstance(item, Exception) else json.dumps(item, ensure_ascii=False)


def test_real_and_random_games_score_as_through_deal(rules):
    played = declarer_deals(rules, 150)  # random deals played under the rule (compiled, replayed through Deal)
    moved = [d for d in played if d.tricks[-1].winner != (d.tricks[-1].leader
                                                          + d.table.winner_index(d.tricks[-1].cards)) % 3]
    assert moved  # some last tricks went to the seven
    lines = REAL + [iss_line(deal, k) for k, deal in enumerate(played)]
    fast = iss_fast.score_lines(lines, rules)
    for line, got in zip(lines, fast, strict=True):
        assert _text(got) == _text(score_line(line, rules)), line
    # the lean path replayed the random games itself, the rule's last tricks included
    t = iss_fast._tables(rules)
    parsed = [iss_fast._parse(line) for line in lines[len(REAL):]]
    status = iss_fast._replay([p for p in parsed if p], t)["status"]
    assert status.count(iss_kernel.OK) >= len(played) - 5


@pytest.mark.parametrize("which", ["sevenlast", "seven_takes"])
def test_real_games_the_rule_cannot_replay_are_refused_as_through_deal(rules, which):
    """Real games (played by the card order): one that ends early, or goes on
    from a trick the rule gave another seat, is refused with Deal's message;
    the others score on the lean path as through Deal."""
    ruleset = rules if which == "sevenlast" else compile_with("official", plugins={"seven_takes": SevenTakes})
    got = iss_fast.score_lines(REAL, ruleset)
    for line, g in zip(REAL, got, strict=True):
        assert _text(g) == _text(score_line(line, ruleset)), line
    refused = [str(g) for g in got if isinstance(g, Exception)]
    assert any("decides who takes a trick" in r for r in refused)  # ended early: who takes the rest is not known
    if which == "seven_takes" and SAMPLE:  # a sample game goes on from a trick the rule gave another seat
        assert any(re.search(r"gave trick \d+ to \w+, the card order to \w+", r) for r in refused)
