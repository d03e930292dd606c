"""tools/expert_timing.py: the phases' CPU time is part of the whole, every decision is timed."""

from tests.tool_module import load_tool

tool = load_tool("expert_timing")


def test_the_phases_split_the_players_time():
    got = tool.timing("heuristic", 3, 1)
    phases = got["phase_cpu_s"]
    assert set(phases) <= set(tool.PHASES.values()) and {"bidding", "card_play"} <= set(phases)
    # rounded to 10 ms each; the players' time is part of the whole (the engine's is the rest)
    assert sum(phases.values()) <= got["cpu_s"] + 0.01 * len(phases)
    assert got["decisions"] >= 3 * 2  # middlehand and rearhand speak in every deal
    assert got["decision_ms"]["p50"] <= got["decision_ms"]["p99"] <= got["decision_ms"]["max"]


def test_the_experts_counters_are_reported_per_decision():
    got = tool.timing("expert:worlds=3:bid_worlds=2", 2, 1)
    rates = got["rates"]
    assert rates["layouts_per_decision"] <= 3 and rates["nodes_per_decision"] > 0
    assert 0 <= rates["reused_share"] <= 1

