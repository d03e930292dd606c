"""Session records the format promises (docs/session-format.md): a deal that
repeats the session's ruleset file, a Schieberamsch/Ramse grand hand with the
all-pass bidding that led to it; and the checks a record must pass: a Ramsch
seat's card points against its tricks, errors naming the record's file with
single paths.  ``skat validate`` and ``skat sheet`` agree on every one."""

from __future__ import annotations

import json

import pytest
import yaml

from skatcore.cli.main import main

GRAND = {"declarer_points": 75, "matadors": {"with": 1}}


def write(tmp_path, doc: dict, name: str = "evening.yaml"):
    path = tmp_path / name
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def session(ruleset: str, *deals: dict) -> dict:
    return {"format": "skat-session/1", "ruleset": ruleset, "players": ["A", "B", "C"], "deals": list(deals)}


def run(capsys, *args: str):
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


def accepted(capsys, path) -> dict:
    """validate and sheet both accept ``path``: the sheet as JSON."""
    rc, out, err = run(capsys, "validate", str(path))
    assert rc == 0 and err == "" and "valid session record" in out, err
    rc, out, err = run(capsys, "sheet", str(path), "--json")
    assert rc == 0 and err == "", err
    return json.loads(out)


def refused(capsys, path, message: str) -> str:
    """validate and sheet both refuse ``path`` with the same one line."""
    lines = []
    for cmd in ("validate", "sheet"):
        rc, out, err = run(capsys, cmd, str(path))
        assert rc == 2 and out == "" and err.count("\n") == 1, (cmd, err)
        assert err.startswith(f"skat: error: {path}: ") and message in err, (cmd, err)
        lines.append(err)
    assert lines[0] == lines[1]
    return lines[0]


# 1. a deal naming the session's ruleset by its file


def test_a_deal_may_repeat_the_ruleset_file(tmp_path, capsys):
    (tmp_path / "house.yaml").write_text("name: house\nextends: official\nplugins: {}\n", encoding="utf-8")
    clubs = {"declarer": "forehand", "bid": 18, "game": {"type": "clubs"}, "outcome": GRAND}
    doc = session("house.yaml", {**clubs, "ruleset": "house.yaml"}, {**clubs, "ruleset": "house"}, clubs)
    sheet = accepted(capsys, write(tmp_path, doc))
    assert sheet["ruleset"] == "house"
    # with 1, game 2 x clubs 12 = 24, three times, by forehand: B, C, A
    assert sheet["totals"] == {"A": 24, "B": 24, "C": 24}


def test_a_deal_under_another_ruleset_file_is_refused(tmp_path, capsys):
    (tmp_path / "house.yaml").write_text("name: house\nextends: official\nplugins: {}\n", encoding="utf-8")
    (tmp_path / "other.yaml").write_text("name: other\nextends: official\nplugins: {}\n", encoding="utf-8")
    clubs = {"declarer": "forehand", "bid": 18, "game": {"type": "clubs"}, "outcome": GRAND, "ruleset": "other.yaml"}
    refused(capsys, write(tmp_path, session("house.yaml", clubs)),
            "deals[0].ruleset: the session is played under 'house', not 'other.yaml'")


# 2. a grand hand instead of pushing, with the all-pass bidding


def test_schieberamsch_grand_hand_with_all_pass_bidding(tmp_path, capsys):
    # pub: all pass -> Schieberamsch; forehand pushes, middlehand declares a grand hand instead
    deal = {"bidding": ["pass", "pass", "pass"], "declarer": "middlehand",
            "game": {"type": "grand", "hand": True, "pushes": [["CA", "CT"]]}, "outcome": GRAND}
    sheet = accepted(capsys, write(tmp_path, session("pub", deal)))
    line = sheet["deals"][0]
    # A deals, so B is forehand, C middlehand: with 1, game 2, hand 3 x grand 24 = 72
    assert (line["declarer"], line["game"], line["hand"], line["value"], line["score"]) == ("C", "grand", True, 72, 72)
    assert line["bid"] == 0 and sheet["totals"] == {"A": 0, "B": 0, "C": 72}


