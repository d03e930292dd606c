"""A live sheet keeps the ruleset it was started with: editing or deleting
the YAML does not re-score entered deals; show says the file changed;
`skat sheet rules NAME --update` re-scores with the file as it is now."""

from __future__ import annotations

import yaml

from skatcore.cli.main import main

ADD = ["--declarer", "A", "--bid", "18", "--game", "grand", "--points", "70", "--matadors", "with1"]


def test_the_sheet_keeps_its_ruleset(tmp_path, capsys):
    house = tmp_path / "house.yaml"
    house.write_text("name: house\nextends: official\nplugins:\n  official: {grand_base: 24}\n", encoding="utf-8")
    sheet = str(tmp_path / "friday.sqlite")
    assert main(["sheet", "new", sheet, "--ruleset", str(house), "--players", "A,B,C"]) == 0
    assert main(["sheet", "add", sheet, *ADD]) == 0 and "2 x grand 24 = 48" in capsys.readouterr().out

    house.write_text(house.read_text("utf-8").replace("24", "20"), encoding="utf-8")
    assert main(["sheet", "show", sheet, "--json"]) == 0
    out, err = capsys.readouterr()
    assert yaml.safe_load(out)["totals"]["A"] == 48  # the frozen copy, not the edited file
    assert err.count("\n") == 1 and "house.yaml has changed since the sheet was started" in err

    assert main(["sheet", "rules", sheet, "--update"]) == 0
    assert "A 48 -> 40" in capsys.readouterr().out
    assert main(["sheet", "show", sheet, "--json"]) == 0
    out, err = capsys.readouterr()
    assert yaml.safe_load(out)["totals"]["A"] == 40 and err == ""

    house.unlink()
    assert main(["sheet", "show", sheet, "--json"]) == 0  # a deleted file no longer breaks show
    assert yaml.safe_load(capsys.readouterr().out)["totals"]["A"] == 40
    assert main(["sheet", "export", sheet]) == 0
    assert yaml.safe_load(capsys.readouterr().out)["ruleset"] == "house.yaml"  # not an absolute path


def test_update_refused_by_the_new_rules_changes_nothing(tmp_path, capsys):
    house = tmp_path / "house.yaml"
    house.write_text("name: house\nextends: official\nplugins: {}\n", encoding="utf-8")
    sheet = str(tmp_path / "s.sqlite")
    assert main(["sheet", "new", sheet, "--ruleset", str(house), "--players", "A,B,C"]) == 0
    assert main(["sheet", "add", sheet, *ADD]) == 0
    house.write_text("name: house\nextends: official\nplugins:\n  official: {min_bid: 20}\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["sheet", "rules", sheet, "--update"]) == 2
    assert "18" in capsys.readouterr().err
    assert main(["sheet", "show", sheet, "--json"]) == 0
    assert yaml.safe_load(capsys.readouterr().out)["totals"]["A"] == 48
