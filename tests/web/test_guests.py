"""A hostile guest at the table: what a device sends beyond what the pages offer is refused in one line (4xx),
nothing half-written."""

from __future__ import annotations

from conftest import join_code, joined_phones, new_sheet, organiser_phone


def test_a_player_name_is_bounded(web, config):
    """The start form took a name of any length (the phone's sheet then showed 5,000 letters in every chip)."""
    r = web.post("/sheets", data={"csrf": web.cookies.get("skat_csrf"), "name": "eve", "players": f"{'A' * 41}, Ben, Cara",
                                  "ruleset": "pub"})
    assert r.status_code == 400 and "players: a name has at most 40 characters, got 41" in r.text
    assert not (config.sheets / "eve.sqlite").exists()
    new_sheet(web, players=f"{'A' * 40}, Ben, Cara")
    assert web.get("/s/eve/sheet.json").json()["players"][0] == "A" * 40


def test_a_correction_of_a_deal_taken_back_meanwhile_keeps_the_form(browser, server):
    """A phone correcting deal 3 while another device takes it back: the save said "no deal 3" as bare text in
    place of the whole form (no red line, the form gone); now the line is where the count is, the form kept."""
    from skatcore.cli import main

    base, config = server
    path = str(config.sheets / "eve.sqlite")
    assert main(["sheet", "new", path, "--ruleset", "pub", "--players", "Anna,Ben,Cara"]) == 0
    for who in ("Anna", "Ben", "Cara"):
        assert main(["sheet", "add", path, "--declarer", who, "--game", "clubs", "--matadors", "with1", "--bid", "18",
                     "--points", "70"]) == 0
    page = organiser_phone(browser, base, "/s/eve/deals/3")
    assert main(["sheet", "undo", path]) == 0  # the other device
    page.locator("#entry label:has(> input[name=matadors][value=with2])").click()
    page.wait_for_selector("#preview .error")
    assert "no deal 3 (the sheet has 2)" in page.locator("#preview .error").inner_text()
    _save_refused(page, "/deals/3", "no deal 3 (the sheet has 2)")


def _save_refused(page, url_end: str, said: str) -> None:
    """The deal form saved, answered 404 with ``said`` in the red line where the count is, the form as typed."""
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith(url_end)) as answer:
        page.locator("#entry .save").click()
    assert answer.value.status == 404
    page.wait_for_selector("#preview .error.refused")
    assert said in page.locator("#preview .error").inner_text()
    assert page.locator("#entry input[name=matadors][value=with2]").is_checked()
    page.context.close()


def test_a_second_undo_names_no_file_of_the_server(browser, server):
    """Two phones tap "Undo deal 1" (the second before its list showed the first's undo): the second was told
    "/home/anna/skat-sheets/eve.sqlite: the sheet has no deals to undo", the server's folder on a guest's phone."""
    from conftest import KEY

    from skatcore.cli import main

    base, config = server
    path = str(config.sheets / "eve.sqlite")
    assert main(["sheet", "new", path, "--ruleset", "pub", "--players", "Anna,Ben,Cara"]) == 0
    assert main(["sheet", "add", path, "--declarer", "Anna", "--game", "clubs", "--matadors", "with1", "--bid", "18",
                 "--points", "70"]) == 0
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    first, second = context.new_page(), context.new_page()
    first.goto(f"{base}/?key={KEY}")
    first.goto(f"{base}/s/eve")
    second.goto(f"{base}/s/eve")
    second.route("**/body?*", lambda route: route.abort())  # its list not yet fresh (a slow connection)
    for page in (first, second):
        page.once("dialog", lambda d: d.accept())
        with page.expect_response(lambda r: r.url.endswith("/undo")) as answer:
            page.locator("#sheet form.undo button").click()
    assert answer.value.status == 409
    second.wait_for_selector("#preview .error")
    said = second.locator("#preview .error").inner_text()
    assert "no deals to undo" in said and str(config.sheets) not in said and "/" not in said, said
    context.close()


def test_undo_in_german_and_without_the_file(web, config):
    from conftest import csrf

    new_sheet(web)
    web.get("/lang/de")
    r = web.post("/s/eve/undo", data={"last": "1"}, headers=csrf(web))
    assert r.status_code == 409 and str(config.sheets) not in r.text and "keine Spiele" in r.text, r.text
    for uid, who in (("w1", "Ben"), ("w2", "Cara")):
        r = web.post("/s/eve/deals", data={"id": uid, "game": "clubs", "declarer": who, "matadors": "with1", "bid": "18",
                                           "points": "70"}, headers=csrf(web))
        assert r.status_code == 200, r.text
    r = web.post("/s/eve/undo", data={"last": "1"}, headers=csrf(web))
    assert r.status_code == 409 and "das letzte Spiel ist Spiel 2, nicht 1" in r.text, r.text
    r = web.post("/s/eve/undo", data={"last": " 2 "}, headers=csrf(web))
    assert r.status_code == 200 and "Spiel 2 zurückgenommen" in r.text, r.text


