"""Sessions: a score sheet of many deals (``format: skat-session/1``).

A session is a ruleset, the players at the table (3, or 4 with the dealer
sitting out), an optional stake per point and the deals in order, each a deal
record (docs/formats.md#deal-record).  :func:`score_session` scores every deal with
:func:`~skatcore.records.deal.score_record`, maps seats to players (the deal passes
clockwise), and asks the session hooks of :mod:`skatcore.hookspecs` for the
rules that act across deals:

* :func:`~skatcore.hookspecs.skat_session_start` once,
* :func:`~skatcore.hookspecs.skat_session_deal` per deal, before its entries
  go into the running totals (Bock doubles a line, a Ramsch round refuses a
  declarer game),
* :func:`~skatcore.hookspecs.skat_session_after_deal` per deal, after
  (triggers of later Bock rounds, the end of a Bierlachs game),
* :func:`~skatcore.hookspecs.skat_session_extra` and
  :func:`~skatcore.hookspecs.skat_session_settlement` at the end.

The session itself knows no rule by name: doubling, rounds, extra points and
money are all plugins.  Deal-level rules (Kontra, Bierlachs entries) are
already in each deal's entries (:func:`~skatcore.hookspecs.skat_sheet_entries`).
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import combinations
from pathlib import Path
from typing import Any

from skatcore.errors import InputError, printable, shown
from skatcore.model import SEATS, ScoreResult
from skatcore.records.deal import FORMAT as DEAL_FORMAT
from skatcore.records.deal import check_record, score_record
from skatcore.rules.ruleset import load_schema, read_document, validate
from skatcore.engine.table import next_dealer, seating

FORMAT = "skat-session/1"
SHEET_FORMAT = "skat-sheet/1"


# ---------------------------------------------------------------------------
# What the hooks see
# ---------------------------------------------------------------------------


@dataclass
class SheetLine:
    """One deal on the sheet.

    :param index: the deal's number on the sheet, from 1.
    :param dealer: the dealer's player index.
    :param seating: seat name -> player index of the three who played.
    :param record: the deal record as scored (a copy; ``players`` and
        ``dealer`` filled in by the session).
    :param result: the deal's :class:`~skatcore.model.ScoreResult`.
    :param base: the deal's own entries by player name (the sitting-out
        dealer 0), before session rules.
    :param entries: the entries that go on the sheet (``base`` x ``factor``
        once every :func:`~skatcore.hookspecs.skat_session_deal` ran).
    :param factor: session multiplier of this deal (Bock rounds: 2, 4 ...).
    :param marks: short notes shown on the line ("Bock", "Ramsch round 1/3").
    :param counts: whether the deal is one of the table's deals (series
        length, rounds); a grand hand in a Ramsch round is not.
    :param redeal: the same dealer deals the next deal.
    :param totals: the running totals after this deal (set by the core).
    """

    index: int
    dealer: int
    seating: dict[str, int]
    record: dict
    result: ScoreResult
    base: dict[str, int]
    entries: dict[str, int]
    factor: int = 1
    marks: list[str] = field(default_factory=list)
    counts: bool = True
    redeal: bool = False
    totals: dict[str, int] = field(default_factory=dict)

    def player(self, seat: int | str | None) -> str | None:
        """The name of the player in ``seat`` (index or name) of this deal."""
        if seat is None:
            return None
        seat = SEATS[seat] if isinstance(seat, int) else seat
        return self.players[self.seating[seat]]

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.record["players"])

    @property
    def declarer(self) -> str | None:
        """The declarer's name, ``None`` for a Ramsch or a thrown-in deal."""
        return self.player(self.result.declarer)

    @property
    def active(self) -> list[str]:
        """The three players of this deal, forehand first."""
        return [self.player(s) for s in SEATS]

    @property
    def sitting_out(self) -> str | None:
        """The dealer at a 4-table, who takes no cards."""
        return self.players[self.dealer] if len(self.players) == 4 else None

    def to_json(self) -> dict:
        r = self.result
        return {
            "deal": self.index,
            "dealer": self.players[self.dealer],
            "declarer": self.declarer,
            "game": r.game,
            "hand": r.hand,
            "bid": r.bid,
            "won": r.won,
            "value": r.value,
            "score": r.score,
            "factor": self.factor,
            "entries": dict(self.entries),
            "totals": dict(self.totals),
            "marks": list(self.marks),
            "counts": self.counts,
            "explanation": r.explanation,
            **({"id": self.record["id"]} if "id" in self.record else {}),
        }


