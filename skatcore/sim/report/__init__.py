"""A self-contained HTML report of ``skat compare`` (inline CSS and SVG
charts: no scripts, no fonts or libraries from the network, readable offline),
laid out like a paper's results: In short, the key figures, a forest plot
of every paired difference, the charts, then the rules that differ, the
glossary and where the figures come from.

:func:`render` returns the page (``skat serve`` embeds it), :func:`write_html` writes it."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import TypedDict

from skatcore.errors import InputError
from skatcore.sim.compare import Comparison, diff_parts, diff_text, figure, shown
from skatcore.sim.outcomes import GROUPS, Metric, skat_order
from skatcore.sim.report.charts import COLORS, HUMAN, bar_chart, binned, esc, forest_plot, nice_ticks, score_edges
from skatcore.sim.report.pins import pins_html
from skatcore.sim.report.words import HUMAN_MIX, HUMAN_SOURCE, METHODS, TERMS, Provenance, explain
from skatcore.sim.simulate import PATH_WORDS

__all__ = ["COLORS", "HUMAN_MIX", "Provenance", "bar_chart", "family_mix", "forest_plot", "nice_ticks", "render",
           "write_html"]

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 1.5em auto; max-width: 1320px;
       color: #222; padding: 0 1em; line-height: 1.4; }
h1 { font-size: 1.5em; margin: 0 0 .2em; } h2 { font-size: 1.2em; margin: 1.2em 0 .4em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1em; margin: 0 0 .2em; }
p.sub { color: #555; margin: 0 0 .6em; }
ol.short { margin: .3em 0; padding-left: 1.6em; } ol.short li { margin: .1em 0; }
div.short section { flex: 1 1 22em; }
p.then { margin: .5em 0 .2em; color: #555; }
.grid { display: flex; flex-wrap: wrap; gap: .4em 2.2em; align-items: flex-start; }
div.scroll { overflow-x: auto; max-width: 100%; min-width: 0; }
table { border-collapse: collapse; margin: .3em 0; font-variant-numeric: tabular-nums; font-size: .9em; }
th, td { padding: .12em .4em; border-bottom: 1px solid #e3e3e3; text-align: right; white-space: nowrap; }
th:first-child, tr th { text-align: left; font-weight: normal; }
thead th { font-weight: 600; border-bottom: 1.5px solid #888; }
caption { text-align: left; font-weight: 600; padding-bottom: .2em; }
td.iv { text-align: left; color: #555; } td.ns, td.ns + td.iv { color: #707070; }
small.n { color: #6b6b6b; font-size: .75em; margin-left: .25em; white-space: nowrap; }
table.words td, table.words th { text-align: left; white-space: normal; } table.words thead th { white-space: nowrap; }
table.key tbody th { white-space: normal; min-width: 7em; }
dd { overflow-wrap: anywhere; }
svg { max-width: 100%; height: auto; display: block; margin: .6em 0; }
svg .t { font: 600 13px sans-serif; } svg .a { font: 11px sans-serif; fill: #444; } svg .l { font: 12px sans-serif; fill: #222; }
svg .v { font: 11px sans-serif; fill: #222; } svg .v.ns { fill: #707070; }
svg .g { stroke: #e5e5e5; } svg .z { stroke: #777; stroke-dasharray: 3 2; } svg .r { stroke: #f0f0f0; }
svg .e { stroke: #222; stroke-width: 1.2; fill: none; }
details { margin: .4em 0; } summary { cursor: pointer; color: #0058a3; }
div.glossary { font-size: .9em; } div.glossary table { font-size: 1em; } div.glossary p { margin: .3em 0; }
dt { font-weight: 600; }
dl.prov { display: grid; grid-template-columns: max-content 1fr; gap: .1em 1em; font-size: .9em; }
dl.prov dt { margin: 0; } dl.prov dd { margin: 0; } code { font-size: .95em; }
"""


def render(result: Comparison, differ, slots: Sequence[str] | None, games=None, rules=None,
           provenance: Provenance | None = None) -> str:
    """The report page; ``rules``: the compiled rulesets compared (by default
    found by their names, which a local ruleset file is not found by);
    ``provenance``: the run (by default this machine, now, no command line)."""
    from skatcore.rules.compiler import get_rules

    names = result.names
    rules = rules or [get_rules(n) for n in names]
    provenance = provenance or Provenance.now()
    metrics = shown(result)
    bots = slots is not None
    title = " vs ".join(names)
    what = (f"The same {result.deals:,} deals (seed {result.seed}) played under each ruleset by the same players "
            f"({esc(', '.join(dict.fromkeys(slots)))})." if slots is not None else
            f"{result.deals:,} real games re-scored under every ruleset.")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Skat variants compared: {esc(title)}</title>
