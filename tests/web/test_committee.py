"""The rules committee's evening: a house ruleset built on the server is a
ruleset like a shipped one (its rules page, Compare), the builder loads the
parent chosen as Extends, and the rules page says what differs from the
parent in a player's words, with no file of the server on it."""

from __future__ import annotations

import re

import pytest
from browser import screenshot
from conftest import KEY

DESKTOP = {"width": 1280, "height": 900}
HOUSE = "name: house\ndescription: Texas with a grand of 20\nextends: texas\nplugins:\n  official:\n    grand_base: 20\n"


def checked(html: str) -> set[str]:
    """The plugins switched on in the builder's form."""
    return set(re.findall(r'name="use\.(\w+)" value="on" checked', html))


def test_a_kept_house_ruleset_has_its_rules_page(web, config):
    (config.sheets / "house.yaml").write_text(HOUSE)
    assert "/rules/house.yaml" in web.get("/rules").text
    r = web.get("/rules/house.yaml")
    assert r.status_code == 200  # was 404: "no such ruleset"
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.text))
    assert "What differs from texas" in text and "Grand is worth 16 20" in text
    assert str(config.sheets) not in r.text and str(config.sheets.resolve()) not in r.text
    assert "official.grand_base" not in r.text and "grand_base" not in text
    de = web.get("/rules/house.yaml", headers={"accept-language": "de"}).text
    assert "Was anders ist als bei texas" in de and "Grand zählt" in de


def test_a_shipped_rules_page_has_no_server_path(web):
    from skatcore.rules.ruleset import shipped_rulesets

    r = web.get("/rules/texas")
    assert r.status_code == 200 and "Grand is worth" in r.text
    assert str(shipped_rulesets()["texas"].parent) not in r.text and "source:" not in r.text


@pytest.mark.parametrize("name", ["../house.yaml", "..%2Fhouse.yaml", "house", "nope.yaml", "house.yml", "%00.yaml"])
def test_a_ruleset_is_found_by_its_name_only(web, config, name):
    (config.sheets / "house.yaml").write_text(HOUSE)
    r = web.get(f"/rules/{name}")
    assert r.status_code == 404  # "no such ruleset", or no such page


def test_a_broken_house_ruleset_is_one_line(web, config):
    (config.sheets / "bad.yaml").write_text("name: bad\nextends: texas\nplugins:\n  official: {grand_base: zero}\n")
    assert web.get("/rules").status_code == 200
    r = web.get("/rules/bad.yaml")
    assert r.status_code == 422 and "grand_base" in r.text and str(config.sheets) not in r.text


def test_compare_accepts_a_kept_house_ruleset(web, config):
    (config.sheets / "house.yaml").write_text(HOUSE)
    assert 'value="house.yaml"' in web.get("/compare").text
    assert 'value="house.yaml" checked' in web.get("/compare?ruleset=house.yaml&ruleset=texas").text
    form = {"csrf": web.cookies.get("skat_csrf"), "ruleset": ["house.yaml", "texas"], "deals": "3", "players": "random"}
    r = web.post("/compare", data=form, follow_redirects=False)
    assert r.status_code == 303, r.text  # was 422: "choose shipped or installed rulesets"
    job = web.app.app.state.jobs[r.headers["location"].rsplit("/", 1)[1]]
    assert job.refs == ["house.yaml", "texas"] and job.files[0] == str(config.sheets / "house.yaml")
    for bad in (["../house.yaml", "texas"], [str(config.sheets / "house.yaml"), "texas"], ["texas", "texas"]):
        r = web.post("/compare", data={**form, "ruleset": bad})
        assert r.status_code == 422 and "choose" in r.text


def test_the_builder_loads_the_parent_chosen(web):
    pub, texas = web.get("/build").text, web.get("/build?parent=texas").text
    assert {"kontra", "schieberamsch", "bock", "money"} <= checked(pub)
    assert checked(texas) == {"official", "announcements", "ramsch"}  # was pub's, whatever Extends said
    assert '<option selected>texas</option>' in texas
    assert 'placeholder="16"' in texas  # texas's grand as the placeholder
    r = web.get("/build?parent=../pub")
    assert r.status_code == 400 and "expected a shipped ruleset" in r.text


