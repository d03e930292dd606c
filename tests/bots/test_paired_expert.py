"""tools/paired_expert.py: the base's points are the duel's, and a variant
that starts a deal as the base did plays it as the base did."""

import importlib.util
from pathlib import Path

import pytest

from skatcore.sim.duel import duel

_SPEC = importlib.util.spec_from_file_location("paired_expert", Path(__file__).parents[2] / "tools" / "paired_expert.py")
tool = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(tool)


def test_the_base_is_the_duel_and_a_same_start_the_same_deal():
    deals, seed = 3, 3
    specs = ("base", "GRAND_MARGIN=15", "GRAND_MARGIN=-1000,FLOOR=0")  # the second is the base's own margin
    rows = tool.rows(("official", "heuristic", seed, 0, deals, specs, True))
    assert len(rows) == 2 * deals
    per_deal = sum(r["classic"][0][0] - r["classic"][0][1] for r in rows) / deals
    assert per_deal == pytest.approx(duel("official", "expert", "heuristic", deals, seed).to_json()["score_diff"]["estimate"], abs=1e-4)
    for r in rows:
        assert r["same"][1]
        for k in range(3):  # played to the end under every variant (check): a same start, the same points
            if r["same"][k]:
                assert (r["classic"][k], r["game"][k]) == (r["classic"][0], r["game"][0])
    assert tool.parse("base") == {} and tool.parse("A=1,B=2.5") == {"A": 1.0, "B": 2.5}