<style>{STYLE}</style></head>
<body>
<h1>Skat variants compared: {esc(title)}</h1>
<p class="sub">{what} Δ is each ruleset minus {esc(names[0])}, with the 95% interval of the paired per-deal
differences; <em>ns</em> (grey, open marks) marks an interval that contains 0. skatcore {esc(provenance.version)},
{esc(provenance.date)}; how it was made: <a href="#provenance">provenance</a>.</p>
<h2 id="in-short">In short</h2>
{_in_short(result)}
<h2 id="key-figures">Key figures</h2>
<div class="grid">{''.join(_key_table(result, group, [x for x in metrics if x[0].group == group]) for group in GROUPS)}</div>
<h2 id="differences">Every difference with its 95% interval</h2>
{_forest_legend(result.names)}<div class="grid">{''.join(_forest(result, metrics))}</div>
<h2 id="charts">Charts</h2>
<div class="grid">{''.join(_charts(result, rules, bots))}</div>
{f'<p class="sub">People online: {esc(HUMAN_SOURCE)}.</p>' if bots else ""}
<h2 id="rules">The rules that differ</h2>
{_rules(names, differ)}
{_games(games)}{_paths(result) if bots else ""}
<h2 id="glossary">What the figures mean</h2>
<div class="glossary">{_glossary(metrics, bots)}</div>
<h2 id="provenance">Provenance</h2>
{_provenance(result, slots, provenance)}
</body></html>
"""


def _in_short(result: Comparison) -> str:
    """The significant findings, a column per compared ruleset: the win rate, the points, the contract mix
    and the clearest others (:meth:`Comparison.findings`), then the game values the rules mostly set outright."""
    base = result.names[0]
    found = result.findings()
    if not found:
        return "<p>No difference is significant at 95% (deal more, or <code>--until-ci</code>).</p>"
    columns = []
    for name in result.names[1:]:
        items: dict[bool, list[str]] = {True: [], False: []}
        for n, m, iv in found:
            if n == name:
                items[m.group != "values"].append(f"<li>{esc(m.label)} {esc(diff_text(iv, m))} "
                                                  f'<small class="n">n {iv.n:,}</small></li>')
        play = (f'<ol class="short">{"".join(items[True])}</ol>' if items[True] else
                "<p>No effect on play or scores is significant at 95%.</p>")
        values = (f'<p class="then">Game values (the rules that differ mostly set them outright):</p>'
                  f'<ol class="short">{"".join(items[False])}</ol>') if items[False] else ""
        columns.append(f"<section><h3>{esc(name)} − {esc(base)}</h3>{play}{values}</section>")
    return f'<div class="grid short">{"".join(columns)}</div>'


def _key_table(result: Comparison, group: str, rows) -> str:
    """One group's key figures: each ruleset's value (n in small), each Δ and its interval."""
    if not rows:
        return ""
    names = result.names
    head = "".join(f"<th>{esc(n)}</th>" for n in names)
    head += "".join(f"<th>Δ {esc(n)}</th><th>95% interval</th>" for n in names[1:])
    body = []
    for m, values, diffs in rows:
        cells = "".join(f'<td title="n {v.n}">{"-" if v.estimate is None else figure(v.estimate, m)}'
                        f'<small class="n">{v.n:,}</small></td>' for v in values)
        for d in diffs:
            est, interval = diff_parts(d, m)
            ns = "" if d.significant or d.estimate is None else ' class="ns"'
            cells += f'<td{ns}>{est}</td><td class="iv">{interval}{" ns" if ns else ""}</td>'
        body.append(f'<tr><th title="{esc(explain(m))}">{esc(m.label)}</th>{cells}</tr>')
    return (f'<div class="scroll"><table class="key"><caption>{esc(GROUPS[group])}</caption>'
            f'<thead><tr><th></th>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>')


def _unit(m: Metric) -> tuple[str, float]:
    """The axis a difference is drawn on (its name) and the factor to its display unit."""
    if m.share:
        return "percentage points", 100.0
    return ("points / 36 deals" if "per_36" in m.key else "points per deal" if m.key == "mean_abs_entry"
            else "points per game"), 1.0


def _forest(result: Comparison, metrics) -> list[str]:
    """A forest plot per group and unit: every shown difference (one line per compared ruleset)."""
    panels: dict[tuple[str, str], list] = {}
    for m, _values, diffs in metrics:
        unit, scale = _unit(m)
        marks = [(COLORS[side % len(COLORS)], d, " ".join(diff_parts(d, m)) + ("" if d.significant else " ns"))
                 for side, d in enumerate(diffs, 1) if d.estimate is not None]
        if marks:
            panels.setdefault((m.group, unit), [scale, []])[1].append((m.label, marks))
    order = list(GROUPS)
    return [forest_plot(f"{GROUPS[group]}: Δ in {unit}", rows, scale)
            for (group, unit), (scale, rows) in sorted(panels.items(), key=lambda kv: order.index(kv[0][0]))]


def _forest_legend(names) -> str:
    """Which colour is which difference, where there are several."""
    if len(names) < 3:
        return f'<p class="sub">{esc(names[1])} − {esc(names[0])}: filled squares significant, open circles ns.</p>'
    marks = " · ".join(f'<span style="color:{COLORS[side % len(COLORS)]}">■ {esc(n)} − {esc(names[0])}</span>'
                       for side, n in enumerate(names[1:], 1))
    return f'<p class="sub">{marks}; filled squares significant, open circles ns.</p>'


def _interval_chart(result: Comparison, keys: Sequence[tuple[str, str]], title: str, percent: bool, **kw) -> str:
    """Bars of each ruleset's value of metrics ``keys`` ((key, category)), with 95% error bars."""
    metrics = {m.key: m for m in result.metrics}
    keys = [(k, c) for k, c in keys if k in metrics]
    series: list[tuple[str, list[float | None]]] = []
    errors: list[list[tuple[float, float] | None]] = []
    for side, name in enumerate(result.names):
        ivs = [result.tally.value(metrics[k], side) for k, _ in keys]
        series.append((name, [iv.estimate for iv in ivs]))
        errors.append([(iv.low, iv.high) if iv.low is not None and iv.high is not None else None for iv in ivs])
    return bar_chart([c for _, c in keys], series, title, percent=percent, errors=errors, **kw)


