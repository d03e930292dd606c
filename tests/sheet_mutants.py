"""Crafted sheets for the sheet fuzzer (issue 35; tests/records/test_sheet_fuzz.py,
tests/web/test_sheet_fuzz_web.py): what to do to a good sheet, and what the one line says."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

ADD = ["--declarer", "A", "--bid", "18", "--game", "grand", "--points", "70", "--matadors", "with1"]
ENDLESS = "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r)"
BIG = "replace(hex(zeroblob({n})), '0', 'x')"  # 2n characters, made by SQLite

# name -> (SQL turning a good sheet into a crafted one, what the one line says)
MUTATIONS: dict[str, tuple[list[str], str]] = {
    "view-meta-endless": (["DROP TABLE meta", f"CREATE VIEW meta AS {ENDLESS} SELECT 'format' AS key, "
                           "'\"skat-sheet-db/1\"' AS value FROM r"], "unexpected view 'meta'"),
    "view-deals-endless": (["DROP TABLE deals", f"CREATE VIEW deals AS {ENDLESS} SELECT i AS n, 'u' AS uid, "
                            "zeroblob(1000000) AS record, '' AS added FROM r"], "unexpected view 'deals'"),
    "trigger-endless": ([f"CREATE TRIGGER t AFTER INSERT ON deals BEGIN {ENDLESS} SELECT count(*) FROM r; END"],
                        "unexpected trigger 't'"),
    "trigger-deletes": (["CREATE TRIGGER t AFTER INSERT ON deals BEGIN DELETE FROM deals WHERE n < 4; END"],
                        "unexpected trigger 't'"),
    "trigger-on-read": (["CREATE TABLE log (x)", "CREATE TRIGGER t AFTER UPDATE ON meta BEGIN INSERT INTO log "
                         "VALUES (1); END"], "unexpected table 'log'"),
    "extra-table": (["CREATE TABLE extra (x)"], "unexpected table 'extra'"),
    "extra-column": (["ALTER TABLE deals ADD COLUMN extra TEXT"], "the table 'deals' is not as skat writes it"),
    "generated-column": (["ALTER TABLE meta ADD COLUMN g AS (length(hex(zeroblob(4000000)))) VIRTUAL"],
                         "the table 'meta' is not as skat writes it"),
    "extra-index": (["CREATE INDEX i ON deals (added)"], "unexpected index 'i'"),
    "statistics": (["ANALYZE"], "unexpected table 'sqlite_stat1'"),
    "table-retyped": (["DROP TABLE deals", "CREATE TABLE deals (n, uid, record, added)"],
                      "the table 'deals' is not as skat writes it"),
    "no-deals": (["DROP TABLE deals"], "expected a table deals(n, uid, record, added)"),
    "blob-record": (["UPDATE deals SET record = x'00ff' WHERE n = 2"], "deals[1]: expected JSON text, got bytes"),
    "number-players": (["UPDATE meta SET value = 5 WHERE key = 'players'"], "meta.players: expected a list"),
    "null-uid-blob": (["UPDATE deals SET record = '[]' WHERE n = 3"], "deals[2]: expected a deal record"),
    "huge-id": ([f"UPDATE deals SET record = json_set(record, '$.id', {BIG.format(n=10_000_000)}) WHERE n = 2"],
                "deals[1]: a deal record of 20,000,"),
    "huge-title": ([f"UPDATE meta SET value = json_quote({BIG.format(n=25_000_000)}) WHERE key = 'title'"],
                   "meta.title: a value of 50,000,"),
    "huge-blob": (["UPDATE deals SET record = zeroblob(70000000) WHERE n = 2"], "a value longer than 67,108,864 bytes"),
    "many-deals": (["WITH RECURSIVE c(i) AS (SELECT 4 UNION ALL SELECT i + 1 FROM c WHERE i < 150003) INSERT INTO "
                    "deals SELECT i, 'u' || i, (SELECT record FROM deals WHERE n = 1), '' FROM c"],
                   "deals: more than 10,000 deals"),
    "many-meta": (["WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 100001) INSERT INTO "
                   "meta SELECT 'k' || i, '1' FROM c"], "meta: more than 100,000 meta values"),
    "foreign-format": (["UPDATE meta SET value = '\"skat-sheet-db/2\"' WHERE key = 'format'"],
                       "not a skat sheet (expected format 'skat-sheet-db/1')"),
    "foreign-user-version": (["PRAGMA user_version = 7"], "user_version: not a skat sheet of this version"),
}

def craft(base: Path, folder: Path, sql: list[str], name: str = "c") -> Path:
    path = folder / f"{name}.sqlite"
    path.unlink(missing_ok=True)
    shutil.copy(base, path)
    con = sqlite3.connect(path, isolation_level=None)
    try:
        for q in sql:
            con.execute(q)
    finally:
        con.close()
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def untouched(path: Path, before: str) -> None:
    assert digest(path) == before, f"{path.name} was written"
    wal = path.with_name(path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0, "a write-ahead log was left"
