"""The report's charts as inline ``<svg>`` (no scripts, no fonts or libraries
from the network): grouped bars with error bars, and the forest plot of the
paired differences."""

from __future__ import annotations

import html
import math
from collections import Counter
from collections.abc import Sequence

from skatcore.errors import printable
from skatcore.sim.simulate import Stats
from skatcore.sim.stats import Interval

# Okabe-Ito: told apart with any colour vision (no red next to green)
COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
HUMAN = "#999999"


def esc(x) -> str:
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


#: the width of a character of the axis and legend text (11 px sans-serif), a little more than most fonts
#: give, so that a label's room is never too small; the angle of the category labels
CHAR, TILT = 6.6, math.radians(35)


def bar_chart(categories: Sequence[str], series: Sequence[tuple[str, Sequence[float | None]]], title: str,
              percent: bool = False, width: int = 760, height: int = 300,
              errors: Sequence[Sequence[tuple[float, float] | None]] | None = None,
              colors: Sequence[str] | None = None) -> str:
    """A grouped bar chart as an inline ``<svg>``: round axis ticks, and
    ``errors[j][i]`` (low, high) drawn as an error bar on bar ``i`` of series ``j``.
    The category labels (tilted) and the legend (in as many lines as it needs)
    get the room they take: the chart grows below its ``height`` rather than cut one off."""
    colors = colors or [COLORS[j % len(COLORS)] for j in range(len(series))]
    n = max(1, len(categories))
    longest = CHAR * max((len(str(c)) for c in categories), default=0)
    reach_x, reach_y = longest * math.cos(TILT), longest * math.sin(TILT) + 11 * math.cos(TILT)
    right, top = 12, 28
    # the first label ends at the middle of its group and reaches back reach_x: the left margin holds it
    left = max(56.0, (reach_x + 4 - (width - right) / (2 * n)) / (1 - 1 / (2 * n)))
    legend = _legend_lines([name for name, _ in series], width - 4)
    plot_w, plot_h = width - left - right, height - top - 70
    bottom = 14 + reach_y + 10 + 16 * len(legend)
    height = math.ceil(top + plot_h + bottom)
    ends = [v for _, vals in series for v in vals if v is not None]
    ends += [e for errs in errors or () for pair in errs if pair for e in pair]
    ticks = nice_ticks(min([*ends, 0]), max([*ends, 0]))
    vmin, vmax = ticks[0], ticks[-1]
    span = (vmax - vmin) or 1
    y = lambda v: top + plot_h * (vmax - v) / span  # noqa: E731
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
           f'role="img" aria-label="{esc(title)}">',
           f'<text x="{width / 2}" y="16" text-anchor="middle" class="t">{esc(title)}</text>']
    for v in ticks:
        yy = y(v)
        out.append(f'<line x1="{left:.1f}" x2="{width - right}" y1="{yy:.1f}" y2="{yy:.1f}" class="g"/>')
        out.append(f'<text x="{left - 6:.1f}" y="{yy + 4:.1f}" text-anchor="end" class="a">'
                   f'{_tick_label(v, ticks, percent)}</text>')
    out.append(f'<line x1="{left:.1f}" x2="{width - right}" y1="{y(0):.1f}" y2="{y(0):.1f}" class="z"/>')
    group = plot_w / n
    bw = group * 0.8 / max(1, len(series))
    for i, cat in enumerate(categories):
        x0 = left + i * group + group * 0.1
        for j, (name, vals) in enumerate(series):
            bar = vals[i]
            if bar is None:
                continue
            y1, y2 = sorted((y(bar), y(0)))
            err = errors[j][i] if errors and j < len(errors) and errors[j] else None
            tip = f"{name}, {cat}: {bar:.1%}" if percent else f"{name}, {cat}: {bar:.4g}"
            if err:
                tip += f" (95%: {err[0]:.1%} to {err[1]:.1%})" if percent else f" (95%: {err[0]:.4g} to {err[1]:.4g})"
            out.append(f'<rect x="{x0 + j * bw:.1f}" y="{y1:.1f}" width="{max(bw - 1, 1):.1f}" height="{max(y2 - y1, 0.5):.1f}" '
                       f'fill="{colors[j]}"><title>{esc(tip)}</title></rect>')
            if err:
                cx = x0 + j * bw + bw / 2
                lo, hi = y(err[0]), y(err[1])
                cap = min(4, bw / 3)
                out.append(f'<path d="M{cx:.1f} {lo:.1f}V{hi:.1f}M{cx - cap:.1f} {lo:.1f}H{cx + cap:.1f}'
                           f'M{cx - cap:.1f} {hi:.1f}H{cx + cap:.1f}" class="e"/>')
        at, below = x0 + group * 0.4, top + plot_h + 14
        out.append(f'<text x="{at:.1f}" y="{below}" text-anchor="end" class="a" '
                   f'transform="rotate(-35 {at:.1f} {below})">{esc(cat)}</text>')
    for k, line in enumerate(legend):
        ly = height - 16 * (len(legend) - 1 - k)
        for j, lx in line:
            out.append(f'<rect x="{lx:.0f}" y="{ly - 14}" width="10" height="10" fill="{colors[j]}"/>')
            out.append(f'<text x="{lx + 14:.0f}" y="{ly - 5}" class="a">{esc(series[j][0])}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _legend_lines(names: Sequence[str], width: float) -> list[list[tuple[int, float]]]:
    """The legend's entries (index, x) line by line: a square, the name, a gap; a new line where the next would not fit."""
    lines: list[list[tuple[int, float]]] = [[]]
    x = 4.0
    for j, name in enumerate(names):
        room = 14 + CHAR * len(name)
        if lines[-1] and x + room > width:
            lines.append([])
            x = 4.0
        lines[-1].append((j, x))
        x += room + 20
    return lines


def binned(counter: Counter, edges: list[int]) -> list[int]:
    """How many of ``counter``'s values fall in each bin between ``edges`` (the outer bins take what lies beyond)."""
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


def forest_plot(title: str, rows: Sequence[tuple[str, Sequence[tuple[str, Interval, str]]]], scale: float = 1.0,
                width: int = 600) -> str:
    """A forest plot as an inline ``<svg>``: per row (a statistic) one line per
    ``(colour, difference, text)``: the estimate times ``scale`` with its 95%
    interval as whiskers, a filled square when the interval excludes 0, an
    open circle when not (ns), and ``text`` at the right."""
    line, top, bottom = 17, 26, 26
    lines = [(label, k == 0, colour, iv, text) for label, marks in rows for k, (colour, iv, text) in enumerate(marks)]
    # the labels (12 px) at the left, the figures (11 px) at the right, the plot at least 200 px between them
    label_w = 14 + CHAR * 12 / 11 * max((len(label) for label, *_ in lines), default=0)
    text_w = 10 + CHAR * max((len(text) for *_, text in lines), default=0)
    width = math.ceil(max(width, label_w + 200 + text_w))
    x0, x1 = label_w, width - text_w
    ends = [scale * v for *_, iv, _ in lines for v in (iv.estimate, iv.low, iv.high) if v is not None]
    ticks = nice_ticks(min([*ends, 0]), max([*ends, 0]), count=4)
    span = (ticks[-1] - ticks[0]) or 1
    x = lambda v: x0 + (x1 - x0) * (v - ticks[0]) / span  # noqa: E731
    height = top + line * len(lines) + bottom
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
           f'role="img" aria-label="{esc(title)}" class="forest">',
           f'<text x="2" y="14" class="t">{esc(title)}</text>']
    axis = top + line * len(lines) + 4
    for v in ticks:
        out.append(f'<line x1="{x(v):.1f}" x2="{x(v):.1f}" y1="{top - 4}" y2="{axis}" class="g"/>')
        out.append(f'<text x="{x(v):.1f}" y="{axis + 13}" text-anchor="middle" class="a">{v:g}</text>')
    out.append(f'<line x1="{x(0):.1f}" x2="{x(0):.1f}" y1="{top - 4}" y2="{axis}" class="z"/>')
    for k, (label, first, colour, iv, text) in enumerate(lines):
        y = top + line * k + line / 2
        if first:
            if k:
                out.append(f'<line x1="0" x2="{width}" y1="{y - line / 2:.1f}" y2="{y - line / 2:.1f}" class="r"/>')
            out.append(f'<text x="2" y="{y + 4:.1f}" class="l">{esc(label)}</text>')
        if iv.estimate is None:
            continue
        cx = x(scale * iv.estimate)
        if iv.low is not None and iv.high is not None:
            out.append(f'<line x1="{x(scale * iv.low):.1f}" x2="{x(scale * iv.high):.1f}" y1="{y:.1f}" y2="{y:.1f}" '
                       f'stroke="{colour}" stroke-width="1.6"/>')
        mark = (f'<rect x="{cx - 3.5:.1f}" y="{y - 3.5:.1f}" width="7" height="7" fill="{colour}">' if iv.significant else
                f'<circle cx="{cx:.1f}" cy="{y:.1f}" r="3.2" fill="#fff" stroke="{colour}" stroke-width="1.4">')
        tag = "rect" if iv.significant else "circle"
        out.append(f"{mark}<title>{esc(f'{label}: {text}')}</title></{tag}>")
        out.append(f'<text x="{width - text_w + 6:.1f}" y="{y + 4:.1f}" class="{"v" if iv.significant else "v ns"}">'
                   f'{esc(text)}</text>')
    out.append("</svg>")
    return "\n".join(out)

