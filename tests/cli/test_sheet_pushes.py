"""Schieberamsch deals entered inline (issue 22, F5; docs/rules/pub.md#b4):
blind pushes without card names (``--pushes blind,seen,blind``) and a grand
hand declared instead of pushing (``--instead``), under ruleset ``pub`` at
a 4-table (the dealer sits out), computed by hand:

 #  dealer  forehand middle  rear    deal                                        entry
 1  Anna    Bernd    Clara   Dieter  Bernd grand hand instead of pushing, w2:   Bernd +96  -> Bock
                                     with 2, game 3, hand 4; 4 x 24 = 96
 2  Bernd   Clara    Dieter  Anna    Ramsch after blind, seen, blind: Dieter    Dieter -488
                                     61 loses 61, 2 blind pushes x4, Bock x2
 3  Clara   Dieter   Anna    Bernd   Dieter pushes blind, Anna declares a grand Anna +144
                                     hand: without 1, game 2, hand 3; 3 x 24 =
                                     72, Bock x2 (a blind push doubles only a Ramsch)
"""

from __future__ import annotations

import json

import pytest
from cli_checks import refused

from skatcore.cli.main import main

RAMSCH = ["--ramsch", "20,61,39", "--ramsch-tricks", "2,5,3", "--last-trick", "forehand"]


@pytest.fixture
def pub(capsys, tmp_path) -> str:
    path = str(tmp_path / "pub.sqlite")
    assert main(["sheet", "new", path, "--ruleset", "pub", "--players", "Anna,Bernd,Clara,Dieter"]) == 0
    capsys.readouterr()
    return path


def test_pushes_and_a_grand_hand_instead_counted_by_hand(capsys, pub):
    for deal in (["--instead", "--points", "80", "--matadors", "with2"],
                 ["--pushes", "blind,seen,blind", *RAMSCH],
                 ["--pushes", "Blind", "--instead", "--points", "61", "--matadors", "ohne 1"]):
        assert main(["sheet", "add", pub, *deal]) == 0
    out = [line for line in capsys.readouterr().out.splitlines() if line.startswith(("deal", "  sheet"))]
    assert out[0] == "deal 1: grand hand: with 2, game 3, hand 4; 4 x grand 24 = 96: won +96 [-> Bock: grand hand won]"
    assert out[2].endswith("2 blind pushes: x4 [Bock]") and out[3] == "  sheet: Dieter -488"
    assert out[4].startswith("deal 3: grand hand: without 1, game 2, hand 3; 3 x grand 24 = 72: won +72")
    assert main(["sheet", "show", pub, "--json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["totals"] == {"Anna": 144, "Bernd": 96, "Clara": 0, "Dieter": -488}
    assert [d["declarer"] for d in sheet["deals"]] == ["Bernd", None, "Anna"]
    assert main(["sheet", "export", pub]) == 0
    exported = capsys.readouterr().out
    assert "pushes: [blind, seen, blind]" in exported and "pushes: [blind]" in exported


def test_the_grand_hand_instead_in_a_ramsch_round(capsys, pub):
    """A Ramsch round (after the Bock round of a 60-60) takes a Ramsch or a
    grand hand instead of pushing; the grand is none of its deals and the
    same player deals again (B5)."""
    assert main(["sheet", "add", pub, "--declarer", "Bernd", "--bid", "18", "--game", "Kreuz", "--points", "60",
                 "--matadors", "mit 1"]) == 0
    for _ in range(4):  # the Bock round
        assert main(["sheet", "add", pub, *RAMSCH]) == 0
    capsys.readouterr()
    refused(capsys, ["sheet", "add", pub, "--declarer", "forehand", "--bid", "18", "--game", "clubs", "--points", "70",
                     "--matadors", "with1"], "Ramsch round 1 (deal 1 of 4): there is no bidding")
    assert main(["sheet", "add", pub, "--pushes", "seen", "--instead", "--points", "80", "--matadors", "with2"]) == 0
    out = capsys.readouterr().out
    assert "[Ramsch round 1: grand hand, deals again, -> Bock: grand hand won]" in out
    assert "next deal: Ramsch round 1 (1/4): a Ramsch, or a grand hand instead of pushing" in out


@pytest.mark.parametrize(("argv", "expected"), [
    (["--pushes", "blind,S7", *RAMSCH], "--pushes: expected blind, seen or pass for each push in turn, got 'S7'"),
    (["--pushes", "blind,blind,blind,blind", *RAMSCH], "--pushes: expected at most 3 pushes (one per player)"),
    (["--pushes", "blind", "--declarer", "Bernd", "--bid", "18", "--game", "clubs"],
     "--pushes: pushes are for a Ramsch (--ramsch F,M,R) or a grand hand instead of pushing (--instead)"),
    (["--instead", "--bid", "18", "--points", "80", "--matadors", "with2"],
     "--instead: a game instead of pushing is not bid (all passed): leave out --bid"),
    (["--instead", "--game", "clubs", "--points", "80", "--matadors", "with2"],
     "--instead: instead of pushing, only a grand hand may be declared"),
    (["--pushes", "blind", "--instead", "--declarer", "Bernd", "--points", "80", "--matadors", "with2"],
     "--declarer: 'forehand' contradicts the pushes, after which middlehand declares"),
    (["--instead", "--points", "80"], "--matadors: give --matadors"),
])
def test_refused_pushes_name_the_flags(capsys, pub, argv, expected):
    refused(capsys, ["sheet", "add", pub, *argv], f"skat: error: {expected}")


def test_a_blind_push_where_the_ruleset_forbids_it(capsys, tmp_path):
    (tmp_path / "house.yaml").write_text("name: house\nextends: pub\nplugins:\n  schieberamsch: {blind: false}\n")
    path = str(tmp_path / "house.sqlite")
    assert main(["sheet", "new", path, "--ruleset", str(tmp_path / "house.yaml"), "--players", "A,B,C"]) == 0
    refused(capsys, ["sheet", "add", path, "--pushes", "blind", *RAMSCH],
            "--pushes: the skat may not be pushed blind in this ruleset")
    assert main(["sheet", "add", path, "--pushes", "seen,seen,pass", *RAMSCH]) == 2  # pass: not in this ruleset
    capsys.readouterr()
    assert main(["sheet", "add", path, "--pushes", "seen,seen,seen", *RAMSCH]) == 0