def test_a_field_error_is_beside_its_field_without_a_server_path(web):
    form = {"csrf": web.cookies.get("skat_csrf"), "name": "h", "parent": "texas", "action": "check",
            "use.official": "on", "official.grand_base": "-5"}
    r = web.post("/build", data=form)
    assert r.status_code == 422 and re.search(r'field-error">expected an integer &gt;= 1, got -5<', r.text)
    assert "/tmp" not in r.text


def test_a_house_ruleset_is_kept_under_its_own_name_only(web, config):
    form = {"csrf": web.cookies.get("skat_csrf"), "name": "pub", "parent": "texas", "action": "keep",
            "use.official": "on"}
    r = web.post("/build", data=form)
    assert r.status_code == 422 and "shipped or installed ruleset" in r.text and not (config.sheets / "pub.yaml").exists()


@pytest.mark.filterwarnings("ignore")
def test_the_committee_builds_reads_and_compares(browser, server):
    from playwright.sync_api import expect

    base, config = server
    page = browser.new_context(viewport=DESKTOP).new_page()  # the pages' own CSP: htmx from a script file, no inline script
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(f"{base}/?key={KEY}")
    page.goto(f"{base}/build")
    page.fill("input[name=name]", "ours")
    expect(page.locator("input[name='use.schieberamsch']")).to_be_checked()  # pub's, the first parent
    page.select_option("select[name=parent]", "texas")  # htmx loads texas's form
    expect(page.locator("input[name='use.schieberamsch']")).not_to_be_checked()
    for plugin in ("kontra", "bock", "money"):
        expect(page.locator(f"input[name='use.{plugin}']")).not_to_be_checked()
    for plugin in ("official", "announcements", "ramsch"):
        expect(page.locator(f"input[name='use.{plugin}']")).to_be_checked()
    expect(page.locator("input[name=name]")).to_have_value("ours")  # what was typed stays
    expect(page.locator("input[name='official.grand_base']")).to_have_attribute("placeholder", "16")
    page.fill("input[name='official.grand_base']", "20")
    page.click("form.schema button[value=check]")
    diff = page.locator("[data-testid=diff]").inner_text()
    assert "Grand is worth: 16 → 20" in diff and "Schieberamsch" not in diff
    page.click("form.schema button[value=keep]")
    assert (config.sheets / "ours.yaml").is_file()
    screenshot(page, "serve-committee-build-1280.png")
    page.click("[data-testid=kept-rules]")
    rows = page.locator("[data-testid=rules-diff] tbody tr")
    expect(rows).to_have_count(1)
    assert re.sub(r"\s+", " ", rows.first.inner_text()).strip() == "Grand is worth 16 20"
    html = page.content()
    assert str(config.sheets) not in html and str(config.sheets.resolve()) not in html
    screenshot(page, "serve-committee-rules-1280.png", full_page=True, timeout=90_000)
    page.click("[data-testid=compare-parent]")
    expect(page.locator("input[value='ours.yaml']")).to_be_checked()
    expect(page.locator("input[value='texas']")).to_be_checked()
    page.locator('label:has-text("official") input').first.check(force=True)  # and another
    page.fill("input[name=deals]", "12")
    page.select_option("select[name=players]", "random")
    page.click("button.primary")
    page.wait_for_selector("[data-testid=job-done]", timeout=120_000)
    assert set(page.locator("h1").inner_text().split(" vs ")) == {"ours.yaml", "texas", "official"}
    page.wait_for_timeout(500)  # the report's frame
    screenshot(page, "serve-committee-compare-1280.png", timeout=90_000)  # the report's fonts, on a busy machine
    report = page.request.get(page.url + "/report.html").text()
    assert "ours" in report and "texas" in report and str(config.sheets) not in report
    from skatcore.sim.provenance import ruleset_pin

    assert ruleset_pin(str(config.sheets / "ours.yaml"))["sha256"] in report  # the house rules pinned, by name only
    assert not refused, refused


def test_a_house_ruleset_naming_local_code_is_refused_in_one_line(web, config):
    (config.sheets / "evil.py").write_text("raise SystemExit('ran')\n")
    (config.sheets / "evil.yaml").write_text("name: evil\nextends: official\nplugins:\n  ./evil.py:Evil: {}\n")
    r = web.get("/rules/evil.yaml")
    assert r.status_code == 422 and "--trust" in r.text and str(config.sheets) not in r.text
    form = {"csrf": web.cookies.get("skat_csrf"), "ruleset": ["evil.yaml", "texas"], "deals": "3", "players": "random"}
    r = web.post("/compare", data=form)
    assert r.status_code == 422 and "evil.yaml: " in r.text and "--trust" in r.text and str(config.sheets) not in r.text
    assert not web.app.app.state.jobs


