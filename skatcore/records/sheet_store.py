"""A live score sheet's storage: one SQLite file per sheet (``skat sheet``).

The table ``meta`` holds the sheet's players, dealer, stake, title and the
ruleset frozen when it was started; ``deals`` the deal records in the order
entered.  Every change is one transaction (:func:`transaction`): the file is
in WAL mode with ``synchronous=FULL``, so a process killed at any moment
leaves the sheet as it was before or after the change, never half of it.
``sqlite3`` is imported only when a sheet is opened (``skat --help`` stays fast).
"""

from __future__ import annotations

import json
import os
import stat
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from pathlib import Path

from skatcore.errors import InputError, shorten, shown
from skatcore.records.sheet_errors import problem

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing or sqlite3 (skat --help stays light)
if TYPE_CHECKING:
    import sqlite3

    from skatcore.records.session import Session

DB_FORMAT = "skat-sheet-db/1"
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS deals (
    n      INTEGER PRIMARY KEY,   -- position on the sheet, from 1
    uid    TEXT UNIQUE,           -- the record's id: a deal is never entered twice
    record TEXT NOT NULL,         -- the deal record (skat-deal/1) as JSON
    added  TEXT NOT NULL
);
"""


MAGIC = b"SQLite format 3\x00"  # the first bytes of every SQLite file
def sheet_path(name: str) -> Path:
    """The file of sheet ``name`` (``.sqlite`` added when it has no suffix)."""
    if not name.strip():
        raise InputError("expected a sheet name, got an empty one", path="NAME")
    if "\x00" in name:
        raise InputError(f"expected a file name, got one with a NUL character: {shown(name)}", path="NAME")
    path = Path(name)
    if name.endswith(("/", os.sep)) or path.name in ("", ".", ".."):
        raise InputError(f"expected a file name for the sheet, got the folder {shown(name)}", path="NAME")
    return path if path.suffix else path.with_suffix(".sqlite")


# how long a write waits for a sheet another process holds (the CLI 60 s; ``skat serve`` sets less per request)
BUSY_TIMEOUT: ContextVar[float] = ContextVar("BUSY_TIMEOUT", default=60.0)


def connect(path: Path, new: bool = False, wait: float | None = None) -> sqlite3.Connection:
    """An autocommit connection (transactions are explicit), FULL sync; a
    ``new`` sheet is put in WAL mode (which the file keeps).  ``wait``:
    seconds to wait for another process's lock (else :data:`BUSY_TIMEOUT`)."""
    import sqlite3

    from skatcore.records.sheet_guard import arm
    try:
        busy = BUSY_TIMEOUT.get() if wait is None else wait
        con = sqlite3.connect(str(path), timeout=busy, isolation_level=None)
        arm(con)  # before the file's schema is first read
        con.execute(f"PRAGMA busy_timeout = {int(busy * 1000)}")
        if new:
            con.execute("PRAGMA journal_mode = WAL")
        else:  # open it now (a read-only file system says so here, where a read-only fallback can follow)
            con.execute("SELECT 1 FROM sqlite_master LIMIT 1")
        con.execute("PRAGMA synchronous = FULL")
    except (sqlite3.Error, UnicodeDecodeError) as exc:  # (a damaged schema's bytes in SQLite's message)
        raise InputError(problem(exc, path), source=str(path)) from None
    return con


def _read_only(path: Path, wait: float | None = None) -> sqlite3.Connection | None:
    """A read-only connection where the sheet cannot be written (a read-only
    file system): ``show`` and ``export`` still work.  ``immutable`` only
    when no write-ahead log holds deals the file itself lacks."""
    import sqlite3
    from urllib.parse import quote

    from skatcore.records.sheet_guard import arm

    wal = path.with_name(path.name + "-wal")
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    for extra in ("", "&immutable=1"):
        if extra and wal.exists() and wal.stat().st_size:
            return None
        try:
            con = sqlite3.connect(uri + extra, uri=True, timeout=BUSY_TIMEOUT.get() if wait is None else wait,
                                  isolation_level=None)
            arm(con)
            con.execute("SELECT 1 FROM sqlite_master LIMIT 1")
            return con
        except (sqlite3.Error, UnicodeDecodeError):
            continue
    return None