@dataclass
class Column:
    """A column added at the end of the session (see
    :func:`~skatcore.hookspecs.skat_session_extra`).

    :param key: a short unique name (``seeger_fabian``).
    :param label: the heading printed on the sheet.
    :param values: by player name.
    :param money: amounts of money (settled with the rest) rather than
        points (added to the final totals).
    """

    key: str
    label: str
    values: dict[str, Any]
    money: bool = False


@dataclass
class Settlement:
    """Who pays whom at the end (see :func:`~skatcore.hookspecs.skat_session_settlement`).

    :param net: money by player name (positive: receives); sums to 0 for a
        pairwise settlement.
    :param transfers: ``(payer, payee, amount)`` for each pair that settles.
    :param method: how it was computed (``pairwise``, ``direct``);
        ``none`` settles nothing (and stops the core's default).
    """

    net: dict[str, Decimal] = field(default_factory=dict)
    transfers: list[tuple[str, str, Decimal]] = field(default_factory=list)
    method: str = "none"


@dataclass
class SessionState:
    """A session as it is being scored; every session hook gets it.

    ``data`` is scratch space for plugins, one key per plugin by convention
    (``state.data["bock"]``); ``notes`` are lines printed under the sheet
    (pending Bock rounds, the Bierlachs loser); ``closed`` names why no more
    deals may follow (a Bierlachs game is over), ``None`` while open.
    """

    rules: Any
    players: tuple[str, ...]
    stake: Decimal | None = None
    first_dealer: int = 0
    dealer: int = 0
    lines: list[SheetLine] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    closed: str | None = None

    @property
    def table_size(self) -> int:
        return len(self.players)

    def hook(self, name: str, **kwargs):
        """Call a session hook.  A plugin's :class:`InputError` is about the
        session (its source is set by the caller); any other exception is a
        bug of the plugin and becomes a one-line error naming it."""
        return self.rules.pm.call(name, state=self, **kwargs)


@dataclass
class SessionResult:
    """A scored session: the sheet lines, totals, extra columns, the final
    totals and the settlement."""

    state: SessionState
    extra: list[Column]
    final: dict[str, int]
    money: list[Column]
    settlement: Settlement | None
    net: dict[str, Decimal] | None

    @property
    def lines(self) -> list[SheetLine]:
        return self.state.lines

    def to_json(self) -> dict:
        st = self.state
        return {
            "format": SHEET_FORMAT,
            "ruleset": st.rules.name,
            "players": list(st.players),
            "stake": _num(st.stake) if st.stake is not None else None,
            "deals": [line.to_json() for line in st.lines],
            "totals": dict(st.totals),
            "extra": {c.key: {"label": c.label, "values": dict(c.values)} for c in self.extra},
            "final": dict(self.final),
            "money": {c.key: {"label": c.label, "values": {p: _num(v) for p, v in c.values.items()}} for c in self.money},
            "settlement": None if self.settlement is None else {
                "method": self.settlement.method,
                "net": {p: _num(v) for p, v in self.settlement.net.items()},
                "transfers": [{"from": a, "to": b, "amount": _num(x)} for a, b, x in self.settlement.transfers],
            },
            "net": None if self.net is None else {p: _num(v) for p, v in self.net.items()},
            "next_dealer": st.players[st.dealer],
            "closed": st.closed,
            "notes": list(st.notes),
        }


