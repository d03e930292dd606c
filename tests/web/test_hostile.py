"""A hostile guest at the table: what a device sends beyond what the pages offer is refused in one line (4xx),
nothing half-written."""

from __future__ import annotations

from conftest import new_sheet


def test_a_player_name_is_bounded(web, config):
    """The start form took a name of any length (the phone's sheet then showed 5,000 letters in every chip)."""
    r = web.post("/sheets", data={"csrf": web.cookies.get("skat_csrf"), "name": "eve", "players": f"{'A' * 41}, Ben, Cara",
                                  "ruleset": "pub"})
    assert r.status_code == 400 and "players: a name has at most 40 characters, got 41" in r.text
    assert not (config.sheets / "eve.sqlite").exists()
    new_sheet(web, players=f"{'A' * 40}, Ben, Cara")
    assert web.get("/s/eve/sheet.json").json()["players"][0] == "A" * 40
