"""``skat sheet add`` with inline options: every refusal names the flags the
scorer typed (``--ramsch-tricks``), never the record paths behind them
(``outcome.tricks``); the same deal as a record file keeps the record's words."""

from __future__ import annotations

import json

import pytest
from cli_checks import refused

from skatcore.cli.main import main

# Anna deals at a 3-table: Bernd forehand, Clara middlehand, Anna rearhand
CLUBS = ["--declarer", "Bernd", "--bid", "18", "--game", "clubs"]
NULL = ["--declarer", "Bernd", "--bid", "23", "--game", "null"]
RAMSCH = ["--ramsch", "30,40,50", "--ramsch-tricks", "2,3,5"]


@pytest.fixture
def sheet(capsys, tmp_path):
    def new(ruleset: str) -> str:
        path = str(tmp_path / f"{ruleset}.sqlite")
        assert main(["sheet", "new", path, "--ruleset", ruleset, "--players", "Anna,Bernd,Clara"]) == 0
        capsys.readouterr()
        return path
    return new


@pytest.mark.parametrize(("ruleset", "argv", "expected"), [
    # all passed
    ("pub", ["--passed"], "--passed: ruleset 'pub' plays a Ramsch on all pass: use --ramsch F,M,R "
                          "(with --ramsch-tricks and --last-trick)"),
    ("ramsch", ["--passed"], "--passed: ruleset 'ramsch' has no bidding: use --ramsch F,M,R"),
    ("ramsch", ["--passed", *RAMSCH, "--last-trick", "Anna"], "--passed: ruleset 'ramsch' has no bidding: leave out --passed"),
    ("official", ["--passed", "--game", "clubs"], "--passed: all passed, there is no declarer or game: leave out --game"),
    ("official", ["--passed", "--points", "0"], "--passed: all passed, there is no declarer or game: leave out --points"),
    # a Ramsch
    ("pub", ["--ramsch", "30,40,50"], "--ramsch-tricks: a Ramsch needs --ramsch-tricks F,M,R"),
    ("pub", RAMSCH, "--last-trick: a Ramsch needs --last-trick (who took the last trick)"),
    ("pub", [*RAMSCH, "--last-trick", "Dora"],
     "--last-trick: expected a player (Anna, Bernd, Clara) or a seat (forehand, middlehand, rearhand), got 'Dora'"),
    ("pub", ["--ramsch", "30,40,51", "--ramsch-tricks", "2,3,5", "--last-trick", "Anna"],
     "--ramsch: points add up to 121"),
    ("pub", ["--ramsch", "30,40,50", "--ramsch-tricks", "2,3,6", "--last-trick", "Anna"],
     "--ramsch-tricks: tricks add up to 11, expected 10"),
    ("pub", [*RAMSCH, "--last-trick", "Anna", "--declarer", "Anna", "--bid", "18"],
     "--ramsch: a Ramsch has no declarer or bid: leave out --declarer, --bid"),
    ("pub", [*RAMSCH, "--last-trick", "Anna", "--game", "clubs"],
     "--game: clubs has a declarer: give --declarer, --bid and --points, not --ramsch"),
    ("official", [*RAMSCH, "--last-trick", "Anna"], "--ramsch: contract 'ramsch' does not exist in ruleset 'official'"),
    ("pub", [*CLUBS, "--points", "70", "--matadors", "with1", "--ramsch-tricks", "2,3,5"],
     "--ramsch-tricks: only for a Ramsch: give its card points with --ramsch F,M,R"),
    ("pub", [*CLUBS, "--points", "70", "--matadors", "with1", "--last-trick", "Anna"],
     "--last-trick: only for a Ramsch"),
    # a declarer's game
    ("official", ["--points", "70"], "--declarer: give --declarer"),
    ("official", ["--declarer", "Bernd", "--game", "clubs"], "--bid: give --bid"),
    ("official", ["--declarer", "Bernd", "--bid", "18"], "--game: give --game"),
    ("official", ["--declarer", "Dora", "--bid", "18", "--game", "clubs", "--points", "70", "--matadors", "with1"],
     "--declarer: expected a player (Anna, Bernd, Clara) or a seat (forehand, middlehand, rearhand), got 'Dora'"),
    ("official", ["--declarer", "Anna", "--bid", "18", "--game", "clubs", "--points", "70", "--matadors", "with1"],
     None),  # Anna is rearhand: accepted (the control case)
    ("official", [*CLUBS, "--matadors", "with1"], "--points: give --points"),
    ("official", CLUBS, "--matadors: give --matadors (with2, without3 ...)"),
    ("official", [*CLUBS, "--points", "70"], "--matadors: give --matadors"),
    ("official", [*CLUBS, "--points", "70", "--matadors", "without12"], "--matadors: clubs has only 11 matadors"),
    ("official", [*CLUBS, "--points", "170", "--matadors", "with1"], "--points: expected an integer >= 0 <= 120, got 170"),
    ("official", [*CLUBS, "--points", "70", "--matadors", "with1", "--tricks", "10"],
     "--points: 70 card points do not fit 10 tricks and the skat"),
    ("official", [*CLUBS, "--points", "70", "--matadors", "with1", "--tricks", "11"],
     "--tricks: expected at most 10 tricks, got 11"),
    ("official", [*CLUBS, "--points", "70", "--matadors", "with1", "--schwarz"],
     "--schwarz: schneider, schwarz and ouvert may be announced only in hand games"),
    ("official", ["--game", "foo", "--declarer", "Bernd", "--bid", "18", "--points", "70"],
     "--game: contract 'foo' does not exist in ruleset 'official'"),
    ("official", NULL, "--tricks: a null game needs --tricks"),
    ("official", [*NULL, "--points", "0"], "--tricks: a null game needs --tricks"),
    ("official", [*NULL, "--tricks", "0", "--schneider"], "--schneider: schneider and schwarz cannot be announced in null"),
    ("official", [*CLUBS, "--points", "70", "--matadors", "with1", "--call", "kontra"],
     "--call kontra: unknown declaration 'kontra'"),
    ("pub", [*CLUBS, "--points", "70", "--matadors", "with1", "--call", "re"], "--call re: re answers kontra"),
    ("pub", [*CLUBS, "--points", "70", "--matadors", "with1", "--decl", "spitze=1"], "--decl spitze: unknown declaration"),
    ("ramsch", [*CLUBS, "--points", "70", "--matadors", "with1"], "--game: contract 'clubs' does not exist in ruleset 'ramsch'"),
])
def test_a_refused_inline_deal_names_the_flags(capsys, sheet, ruleset, argv, expected):
    path = sheet(ruleset)
    if expected is None:
        assert main(["sheet", "add", path, *argv]) == 0
        return
    err = refused(capsys, ["sheet", "add", path, *argv], f"skat: error: {expected}")
    assert "outcome" not in err and "`" not in err and ".sqlite" not in err, err
    assert json.loads(main(["sheet", "show", path, "--json"]) == 0 and capsys.readouterr().out)["deals"] == []


