"""The web app's routes and security, through Starlette's TestClient: the
counts are the rules' (checked by hand below), the refusals the CLI's."""

from __future__ import annotations

import html
import re

import pytest
from conftest import KEY, csrf, new_sheet

CLUBS_WON = {"declarer": "Ben", "game": "clubs", "matadors": "with1", "points": "74", "bid": "18"}


def test_the_count_before_saving_and_the_sheet_after(web, config):
    new_sheet(web)
    # with 1, game 2; clubs 12: 24 (by hand); Ben is forehand of deal 1 (Anna deals and sits out)
    r = web.post("/s/eve/preview", data=CLUBS_WON, headers=csrf(web))
    assert "with 1, game 2; 2 x clubs 12 = 24: won +24" in r.text
    assert web.get("/s/eve/sheet.json").json()["deals"] == []  # a preview saves nothing
    r = web.post("/s/eve/deals", data={**CLUBS_WON, "id": "w1"}, headers=csrf(web))
    assert r.status_code == 200 and re.search(r"Deal <span id=\"next-n\">2<", r.text)
    sheet = web.get("/s/eve/sheet.json").json()
    assert sheet["totals"] == {"Anna": 0, "Ben": 24, "Cara": 0, "Dirk": 0}
    assert sheet["next_dealer"] == "Ben"


def test_a_repeated_save_counts_once(web):
    new_sheet(web)
    for _ in range(2):
        web.post("/s/eve/deals", data={**CLUBS_WON, "id": "same"}, headers=csrf(web))
    r = web.post("/s/eve/deals", data={**CLUBS_WON, "id": "same"}, headers=csrf(web))
    assert "on the sheet already (deal 1)" in r.text
    assert len(web.get("/s/eve/sheet.json").json()["deals"]) == 1


def test_a_refused_deal_says_why_in_the_forms_words(web):
    new_sheet(web)
    r = web.post("/s/eve/deals", data={**CLUBS_WON, "declarer": "Anna"}, headers=csrf(web))
    assert r.status_code == 422 and "Anna deals and sits out this deal" in r.text
    assert r.headers["hx-retarget"] == "#preview"
    r = web.post("/s/eve/deals", data={"declarer": "Ben", "game": "clubs", "bid": "18", "points": "74"}, headers=csrf(web))
    assert r.status_code == 422 and "matadors" in r.text and "outcome." not in r.text


def test_a_stale_correction_is_refused(web):
    new_sheet(web)
    web.post("/s/eve/deals", data={**CLUBS_WON, "id": "w1"}, headers=csrf(web))
    tag = re.search(r'name="tag" value="(\w+)"', web.get("/s/eve/deals/1").text).group(1)
    r = web.post("/s/eve/deals/1", data={**CLUBS_WON, "game": "spades", "tag": tag}, headers=csrf(web))
    assert r.status_code == 204 and r.headers["hx-redirect"] == "/s/eve"
    assert web.get("/s/eve/sheet.json").json()["totals"]["Ben"] == 22  # with 1, game 2 x spades 11
    r = web.post("/s/eve/deals/1", data={**CLUBS_WON, "game": "hearts", "tag": tag}, headers=csrf(web))
    assert r.status_code == 409 and "changed on another device" in r.text
    assert web.get("/s/eve/sheet.json").json()["totals"]["Ben"] == 22
    r = web.post("/s/eve/deals/1/void", data={"tag": "0" * 16, "reason": "x"}, headers=csrf(web))
    assert r.status_code == 409 and r.headers["hx-retarget"] == "#voiderr"  # said beside the void button


def test_a_deal_voided_twice_says_so_beside_the_button(web):
    new_sheet(web)
    web.post("/s/eve/deals", data={**CLUBS_WON, "id": "w1"}, headers=csrf(web))
    assert web.post("/s/eve/deals/1/void", data={}, headers=csrf(web)).status_code == 204
    r = web.post("/s/eve/deals/1/void", data={}, headers=csrf(web))
    assert r.status_code == 422 and r.headers["hx-retarget"] == "#voiderr"
    assert re.search(r'role="alert"[^>]*>deal 1 is void already<', r.text), r.text  # no CLI argument name before it


