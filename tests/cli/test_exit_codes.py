"""Bad input exits 2 with one line (file, path inside it, what was expected),
also where the operating system or SQLite says no; never exit 1."""

from __future__ import annotations

import sqlite3

import pytest
from cli_checks import refused as one_line

from skatcore.cli.main import main
from skatcore.records import sheet_store


def new_sheet(tmp_path) -> str:
    path = str(tmp_path / "friday.sqlite")
    assert main(["sheet", "new", path, "--ruleset", "official", "--players", "A,B,C"]) == 0
    return path


def test_sheet_names_the_system_refuses(tmp_path, capsys):
    one_line(capsys, ["sheet", "new", "", "--ruleset", "official", "--players", "A,B,C"], "NAME: expected a sheet name")
    long = str(tmp_path / ("x" * 5000))
    err = one_line(capsys, ["sheet", "new", long, "--ruleset", "official", "--players", "A,B,C"], "File name too long")
    assert len(err) < 300  # the name is cut short
    one_line(capsys, ["score", long], "File name too long")
    one_line(capsys, ["score", str(tmp_path)], "cannot read file")


def test_a_corrupted_sheet(tmp_path, capsys):
    path = tmp_path / "broken.sqlite"
    path.write_bytes(b"this is not a database, it is a shopping list\n" * 100)
    one_line(capsys, ["sheet", "show", str(path)], "broken.sqlite: not a skat sheet")
    one_line(capsys, ["sheet", "add", str(path), "--declarer", "A", "--bid", "18", "--game", "grand", "--points", "70",
                      "--matadors", "with1"], "broken.sqlite: not a skat sheet")


@pytest.mark.parametrize("sqlite_says, expected", [
    ("database is locked", "another scorer held it for over 60 s; nothing was changed"),
    ("attempt to write a readonly database", "the sheet is read-only"),
    ("database or disk is full", "the disk is full: nothing was changed"),
])
def test_sqlite_refusals_are_one_line(tmp_path, capsys, monkeypatch, sqlite_says, expected):
    path = new_sheet(tmp_path)
    capsys.readouterr()

    def refuse(*args, **kwargs):
        raise sqlite3.OperationalError(sqlite_says)

    monkeypatch.setattr(sheet_store, "read_deals", refuse)
    one_line(capsys, ["sheet", "add", path, "--declarer", "A", "--bid", "18", "--game", "grand", "--points", "70",
                      "--matadors", "with1"], "friday.sqlite: ", expected)
    monkeypatch.undo()
    assert main(["sheet", "show", path, "--json"]) == 0 and '"deals": []' in capsys.readouterr().out


def test_sheet_add_bad_json_and_bad_decl(tmp_path, capsys):
    path = new_sheet(tmp_path)
    bad = tmp_path / "deal.json"
    bad.write_text("{bad", encoding="utf-8")
    one_line(capsys, ["sheet", "add", path, str(bad)], "deal.json: malformed JSON")
    one_line(capsys, ["sheet", "add", path, "--declarer", "A", "--bid", "18", "--game", "grand", "--points", "70",
                      "--matadors", "with1", "--decl", "kontra=[1,"], "--decl kontra: malformed YAML: line ")


def test_echoed_values_are_cut_short(tmp_path, capsys):
    record = tmp_path / "deal.yaml"
    record.write_text("format: skat-deal/1\ndeclarer: " + "x" * 5000 + "\n", encoding="utf-8")
    err = one_line(capsys, ["score", str(record)], "deal.yaml: declarer: ")
    assert len(err) < 300


def test_sheet_add_schneider_without_hand_is_refused_under_official(tmp_path, capsys):
    path = new_sheet(tmp_path)
    capsys.readouterr()
    one_line(capsys, ["sheet", "add", path, "--declarer", "A", "--bid", "18", "--game", "grand", "--schneider",
                      "--points", "95", "--matadors", "with1"], "may be announced only in hand games")
    assert main(["sheet", "add", path, "--declarer", "A", "--bid", "18", "--game", "grand", "--schneider", "--hand",
                 "--points", "95", "--matadors", "with1"]) == 0
    assert "+120" in capsys.readouterr().out  # with 1, game 2, hand 3, schneider 4, announced 5: 5 x 24


@pytest.mark.parametrize(("text", "expected"), [
    ("format: skat-deal/1\n7: x\n", "[7]: unknown key 7"),
    ("format: skat-deal/1\ndeclarer: forehand\nbid: 18\ngame: {type: clubs}\n"
     "outcome: {declarer_points: 70, matadors: {with: 1}, null: 3, true: 2}\n", "outcome.null: unknown key 'null'"),
    ("format: skat-deal/1\ndeclarer: forehand\nbid: 18\ngame: {type: clubs, declarations: {1: true}}\n"
     "outcome: {declarer_points: 70, matadors: {with: 1}}\n", "game.declarations.1: unknown declaration"),
])
def test_int_bool_and_null_mapping_keys(tmp_path, capsys, text, expected):
    record = tmp_path / "keys.yaml"
    record.write_text(text, encoding="utf-8")
    one_line(capsys, ["score", str(record)], f"{record}: {expected}")


def test_python_m_skatcore_is_the_skat_command(tmp_path):
    """``python -m skatcore`` runs the command line, exit codes included."""
    import subprocess
    import sys

    ok = subprocess.run([sys.executable, "-m", "skatcore", "rulesets"], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0 and "official" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "skatcore", "validate", str(tmp_path / "none.yaml")],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "none.yaml" in bad.stderr
