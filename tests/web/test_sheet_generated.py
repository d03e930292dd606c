"""Generated sessions of every shipped ruleset entered by tapping through the
sheet pages in Chromium at 390 px, and the same steps with ``skat sheet
add/edit/void/undo``: the sheets must agree entry by entry, total by total
and note by note, with each other, with ``skat sheet`` on the page's
exported session record, and with what the page shows.  A refusal of the CLI
is a refusal of the page.

CI runs a session per ruleset; ``python -m pytest -m slow`` hundreds of
deals per ruleset.  ``SKAT_SHEET_SEED`` chooses other seeds; a failure
names its seed."""

from __future__ import annotations

import json
import os
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import KEY
from sheet_cases import Step, draw_step
from sheet_taps import PHONE, Phone

from skatcore.cli import main
from skatcore.rules.ruleset import shipped_rulesets

TWO_PLAYERS = {"offiziersskat", "oma-skat", "piloten-skat", "schmegegge", "skat-en-deux", "strohmann"}
SEED = int(os.environ.get("SKAT_SHEET_SEED", "3401"))
# what a deal's line says, compared between the three sheets
LINE = ("deal", "dealer", "declarer", "game", "won", "value", "factor", "entries", "totals", "marks", "void", "explanation")
SHEET = ("totals", "extra", "final", "next_dealer", "next_deal", "owed", "notes", "settlement")


def cli_json(*args: str, capsys) -> dict:
    capsys.readouterr()
    assert main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def cli_step(path: str, step: Step, capsys) -> tuple[int, str]:
    """The step with the CLI: its exit code and message."""
    capsys.readouterr()
    if step.action == "add":
        code = main(["sheet", "add", path, *step.deal.cli()])
    elif step.action == "edit":
        code = main(["sheet", "edit", path, str(step.n), *step.deal.cli()])
    elif step.action == "void":
        code = main(["sheet", "void", path, str(step.n)])
    else:
        code = main(["sheet", "undo", path])
    out = capsys.readouterr()
    return code, (out.err or out.out).strip()


def page_step(phone: Phone, base: str, name: str, step: Step) -> str | None:
    """The step tapped on the phone: the refusal shown, or None."""
    page = phone.page
    if step.action == "add":
        phone.enter(step.deal)
        return phone.save()
    phone.kept = False  # an undo, a correction or a void shows a new-deal form afresh
    if step.action == "undo":
        page.once("dialog", lambda d: d.accept())
        phone.tap("#sheet form.undo button")
        page.wait_for_function("n => document.querySelector('#sheet').dataset.next === String(n)", arg=step.n)
        return None
    phone.tap(f"#sheet tr[data-deal='{step.n}'] a.fix")
    page.wait_for_url(re.compile(rf"/deals/{step.n}$"))
    if step.action == "void":
        with page.expect_response(lambda r: r.url.endswith("/void")) as answer:
            phone.tap("form[hx-post$='/void'] button")
        if answer.value.status != 204:
            page.wait_for_selector("#voiderr .error")
            error = page.locator("#voiderr .error").inner_text()
            page.goto(f"{base}/s/{name}")
            return error
        page.wait_for_url(re.compile(rf"/s/{name}$"))
        return None
    else:
        phone.enter(step.deal, correction=True)
    error = phone.save_correction(name)
    if error is not None:
        page.goto(f"{base}/s/{name}")
    return error


def lines(sheet: dict) -> list[dict]:
    return [{k: d.get(k) for k in LINE} for d in sheet["deals"]]


def shown(page, players: list[str]) -> tuple[dict, dict]:
    """The totals the page shows and each deal's entries in its list."""
    totals = {el.get_attribute("data-player"): int(el.inner_text()) for el in page.locator("#summary .pts").all()}
    rows = {}
    for row in page.locator("#sheet tr[data-deal]").all():
        cells = [c.inner_text().strip() for c in row.locator("td.num .entry").all()]
        rows[int(row.get_attribute("data-deal"))] = dict(zip(players, (int(c) if c else 0 for c in cells), strict=True))
    return totals, rows