def family_mix(result: Comparison, rules) -> dict[str, list[float]]:
    """Each ruleset's contract mix by kind, shares of all deals: grand, suit,
    null, other, each family played without declarer (Ramsch), passed."""
    kinds = (*HUMAN_MIX, *dict.fromkeys(c.family for r in rules for c in r.contracts.values() if not c.declarer))
    out: dict[str, list[float]] = {k: [0.0] * len(result.names) for k in skat_order((*kinds, "other"))}
    for m in result.metrics:
        if m.key.startswith("contract_mix."):
            game = m.key.split(".", 1)[1]
            for side, r in enumerate(rules):
                c = r.contracts.get(game)
                kind = "passed" if game == "passed" else c.family if c and c.family in kinds else "other"
                out[kind][side] += result.tally.value(m, side).estimate or 0.0
    return out


class _Size(TypedDict):
    width: int
    height: int


def _charts(result: Comparison, rules, bots: bool) -> list[str]:
    """Each ruleset's own values with their 95% intervals: the contract mix, its kinds (beside
    people's, for bots), the win rates, the declarer's sheet entries, the seats and the session."""
    names, size = result.names, _Size(width=600, height=300)
    share = {m.key: [result.tally.value(m, i).estimate or 0.0 for i in range(len(names))]
             for m in result.metrics if m.key.startswith("contract_mix.")}
    mix_keys = [k for k, v in share.items() if any(v)]  # in the order of the key figures: grand ... passed
    charts = [_interval_chart(result, [(k, k.split(".", 1)[1]) for k in mix_keys],
                              "Contract mix (share of all deals, 95% intervals)", True, **size)]
    kinds = family_mix(result, rules)
    cats = [k for k in kinds if any(kinds[k]) or k in HUMAN_MIX]
    series = [(n, [kinds[k][i] for k in cats]) for i, n in enumerate(names)]
    colors = [COLORS[i % len(COLORS)] for i in range(len(names))]
    if bots:  # people's mix beside the bots' (official rules: no Ramsch, no other contract)
        series.append(("people online (official)", [HUMAN_MIX.get(k, 0.0) for k in cats]))
        colors.append(HUMAN)
    charts.append(bar_chart(cats, series, "Contract kinds (share of all deals)" + (": bots beside people" if bots else ""),
                            percent=True, colors=colors, **size))
    played = [m.key for m in result.metrics if m.key.startswith("win_rate_by_contract.")]
    charts.append(_interval_chart(result, [(k, k.split(".", 1)[1]) for k in played],
                                  "Declarer win rate by contract (95% intervals)", True, **size))
    if result.stats:
        edges = score_edges(result.stats)
        labels = [f"{a}..{b - 1}" for a, b in pairwise(edges)]
        dist = [(st.ruleset, [n / (sum(st.declarer_scores.values()) or 1) for n in binned(st.declarer_scores, edges)])
                for st in result.stats]
        charts.append(bar_chart(labels, dist, "Declarer's sheet entry per declarer game (tails in the end bins)",
                                percent=True, **size))
    seats = [(m.key, m.label.split(" (", 1)[0].replace(" / 36 deals", "")) for m in result.metrics
             if m.key.startswith(("per_seat_per_36.", "settlement_per_36."))]
    bock = " (with Bock)" if any(m.label.endswith(" (with Bock)") for m in result.metrics) else ""
    charts.append(_interval_chart(result, seats, f"Scores by seat per 36 deals{bock} (95% intervals)", False, **size))
    session = [(m.key, m.label.split(" (", 1)[0]) for m, values, _ in shown(result)  # how often, not who won then
               if m.group == "session" and m.share and not m.key.endswith("_win_rate") and any(v.estimate for v in values)]
    if session:
        charts.append(_interval_chart(result, session, "Session and calls (95% intervals)", True, **size))
    return charts


