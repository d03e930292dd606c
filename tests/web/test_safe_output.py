"""Issue 35 items 4 and 5: the organiser names rulesets, not server paths;
"keep" never writes through a link; exports and pages safe to open."""

from __future__ import annotations

import csv
import io
import json
import sqlite3

import pytest
from conftest import csrf, new_sheet

HOUSE = "name: house\ndescription: a house ruleset\nextends: texas\nplugins:\n  official: {grand_base: 20}\n"


@pytest.mark.parametrize("ruleset", ["/etc/passwd", "/proc/self/environ", "../outside.yaml", "sub/house.yaml",
                                     "house.yml", "nothing-of-the-list"])
def test_a_new_sheet_takes_a_ruleset_of_the_list_never_a_path(web, config, ruleset, monkeypatch):
    import builtins

    opened = []
    real_open = builtins.open

    def watch(file, *args, **kwargs):
        opened.append(str(file))
        return real_open(file, *args, **kwargs)
    (config.sheets.parent / "outside.yaml").write_text(HOUSE)
    monkeypatch.setattr(builtins, "open", watch)
    r = web.post("/sheets", data={"csrf": web.cookies.get("skat_csrf"), "name": "eve", "players": "A,B,C",
                                  "ruleset": ruleset})
    monkeypatch.undo()
    assert r.status_code == 400 and "expected a ruleset of the list" in r.text
    assert not any(x.startswith(("/etc", "/proc")) or "outside" in x for x in opened)
    assert "root:" not in r.text and not (config.sheets / "eve.sqlite").exists()


def test_a_new_sheet_under_a_kept_ruleset_by_its_name(web, config):
    (config.sheets / "house.yaml").write_text(HOUSE)
    new_sheet(web, ruleset="house.yaml")
    assert web.get("/s/eve/sheet.json").status_code == 200


@pytest.mark.parametrize("dangling", [True, False])
def test_the_builders_keep_never_writes_through_a_link(web, config, tmp_path_factory, dangling):
    outside = tmp_path_factory.mktemp("outside") / "victim.yaml"
    if not dangling:
        outside.write_text("kept: as it was\n")
    (config.sheets / "house.yaml").symlink_to(outside)
    form = {"csrf": web.cookies.get("skat_csrf"), "name": "house", "parent": "texas", "action": "keep",
            "use.official": "on", "official.grand_base": "20"}
    r = web.post("/build", data=form)
    assert r.status_code == 422 and "exists already" in r.text
    assert (not outside.exists()) if dangling else outside.read_text() == "kept: as it was\n"
    form["name"] = "house2"
    r = web.post("/build", data=form)
    assert r.status_code == 200 and (config.sheets / "house2.yaml").is_file()
    assert not (config.sheets / "house2.yaml").is_symlink() and "grand_base: 20" in (config.sheets / "house2.yaml").read_text()
    assert not list(config.sheets.glob(".upload-*"))  # the temporary file is gone


def _crafted(config, players):
    """The sheet ``eve`` with its players renamed to ``players`` (a crafted file)."""
    con = sqlite3.connect(str(config.sheets / "eve.sqlite"))
    con.execute("UPDATE meta SET value = ? WHERE key = 'players'", (json.dumps(players),))
    con.commit()
    con.close()


def test_the_csv_export_writes_formulas_as_text_and_numbers_as_numbers(web, config):
    new_sheet(web)
    web.post("/s/eve/deals", data={"declarer": "Ben", "game": "clubs", "matadors": "with1", "points": "40",
                                   "bid": "18", "id": "w1"}, headers=csrf(web))  # lost: Ben -48
    _crafted(config, ["=HYPERLINK(\"http://evil\",\"x\")", "Ben", "+1", "@SUM(A1)"])
    r = web.get("/s/eve/export.csv")
    assert r.status_code == 200
    rows = list(csv.reader(io.StringIO(r.text)))
    assert rows[0][6:10] == ["'=HYPERLINK(\"http://evil\",\"x\")", "Ben", "'+1", "'@SUM(A1)"]
    assert "-48" in rows[1] and "'-48" not in r.text  # a negative score stays a number
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")) and not (cell.startswith("-") and not cell[1:].isdigit())


def test_control_and_bidi_characters_are_escaped_in_every_export_and_page(web, config):
    new_sheet(web)
    web.post("/s/eve/deals", data={"declarer": "Ben", "game": "clubs", "matadors": "with1", "points": "74",
                                   "bid": "18", "id": "w1"}, headers=csrf(web))
    _crafted(config, ["An\x1b[2Jna", "Ben", "Ca\u202era", "Dirk"])
    for url in ("/s/eve", "/s/eve/body", "/s/eve/deals/1", "/s/eve/sheet.json", "/s/eve/export.csv",
                "/s/eve/export.json", "/s/eve/export.yaml", "/"):
        r = web.get(url)
        assert r.status_code == 200, (url, r.text[:300])
        assert "\x1b" not in r.text and "\u202e" not in r.text, url
    assert "An\\x1b[2Jna" in web.get("/s/eve").text and "Ca\\u202era" in web.get("/s/eve/export.csv").text


def test_a_sheet_or_ruleset_that_cannot_be_read_is_named_never_by_the_server_s_folder(web, config):
    """A sheet whose frozen ruleset the loader refuses once showed the players
    `/srv/skat/sheets/eve.sqlite: meta.frozen...` on its page and in a save's
    answer; a kept ruleset's error named its file twice (`big.yaml: big.yaml: ...`)."""
    new_sheet(web)
    con = sqlite3.connect(str(config.sheets / "eve.sqlite"))
    (frozen,) = con.execute("SELECT value FROM meta WHERE key = 'frozen'").fetchone()
    frozen = json.loads(frozen)
    official = next(p for p in frozen["plugins"] if p[0] == "official")
    official[1] = {**official[1], "grand_base": 10000001}
    con.execute("UPDATE meta SET value = ? WHERE key = 'frozen'", (json.dumps(frozen),))
    con.commit()
    con.close()
    folder = str(config.sheets)
    for r in (web.get("/s/eve"), web.get("/s/eve/body"),
              web.post("/s/eve/deals", data={"declarer": "Ben", "game": "clubs", "matadors": "with1", "points": "74",
                                             "bid": "18", "id": "w1"}, headers=csrf(web))):
        assert r.status_code == 409, r.text[:300]
        assert "eve.sqlite: meta.frozen" in r.text and "grand_base" in r.text and folder not in r.text, r.text[:500]
    r = web.post("/s/eve/undo", data={"last": "1"}, headers=csrf(web))
    assert r.status_code == 409 and "no deals to undo" in r.text and folder not in r.text, r.text[:300]  # (none saved)
    (config.sheets / "big.yaml").write_text("name: big\nextends: official\nplugins:\n  official: {grand_base: 10000001}\n")
    r = web.get("/rules/big.yaml")
    assert r.status_code == 422 and "big.yaml: plugins.official.grand_base: expected a number" in r.text
    assert "big.yaml: big.yaml" not in r.text and folder not in r.text
    r = web.post("/sheets", data={"csrf": web.cookies.get("skat_csrf"), "name": "eve2", "players": "A,B,C",
                                  "ruleset": "big.yaml"})
    assert r.status_code == 400 and "big.yaml: plugins.official.grand_base" in r.text and folder not in r.text
    assert not (config.sheets / "eve2.sqlite").exists()