def _num(x) -> int | float:
    """A Decimal as a JSON number (an int when whole)."""
    if isinstance(x, Decimal):
        return int(x) if x == x.to_integral_value() else float(x)
    return x


def pairwise(final: dict[str, int], stake: Decimal) -> Settlement:
    """docs/rules/official.md#a9: between every pair of players the lower total pays the
    difference times the stake.  The nets sum to exactly 0 (``Decimal``)."""
    net = {p: Decimal(0) for p in final}
    transfers = []
    for a, b in combinations(final, 2):
        diff = final[a] - final[b]
        if diff == 0:
            continue
        payer, payee = (b, a) if diff > 0 else (a, b)
        amount = abs(diff) * stake
        net[payer] -= amount
        net[payee] += amount
        transfers.append((payer, payee, amount))
    return Settlement(net, transfers, "pairwise")


# ---------------------------------------------------------------------------
# Reading a session record
# ---------------------------------------------------------------------------


def read_session(path: str | Path) -> dict:
    """Read a session record (YAML or JSON) and validate its structure."""
    doc = read_document(path)
    check_session(doc, str(path))
    return doc


def check_session(doc: Any, source: str) -> None:
    """Validate a session record against ``session.schema.json``, and each
    deal against the deal record's schema (paths ``deals[3].game.type``)."""
    if not isinstance(doc, dict):
        raise InputError(f"expected a mapping (a {FORMAT} record)", source=source)
    if doc.get("format") != FORMAT:
        found = f"got {shown(doc['format'])}" if "format" in doc else "missing"
        raise InputError(f"expected {FORMAT!r}, {found}", source=source, path="format")
    validate(doc, load_schema("session.schema.json"), source)
    names = doc["players"]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise InputError(f"player {dup!r} is named twice (expected different names)", source=source, path="players")
    if doc.get("dealer", 0) >= len(names):
        raise InputError(f"expected a player index 0..{len(names) - 1}, got {doc['dealer']}", source=source, path="dealer")
    for i, deal in enumerate(doc.get("deals") or []):
        deal_doc(deal, i, source)


def deal_doc(deal: Any, i: int, source: str) -> dict:
    """A session's deal as a deal record (``format`` implied), validated."""
    where = f"deals[{i}]"
    if not isinstance(deal, dict):
        raise InputError("expected a mapping (a deal record)", source=source, path=where)
    doc = copy.deepcopy(deal)
    doc.setdefault("format", DEAL_FORMAT)
    try:
        check_record(doc, source)
    except InputError as exc:
        raise exc.at(where) from None
    return doc


def rules_for_session(doc: dict, source: str | None = None, override: str | None = None):
    """The compiled rules of a session (see :func:`skatcore.rules.compiler.rules_for`)."""
    from skatcore.rules.compiler import rules_for

    return rules_for(doc, source, override)


def validate_session_file(path, doc: dict, override: str | None = None) -> str:
    """``skat validate`` of a session record: its structure, and every deal
    scored in order under the session rules.  Returns the line to print."""
    source = str(path)
    check_session(doc, source)
    rules = rules_for_session(doc, source, override)
    result = score_session(doc, rules, source)
    n = len(result.lines)
    return f"{path}: valid session record ({n} deal{'s' * (n != 1)} under {rules.name!r}, {len(doc['players'])} players)"


# ---------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------


