"""``time_openings(repeat=...)``: each position's fastest of several runs.
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
