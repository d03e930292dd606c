"""A comparison fits where it is read (issue 36, item 5): the report of four
rulesets in Chromium at 1,280 and 1,400 px without a horizontal page scroll
(tables wrap their labels, or scroll in their own box), every chart's text
inside its picture, the contracts in one order (grand, clubs, spades,
hearts, diamonds, null, ramsch, passed) in every chart and table; and the
terminal's statistics table at a narrow ``COLUMNS``, where a wrapped label
must not read as a row of its own."""

from __future__ import annotations

import html
import re

import pytest
from browser import screenshot

from skatcore.cli.main import main
from skatcore.rules.compiler import get_rules
from skatcore.rules.describe import rules_diff
from skatcore.sim.compare import compare, stat_table
from skatcore.sim.outcomes import SKAT_ORDER
from skatcore.sim.report import render
from skatcore.sim.report.words import Provenance

NAMES = ("official", "texas", "tournee", "pub")
ORDER = (*SKAT_ORDER, "ramsch", "passed")
KINDS = ("grand", "suit", "null", "ramsch", "passed")

#: every <text> of every <svg> whose box (after its own rotation) leaves the svg's viewBox
OUTSIDE = """() => [...document.querySelectorAll('svg')].flatMap(svg => {
    const vb = svg.viewBox.baseVal, into = svg.getCTM().inverse();
    return [...svg.querySelectorAll('text')].flatMap(t => {
        const b = t.getBBox(), m = into.multiply(t.getCTM());
        const pts = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]
            .map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
        const xs = pts.map(p => p[0]), ys = pts.map(p => p[1]);
        const out = Math.min(...xs) < vb.x - .5 || Math.max(...xs) > vb.x + vb.width + .5
            || Math.min(...ys) < vb.y - .5 || Math.max(...ys) > vb.y + vb.height + .5;
        return out ? [svg.getAttribute('aria-label') + ': ' + t.textContent] : [];
    });
})"""

#: the figures of the key tables (each on one line) and whether a table's box scrolls
FIGURES = """() => [...document.querySelectorAll('table.key td')].map(c => {
    const r = document.createRange(); r.selectNodeContents(c);
    const tops = [...r.getClientRects()].map(x => x.top);
    return [c.textContent, tops.length ? Math.max(...tops) - Math.min(...tops) : 0,
            parseFloat(getComputedStyle(c).lineHeight)];
})"""


@pytest.fixture(scope="module")
def four():
    """official, texas, tournee, pub on the same 1,000 deals, as the report renders them."""
    rules = [get_rules(n) for n in NAMES]
    result = compare(NAMES, 1000, 5, jobs=2)
    made = Provenance("0.1.0", None, ("compare", *NAMES, "--deals", "1000", "--seed", "5", "--html", "report.html"),
                      "2026-12-01 12:00 UTC", "Linux x86_64, 2 CPUs, Python 3.11", 12.3)
    return result, render(result, rules_diff(rules), ["heuristic"] * 3, rules=rules, provenance=made)


def chart_labels(page: str, title: str) -> list[str]:
    svg = page.split(f'aria-label="{title}', 1)[1].split("</svg>", 1)[0]
    return [html.unescape(x) for x in re.findall(r'transform="rotate\(-35 [^"]*\)">([^<]*)</text>', svg)]


def test_contracts_in_one_order_in_every_chart_and_table(four):
    result, page = four
    mix = chart_labels(page, "Contract mix (share of all deals")
    assert mix == [c for c in ORDER if c in mix] and {"grand", "null", "ramsch", "passed"} <= set(mix)
    assert chart_labels(page, "Contract kinds") == list(KINDS)
    wins = chart_labels(page, "Declarer win rate by contract")
    assert wins == [c for c in ORDER if c in wins] and "ramsch" not in wins
    rows = [label for label, *_ in stat_table(result)[1]]
    for prefix, shown in (("mix: ", mix), ("win rate: ", wins), ("mean value: ", wins)):
        assert [r[len(prefix):] for r in rows if r.startswith(prefix)] == shown, prefix
    tables = re.findall(r'<th title="[^"]*">mix: ([^<]*)</th>', page)
    assert tables == mix