def test_a_sheet_that_cannot_be_scored_names_no_folder_of_the_server(web, config):
    """A damaged deal on a sheet: every page of it said the server's whole path (``/home/anna/skat-sheets/eve.sqlite:
    deals[0]...``); now the sheet's file name only."""
    import sqlite3

    from conftest import csrf

    new_sheet(web)
    web.post("/s/eve/deals", data={"id": "w1", "game": "clubs", "declarer": "Ben", "matadors": "with1", "bid": "18",
                                   "points": "70"}, headers=csrf(web))
    with sqlite3.connect(config.sheets / "eve.sqlite") as con:
        con.execute("update deals set record = replace(record, '70', '700')")
    for r in (web.get("/s/eve"), web.get("/s/eve/body"), web.get("/s/eve/export.csv"),
              web.post("/s/eve/preview", data={"game": "passed"}, headers=csrf(web)),
              web.post("/s/eve/deals", data={"id": "w2", "game": "passed"}, headers=csrf(web))):
        assert r.status_code == 409 and "eve.sqlite: deals[0].outcome.declarer_points" in r.text, r.text
        assert str(config.sheets) not in r.text and str(config.sheets.resolve()) not in r.text, r.text


def _ramsch_by_name(page, points: dict, tricks: dict, last: str) -> None:
    """Type a Ramsch into the form by the names its rows show (as a scorer does), and save it."""
    names = [w.split()[0] for w in page.locator("#entry .ramschgrid .who").evaluate_all("xs => xs.map(x => x.textContent)")]
    for i, who in enumerate(names):
        page.locator("#entry input[name=ramsch_seat]").nth(i).fill(str(points[who]))
        page.locator("#entry input[name=ramsch_trick_seat]").nth(i).fill(str(tricks[who]))
    page.locator("#entry .ramschgrid label.chip").nth(names.index(last)).click()
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/deals")) as answer:
        page.locator("#entry .save").click()
    assert answer.value.status == 200, answer.value.text()


def test_a_ramsch_typed_on_a_second_phone_goes_to_the_players_it_names(browser, server):
    """Two phones at a Ramsch table: after the first saved deal 1, the second's form said deal 2 but its rows still
    named deal 1's seats; Anna's 60 points typed in Anna's row were Ben's -60 on the sheet.  Now each row's points
    are its player's, whatever the seats have become since the form was drawn."""
    from conftest import KEY

    base, _ = server
    desk = browser.new_context(bypass_csp=True).new_page()
    desk.goto(f"{base}/?key={KEY}")
    desk.fill("input[name=name]", "eve")
    desk.fill("input[name=players]", "Anna, Ben, Cara")
    desk.select_option("select[name=ruleset]", "ramsch")
    desk.click("button.primary")
    code = desk.locator("[data-testid=join-code]").inner_text()
    phones = joined_phones(browser, base, code)
    points, tricks = {"Anna": 60, "Ben": 30, "Cara": 30}, {"Anna": 4, "Ben": 3, "Cara": 3}
    _ramsch_by_name(phones[0], points, tricks, "Anna")
    phones[1].wait_for_function("() => document.querySelector('#entry #next-n').textContent === '2'")
    _ramsch_by_name(phones[1], points, tricks, "Anna")
    deals = phones[1].request.get(f"{base}/s/eve/sheet.json").json()["deals"]
    assert [d["entries"] for d in deals] == [{"Anna": -60, "Ben": 0, "Cara": 0}] * 2
    for page in (desk, *phones):
        page.context.close()


