"""``time_openings(repeat=...)``: each position's fastest of several runs;
``pair_openings``: another solver beside this one.
The positions are the same and so, up to the table's hashing of each
solver's tag, are the nodes."""

from __future__ import annotations

import pytest

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


def test_against_a_folder_without_the_solver_is_bad_input(tmp_path):
    """``--against`` a folder that is no checkout: one line naming the file, exit 2, nothing left behind."""
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    from skatcore.errors import InputError
    from skatcore.sim.solver_speed import load_solver_from

    before = set(Path(tempfile.gettempdir()).glob("solver_against_*"))
    with pytest.raises(InputError, match=r"solver\.py"):
        load_solver_from(str(tmp_path))
    assert set(Path(tempfile.gettempdir()).glob("solver_against_*")) == before
    tool = Path(__file__).parents[2] / "tools" / "solver_speed.py"
    r = subprocess.run([sys.executable, str(tool), "--against", str(tmp_path), "--n", "1"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1
    assert str(tmp_path) in r.stderr
