"""Accessibility (issue 34, item 7): axe-core, vendored for the tests only
(``tests/vendor/axe.min.js``, its licence beside it; the pages never serve
it), checks every page of ``skat serve`` in the browser, a sheet with deals
at a phone's 390 px and a desktop's 1,280 px; no violation of impact
serious or critical is allowed."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from conftest import KEY

AXE = Path(__file__).parent.parent / "vendor" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
DEALS = [("Ben", "clubs", "with1", "74"), ("Cara", "grand", "without2", "44"), ("Dirk", "hearts", "with2", "61")]


def problems(page) -> list[str]:
    """axe's serious and critical violations on ``page``: a line per rule, the
    number of elements and the first three (where, why, the element)."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    found = []
    for v in result["violations"]:
        if v["impact"] in ("serious", "critical"):
            found.append(f"{v['id']} ({v['impact']}): {v['help']}, {len(v['nodes'])} element(s)")
            for node in v["nodes"][:3]:
                summary = " ".join((node.get("failureSummary") or "").split())
                found.append(f"    {' '.join(node['target'])}: {summary} | {node['html'][:160]}")
    return found


def _organiser(base: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=60)
    client.get(f"/?key={KEY}")
    client.headers.update({"X-CSRF-Token": client.cookies["skat_csrf"]})
    return client


def test_no_serious_accessibility_problem_on_any_page(browser, server):
    base, _ = server
    found: dict[str, list[str]] = {}
    web = _organiser(base)
    try:
        web.post("/sheets", data={"name": "empty", "players": "Anna, Ben, Cara", "ruleset": "official"})  # QR shown
        r = web.post("/sheets", data={"name": "eve", "title": "Thursday club", "players": "Anna, Ben, Cara, Dirk",
                                      "ruleset": "pub", "stake": "0.05"}, follow_redirects=True)
        code = re.search(r'data-testid="join-code">(\w+)<', r.text).group(1)
        for i, (who, game, matadors, points) in enumerate(DEALS):
            r = web.post("/s/eve/deals", data={"declarer": who, "game": game, "matadors": matadors, "points": points,
                                               "bid": "18", "id": f"a{i}"})
            assert r.status_code == 200, r.text
        r = web.post("/compare", data={"ruleset": ["official", "pub"], "deals": "20", "players": "random", "seed": "1"},
                     follow_redirects=False)
        job = r.headers.get("location") or r.headers.get("hx-redirect")
    finally:
        web.close()

    desk = browser.new_context(viewport=DESKTOP, bypass_csp=True).new_page()  # bypass_csp: axe is injected
    desk.goto(f"{base}/?key={KEY}")
    assert desk.request.get(f"{base}/static/axe.min.js").status == 404  # the tests' tool, never the pages'
    pages = {"home (organiser)": "/", "sheet 1280": "/s/eve", "a new sheet 1280 (join QR)": "/s/empty",
             "deal page (correction)": "/s/eve/deals/2",
             "build": "/build", "rules": "/rules", "a ruleset": "/rules/pub", "compare": "/compare",
             "error 404": "/s/nosuchsheet"}
    if job:
        pages["a comparison job"] = job
        pages["a comparison's report"] = job + "/report.html"
    for what, url in pages.items():
        desk.goto(base + url)
        if what == "a comparison job":
            desk.wait_for_selector("[data-testid=job-done]", timeout=120_000)
        found[what] = problems(desk)
    desk.goto(f"{base}/build")  # the differences and the YAML shown, and a refusal
    desk.fill("input[name=name]", "house")
    desk.select_option("select[name=parent]", "pub")
    desk.fill("input[name='official.grand_base']", "20")
    desk.click("form.schema button[value=check]")
    desk.wait_for_selector("[data-testid=diff]")
    found["build, checked"] = problems(desk)
    desk.fill("input[name='official.grand_base']", "zero")
    desk.click("form.schema button[value=check]")
    desk.wait_for_selector("[data-testid=build-error]")
    found["build, refused"] = problems(desk)
    desk.goto(f"{base}/s/eve")  # the count before saving, and a refusal, shown in the form
    desk.locator('[data-testid=declarer] label:has-text("Ben")').click()
    desk.locator("#entry label.g-clubs").click()
    desk.locator("#entry .save").click()
    desk.wait_for_selector("#preview .error")
    found["sheet 1280, a refused deal"] = problems(desk)
    for what, url in (("home, German", "/"), ("deal page, German", "/s/eve/deals/1")):
        desk.goto(f"{base}/lang/de?next={url}")
        found[what] = problems(desk)

    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                bypass_csp=True).new_page()
    phone.goto(f"{base}/join")
    found["join 390"] = problems(phone)
    phone.fill("input[name=code]", "wrongcode2")
    phone.click("button.primary")
    phone.wait_for_selector("[role=alert]")
    found["join 390, a wrong code"] = problems(phone)
    phone.goto(f"{base}/j/{code}")
    phone.wait_for_selector("#entry")
    found["sheet 390"] = problems(phone)
    phone.locator('[data-testid=declarer] label:has-text("Cara")').click()
    phone.locator("#entry label.g-spades").click()
    phone.locator("[data-testid=matadors] label:has(input[value=with1])").click()
    for digit in "88":
        phone.locator(f'#entry button.digit[data-digit="{digit}"]').click()
    phone.wait_for_selector("[data-testid=preview]")
    phone.locator("#entry .save").click()
    phone.wait_for_function("document.querySelector('[data-testid=saved]').textContent.startsWith('Deal 4 saved')")
    found["sheet 390, a deal saved"] = problems(phone)
    phone.locator("#entry label.g-grand").click()  # the extras opened
    phone.locator("#entry details.extras summary").click()
    found["sheet 390, the extras"] = problems(phone)
    phone.locator("#entry label.g-ramsch").click()  # the Ramsch fields
    found["sheet 390, a Ramsch"] = problems(phone)
    phone.context.set_offline(True)  # a save that does not reach the server: the alert
    phone.locator("#entry label.g-clubs").click()
    phone.locator("#entry .save").click()
    phone.wait_for_selector("[data-testid=unsent]")
    found["sheet 390, a save kept on the phone"] = problems(phone)
    phone.context.set_offline(False)
    phone.wait_for_selector("[data-testid=unsent]", state="detached", timeout=15000)
    phone.goto(f"{base}/lang/de?next=/s/eve")
    found["sheet 390, German"] = problems(phone)

    report = "\n".join(f"{what}:\n  " + "\n  ".join(lines) for what, lines in found.items() if lines)
    if report:
        pytest.fail(f"axe: serious or critical violations\n{report}", pytrace=False)
