"""The stamp of a module's source and of every skatcore module it imports
(:mod:`skatcore.numba_cache` stamps numba's cache with it; :mod:`skatcore.warmup`
keys its "already compiled" note on it).  No numba here: every command reads it."""

from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


# import statements anywhere in a file (a regular expression: parsing every file took ~10 times as long)
_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^\n]*)", re.M)


@functools.cache
def _imports(path: Path, package: Path) -> frozenset[Path]:
    """The files of ``package``'s modules that the module at ``path`` imports
    (``from .x import``, ``from . import x``, ``from skatcore.x import``,
    ``import skatcore.x``), wherever in the file."""
    text = path.read_text(encoding="utf-8")
    found: set[Path] = set()
    for dots, module, names in _FROM.findall(text):
        parts = module.split(".") if module else []
        if dots:
            base = path.parent
            for _ in range(len(dots) - 1):
                base = base.parent
        elif parts and parts[0] == package.name:
            base = package.parent
        else:
            continue
        target = base.joinpath(*parts)
        found.add(target.with_name(target.name + ".py"))
        for name in re.sub(r"#[^\n]*", "", names).strip("()").split(","):
            if name.split():  # a module of the package, else a name its __init__ defines
                module = target / f"{name.split()[0]}.py"
                found.add(module if module.is_file() else target / "__init__.py")
    for line in _IMPORT.findall(text):
        for name in line.split("#")[0].split(","):
            parts = name.split()[0].split(".") if name.split() else []
            if parts and parts[0] == package.name:
                target = package.parent.joinpath(*parts)
                found.update((target.with_name(target.name + ".py"), target / "__init__.py"))
    return frozenset(p for p in found if p.is_file() and p.resolve().is_relative_to(package))


def sources(path: Path, package: Path = PACKAGE) -> list[Path]:
    """The module at ``path`` and every module of ``package`` it imports,
    directly or not; not what numba_cache.py imports (this stamp, the warm-up:
    they change no machine code, and an edit there should not recompile all)."""
    seen = {path}
    todo = [path]
    while todo:
        here = todo.pop()
        if here.name == "numba_cache.py" and here.parent == package:
            continue
        for p in _imports(here, package):
            if p not in seen:
                seen.add(p)
                todo.append(p)
    return sorted(seen)


@functools.cache
def stamp(path: Path, package: Path = PACKAGE) -> str:
    """A hash of the sources (:func:`sources`) of the module at ``path``."""
    h = hashlib.sha256()
    for p in sources(path, package):
        h.update(str(p.relative_to(package)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()