@pytest.mark.parametrize("width", [1280, 1400])
def test_four_rulesets_fit_the_window(browser, four, width):
    """No horizontal page scroll (the rules that differ opened too), no text outside its chart, every
    figure of the key tables on one line; a key table's box never needs to scroll (its labels wrap)."""
    _result, html_page = four
    page = browser.new_page(viewport={"width": width, "height": 900})
    try:
        page.set_content(html_page)
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.evaluate(OUTSIDE) == []
        figures = page.evaluate(FIGURES)
        assert len(figures) > 100
        assert [(text, spread) for text, spread, line in figures if spread >= line / 2] == []
        assert page.evaluate("[...document.querySelectorAll('div.scroll')].filter(d => d.querySelector('table.key'))"
                             ".filter(d => d.scrollWidth > d.clientWidth + 1).length") == 0
        if width == 1280:
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = false)")
            screenshot(page, "compare-report-1280.png", full_page=True, clip={"x": 0, "y": 0, "width": 1280, "height": 2400})
    finally:
        page.close()


def _stat_rows(out: str) -> list[list[str]]:
    """The statistics table's rows, each the lines of its first cell: between rules where the table has
    them, else a line each."""
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("statistics (95%"))
    body = next(i for i in range(at, len(lines)) if lines[i].startswith("┡")) + 1
    end = next(i for i in range(body, len(lines)) if lines[i].startswith("└"))
    rows: list[list[str]] = [[]]
    for line in lines[body:end]:
        if line.startswith("├"):
            rows.append([])
        else:
            cell = line.split("│")[1].strip()
            rows[-1] += [cell] if cell else []
    return rows if len(rows) > 1 else [[line] for line in rows[0]]


@pytest.mark.parametrize("columns", [None, "140", "100", "72"])
def test_a_wrapped_label_is_never_a_row_of_its_own(capsys, monkeypatch, columns):
    """At a narrow ``COLUMNS`` a rule separates the rows: each row's lines give back its label (``classic
    points / 36`` over ``deals (without Bock)`` is one row, never a row ``deals``); where nothing wraps, one
    line a row and no rules."""
    if columns:
        monkeypatch.setenv("COLUMNS", columns)
    assert main(["compare", "official", "pub", "--deals", "36", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    labels = [label for label, *_ in stat_table(compare(["official", "pub"], 36, 5))[1]]
    rows = _stat_rows(out)
    assert [" ".join(r) for r in rows] == labels
    assert [r for r in rows if r[0] == "deals"] == [["deals"]]
    if columns:
        assert max(len(line) for line in out.splitlines() if line[:1] in "┏┃┡│├└") <= int(columns)  # the tables
    wrapped = any(len(r) > 1 for r in rows)
    assert wrapped == (columns in ("100", "72"))
    assert ("├" in out.split("statistics (95%", 1)[1]) == wrapped


def test_a_narrow_terminal_folds_a_number_rather_than_cut_it(capsys, monkeypatch):
    """Five rulesets at ``COLUMNS=60``: a cell too wide goes on over lines
    (``83.`` over ``1%``); it was cut to ``83…``, a number nobody could read
    back.  Each column's lines, joined, give back the cell in full."""
    monkeypatch.setenv("COLUMNS", "60")
    names = ["official", "texas", "tournee", "pub", "danish"]
    assert main(["compare", *names, "--deals", "36", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "…" not in out
    monkeypatch.setenv("COLUMNS", "400")
    assert main(["compare", *names, "--deals", "36", "--seed", "5"]) == 0
    wide = capsys.readouterr().out.split("statistics (95%", 1)[1]
    row = next(line for line in wide.splitlines() if line.startswith("│ declarer win rate"))
    cells = [c.strip() for c in row.split("│")[2:-1]]
    narrow = out.split("statistics (95%", 1)[1].split("├")[1]  # the rows of the first statistic after "deals"
    columns = zip(*[line.split("│")[2:-1] for line in narrow.splitlines() if line.startswith("│")], strict=True)
    assert ["".join(part.strip() for part in col).replace(" ", "") for col in columns] == [c.replace(" ", "") for c in cells]
