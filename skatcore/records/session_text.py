"""A scored session as the printed score sheet: one line per deal, totals,
extra columns, money and settlement."""

from __future__ import annotations

from typing import TYPE_CHECKING

from skatcore.errors import printable
from skatcore.model import Outlook, SheetLine
from skatcore.records.money import money_text

if TYPE_CHECKING:
    from skatcore.records.session import SessionResult


def _game_text(line: SheetLine) -> str:
    r = line.result
    if line.void:
        return f"VOID {r.game}"
    if r.game == "passed":
        return "passed (thrown in)"
    game = line.label
    if r.declarer is not None:
        game += " won" if r.won else " lost"
    calls = r.extra.get("calls")
    return f"{game} ({', '.join(calls)})" if calls else game


def sheet_text(res: SessionResult, title: str | None = None, width: int | None = None) -> str:
    """The score sheet: one line per deal, totals, extra columns, settlement;
    the narrow sheet (:func:`narrow_text`) when the wide one does not fit
    ``width`` columns."""
    wide = _wide_text(res, title)
    if width is None or max(map(len, wide.splitlines())) <= width:
        return wide
    return narrow_text(res, title, width)


def _wide_text(res: SessionResult, title: str | None) -> str:
    st = res.state
    players = st.players
    w = max(8, *(len(p) for p in players))
    lines = st.sheet_lines
    games = [_game_text(line) for line in lines]
    g = max(20, *(len(x) + 1 for x in games)) if games else 20
    head = f"{title or st.rules.name}: {', '.join(players)}"
    if st.stake is not None:
        head += f"; stake {st.stake} per point"
    out = [head]
    cols = "".join(f"{p:>{w + 7}}" for p in players)
    out.append(f"{'#':>3}  {'dealer':<{w}}  {'declarer':<{w}}  {'game':<{g}}{'value':>6}{cols}  marks")
    for line, game in zip(lines, games, strict=True):
        r = line.result
        cells = ""
        for p in players:
            e = line.entries[p]
            cells += f"{(f'{e:+d}' if e else '.'):>7}{line.totals[p]:>{w}}"
        value = str(r.value) if r.declarer is not None and not line.void else ""
        out.append(f"{line.index:>3}  {players[line.dealer]:<{w}}  {line.declarer or '-':<{w}}  {game:<{g}}{value:>6}"
                   f"{cells}  {', '.join(line.marks)}".rstrip())
    pad = 3 + 2 + w + 2 + w + 2 + g + 6
    out.append(f"{'totals':<{pad}}" + "".join(f"{st.totals[p]:>{w + 7}}" for p in players))
    for c in res.extra:
        out.append(f"{c.label:<{pad}}" + "".join(f"{c.values.get(p, 0):>+{w + 7}}" for p in players))
    if res.extra:
        out.append(f"{'final':<{pad}}" + "".join(f"{res.final[p]:>{w + 7}}" for p in players))
    for c in res.money:
        out.append(f"{c.label:<{pad}}" + "".join(f"{money_text(c.values.get(p, 0)):>{w + 7}}" for p in players))
    if res.settlement is not None:
        s = res.settlement
        out.append(f"{'settlement (' + s.method + ')':<{pad}}" + "".join(f"{money_text(s.net[p]):>{w + 7}}" for p in players))
        for payer, payee, amount in s.transfers:
            out.append(f"  {payer} pays {payee} {money_text(amount, '')}")
    if res.money and res.net is not None:
        out.append(f"{'net':<{pad}}" + "".join(f"{money_text(res.net[p]):>{w + 7}}" for p in players))
    out += _below(res)
    return "\n".join(printable(line) for line in out)  # names and titles may hold control characters


def _below(res: SessionResult) -> list[str]:
    """The lines under the sheet: the next dealer and deal, notes, closed."""
    st = res.state
    return [f"next dealer: {st.players[st.dealer]}" + (f"; next deal: {res.outlook.next}" if res.outlook.next else ""),
            *st.notes, *([f"closed: {st.closed}"] if st.closed else [])]


_NAME = 9  # a name in a narrow column at most, cut with "~"


def _cut(text: str, n: int) -> str:
    text = printable(text)
    return text if len(text) <= n else text[: n - 1] + "~"


