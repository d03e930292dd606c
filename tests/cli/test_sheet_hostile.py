"""A sheet file is untrusted input (issue 25): a crafted or damaged sheet,
a name that is a folder, a stake too big to settle, paths and code a sheet
names, and what the file system says - each exit 2 with one line naming the
file, the place in it and what was expected; never a traceback, never a
file read or code run that the user did not ask for."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3

import pytest
from cli_checks import refused

from skatcore.cli.main import main
from skatcore.records import sheet_check, sheet_store

ADD = ["--declarer", "A", "--bid", "18", "--game", "grand", "--points", "70", "--matadors", "with1"]
# a plugin that leaves a trace when its module runs (and answers a hook with "no opinion")
EVIL = ("from pathlib import Path\nfrom skatcore import hookimpl\nPath(__file__).with_name('ran').write_text('yes')\n"
        "class Plugin:\n    @hookimpl\n    def skat_thresholds(self):\n        return None\n")
COMMANDS = (["show"], ["show", "--json"], ["export"], ["rules"], ["rules", "--update"], ["add", *ADD],
            ["edit", "1", *ADD], ["void", "1"], ["undo"])


@pytest.fixture(autouse=True)
def untrusted(monkeypatch):
    monkeypatch.delenv("SKAT_TRUSTED_PATHS", raising=False)


@pytest.fixture
def sheet(tmp_path, capsys):
    """A sheet under pub with one deal; returns a function crafting a copy of it with SQL."""
    base = tmp_path / "base.sqlite"
    assert main(["sheet", "new", str(base), "--ruleset", "pub", "--players", "A,B,C", "--stake", "0.01"]) == 0
    assert main(["sheet", "add", str(base), *ADD]) == 0
    capsys.readouterr()

    def craft(*sql: str, name: str = "c.sqlite") -> str:
        path = tmp_path / name
        shutil.copy(base, path)
        con = sqlite3.connect(path)
        for q in sql:
            con.execute(q)
        con.commit()
        con.close()
        return str(path)
    return craft


def frozen(path: str, change) -> None:
    """Change the frozen ruleset (meta ``frozen``) of sheet ``path``."""
    con = sqlite3.connect(path)
    value = json.loads(con.execute("SELECT value FROM meta WHERE key = 'frozen'").fetchone()[0])
    change(value)
    con.execute("UPDATE meta SET value = ? WHERE key = 'frozen'", (json.dumps(value),))
    con.commit()
    con.close()


TABLE = ("CREATE TABLE d2 AS SELECT * FROM deals", "DROP TABLE deals", "CREATE TABLE deals (n, uid, record, added)")


@pytest.mark.parametrize("sql, expected", [
    (["UPDATE meta SET value = 'null' WHERE key = 'players'"], "meta.players: expected a list, got null"),
    (["UPDATE meta SET value = '[\"A\", \"A\", \"B\"]' WHERE key = 'players'"], "meta.players: expected different names"),
    (["DELETE FROM meta WHERE key = 'players'"], "meta.players: missing"),
    (["UPDATE meta SET value = '99' WHERE key = 'dealer'"], "meta.dealer: expected an integer >= 0 <= 3, got 99"),
    (["UPDATE meta SET value = '1e27' WHERE key = 'stake'"], "meta.stake: expected a finite amount per point from 0 to 1,000,000"),
    (["UPDATE meta SET value = '1e400' WHERE key = 'stake'"], "meta.stake: expected a finite amount"),
    (["UPDATE meta SET value = 'NaN' WHERE key = 'stake'"], "meta.stake: malformed JSON: NaN is not a JSON number"),
    (["UPDATE meta SET value = '{oops' WHERE key = 'title'"], "meta.title: malformed JSON"),
    (["UPDATE meta SET value = x'00ff' WHERE key = 'title'"], "meta.title: expected JSON text, got bytes"),
    (["UPDATE meta SET value = '" + "[" * 5000 + "]" * 5000 + "' WHERE key = 'title'"], "meta.title: nested deeper"),
    (["UPDATE meta SET value = '5' WHERE key = 'ruleset'"], "meta.ruleset: expected a string, got 5"),
    (["UPDATE meta SET value = 'null' WHERE key = 'frozen'"], "meta.frozen: expected the frozen ruleset"),
    (["UPDATE meta SET value = json_set(value, '$.plugins[0]', json('[1, 2]')) WHERE key = 'frozen'"],
     "meta.frozen.plugins[0]: expected [key, parameters, ruleset file, layer], got [1, 2]"),
    (["UPDATE meta SET value = json_set(value, '$.plugins[4][1].totals', 'zzz') WHERE key = 'frozen'"],
     "meta.frozen.plugins[4]: plugins.bock.totals: expected one of"),
    (["UPDATE meta SET value = json_set(value, '$.plugins', json('[]')) WHERE key = 'frozen'"],
     "c.sqlite: meta.frozen: no plugin registers any contract"),
    (["UPDATE meta SET value = '\"x\"' WHERE key = 'format'"], "not a skat sheet (expected format 'skat-sheet-db/1')"),
    (["DROP TABLE meta"], "not a skat sheet (expected a table meta(key, value): no such table: meta)"),
    (["DROP TABLE deals", "CREATE TABLE deals (n)"],
     "sqlite_master: not a skat sheet: the table 'deals' is not as skat writes it (expected 'n      INTEGER PRIMARY KEY,"),
    (["UPDATE deals SET record = '{oops'"], "deals[0]: malformed JSON"),
    ([*TABLE, "INSERT INTO deals SELECT n, uid, NULL, added FROM d2"], "sqlite_master: not a skat sheet: unexpected table 'd2'"),
    ([*TABLE[1:], "INSERT INTO deals VALUES ('x', 'u', '{}', '')"], "sqlite_master: not a skat sheet: the table 'deals'"),
    (["UPDATE deals SET n = 5"], "deals[0]: expected deal number 1 (the deals numbered 1, 2, 3 ...), got 5"),
    (["UPDATE deals SET record = '[1, 2]'"], "deals[0]: expected a deal record (a mapping)"),
    (["UPDATE deals SET record = json_set(record, '$.dealer', 99)"], "deals[0].dealer: expected an integer"),
    (["UPDATE deals SET record = json_set(record, '$.history', json('[1]'))"], "deals[0].history[0]: expected a mapping"),
    (["UPDATE deals SET record = json_set(record, '$.void', 'yes')"], "deals[0].void: expected true or false"),
])
def test_a_crafted_sheet_is_one_line_in_every_command(sheet, capsys, sql, expected):
    for command in COMMANDS:
        path = sheet(*sql)
        rc = main(["sheet", command[0], path, *command[1:]])
        _out, err = capsys.readouterr()
        assert rc in (0, 2) and "Traceback" not in err, (command, rc, err)
        if rc == 2:
            assert err.count("\n") == 1 and err.startswith("skat: error: "), (command, err)
        if command[0] in ("show", "add", "edit", "void"):  # these read everything
            assert rc == 2 and "c.sqlite: " in err and expected in err, (command, err)


def test_a_whole_float_dealer_is_taken_as_an_integer(sheet, capsys):
    path = sheet("UPDATE meta SET value = '1.0' WHERE key = 'dealer'")
    assert main(["sheet", "show", path]) == 0 and "next dealer: C" in capsys.readouterr().out


def test_sheet_names_that_are_folders_or_other_files(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in (".", "/", "..", "sub/"):
        refused(capsys, ["sheet", "new", name, "--ruleset", "pub", "--players", "A,B,C"],
                f"NAME: expected a file name for the sheet, got the folder {name!r}")
        refused(capsys, ["sheet", "show", name], "NAME: expected a file name for the sheet")
    (tmp_path / "x.d").mkdir()
    refused(capsys, ["sheet", "new", "x.d", "--ruleset", "pub", "--players", "A,B,C"], "x.d: a directory, not a skat sheet")
    refused(capsys, ["sheet", "show", "x.d"], "x.d: a directory, not a skat sheet")
    refused(capsys, ["sheet", "new", "nodir/x", "--ruleset", "pub", "--players", "A,B,C"], "nodir/x.sqlite: no such folder 'nodir'")
    refused(capsys, ["sheet", "show", "gone"], "gone.sqlite: no such sheet (start one with: skat sheet new gone")
    (tmp_path / "e.sqlite").write_bytes(b"")
    refused(capsys, ["sheet", "show", "e"], "e.sqlite: not a skat sheet (an empty file)")
    (tmp_path / "notes.txt").write_text("my notes\n")
    refused(capsys, ["sheet", "new", "notes.txt", "--ruleset", "pub", "--players", "A,B,C"],
            "notes.txt: a file of this name exists already (not a skat sheet): choose another name")
    refused(capsys, ["sheet", "add", "notes.txt", *ADD], "notes.txt: not a skat sheet (not an SQLite database)")
    assert (tmp_path / "notes.txt").read_text() == "my notes\n"
    assert sorted(os.listdir(tmp_path)) == ["e.sqlite", "notes.txt", "x.d"]  # nothing left beside them
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "f.sqlite")
        refused(capsys, ["sheet", "show", "f"], "f.sqlite: not a skat sheet (not a regular file)")


def test_the_stake_is_bounded(tmp_path, capsys):
    path = str(tmp_path / "s.sqlite")
    refused(capsys, ["sheet", "new", path, "--ruleset", "pub", "--players", "A,B,C", "--stake", "1e27"],
            "--stake: expected a finite amount per point from 0 to 1,000,000, got 1e+27")
    assert not os.path.exists(path)
    assert main(["sheet", "new", path, "--ruleset", "pub", "--players", "A,B,C", "--stake", "1000000"]) == 0
    assert main(["sheet", "add", path, *ADD]) == 0
    assert main(["sheet", "show", path]) == 0 and "B pays A 48000000.00" in capsys.readouterr().out
    session = tmp_path / "s.yaml"
    session.write_text("format: skat-session/1\nruleset: pub\nplayers: [A, B, C]\nstake: 1.0e+27\ndeals: []\n")
    refused(capsys, ["sheet", str(session)], "s.yaml: stake: expected a finite amount per point")


# ---------------------------------------------------------------------------
# Item 2: paths and code a sheet names
# ---------------------------------------------------------------------------


def test_a_ruleset_outside_the_sheets_folder_is_never_loaded(tmp_path, sheet, capsys):
    secret = tmp_path / "elsewhere" / "secret.yaml"
    secret.parent.mkdir()
    secret.write_text("the secret: 42 is the PIN\n")
    inner = tmp_path / "inner"
    inner.mkdir()
    path = sheet(f"UPDATE meta SET value = '{json.dumps(str(secret))}' WHERE key = 'ruleset'")
    shutil.move(path, inner / "c.sqlite")
    path = str(inner / "c.sqlite")
    err = refused(capsys, ["sheet", "rules", path, "--update"], "c.sqlite: meta.ruleset: path", "leads outside")
    assert "PIN" not in err
    con = sqlite3.connect(path)
    con.execute("DELETE FROM meta WHERE key = 'frozen'")  # a sheet from before frozen rulesets: the file itself
    con.commit()
    con.close()
    for command in (["show"], ["add", *ADD]):
        err = refused(capsys, ["sheet", command[0], path, *command[1:]], "c.sqlite: meta.ruleset: path", "leads outside")
        assert "PIN" not in err
    refused(capsys, ["sheet", "new", str(inner / "n"), "--ruleset", str(secret), "--players", "A,B,C"],
            "--ruleset: expected a shipped ruleset or a file inside the sheet's folder")
    assert not (inner / "n.sqlite").exists()


def test_a_claimed_trusted_source_counts_for_nothing(tmp_path, sheet, capsys, monkeypatch):
    trusted = tmp_path / "trusted"
    trusted.mkdir()
    (trusted / "evil_mod.py").write_text(EVIL)
    monkeypatch.syspath_prepend(str(trusted))
    monkeypatch.setenv("SKAT_TRUSTED_PATHS", str(trusted))
    path = sheet()

    def claim(value):
        value["plugins"].append(["evil_mod:Plugin", {}, str(trusted / "house.yaml"), 1])
    frozen(path, claim)
    refused(capsys, ["sheet", "show", path], "c.sqlite: meta.frozen.plugins[6]: plugin 'evil_mod:Plugin' is code",
            "--trust")
    (trusted / "house.yaml").write_text("name: house\nextends: official\nplugins: {}\n")  # real, trusted, names no code
    refused(capsys, ["sheet", "show", path], "plugin 'evil_mod:Plugin' is code")
    assert not (trusted / "ran").exists()
    assert main(["sheet", "show", path, "--trust"]) == 0 and (trusted / "ran").exists()  # the user said so


def test_code_from_a_trusted_ruleset_beside_the_sheet_runs(tmp_path, capsys, monkeypatch):
    (tmp_path / "evil.py").write_text(EVIL)
    (tmp_path / "house.yaml").write_text("name: house\nextends: official\nplugins:\n  ./evil.py:Plugin: {}\n")
    (tmp_path / "other.py").write_text(EVIL.replace("'ran'", "'other ran'"))
    monkeypatch.setenv("SKAT_TRUSTED_PATHS", str(tmp_path))
    path = str(tmp_path / "s.sqlite")
    assert main(["sheet", "new", path, "--ruleset", str(tmp_path / "house.yaml"), "--players", "A,B,C"]) == 0
    assert main(["sheet", "show", path]) == 0  # the real file lies in a trusted folder and names the code
    frozen(path, lambda v: v["plugins"].append(["./other.py:Plugin", {}, str(tmp_path / "house.yaml"), 1]))
    refused(capsys, ["sheet", "show", path], "meta.frozen.plugins[2]: plugin './other.py:Plugin' is code")
    assert not (tmp_path / "other ran").exists()
    frozen(path, lambda v: v["plugins"].__setitem__(2, ["./evil.py:Plugin", {}, "/elsewhere/house.yaml", 1]))
    refused(capsys, ["--trust", "sheet", "show", path], "plugin './evil.py:Plugin' is a file beside '/elsewhere/house.yaml', "
            "outside the sheet's folder")


def test_listed_files_are_read_only_inside_the_folder_and_bounded(tmp_path, sheet, capsys, monkeypatch):
    path = sheet()
    frozen(path, lambda v: v["files"].update({"/dev/zero": "0" * 64, "/etc/passwd": "0" * 64}))
    assert main(["sheet", "show", path]) == 0 and capsys.readouterr().err == ""  # not read, so nothing to say
    (tmp_path / "big.yaml").write_text("x" * 2000)
    monkeypatch.setattr(sheet_check, "MAX_LISTED_BYTES", 1000)
    frozen(path, lambda v: v["files"].update({str(tmp_path / "big.yaml"): "0" * 64}))
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe.yaml")  # opening it for reading would wait for a writer forever
        frozen(path, lambda v: v["files"].update({str(tmp_path / "pipe.yaml"): "0" * 64}))
    assert main(["sheet", "show", path]) == 0
    err = capsys.readouterr().err
    assert "big.yaml has changed" in err and ("pipe.yaml has changed" in err or not hasattr(os, "mkfifo"))
    assert "/dev/zero" not in err


# ---------------------------------------------------------------------------
# Item 5: what the file system says
# ---------------------------------------------------------------------------


class _Vfs:
    def __init__(self, real, flag=0, free=None):
        self.f_flag = real.f_flag | flag
        self.f_frsize = real.f_frsize
        self.f_bavail = real.f_bavail if free is None else free // real.f_frsize


def _fake_fs(monkeypatch, flag=0, free=None):
    real = os.statvfs
    monkeypatch.setattr(sheet_store.os, "statvfs", lambda p: _Vfs(real(p), flag, free))


def test_a_read_only_file_system(sheet, capsys, monkeypatch):
    # chmod does not stop root: the file system's answer is simulated, the read-only fallback is real
    path = sheet()
    connect = sqlite3.connect

    def read_only(database, *args, **kwargs):
        if not kwargs.get("uri"):
            raise sqlite3.OperationalError("unable to open database file")  # what a WAL sheet gets on a read-only mount
        return connect(database, *args, **kwargs)
    monkeypatch.setattr(sqlite3, "connect", read_only)
    _fake_fs(monkeypatch, flag=os.ST_RDONLY)
    assert main(["sheet", "show", path]) == 0 and "next dealer: B" in capsys.readouterr().out
    assert main(["sheet", "export", path]) == 0
    capsys.readouterr()
    for command in (["add", *ADD], ["undo"], ["rules", "--update"]):
        refused(capsys, ["sheet", command[0], path, *command[1:]],
                "c.sqlite: the sheet is read-only: the file system is mounted read-only; nothing was changed")
    new = path.replace("c.sqlite", "n")
    refused(capsys, ["sheet", "new", new, "--ruleset", "pub", "--players", "A,B,C"],
            "n.sqlite: the sheet is read-only: the file system is mounted read-only")


@pytest.mark.parametrize("fails_at", ["INSERT", "COMMIT", "CREATE"])
def test_sheet_new_on_a_full_disk_leaves_nothing(tmp_path, capsys, monkeypatch, fails_at):
    connect = sheet_store.connect

    class Full:
        def __init__(self, con):
            self.con = con

        def execute(self, sql, *args):
            if sql.strip().startswith(fails_at):
                raise sqlite3.OperationalError("database or disk is full")
            return self.con.execute(sql, *args)

        def executemany(self, sql, *args):
            return self.execute(sql, *args) if sql.strip().startswith(fails_at) else self.con.executemany(sql, *args)

        def close(self):
            self.con.close()
    monkeypatch.setattr(sheet_store, "connect", lambda *a, **k: Full(connect(*a, **k)))
    refused(capsys, ["sheet", "new", str(tmp_path / "s"), "--ruleset", "pub", "--players", "A,B,C"],
            "s.sqlite: the disk is full: nothing was changed")
    assert os.listdir(tmp_path) == []


def test_a_disk_io_error_on_a_full_disk_says_so(sheet, capsys, monkeypatch):
    path = sheet()

    def refuse(*args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")
    monkeypatch.setattr(sheet_store, "read_deals", refuse)
    refused(capsys, ["sheet", "show", path], "c.sqlite: disk I/O error (sqlite: disk I/O error): nothing was changed")
    _fake_fs(monkeypatch, free=8 * 1024)
    refused(capsys, ["sheet", "add", path, *ADD], "c.sqlite: the disk is full: nothing was changed")


def test_a_deal_from_stdin_is_bounded(tmp_path, capsys, monkeypatch):
    import io

    path = tmp_path / "s.sqlite"
    assert main(["sheet", "new", str(path), "--ruleset", "pub", "--players", "A,B,C"]) == 0
    monkeypatch.setenv("SKAT_MAX_DOCUMENT_BYTES", "1500")  # the sheet's own values (~1,100 bytes) count too
    monkeypatch.setattr("sys.stdin", io.StringIO("declarer: forehand\n" + "# padding\n" * 200))
    refused(capsys, ["sheet", "add", str(path), "-"], "<stdin>: larger than 1,500 characters")
    monkeypatch.setattr("sys.stdin", io.StringIO("declarer: forehand\nbid: 18\ngame: {type: grand}\n"
                                                 "outcome: {declarer_points: 70, matadors: {with: 1}}\n"))
    assert main(["sheet", "add", str(path), "-"]) == 0


def test_a_new_sheets_names_are_bounded_as_on_the_page(tmp_path, capsys):
    """``skat sheet new`` took names of any length (the start form in the browser took at most 40): the same bound
    in the one place both create a sheet, nothing written."""
    from skatcore.cli.main import main

    path = tmp_path / "eve.sqlite"
    assert main(["sheet", "new", str(path), "--ruleset", "official", "--players", f"{'Z' * 41},Ben,Cara"]) == 2
    assert "--players: a name has at most 40 characters, got 41" in capsys.readouterr().err
    assert not path.exists()
    assert main(["sheet", "new", str(path), "--ruleset", "official", "--players", f"{'Z' * 40},Ben,Cara"]) == 0
