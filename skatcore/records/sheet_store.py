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
from contextlib import contextmanager
from pathlib import Path

from skatcore.errors import InputError, shorten

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


def problem(exc: sqlite3.Error) -> str:
    """What an SQLite error means to the scorer; nothing was written (the transaction rolled back)."""
    text = str(exc).lower()
    for words, meaning in (("locked", "the sheet is busy: another scorer held it for over 60 s; nothing was changed, try again"),
                           ("readonly", "the sheet is read-only: nothing was changed"),
                           ("full", "the disk is full: nothing was changed"),
                           ("unable to open", "cannot open the sheet file")):
        if words in text:
            return meaning
    return f"not a skat sheet, or a damaged one (sqlite: {shorten(str(exc))})"


def sheet_path(name: str) -> Path:
    """The file of sheet ``name`` (``.sqlite`` added when it has no suffix)."""
    if not name.strip():
        raise InputError("expected a sheet name, got an empty one", path="NAME")
    path = Path(name)
    return path if path.suffix else path.with_suffix(".sqlite")


def connect(path: Path) -> sqlite3.Connection:
    """An autocommit connection (transactions are explicit), WAL, FULL sync."""
    import sqlite3
    try:
        con = sqlite3.connect(str(path), timeout=60, isolation_level=None)
        con.execute("PRAGMA busy_timeout = 60000")
        con.execute("PRAGMA journal_mode = WAL")
        con.execute("PRAGMA synchronous = FULL")
    except sqlite3.DatabaseError as exc:
        raise InputError(f"not a skat sheet ({exc})", source=str(path)) from None
    return con


def open_sheet(name: str) -> tuple[Path, sqlite3.Connection]:
    """The file and a connection of an existing sheet (one line naming ``skat sheet new`` if there is none)."""
    path = sheet_path(name)
    if not path.is_file():
        raise InputError(f"no such sheet (start one with: skat sheet new {name} --ruleset R --players A,B,C)", source=str(path))
    return path, connect(path)


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
    of this name exists (an unfinished ``new`` that left an empty file may retry)."""
    if path.exists() and path.stat().st_size:
        con = connect(path)
        try:
            has = con.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone()
            if has and con.execute("SELECT 1 FROM meta WHERE key = 'format'").fetchone():
                raise InputError("a sheet of this name exists already", source=str(path))
        finally:
            con.close()
    con = connect(path)
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


def read_meta(con: sqlite3.Connection, path: Path) -> dict:
    """The sheet's meta table (players, ruleset, ...); checks that ``path`` is a skat sheet."""
    import sqlite3
    try:
        meta = {k: json.loads(v) for k, v in con.execute("SELECT key, value FROM meta").fetchall()}
    except (sqlite3.DatabaseError, ValueError) as exc:
        raise InputError(f"not a skat sheet ({exc})", source=str(path)) from None
    if meta.get("format") != DB_FORMAT:
        raise InputError(f"not a skat sheet (expected format {DB_FORMAT!r})", source=str(path))
    return meta


def read_deals(con: sqlite3.Connection) -> list[tuple[int, dict]]:
    """``(n, record)`` of every deal on the sheet, in order."""
    return [(n, json.loads(rec)) for n, rec in con.execute("SELECT n, record FROM deals ORDER BY n")]


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
    from datetime import datetime, timezone  # not at the top: every skat --help would import it

    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def stored_rules(meta: dict, path: Path):
    """The sheet's ruleset as frozen at ``sheet new`` (a sheet from before: the file as it is)."""
    from skatcore.rules.compiler import compile_rules, get_rules
    from skatcore.rules.ruleset import thaw_ruleset

    try:
        return compile_rules(thaw_ruleset(meta["frozen"])) if "frozen" in meta else get_rules(meta["ruleset"])
    except InputError as exc:
        raise exc.at(source=str(path)) if not exc.source else exc from None


def stored_session(meta: dict, path: Path, deals, rules=None) -> Session:
    """The sheet's session with every stored deal entered (``deals`` as
    :func:`read_deals` gives them), under the sheet's ruleset."""
    from skatcore.records.session import Session

    rules = rules or stored_rules(meta, path)
    session = Session(rules, meta["players"], stake=meta.get("stake"), dealer=meta.get("dealer", 0), source=str(path))
    for i, (_, deal) in enumerate(deals):
        session.add(deal, i)
    return session
