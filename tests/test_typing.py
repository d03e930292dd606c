"""The type checker runs with the tests (issue 24), like the linter
(tests/test_lint.py): mypy at the project's level over skatcore and the
plugins (pyproject.toml's [tool.mypy]), and ``mypy --strict`` over the plugin
API, the modules a plugin author imports.  A finding fails here with mypy's
own lines (file:line: error: ... [code])."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

from installed import tool

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    # no cache: the tests write nothing into the checkout
    return subprocess.run([*tool("mypy"), "--no-incremental", "--cache-dir", "/dev/null", *args],
                          cwd=ROOT, capture_output=True, text=True)


def plugin_api() -> list[str]:
    """The files of the strict override in pyproject.toml (its first override)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    files: list[Path] = []
    for module in config["overrides"][0]["module"]:
        path = ROOT / module.removesuffix(".*").replace(".", "/")
        if module.endswith(".*"):
            files += sorted(path.rglob("*.py"))
        else:
            files.append(path / "__init__.py" if path.is_dir() else path.with_suffix(".py"))
    return [str(f.relative_to(ROOT)) for f in dict.fromkeys(files)]


def test_plugin_api_is_the_strict_override():
    files = plugin_api()
    assert "skatcore/hookspecs.py" in files and "skatcore/model/__init__.py" in files
    assert all((ROOT / f).is_file() for f in files), files


def test_mypy_finds_nothing_at_the_configured_level():
    proc = _run()
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_plugin_api_passes_mypy_strict():
    # only the API's own files are reported: what they import is checked by the test above
    proc = _run("--strict", "--follow-imports=silent", *plugin_api())
    assert proc.returncode == 0, proc.stdout + proc.stderr
