"""tools/calibrate_expert.py: its seats add up to the duel's score, its
rows carry the chances the expert acted on, its fit recovers known weights."""


import numpy as np

from skatcore.sim.duel import duel
from tests.tool_module import load_tool

tool = load_tool("calibrate_expert")


def test_the_seats_add_up_to_the_duel():
    """Each seat is held by the expert in one play and by the opponent in the
    other: the differences of the seats' classic points are the duel's."""
    deals, seed = 4, 3
    rows = tool.collect("official", "expert", "heuristic", deals, seed, 1)
    assert len(rows) == deals * 2 * 3
    per_deal = sum(r["classic"] * (1 if r["side"] == 0 else -1) for r in rows) / deals
    assert per_deal == duel("official", "expert", "heuristic", deals, seed).to_json()["score_diff"]["estimate"]
    for r in rows:
        if r["side"] == 0 and r["declared"]:
            assert 0.0 <= r["decl_chance"] <= r["decl_raw"] + 1e-12 <= 1.0 + 1e-12
            assert r["won"] == (r["classic"] > 0)
    lines = tool.duplicate_table(rows)
    total = sum(float(line.split()[-1]) for line in lines[1:] if not line.startswith(" "))
    assert abs(total - per_deal) < 0.02 * 4


def test_fit_recovers_known_weights():
    rng = np.random.default_rng(1)
    x = rng.normal(0.0, 1.5, 20000)
    y = rng.random(20000) < 1 / (1 + np.exp(-(0.4 + 0.7 * x)))
    assert np.allclose(tool.fit(x, y.astype(float)), [0.4, 0.7], atol=0.08)
