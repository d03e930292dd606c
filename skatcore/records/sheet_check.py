"""A live sheet's file is untrusted input, like any record: someone may hand
it over, or craft it.  Everything read from it is checked before it is used
(:func:`check_sheet`), and it obeys the rules a record obeys (trust.py):

* the paths it stores (its ruleset file, the frozen ruleset's files and
  plugin sources) are read only when they lie inside the sheet's folder, or
  are shipped or installed ruleset files; a listed file is read only when it
  is a regular file of at most :data:`MAX_LISTED_BYTES`;
* code (``module:attr``, ``./house.py``) the frozen ruleset names runs only
  with ``--trust``, or when the ruleset file it came from really lies in a
  trusted directory and really names it now: the sheet's own word for where
  a plugin came from counts for nothing.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import Any

from skatcore.errors import InputError, shorten, shown

MAX_LISTED_BYTES = 4 * 1024 * 1024  # a ruleset file; far more is not one (a sheet listing /dev/zero read forever)


def folder_of(path: Path) -> Path:
    return Path(os.path.abspath(path)).parent


# ---------------------------------------------------------------------------
# The sheet's contents
# ---------------------------------------------------------------------------


def check_sheet(meta: dict, deals: list[tuple[int, dict]], source: str) -> None:
    """The meta values and deals of a sheet, as a session record's (the
    session schema: players, dealer, stake, ``void``/``history``), and the
    frozen ruleset's shape.  Paths: ``meta.players``, ``deals[2].history``."""
    from skatcore.records.money import check_stake
    from skatcore.records.session_record import FORMAT
    from skatcore.rules.ruleset import load_schema, validate

    if type(meta.get("dealer")) is float and meta["dealer"].is_integer():
        meta["dealer"] = int(meta["dealer"])  # 1.0 is an integer to JSON Schema, and so to us
    for key in ("ruleset", "players"):
        if key not in meta:
            raise InputError(f"missing (expected the sheet's {key})", source=source, path=f"meta.{key}")
    doc = {"format": FORMAT, "ruleset": meta["ruleset"], "players": meta["players"], "dealer": meta.get("dealer", 0),
           **{k: meta[k] for k in ("stake", "title") if meta.get(k) is not None}, "deals": [d for _, d in deals]}
    try:
        validate(doc, load_schema("session.schema.json"), source)
    except InputError as exc:
        if exc.path and not exc.path.startswith("deals"):
            exc.path = f"meta.{exc.path}"
        raise
    names = meta["players"]
    if len(set(names)) != len(names):
        raise InputError(f"expected different names, got {shown(names)}", source=source, path="meta.players")
    if meta.get("dealer", 0) >= len(names):
        raise InputError(f"expected a player index 0..{len(names) - 1}, got {meta['dealer']}", source=source,
                         path="meta.dealer")
    try:
        check_stake(meta.get("stake"))
    except InputError as exc:
        raise exc.at("meta.stake", source) from None
    if "frozen" in meta:
        _check_frozen(meta["frozen"], source)


def _check_frozen(frozen: Any, source: str) -> None:
    """The shape :func:`~skatcore.rules.ruleset.freeze_ruleset` writes."""
    def fail(path: str, expected: str, got: Any) -> None:
        raise InputError(f"expected {expected}, got {shorten(repr(got))}", source=source, path=f"meta.frozen{path}")

    if not isinstance(frozen, dict):
        fail("", "the frozen ruleset (a mapping)", frozen)
    for key in ("name", "description", "source"):
        if not isinstance(frozen.get(key), str):
            fail(f".{key}", "text", frozen.get(key))
    files = frozen.get("files", {})
    if not isinstance(files, dict) or not all(isinstance(v, (str, type(None))) for v in files.values()):
        fail(".files", "a mapping of file names to SHA-256 digests", files)
    plugins = frozen.get("plugins")
    if not isinstance(plugins, list):
        fail(".plugins", "a list of plugins", plugins)
    for i, spec in enumerate(plugins):
        if not (isinstance(spec, list) and len(spec) == 4 and isinstance(spec[0], str) and isinstance(spec[1], dict)
                and isinstance(spec[2], str) and type(spec[3]) is int and 0 <= spec[3] < 1000):
            fail(f".plugins[{i}]", "[key, parameters, ruleset file, layer]", spec)