def test_a_stale_ramsch_form_is_moved_to_the_seats_of_now(web):
    """The same without a browser: rows named by the form (``seat_who``), pushes and the last trick by seat as drawn;
    at a table of four a row naming the player who deals now is refused, nothing saved."""
    from conftest import csrf

    new_sheet(web, ruleset="schieberamsch")  # Anna deals deal 1: Ben forehand, Cara middlehand, Dirk rearhand
    drawn = ["forehand=Ben", "middlehand=Cara", "rearhand=Dirk"]
    r = web.post("/s/eve/deals", data={"id": "w1", "game": "ramsch", "seat_who": drawn, "ramsch_seat": ["60", "30", "30"],
                                       "ramsch_trick_seat": ["4", "3", "3"], "last_trick": "forehand"}, headers=csrf(web))
    assert r.status_code == 200 and "Ben -60" in r.text, r.text
    # deal 2, Ben deals (Cara forehand, Dirk middlehand, Anna rearhand): a form drawn for deal 1 names Ben, who sits out
    r = web.post("/s/eve/deals", data={"id": "w2", "game": "ramsch", "seat_who": drawn, "ramsch_seat": ["60", "30", "30"],
                                       "ramsch_trick_seat": ["4", "3", "3"], "last_trick": "forehand"}, headers=csrf(web))
    assert r.status_code == 422 and "Ben deals and sits out this deal" in r.text, r.text
    assert len(web.get("/s/eve/sheet.json").json()["deals"]) == 1
    # deal 2 saved by another phone (Ben deals: Cara, Dirk, Anna); deal 3: Cara deals (Dirk, Anna, Ben)
    web.post("/s/eve/deals", data={"id": "w3", "game": "ramsch", "ramsch_seat": ["40", "40", "40"],
                                   "ramsch_trick_seat": ["4", "3", "3"], "last_trick": "forehand"}, headers=csrf(web))
    moved = {"ramsch_seat": ["10", "20", "90"], "ramsch_trick_seat": ["1", "1", "8"], "last_trick": "rearhand",
             "push_forehand": "blind", "game": "ramsch"}
    r = web.post("/s/eve/deals", data={"id": "w4", "seat_who": ["forehand=Cara", "middlehand=Dirk", "rearhand=Anna"],
                                       **moved}, headers=csrf(web))
    assert r.status_code == 422 and "Cara deals and sits out this deal" in r.text, r.text
    r = web.post("/s/eve/deals", data={"id": "w4", "seat_who": ["forehand=Ben", "middlehand=Ben", "rearhand=Anna"],
                                       **moved}, headers=csrf(web))
    assert r.status_code == 422 and "expected each seat and each player once" in r.text, r.text
    # rows naming the seated three in other seats: each row's numbers, push and last trick go to its player
    r = web.post("/s/eve/deals", data={"id": "w5", "seat_who": ["forehand=Ben", "middlehand=Dirk", "rearhand=Anna"],
                                       **moved}, headers=csrf(web))
    assert r.status_code == 200, r.text
    deal = web.get("/s/eve/sheet.json").json()["deals"][-1]
    assert deal["deal"] == 3 and deal["entries"] == {"Anna": -180, "Ben": 0, "Cara": 0, "Dirk": 0}, deal  # Ben's push
    record = web.get("/s/eve/export.json").json()["deals"][-1]
    assert record["game"]["pushes"] == ["seen", "seen", "blind"], record  # Dirk, Anna, Ben: Ben pushed blind
    assert record["outcome"]["points"] == {"forehand": 20, "middlehand": 90, "rearhand": 10}, record
    assert record["outcome"]["last_trick"] == "middlehand", record


def test_the_second_phone_s_form_follows_the_end_of_a_ramsch_round(browser, server):
    """Two phones in a Ramsch round: after the first saved its last deal, the second's form still offered
    Ramsch only, and deal 8 (a game with bidding) could not be entered without reloading the page."""
    from skatcore.cli import main

    base, config = server
    path = str(config.sheets / "eve.sqlite")
    assert main(["sheet", "new", path, "--ruleset", "pub", "--players", "Anna,Ben,Cara"]) == 0
    game = ["--game", "clubs", "--matadors", "with1", "--bid", "18", "--points", "70"]
    ramsch = ["--ramsch", "40,40,40", "--ramsch-tricks", "4,3,3", "--last-trick", "forehand"]
    assert main(["sheet", "add", path, "--declarer", "Ben", "--game", "grand", "--hand", "--matadors", "with1",
                 "--bid", "18", "--points", "70"]) == 0  # a won grand hand: a Bock round, then a Ramsch round
    for args in ([*game, "--declarer", "Ben"], [*game, "--declarer", "Cara"], [*game, "--declarer", "Anna"], ramsch,
                 ramsch):
        assert main(["sheet", "add", path, *args]) == 0
    phones = joined_phones(browser, base, join_code(browser, base))
    for page in phones:
        assert page.locator("#entry input[name=game]").evaluate_all("xs => xs.map(x => x.value)") == ["ramsch", "instead"]
    _ramsch_by_name(phones[0], {"Anna": 40, "Ben": 40, "Cara": 40}, {"Anna": 4, "Ben": 3, "Cara": 3}, "Anna")
    phones[1].wait_for_selector("#entry input[name=game][value=clubs]", state="attached", timeout=10_000)
    assert phones[1].locator("#entry #next-n").inner_text() == "8"
    phones[1].locator("#entry label:has(> input[name=game][value=clubs])").click()  # deal 8 as any deal
    phones[1].locator("#entry label[data-player=Anna]").click()
    phones[1].locator("#entry label:has(> input[name=matadors][value=with1])").click()
    phones[1].locator("#points").fill("70")
    with phones[1].expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/deals")) as answer:
        phones[1].locator("#entry .save").click()
    assert answer.value.status == 200
    assert phones[1].request.get(f"{base}/s/eve/sheet.json").json()["deals"][-1]["entries"]["Anna"] == 24
    for page in phones:
        page.context.close()


def test_a_deal_saved_after_the_sheet_was_removed_keeps_the_form(browser, server):
    """The organiser removes the sheet's file while a phone types a deal: the save's 404 ("no such sheet") came as
    bare text in place of the whole form; now it is the red line where the count is, the form kept."""
    from skatcore.cli import main

    base, config = server
    path = config.sheets / "eve.sqlite"
    assert main(["sheet", "new", str(path), "--ruleset", "pub", "--players", "Anna,Ben,Cara"]) == 0
    page = organiser_phone(browser, base, "/s/eve")
    page.locator("#entry label:has(> input[name=matadors][value=with2])").click()
    path.unlink()
    _save_refused(page, "/s/eve/deals", "no such sheet")
