"""Two phones entering at once, then a killed server (issue 22's targets):

    .venv/bin/python tools/serve_two_phones.py [--deals 50]

Starts ``skat serve`` on a free local port with a fresh sheet (pub rules,
four players).  Two headless Chromium pages at 390 px (two browser contexts:
two phones) each enter ``--deals`` deals by tapping, at the same time.  A
save the server refuses because the other phone's deal moved the dealer (the
tapped declarer now sits out) is tapped again with another declarer; the
script counts those.  Then it checks: every deal on the sheet once, in the
order the saves were answered, both pages and ``skat sheet show --json``
show the same totals.  Finally it kills the server (SIGKILL), starts it
again and checks the sheet is the same.  Prints the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from serve_common import free_port, new_sheet, organiser, start

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
from browser import FLAGS, chromium_path

GAMES = ["clubs", "spades", "hearts", "diamonds", "grand"]
MATADORS = ["mit 1", "mit 2", "ohne 1", "ohne 2"]


async def phone(browser, base: str, code: str, n: int, seed: int, answered: list, stats: dict) -> None:
    ctx = await browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                    bypass_csp=True)
    page = await ctx.new_page()
    await page.goto(f"{base}/j/{code}")
    rnd = random.Random(seed)
    for _ in range(n):
        game, mats = rnd.choice(GAMES), rnd.choice(MATADORS)
        # two digits (card points 100-120 take a third tap); 60-60 would start Bock rounds
        points = str(rnd.choice([r for r in range(20, 100) if r != 60]))
        for _ in range(20):
            out = page.locator("[data-testid=declarer] label:not(.out)")
            who = (await out.nth(rnd.randrange(await out.count())).inner_text()).strip()
            taps, uid = 0, await page.locator("#entry input[name=id]").get_attribute("value")
            taps_sel = (f'[data-testid=declarer] label:not(.out):has-text("{who}")', f"#entry label.g-{game}",
                        f'[data-testid=matadors] label:has-text("{mats}")',
                        *(f'#entry button.digit[data-digit="{d}"]' for d in points))
            for sel in taps_sel:
                await page.locator(sel).first.click()
                taps += 1
            async with page.expect_response(lambda r: r.url.endswith("/deals") and r.request.method == "POST") as info:
                await page.locator("#entry .save").click()
                taps += 1
            response = await info.value
            if response.status == 200:
                await page.wait_for_function(f"document.querySelector('#entry input[name=id]').value !== '{uid}'")
                saved = await page.locator("[data-testid=saved]").text_content()
                answered.append((time.monotonic(), int(saved.split(":")[0].split()[1]), seed))
                stats["taps"].append(taps)
                break
            stats["retries"] += 1
            reason = re.sub(r"<[^>]+>|\b(Anna|Ben|Cara|Dirk)\b", "", await response.text()).strip()
            stats["reasons"][reason] = stats["reasons"].get(reason, 0) + 1
            await page.reload()  # the other phone's deal moved the dealer: the form as it is now
    stats["pages"].append(page)


async def run(args) -> None:
    from playwright.async_api import async_playwright

    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc, base, key = start(Path(tmp), port)
        try:
            code = new_sheet(organiser(base, key), "two")
            answered: list = []
            stats = {"taps": [], "retries": 0, "pages": [], "reasons": {}}
            async with async_playwright() as p:
                browser = await p.chromium.launch(executable_path=chromium_path(), args=FLAGS)
                t = time.monotonic()
                await asyncio.gather(phone(browser, base, code, args.deals, 1, answered, stats),
                                     phone(browser, base, code, args.deals, 2, answered, stats))
                took = time.monotonic() - t
                sheet = json.loads(subprocess.run([str(Path(sys.executable).parent / "skat"), "sheet", "show",
                                                   str(Path(tmp) / "two.sqlite"), "--json"],
                                                  capture_output=True, text=True, check=True).stdout)
                await asyncio.sleep(2)  # a poll or two
                shown = []
                for page in stats["pages"]:
                    shown.append({await el.get_attribute("data-player"): int(await el.inner_text())
                                  for el in await page.locator(".total .pts").all()})
                await browser.close()
            numbers = [n for _, n, _ in sorted(answered)]
            ids = [d.get("id") for d in sheet["deals"]]
            print(f"two phones x {args.deals} deals in {took:.0f} s: {len(sheet['deals'])} deals on the sheet, "
                  f"{len(set(ids))} distinct ids; deal numbers in the order the saves were answered: "
                  f"{'1..' + str(len(numbers)) + ' in order' if numbers == list(range(1, len(numbers) + 1)) else numbers}; "
                  f"{stats['retries']} saves tapped again (the other phone's deal moved the dealer); "
                  f"taps per deal max {max(stats['taps'])}, mean {sum(stats['taps']) / len(stats['taps']):.1f}")
            print(f"why saves were refused: {stats['reasons']}")
            same = all(s == sheet["totals"] for s in shown)
            print(f"totals: skat sheet show {sheet['totals']}; both pages {'the same' if same else shown}")
            before = organiser(base, key).get("/s/two/sheet.json").json()
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            proc, base, key = start(Path(tmp), port)
            after = organiser(base, key).get("/s/two/sheet.json").json()
            print(f"server killed (SIGKILL) and started again: the sheet {'is the same' if after == before else 'CHANGED'}"
                  f" ({len(after['deals'])} deals, totals {after['totals']})")
            ok = len(sheet["deals"]) == 2 * args.deals == len(set(ids)) and same and after == before
            sys.exit(0 if ok else 1)
        finally:
            proc.terminate()
            proc.wait(10)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=50, help="deals per phone")
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