def open_sheet(name: str, write: bool = True, wait: float | None = None) -> tuple[Path, sqlite3.Connection]:
    """The file and a connection of an existing sheet (one line naming ``skat
    sheet new`` if there is none, or saying what the file is instead), its
    schema checked before anything is read (:mod:`.sheet_guard`)."""
    from skatcore.records.sheet_guard import check_file

    path = sheet_path(name)
    try:
        st = check_file(path)
    except FileNotFoundError:
        raise InputError(f"no such sheet (start one with: skat sheet new {name} --ruleset R --players A,B,C)",
                         source=str(path)) from None
    except OSError as exc:
        raise InputError(f"cannot open the sheet ({exc.strerror})", source=str(path)) from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError("a directory, not a skat sheet", source=str(path))
    if not stat.S_ISREG(st.st_mode):  # a FIFO or device: never opened (it could block or never end)
        raise InputError("not a skat sheet (not a regular file)", source=str(path))
    try:
        with open(path, "rb") as f:
            head = f.read(len(MAGIC))
    except OSError as exc:
        raise InputError(f"cannot read the sheet ({exc.strerror})", source=str(path)) from None
    if head != MAGIC:  # never let SQLite touch (or leave -wal files beside) someone else's file
        raise InputError("not a skat sheet (an empty file)" if not head else "not a skat sheet (not an SQLite database)",
                         source=str(path))
    try:
        con = connect(path, wait=wait)
    except InputError:
        ro = None if write else _read_only(path, wait)
        if ro is None:
            raise
        con = ro
    return path, _checked(con, path)


def _checked(con: sqlite3.Connection, path: Path) -> sqlite3.Connection:
    """``con`` once the file's schema is exactly a sheet's (else closed, and refused)."""
    from skatcore.records.sheet_guard import check_schema

    try:
        check_schema(con, path, SCHEMA)
    except BaseException:
        con.close()
        raise
    return con


@contextmanager
def transaction(con: sqlite3.Connection, write: bool = True):
    """One transaction on a sheet: committed at the end, rolled back on any
    error (or a kill: SQLite drops the uncommitted part), the connection closed.
    ``write`` takes the write lock at once, so nobody writes between our read
    and our insert."""
    try:
        con.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            yield con
            con.execute("COMMIT")
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise
    finally:
        con.close()


def create(path: Path, meta: dict) -> None:
    """A new sheet file with ``meta`` (``format`` added); refused if a sheet
    or another file of this name exists (an unfinished ``new`` that left an
    empty file may retry).  A failure leaves no file behind that was not there."""
    import sqlite3
    if path.is_dir():
        raise InputError("a directory, not a skat sheet", source=str(path))
    existed = path.exists()
    if existed and path.stat().st_size:
        with open(path, "rb") as f:
            if f.read(len(MAGIC)) != MAGIC:
                raise InputError("a file of this name exists already (not a skat sheet): choose another name",
                                 source=str(path))
    try:
        con = connect(path, new=True)
        try:
            con.execute("BEGIN IMMEDIATE")
            for stmt in SCHEMA.split(";"):  # not executescript: it would commit first
                if stmt.strip():
                    con.execute(stmt)
            if con.execute("SELECT 1 FROM meta WHERE key = 'format'").fetchone():
                con.execute("ROLLBACK")
                raise InputError("a sheet of this name exists already", source=str(path))
            con.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                            [(k, json.dumps(v)) for k, v in {"format": DB_FORMAT, **meta}.items()])
            con.execute("COMMIT")
        finally:
            con.close()
    except BaseException as exc:
        if not existed:  # ours alone: nobody else has a -wal file beside a file that was not there
            for p in (path, *(path.with_name(path.name + x) for x in ("-wal", "-shm", "-journal"))):
                with suppress(OSError):
                    p.unlink(missing_ok=True)
        if isinstance(exc, sqlite3.Error):
            raise InputError(problem(exc, path), source=str(path)) from None
        if isinstance(exc, OSError) and not isinstance(exc, InputError):
            raise InputError(f"cannot write the sheet ({exc.strerror or exc})", source=str(path)) from None
        raise


def read_sheet(con: sqlite3.Connection, path: Path) -> tuple[dict, list[tuple[int, dict]]]:
    """The sheet's meta values and deals, checked as untrusted input
    (:func:`~skatcore.records.sheet_check.check_sheet`)."""
    from skatcore.records.sheet_check import check_sheet
    from skatcore.records.sheet_guard import count_items

    meta, deals = read_meta(con, path), read_deals(con, path)
    count_items([meta, *(d for _, d in deals)], str(path), "deals")
    check_sheet(meta, deals, str(path))
    return meta, deals


def _rows(con: sqlite3.Connection, sql: str, path: Path | None, table: str) -> list:
    import sqlite3
    try:
        return con.execute(sql).fetchall()
    except sqlite3.DatabaseError as exc:
        if "no such" in str(exc):  # table or column
            raise InputError(f"not a skat sheet (expected a table {table}: {shorten(str(exc))})",
                             source=str(path)) from None
        raise InputError(problem(exc, path), source=str(path) if path else None) from None
    except UnicodeDecodeError as exc:
        raise InputError(problem(exc, path), source=str(path) if path else None) from None


