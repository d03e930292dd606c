"""``skat solve``: double-dummy analysis of recorded deals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skatcore.cli.main import main

SAMPLE = next((p / "shared/data/iss/iss-sample-25.sgf" for p in Path(__file__).parents
               if (p / "shared/data/iss/iss-sample-25.sgf").is_file()), None)

NULL_RECORD = """\
format: skat-deal/1
ruleset: official
hands:
  forehand:   [{c1}, C8, C9, S7, S8, S9, H7, H8, H9, D7]
  middlehand: [{c2}, CK, CQ, CJ, CT, SA, SK, SQ, SJ, ST]
  rearhand:   [HA, HK, HQ, HJ, HT, DA, DK, DQ, DJ, DT]
skat: [D9, D8]
bidding: [pass, pass, 18]
game:
  type: null
  hand: true
play: [S7, SA, HA]
outcome:
  declarer_tricks: 0
"""


def solve(capsys, *argv):
    rc = main(["solve", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_null_with_the_lowest_cards_is_made(tmp_path, capsys):
    """Forehand holds 7-8-9 of clubs, spades and hearts and the D7: whatever
    is led, he has a card under it, so no trick can be forced on him."""
    f = tmp_path / "null.yaml"
    f.write_text(NULL_RECORD.format(c1="C7", c2="CA"))
    rc, out, _ = solve(capsys, str(f), "--json")
    got = json.loads(out)
    assert rc == 0 and got["solved"] and got["goal"] == "no_trick"
    assert got["start"] == 0 and got["changes"] == [] and got["played"] == 0
    assert got["tricks"] == [{"trick": 1, "leader": "forehand", "cards": ["S7", "SA", "HA"], "winner": "middlehand", "value": 0}]


def test_null_lost_by_the_opening_lead(tmp_path, capsys):
    """Swap his C7 for middlehand's CA.  Leading D7 makes the null: rearhand
    takes it and keeps the lead (middlehand is void in hearts and diamonds,
    forehand ducks and then throws his clubs away).  Leading S7 loses it:
    middlehand takes the spade and leads C7, which forehand must take."""
    f = tmp_path / "null.yaml"
    f.write_text(NULL_RECORD.format(c1="CA", c2="C7"))
    rc, out, _ = solve(capsys, str(f))
    assert rc == 0
    lines = out.splitlines()
    assert "null by forehand" in lines[0]
    assert lines[1].split() == ["start", "0", "wins"]
    assert lines[2].split() == ["trick", "1", "1", "S7", "SA", "HA", "->", "middlehand", "forehand", "S7", "gave", "away", "1"]


@pytest.mark.skipif(SAMPLE is None, reason="ISS sample not found")
def test_iss_sample_invariants(capsys):
    """Each side's own card never helps the other side under double-dummy
    play; the value after the last trick is the points taken, which the
    scorer reports too."""
    rc, out, _ = solve(capsys, str(SAMPLE), "--json")
    assert rc == 0
    results = [json.loads(line) for line in out.splitlines()]
    main(["score", str(SAMPLE), "--json"])
    scores = {s["id"]: s for s in map(json.loads, capsys.readouterr()[0].splitlines())}
    solved = [r for r in results if r["solved"]]
    assert len(results) == 25 and len(solved) >= 20
    for r in solved:
        for ch in r["changes"]:
            declarer = ch["seat"] == r["declarer"]
            assert (ch["after"] < ch["before"]) == declarer, (r["id"], ch)
            assert ch["gave_away"] == abs(ch["after"] - ch["before"]) > 0
        values = [r["start"]] + [t["value"] for t in r["tricks"]]
        assert all(0 <= v <= 120 for v in values)
        if r["complete"]:
            assert values[-1] == r["played"] == scores[r["id"]]["declarer_points"]


def test_record_without_hands_is_bad_input(tmp_path, capsys):
    f = tmp_path / "summary.yaml"
    f.write_text("format: skat-deal/1\ndeclarer: forehand\nbid: 18\ngame: {type: grand}\n"
                 "outcome: {declarer_points: 70, matadors: {with: 1}}\n")
    rc, out, err = solve(capsys, str(f))
    assert rc == 2 and out == ""
    assert err.strip() == f"skat: error: {f}: hands: the record gives no hands: nothing to replay"


def test_several_files_each_solved_with_its_own_record_and_rules(tmp_path, capsys):
    """``skat solve A B``: every file is replayed with its own record and its
    own ruleset, exactly as when it is solved alone (the closures built in
    the loop over the files bind that file's values, not the last one's)."""
    made, lost = tmp_path / "made.yaml", tmp_path / "lost.yaml"
    made.write_text(NULL_RECORD.format(c1="C7", c2="CA"))
    lost.write_text(NULL_RECORD.format(c1="CA", c2="C7").replace("ruleset: official", "ruleset: pub"))
    alone = []
    for f in (made, lost):
        rc, out, _ = solve(capsys, str(f), "--json")
        assert rc == 0
        alone.append(json.loads(out))
    rc, out, _ = solve(capsys, str(made), str(lost), "--json")
    assert rc == 0
    assert [json.loads(line) for line in out.splitlines()] == alone
    assert alone[0] != alone[1] and alone[0]["solved"] and alone[1]["solved"]
    if SAMPLE is not None:
        rc, out, _ = solve(capsys, str(SAMPLE), "--json")
        sgf = [json.loads(line) for line in out.splitlines()]
        rc, out, _ = solve(capsys, str(SAMPLE), str(made), str(lost), "--json")
        assert rc == 0
        assert [json.loads(line) for line in out.splitlines()] == [*sgf, *alone]
