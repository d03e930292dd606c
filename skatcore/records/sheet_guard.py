"""A sheet file opened as untrusted SQL (issue 35).  SQLite runs what a
file's schema says: a view over an endless recursive query, a trigger on
insert, a generated column.  So before anything is read from a sheet:

* its schema (``sqlite_master``) must be exactly the tables and indexes
  :data:`~skatcore.records.sheet_store.SCHEMA` makes - no view, no trigger,
  no other table, column or index; its ``user_version`` 0 (:func:`check_schema`);
* ``PRAGMA trusted_schema = OFF``, and a progress handler that stops any
  connection past :data:`.sheet_errors.MAX_STEPS` SQLite instructions, and
  SQLite's length limit (:func:`.sheet_errors.value_limit`) (:func:`arm`);
* its values are bounded as a document is (:mod:`skatcore.rules.reading`):
  each JSON value at most ``max_bytes()``, the meta and the deals together
  at most ``max_bytes()`` and ``max_items()`` items (the sheet is one
  session record when exported), at most :func:`max_deals` deals - counted
  by SQLite before a value reaches Python (:func:`check_meta_size`,
  :func:`check_deals_size`, :func:`count_items`).

Every refusal is one :class:`InputError` naming the file, the place (``sqlite_master``,
``deals``, ``meta.title``) and what was expected (docs/session-format.md#limits).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from skatcore.errors import InputError, shorten
from skatcore.records import sheet_errors
from skatcore.records.sheet_errors import is_stopped, problem, stopped_line, value_limit

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

_EVERY = 1000  # instructions between two calls of the progress handler
MAX_DEALS = 10_000  # deals on one sheet (a club's year of evenings); environment SKAT_MAX_SHEET_DEALS
MAX_OBJECTS = 16  # rows of sqlite_master read at most (skatcore writes 4)
_SQL_CHARS = 2000  # an object's CREATE statement, at most, read at all


def max_deals() -> int:
    """The deal limit of a sheet: :data:`MAX_DEALS`, or ``SKAT_MAX_SHEET_DEALS``."""
    from skatcore.rules.reading import env_limit

    return env_limit("SKAT_MAX_SHEET_DEALS", MAX_DEALS)


def arm(con: sqlite3.Connection) -> None:
    """``trusted_schema`` off, the step bound and :func:`value_limit` on ``con`` (before its first read)."""
    import sqlite3

    calls = [0]
    limit = max(1, sheet_errors.MAX_STEPS // _EVERY)

    def handler() -> int:
        calls[0] += 1
        return 1 if calls[0] > limit else 0
    con.set_progress_handler(handler, _EVERY)
    con.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, value_limit())  # SQLite refuses a longer value before allocating it
    con.execute("PRAGMA trusted_schema = OFF")


def query(con: sqlite3.Connection, sql: str, path: Path | None, args: tuple = ()) -> list:
    """The rows of ``sql``; any SQLite error (a stopped statement, a damaged
    file) one :class:`InputError` naming the file."""
    import sqlite3

    try:
        return con.execute(sql, args).fetchall()
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        raise InputError(stopped_line() if is_stopped(exc) else problem(exc, path),
                         source=str(path) if path else None) from None


# ---------------------------------------------------------------------------
# The file and its schema
# ---------------------------------------------------------------------------


def check_file(path: Path) -> os.stat_result:
    """A regular file (never a FIFO or device: opening one could block), and a
    link only to a file in the link's own folder; read without blocking."""
    try:
        lst = os.lstat(path)
        if stat.S_ISLNK(lst.st_mode):
            target = Path(os.path.realpath(path))
            if target.parent != Path(os.path.realpath(path.parent if str(path.parent) else ".")):
                raise InputError("a link to a file outside the sheet's folder (expected the sheet file itself)",
                                 source=str(path))
        st = os.stat(path)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise InputError(f"cannot open the sheet ({exc.strerror})", source=str(path)) from None
    return st


_EXPECTED: dict[tuple[str, str], tuple[str, str | None]] = {}


def expected_schema(schema: str) -> dict[tuple[str, str], tuple[str, str | None]]:
    """(type, name) -> (table, CREATE statement) of every object a new sheet
    holds, as SQLite itself stores ``schema`` (:data:`sheet_store.SCHEMA`)."""
    import sqlite3

    if not _EXPECTED:
        con = sqlite3.connect(":memory:")
        try:
            for stmt in schema.split(";"):
                if stmt.strip():
                    con.execute(stmt)
            for kind, name, table, sql in con.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"):
                _EXPECTED[(kind, name)] = (table, sql)
        finally:
            con.close()
    return _EXPECTED


def _columns(sql: str | None) -> str:
    return "" if sql is None else sql[sql.find("(") + 1:].split(")")[0].split("--")[0].strip() + " ..."