def test_a_house_ruleset_on_a_house_ruleset(web, config):
    (config.sheets / "house.yaml").write_text(HOUSE)
    (config.sheets / "dear.yaml").write_text("name: dear\nextends: house.yaml\nplugins:\n  kontra: {}\n"
                                            "  official: {min_bid: 20}\n")
    r = web.get("/rules/dear.yaml")
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.text))
    assert r.status_code == 200 and "What differs from house.yaml" in text
    assert "Kontra and Re not played played" in text and "The lowest bid 18 20" in text
    assert 'href="/rules/house.yaml"' in r.text and str(config.sheets) not in r.text


def test_the_differences_in_a_players_words():
    from skatcore.rules.compiler import get_rules
    from skatcore.web.i18n import translator
    from skatcore.web.rulespages import plugin_schemas
    from skatcore.web.rulewords import differences

    rows = {r.rule: (r.before, r.after) for r in differences(get_rules("pub"), get_rules("texas"),
                                                              dict(plugin_schemas()), translator("en"))}
    assert rows["Grand is worth"] == ("24", "16")
    assert rows["How a Ramsch is scored"] == ("the loser loses their card points", "Texas: fewest points gains 10 or 20")
    assert rows["Kontra and Re"] == ("played", "not played") and rows["Ouvert adds 1 or doubles"] == ("–", "doubles")
    assert not [rule for rule in rows if "_" in rule or "." in rule]  # no plugin keys
    de = {r.rule: r.after for r in differences(get_rules("pub"), get_rules("texas"), {}, translator("de"))}
    assert de["Grand zählt"] == "16" and de["Kontra und Re"] == "nicht gespielt"


@pytest.mark.parametrize("table", ["skat_en_deux", "strohmann"])
def test_the_builder_and_the_upload_play_a_ruleset_as_skat_validate_does(web, config, table, tmp_path_factory):
    """pub with a straw man: each plugin compiles, but when all pass nobody can play the straw man in the Ramsch.
    ``skat validate`` refuses it; the builder kept it and the upload called it valid, and Compare failed later."""
    from skatcore.cli.main import main

    text = f"name: two\nextends: pub\nplugins:\n  {table}: {{}}\n"
    elsewhere = tmp_path_factory.mktemp("cli") / "two.yaml"  # not in the sheets folder
    elsewhere.write_text(text)
    assert main(["validate", str(elsewhere)]) == 2
    said = "ruleset &#39;two&#39;: middlehand has a choice to make"
    form = {"csrf": web.cookies.get("skat_csrf"), "name": "two", "parent": "pub", "action": "keep",
            **{f"use.{k}": "on" for k in ("official", "kontra", "ramsch", "schieberamsch", "bock", "money", table)}}
    r = web.post("/build", data=form)
    assert r.status_code == 422 and said in r.text and not (config.sheets / "two.yaml").exists()
    r = web.post("/build/upload", data={"csrf": web.cookies.get("skat_csrf"), "action": "keep"},
                 files={"ruleset": ("two.yaml", text.encode())})
    assert r.status_code == 422 and f"two.yaml: {said}" in r.text and not (config.sheets / "two.yaml").exists()
    form.pop(f"use.{table}")  # without the straw man: pub's plugins, kept
    assert web.post("/build", data=form).status_code == 200 and (config.sheets / "two.yaml").is_file()


def test_compare_refuses_two_rulesets_of_one_name(web, config):
    """An uploaded house.yaml that says ``name: texas`` beside texas: the report and deals.csv named both 'texas'."""
    (config.sheets / "house.yaml").write_text(HOUSE.replace("name: house", "name: texas"))
    form = {"csrf": web.cookies.get("skat_csrf"), "ruleset": ["texas", "house.yaml"], "deals": "3", "players": "random"}
    r = web.post("/compare", data=form)
    assert r.status_code == 422 and "texas and house.yaml are both named &#39;texas&#39;" in r.text
    assert not web.app.app.state.jobs and str(config.sheets) not in r.text


