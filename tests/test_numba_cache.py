"""The compiled functions' cache stamps (skatcore/numba_cache.py): a change
in a module a compiled function imports must reach its cache's stamp."""

from pathlib import Path

import pytest
from numba import config

from skatcore import numba_cache


def _rel(paths) -> set[str]:
    return {p.relative_to(numba_cache.PACKAGE).as_posix() for p in paths}


def test_sources_follow_the_imports_within_skatcore():
    pkg = numba_cache.PACKAGE
    assert {"bots/solver_kernel.py", "bots/solver_moves.py", "bots/solver_table.py", "cards.py"} <= _rel(
        numba_cache.sources(pkg / "bots" / "solver_kernel.py"))
    assert {"bots/heuristic/kernel.py", "bots/heuristic/kernel_play.py", "engine/kernel.py"} <= _rel(
        numba_cache.sources(pkg / "bots" / "heuristic" / "kernel.py"))
    assert _rel(numba_cache.sources(pkg / "engine" / "kernel.py")) == {"engine/kernel.py", "numba_cache.py"}


def test_a_change_in_an_imported_module_changes_the_stamp(tmp_path):
    pkg = tmp_path / "skatcore"
    (pkg / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "",
        "sub/__init__.py": "VALUE = 1\n",
        "a.py": "import numpy as np\nfrom .sub.b import (\n    f,  # a comment\n    g,\n)\nfrom . import e\nfrom .sub import VALUE\n",
        "sub/b.py": "def f():\n    from skatcore.c import G\n    return G\n",
        "c.py": "G = 1\n",
        "e.py": "import skatcore.sub.h\n",
        "sub/h.py": "H = 1\n",
        "d.py": "G = 2\n",  # imported by no one
    }
    for name, text in files.items():
        (pkg / name).write_text(text, encoding="utf-8")
    assert {p.relative_to(pkg).as_posix() for p in numba_cache.sources(pkg / "a.py", pkg)} == {
        "a.py", "sub/__init__.py", "sub/b.py", "c.py", "e.py", "sub/h.py"}

    def stamp() -> str:
        return numba_cache.stamp.__wrapped__(pkg / "a.py", pkg)

    before = stamp()
    (pkg / "d.py").write_text("G = 3\n", encoding="utf-8")
    assert stamp() == before
    for name in ("c.py", "sub/h.py", "sub/__init__.py"):
        (pkg / name).write_text("G = 4\nH = 4\n", encoding="utf-8")
        assert stamp() != before
        before = stamp()


@pytest.mark.skipif(bool(getattr(config, "DISABLE_JIT", 0)), reason="no cache without the compiler")
def test_skatcore_functions_are_cached_under_the_stamp():
    from skatcore.bots import solver_kernel

    locator = solver_kernel.search._cache._impl.locator
    assert isinstance(locator, numba_cache._Stamped)
    assert locator.get_source_stamp() == numba_cache.stamp(Path(solver_kernel.__file__).resolve())
    # a function outside skatcore (this test's) is left to numba's own locators
    assert all(c.from_function(_rel, __file__) is None for c in numba_cache.LOCATORS)
