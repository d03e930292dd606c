"""The linter runs with the tests (issue 24): ruff, configured in
pyproject.toml, finds nothing in the code, the plugins, the examples and
the tests.  A finding fails here with ruff's own lines (file:line: rule)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff() -> list[str]:
    exe = Path(sys.executable).with_name("ruff")
    if exe.is_file():
        return [str(exe)]
    found = shutil.which("ruff")
    if found is None:
        pytest.fail("ruff is not installed: pip install -e '.[test]' installs it")
    return [found]


def test_ruff_finds_nothing():
    proc = subprocess.run([*_ruff(), "check", "--no-cache", "--output-format", "concise",
                           "skatcore", "plugins", "examples", "tests"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
