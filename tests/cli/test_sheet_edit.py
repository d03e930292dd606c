"""``skat sheet edit N`` and ``skat sheet void N`` (docs/session-format.md,
"Correcting a sheet"): one transaction each, every later deal re-scored,
the history kept and exported.  Expected sheets are computed by hand below.

The evening, ruleset ``pub`` at a 3-table (A, B, C; A deals first; a Bock
round is 3 deals, a Ramsch round of 3 follows each Bock round):

 #  dealer  deal                                       as entered          A     B     C
 1  A       B (forehand) clubs w1, 75: +24             B +24               0    24     0
 2  B       C clubs w1, 75: +24                        C +24               0    24    24
 3  C       A clubs w1 at 60-60: lost -48              A -48 -> Bock     -48    24    24
 4  A       Ramsch, middlehand C loses 50              Bock x2: C -100   -48    24   -76
 5  B       Ramsch, middlehand A                       Bock x2: A -100  -148    24   -76
 6  C       Ramsch, middlehand B                       Bock x2: B -100  -148   -76   -76
 7  A       Ramsch, C                                  Ramsch round 1/3 -148   -76  -126
 8  B       Ramsch, A                                  Ramsch round 2/3 -198   -76  -126
 9  C       Ramsch, B                                  Ramsch round 3/3 -198  -126  -126
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from cli_checks import refused

from skatcore.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
CLUBS = ["--declarer", "forehand", "--bid", "18", "--game", "clubs", "--matadors", "with1"]
RAMSCH = ["--ramsch", "30,50,40", "--ramsch-tricks", "3,4,3", "--last-trick", "middlehand"]


def run(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def sheet(capsys, path) -> dict:
    rc, out, err = run(capsys, "sheet", "show", path, "--json")
    assert rc == 0, err
    return json.loads(out)


@pytest.fixture
def evening(capsys, tmp_path) -> Path:
    path = tmp_path / "evening.sqlite"
    assert run(capsys, "sheet", "new", path, "--ruleset", "pub", "--players", "A,B,C")[0] == 0
    for deal in ([*CLUBS, "--points", 75], [*CLUBS, "--points", 75], [*CLUBS, "--points", 60], *[RAMSCH] * 6):
        rc, _out, err = run(capsys, "sheet", "add", path, *deal)
        assert rc == 0, err
    doc = sheet(capsys, path)
    assert doc["totals"] == {"A": -198, "B": -126, "C": -126}
    assert [d["marks"] for d in doc["deals"]][2:] == [["-> Bock: 60-60"], ["Bock"], ["Bock"], ["Bock"],
                                                      ["Ramsch round 1 (1/3)"], ["Ramsch round 1 (2/3)"], ["Ramsch round 1 (3/3)"]]
    return path


def test_edit_in_the_middle_moves_the_bock_and_ramsch_rounds(capsys, evening):
    """Deal 1 becomes B's clubs at 60-60 (lost -48): a Bock round over deals 2-4
    (deal 3's 60-60 queues a second), the Ramsch round moves to 5-7, the
    second Bock round covers 8-9 with one deal still to play.

     1  B -48 -> Bock                        A 0     B -48   C 0
     2  Bock: C +24 x2 = +48                 A 0     B -48   C 48
     3  Bock: A -48 x2 = -96 -> Bock         A -96   B -48   C 48
     4  Bock: Ramsch C -50 x2 = -100         A -96   B -48   C -52
     5  Ramsch round 1/3: A -50              A -146  B -48   C -52
     6  Ramsch round 2/3: B -50              A -146  B -98   C -52
     7  Ramsch round 3/3: C -50              A -146  B -98   C -102
     8  Bock: A -100                         A -246  B -98   C -102
     9  Bock: B -100                         A -246  B -198  C -102

    Still owed: the second Bock round's last deal, then the Ramsch round it
    brings (3 deals).
    """
    rc, out, err = run(capsys, "sheet", "edit", evening, 1, "--declarer", "B", "--bid", 18, "--game", "clubs",
                       "--points", 60, "--matadors", "with1")
    assert rc == 0, err
    assert out.splitlines() == [
        "deal 1: with 1, game 2; 2 x clubs 12 = 24: only 60 card points, lost 2 x 24 = -48 [edited, -> Bock: 60-60]",
        "  sheet: B -48; 8 later deals re-scored",
        "  totals: A -246, B -198, C -102; next dealer A",
        "  next deal: Bock; still owed: 1 Bock deal, 3 Ramsch-round deals"]
    doc = sheet(capsys, evening)
    assert doc["totals"] == {"A": -246, "B": -198, "C": -102}
    assert [d["factor"] for d in doc["deals"]] == [1, 2, 2, 2, 1, 1, 1, 2, 2]
    assert doc["deals"][2]["marks"] == ["Bock", "-> Bock: 60-60"]
    assert doc["deals"][4]["marks"] == ["Ramsch round 1 (1/3)"]
    assert doc["notes"] == ["still to play out: 1 Bock deal, 3 Ramsch-round deals"]
    assert doc["owed"] == {"Bock": 1, "Ramsch round": 3}
    assert doc["next_deal"] == {"deal": 10, "dealer": "A", "kind": "Bock", "bidding": True, "factor": 2}
    assert [d["dealer"] for d in doc["deals"]] == list("ABCABCABC")
    was = doc["deals"][0]["history"][0]
    assert was["action"] == "edited" and was["was"]["outcome"]["declarer_points"] == 75
    # the history is shown and exported; the export scores to the same sheet
    rc, out, err = run(capsys, "sheet", "show", evening, "--history")
    assert rc == 0 and re.fullmatch(r"  deal 1: edited \d{4}-\d\d-\d\d \d\d:\d\d UTC, "
                                    r"was: B clubs, bid 18, 75 card points, with 1", out.splitlines()[-1]), out
    exported = evening.with_name("exported.yaml")
    exported.write_text(run(capsys, "sheet", "export", evening)[1], encoding="utf-8")
    assert yaml.safe_load(exported.read_text("utf-8"))["deals"][0]["history"][0]["action"] == "edited"
    rc, out, err = run(capsys, "sheet", exported, "--json")
    assert rc == 0 and json.loads(out) == doc, err


def test_void_in_the_middle_takes_its_bock_round_away(capsys, evening):
    """Deal 3 (the 60-60) voided: no Bock round, no Ramsch round; the later
    deals keep their dealers and players (tests/sessions/pub-void-in-a-bock-round.yaml)."""
    rc, out, err = run(capsys, "sheet", "void", evening, 3, "--reason", "a card was missing")
    assert rc == 0, err
    assert out.splitlines() == [
        "deal 3: void, scores nothing (was: with 1, game 2; 2 x clubs 12 = 24: only 60 card points, lost 2 x 24 = -48)"
        " [void]",
        "  sheet: nothing; 6 later deals re-scored",
        "  totals: A -100, B -76, C -76; next dealer A"]
    doc = sheet(capsys, evening)
    assert doc["totals"] == {"A": -100, "B": -76, "C": -76}
    assert [d["factor"] for d in doc["deals"]] == [1] * 9
    assert all(d["marks"] == [] for i, d in enumerate(doc["deals"]) if i != 2)
    assert doc["deals"][2] | {"history": None} == doc["deals"][2] | {
        "void": True, "counts": False, "entries": {"A": 0, "B": 0, "C": 0}, "declarer": "A", "dealer": "C", "history": None}
    assert [d["dealer"] for d in doc["deals"]] == list("ABCABCABC")  # deal 4 had been dealt on: dealers stay
    rc, out, err = run(capsys, "sheet", "show", evening, "--history")
    assert " 3  C         A         VOID clubs" in out
    assert "  deal 3: voided " in out and out.rstrip().endswith("(a card was missing)")
    refused(capsys, ["sheet", "void", str(evening), "3"], f"{evening}: N: deal 3 is void already")


def test_a_void_reason_cannot_forge_lines(capsys, evening):
    assert run(capsys, "sheet", "void", evening, 5, "--reason", "gone\x1b[2J\nforged")[0] == 0
    rc, out, _err = run(capsys, "sheet", "show", evening, "--history")
    assert rc == 0
    assert "\x1b" not in out and "\nforged" not in out and "(gone\\x1b[2J\\nforged)" in out


def test_void_the_last_deal_and_the_same_dealer_deals_again(capsys, evening):
    assert run(capsys, "sheet", "void", evening, 9)[0] == 0
    doc = sheet(capsys, evening)
    assert doc["next_dealer"] == "C" and doc["totals"] == {"A": -198, "B": -76, "C": -126}
    assert doc["notes"] == ["still to play out: 1 Ramsch-round deal"]  # the void is none of the round's deals
    rc, out, err = run(capsys, "sheet", "add", evening, *RAMSCH)
    assert rc == 0 and "[Ramsch round 1 (3/3)]" in out, err
    doc = sheet(capsys, evening)
    assert doc["deals"][9]["dealer"] == "C" and doc["totals"]["B"] == -126 and doc["next_dealer"] == "A"


def test_edit_restores_a_voided_deal(capsys, evening):
    assert run(capsys, "sheet", "void", evening, 3)[0] == 0
    rc, _out, err = run(capsys, "sheet", "edit", evening, 3, "--declarer", "A", "--bid", 18, "--game", "clubs",
                        "--points", 60, "--matadors", "with1")
    assert rc == 0, err
    doc = sheet(capsys, evening)
    assert doc["totals"] == {"A": -198, "B": -126, "C": -126}  # the evening as first entered
    assert [h["action"] for h in doc["deals"][2]["history"]] == ["voided", "edited"]
    assert doc["deals"][2]["marks"] == ["edited", "-> Bock: 60-60"]


def test_a_change_a_later_deal_cannot_follow_is_refused_whole(capsys, evening):
    before = sheet(capsys, evening)
    # deal 6 a bid game: fine while it is in the Bock round ...
    assert run(capsys, "sheet", "edit", evening, 6, *CLUBS, "--points", 75)[0] == 0
    # ... but a 60-60 at deal 2 moves the Bock round to 3-5 and the Ramsch round onto it
    refused(capsys, ["sheet", "edit", str(evening), "2", *CLUBS, "--points", "60"],
            f"{evening}: deals[5].declarer: deal 6 no longer fits after editing deal 2: Ramsch round 1 (deal 1 of 3)")
    refused(capsys, ["sheet", "edit", str(evening), "7", *CLUBS, "--points", "75"], "--declarer: Ramsch round 1 (deal 1 of 3)")
    assert run(capsys, "sheet", "edit", evening, 6, *RAMSCH)[0] == 0
    after = sheet(capsys, evening)
    assert after["totals"] == before["totals"] and len(after["deals"]) == 9


@pytest.mark.parametrize(("argv", "message"), [
    (["void", "{p}", "0"], "{p}: N: expected a deal number 1..9, got 0"),
    (["void", "{p}", "10"], "{p}: N: expected a deal number 1..9, got 10"),
    (["edit", "{p}", "10", "--passed"], "{p}: N: expected a deal number 1..9, got 10"),
    (["void", "{p}", "two"], "skat sheet void: argument N: expected a whole number, not 'two'"),
    (["void", "{p}"], "the following arguments are required: N"),
    (["edit", "{p}", "2"], "give one deal"),
    (["edit", "{p}", "2", *CLUBS[:-2], "--points", "75"], "--matadors: give --matadors"),
    (["edit", "{p}", "2", "--record", "{{void: true}}"], "--record: void: unknown key 'void'"),
    (["edit", "{p}", "2", "--record", "{{dealer: 0, declarer: forehand, bid: 18, game: {{type: clubs}}, "
      "outcome: {{declarer_points: 75, matadors: {{with: 1}}}}}}"], "{p}: deals[1].dealer: expected 1 (B deals)"),
    (["void", "{p}.nosuch", "1"], "no such sheet"),
])
def test_edit_and_void_refusals_are_one_line(capsys, evening, argv, message):
    before = sheet(capsys, evening)
    argv = [a.format(p=evening.with_suffix("")) for a in argv]
    refused(capsys, ["sheet", *argv], message.format(p=evening))
    assert sheet(capsys, evening) == before


def test_an_edit_keeps_ids_unique(capsys, evening):
    assert run(capsys, "sheet", "edit", evening, 1, "--id", "first", *CLUBS, "--points", 75)[0] == 0
    refused(capsys, ["sheet", "edit", str(evening), "2", "--id", "first", *CLUBS, "--points", "75"],
            "id: deal id 'first' is on the sheet already")
    rc, _out, err = run(capsys, "sheet", "edit", evening, 1, *CLUBS, "--points", 80)  # no --id: the deal keeps its id
    assert rc == 0, err
    assert sheet(capsys, evening)["deals"][0]["id"] == "first"
    refused(capsys, ["sheet", "add", str(evening), "--id", "first", *RAMSCH], "deal id 'first' is on the sheet already")


def test_killed_in_the_middle_of_a_void_changes_nothing(capsys, evening):
    """Voiding deal 3 rewrites deals 3-9 (the dealers written down): the
    writer dies after the first UPDATE; the reopened sheet is as before."""
    before = sheet(capsys, evening)
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import os, sqlite3, sys
        real = sqlite3.connect
        def connect(*a, **k):
            con = real(*a, **k)
            seen = []
            def trace(stmt):
                seen.append(stmt)
                if sum(s.startswith("UPDATE deals") for s in seen) == 2:
                    os._exit(9)
            con.set_trace_callback(trace)
            return con
        sqlite3.connect = connect
        from skatcore.cli.main import main
        sys.exit(main(["sheet", "void", sys.argv[1], "3"]))
    """), str(evening)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 9 and out == "", err
    con = sqlite3.connect(evening)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        con.close()
    assert sheet(capsys, evening) == before
    assert run(capsys, "sheet", "void", evening, 3)[0] == 0
    assert sheet(capsys, evening)["totals"] == {"A": -100, "B": -76, "C": -76}


