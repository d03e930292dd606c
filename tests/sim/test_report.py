"""The comparison report (issue 23): every number the same as pandas gets
from the per-deal CSV, pub's session statistics labelled with or without
Bock, the all-pass rate over deals where passing was a choice, a complete
glossary, the provenance, and the page as a reader sees it in a real browser
at 1,400 px (the key figures on one line each, results before the rules)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from browser import screenshot

from skatcore.cli.main import main
from skatcore.rules.compiler import get_rules
from skatcore.rules.describe import rules_diff
from skatcore.sim.compare import compare, shown
from skatcore.sim.report import render
from skatcore.sim.report.words import Provenance

ROOT = Path(__file__).resolve().parents[2]
SEATS = ("forehand", "middlehand", "rearhand")


def cli(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def key_rows(page: str) -> dict[str, list[str]]:
    """The key figures' rows: label -> each cell's first word (a value without its n)."""
    tables = "".join(re.findall(r'<table class="key">.*?</table>', page, re.S))
    rows = re.findall(r'<tr><th title="[^"]*">(.*?)</th>(.*?)</tr>', tables, re.S)
    return {html.unescape(label): [html.unescape(re.sub(r"<[^>]+>", " ", c)).split(" ")[0]
                                   for c in re.findall(r"<td[^>]*>(.*?)</td>", cells, re.S)]
            for label, cells in rows}


@pytest.fixture(scope="module")
def pub(tmp_path_factory):
    """official vs pub, 144 deals (four series: Bock, Ramsch rounds, Kontra), with its CSV, JSON and report."""
    import contextlib
    import io

    tmp = tmp_path_factory.mktemp("pub")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["compare", "official", "pub", "--deals", "144", "--seed", "5", "--json",
                     "--per-deal", str(tmp / "deals.csv"), "--html", str(tmp / "r.html")]) == 0
    return json.loads(buf.getvalue()), tmp / "deals.csv", (tmp / "r.html").read_text(encoding="utf-8")


def test_csv_is_typed_for_pandas(pub):
    """``won`` loads as boolean and ``bid`` as Int64 (empty where nobody declared)."""
    pd = pytest.importorskip("pandas")
    _data, path, _page = pub
    df = pd.read_csv(path, dtype_backend="numpy_nullable")
    assert str(df["won"].dtype) == "boolean" and str(df["bid"].dtype) == "Int64"
    assert df["won"].isna().any() and df["bid"].isna().any() == df["declarer"].isna().any()
    for column in ("all_pass", "hand", "overbid", "ramsch_round"):
        assert str(df[column].dtype) == "boolean", column
    for column in ("value", "score", "forehand", "sheet_factor", "deal"):
        assert str(df[column].dtype) == "Int64", column
    assert not any(re.search(r",-?\d+\.0(,|$)", line) for line in path.read_text().splitlines())  # 3, never 3.0


def test_every_figure_is_what_pandas_gets_from_the_csv(pub):
    pd = pytest.importorskip("pandas")
    data, path, page = pub
    df = pd.read_csv(path, dtype_backend="numpy_nullable")
    rows = key_rows(page)
    for name, side in df.groupby("ruleset"):
        declared = side[side["won"].notna()]
        choice = side[~side["ramsch_round"]]
        figures = {
            "win_rate": declared["won"].mean(),
            # all-pass rate: deals passed in by choice, over all deals; the forced ones are their own statistic
            "all_pass_rate": (side["all_pass"] & ~side["ramsch_round"]).mean(),
            "mean_value": declared["value"].mean(),
            "mean_abs_entry": sum(side[s].abs() for s in SEATS).mean(),
            **{f"per_seat_per_36.{s}": 36 * (side[s] * side["sheet_factor"]).mean() for s in SEATS},
        }
        if name == "pub":
            figures["session.ramsch_round_share"] = side["ramsch_round"].mean()
            figures["session.bock_share"] = (side["sheet_factor"] > 1).mean()
            assert side["ramsch_round"].any() and (side["all_pass"] & side["ramsch_round"]).any()
            assert figures["all_pass_rate"] == pytest.approx(choice["all_pass"].sum() / len(side))
        col = list(data["intervals"]).index(name)
        metrics = {m.label: m for m in _metrics()}
        for key, value in figures.items():
            assert data["intervals"][name][key]["estimate"] == pytest.approx(float(value), abs=5e-5), (name, key)
            label = next(label for label, m in metrics.items() if m.key == key)
            shown_text = rows[label][col]
            assert shown_text == (f"{100 * value:.1f}%" if metrics[label].share else f"{value:.2f}"), (name, key)


def _metrics():
    from skatcore.sim.outcomes import metrics_for

    return metrics_for([get_rules("official"), get_rules("pub")])


def test_pub_labels_say_with_or_without_bock_as_the_glossary_does(pub):
    _data, _path, page = pub
    labels = list(key_rows(page))
    bock_free = [lb for lb in labels if lb.endswith("(without Bock)")]
    with_bock = [lb for lb in labels if lb.endswith("(with Bock)")]
    assert {lb.split(" (")[0] for lb in bock_free} == {"mean |sheet entry| per deal", "classic points / 36 deals",
                                                      "Seeger-Fabian / 36 deals"}
    assert len(with_bock) == 6 and all("total" in lb or "settlement" in lb for lb in with_bock)
    glossary = page.split('id="glossary"', 1)[1]
    for label in bock_free + with_bock:
        row = glossary.split(f"<th>{html.escape(label)}</th>", 1)[1].split("</tr>", 1)[0]
        assert ("Bock doubling included" in row) == label.endswith("(with Bock)")
        assert ("before any Bock doubling" in row) == label.endswith("(without Bock)")
    # the session has charts of its own: seats (as on the sheet) and how often Kontra, Bock, Ramsch rounds came
    assert 'aria-label="Scores by seat per 36 deals (with Bock) (95% intervals)"' in page
    session = page.split('aria-label="Session and calls (95% intervals)"', 1)[1].split("</svg>", 1)[0]
    for word in ("kontra rate", "Bock deals", "Ramsch-round deals"):
        assert f">{word}</text>" in session, word
    # official alone has no Bock: its labels carry no such word
    alone = render(compare(["official", "texas"], 12, 1), [], ["heuristic"] * 3)
    assert "Bock" not in "".join(key_rows(alone))


def test_the_glossary_names_every_row_and_its_interval_method(pub):
    data, _path, page = pub
    glossary = page.split('id="glossary"', 1)[1].split('id="provenance"', 1)[0]
    entries = dict(re.findall(r"<tr><th>(.*?)</th><td>.*?</td><td>(.*?)</td></tr>", glossary, re.S))
    result_metrics = {m.label: m for m in _metrics()}
    for label in key_rows(page):
        assert html.escape(label) in entries, label
        method = "closed form" if result_metrics[label].closed else "bootstrap"
        assert entries[html.escape(label)] == method, label
        assert data["differences"]["pub"][result_metrics[label].key]["method"] in (
            ("closed", "exact") if method == "closed form" else ("bootstrap",))
    assert "1.96 sd / √n" in glossary and "1,000 replicates" in glossary
    # the people's figures cite their source (data/human-play.md)
    assert "people online (official)" in entries and 'skatblog.com, series "Skat in Zahlen"' in html.unescape(glossary)
    assert "17,967,106" in glossary


def test_provenance_names_the_run(pub):
    _data, _path, page = pub
    prov = html.unescape(page.split('id="provenance"', 1)[1])
    import skatcore

    assert f"<dd>{skatcore.__version__}" in prov
    assert "skat compare official pub --deals 144 --seed 5 --json --per-deal" in prov
    for word in ("seed</dt><dd>5", "deals</dt><dd>144", "players</dt><dd>heuristic", "date</dt>", "machine</dt>"):
        assert word in prov, word
    assert re.search(r"run time</dt><dd>\d+\.\d s", prov)


def test_the_report_escapes_what_comes_from_outside():
    """The command line is the user's: shown as text, never as markup."""
    result = compare(["official", "texas"], 12, 1)
    made = Provenance("0", None, ("compare", "<script>alert(1)</script>", "\u202eevil"), "today", "here", 1.0)
    page = render(result, [], ["heuristic"] * 3, provenance=made)
    assert "<script>" not in page and "\u202e" not in page and "&lt;script&gt;" in page


