"""``--verify`` under every example plugin's ruleset (examples/*, installed
for the test session by the ``examples_installed`` fixture).  None of them
takes the compiled path (no bidding, another deck, two players), so there is
nothing to verify; ``assert_same_rows`` still demands the same rows in one
chunk and in several (a chunk that starts inside a session replays it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skatcore.cli.main import main
from skatcore.sim.verify import NOT_NEEDED
from skatcore.testing import assert_same_rows

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted(p.stem for p in ROOT.glob("examples/*/src/*/*.yaml"))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_example_ruleset_verifies(examples_installed, capsys, ruleset):
    rc = main(["simulate", "--ruleset", ruleset, "--deals", "200", "--seed", "3", "--verify", "200", "--json"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert json.loads(out)["verify"] == {"deals": 0, "result": NOT_NEEDED}
    assert_same_rows(ruleset, deals=200, seed=3)
