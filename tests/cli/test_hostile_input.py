"""Issue 25, documents, numbers and bounds: every input gives exit 0 or 2
with one line naming the file, the path inside it and what was expected."""

from __future__ import annotations

import pytest
from cli_checks import refused


@pytest.mark.parametrize("spec, expected", [
    ("os:getpid", "player 'os:getpid': expected a player factory: a callable taking rules= and seed="),
    ("os:system", "player 'os:system': expected a player factory"),
    ("builtins:dict", "player 'builtins:dict': expected a player factory"),
    ("expert:worlds=nan", "player 'expert:worlds=nan': option worlds: expected a finite number >= 0, not 'nan'"),
    ("expert:ms=inf", "option ms: expected a finite number >= 0, not 'inf'"),
    ("expert:worlds=-1", "option worlds: expected a finite number >= 0, not '-1'"),
    ("expert:foo=1", "player 'expert:foo=1': unknown option 'foo' (expected one of: worlds, ms, bid_worlds, nodes)"),
    ("random:x=1", "player 'random:x=1': unknown option 'x' (it takes no options)"),
])
def test_a_player_spec_is_checked_before_any_deal(capsys, spec, expected):
    refused(capsys, ["simulate", "--deals", "3", "--players", spec], expected)
    refused(capsys, ["duel", spec, "random", "--deals", "2"], expected)