def test_ramse_grand_hand_with_all_pass_bidding(tmp_path, capsys):
    # danish-petersen Ramse: all push first, then each in turn may declare a grand
    deal = {"bidding": ["pass", "pass", "pass"], "declarer": "middlehand",
            "game": {"type": "grand", "hand": True, "pushes": [["CA", "CT"], ["SA", "ST"], ["HA", "HT"]]},
            "outcome": GRAND}
    sheet = accepted(capsys, write(tmp_path, session("danish-petersen", deal)))
    assert sheet["deals"][0]["declarer"] == "C" and sheet["deals"][0]["won"] is True


@pytest.mark.parametrize(("ruleset", "deal", "message"), [
    pytest.param("pub", {"bidding": ["pass", "pass", "pass"], "declarer": "forehand",
                         "game": {"type": "grand", "hand": True, "pushes": [["CA", "CT"]]}, "outcome": GRAND},
                 "deals[0].declarer: 'forehand' contradicts the pushes, after which middlehand declares", id="pushed"),
    pytest.param("danish-petersen", {"bidding": ["pass", "pass", "pass"], "declarer": "middlehand",
                                     "game": {"type": "grand", "hand": True}, "outcome": GRAND},
                 "deals[0].game: a grand may be declared only after all have pushed", id="ramse-before-pushing"),
    pytest.param("official", {"bidding": ["pass", "pass", "pass"], "declarer": "forehand",
                              "game": {"type": "grand", "hand": True}, "outcome": GRAND},
                 "deals[0].declarer: 'forehand' contradicts the bidding: all passed, nobody declares", id="thrown-in"),
])
def test_the_grand_hand_declarer_is_checked(tmp_path, capsys, ruleset, deal, message):
    refused(capsys, write(tmp_path, session(ruleset, deal)), message)


# 3. a Ramsch seat's card points must fit its tricks


def test_ramsch_points_without_a_trick(tmp_path, capsys):
    deal = {"game": {"type": "ramsch"}, "outcome": {"points": {"forehand": 5, "middlehand": 55, "rearhand": 60},
                                                    "tricks": {"forehand": 0, "middlehand": 5, "rearhand": 5},
                                                    "last_trick": "middlehand"}}
    refused(capsys, write(tmp_path, session("pub", deal)),
            "deals[0].outcome.points.forehand: 5 card points do not fit 0 tricks (expected 0)")


def test_ramsch_points_beyond_the_tricks(tmp_path, capsys):
    # one trick holds at most A+A+A = 33, plus a skat of at most A+A = 22: 55
    deal = {"game": {"type": "ramsch"}, "outcome": {"points": {"forehand": 56, "middlehand": 30, "rearhand": 34},
                                                    "tricks": {"forehand": 1, "middlehand": 5, "rearhand": 4},
                                                    "last_trick": "forehand"}}
    refused(capsys, write(tmp_path, session("pub", deal)),
            "deals[0].outcome.points.forehand: 56 card points do not fit 1 trick (expected 0 to 55)")


def test_ramsch_jungfrau_still_accepted(tmp_path, capsys):
    deal = {"game": {"type": "ramsch"}, "outcome": {"points": {"forehand": 0, "middlehand": 55, "rearhand": 65},
                                                    "tricks": {"forehand": 0, "middlehand": 5, "rearhand": 5},
                                                    "last_trick": "middlehand"}}
    sheet = accepted(capsys, write(tmp_path, session("pub", deal)))
    # the most points lose them, doubled by the Jungfrau (forehand took no trick): rearhand is A, the dealer
    assert sheet["totals"] == {"A": -130, "B": 0, "C": 0}


# 4. errors name the record and give each path once


def test_declaration_error_names_the_record(tmp_path, capsys):
    deal = {"declarer": "forehand", "bid": 18, "game": {"type": "clubs", "declarations": {"re": True}}, "outcome": GRAND}
    err = refused(capsys, write(tmp_path, session("pub", deal)),
                  "deals[0].game.declarations.re: re answers kontra, which was not said")
    assert "pub.yaml" not in err


def test_pushed_jack_path_once(tmp_path, capsys):
    deal = {"game": {"type": "ramsch", "pushes": [["CA", "CT"], ["SA", "ST"], ["HT", "CJ"]]},
            "outcome": {"points": {"forehand": 30, "middlehand": 50, "rearhand": 40},
                        "tricks": {"forehand": 3, "middlehand": 4, "rearhand": 3}, "last_trick": "middlehand"}}
    err = refused(capsys, write(tmp_path, session("pub", deal)),
                  "deals[0].game.pushes[2][1]: CJ may not be pushed in this ruleset")
    assert err.count("pushes") == 1