def play_session(browser, server, tmp_path, capsys, ruleset: str, seed: int, steps: int) -> Counter:
    """One session; the taps per kind of deal (beside the digits)."""
    base, config = server
    players = ["Anna", "Ben"] if ruleset in TWO_PLAYERS else ["Anna", "Ben", "Cara", "Dirk"]
    name = f"s{seed}"
    desk = browser.new_context(bypass_csp=True).new_page()
    desk.goto(f"{base}/?key={KEY}")
    desk.fill("input[name=name]", name)
    desk.fill("input[name=players]", ", ".join(players))
    desk.select_option("select[name=ruleset]", ruleset)
    desk.click("button.primary")
    code = desk.locator("[data-testid=join-code]").inner_text()
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, bypass_csp=True)
    page = ctx.new_page()
    page.goto(f"{base}/j/{code}")
    page.wait_for_url(re.compile(rf"/s/{name}$"))
    phone = Phone(page)
    (tmp_path / "cli").mkdir(exist_ok=True)  # tmp_path is the server's sheets folder
    cli = str(tmp_path / "cli" / f"{name}.sqlite")
    assert main(["sheet", "new", cli, "--ruleset", ruleset, "--players", ",".join(players)]) == 0
    rng = random.Random(seed)
    taps: Counter = Counter()
    for i in range(steps):
        step = draw_step(rng, cli)
        where = f"{ruleset}, seed {seed} (SKAT_SHEET_SEED), step {i + 1}: {step}"
        code, said = cli_step(cli, step, capsys)
        assert code in (0, 2), f"{where}: the CLI failed: {said}"
        before, digits, kept = phone.taps, phone.digits, phone.kept
        error = page_step(phone, base, name, step)
        assert (error is None) == (code == 0), f"{where}: the CLI {'refused: ' + said if code else 'saved'}, " \
                                               f"the page {'refused: ' + str(error) if error else 'saved'}"
        if step.action == "add" and error is None and not kept:
            key = f"{step.deal.kind}{'' if step.deal.plain() else '+'}"
            taps[key] = max(taps[key], phone.taps - before - (phone.digits - digits))
    web = cli_json("sheet", "show", str(config.sheets / f"{name}.sqlite"), capsys=capsys)
    ref = cli_json("sheet", "show", cli, capsys=capsys)
    record = tmp_path / "cli" / f"{name}.yaml"
    record.write_text(page.request.get(f"{base}/s/{name}/export.yaml").text())
    exported = cli_json("sheet", str(record), capsys=capsys)
    tag = f"{ruleset}, seed {seed} (SKAT_SHEET_SEED)"
    assert lines(web) == lines(ref), tag
    assert lines(exported) == lines(ref), tag
    for key in SHEET:
        assert web.get(key) == ref.get(key), f"{tag}: {key}"
        assert exported.get(key) == ref.get(key), f"{tag}: {key} of the exported record"
    page.goto(f"{base}/s/{name}")
    totals, rows = shown(page, players)
    assert totals == ref["totals"], tag
    assert rows == {d["deal"]: d["entries"] for d in ref["deals"]}, tag
    ctx.close()
    desk.context.close()
    return taps


@pytest.mark.parametrize("ruleset", sorted(shipped_rulesets()))
def test_a_session_through_the_pages(browser, server, tmp_path, capsys, ruleset):
    taps = play_session(browser, server, tmp_path, capsys, ruleset, SEED + sorted(shipped_rulesets()).index(ruleset), 10)
    # a plain suit or grand game: declarer, game, matadors, save (and the points' digits); a Ramsch in 8
    for kind, most in (("suit", 4), ("grand", 4), ("ramsch", 8)):
        assert taps.get(kind, 0) <= most, (ruleset, dict(taps))


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", sorted(shipped_rulesets()))
def test_many_sessions_through_the_pages(browser, server, tmp_path, capsys, ruleset):
    for k in range(3):
        play_session(browser, server, tmp_path, capsys, ruleset, SEED * 1000 + k, 100)


def test_the_taps_of_an_evening_are_written_down():
    """docs/serve.md says how many taps a deal takes; this test's limits are those."""
    text = Path(__file__).parents[2].joinpath("docs", "serve.md").read_text()
    assert "4 taps" in text and "8 taps" in text