def test_polling_answers_204_while_nothing_changed(web):
    new_sheet(web)
    v = re.search(r'data-version="(\w+)"', web.get("/s/eve/body").text).group(1)
    assert web.get(f"/s/eve/body?v={v}").status_code == 204
    web.post("/s/eve/deals", data={**CLUBS_WON, "id": "w1"}, headers=csrf(web))
    r = web.get(f"/s/eve/body?v={v}")
    assert r.status_code == 200 and 'data-player="Ben">24<' in r.text


def test_exports_are_the_cli_s_session_record(web, config, capsys):
    from skatcore.cli import main

    new_sheet(web)
    web.post("/s/eve/deals", data={**CLUBS_WON, "id": "w1"}, headers=csrf(web))
    assert main(["sheet", "export", str(config.sheets / "eve.sqlite")]) == 0
    assert web.get("/s/eve/export.yaml").text == capsys.readouterr().out
    assert web.get("/s/eve/export.csv").text.splitlines()[1].startswith("1,Anna,Ben,clubs,24,False,0,24,0,0")


def test_a_device_needs_the_join_code(web):
    from starlette.testclient import TestClient

    code = new_sheet(web)
    phone = TestClient(web.app, base_url="http://testserver")
    for url in ("/s/eve", "/s/eve/body", "/s/eve/sheet.json", "/s/eve/export.yaml"):
        assert phone.get(url).status_code == 404
    assert "Join a score sheet" in phone.get("/").text
    join_page = phone.get("/join")
    assert join_page.status_code == 200 and 'role="alert"' not in join_page.text
    assert phone.get("/compare").status_code == 403 and phone.get("/build").status_code == 403
    assert phone.get("/j/wrongcode2", follow_redirects=True).status_code == 404
    assert phone.get(f"/j/{code}", follow_redirects=True).status_code == 200
    assert phone.get("/s/eve/sheet.json").status_code == 200
    assert phone.get("/?key=wrongkey00").status_code == 403
    assert KEY not in phone.get("/s/eve").text  # the organiser's key never reaches a player's page


def test_cross_site_requests_are_refused(web):
    new_sheet(web)
    assert web.post("/s/eve/deals", data=CLUBS_WON).status_code == 403  # no token
    assert web.post("/s/eve/deals", data=CLUBS_WON, headers={"X-CSRF-Token": "forged"}).status_code == 403
    r = web.post("/s/eve/deals", data=CLUBS_WON, headers={**csrf(web), "Origin": "http://evil.example"})
    assert r.status_code == 403 and "another site" in r.text
    r = web.post("/sheets", data={"csrf": "forged", "name": "x", "players": "A,B,C", "ruleset": "pub"})
    assert r.status_code == 403
    assert web.get("/s/eve/sheet.json").json()["deals"] == []


