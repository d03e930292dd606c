"""The command-line tools of the test extra (ruff, mypy), from this environment."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest


def tool(name: str) -> list[str]:
    """``[path]`` of ``name`` beside this Python (the venv's), else on PATH; fails the test if missing."""
    exe = Path(sys.executable).with_name(name)
    if exe.is_file():
        return [str(exe)]
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: pip install -e '.[test]' installs it")
    return [found]