def test_results_come_before_the_rules_and_the_forest_has_every_difference():
    rules = [get_rules(n) for n in ("official", "texas")]
    result = compare(["official", "texas"], 60, 3)
    page = render(result, rules_diff(rules), ["heuristic"] * 3, rules=rules)
    at = [page.index(f'id="{h}"') for h in ("in-short", "key-figures", "differences", "charts", "rules", "glossary",
                                              "provenance")]
    assert at == sorted(at)
    assert re.search(r'id="rules">.*?</h2>\s*<details><summary>\d+ rules differ', page, re.S)
    forests = re.findall(r'<svg [^>]*class="forest">.*?</svg>', page, re.S)
    marks = [m for f in forests for m in re.findall(r"<(rect|circle) [^>]*>", f)]
    diffs = [d for _m, _v, ds in shown(result) for d in ds if d.estimate is not None]
    assert len(marks) == len(diffs)
    assert marks.count("rect") == sum(d.significant for d in diffs)  # filled: significant; open: ns
    # seat totals and settlement have a chart of their own
    assert 'aria-label="Scores by seat per 36 deals (95% intervals)"' in page


def test_the_report_at_1400px_in_a_browser(browser):
    """The key figures fit 1,400 px with every cell on one line, start on the
    first screen, the forest plot soon after the second; the screenshot refreshes docs/img/ with
    SKAT_SCREENSHOTS=docs/img.  Four rulesets at 1,280 px: tests/sim/test_report_layout.py."""
    names = ("official", "texas", "pub")
    rules = [get_rules(n) for n in names]
    result = compare(names, 72, 1)
    made = Provenance("0.1.0", None, ("compare", *names, "--deals", "72", "--seed", "1", "--html", "report.html"),
                      "2026-12-01 12:00 UTC", "Linux x86_64, 2 CPUs, Python 3.11", 12.3)
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        page.set_content(render(result, rules_diff(rules), ["heuristic"] * 3, rules=rules, provenance=made))
        cells = page.evaluate("""() => [...document.querySelectorAll('table.key td, table.key th')].map(c => {
            const r = document.createRange(); r.selectNodeContents(c);
            const tops = [...r.getClientRects()].map(x => x.top);  // a wrapped cell has a box a line lower
            const line = parseFloat(getComputedStyle(c).lineHeight);
            return [c.textContent, tops.length ? Math.max(...tops) - Math.min(...tops) : 0,
                    c.getBoundingClientRect().height, line, c.getBoundingClientRect().right];
        })""")
        assert len(cells) > 100
        for text, spread, height, line, right in cells:
            # one line: the boxes' tops within half a line (the small n sits lower), the cell under two lines high
            assert spread < line / 2 and height < 2 * line and right <= 1400, (text, spread, height, line, right)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 1400
        top = page.evaluate("""id => document.getElementById(id).getBoundingClientRect().top""", "key-figures")
        forest = page.evaluate("document.querySelector('svg.forest').getBoundingClientRect().top")
        rules_at = page.evaluate("""id => document.getElementById(id).getBoundingClientRect().top""", "rules")
        # "In short" lists every significant win rate, points and mix difference (issue 36): the forest a little lower
        assert top < 900 and forest < 2.25 * 900 < rules_at
        screenshot(page, "compare-report.png", full_page=True,
                        clip={"x": 0, "y": 0, "width": 1400, "height": 1800})
    finally:
        page.close()
