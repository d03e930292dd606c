"""Issue 35, round three of hostile input on the CLI side: digits are ASCII
digits, CSV cells are data, a ruleset no deal can be played under is refused."""

from __future__ import annotations

import pytest

from skatcore.cli.main import main


@pytest.mark.parametrize("extra", [["--points", "٧٤"], ["--points", "74", "--matadors", "mit ٢"],
                                   ["--points", "７４"]])
def test_sheet_add_takes_ascii_digits_only(tmp_path, capsys, extra):
    path = str(tmp_path / "eve.sqlite")
    assert main(["sheet", "new", path, "--ruleset", "official", "--players", "A,B,C"]) == 0
    base = ["--declarer", "forehand", "--bid", "18", "--game", "clubs"]
    if "--matadors" not in extra:
        base += ["--matadors", "with1"]
    capsys.readouterr()
    assert main(["sheet", "add", path, *base, *extra]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "expected" in err


def test_the_ramsch_points_per_seat_are_ascii_digits():
    from skatcore.errors import InputError
    from skatcore.records.sheet_entry import _per_seat

    assert _per_seat("10,20,30", "ramsch", str) == {"forehand": 10, "middlehand": 20, "rearhand": 30}
    with pytest.raises(InputError):
        _per_seat("10,٢٠,30", "ramsch", str)


def test_a_seed_in_other_digits_is_refused(capsys):
    assert main(["simulate", "--ruleset", "official", "--deals", "1", "--seed", "٧"]) == 2
    assert "--seed: expected a whole-number seed" in capsys.readouterr().err


def test_a_csv_cell_a_spreadsheet_would_run_is_text():
    from skatcore.errors import spreadsheet_cell

    assert spreadsheet_cell('=HYPERLINK("http://x","y")') == '\'=HYPERLINK("http://x","y")'
    for start in "=+-@\t\r":
        assert spreadsheet_cell(start + "x").startswith("'")
    assert spreadsheet_cell(-12) == -12 and spreadsheet_cell("Anna") == "Anna"
    assert spreadsheet_cell("A\x1bB\u202eC") == "A\\x1bB\\u202eC"


def test_a_ruleset_no_deal_can_be_played_under_is_refused_by_validate(tmp_path, capsys):
    path = tmp_path / "s6.yaml"
    path.write_text("name: s6\ndescription: every deal a Ramsch under Schmegegge\n"
                    "plugins: {ramsch: {every_deal: true}, schmegegge: {}}\n")
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and str(path) in err and "no deal can be played" in err
    assert main(["simulate", "--ruleset", str(path), "--players", "random", "--deals", "5"]) == 2


def test_validate_names_the_file_of_a_record_with_a_bad_dealer(tmp_path, capsys):
    from pathlib import Path

    text = (Path(__file__).parents[2] / "examples" / "overbid-clubs-hand.yaml").read_text()
    assert "dealer: 0" in text
    path = tmp_path / "bad.yaml"
    path.write_text(text.replace("dealer: 0", "dealer: 3"))
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"skat: error: {path}: dealer: ") and len(err.strip().splitlines()) == 1
