"""What pins a comparison's results (docs/formats.md#provenance): each
ruleset's resolved content (after ``extends``, every parameter filled in)
with its SHA-256, the distribution, version and file hash of every plugin
and player, the ``--games`` files' hashes, the seed, the deals and the
versions of the libraries the engine runs on.  ``skat compare`` puts it in
``--json``, the HTML report and beside the per-deal file; ``--replay``
(:mod:`skatcore.sim.replay`) compares it with what it finds now."""

from __future__ import annotations

import hashlib
import inspect
import json
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache, partial
from importlib import metadata
from pathlib import Path
from typing import Any

from skatcore.errors import InputError

FORMAT = "skat-provenance/1"
#: the libraries whose versions are recorded (``None`` where one is not installed)
LIBRARIES = ("numpy", "numba", "llvmlite", "pluggy", "PyYAML", "pyarrow", "pandas")
_LOCAL_MODULE = "skat_local_plugin_"  # manager.load_file's module names: a per-process hash, never compared


def plain(value: Any) -> Any:
    """``value`` as JSON data that reads back the same: mapping keys as text,
    tuples as lists, a whole float as the integer (the readers make ``1.0`` an
    integer), a NaN or infinity as its text."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, float):
        if not math.isfinite(value):
            return repr(value)
        return int(value) if value.is_integer() and abs(value) <= 2**53 else value
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return repr(value)


def canonical(value: Any) -> str:
    """The canonical text of ``value`` whose SHA-256 pins it: JSON, keys
    sorted, one space of indent, UTF-8 as it is, a final newline."""
    return json.dumps(plain(value), sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def file_sha256(path: str | Path) -> str:
    """A file's SHA-256, read in pieces; an unreadable file is an :class:`InputError` naming it."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            while piece := f.read(1 << 20):
                digest.update(piece)
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read file ({getattr(exc, 'strerror', None) or exc})", source=str(path)) from None
    return digest.hexdigest()


# ---------------------------------------------------------------------------
# Code: the distribution, version and file of a plugin or a player
# ---------------------------------------------------------------------------


@lru_cache(maxsize=4)
def _distributions(path: tuple[str, ...]) -> Mapping[str, list[str]]:
    """Top-level module -> distributions (per ``sys.path``: a test installs packages into a folder on it)."""
    return metadata.packages_distributions()


def code_of(obj: Any) -> dict[str, Any]:
    """Where ``obj`` (a plugin factory, a player factory) comes from: its
    module, the installed distribution holding it and its version (``None``
    for a local file or a module on ``PYTHONPATH``), and its module file with
    the file's SHA-256 (the code a version number may not pin: a local plugin,
    an edited source tree)."""
    while isinstance(obj, partial):
        obj = obj.func
    name: str
    if inspect.ismodule(obj):  # a plugin module, registered as it is
        name = obj.__name__
    else:
        name = (getattr(obj, "__module__", None) if callable(obj) else None) or type(obj).__module__
    module = sys.modules.get(name)
    file = getattr(module, "__file__", None)
    dists = sorted(_distributions(tuple(sys.path)).get(name.partition(".")[0], ()))
    dist = dists[0] if dists and not name.startswith(_LOCAL_MODULE) else None
    version = None
    if dist:
        try:
            version = metadata.version(dist)
        except metadata.PackageNotFoundError:
            dist = None
    return {"module": None if name.startswith(_LOCAL_MODULE) else name, "distribution": dist, "version": version,
            "file": str(Path(file).resolve()) if file else None, "sha256": file_sha256(file) if file else None}


# ---------------------------------------------------------------------------
# Rulesets, players, games files
# ---------------------------------------------------------------------------


def ruleset_content(rules) -> dict[str, Any]:
    """What a ruleset says once ``extends`` is resolved (``rules``: compiled
    or loaded): its name, description and its plugins in order, each with
    every parameter (defaults filled in) and its ``extends`` layer."""
    return plain({"name": rules.name, "description": rules.description,
                  "plugins": [{"plugin": p.key, "params": p.params, "layer": p.layer} for p in rules.plugins]})


