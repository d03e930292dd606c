"""Cache stamps that cover what a compiled function depends on.

numba's cache (``@njit(cache=True)``) stamps a function's machine code with
its own source file only, and treats module globals as constants: a change
to a compiled helper it calls from another module (the solver's kernel
inlines its moves and table, the heuristic's kernel the engine's), or to a
global table there, would leave stale machine code in the cache - a wrong
answer with no error.  Importing this module puts locators first in numba's
list that, for skatcore's own files only, stamp the cache with the file and
every skatcore module it imports, directly or through others.  Each compiled
module imports it before its first ``@njit``.

It also makes a cache miss wait for a compile in another process, and a
compile say so on a terminal (:mod:`skatcore.warmup`).
"""

from __future__ import annotations

from pathlib import Path

from numba.core import caching, event

from skatcore import warmup
from skatcore.cache_stamp import PACKAGE, sources, stamp

__all__ = ["LOCATORS", "PACKAGE", "sources", "stamp"]


class _Stamped:
    """Mixed in before one of numba's locators: the same cache place, the
    stamp of :func:`stamp`; declines functions outside skatcore."""

    _py_file: str

    def get_source_stamp(self) -> str:
        return stamp(Path(self._py_file).resolve())

    @classmethod
    def from_function(cls, py_func, py_file):
        if not Path(py_file).resolve().is_relative_to(PACKAGE):
            return None
        return super().from_function(py_func, py_file)  # type: ignore[misc]


LOCATORS: list[type] = [type(f"Stamped{base.__name__}", (_Stamped, base), {})
            for base in (caching.UserProvidedCacheLocator, caching.InTreeCacheLocator, caching.UserWideCacheLocator)]

if not any(issubclass(c, _Stamped) for c in caching.CacheImpl._locator_classes):
    caching.CacheImpl._locator_classes[:0] = LOCATORS  # type: ignore[assignment]


# One process compiles skatcore's functions at a time (skatcore.warmup): a miss waits for the
# process that holds the lock and loads what it saved, or takes the lock for the compile that follows.
_load_overload = caching.FunctionCache.load_overload


def _load_or_wait(self, sig, target_context):
    found = _load_overload(self, sig, target_context)
    if found is None and isinstance(self._impl.locator, _Stamped):
        return warmup.claim(lambda: _load_overload(self, sig, target_context), self._py_func.__module__ or "")
    return found


class _Compiling(event.Listener):
    """The outermost compile (numba compiles what a function calls inside
    its own): the line on the screen while it runs, the lock let go after."""

    depth = 0

    def on_start(self, ev):
        self.depth += 1
        if self.depth == 1:
            warmup.compiling(getattr(ev.data["dispatcher"].py_func, "__module__", "") or "")

    def on_end(self, ev):
        self.depth -= 1
        if self.depth == 0:
            warmup.compiled()


if getattr(caching.FunctionCache.load_overload, "__name__", "") != _load_or_wait.__name__:
    caching.FunctionCache.load_overload = _load_or_wait  # type: ignore[method-assign]
    event.register("numba:compile", _Compiling())
