"""The example plugin packages (``examples/*``), pip-installed once per test
session into a temporary ``--target`` folder put on ``sys.path`` (not into the
environment), from a copy of their sources: parallel test runs and a fresh
clone's CI need nothing but ``pip install -e '.[test]'``."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples"
PACKAGES = ("raeuberskat", "sechserskat")


@pytest.fixture(scope="session")
def examples_installed(tmp_path_factory):
    """pip-install the example packages into a fresh target folder; yield it (on sys.path)."""
    work = tmp_path_factory.mktemp("examples")
    sources = []
    for name in PACKAGES:
        path = EXAMPLES_DIR / name
        copy = work / "src" / name
        shutil.copytree(path, copy, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", ".pytest_cache"))
        sources.append(str(copy))
    target = work / "site"
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                           "--disable-pip-version-check", "--target", str(target), *sources],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    sys.path.insert(0, str(target))
    importlib.invalidate_caches()
    yield target
    sys.path.remove(str(target))
    for mod in [m for m in sys.modules if m.startswith(tuple(f"skat_{p}" for p in PACKAGES))]:
        del sys.modules[mod]
