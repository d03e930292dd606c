"""A self-contained HTML report of ``skat compare`` (inline CSS and SVG
charts: no scripts, no fonts or libraries from the network, readable offline)."""

from __future__ import annotations

import html
import math
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path

from skatcore.errors import InputError, printable
from skatcore.sim.compare import Comparison, finding_text, stat_table
from skatcore.sim.simulate import PATH_WORDS, Stats

# Okabe-Ito: told apart with any colour vision (no red next to green)
COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
HUMAN = "#999999"

#: how people play (official rules, 17,967,106 online tournament games; data/human-play.md,
#: skatblog.com "Skat in Zahlen"): passed 4.9% of deals, of the played games grand 32.2%,
#: suit 61.4%, null 6.4%; as shares of all deals
HUMAN_MIX = {"passed": 0.049, "grand": 0.951 * 0.322, "suit": 0.951 * 0.614, "null": 0.951 * 0.064}

EXPLAIN = {
    "declarer games": "deals where somebody played a game as declarer",
    "declarer win rate": "share of declarer games the declarer won",
    "hand game rate": "share of declarer games played without picking up the skat",
    "mean game value": "average value of a declarer game (as scored, also when lost)",
    "mean |sheet entry| per deal": "how many points change hands per deal: the absolute sheet entries of a deal added up",
    "all-pass rate": "deals where nobody bid: thrown in, or Ramsch",
    "overbid rate": "declarer games lost because the game was worth less than the bid",
    "classic points / 36 deals": "a player's score over a 36-deal series on the classic sheet",
    "Seeger-Fabian / 36 deals": "the same in tournament points: +50 per won game, -50 per lost game, +40 to each defender of a lost game",
}


def _esc(x) -> str:
    # names and labels come from files: a bidi override would reorder the page, a control character is no HTML
    return html.escape(printable(str(x)))


def nice_ticks(vmin: float, vmax: float, count: int = 5) -> list[float]:
    """Round tick values (steps of 1, 2, 2.5 or 5 x 10^k) covering ``vmin..vmax``."""
    span = (vmax - vmin) or abs(vmax) or 1.0
    raw = span / count
    mag = 10 ** math.floor(math.log10(raw))
    step = next(k * mag for k in (1, 2, 2.5, 5, 10) if k * mag >= raw)
    lo, hi = math.floor(vmin / step) * step, math.ceil(vmax / step) * step
    return [round(lo + k * step, 10) for k in range(round((hi - lo) / step) + 1)]


def _tick_label(v: float, ticks: list[float], percent: bool) -> str:
    step = (ticks[1] - ticks[0]) if len(ticks) > 1 else 1
    if percent:
        digits = 0 if step * 100 >= 1 - 1e-9 and abs(step * 100 - round(step * 100)) < 1e-9 else 1
        return f"{v * 100:.{digits}f}%"
    return f"{v:g}"


