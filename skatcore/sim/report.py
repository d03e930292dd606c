"""A self-contained HTML report of ``skat compare`` (inline CSS and SVG
charts: no scripts, no fonts or libraries from the network, readable offline)."""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from skatcore.errors import InputError
from skatcore.sim.simulate import Stats

COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")

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
    return html.escape(str(x))


def bar_chart(categories: Sequence[str], series: Sequence[tuple[str, Sequence[float]]], title: str,
              percent: bool = False, width: int = 760, height: int = 300) -> str:
    """A grouped bar chart as an inline ``<svg>``."""
    left, right, top, bottom = 56, 12, 28, 70
    plot_w, plot_h = width - left - right, height - top - bottom
    vmax = max([v for _, vals in series for v in vals if v is not None] + [0])
    vmin = min([v for _, vals in series for v in vals if v is not None] + [0])
    span = (vmax - vmin) or 1
    y = lambda v: top + plot_h * (vmax - v) / span  # noqa: E731
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
           f'role="img" aria-label="{_esc(title)}">',
           f'<text x="{width / 2}" y="16" text-anchor="middle" class="t">{_esc(title)}</text>']
    # grid and axis labels
    for k in range(5):
        v = vmin + span * k / 4
        yy = y(v)
        label = f"{v:.0%}" if percent else f"{v:.3g}"
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{yy:.1f}" y2="{yy:.1f}" class="g"/>')
        out.append(f'<text x="{left - 6}" y="{yy + 4:.1f}" text-anchor="end" class="a">{label}</text>')
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
            tip = f"{name}, {cat}: {v:.1%}" if percent else f"{name}, {cat}: {v:.4g}"
            out.append(f'<rect x="{x0 + j * bw:.1f}" y="{y1:.1f}" width="{max(bw - 1, 1):.1f}" height="{max(y2 - y1, 0.5):.1f}" '
                       f'fill="{COLORS[j % len(COLORS)]}"><title>{_esc(tip)}</title></rect>')
        out.append(f'<text x="{x0 + group * 0.4:.1f}" y="{top + plot_h + 14}" text-anchor="end" class="a" '
                   f'transform="rotate(-35 {x0 + group * 0.4:.1f} {top + plot_h + 14})">{_esc(cat)}</text>')
    # legend
    lx = left
    for j, (name, _) in enumerate(series):
        out.append(f'<rect x="{lx}" y="{height - 14}" width="10" height="10" fill="{COLORS[j % len(COLORS)]}"/>')
        out.append(f'<text x="{lx + 14}" y="{height - 5}" class="a">{_esc(name)}</text>')
        lx += 18 + 8 * len(name) + 20
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


