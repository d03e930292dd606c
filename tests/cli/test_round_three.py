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