def bar_chart(categories: Sequence[str], series: Sequence[tuple[str, Sequence[float | None]]], title: str,
              percent: bool = False, width: int = 760, height: int = 300,
              errors: Sequence[Sequence[tuple[float, float] | None]] | None = None,
              colors: Sequence[str] | None = None) -> str:
    """A grouped bar chart as an inline ``<svg>``: round axis ticks, and
    ``errors[j][i]`` (low, high) drawn as an error bar on bar ``i`` of series ``j``."""
    colors = colors or [COLORS[j % len(COLORS)] for j in range(len(series))]
    left, right, top, bottom = 56, 12, 28, 70
    plot_w, plot_h = width - left - right, height - top - bottom
    ends = [v for _, vals in series for v in vals if v is not None]
    ends += [e for errs in errors or () for pair in errs if pair for e in pair]
    ticks = nice_ticks(min([*ends, 0]), max([*ends, 0]))
    vmin, vmax = ticks[0], ticks[-1]
    span = (vmax - vmin) or 1
    y = lambda v: top + plot_h * (vmax - v) / span  # noqa: E731
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
           f'role="img" aria-label="{_esc(title)}">',
           f'<text x="{width / 2}" y="16" text-anchor="middle" class="t">{_esc(title)}</text>']
    for v in ticks:
        yy = y(v)
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{yy:.1f}" y2="{yy:.1f}" class="g"/>')
        out.append(f'<text x="{left - 6}" y="{yy + 4:.1f}" text-anchor="end" class="a">{_tick_label(v, ticks, percent)}</text>')
    out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(0):.1f}" y2="{y(0):.1f}" class="z"/>')
    n = max(1, len(categories))
    group = plot_w / n
    bw = group * 0.8 / max(1, len(series))
    for i, cat in enumerate(categories):
        x0 = left + i * group + group * 0.1
        for j, (name, vals) in enumerate(series):
            v = vals[i]
            if v is None:
                continue
            y1, y2 = sorted((y(v), y(0)))
            err = errors[j][i] if errors and j < len(errors) and errors[j] else None
            tip = f"{name}, {cat}: {v:.1%}" if percent else f"{name}, {cat}: {v:.4g}"
            if err:
                tip += f" (95%: {err[0]:.1%} to {err[1]:.1%})" if percent else f" (95%: {err[0]:.4g} to {err[1]:.4g})"
            out.append(f'<rect x="{x0 + j * bw:.1f}" y="{y1:.1f}" width="{max(bw - 1, 1):.1f}" height="{max(y2 - y1, 0.5):.1f}" '
                       f'fill="{colors[j]}"><title>{_esc(tip)}</title></rect>')
            if err:
                cx = x0 + j * bw + bw / 2
                lo, hi = y(err[0]), y(err[1])
                cap = min(4, bw / 3)
                out.append(f'<path d="M{cx:.1f} {lo:.1f}V{hi:.1f}M{cx - cap:.1f} {lo:.1f}H{cx + cap:.1f}'
                           f'M{cx - cap:.1f} {hi:.1f}H{cx + cap:.1f}" class="e"/>')
        out.append(f'<text x="{x0 + group * 0.4:.1f}" y="{top + plot_h + 14}" text-anchor="end" class="a" '
                   f'transform="rotate(-35 {x0 + group * 0.4:.1f} {top + plot_h + 14})">{_esc(cat)}</text>')
    lx = left
    for j, (name, _) in enumerate(series):
        out.append(f'<rect x="{lx}" y="{height - 14}" width="10" height="10" fill="{colors[j]}"/>')
        out.append(f'<text x="{lx + 14}" y="{height - 5}" class="a">{_esc(name)}</text>')
        lx += 18 + 7 * len(name) + 20
    out.append("</svg>")
    return "\n".join(out)


def _bins(counter: Counter, edges: list[int]) -> list[int]:
    out = [0] * (len(edges) - 1)
    for v, n in counter.items():
        v = min(max(v, edges[0]), edges[-1] - 1)
        for i in range(len(edges) - 1):
            if edges[i] <= v < edges[i + 1]:
                out[i] += n
                break
    return out


