"""What an SQLite error on a sheet means to the scorer (read-only, disk
full, busy, stopped by the step bound, not a sheet): one line."""

from __future__ import annotations

import os
from pathlib import Path

from skatcore.errors import shorten

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

MAX_STEPS = 50_000_000  # SQLite VM instructions per connection (~1 s); reading a full 8 MiB sheet takes < 1 %


def stopped_line() -> str:
    return (f"reading the sheet took over {MAX_STEPS:,} SQLite steps and was stopped (a sheet as skat writes it "
            "needs far fewer: expected a skat sheet, not a crafted file)")


def value_limit() -> int:
    """The longest value SQLite reads from a sheet at all: 8 x ``max_bytes()``
    (64 MiB), so a value over the document limit is still measured and
    named, and one far over it (a 900 MB blob) never allocated."""
    from skatcore.rules.reading import max_bytes

    return min(8 * max_bytes(), 1_000_000_000)


def is_stopped(exc: BaseException) -> bool:
    name = getattr(exc, "sqlite_errorname", "") or ""
    return "INTERRUPT" in name or "interrupted" in str(exc).lower()


_FREE_BYTES = 1 << 20  # less free space than this, and SQLite's "disk I/O error" means a full disk


def problem(exc: sqlite3.Error | UnicodeDecodeError, path: Path | None = None) -> str:
    """What an SQLite error means to the scorer, from its code and the file
    system; nothing was written (the transaction rolled back).  A
    :class:`UnicodeDecodeError`: SQLite's message quoted a damaged file's bytes."""
    if isinstance(exc, UnicodeDecodeError):
        return "not a skat sheet, or a damaged one (sqlite: an error quoting bytes that are not UTF-8)"
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc).lower()
    if is_stopped(exc):
        return stopped_line()
    if "TOOBIG" in name or "too big" in text:
        return (f"not a skat sheet: a value longer than {value_limit():,} bytes (expected each at most "
                "SKAT_MAX_DOCUMENT_BYTES, the limit of a document)")
    if "BUSY" in name or "LOCKED" in name or "locked" in text:
        return "the sheet is busy: another scorer held it for over 60 s; nothing was changed, try again"
    if name.startswith("SQLITE_FULL") or "disk is full" in text or (("IOERR" in name or "i/o error" in text)
                                                                    and _free(path) < _FREE_BYTES):
        return "the disk is full: nothing was changed"
    if "READONLY" in name or "readonly" in text or (("CANTOPEN" in name or "unable to open" in text) and _read_only_fs(path)):
        return ("the sheet is read-only: the file system is mounted read-only; nothing was changed"
                if _read_only_fs(path) else "the sheet is read-only (no permission to write it): nothing was changed")
    if "CANTOPEN" in name or "unable to open" in text:
        return _why_not_open(path)
    if "IOERR" in name or "i/o error" in text:
        return f"disk I/O error (sqlite: {shorten(str(exc))}): nothing was changed"
    if "NOTADB" in name or "not a database" in text:
        return "not a skat sheet (not an SQLite database)"
    return f"not a skat sheet, or a damaged one (sqlite: {shorten(str(exc))})"


def _statvfs(path: Path | None):
    for p in (path, path and path.parent) if path else ():
        try:
            return os.statvfs(p or ".")
        except (OSError, ValueError):
            continue
    return None


def _read_only_fs(path: Path | None) -> bool:
    st = _statvfs(path)
    return bool(st and st.f_flag & os.ST_RDONLY)


def _free(path: Path | None) -> int:
    st = _statvfs(path)
    return st.f_bavail * st.f_frsize if st else _FREE_BYTES


def _why_not_open(path: Path | None) -> str:
    """SQLite's "unable to open database file", said for what it is."""
    if path is None:
        return "cannot open the sheet file"
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        return f"no such folder {shorten(str(folder))!r}"
    if path.is_dir():
        return "a directory, not a skat sheet"
    if not os.access(folder, os.W_OK | os.X_OK):
        return "no permission to write in the sheet's folder (SQLite keeps its -wal and -shm files beside the sheet)"
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return "no permission to read and write the sheet file"
    return "cannot open the sheet file (sqlite: unable to open database file)"