class Session:
    """A session being scored deal by deal (the persistent sheet adds one
    deal at a time; :func:`score_session` scores a whole record)."""

    def __init__(self, rules, players, *, stake=None, dealer: int = 0, source: str = "<session>"):
        players = tuple(players)
        if len(players) not in (3, 4):
            raise InputError(f"a table has 3 or 4 players, not {len(players)}", source=source, path="players")
        if stake is not None and not (isinstance(stake, (int, float, Decimal)) and math.isfinite(stake) and stake >= 0):
            raise InputError(f"expected a finite amount >= 0 per point, got {stake}", source=source, path="stake")
        self.source = source
        self.state = SessionState(rules=rules, players=players, stake=None if stake is None else Decimal(str(stake)),
                                  first_dealer=dealer, dealer=dealer, totals={p: 0 for p in players})
        try:
            self.state.hook("skat_session_start")
        except InputError as exc:
            raise exc.at(source=source) from None

    def add(self, deal: dict, index: int | None = None) -> SheetLine:
        """Score one deal record (validated) and enter it on the sheet."""
        st = self.state
        i = len(st.lines) if index is None else index
        where = f"deals[{i}]"
        if st.closed:
            raise InputError(f"no more deals: {st.closed}", source=self.source, path=where)
        doc = copy.deepcopy(deal)
        doc.setdefault("format", DEAL_FORMAT)
        for key, want, show in (("players", list(st.players), ", ".join(st.players)),
                                ("dealer", st.dealer, f"{st.dealer} ({st.players[st.dealer]} deals)")):
            if key in doc and doc[key] != want:
                raise InputError(f"expected {show} as in the session, got {shown(doc[key])}", source=self.source,
                                 path=f"{where}.{key}")
        if doc.get("ruleset") not in (None, st.rules.name) and not self._same_rules(doc["ruleset"]):
            raise InputError(f"the session is played under {st.rules.name!r}, not {shown(doc['ruleset'])}",
                             source=self.source, path=f"{where}.ruleset")
        doc["players"], doc["dealer"] = list(st.players), st.dealer
        try:
            result = score_record(doc, st.rules, self.source)
        except InputError as exc:
            raise exc.at(where) from None
        return self.enter(doc, result, i)

    def enter(self, doc: dict, result: ScoreResult, index: int | None = None) -> SheetLine:
        """Enter a scored deal on the sheet: ``doc`` is its record (the
        session rules read it: a bid deal in a Ramsch round is refused),
        ``result`` its score (a simulation has played it already)."""
        st = self.state
        i = len(st.lines) if index is None else index
        where = f"deals[{i}]"
        if st.closed:
            raise InputError(f"no more deals: {st.closed}", source=self.source, path=where)
        seats = seating(len(st.players), st.dealer)
        base = {p: 0 for p in st.players}
        for seat, player in seats.items():
            base[st.players[player]] = result.scores.get(seat, 0)
        line = SheetLine(index=i + 1, dealer=st.dealer, seating=seats, record=doc, result=result,
                         base=base, entries=dict(base))
        try:
            self._series(line)
            st.hook("skat_session_deal", line=line)
            line.entries = {p: v * line.factor for p, v in line.entries.items()}
            for p, v in line.entries.items():
                st.totals[p] += v
            line.totals = dict(st.totals)
            st.lines.append(line)
            st.dealer = st.dealer if line.redeal else next_dealer(len(st.players), st.dealer)
            st.hook("skat_session_after_deal", line=line)
            series = st.rules.series.get(len(st.players))
            if series and not st.closed and sum(1 for x in st.lines if x.counts) >= series.deals:
                st.closed = f"the series is over after {series.deals} deals"
        except InputError as exc:
            raise exc.at(where, self.source) from None
        return line

    def _same_rules(self, ref: str) -> bool:
        """A deal naming the session's ruleset by its file (``house.yaml``
        beside the record) names the same ruleset as by its name."""
        from skatcore.rules.compiler import rules_for

        try:
            return rules_for({"ruleset": ref}, self.source).source == self.state.rules.source
        except InputError:
            return False

    def _series(self, line: SheetLine) -> None:
        """A ruleset with a series (hook ``skat_series``): each player declares
        each of ``once_each`` contract families once per series; the one who
        chooses is the declarer, or the step's chooser for a game without declarer."""
        st = self.state
        series = st.rules.series.get(len(st.players))
        if not series or not series.once_each:
            return
        r = line.result
        contract = st.rules.contracts.get(r.game)
        seat = r.declarer if r.declarer is not None else next((s.chooser for s in st.rules.steps if s.chooser is not None), None)
        if contract is None or seat is None or contract.family not in series.once_each:
            return
        player = line.player(seat)
        done = st.data.setdefault("series", {}).setdefault(player, [])
        if contract.family in done:
            raise InputError(f"{player} has declared a {contract.family} game already in this series "
                             f"(once each: {', '.join(series.once_each)})", path="game.type")
        done.append(contract.family)

    def finish(self) -> SessionResult:
        """The end of the session: extra columns, final totals, settlement."""
        st = self.state
        try:
            columns = [c for chunk in st.hook("skat_session_extra") if chunk for c in chunk]
            extra = [c for c in columns if not c.money]
            money = [c for c in columns if c.money]
            final = {p: st.totals[p] + sum(c.values.get(p, 0) for c in extra) for p in st.players}
            settlement = st.hook("skat_session_settlement", final=final)
            if settlement is not None and settlement.method == "none":
                settlement = None
        except InputError as exc:
            raise exc.at(source=self.source) from None
        net = None
        if settlement is not None or money:
            net = {p: Decimal(0) for p in st.players}
            for p in st.players:
                net[p] += (settlement.net.get(p, 0) if settlement else 0) + sum(Decimal(str(c.values.get(p, 0))) for c in money)
        return SessionResult(st, extra, final, money, settlement, net)


