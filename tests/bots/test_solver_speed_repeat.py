"""``time_openings(repeat=...)``: each position's fastest of several runs;
``pair_openings``: another solver beside this one.
The positions are the same and so, up to the table's hashing of each
solver's tag, are the nodes."""

from __future__ import annotations

from skatcore.rules import get_rules
from skatcore.sim.solver_speed import random_openings, time_openings


def test_repeat_keeps_the_positions_and_about_the_nodes():
    openings = random_openings(get_rules("official"), 3, 5)
    once = time_openings(openings)
    thrice = time_openings(openings, repeat=3)
    assert once["positions"] == thrice["positions"] == 3
    for k in ("exact_nodes_sum", "question_nodes_sum"):
        assert once[k] > 0 and abs(thrice[k] - once[k]) <= once[k] // 100


def test_paired_against_a_copy_of_this_solver():
    """``--against``: another checkout's solver loaded beside this one; this
    checkout against itself searches the same nodes (up to the tags'
    hashing: within 1%)."""
    from pathlib import Path

    import skatcore
    from skatcore.sim.solver_speed import load_solver_from, pair_openings

    other, cleanup = load_solver_from(str(Path(skatcore.__file__).resolve().parents[1]))
    try:
        assert other.Solver.__module__ == "solver_against.solver"
        f = pair_openings(random_openings(get_rules("official"), 3, 5), other, repeat=1)
    finally:
        cleanup()
    assert f["positions"] == 3 and f["this_nodes"]["max"] > 0
    for k in ("median", "max"):
        assert abs(f["other_nodes"][k] - f["this_nodes"][k]) <= f["this_nodes"][k] // 100
    assert f["ratio_median"] > 0 and f["ratio_sum"] > 0
