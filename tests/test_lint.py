"""The linter runs with the tests (issue 24): ruff, configured in
pyproject.toml, finds nothing in the code, the plugins, the examples and
the tests.  A finding fails here with ruff's own lines (file:line: rule)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from installed import tool

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    proc = subprocess.run([*tool("ruff"), "check", "--no-cache", "--output-format", "concise",
                           "skatcore", "plugins", "examples", "tests", "tools"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