def _rules(names, differ) -> str:
    if not differ:
        return "<p>The rulesets have the same rules.</p>"
    table = _html_table(["", *names], [[f"{d.section}: {d.item}", *d.values] for d in differ], words=True)
    return f"<details><summary>{len(differ)} rules differ: show them</summary>{table}</details>"


def _games(games) -> str:
    if not games:
        return ""
    table = _html_table(
        ["ruleset", "games", "scored", "with server score", "agree with server", "not re-scored (why)"],
        [[g.ruleset, g.games, g.scored, g.server_agrees + g.server_differs, g.server_agrees,
          "; ".join(f"{w} ({k})" for w, k in g.unscored.most_common())] for g in games])
    lacking = [f"{esc(g.ruleset)}: {esc(', '.join(f'{k} ({n})' for k, n in g.lacking.most_common()))}"
               for g in games if g.lacking]
    if lacking:  # why the rulesets' n differ: not every record holds the play
        table += ("<p>Counted apart because the record lacks what the ruleset reads (the play after a claim, a "
                  "concession or a player gone, which a rule about the tricks reads): " + "; ".join(lacking) + ".</p>")
    return "<h2>Games re-scored</h2>" + table


def _paths(result: Comparison) -> str:
    table = _html_table(["ruleset", "path", "deals", "why"],
                        [[st.ruleset, PATH_WORDS.get(p["path"], p["path"]), p["deals"], p.get("why", "")]
                         for st in result.stats for p in st.paths_json()], words=True)
    return ("<h2>How the deals were played</h2><details><summary>The path changes the time a run takes, never its "
            "results (every path gives the rows <code>Deal</code> gives): show them</summary>" + table + "</details>")


def _glossary(metrics, bots: bool) -> str:
    """Every row of the key figures with how its interval is made, the words of the columns, the methods."""
    terms = [(k, v, "") for k, v in TERMS.items() if bots or k != "people online (official)"]
    rows = terms + [(m.label, explain(m), "closed form" if m.closed else "bootstrap") for m, _, _ in metrics]
    methods = "".join(f"<p><strong>{esc(k)}</strong>: {esc(v)}.</p>" for k, v in METHODS.items())
    return _html_table(["", "what it is", "95% interval"], rows, words=True) + methods


def _provenance(result: Comparison, slots, p: Provenance) -> str:
    rows = [("skatcore", p.version + (f" (commit {p.commit[:12]})" if p.commit else "")),
            ("command", p.command() or "not given (the report was made by a program)"),
            ("seed", result.seed), ("deals", f"{result.deals:,}"),
            ("players", ", ".join(slots) if slots is not None else "the players of the games"),
            ("date", p.date), ("machine", p.machine),
            ("run time", "not measured" if p.seconds is None else f"{p.seconds:.1f} s")]
    if result.rounds:
        rows.append(("--until-ci", "; ".join(f"{n:,} deals: widest {name}, {w:.1f} pp" for n, w, name in result.rounds)))
    return '<dl class="prov">' + "".join(f"<dt>{esc(k)}</dt><dd><code>{esc(v)}</code></dd>" if k == "command" else
                                         f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in rows) + "</dl>" + \
        (pins_html(p.to_json()) if p.pins else "")


def _html_table(columns, rows, words: bool = False) -> str:
    """A table, the first column the row's name; ``words``: cells of text, left-aligned (not figures)."""
    head = "".join(f"<th>{esc(c)}</th>" for c in columns)
    body = "\n".join(f"<tr><th>{esc(r[0])}</th>{''.join(f'<td>{esc(c)}</td>' for c in r[1:])}</tr>" for r in rows)
    return (f'<div class="scroll"><table{" class=words" if words else ""}><thead><tr>{head}</tr></thead><tbody>\n'
            f'{body}\n</tbody></table></div>')


def write_html(path: str, result: Comparison, differ, slots: Sequence[str] | None, games=None, rules=None,
               provenance: Provenance | None = None) -> None:
    try:
        Path(path).write_text(render(result, differ, slots, games, rules, provenance), encoding="utf-8")
    except OSError as exc:
        raise InputError(f"--html {path}: cannot write: {exc.strerror or exc}") from None