def test_three_writers_two_adding_one_voiding(capsys, tmp_path):
    """Two scorers add 15 deals each while a third voids deals 1-10 as soon
    as they exist: every deal lands once, every void once, and the totals
    count exactly the 20 deals left (each a won clubs of 24)."""
    path = tmp_path / "busy.sqlite"
    assert run(capsys, "sheet", "new", path, "--ruleset", "official", "--players", "A,B,C")[0] == 0
    adder = """
        import sys
        from skatcore.cli.main import main
        path, prefix = sys.argv[1], sys.argv[2]
        sys.exit(sum(main(["sheet", "add", path, "--id", f"{prefix}{i}", *sys.argv[3:]]) for i in range(15)))
    """
    voider = """
        import sys, time
        from skatcore.cli.main import main
        for n in range(1, 11):
            for _ in range(600):
                if main(["sheet", "void", sys.argv[1], str(n)]) == 0:
                    break
                time.sleep(0.05)  # deal n is not on the sheet yet
            else:
                sys.exit(f"deal {n} never voided")
    """
    argv = [*CLUBS, "--points", "75"]
    procs = [subprocess.Popen([sys.executable, "-c", textwrap.dedent(script), str(path), *more], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for script, more in ((adder, ["a", *argv]), (adder, ["b", *argv]), (voider, []))]
    results = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], [err[-500:] for _, err in results]
    doc = sheet(capsys, path)
    assert len(doc["deals"]) == 30 and sorted(d["id"] for d in doc["deals"]) == sorted(
        [f"a{i}" for i in range(15)] + [f"b{i}" for i in range(15)])
    assert [d["void"] for d in doc["deals"]] == [True] * 10 + [False] * 20
    assert sum(doc["totals"].values()) == 24 * 20


def test_history_in_players_names_and_words(capsys, evening):
    """F7: the history names players, not seats, and says the old deal in
    words, not JSON: deal 7 (A deals: B forehand, C middlehand, A rearhand)."""
    assert run(capsys, "sheet", "edit", evening, 7, "--ramsch", "30,40,50", "--ramsch-tricks", "3,3,4",
               "--last-trick", "rearhand")[0] == 0
    assert run(capsys, "sheet", "void", evening, 2, "--reason", "misdealt")[0] == 0
    rc, out, err = run(capsys, "sheet", "show", evening, "--history")
    assert rc == 0, err
    history = out.split("history:\n")[1].splitlines()
    assert re.fullmatch(r"  deal 2: voided \S+ \S+ UTC \(misdealt\)", history[0]), history
    assert history[1].endswith(" UTC, was: ramsch, card points B 30, C 50, A 40, tricks B 3, C 4, A 3, last trick C")
    assert "{" not in out.split("history:")[1] and "forehand" not in out.split("history:")[1]