# ---------------------------------------------------------------------------
# Paths and trust
# ---------------------------------------------------------------------------


def _ruleset_dirs() -> set[Path]:
    """The folders of the shipped and installed rulesets (their files may be read)."""
    from skatcore.rules.ruleset import all_rulesets

    return {p.resolve().parent for p in all_rulesets().values()}


def readable(ref: str, folder: Path) -> Path | None:
    """The file ``ref`` (a path the sheet stores) if the sheet may read it:
    inside its folder, or a shipped or installed ruleset's; else ``None``."""
    try:
        path = (folder / ref).resolve()
    except (OSError, ValueError):
        return None
    if path.is_relative_to(folder.resolve()) or path.parent in _ruleset_dirs():
        return path
    return None


def read_listed(path: Path) -> bytes | None:
    """A listed file's bytes: only a regular file of at most
    :data:`MAX_LISTED_BYTES` (no device, FIFO or directory); else ``None``."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO must not block us
    except (OSError, ValueError):
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_LISTED_BYTES:
            return None
        data = f.read(MAX_LISTED_BYTES + 1)
    return data if len(data) <= MAX_LISTED_BYTES else None


def changed_files(frozen: dict, folder: Path) -> list[str]:
    """The frozen ruleset's files that changed or vanished since; a file the
    sheet may not read (outside its folder) is not looked at."""
    out = []
    for name, digest in frozen.get("files", {}).items():
        path = readable(name, folder)
        if path is None:
            continue
        data = read_listed(path)
        if data is None or hashlib.sha256(data).hexdigest() != digest:
            out.append(name)
    return out


def ruleset_file(ref: str, folder: Path) -> Path:
    """The sheet's ruleset file, found as a record's: a shipped or installed
    name, or a file inside the sheet's folder."""
    from skatcore.rules.ruleset import find_ruleset

    return find_ruleset(ref, folder)


def _names(src: Path, key: str) -> bool:
    """Whether the ruleset file ``src`` itself lists plugin ``key`` (read now, not taken from the sheet)."""
    from skatcore.rules.ruleset import load_doc

    if read_listed(src) is None:
        return False
    try:
        doc = load_doc(src, seen=())
    except InputError:
        return False
    return key in doc["plugins"] and Path(doc["_sources"][key]).resolve() == src


def sheet_rules(meta: dict, path: Path):
    """The sheet's compiled rules: the ruleset frozen at ``sheet new`` (a
    sheet from before: its ruleset file, found as a record's)."""
    from skatcore.rules.compiler import compile_rules, get_rules
    from skatcore.rules.manager import builtin_plugins, entry_point_plugins
    from skatcore.rules.ruleset import Ruleset, resolve_plugin
    from skatcore.rules.trust import check_code_allowed

    source, folder = str(path), folder_of(path)
    if "frozen" not in meta:
        try:
            return get_rules(ruleset_file(meta["ruleset"], folder))
        except InputError as exc:
            raise exc if exc.source else exc.at("meta.ruleset", source) from None
    frozen, specs = meta["frozen"], []
    for i, (key, params, src, layer) in enumerate(frozen["plugins"]):
        where = f"meta.frozen.plugins[{i}]"
        try:
            if ":" in key or (key.endswith(".py") and key not in builtin_plugins() and key not in entry_point_plugins()):
                real = readable(src, folder)  # code: only from a file the sheet may name
                if real is None and (key.endswith(".py") or ".py:" in key):
                    raise InputError(f"plugin {shorten(key)!r} is a file beside {shorten(src)!r}, outside the sheet's "
                                     "folder (expected files inside it)")
                check_code_allowed(key, real if real is not None and _names(real, key) else None)
                src = str(real) if real is not None else src
            specs.append(resolve_plugin(key, params, source=src, layer=layer))
        except InputError as exc:
            inner = f"{exc.path}: " if exc.path else ""
            raise InputError(inner + exc.message, source=source, path=where) from None
    rules = Ruleset(name=frozen["name"], description=frozen["description"], source=frozen["source"], plugins=tuple(specs))
    try:
        return compile_rules(rules)
    except InputError as exc:  # about the frozen ruleset: that is in the sheet
        if exc.source in (None, frozen["source"]):
            exc.source, exc.path = source, "meta.frozen" + (f": {exc.path}" if exc.path else "")
        raise