def _json(value, source: str, where: str):
    from skatcore.rules.reading import read_json

    if not isinstance(value, str):
        kind = "nothing" if value is None else f"{type(value).__name__} {shorten(repr(value), 40)}"
        raise InputError(f"expected JSON text, got {kind}", source=source, path=where)
    try:
        return read_json(value, source)
    except InputError as exc:
        raise exc.at(where) from None


def read_meta(con: sqlite3.Connection, path: Path) -> dict:
    """The sheet's meta table (players, ruleset, ...); checks that ``path`` is a skat sheet."""
    from skatcore.records.sheet_guard import check_meta_size

    check_meta_size(con, path)
    meta: dict = {}
    for key, value in _rows(con, "SELECT key, value FROM meta", path, "meta(key, value)"):
        where = f"meta.{shorten(str(key), 40)}"
        if not isinstance(key, str) or key in meta:
            raise InputError("expected a key given once" if key in meta else "expected a text key",
                             source=str(path), path=where)
        meta[key] = _json(value, str(path), where)
    if meta.get("format") != DB_FORMAT:
        raise InputError(f"not a skat sheet (expected format {DB_FORMAT!r})", source=str(path))
    return meta


def read_deals(con: sqlite3.Connection, path: Path | None = None) -> list[tuple[int, dict]]:
    """``(n, record)`` of every deal on the sheet, numbered 1, 2, 3 ... in order."""
    from skatcore.records.sheet_guard import check_deals_size

    check_deals_size(con, path)
    out = []
    for i, (n, rec) in enumerate(_rows(con, "SELECT n, record FROM deals ORDER BY n", path, "deals(n, record)")):
        if type(n) is not int or n != i + 1:
            raise InputError(f"expected deal number {i + 1} (the deals numbered 1, 2, 3 ...), got {shorten(repr(n), 40)}",
                             source=str(path), path=f"deals[{i}]")
        record = _json(rec, str(path), f"deals[{i}]")
        if not isinstance(record, dict):
            raise InputError("expected a deal record (a mapping)", source=str(path), path=f"deals[{i}]")
        out.append((n, record))
    return out


def deal_with_id(con: sqlite3.Connection, uid) -> int | None:
    """The number of the deal whose record has ``id`` ``uid``, if any."""
    row = con.execute("SELECT n FROM deals WHERE uid = ?", (str(uid),)).fetchone()
    return row[0] if row else None


def last_deal(con: sqlite3.Connection) -> int | None:
    """The number of the last deal on the sheet (None: none yet)."""
    row = con.execute("SELECT n FROM deals ORDER BY n DESC LIMIT 1").fetchone()
    return row[0] if row else None


def _uid(record: dict) -> str | None:
    return None if record.get("id") is None else str(record["id"])


def add_deal(con: sqlite3.Connection, n: int, record: dict) -> None:
    """Deal ``n`` with its ``record`` appended (the time noted)."""
    con.execute("INSERT INTO deals (n, uid, record, added) VALUES (?, ?, ?, ?)",
                (n, _uid(record), json.dumps(record, ensure_ascii=False), now()))
    touch(con)


def replace_deal(con: sqlite3.Connection, n: int, record: dict) -> None:
    """Deal ``n``'s record replaced (a correction; the caller notes the time once for all)."""
    con.execute("UPDATE deals SET record = ?, uid = ? WHERE n = ?", (json.dumps(record, ensure_ascii=False), _uid(record), n))


def remove_deal(con: sqlite3.Connection, n: int) -> None:
    """Deal ``n`` removed (``undo``)."""
    con.execute("DELETE FROM deals WHERE n = ?", (n,))
    touch(con)


def set_meta(con: sqlite3.Connection, key: str, value) -> None:
    """Meta ``key`` set to ``value`` (as JSON)."""
    con.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, json.dumps(value)))


def touch(con: sqlite3.Connection) -> None:
    """Note the time of the change (meta ``updated``)."""
    set_meta(con, "updated", now())


def now() -> str:
    """The current UTC time, ISO 8601 to the second."""
    from datetime import UTC, datetime  # not at the top: every skat --help would import it

    return datetime.now(UTC).isoformat(timespec="seconds")


def stored_rules(meta: dict, path: Path):
    """The sheet's ruleset as frozen at ``sheet new`` (a sheet from before: the
    file as it is), under the trust and folder rules of a record (sheet_check)."""
    from skatcore.records.sheet_check import sheet_rules

    return sheet_rules(meta, path)


def stored_session(meta: dict, path: Path, deals, rules=None) -> Session:
    """The sheet's session with every stored deal entered (``deals`` as
    :func:`read_deals` gives them), under the sheet's ruleset."""
    from skatcore.records.session import Session

    rules = rules or stored_rules(meta, path)
    session = Session(rules, meta["players"], stake=meta.get("stake"), dealer=meta.get("dealer", 0), source=str(path))
    for i, (_, deal) in enumerate(deals):
        session.add(deal, i)
    return session