@pytest.mark.parametrize("filename, name, clash", [("pub.yaml", "mine", "pub"), ("mine.yaml", "pub", "pub"),
                                                   ("texas.yml", "texas", "texas")])
def test_an_upload_is_kept_under_a_name_of_its_own_only(web, config, filename, name, clash):
    """As the builder refuses to keep 'pub': the upload kept pub.yaml (or a file saying name: pub), a second 'pub'."""
    text = f"name: {name}\nextends: official\nplugins:\n  kontra: {{}}\n".encode()
    send = {"csrf": web.cookies.get("skat_csrf")}
    r = web.post("/build/upload", data={**send, "action": "check"}, files={"ruleset": (filename, text)})
    assert r.status_code == 200 and "Kontra and Re" in r.text
    r = web.post("/build/upload", data={**send, "action": "keep"}, files={"ruleset": (filename, text)})
    assert r.status_code == 422 and f"{filename}: {clash} is the name of a shipped or installed ruleset" in r.text
    assert [p.name for p in config.sheets.glob("*.y*ml")] == [] and 'data-testid="upload-yaml"' in r.text


WIDER = """() => [...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > innerWidth + 1)
  .slice(0, 3).map(e => e.tagName + '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().right))"""


@pytest.mark.filterwarnings("ignore")
def test_the_builder_fits_a_phone_for_every_parent(browser, server):
    """At 390 px a select as wide as its longest choice ('(as the parent: "own_first_card")') made every plugin's box
    wider than the screen (the page 492 px wide under pub)."""
    from conftest import organiser_phone

    from skatcore.rules.ruleset import shipped_rulesets

    base, _ = server
    page = organiser_phone(browser, base, "/build")
    for parent in sorted(shipped_rulesets()):
        page.goto(f"{base}/build?parent={parent}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, (parent, page.evaluate(WIDER))
        assert page.locator("select[name='kontra.window']").bounding_box()["width"] > 200  # not shrunk to nothing
    page.context.close()


def test_a_house_ruleset_edited_while_the_server_runs_is_read_again(web, config):
    """The compiled rules were cached by file name: the rules page and Compare kept the old grand after the file
    was edited (or removed and kept anew), while the report pinned the new file's hash."""
    house = config.sheets / "house.yaml"
    house.write_text(HOUSE)

    def grand(name: str) -> str:  # the value of a grand after the skat on the rules page
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", web.get(f"/rules/{name}").text))
        return re.search(r"Grand, after the skat (\d+),", text).group(1)

    assert grand("house.yaml") == "20"
    house.write_text(HOUSE.replace("grand_base: 20", "grand_base: 30"))
    assert grand("house.yaml") == "30"
    (config.sheets / "dear.yaml").write_text("name: dear\nextends: house.yaml\nplugins:\n  kontra: {}\n")
    assert grand("dear.yaml") == "30"
    house.unlink()
    house.write_text(HOUSE.replace("grand_base: 20", "grand_base: 40"))  # its parent kept anew under the same name
    assert grand("dear.yaml") == "40" and grand("house.yaml") == "40"


@pytest.mark.parametrize("name", ["n" * 10_000, "n" * 41, "a.b"])
def test_an_upload_is_kept_under_a_name_as_the_builder_s_only(web, config, name):
    """A ruleset file saying name: nnnn... (10,000 characters) was kept; every table of its comparison's report was
    170,000 px wide. Checking it still shows it."""
    text = f"name: {name}\nextends: official\nplugins:\n  kontra: {{}}\n".encode()
    send = {"csrf": web.cookies.get("skat_csrf")}
    assert web.post("/build/upload", data={**send, "action": "check"}, files={"ruleset": ("h.yaml", text)}).status_code == 200
    r = web.post("/build/upload", data={**send, "action": "keep"}, files={"ruleset": ("h.yaml", text)})
    assert r.status_code == 422 and "h.yaml: name: expected a name of at most 40 letters, digits, - and _" in r.text
    assert not (config.sheets / "h.yaml").exists() and len(r.text) < 80_000
    ok = text.replace(name.encode(), b"n" * 40)
    assert web.post("/build/upload", data={**send, "action": "keep"}, files={"ruleset": ("h.yaml", ok)}).status_code == 200