def narrow_text(res: SessionResult, title: str | None = None, width: int = 80) -> str:
    """The sheet for a phone or an 80-column terminal: per deal the running
    totals only (a paper sheet's columns), the declarer, game and entry on
    the left; marks on a line of their own; every line at most ``width``
    characters (names cut to fit, text wrapped)."""
    import textwrap

    st = res.state
    players = [_cut(p, _NAME) for p in st.players]
    col = max(6, *(len(p) for p in players)) + 1
    left = max(24, width - col * len(players))
    wrap = lambda text, indent="": textwrap.wrap(printable(text), width, subsequent_indent=indent) or [""]  # noqa: E731
    out = wrap(f"{title or st.rules.name}: {', '.join(st.players)}"
               + (f"; stake {st.stake} per point" if st.stake is not None else ""), "  ")
    row = lambda label, cells: f"{_cut(label, left - 1):<{left}}" + "".join(f"{c:>{col}}" for c in cells)  # noqa: E731
    out.append(row(f"{'  # declarer game':<{left - 6}}entry", players))
    for line in st.sheet_lines:
        r = line.result
        who = _cut(line.declarer or "-", _NAME)
        game = _game_text(line)
        mine = [v for v in line.entries.values() if v]
        entry = f"{mine[0]:+d}" if len(set(mine)) == 1 else "+/-" if mine else "."
        text = f"{line.index:>3} {who} {game}"
        room = left - 1 - len(entry) - 1
        extra = ""
        if len(printable(text)) > room:
            text, extra = f"{line.index:>3} {who}", game
        out.append(row(f"{printable(text):<{room}} {entry}", [line.totals[p] for p in st.players]))
        for more in (extra, ", ".join(line.marks), r.explanation if line.void else ""):
            if more:
                out += wrap(f"      {more}", "      ")
    out.append(row("totals", [st.totals[p] for p in st.players]))
    for c in res.extra:
        out.append(row(c.label, [f"{c.values.get(p, 0):+}" for p in st.players]))
    if res.extra:
        out.append(row("final", [res.final[p] for p in st.players]))
    for c in res.money:
        out.append(row(c.label, [money_text(c.values.get(p, 0)) for p in st.players]))
    if res.settlement is not None:
        s = res.settlement
        out.append(row(f"settlement ({s.method})", [money_text(s.net[p]) for p in st.players]))
        out += [x for payer, payee, amount in s.transfers for x in wrap(f"  {payer} pays {payee} {money_text(amount, '')}")]
    if res.money and res.net is not None:
        out.append(row("net", [money_text(res.net[p]) for p in st.players]))
    for text in _below(res):
        out += wrap(text, "  ")
    return "\n".join(out)


def owed_text(owed: dict[str, int]) -> str:
    """``8 Bock deals, 12 Ramsch-round deals``."""
    return ", ".join(f"{n} {kind.replace(' ', '-')} deal{'s' * (n != 1)}" for kind, n in owed.items())


def change_text(line: SheetLine, st, later: int | None = None, outlook: Outlook | None = None) -> str:
    """What ``sheet add``/``edit``/``void`` did: the deal's line, its entries,
    the totals now (``later``: how many deals after it were re-scored) and,
    when the session rules say so, what the next deal is and what is owed."""
    entries = ", ".join(f"{p} {v:+d}" for p, v in line.entries.items() if v) or "nothing"
    totals = ", ".join(f"{p} {t}" for p, t in st.totals.items())
    marks = f" [{', '.join(line.marks)}]" if line.marks else ""
    again = "" if later is None else f"; {later} later deal{'s' * (later != 1)} re-scored"
    ahead = [x for x in (outlook and outlook.next and f"next deal: {outlook.next}",
                         outlook and outlook.owed and f"still owed: {owed_text(outlook.owed)}") if x]
    game = f"{line.label}: " if line.label != line.result.game and not line.void else ""  # hand, ouvert, announced
    return "\n".join(printable(text) for text in (
        f"deal {line.index}: {game}{line.result.explanation}{marks}", f"  sheet: {entries}{again}",
        f"  totals: {totals}; next dealer {st.players[st.dealer]}", *(["  " + "; ".join(ahead)] if ahead else [])))
