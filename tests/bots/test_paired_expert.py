"""tools/paired_expert.py: the base's points are the duel's, and a variant
that starts a deal as the base did plays it as the base did."""


import pytest

from skatcore.sim.duel import duel
from tests.tool_module import load_tool

tool = load_tool("paired_expert")


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
    assert tool.parse("base") == {} and tool.parse("A=1,B=2.5") == {"A": 1, "B": 2.5} and isinstance(tool.parse("A=1")["A"], int)


def test_card_play_screens_the_heuristics_contracts_with_the_same_start():
    """A variant that is the base (its own LEAD_SLACK) scores as the base: every game the same points;
    the declarer's score is the expert side's as declarer, its negative as defenders."""
    for role in ("declarer", "defenders"):
        rows = tool.card_rows(("official", role, 5, 0, 3, ("base", "LEAD_SLACK=0.2")))
        assert rows
        for r in rows:
            assert r["score"][0] == r["score"][1] and r["points"][0] == r["points"][1]
    dec = tool.card_rows(("official", "declarer", 5, 0, 3, ("base",)))
    assert [r["deal"] for r in dec] == [r["deal"] for r in rows]  # the heuristics' contracts: the same deals