def score_session(doc: dict, rules, source: str = "<session>") -> SessionResult:
    """Score a validated session record under compiled ``rules``."""
    session = Session(rules, doc["players"], stake=doc.get("stake"), dealer=doc.get("dealer", 0), source=source)
    for i, deal in enumerate(doc.get("deals") or []):
        session.add(deal_doc(deal, i, source), i)
    return session.finish()


# ---------------------------------------------------------------------------
# The sheet as text
# ---------------------------------------------------------------------------


def money_text(x, sign: str = "+") -> str:
    """An amount of money with at least two decimals (``+8.50``; ``0.125`` stays exact)."""
    x = Decimal(str(x))
    return f"{x:{sign}.2f}" if x == x.quantize(Decimal("0.01")) else f"{x:{sign}}"


def _game_text(line: SheetLine) -> str:
    r = line.result
    if r.game == "passed":
        return "passed (thrown in)"
    game = r.game
    if r.declarer is not None:
        game += " hand" if r.hand and "hand" not in game else ""
        game += " won" if r.won else " lost"
    calls = r.extra.get("calls")
    return f"{game} ({', '.join(calls)})" if calls else game


def sheet_text(res: SessionResult, title: str | None = None) -> str:
    """The score sheet: one line per deal, totals, extra columns, settlement."""
    st = res.state
    players = st.players
    w = max(8, *(len(p) for p in players))
    games = [_game_text(line) for line in st.lines]
    g = max(20, *(len(x) + 1 for x in games)) if games else 20
    head = f"{title or st.rules.name}: {', '.join(players)}"
    if st.stake is not None:
        head += f"; stake {st.stake} per point"
    out = [head]
    cols = "".join(f"{p:>{w + 7}}" for p in players)
    out.append(f"{'#':>3}  {'dealer':<{w}}  {'declarer':<{w}}  {'game':<{g}}{'value':>6}{cols}  marks")
    for line, game in zip(st.lines, games):
        r = line.result
        cells = ""
        for p in players:
            e = line.entries[p]
            cells += f"{(f'{e:+d}' if e else '.'):>7}{line.totals[p]:>{w}}"
        value = str(r.value) if r.declarer is not None else ""
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
    out.append(f"next dealer: {players[st.dealer]}")
    out += st.notes
    if st.closed:
        out.append(f"closed: {st.closed}")
    return "\n".join(printable(line) for line in out)  # names and titles may hold control characters