def render(stats: Sequence[Stats], seed: int, slots: Sequence[str]) -> str:
    from skatcore.cli.sim import compare_table

    summaries = [s.summary() for s in stats]
    names = [s["ruleset"] for s in summaries]
    deals = summaries[0]["deals"]
    columns, rows, _ = compare_table(summaries)

    # contract mix
    games: dict[str, None] = {}
    for s in summaries:
        games.update(dict.fromkeys(s["contract_mix"]))
    order = sorted(games, key=lambda g: -max(s["contract_mix"].get(g, 0) for s in summaries))
    mix = bar_chart(order, [(s["ruleset"], [s["contract_mix"].get(g, 0.0) for g in order]) for s in summaries],
                    "Contract mix (share of all deals)", percent=True)
    # win rate by contract
    played = [g for g in order if any(g in s["win_rate_by_contract"] for s in summaries)]
    wins = bar_chart(played, [(s["ruleset"], [s["win_rate_by_contract"].get(g) for g in played]) for s in summaries],
                     "Declarer win rate by contract", percent=True)
    # score distribution
    edges = score_edges(stats)
    labels = [f"{a}..{b - 1}" for a, b in zip(edges, edges[1:])]
    dist = []
    for st in stats:
        total = sum(st.declarer_scores.values()) or 1
        dist.append((st.ruleset, [n / total for n in _bins(st.declarer_scores, edges)]))
    scores = bar_chart(labels, dist, "Declarer's sheet entry per declarer game (distribution; tails clipped into the end bins)",
                       percent=True, width=900, height=330)
    head = "".join(f"<th>{_esc(c)}</th>" for c in columns)
    body = []
    for r in rows:
        label = r[0]
        tip = EXPLAIN.get(label, "")
        cells_text = r[1:]
        cells = "".join(f"<td>{_esc(c)}</td>" for c in cells_text)
        body.append(f'<tr><th title="{_esc(tip)}">{_esc(label)}</th>{cells}</tr>')
    short = "".join(f"<li>{_esc(t)}</li>" for t in headlines(summaries))
    glossary = "".join(f"<dt>{_esc(k)}</dt><dd>{_esc(v)}</dd>" for k, v in EXPLAIN.items())
    title = " vs ".join(names)
    players = ", ".join(dict.fromkeys(slots))
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
svg {{ max-width: 100%; height: auto; display: block; margin: 1.5em 0; }}
svg .t {{ font: bold 13px sans-serif; }} svg .a {{ font: 11px sans-serif; fill: #444; }}
svg .g {{ stroke: #e5e5e5; }} svg .z {{ stroke: #888; }}
dt {{ font-weight: bold; margin-top: .5em; }} dd {{ margin-left: 1em; color: #444; }}
</style></head>
<body>
<h1>Skat variants compared: {_esc(title)}</h1>
<p class="sub">The same {deals} deals (seed {seed}) played under each ruleset by the same players ({_esc(players)}).
Differences (Δ) are each ruleset minus {_esc(names[0])}.</p>
<h2>In short</h2>
<ul>{short}</ul>
<h2>Key figures</h2>
<table><thead><tr>{head}</tr></thead><tbody>
{chr(10).join(body)}
</tbody></table>
<h2>Charts</h2>
{mix}
{wins}
{scores}
<h2>What the figures mean</h2>
<dl>{glossary}</dl>
<p class="sub">Made by <code>skat compare {' '.join(_esc(n) for n in names)} --deals {deals} --seed {seed} --html FILE</code>.
Deal i of a seed is the same under every ruleset, so the differences come from the rules, not from luck of the cards.</p>
</body></html>
"""


def headlines(summaries: list[dict]) -> list[str]:
    """A few sentences on the biggest differences against the first ruleset."""
    first = summaries[0]
    out = []
    for s in summaries[1:]:
        a, b = first["ruleset"], s["ruleset"]
        if first["mean_value"] and s["mean_value"]:
            rel = s["mean_value"] / first["mean_value"] - 1
            out.append(f"A declarer game under {b} is worth {abs(rel):.0%} {'more' if rel > 0 else 'less'} on average "
                       f"than under {a} ({s['mean_value']:.1f} vs {first['mean_value']:.1f}).")
        if first["win_rate"] is not None and s["win_rate"] is not None and abs(s["win_rate"] - first["win_rate"]) >= 0.005:
            out.append(f"Declarers win {s['win_rate']:.1%} of their games under {b}, {first['win_rate']:.1%} under {a}.")
        games = set(first["contract_mix"]) | set(s["contract_mix"])
        moves = sorted(games, key=lambda g: -abs(s["contract_mix"].get(g, 0) - first["contract_mix"].get(g, 0)))[:2]
        for g in moves:
            x, y = first["contract_mix"].get(g, 0), s["contract_mix"].get(g, 0)
            if abs(y - x) >= 0.005:
                out.append(f"{g}: {y:.1%} of deals under {b}, {x:.1%} under {a}.")
        out.append(f"Points changing hands per deal: {s['mean_abs_entry']:.1f} under {b}, {first['mean_abs_entry']:.1f} under {a}.")
    return out


def write_html(path: str, stats: Sequence[Stats], seed: int, slots: Sequence[str]) -> None:
    try:
        Path(path).write_text(render(stats, seed, slots), encoding="utf-8")
    except OSError as exc:
        raise InputError(f"--html {path}: cannot write: {exc.strerror or exc}") from None
