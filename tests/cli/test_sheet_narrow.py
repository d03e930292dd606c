"""The narrow sheet (issue 22, F6): at ``COLUMNS=80`` (or ``--narrow``) no
line is longer than 80 characters, and it shows what the wide sheet shows:
every deal's declarer, game, entry, running totals and marks, the totals,
settlement and what comes next."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from skatcore.cli.main import main

EVENING = Path(__file__).parents[1] / "sessions" / "pub-evening-4-table.yaml"
NAMES = {"Anna": "Annemarie", "Bernd": "Bernhard", "Clara": "Clara-Sophie Wunderlich", "Dieter": "Dieter"}


@pytest.fixture
def evening(tmp_path) -> Path:
    """The hand-computed pub evening, with longer names and a title."""
    doc = yaml.safe_load(EVENING.read_text("utf-8"))
    doc.pop("expect")
    doc["players"] = [NAMES[p] for p in doc["players"]]
    doc["title"] = "Friday at the Anker, the long table by the window, with a title longer than a phone"
    path = tmp_path / "evening.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def show(capsys, *argv) -> str:
    assert main(["sheet", *map(str, argv)]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("how", ["COLUMNS", "--narrow"])
def test_no_line_longer_than_80(capsys, monkeypatch, evening, how):
    wide = show(capsys, evening)
    assert max(map(len, wide.splitlines())) > 80  # the wide sheet (not a terminal, no COLUMNS) does not fit
    monkeypatch.setenv("COLUMNS", "80")
    narrow = show(capsys, evening) if how == "COLUMNS" else show(capsys, evening, "--narrow")
    lines = narrow.splitlines()
    assert max(map(len, lines)) <= 80, [x for x in lines if len(x) > 80]
    sheet = json.loads(show(capsys, evening, "--json"))
    # deal 3: Anna's grand with Kontra in a Bock round, -384; running totals as in the JSON
    three = next(x for x in lines if x.startswith("  3 "))
    assert three.split()[1:4] == ["Annemarie", "grand", "lost"] and three.split()[-5:] == [
        "-384", *map(str, sheet["deals"][2]["totals"].values())]
    assert lines[lines.index(three) + 1].strip() == "Bock, -> Bock: Kontra successful"
    head = next(x for x in lines if x.startswith("  # declarer game"))
    assert head.split()[-5:] == ["entry", "Annemarie", "Bernhard", "Clara-So~", "Dieter"]
    totals = next(x for x in lines if x.startswith("totals"))
    assert totals.split()[1:] == [str(v) for v in sheet["totals"].values()] == ["-584", "-179", "250", "-476"]
    assert next(x for x in lines if x.startswith("settlement")).split()[-4:] == ["-13.47", "+2.73", "+19.89", "-9.15"]
    assert "next dealer: Dieter; next deal: Bock" in lines
    assert "still to play out: 14 Bock deals, 16 Ramsch-round deals" in lines


def test_the_history_fits_too(capsys, monkeypatch, tmp_path):
    path = tmp_path / "t.sqlite"
    assert main(["sheet", "new", str(path), "--ruleset", "pub", "--players", "Annemarie,Bernhard,Clara,Dieter"]) == 0
    deal = ["--declarer", "Bernhard", "--bid", "18", "--game", "Kreuz", "--hand", "--schneider", "--points", "95",
            "--matadors", "mit 1", "--call", "kontra"]
    assert main(["sheet", "add", str(path), *deal]) == 0
    assert main(["sheet", "edit", str(path), "1", *deal[:-2]]) == 0
    assert main(["sheet", "void", str(path), "1", "--reason", "a card was missing, and nobody saw it until the end"]) == 0
    capsys.readouterr()
    monkeypatch.setenv("COLUMNS", "80")
    out = show(capsys, "show", path, "--history")
    assert max(map(len, out.splitlines())) <= 80, out
    assert "was: Bernhard clubs hand schneider announced (kontra), bid 18, 95 card points, with 1" in " ".join(out.split())


def test_a_wide_terminal_keeps_the_wide_sheet(capsys, monkeypatch, evening):
    wide = show(capsys, evening)
    monkeypatch.setenv("COLUMNS", str(max(map(len, wide.splitlines()))))
    assert show(capsys, evening) == wide
