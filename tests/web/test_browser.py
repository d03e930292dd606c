"""The web app in a real browser (headless Chromium): an evening entered on
two phones at once, a correction, a ruleset built in the form, a small
comparison; what the pages show is checked against ``skat sheet show`` of
the same sheet, and the taps a deal takes are counted."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser import screenshot
from conftest import KEY

# bypass_csp: the waits below are evaluated scripts, which the pages' CSP (tested in test_app.py) forbids
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

# (declarer, game, matadors, card points): an evening's deals at a four-table under pub rules
DEALS = [("Ben", "clubs", "with1", "74"), ("Dirk", "grand", "without2", "44"), ("Anna", "hearts", "with2", "61"),
         ("Ben", "spades", "without1", "88"), ("Cara", "diamonds", "with3", "30"), ("Dirk", "clubs", "with1", "95")]


class Taps:
    """A phone's page whose clicks are counted (a tap each)."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def tap(self, selector: str) -> None:
        self.page.locator(selector).first.click()
        self.count += 1


def enter(phone: Taps, declarer: str, game: str, matadors: str, points: str) -> int:
    """Enter one deal by taps; the taps it took."""
    page, before = phone.page, phone.count
    uid = page.locator("#entry input[name=id]").get_attribute("value")
    declarers = page.locator('[data-testid=declarer] label:not(.out)', has_text=declarer)
    if declarers.count() == 0:  # the declarer deals this deal: someone else plays it
        declarer = page.locator('[data-testid=declarer] label:not(.out)').first.inner_text()
    phone.tap(f'[data-testid=declarer] label:not(.out):has-text("{declarer}")')
    phone.tap(f"#entry label.g-{game}")
    phone.tap(f'[data-testid=matadors] label:has(input[value={matadors}])')
    for digit in points:
        phone.tap(f'#entry button.digit[data-digit="{digit}"]')
    page.wait_for_function("document.querySelector('[data-testid=preview]') !== null")
    phone.tap("#entry .save")
    page.wait_for_function(f"document.querySelector('#entry input[name=id]').value !== '{uid}'")  # a fresh form
    assert page.locator("[data-testid=saved]").inner_text().startswith("Deal ")
    return phone.count - before


def shown_totals(page) -> dict[str, int]:
    return {el.get_attribute("data-player"): int(el.inner_text()) for el in page.locator(".total .pts").all()}


def test_an_evening_on_two_phones(browser, server, capsys):
    from skatcore.cli import main

    base, config = server
    organiser = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    desk = organiser.new_page()
    desk.goto(f"{base}/?key={KEY}")
    desk.fill("input[name=name]", "evening")
    desk.fill("input[name=title]", "Thursday club")
    desk.fill("input[name=players]", "Anna, Ben, Cara, Dirk")
    desk.select_option("select[name=ruleset]", "pub")
    desk.fill("input[name=stake]", "0.05")
    desk.click("button.primary")
    code = desk.locator("[data-testid=join-code]").inner_text()
    phones = []
    for _ in range(2):  # two phones at the table, each its own browser context (cookies)
        ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, bypass_csp=True)
        page = ctx.new_page()
        page.goto(f"{base}/join")
        page.fill("input[name=code]", code.upper())  # as read off the screen
        if not phones:
            screenshot(page, "serve-join-390.png")
        page.click("button.primary")
        page.wait_for_url(re.compile(r"/s/evening$"))
        phones.append(Taps(page))
    page = phones[0].page
    page.locator('[data-testid=declarer] label:has-text("Ben")').click()
    page.locator("#entry label.g-clubs").click()
    page.locator('[data-testid=matadors] label:has(input[value=with1])').click()
    page.locator('#entry button.digit[data-digit="7"]').click()
    page.locator('#entry button.digit[data-digit="4"]').click()
    page.wait_for_function("document.querySelector('[data-testid=preview]')?.textContent.includes('won +24')")
    assert page.locator("[data-testid=preview]").inner_text().startswith("with 1, game 2; 2 x clubs 12 = 24: won +24")
    screenshot(page, "serve-entry-390.png", full_page=True)
    page.reload()
    taps = [enter(phones[i % 2], *deal) for i, deal in enumerate(DEALS)]
    assert max(taps) <= 6, taps  # declarer, game, matadors, two digits, save
    # a correction: deal 2 was a grand won, not lost
    desk.goto(f"{base}/s/evening/deals/2")
    desk.locator("#entry button.digit[data-digit=back]").click()
    desk.locator("#entry button.digit[data-digit=back]").click()
    desk.locator('#entry button.digit[data-digit="6"]').click()
    desk.locator('#entry button.digit[data-digit="4"]').click()
    desk.wait_for_function("document.querySelector('[data-testid=preview]')?.textContent.includes('won')")
    desk.click("#entry .save")
    desk.wait_for_url(re.compile(r"/s/evening$"))
    assert main(["sheet", "show", str(config.sheets / "evening.sqlite"), "--json"]) == 0
    import json

    cli = json.loads(capsys.readouterr().out)
    assert len(cli["deals"]) == len(DEALS)
    for p in [desk] + [ph.page for ph in phones]:  # every device shows the CLI's totals within a poll or two
        for _ in range(50):
            if shown_totals(p) == cli["totals"] and p.locator("#sheet tr[data-deal]").count() == len(DEALS):
                break
            p.wait_for_timeout(100)
        assert shown_totals(p) == cli["totals"]
    assert "edited" in desk.locator(".history").text_content()
    for ph in phones:  # the form follows the other phone's deals: its number and who deals
        ph.page.wait_for_function(f"document.querySelector('#next-n').textContent === '{len(DEALS) + 1}'", timeout=5000)
        assert ph.page.locator("#next-dealer").inner_text() == cli["next_dealer"]
    screenshot(desk, "serve-sheet-1280.png", full_page=True)
    screenshot(phones[1].page, "serve-sheet-390.png", full_page=True)
    organiser.close()