def test_oversized_requests_are_refused_before_reading(web):
    new_sheet(web)
    r = web.post("/s/eve/deals", content=b"x" * 300_000, headers={**csrf(web), "content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413


def test_names_are_escaped(web):
    web.post("/sheets", data={"csrf": web.cookies.get("skat_csrf"), "name": "xss", "ruleset": "official",
                              "players": "<script>alert(1)</script>, Ben, Cara"}, follow_redirects=True)
    page = web.get("/s/xss").text
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "content-security-policy" in web.get("/s/xss").headers


def test_a_bad_sheet_form_is_one_line(web):
    r = web.post("/sheets", data={"csrf": web.cookies.get("skat_csrf"), "name": "two", "players": "Anna, Anna, Ben",
                                  "ruleset": "pub"})
    assert r.status_code == 400 and "expected 3 or 4 different names" in r.text
    r = web.post("/sheets", data={"csrf": web.cookies.get("skat_csrf"), "name": "../up", "players": "A,B,C",
                                  "ruleset": "pub"})
    assert r.status_code == 404


def test_the_builder_shows_the_differences_and_the_yaml(web, config):
    form = {"csrf": web.cookies.get("skat_csrf"), "name": "house", "parent": "pub", "action": "check",
            **{f"use.{p}": "on" for p in ("official", "kontra", "ramsch", "schieberamsch", "bock", "money")},
            "official.grand_base": "20"}
    r = web.post("/build", data=form)
    assert "Grand is worth: 24 → 20" in r.text
    r = web.post("/build", data={**form, "action": "download"})
    assert r.headers["content-disposition"] == 'attachment; filename="house.yaml"'
    assert "grand_base: 20" in r.text and "extends: pub" in r.text
    r = web.post("/build", data={**form, "official.grand_base": "zero"})
    assert r.status_code == 422 and re.search(r'data-testid="field-error">expected an integer', r.text)
    web.post("/build", data={**form, "action": "keep"})
    assert (config.sheets / "house.yaml").is_file()
    new_sheet(web, name="h", ruleset="house.yaml")
    r = web.post("/s/h/preview", data={"declarer": "Ben", "game": "grand", "matadors": "with1", "points": "74",
                                       "bid": "18"}, headers=csrf(web))
    assert "2 x grand 20 = 40" in r.text


def test_a_built_ruleset_runs_no_local_code(web, config):
    (config.sheets / "evil.py").write_text("raise SystemExit('ran')\n")
    (config.sheets / "evil.yaml").write_text("name: evil\nextends: official\nplugins:\n  ./evil.py:Evil: {}\n")
    r = web.post("/sheets", data={"csrf": web.cookies.get("skat_csrf"), "name": "ev", "players": "A,B,C",
                                  "ruleset": "evil.yaml"})
    assert r.status_code == 400 and "--trust" in r.text


def test_bock_and_ramsch_rounds_are_announced(web, capsys, config):
    from skatcore.cli import main

    new_sheet(web)
    r = web.post("/s/eve/deals", data={**CLUBS_WON, "points": "60", "id": "w1"}, headers=csrf(web))  # 60-60: Bock
    assert "Bock" in r.text
    body = web.get("/s/eve/body").text
    assert main(["sheet", "show", str(config.sheets / "eve.sqlite"), "--json"]) == 0
    cli = __import__("json").loads(capsys.readouterr().out)
    assert cli["next_deal"]["kind"] and cli["next_deal"]["kind"] in body  # the CLI's words for the next deal
    owed = ", ".join(f"{n} {k.replace(' ', '-')} deal{'s' * (n != 1)}" for k, n in cli["owed"].items())
    assert f"still to play out: {owed}" in body


def test_a_sheet_started_with_the_cli_gets_a_code_from_the_organiser(web, config):
    from starlette.testclient import TestClient

    from skatcore.cli import main

    assert main(["sheet", "new", str(config.sheets / "cli"), "--ruleset", "official", "--players", "A,B,C"]) == 0
    phone = TestClient(web.app, base_url="http://testserver")
    assert phone.get("/s/cli").status_code == 404  # no code yet, and none made for an unknown device
    assert phone.get("/s/nosuch").text == phone.get("/s/cli").text  # nor told that it exists
    code = re.search(r'data-testid="join-code">(\w+)<', web.get("/s/cli").text).group(1)
    assert phone.get(f"/j/{code}", follow_redirects=True).status_code == 200


def test_a_ramsch_entered_per_player(web):
    new_sheet(web)  # Anna deals and sits out: Ben forehand, Cara middlehand, Dirk rearhand
    data = {"game": "ramsch", "ramsch_seat": ["30", "40", "50"], "ramsch_trick_seat": ["3", "3", "4"],
            "last_trick": "rearhand", "id": "r1"}
    web.post("/s/eve/deals", data=data, headers=csrf(web))
    assert web.get("/s/eve/sheet.json").json()["totals"] == {"Anna": 0, "Ben": 0, "Cara": 0, "Dirk": -50}


def test_schieberamsch_pushes_and_a_grand_hand_instead(web, capsys, config):
    """The same two deals entered on the page and with skat sheet add's flags: the same sheet."""
    import json

    from skatcore.cli import main

    new_sheet(web)  # pub: Schieberamsch on all pass; Ben forehand, Cara middlehand, Dirk rearhand
    ramsch = {"game": "ramsch", "ramsch_seat": ["30", "40", "50"], "ramsch_trick_seat": ["3", "3", "4"],
              "last_trick": "rearhand", "push_forehand": "blind", "push_middlehand": "seen", "id": "r1"}
    instead = {"game": "instead", "push_forehand": "blind", "declarer": "Dirk", "matadors": "with1", "points": "70",
               "bid": "18", "id": "g1"}  # Ben deals deal 2: Dirk, middlehand, declares a grand hand instead of pushing
    assert 'id="g-instead"' in web.get("/s/eve").text
    new_sheet(web, name="plain", ruleset="official")
    assert 'id="g-instead"' not in web.get("/s/plain").text  # nobody pushes under the official rules
    for deal in (ramsch, instead):
        r = web.post("/s/eve/deals", data=deal, headers=csrf(web))
        assert r.status_code == 200, r.text
    cli = str(config.sheets / "cli.sqlite")
    for args in (["new", cli, "--ruleset", "pub", "--players", "Anna,Ben,Cara,Dirk", "--stake", "0.1"],
                 ["add", cli, "--ramsch", "30,40,50", "--ramsch-tricks", "3,3,4", "--last-trick", "rearhand",
                  "--pushes", "blind,seen"],
                 ["add", cli, "--instead", "--pushes", "blind", "--declarer", "Dirk", "--matadors", "with1",
                  "--points", "70"]):
        assert main(["sheet", *args]) == 0
    capsys.readouterr()
    assert main(["sheet", "show", cli, "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)
    shown = web.get("/s/eve/sheet.json").json()
    assert shown["totals"] == expected["totals"] and len(shown["deals"]) == 2
    assert [d["explanation"] for d in shown["deals"]] == [d["explanation"] for d in expected["deals"]]


HOUSE = "name: house\ndescription: pub with a grand of 20\nextends: pub\nplugins:\n  official:\n    grand_base: 20\n"


def upload(client, text: str | bytes, filename="house.yaml", action="check"):
    return client.post("/build/upload", data={"csrf": client.cookies.get("skat_csrf"), "action": action},
                       files={"ruleset": (filename, text, "application/yaml")})


def test_an_uploaded_ruleset_is_checked_shown_and_kept(web, config):
    r = upload(web, HOUSE)
    assert r.status_code == 200 and "Grand is worth: 24 → 20" in r.text
    assert "house.yaml differs from pub" in r.text and not (config.sheets / "house.yaml").exists()
    assert [p.name for p in config.sheets.iterdir()] == []  # the file checked beside the sheets is gone again
    back = {"csrf": web.cookies.get("skat_csrf"), "filename": "house.yaml", "text": HOUSE}
    r = web.post("/build/upload", data={**back, "action": "download"})
    assert r.headers["content-disposition"] == 'attachment; filename="house.yaml"' and r.text == HOUSE
    r = web.post("/build/upload", data={**back, "action": "keep"})
    assert "Kept as house.yaml" in r.text and (config.sheets / "house.yaml").read_text() == HOUSE
    assert upload(web, HOUSE, action="keep").status_code == 422  # never over a kept file
    # a second upload may extend the first (a file beside it in the sheets folder)
    r = upload(web, "name: dear\nextends: house.yaml\nplugins:\n  money:\n    method: direct\n", "dear.yaml")
    assert r.status_code == 200 and "dear.yaml differs from house.yaml" in r.text
    new_sheet(web, name="h", ruleset="house.yaml")
    r = web.post("/s/h/preview", data={"declarer": "Ben", "game": "grand", "matadors": "with1", "points": "74",
                                       "bid": "18"}, headers=csrf(web))
    assert "2 x grand 20 = 40" in r.text


def test_a_refused_upload_is_the_line_skat_validate_prints(web, config, tmp_path_factory, capsys):
    from skatcore.cli import main

    cases = {"bad.yaml": "name: bad\nplugins: [\n",  # malformed YAML
             "schema.yaml": "name: s\nextends: pub\nplugins:\n  official:\n    grand_base: zero\n",
             "key.yaml": "name: k\nextends: pub\ncolour: red\n"}
    for filename, text in cases.items():
        r = upload(web, text, filename)
        shown = re.search(r'data-testid="upload-error">([^<]*)<', r.text).group(1)
        elsewhere = tmp_path_factory.mktemp("cli")
        (elsewhere / filename).write_text(text)
        assert main(["validate", str(elsewhere / filename)]) == 2
        line = capsys.readouterr().err.strip().splitlines()[-1]
        assert r.status_code == 422 and html.unescape(shown) == line.replace(f"skat: error: {elsewhere}/", "")
    assert "line 3" in upload(web, cases["bad.yaml"], "bad.yaml").text
    assert "grand_base" in upload(web, cases["schema.yaml"], "schema.yaml").text
    assert not list(config.sheets.iterdir())


def test_an_oversized_upload_is_refused(web, config):
    text = HOUSE + "# " + "x" * 70_000 + "\n"
    r = upload(web, text)
    assert r.status_code == 422 and "house.yaml: larger than 65,536 bytes" in r.text
    assert upload(web, HOUSE + "# " + "x" * 300_000 + "\n").status_code == 413  # the request bound, before reading
    r = upload(web, b"name: \xff\xfe\n")
    assert r.status_code == 422 and "house.yaml: not a UTF-8 text file" in r.text
    assert not list(config.sheets.iterdir())


EVIL = "import pathlib\npathlib.Path(__file__).with_name('ran').write_text('ran')\nclass Evil: pass\n"


def test_an_uploaded_ruleset_runs_no_local_code_without_trust(web, config):
    (config.sheets / "evil.py").write_text(EVIL)
    for ref in ("./evil.py:Evil", "os:system"):
        r = upload(web, f"name: evil\nextends: official\nplugins:\n  {ref}: {{}}\n", "evil.yaml", action="keep")
        assert r.status_code == 422 and "is code outside the shipped and installed plugins: run with --trust" in r.text
    assert not (config.sheets / "ran").exists() and not (config.sheets / "evil.yaml").exists()
    assert "skat --trust serve" in web.get("/build").text


def test_an_upload_earns_no_trust_from_a_trusted_folder(web, config, monkeypatch):
    """``SKAT_TRUSTED_PATHS`` trusts the files the organiser put in a folder,
    not a file a device uploaded into it."""
    monkeypatch.setenv("SKAT_TRUSTED_PATHS", str(config.sheets))
    (config.sheets / "evil.py").write_text(EVIL)
    r = upload(web, "name: evil\nextends: official\nplugins:\n  ./evil.py:Evil: {}\n", "evil.yaml", action="keep")
    assert r.status_code == 422 and "is code outside the shipped and installed plugins" in r.text
    assert not (config.sheets / "ran").exists() and not (config.sheets / "evil.yaml").exists()


@pytest.mark.filterwarnings("ignore:.*implements no hook")
def test_an_uploaded_ruleset_runs_local_code_with_trust(web, config):
    (config.sheets / "evil.py").write_text(EVIL)
    config.trust = True
    r = upload(web, "name: evil\nextends: official\nplugins:\n  ./evil.py:Evil: {}\n", "evil.yaml")
    assert r.status_code == 200 and (config.sheets / "ran").exists()  # the code ran, as the organiser asked


def test_an_upload_extends_nothing_outside_the_sheets_folder(web, config, tmp_path):
    outside = tmp_path.parent / f"{tmp_path.name}-outside.yaml"
    outside.write_text("name: out\nextends: official\nplugins: {}\n")
    for ref in (f"../{outside.name}", str(outside)):
        r = upload(web, f"name: up\nextends: {ref}\nplugins: {{}}\n", "up.yaml")
        assert r.status_code == 422 and "up.yaml: extends: path" in r.text
        assert "leads outside the directory of the file naming it" in r.text
    outside.unlink()


def test_an_uploaded_ruleset_s_names_are_escaped(web, config):
    r = upload(web, "name: house\nextends: pub\nplugins:\n  official:\n    grand_base: 20\n", "<script>alert(1)</script>.yaml")
    assert r.status_code == 422 and "<script>alert(1)" not in r.text and "&lt;script&gt;alert(1)&lt;/script&gt;" in r.text
    r = upload(web, 'name: house\ndescription: "<img src=x onerror=alert(1)>"\nextends: pub\nplugins: {}\n')
    assert r.status_code == 200 and "<img src=x" not in r.text and "&lt;img src=x onerror=alert(1)&gt;" in r.text
    r = upload(web, 'name: "<img src=x onerror=alert(1)>"\nextends: pub\nplugins: {}\n')
    assert r.status_code == 422 and "<img src=x" not in r.text and "&lt;img src=x onerror=alert(1)&gt;" in r.text
    r = upload(web, "name: h\nextends: pub\nplugins:\n  '<script>x</script>': {}\n")
    assert r.status_code == 422 and "<script>x" not in r.text and "&lt;script&gt;x" in r.text


def test_an_upload_needs_the_organiser_and_the_page_s_token(web):
    r = web.post("/build/upload", data={"action": "check"}, files={"ruleset": ("house.yaml", HOUSE)})
    assert r.status_code == 403
    web.cookies.delete("skat_key")
    assert upload(web, HOUSE).status_code == 403


def _qr_modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules drawn by the page's QR code (segno's path: ``M x y``,
    then ``h n`` lines of n modules and relative ``m dx dy`` moves)."""
    path = re.search(r'class="qrline"[^>]* d="([^"]+)"', svg).group(1)
    dark: set[tuple[int, int]] = set()
    x = y = 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", path):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            dark.update((int(y - 0.5), int(x) + i) for i in range(int(a)))
            x += float(a)
    return dark


def test_the_organiser_sees_a_qr_code_of_the_join_link(web, config):
    """The QR code on the organiser's sheet page holds this sheet's join link
    (module by module, against the link encoded afresh); a phone's page has none."""
    import segno
    from starlette.testclient import TestClient

    code = new_sheet(web)
    page = web.get("/s/eve").text
    svg = re.search(r'data-testid="join-qr">(<svg.*?</svg>)', page, re.S).group(1)
    assert "<script" not in svg and "href" not in svg
    link = f"{config.base_url}/j/{code}"
    assert f'<a href="{link}">' in page
    expected = {(r + 2, c + 2) for r, row in enumerate(segno.make(link, error="m").matrix)
                for c, on in enumerate(row) if on}
    assert _qr_modules(svg) == expected
    other = {(r + 2, c + 2) for r, row in enumerate(segno.make(f"{config.base_url}/j/X{code[1:]}", error="m").matrix)
             for c, on in enumerate(row) if on}
    assert _qr_modules(svg) != other  # another sheet's link draws another code
    phone = TestClient(web.app, base_url="http://testserver")
    phone.get(f"/j/{code}", follow_redirects=True)
    assert "join-qr" not in phone.get("/s/eve").text