def replay_ref(ref: str) -> str:
    """How a replay names the ruleset ``ref`` names: a shipped or installed
    ruleset by its name, a file by its absolute path."""
    from skatcore.rules.ruleset import find_ruleset, installed_rulesets, shipped_rulesets

    path = find_ruleset(ref)
    for found in (shipped_rulesets(), installed_rulesets()):
        if ref in found and found[ref] == path:
            return ref
    return str(path.resolve())


def ruleset_pin(ref: str) -> dict[str, Any]:
    """A ruleset's entry of the provenance: how to name it again, its file,
    its resolved content and that content's SHA-256, its plugins' code."""
    from skatcore.rules.compiler import get_rules

    rules = get_rules(ref)
    content = ruleset_content(rules)
    plugins = [{"plugin": p.key, "origin": p.origin, **code_of(p.factory)} for p in rules.plugins]
    return {"ref": replay_ref(ref), "name": rules.name, "file": str(Path(rules.source).resolve()),
            "sha256": sha256_text(canonical(content)), "content": content, "plugins": plugins}


def player_pin(spec: str) -> dict[str, Any]:
    """A ``--players`` slot: what was typed, the settings the player's factory
    takes (its defaults, the ``name:key=value`` options over them) and its code."""
    from skatcore.bots.registry import resolve_player

    factory = resolve_player(spec)
    given: dict[str, Any] = {}
    target = factory
    while isinstance(target, partial):
        given = {**target.keywords, **given}
        target = target.func
    settings: dict[str, Any] = {}
    try:
        parameters = inspect.signature(target).parameters.values()
    except (TypeError, ValueError):
        parameters = ()  # type: ignore[assignment]
    for p in parameters:
        if p.name in ("rules", "seed", "self") or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        settings[p.name] = None if p.default is p.empty else p.default
    return {"player": spec, "settings": plain({**settings, **given}), **code_of(factory)}


def games_pin(path: str) -> dict[str, Any]:
    p = Path(path)
    if not p.is_file():
        raise InputError("no such file", source=path, path="--games")
    return {"file": str(p.resolve()), "size": p.stat().st_size, "sha256": file_sha256(p)}


def software() -> dict[str, str | None]:
    """Python's version and those of :data:`LIBRARIES` (``None``: not installed)."""
    import platform

    out: dict[str, str | None] = {"python": f"{platform.python_implementation()} {platform.python_version()}"}
    for name in LIBRARIES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def pins(refs: Sequence[str], slots: Sequence[str] | None, games: Iterable[str] | None, *, seed: int,
         deals: int | None, options: dict[str, Any]) -> dict[str, Any]:
    """The provenance of a comparison as it starts (:class:`~skatcore.sim.report.Provenance`
    adds skatcore's version and commit, the command line, the date and the machine)."""
    return {"format": FORMAT, "rulesets": [ruleset_pin(r) for r in refs],
            "players": None if slots is None else [player_pin(s) for s in slots],
            "games": None if games is None else [games_pin(g) for g in games],
            "seed": seed, "deals": deals, "options": plain(options), "software": software()}


@lru_cache(maxsize=1)
def sources_sha256() -> str:
    """One SHA-256 of skatcore's own Python code (the package and the built-in
    plugins): each ``.py`` file's path inside its package and its hash, in order.
    The commit does not see an edit not yet committed; this does."""
    import skatcore
    import skatcore_plugins

    lines = []
    for package in (skatcore, skatcore_plugins):
        root = Path(str(package.__file__)).resolve().parent
        for f in sorted(root.rglob("*.py")):
            if f.relative_to(root).parts[0] == "web":  # the web app shows results, never makes them
                continue
            lines.append(f"{package.__name__}/{f.relative_to(root).as_posix()} {file_sha256(f)}\n")
    return sha256_text("".join(lines))