def test_a_ruleset_built_in_the_form(browser, server):
    base, config = server
    page = browser.new_context(viewport=DESKTOP, bypass_csp=True).new_page()
    page.goto(f"{base}/?key={KEY}")
    page.goto(f"{base}/build")
    page.fill("input[name=name]", "house")
    if page.locator("select[name=parent]").input_value() != "pub":
        with page.expect_response(lambda r: "/build?" in r.url):  # Extends loads pub's plugins into the form
            page.select_option("select[name=parent]", "pub")
        page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')")
    page.fill("input[name='official.grand_base']", "20")
    page.click("form.schema button[value=check]")
    assert "Grand is worth: 24 → 20" in page.locator("[data-testid=diff]").inner_text()
    assert "grand_base: 20" in page.locator("[data-testid=yaml]").inner_text()
    screenshot(page, "serve-build-1280.png")
    with page.expect_download() as dl:
        page.click("button[value=download]")
    assert "grand_base: 20" in Path(dl.value.path()).read_text()
    # the downloaded file uploaded again through the file input, and kept for new sheets
    kept = Path(dl.value.path()).with_name("upload.yaml")
    kept.write_text(Path(dl.value.path()).read_text())
    page.set_input_files("input[type=file][name=ruleset]", str(kept))
    page.click("[data-testid=upload] button[value=check]")
    assert "Grand is worth: 24 → 20" in page.locator("[data-testid=upload-diff]").inner_text()
    screenshot(page, "serve-upload-1280.png")
    page.click("[data-testid=upload] button[value=keep]")
    assert "Kept as upload.yaml" in page.locator("[data-testid=upload]").inner_text()
    assert (config.sheets / "upload.yaml").read_text() == kept.read_text()


@pytest.mark.filterwarnings("ignore")
def test_a_small_comparison(browser, server):
    base, _ = server
    page = browser.new_context(viewport=DESKTOP, bypass_csp=True).new_page()
    page.goto(f"{base}/?key={KEY}")
    page.goto(f"{base}/compare")
    page.locator('label:has-text("official") input').first.check(force=True)
    page.locator('label:has-text("pub") input').first.check(force=True)
    page.fill("input[name=deals]", "20")
    page.select_option("select[name=players]", "random")
    page.click("button.primary")
    page.wait_for_selector("[data-testid=job-done]", timeout=120_000)
    page.wait_for_timeout(500)  # the report's frame
    screenshot(page, "serve-compare-1280.png")
    report = page.request.get(page.url + "/report.html").text()
    assert "official" in report and "pub" in report
    rows = page.request.get(page.url + "/deals.csv").text().splitlines()
    assert len(rows) == 1 + 2 * 20  # a header, a row per deal and ruleset