def score_edges(stats: Sequence[Stats]) -> list[int]:
    """Bin edges for the declarer sheet entries, about 24 bins."""
    values = [v for s in stats for v in s.declarer_scores] or [0]
    lo, hi = min(values), max(values)
    # clip the long tails at the 1st/99th percentile of all entries
    flat = sorted(v for s in stats for v, n in s.declarer_scores.items() for _ in range(min(n, 50)))
    if len(flat) > 20:
        lo, hi = flat[len(flat) // 100], flat[-1 - len(flat) // 100]
    step = max(12, int((hi - lo) / 24 / 12 + 1) * 12)
    start = (lo // step) * step
    edges = list(range(start, hi + step + 1, step))
    return edges if len(edges) > 1 else [start, start + step]


def _interval_chart(result: Comparison, keys: Sequence[tuple[str, str]], title: str, percent: bool, **kw) -> str:
    """Bars of each ruleset's value of metrics ``keys`` ((key, category)), with 95% error bars."""
    metrics = {m.key: m for m in result.metrics}
    keys = [(k, c) for k, c in keys if k in metrics]
    series, errors = [], []
    for side, name in enumerate(result.names):
        ivs = [result.tally.value(metrics[k], side) for k, _ in keys]
        series.append((name, [iv.estimate for iv in ivs]))
        errors.append([(iv.low, iv.high) if iv.low is not None else None for iv in ivs])
    return bar_chart([c for _, c in keys], series, title, percent=percent, errors=errors, **kw)


def family_mix(result: Comparison, rules) -> dict[str, list[float]]:
    """Each ruleset's contract mix by kind, shares of all deals: passed, grand,
    suit, null, each family played without declarer (Ramsch), other."""
    kinds = (*HUMAN_MIX, *dict.fromkeys(c.family for r in rules for c in r.contracts.values() if not c.declarer))
    out: dict[str, list[float]] = {k: [0.0] * len(result.names) for k in (*kinds, "other")}
    for m in result.metrics:
        if m.key.startswith("contract_mix."):
            game = m.key.split(".", 1)[1]
            for side, r in enumerate(rules):
                c = r.contracts.get(game)
                kind = "passed" if game == "passed" else c.family if c and c.family in kinds else "other"
                out[kind][side] += result.tally.value(m, side).estimate or 0.0
    return out


def render(result: Comparison, differ, slots: Sequence[str] | None, games=None, rules=None) -> str:
    """The report; ``rules``: the compiled rulesets compared (by default
    found by their names, which a local ruleset file is not found by)."""
    from skatcore.rules.compiler import get_rules

    names = result.names
    rules = rules or [get_rules(n) for n in names]
    columns, rows = stat_table(result)
    share = {m.key: [result.tally.value(m, i).estimate or 0.0 for i in range(len(names))]
             for m in result.metrics if m.key.startswith("contract_mix.")}
    mix_keys = sorted((k for k, v in share.items() if any(v)), key=lambda k: -max(share[k]))
    charts = [_interval_chart(result, [(k, k.split(".", 1)[1]) for k in mix_keys], "Contract mix (share of all deals, 95% intervals)", True)]
    kinds = family_mix(result, rules)
    cats = [k for k in kinds if any(kinds[k]) or k in HUMAN_MIX]
    series = [(n, [kinds[k][i] for k in cats]) for i, n in enumerate(names)]
    colors = [COLORS[i % len(COLORS)] for i in range(len(names))]
    bots = slots is not None
    if bots:  # people's mix beside the bots' (official rules: no Ramsch, no other contract)
        series.append(("people online (official)", [HUMAN_MIX.get(k, 0.0) for k in cats]))
        colors.append(HUMAN)
    charts.append(bar_chart(cats, series, "Contract kinds (share of all deals)" + (": bots beside people" if bots else ""),
                            percent=True, colors=colors))
    played = [m.key for m in result.metrics if m.key.startswith("win_rate_by_contract.")]
    charts.append(_interval_chart(result, [(k, k.split(".", 1)[1]) for k in played],
                                  "Declarer win rate by contract (95% intervals)", True))
    if result.stats:
        edges = score_edges(result.stats)
        labels = [f"{a}..{b - 1}" for a, b in pairwise(edges)]
        dist = [(st.ruleset, [n / (sum(st.declarer_scores.values()) or 1) for n in _bins(st.declarer_scores, edges)])
                for st in result.stats]
        charts.append(bar_chart(labels, dist, "Declarer's sheet entry per declarer game (distribution; tails clipped into the end bins)",
                                percent=True, width=900, height=330))
    table = _html_table(columns, rows, explain=True)
    rules_table = _html_table(["", *names], [[f"{d.section}: {d.item}", *d.values] for d in differ]) if differ else \
        "<p>The rulesets have the same rules.</p>"
    findings = result.findings()
    short = "".join(f"<li>{_esc(finding_text(n, m, iv, names[0]))}</li>" for n, m, iv in findings) or \
        "<li>No difference is significant at 95%.</li>"
    games_html = ""
    if games:
        games_html = "<h2>Games re-scored</h2>" + _html_table(
            ["ruleset", "games", "scored", "with server score", "agree with server", "not re-scored (why)"],
            [[g.ruleset, g.games, g.scored, g.server_agrees + g.server_differs, g.server_agrees,
              "; ".join(f"{w} ({k})" for w, k in g.unscored.most_common())] for g in games])
    paths_html = ""
    if bots:
        paths_html = ("<h2>How the deals were played</h2><p>The path changes the time a run takes, never its results "
                      "(every path gives the rows <code>Deal</code> gives).</p>" + _html_table(
                          ["ruleset", "path", "deals", "why"],
                          [[st.ruleset, PATH_WORDS.get(p["path"], p["path"]), p["deals"], p.get("why", "")]
                           for st in result.stats for p in st.paths_json()], words=True))
    glossary = "".join(f"<dt>{_esc(k)}</dt><dd>{_esc(v)}</dd>" for k, v in EXPLAIN.items())
    title = " vs ".join(names)
    what = (f"The same {result.deals} deals (seed {result.seed}) played under each ruleset by the same players "
            f"({_esc(', '.join(dict.fromkeys(slots)))})." if bots else
            f"{result.deals} real games re-scored under every ruleset.")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Skat variants compared: {_esc(title)}</title>
<style>
body {{ font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 960px; color: #222; padding: 0 1em; }}
h1 {{ font-size: 1.6em; margin-bottom: .2em; }}
p.sub {{ color: #555; margin-top: 0; }}
table {{ border-collapse: collapse; margin: 1em 0; font-variant-numeric: tabular-nums; }}
th, td {{ padding: .25em .7em; border-bottom: 1px solid #ddd; text-align: right; }}
th:first-child, tr th {{ text-align: left; font-weight: normal; }}
thead th {{ font-weight: bold; border-bottom: 2px solid #999; }}
tr th[title]:not([title=""]) {{ text-decoration: underline dotted; cursor: help; }}
td.ns {{ color: #888; }}
table.words td {{ text-align: left; }}
svg {{ max-width: 100%; height: auto; display: block; margin: 1.5em 0; }}
svg .t {{ font: bold 13px sans-serif; }} svg .a {{ font: 11px sans-serif; fill: #444; }}
svg .g {{ stroke: #e5e5e5; }} svg .z {{ stroke: #888; }} svg .e {{ stroke: #222; stroke-width: 1.2; fill: none; }}
dt {{ font-weight: bold; margin-top: .5em; }} dd {{ margin-left: 1em; color: #444; }}
</style></head>
<body>
<h1>Skat variants compared: {_esc(title)}</h1>
<p class="sub">{what} Differences (Δ) are each ruleset minus {_esc(names[0])}, with 95% intervals from the
paired per-deal differences; <em>ns</em> marks an interval that contains 0 (not significant).</p>
<h2>In short</h2>
<ul>{short}</ul>
<h2>The rules that differ</h2>
{rules_table}
{games_html}
<h2>Key figures</h2>
{table}
<h2>Charts</h2>
{chr(10).join(charts)}
{paths_html}
<h2>What the figures mean</h2>
<dl>{glossary}</dl>
</body></html>
"""


def _html_table(columns, rows, explain: bool = False, words: bool = False) -> str:
    """A table, the first column the row's name; ``words``: cells of text, left-aligned (not figures)."""
    head = "".join(f"<th>{_esc(c)}</th>" for c in columns)
    body = []
    for r in rows:
        tip = EXPLAIN.get(r[0], "") if explain else ""
        cells = "".join(f'<td class="ns">{_esc(c)}</td>' if str(c).endswith(" ns") else f"<td>{_esc(c)}</td>" for c in r[1:])
        body.append(f'<tr><th title="{_esc(tip)}">{_esc(r[0])}</th>{cells}</tr>')
    table = '<table class="words">' if words else "<table>"
    return f"{table}<thead><tr>{head}</tr></thead><tbody>\n" + "\n".join(body) + "\n</tbody></table>"


def write_html(path: str, result: Comparison, differ, slots: Sequence[str] | None, games=None, rules=None) -> None:
    try:
        Path(path).write_text(render(result, differ, slots, games, rules), encoding="utf-8")
    except OSError as exc:
        raise InputError(f"--html {path}: cannot write: {exc.strerror or exc}") from None