def test_all_passed_into_the_pub_ramsch(capsys, sheet):
    """--passed with --ramsch: the bidding passed, then the Ramsch pub plays."""
    path = sheet("pub")
    assert main(["sheet", "add", path, "--passed", *RAMSCH, "--last-trick", "Anna", "--json"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["entries"] == {"Anna": -50, "Bernd": 0, "Clara": 0}  # rearhand (Anna) took most: 50 points lost


def test_a_record_keeps_the_record_words(capsys, sheet, tmp_path):
    path = sheet("pub")
    refused(capsys, ["sheet", "add", path, "--record", "{bidding: [pass, pass, pass]}"],
            "game: all passed: ruleset 'pub' plays a Ramsch then: give its `game` and `outcome`")
    refused(capsys, ["sheet", "add", path, "--record", "{declarer: forehand, bid: 23, game: {type: null}}"],
            "outcome.declarer_tricks: a null game needs outcome.declarer_tricks (or the `play`)")
    record = tmp_path / "ramsch.yaml"
    record.write_text("game: {type: ramsch}\noutcome: {points: {forehand: 30, middlehand: 40, rearhand: 50}}\n")
    refused(capsys, ["sheet", "add", path, str(record)],
            f"{record}: outcome.tricks: a Ramsch needs outcome.tricks for every seat")
