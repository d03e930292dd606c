"""Saves that fail say so (issue 34, W5): a deal saved on a phone while the
server cannot be reached is shown as not saved at once, kept on the phone
(localStorage) and sent again when the server answers, once; a refusal is
not kept.  What the sheet holds is checked with ``skat sheet show --json``."""

from __future__ import annotations

import json
import re

import httpx
from conftest import KEY

PHONE = {"width": 390, "height": 844}
FAILED = "not saved: no connection — kept on this phone, sent again when the server is back"


def _start_sheet(base: str) -> str:
    """A sheet started by the organiser over HTTP; its join code."""
    with httpx.Client(base_url=base, timeout=30) as organiser:
        organiser.get(f"/?key={KEY}")
        r = organiser.post("/sheets", data={"csrf": organiser.cookies["skat_csrf"], "name": "eve", "ruleset": "pub",
                                            "players": "Anna, Ben, Cara, Dirk", "stake": "0"}, follow_redirects=True)
        return re.search(r'data-testid="join-code">(\w+)<', r.text).group(1)


def _tap_deal(page, declarer: str, game: str, matadors: str, points: str) -> str:
    """Enter a deal by taps and save it, whether or not the server answers; its deal id."""
    uid = page.locator("#entry input[name=id]").get_attribute("value")
    page.locator(f'[data-testid=declarer] label:has-text("{declarer}")').click()
    page.locator(f"#entry label.g-{game}").click()
    page.locator(f"[data-testid=matadors] label:has(input[value={matadors}])").click()
    for digit in points:
        page.locator(f'#entry button.digit[data-digit="{digit}"]').click()
    page.locator("#entry .save").click()
    return uid


def _kept(page) -> list[str]:
    return page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('skat-unsent:')).sort()")


def _sheet(config, capsys) -> list[dict]:
    from skatcore.cli import main

    capsys.readouterr()
    assert main(["sheet", "show", str(config.sheets / "eve.sqlite"), "--json"]) == 0
    return json.loads(capsys.readouterr().out)["deals"]


def test_a_deal_saved_without_connection_is_kept_and_sent_once(browser, server, capsys):
    base, config = server
    code = _start_sheet(base)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  bypass_csp=True)  # (the waits are evaluated scripts)
    page = context.new_page()
    page.goto(f"{base}/j/{code}")
    first = _tap_deal(page, "Ben", "clubs", "with1", "74")
    page.wait_for_function("document.querySelector('[data-testid=saved]').textContent.startsWith('Deal 1 saved')")

    context.set_offline(True)  # the phone loses the table's network
    second = _tap_deal(page, "Cara", "spades", "with1", "61")
    alert = page.locator("[data-testid=unsent]")
    alert.wait_for(timeout=5000)
    assert alert.get_attribute("role") == "alert" and alert.inner_text() == FAILED
    assert "Deal 1 saved" not in page.locator("[data-testid=saved]").inner_text()  # no old success above it
    assert _kept(page) == [f"skat-unsent:eve:{second}"]
    assert page.locator("#entry input[name=id]").get_attribute("value") not in (first, second)  # a new deal's id
    assert page.locator("#next-n").inner_text() == "3"
    third = _tap_deal(page, "Dirk", "hearts", "without1", "80")  # a second deal while still offline waits behind it
    page.wait_for_function("document.querySelector('[data-testid=unsent]').textContent.includes(': 2')")
    assert sorted(_kept(page)) == sorted([f"skat-unsent:eve:{second}", f"skat-unsent:eve:{third}"])
    assert [d["id"] for d in _sheet(config, capsys)] == [first]  # nothing reached the server

    context.set_offline(False)  # back: both are sent, in the order they were entered, and the alert goes
    alert.wait_for(state="detached", timeout=15000)
    assert page.locator("[data-testid=saved]").inner_text().startswith("sent again: Deal 3 saved")
    assert _kept(page) == []
    deals = _sheet(config, capsys)
    assert [d["id"] for d in deals] == [first, second, third]
    assert [(d["declarer"], d["game"]) for d in deals] == [("Ben", "clubs"), ("Cara", "spades"), ("Dirk", "hearts")]
    page.wait_for_function("document.querySelectorAll('#sheet tr[data-deal]').length === 3")  # the list refreshed

    # the same deal kept twice (the answer to its save was lost): sent again, the server keeps it once
    page.evaluate("""([id]) => localStorage.setItem('skat-unsent:eve:' + id, JSON.stringify(
        {at: 1, order: 0, url: '/s/eve/deals', body: 'declarer=Cara&game=spades&matadors=with1&points=61&bid=18&id=' + id}))""",
                  [second])
    page.reload()
    page.wait_for_function("document.querySelector('[data-testid=saved]').textContent.includes('on the sheet already')")
    assert _kept(page) == [] and len(_sheet(config, capsys)) == 3

    # a refusal is not kept: the form says why
    page.locator('[data-testid=declarer] label:has-text("Anna")').click()
    page.locator("#entry label.g-clubs").click()
    page.locator("#entry .save").click()
    page.wait_for_function("document.querySelector('#preview .error') !== null")
    assert _kept(page) == [] and page.locator("[data-testid=unsent]").count() == 0

    # the server fails (5xx): kept as well, sent when it answers again
    page.reload()
    page.route("**/s/eve/deals", lambda route: route.fulfill(status=503, body="down"))
    fourth = _tap_deal(page, "Anna", "grand", "with1", "70")
    page.wait_for_function("document.querySelector('[data-testid=unsent]')?.textContent.includes('server failed')")
    assert _kept(page) == [f"skat-unsent:eve:{fourth}"]
    page.unroute("**/s/eve/deals")
    page.locator("[data-testid=unsent]").wait_for(state="detached", timeout=15000)  # the timer's resend
    assert [d["id"] for d in _sheet(config, capsys)] == [first, second, third, fourth]

    # a correction that does not reach the server is not kept (it depends on the deal as it was): it says so
    page.goto(f"{base}/s/eve/deals/1")
    context.set_offline(True)
    page.locator("#entry .save").click()
    page.wait_for_function("document.querySelector('#preview [role=alert]')?.textContent.startsWith('not saved: no connection')")
    assert _kept(page) == []
    context.close()