def check_schema(con: sqlite3.Connection, path: Path, schema: str) -> None:
    """The file holds exactly skatcore's tables and indexes (a view, a
    trigger, another table, column or index is refused by name)."""
    source = str(path)
    rows = query(con, f"SELECT type, name, tbl_name, CASE WHEN sql IS NULL OR length(sql) <= {_SQL_CHARS} THEN sql "
                 f"ELSE '(longer than {_SQL_CHARS} characters)' END FROM sqlite_master LIMIT {MAX_OBJECTS + 1}", path)
    expected = expected_schema(schema)
    if len(rows) > MAX_OBJECTS:
        raise InputError(f"not a skat sheet: more than {MAX_OBJECTS} schema objects (expected the tables meta and "
                         "deals and their indexes)", source=source, path="sqlite_master")
    seen = set()
    for kind, name, table, sql in rows:
        what = f"{shorten(str(kind), 20)} {shorten(str(name), 60)!r}"
        if (kind, name) not in expected:
            raise InputError(f"not a skat sheet: unexpected {what} (expected only the tables meta and deals and "
                             "their indexes; a view or trigger would run SQL stored in the file)",
                             source=source, path="sqlite_master")
        if expected[(kind, name)] != (table, sql):
            want = expected[(kind, name)][1]
            raise InputError(f"not a skat sheet: the {what} is not as skat writes it (expected {_columns(want)!r}, "
                             f"got {shorten(_columns(sql) if sql else repr(sql), 80)!r})", source=source, path="sqlite_master")
        seen.add((kind, name))
    for kind, name in expected:
        if (kind, name) not in seen and kind == "table":
            cols = "key, value" if name == "meta" else "n, uid, record, added"
            raise InputError(f"not a skat sheet (expected a table {name}({cols}): no such table: {name})",
                             source=source, path="sqlite_master")
    if seen != set(expected):
        missing = ", ".join(sorted(n for k, n in set(expected) - seen))
        raise InputError(f"not a skat sheet: missing index {missing} (expected the sheet's own indexes)",
                         source=source, path="sqlite_master")
    version = query(con, "PRAGMA user_version", path)[0][0]
    if version != 0:
        raise InputError(f"not a skat sheet of this version (expected user_version 0, got {version}: a newer skat's, "
                         "or another program's)", source=source, path="user_version")


# ---------------------------------------------------------------------------
# Sizes, before the values are read
# ---------------------------------------------------------------------------


def _size(column: str) -> str:
    return f"coalesce(length(CAST({column} AS BLOB)), 0)"


def _bytes_line(what: str, size: int, limit: int) -> str:
    return (f"{what} of {size:,} bytes, larger than {limit:,} (the limit of a document, as of the session record it "
            "exports to; SKAT_MAX_DOCUMENT_BYTES)")


def check_meta_size(con: sqlite3.Connection, path: Path) -> int:
    """The meta table within the limits of a document; its bytes."""
    from skatcore.rules.reading import max_bytes, max_items

    limit, source = max_bytes(), str(path)
    count, total, key, big = query(con, f"SELECT count(*), coalesce(sum({_size('key')} + {_size('value')}), 0), "
                                   f"(SELECT key FROM meta ORDER BY {_size('value')} DESC LIMIT 1), "
                                   f"coalesce(max({_size('key')} + {_size('value')}), 0) FROM meta", path)[0]
    if count > max_items():
        raise InputError(f"more than {max_items():,} meta values (SKAT_MAX_DOCUMENT_ITEMS)", source=source, path="meta")
    if big > limit:
        raise InputError(_bytes_line("a value", big, limit), source=source, path=f"meta.{shorten(str(key), 40)}")
    if total > limit:
        raise InputError(_bytes_line("meta values", total, limit), source=source, path="meta")
    return total


def check_deals_size(con: sqlite3.Connection, path: Path | None) -> None:
    """The deals within the limits of a sheet: the count first (cheap), then
    each record's bytes and all of them with the meta's."""
    from skatcore.rules.reading import max_bytes

    limit, most, source = max_bytes(), max_deals(), str(path) if path else None
    count = query(con, f"SELECT count(*) FROM (SELECT 1 FROM deals LIMIT {most + 1})", path)[0][0]
    if count > most:
        raise InputError(f"more than {most:,} deals (the limit of a sheet; SKAT_MAX_SHEET_DEALS)", source=source,
                         path="deals")
    row = query(con, f"SELECT n, {_size('record')} + {_size('uid')} FROM deals "
                f"WHERE {_size('record')} + {_size('uid')} > ? LIMIT 1", path, (limit,))
    if row:
        n = row[0][0]
        where = f"deals[{n - 1}]" if type(n) is int and n >= 1 else "deals"
        raise InputError(_bytes_line("a deal record", row[0][1], limit), source=source, path=where)
    total = query(con, f"SELECT coalesce(sum({_size('record')}), 0) + "
                  f"(SELECT coalesce(sum({_size('key')} + {_size('value')}), 0) FROM meta) FROM deals", path)[0][0]
    if total > limit:
        raise InputError(_bytes_line("the meta values and deal records together", total, limit),
                         source=source, path="deals")


def count_items(values: list[Any], source: str, path: str) -> None:
    """The items (lists, mappings, keys and values) of the parsed values
    together at most ``max_items()``: the items of the session record the
    sheet exports to."""
    from skatcore.rules.reading import max_items

    limit, n, stack = max_items(), 0, list(values)
    while stack:
        v = stack.pop()
        n += 1
        if type(v) is dict:
            n += len(v)
            stack.extend(v.values())
        elif type(v) is list:
            stack.extend(v)
        if n > limit:
            raise InputError(f"more than {limit:,} items (lists, mappings, keys and values, as in the session record "
                             "the sheet exports to; SKAT_MAX_DOCUMENT_ITEMS)", source=source, path=path)
