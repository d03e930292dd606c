"""``skat sheet``: session records and the persistent SQLite sheet.

The persistent sheet must never lose a confirmed deal nor keep half of one:
writers are killed mid-transaction (``os._exit`` between two statements of
one deal, SIGKILL at random moments) and the sheet is reopened; two
processes add at once and no deal is lost or counted twice.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import yaml

from skatcore.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
SESSIONS = ROOT / "tests" / "sessions"


def run(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def stripped(path: Path, tmp_path: Path) -> Path:
    """A test session file without its ``expect``: a plain session record."""
    doc = yaml.safe_load(path.read_text("utf-8"))
    doc.pop("expect", None)
    ruleset = path.parent / doc.get("ruleset", "")
    if ruleset.is_file():  # a ruleset file beside the original: copied along (a record names files in its own tree)
        (tmp_path / ruleset.relative_to(path.parent)).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / ruleset.relative_to(path.parent)).write_text(ruleset.read_text("utf-8"), encoding="utf-8")
    out = tmp_path / path.name
    out.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return out


# ---------------------------------------------------------------------------
# skat sheet FILE
# ---------------------------------------------------------------------------


def test_sheet_of_a_session_record_a9(capsys, tmp_path):
    rc, out, err = run(capsys, "sheet", stripped(SESSIONS / "a9-settlement.yaml", tmp_path))
    assert rc == 0 and err == ""
    assert "settlement (pairwise)" in out
    net = out.split("settlement (pairwise)")[1].split()[:3]
    assert net == ["+8.50", "-1.40", "-7.10"]
    for pays in ("B pays A 3.30", "C pays A 5.20", "C pays B 1.90"):
        assert pays in out


def test_sheet_json_tournament_series(capsys, tmp_path):
    rc, out, err = run(capsys, "sheet", "--json", stripped(SESSIONS / "tournament-3-table-36.yaml", tmp_path))
    assert rc == 0 and err == ""
    doc = json.loads(out)
    assert doc["format"] == "skat-sheet/1" and len(doc["deals"]) == 36
    assert doc["final"] == {"Ada": 645, "Ben": 474, "Cem": 515}
    assert doc["settlement"] is None


def test_sheet_text_one_line_per_deal_with_markers(capsys, tmp_path):
    rc, out, _ = run(capsys, "sheet", stripped(SESSIONS / "pub-evening-4-table.yaml", tmp_path))
    assert rc == 0
    lines = out.splitlines()
    deal_lines = [ln for ln in lines if ln[:3].strip().isdigit()]
    assert len(deal_lines) == 20
    assert "Bock" in deal_lines[1] and "Ramsch round 1 (1/4)" in deal_lines[5]
    assert "still to play out: 14 Bock deals" in out


# ---------------------------------------------------------------------------
# The persistent sheet: new / add / show / undo / export
# ---------------------------------------------------------------------------


def new_sheet(capsys, tmp_path, ruleset="pub", players="Anna,Bernd,Clara,Dieter", *more):
    path = tmp_path / "evening.sqlite"
    rc, _out, err = run(capsys, "sheet", "new", path, "--ruleset", ruleset, "--players", players, *more)
    assert rc == 0, err
    return path


def test_persistent_sheet_reproduces_the_pub_evening(capsys, tmp_path):
    """Every deal of the hand-computed pub evening added one by one, then
    shown: the same sheet as the session record; export gives it back."""
    source = yaml.safe_load((SESSIONS / "pub-evening-4-table.yaml").read_text("utf-8"))
    path = new_sheet(capsys, tmp_path, "pub", "Anna,Bernd,Clara,Dieter", "--stake", "0.01")
    for i, deal in enumerate(source["deals"]):
        rc, out, err = run(capsys, "sheet", "add", path, "--record", json.dumps(deal), "--deal", i + 1)
        assert rc == 0, err
        assert out.startswith(f"deal {i + 1}:")
    rc, out, err = run(capsys, "sheet", "show", path, "--json")
    shown = json.loads(out)
    assert shown["totals"] == source["expect"]["totals"]
    assert shown["settlement"]["net"] == source["expect"]["settlement"]["net"]
    rc, out, err = run(capsys, "sheet", "export", path)
    exported = tmp_path / "exported.yaml"
    exported.write_text(out, encoding="utf-8")
    rc, out2, err = run(capsys, "sheet", "--json", exported)
    assert rc == 0, err
    assert json.loads(out2) == shown


def test_inline_deal_options_and_player_names(capsys, tmp_path):
    path = new_sheet(capsys, tmp_path, "official", "Ada,Ben,Cem")
    # Ada deals: Ben forehand, Cem middlehand, Ada rearhand
    rc, out, err = run(capsys, "sheet", "add", path, "--declarer", "Ada", "--bid", 18, "--game", "grand", "--hand",
                       "--points", 75, "--matadors", "with2")
    assert rc == 0, err
    assert "with 2, game 3, hand 4; 4 x grand 24 = 96: won +96" in out and "Ada 96" in out
    rc, out, err = run(capsys, "sheet", "add", path, "--passed")
    assert rc == 0, err
    rc, out, err = run(capsys, "sheet", "add", path, "--declarer", "middlehand", "--bid", 23, "--game", "null",
                       "--tricks", 1)
    assert rc == 0, err
    assert "Ben -46" in out  # Cem deals: Ada forehand, Ben middlehand
    rc, out, err = run(capsys, "sheet", "show", path, "--json")
    doc = json.loads(out)
    assert doc["totals"] == {"Ada": 96, "Ben": -46, "Cem": 0}
    assert doc["next_dealer"] == "Ada"


def test_undo_removes_the_last_deal_only(capsys, tmp_path):
    path = new_sheet(capsys, tmp_path, "official", "Ada,Ben,Cem")
    for pts in (75, 50):
        assert run(capsys, "sheet", "add", path, "--declarer", "forehand", "--bid", 18, "--game", "clubs",
                   "--points", pts, "--matadors", "with1")[0] == 0
    rc, out, err = run(capsys, "sheet", "undo", path, "--deal", 1)
    assert rc == 2 and "the last deal is deal 2, not 1" in err
    rc, out, err = run(capsys, "sheet", "undo", path)
    assert rc == 0 and "deal 2 removed" in out
    doc = json.loads(run(capsys, "sheet", "show", path, "--json")[1])
    assert len(doc["deals"]) == 1 and doc["totals"]["Ben"] == 24
    assert run(capsys, "sheet", "undo", path)[0] == 0
    rc, out, err = run(capsys, "sheet", "undo", path)
    assert rc == 2 and "no deals to undo" in err


def test_a_deal_id_is_entered_once(capsys, tmp_path):
    path = new_sheet(capsys, tmp_path, "official", "Ada,Ben,Cem")
    args = ("sheet", "add", path, "--id", "d1", "--declarer", "forehand", "--bid", 18, "--game", "clubs",
            "--points", 75, "--matadors", "with1")
    assert run(capsys, *args)[0] == 0
    rc, out, err = run(capsys, *args)
    assert rc == 2 and "deal id 'd1' is on the sheet already (deal 1)" in err and out == ""


def test_a_bad_deal_writes_nothing(capsys, tmp_path):
    path = new_sheet(capsys, tmp_path, "pub")
    rc, _out, err = run(capsys, "sheet", "add", path, "--declarer", "forehand", "--bid", 18, "--game", "clubs",
                        "--points", 75)
    assert rc == 2 and err.count("\n") == 1 and "--matadors: give --matadors" in err
    rc, _out, err = run(capsys, "sheet", "add", path, "--declarer", "Anna", "--bid", 18, "--game", "clubs",
                        "--points", 75, "--matadors", "with1")
    assert rc == 2 and "Anna deals and sits out this deal" in err
    doc = json.loads(run(capsys, "sheet", "show", path, "--json")[1])
    assert doc["deals"] == []


def test_a_ramsch_round_refuses_a_bid_game(capsys, tmp_path):
    """pub: 60-60 brings a Bock round (4 deals at a 4-table), then a Ramsch round."""
    path = new_sheet(capsys, tmp_path, "pub")
    deal = ["--declarer", "forehand", "--bid", 18, "--game", "clubs", "--matadors", "with1"]
    assert run(capsys, "sheet", "add", path, *deal, "--points", 60)[0] == 0
    for _ in range(4):
        assert run(capsys, "sheet", "add", path, *deal, "--points", 75)[0] == 0
    rc, out, err = run(capsys, "sheet", "add", path, *deal, "--points", 75)
    assert rc == 2
    assert "Ramsch round 1 (deal 1 of 4): there is no bidding, every deal is a Ramsch" in err
    rc, out, err = run(capsys, "sheet", "add", path, "--ramsch", "30,50,40", "--ramsch-tricks", "3,4,3",
                       "--last-trick", "middlehand")
    assert rc == 0, err
    assert "[Ramsch round 1 (1/4)]" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["sheet", "new", "{p}", "--ruleset", "pub", "--players", "A,B"], "--players: a table has 3 or 4 players, not 2"),
    (["sheet", "new", "{p}", "--ruleset", "nosuch", "--players", "A,B,C"], "--ruleset: unknown ruleset 'nosuch'"),
    (["sheet", "show", "{p}"], "no such sheet"),
    (["sheet", "add", "{p}", "--passed"], "no such sheet"),
    (["sheet", "add", "{p}", "--passed", "--game", "clubs"], "--passed: all passed, there is no declarer or game"),
    (["sheet", "add", "{p}", "--declarer", "forehand", "--game", "clubs"], "--bid: give --bid"),
    (["sheet", "add", "{p}", "--ramsch", "30,50"], "--ramsch: expected three numbers"),
    (["sheet", "add", "{p}", "--declarer", "forehand", "--bid", "18", "--game", "clubs", "--matadors", "lots"],
     "--matadors: expected with2, without3"),
    (["sheet"], "the following arguments are required: FILE"),
    (["sheet", "new", "{p}", "--ruleset", "pub"], "the following arguments are required: --players"),
])
def test_sheet_command_errors_are_one_line(capsys, tmp_path, argv, message):
    rc, out, err = run(capsys, *[a.format(p=tmp_path / "s") for a in argv])
    assert rc == 2 and out == "" and err.count("\n") == 1 and message in err, err


def test_not_a_sheet(capsys, tmp_path):
    bogus = tmp_path / "bogus.sqlite"
    bogus.write_text("this is no database, only text that is long enough to be read as a header" * 20)
    rc, _out, err = run(capsys, "sheet", "show", bogus)
    assert rc == 2 and "not a skat sheet" in err and err.count("\n") == 1


# ---------------------------------------------------------------------------
# Crash safety and concurrency (real processes)
# ---------------------------------------------------------------------------

ADD = ["--declarer", "forehand", "--bid", "18", "--game", "clubs", "--points", "75", "--matadors", "with1"]


def child(script: str, *args, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(script), *map(str, args)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def sheet_rows(path: Path) -> list[tuple[int, str | None]]:
    con = sqlite3.connect(path)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return con.execute("SELECT n, uid FROM deals ORDER BY n").fetchall()
    finally:
        con.close()


def test_killed_between_the_statements_of_a_deal(capsys, tmp_path):
    """The writer dies (os._exit) after inserting the deal, before the rest
    of its transaction: the reopened sheet has the confirmed deals only, and
    the same add then succeeds once."""
    path = new_sheet(capsys, tmp_path, "official", "Ada,Ben,Cem")
    assert run(capsys, "sheet", "add", path, "--id", "d1", *ADD)[0] == 0
    proc = child("""
        import os, sqlite3, sys
        real = sqlite3.connect
        def connect(*a, **k):
            con = real(*a, **k)
            seen = []
            def trace(stmt):
                seen.append(stmt)
                # the deal's INSERT has run; die before the next statement and the COMMIT
                if any(s.startswith("INSERT INTO deals") for s in seen[:-1]):
                    os._exit(9)
            con.set_trace_callback(trace)
            return con
        sqlite3.connect = connect
        from skatcore.cli.main import main
        sys.exit(main(["sheet", "add", sys.argv[1], "--id", "d2", *sys.argv[2:]]))
    """, path, *ADD)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 9, err
    assert out == ""  # nothing was confirmed
    assert sheet_rows(path) == [(1, "d1")]
    rc, out, err = run(capsys, "sheet", "add", path, "--id", "d2", *ADD)
    assert rc == 0 and out.startswith("deal 2:"), err
    assert sheet_rows(path) == [(1, "d1"), (2, "d2")]
    rc, out, err = run(capsys, "sheet", "add", path, "--id", "d2", *ADD)
    assert rc == 2 and "on the sheet already" in err


def test_sigkill_at_random_moments_loses_nothing_confirmed(capsys, tmp_path):
    """A writer adding deal after deal is SIGKILLed several times; every deal
    it confirmed (printed) is on the sheet, at most one more (committed but
    not yet printed), and the sheet stays consistent and usable."""
    path = new_sheet(capsys, tmp_path, "official", "Ada,Ben,Cem")
    script = """
        import sys
        from skatcore.cli.main import main
        path, start = sys.argv[1], int(sys.argv[2])
        for i in range(start, start + 400):
            if main(["sheet", "add", path, "--id", f"k{i}", *sys.argv[3:]]) != 0:
                sys.exit(3)
            print(f"confirmed k{i}", flush=True)
    """
    start = 0
    for delay in (0.4, 0.7, 1.0):
        proc = child(script, path, start, *ADD)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        out, err = proc.communicate(timeout=60)
        confirmed = [ln.split()[1] for ln in out.splitlines() if ln.startswith("confirmed ")]
        uids = [u for _, u in sheet_rows(path)]
        assert all(u in uids for u in confirmed)
        assert len(uids) - len(set(uids)) == 0
        assert [n for n, _ in sheet_rows(path)] == list(range(1, len(uids) + 1))
        # at most the one deal whose confirmation the kill cut off
        mine = [u for u in uids if int(u[1:]) >= start]
        assert len(confirmed) <= len(mine) <= len(confirmed) + 1
        start += 1000
    rc, out, err = run(capsys, "sheet", "show", path, "--json")
    assert rc == 0, err
    doc = json.loads(out)
    assert len(doc["deals"]) == len(sheet_rows(path))
    # every deal is a won clubs game of 24 for forehand: the totals add up
    assert sum(doc["totals"].values()) == 24 * len(doc["deals"])


def test_two_processes_adding_at_once(capsys, tmp_path):
    """Two scorers add 25 deals each at the same time, and then both try to
    add the same 10 deals: every deal is on the sheet exactly once, in an
    unbroken sequence, and the totals count each once."""
    path = new_sheet(capsys, tmp_path, "official", "Ada,Ben,Cem")
    script = """
        import sys
        from skatcore.cli.main import main
        path, prefix = sys.argv[1], sys.argv[2]
        ids = [f"{prefix}{i}" for i in range(25)] + [f"shared{i}" for i in range(10)]
        ok = dup = 0
        for uid in ids:
            rc = main(["sheet", "add", path, "--id", uid, *sys.argv[3:]])
            ok += rc == 0
            dup += rc == 2
        print(ok, dup)
    """
    procs = [child(script, path, prefix, *ADD) for prefix in ("a", "b")]
    results = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [r[1] for r in results]
    counts = [tuple(map(int, out.splitlines()[-1].split())) for out, _ in results]
    assert sum(ok for ok, _ in counts) == 60 and sum(d for _, d in counts) == 10
    rows = sheet_rows(path)
    uids = [u for _, u in rows]
    assert [n for n, _ in rows] == list(range(1, 61))
    assert sorted(uids) == sorted([f"a{i}" for i in range(25)] + [f"b{i}" for i in range(25)] + [f"shared{i}" for i in range(10)])
    doc = json.loads(run(capsys, "sheet", "show", path, "--json")[1])
    assert sum(doc["totals"].values()) == 24 * 60


def test_wal_mode_and_full_sync(capsys, tmp_path):
    path = new_sheet(capsys, tmp_path, "official", "Ada,Ben,Cem")
    con = sqlite3.connect(path)
    try:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        con.close()


def test_validate_a_session_record(capsys, tmp_path):
    rc, out, err = run(capsys, "validate", stripped(SESSIONS / "pub-evening-4-table.yaml", tmp_path))
    assert rc == 0 and "valid session record (20 deals under 'pub', 4 players)" in out
    bad = stripped(SESSIONS / "bad-bierlachs-over.yaml", tmp_path)
    rc, out, err = run(capsys, "validate", bad)
    assert rc == 2 and "deals[3]: no more deals: Bierlachs" in err and err.count("\n") == 1


def test_inline_calls_and_declarations(capsys, tmp_path):
    path = new_sheet(capsys, tmp_path, "pub", "Anna,Bernd,Clara")
    rc, out, err = run(capsys, "sheet", "add", path, "--declarer", "forehand", "--bid", 20, "--game", "diamonds",
                       "--points", 85, "--matadors", "with1", "--call", "kontra")
    assert rc == 0, err
    assert "overbid, lost 2 x 27 = -54; kontra: x2 = -108" in out  # docs/rules/pub.md#b2
    rc, out, err = run(capsys, "sheet", "add", path, "--declarer", "forehand", "--bid", 18, "--game", "clubs",
                       "--points", 70, "--matadors", "with1", "--decl", "kontra=true", "--decl", "re=true")
    assert rc == 0, err
    assert "kontra, re: x4 = +96" in out
    rc, out, err = run(capsys, "sheet", "show", path)
    assert "clubs won (kontra, re)" in out
