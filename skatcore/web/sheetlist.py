"""The sheets of the server's folder, listed cheaply (issue 35): the home
page and the server's start read each sheet's meta table only, its schema
checked first (:mod:`skatcore.records.sheet_guard`), once per change of the
file (its size and times, and its write-ahead log's); never its deals.  A
sheet that cannot be read is listed as such with its one line, and never
stops the others: a lock is waited for :data:`WAIT` seconds, a crafted
file is refused by its schema or stopped by the step bound."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from skatcore.errors import InputError, printable, shorten

WAIT = 0.5  # seconds to wait for another process's lock on one sheet while listing
MAX_LISTED = 500  # sheets listed at most (the folder's first by name)

_cache: dict[str, tuple[tuple, dict]] = {}
_lock = threading.Lock()


def _stamp(path: Path) -> tuple:
    out: list = []
    for p in (path, path.with_name(path.name + "-wal")):
        try:
            st = os.lstat(p)
        except OSError:
            out.append(None)
            continue
        out.append((st.st_mode, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
    return tuple(out)


def entry(path: Path) -> dict:
    """``{"name", "meta"}`` of a readable sheet, or ``{"name", "error"}``: what
    is wrong with it, in one line (without the server's path)."""
    stamp = _stamp(path)
    with _lock:
        hit = _cache.get(str(path))
    if hit and hit[0] == stamp:
        return hit[1]
    out = {"name": path.stem, **_read(path)}
    with _lock:
        if len(_cache) > 2 * MAX_LISTED:
            _cache.clear()
        _cache[str(path)] = (stamp, out)
    return out


def _read(path: Path) -> dict:
    import sqlite3

    from skatcore.records import sheet_store as store

    try:
        _, con = store.open_sheet(str(path), write=False, wait=WAIT)
        with store.transaction(con, write=False):
            meta = store.read_meta(con, path)
    except InputError as exc:
        return {"error": _line(exc)}
    except (sqlite3.Error, UnicodeDecodeError, OSError) as exc:  # whatever a file does, the list goes on
        return {"error": _line(InputError(store.problem(exc, path) if not isinstance(exc, OSError)
                                          else f"cannot read the sheet ({exc.strerror or exc})"))}
    players = meta.get("players")
    title = meta.get("title")
    ruleset = meta.get("ruleset")
    if not (isinstance(players, list) and all(isinstance(p, str) for p in players) and len(players) <= 4
            and isinstance(ruleset, str) and isinstance(title, (str, type(None)))):
        return {"error": "not a skat sheet (expected meta players, ruleset and title as skat writes them)"}
    return {"meta": meta}


def _line(exc: InputError) -> str:
    where = f"{exc.path}: " if exc.path else ""
    return printable(shorten(where + exc.message, 200))


def entries(folder: Path) -> list[dict]:
    """Every sheet file of ``folder`` (``*.sqlite`` with a sheet name), by name."""
    from skatcore.web.pages import SHEET_NAME

    try:
        paths = sorted(p for p in folder.glob("*.sqlite") if SHEET_NAME.fullmatch(p.stem))
    except OSError:
        return []
    return [entry(p) for p in paths[:MAX_LISTED]]


def home_rows(folder: Path) -> list[dict]:
    """What the home page shows of each sheet: title, players and ruleset,
    or the line of a sheet that cannot be read."""
    rows = []
    for e in entries(folder):
        if "error" in e:
            rows.append({"name": e["name"], "title": e["name"], "players": [], "ruleset": None,
                         "error": e["error"]})
            continue
        meta = e["meta"]
        rows.append({"name": e["name"], "title": printable(shorten(meta.get("title") or e["name"], 80)),
                     "players": [printable(shorten(p, 40)) for p in meta["players"]],
                     "ruleset": printable(shorten(meta["ruleset"], 80))})
    return rows
