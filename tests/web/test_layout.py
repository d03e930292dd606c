"""The sheet on a phone at 390 px, measured in Chromium: the totals and the
next deal on the first screen, every control that enters a deal at least
44 x 44 CSS px and nothing to tap under 24 x 24 (WCAG 2.2 target size), for
every game of every kind of form (suit and Ramsch, Schieberamsch pushes, a
correction)."""

from __future__ import annotations

import pytest
from browser import screenshot
from conftest import KEY, join_code
from sheet_taps import PHONE

# what a phone taps: the visible part of a chip is its span (the radio itself is hidden under it)
TAPPED = ("#entry label.chip > span, #entry button, #entry select, #entry input:not([type=radio]):not([type=checkbox])"
          ":not([type=hidden]), #entry details > summary")
ANY = "a, button, select, input:not([type=hidden]):not([type=radio]):not([type=checkbox]), summary, label.chip > span"

SIZES = """sel => [...document.querySelectorAll(sel)].filter(e => e.offsetParent !== null).map(e => {
  const r = e.getBoundingClientRect(); return [e.outerHTML.slice(0, 90), r.width, r.height]; })"""


def _small(page, selector: str, least: float) -> list:
    return [(html, round(w), round(h)) for html, w, h in page.evaluate(SIZES, selector) if w < least or h < least]


def _sheet(browser, base, config, ruleset: str, deals: int = 0) -> str:
    """A sheet started with the CLI in the server's folder (``deals`` plain deals on it); its join code."""
    from skatcore.cli import main

    path = str(config.sheets / "eve.sqlite")
    assert main(["sheet", "new", path, "--ruleset", ruleset, "--players", "Anna,Ben,Cara,Dirk"]) == 0
    for who in ["Ben", "Cara", "Dirk", "Anna", "Ben", "Cara"][:deals]:
        assert main(["sheet", "add", path, "--declarer", who, "--game", "clubs", "--matadors", "with1", "--bid", "18",
                     "--points", "70"]) == 0
    code = join_code(browser, base)
    return code


def _phone(browser, base, code: str):
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, bypass_csp=True)
    page = ctx.new_page()
    page.goto(f"{base}/j/{code}")
    page.wait_for_selector("#entry")
    return ctx, page


@pytest.mark.parametrize("ruleset", ["pub", "schieberamsch", "texas", "danish-aarhus"])
def test_every_control_of_the_form_is_a_finger_wide(browser, server, ruleset):
    base, config = server
    ctx, page = _phone(browser, base, _sheet(browser, base, config, ruleset))
    games = page.locator("#entry input[name=game]").evaluate_all("xs => xs.map(x => x.value)")
    assert len(games) >= 2 and len(page.evaluate(SIZES, TAPPED)) > 20
    for game in games:
        page.locator(f"#entry label:has(> input[name=game][value='{game}'])").click()
        if page.locator("#entry details.extras").count() and page.locator("#entry details.extras").is_visible():
            page.locator("#entry details.extras > summary").click()
        assert not _small(page, TAPPED, 44), (ruleset, game, _small(page, TAPPED, 44))
        assert not _small(page, ANY, 24), (ruleset, game, _small(page, ANY, 24))
        if (ruleset, game) == ("schieberamsch", "ramsch"):
            screenshot(page.locator("#entry"), "serve-ramsch-390.png")
        page.reload()
    ctx.close()


def test_the_totals_come_first_on_a_phone(browser, server):
    base, config = server
    ctx, page = _phone(browser, base, _sheet(browser, base, config, "pub", deals=6))
    for part in ("#summary .totals", "[data-testid=next]", "#summary ol.recent", "#summary a[href='#entry']"):
        box = page.locator(part).bounding_box()
        assert box and box["y"] + box["height"] <= PHONE["height"], (part, box)  # on the first screen, unscrolled
    fix = page.locator("#summary ol.recent a.fix").first.bounding_box()
    assert fix["width"] >= 44 and fix["height"] >= 44
    page.click("[data-testid=lang]")  # Deutsch
    page.wait_for_selector("html[lang=de]")
    assert page.locator("[data-testid=next]").inner_text().startswith("Als Nächstes") or "Spiel 7" in \
        page.locator("[data-testid=next]").inner_text()
    screenshot(page, "serve-sheet-de-390.png")
    ctx.close()


def test_a_long_name_does_not_widen_the_phone_page(browser, server):
    """A name without spaces (40 letters, the most a sheet takes) wraps on a phone: the page stays
    390 px wide, every chip on it (it made the page 1,800 px wide and the game chips could not be tapped)."""
    from skatcore.cli import main

    base, config = server
    path = str(config.sheets / "eve.sqlite")
    long = "W" * 40  # the longest name a sheet takes, wider than the phone
    assert main(["sheet", "new", path, "--ruleset", "pub", "--players", f"{long},Ben,Cara"]) == 0
    assert main(["sheet", "add", path, "--declarer", long, "--game", "clubs", "--matadors", "with1", "--bid", "18",
                 "--points", "70"]) == 0
    code = join_code(browser, base)
    phone_desk = browser.new_context(viewport=PHONE, bypass_csp=True,  # the organiser's screen on a phone, in German
                                     extra_http_headers={"Accept-Language": "de-DE"}).new_page()
    phone_desk.goto(f"{base}/?key={KEY}")
    phone_desk.goto(f"{base}/s/eve")
    lines = phone_desk.locator("[data-testid=join-code]").evaluate(
        "e => e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)")
    assert lines < 1.5, lines  # the join code on one line, never broken in two
    phone_desk.context.close()
    ctx, page = _phone(browser, base, code)
    for game in ("clubs", "ramsch"):
        if page.locator(f"#entry input[name=game][value={game}]").count():
            page.locator(f"#entry label:has(> input[name=game][value='{game}'])").click(timeout=5000)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], (game, width)
    page.goto(f"{base}/s/eve/deals/1")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    ctx.close()
