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
import dataclasses
from dataclasses import dataclass
from decimal import Decimal

from skatcore.engine.table import next_dealer, people, seating
from skatcore.errors import InputError, shown
from skatcore.model import Column, Outlook, ScoreResult, SessionState, Settlement, SheetLine
from skatcore.records.deal import as_deal_record, score_record
from skatcore.records.money import check_stake, json_number
from skatcore.records.session_record import check_session, deal_doc, split_deal
from skatcore.rules.compiler import rules_for

SHEET_FORMAT = "skat-sheet/1"


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
    outlook: Outlook = dataclasses.field(default_factory=Outlook)

    @property
    def lines(self) -> list[SheetLine]:
        return self.state.lines

    def to_json(self) -> dict:
        st = self.state
        return {
            "format": SHEET_FORMAT,
            "ruleset": st.rules.name,
            "players": list(st.players),
            "stake": json_number(st.stake) if st.stake is not None else None,
            "deals": [line.to_json() for line in st.sheet_lines],
            "totals": dict(st.totals),
            "extra": {c.key: {"label": c.label, "values": dict(c.values)} for c in self.extra},
            "final": dict(self.final),
            "money": {c.key: {"label": c.label, "values": {p: json_number(v) for p, v in c.values.items()}} for c in self.money},
            "settlement": None if self.settlement is None else {
                "method": self.settlement.method,
                "net": {p: json_number(v) for p, v in self.settlement.net.items()},
                "transfers": [{"from": a, "to": b, "amount": json_number(x)} for a, b, x in self.settlement.transfers],
            },
            "net": None if self.net is None else {p: json_number(v) for p, v in self.net.items()},
            "next_dealer": st.players[st.dealer],
            "next_deal": None if st.closed else {"deal": len(st.sheet_lines) + 1, "dealer": st.players[st.dealer],
                                                 "kind": self.outlook.next, "bidding": self.outlook.bidding,
                                                 "factor": self.outlook.factor},
            "owed": dict(self.outlook.owed),
            "closed": st.closed,
            "notes": list(st.notes),
        }


def rules_for_session(doc: dict, source: str | None = None, override: str | None = None):
    """The compiled rules of a session (see :func:`skatcore.rules.compiler.rules_for`)."""
    return rules_for(doc, source, override)


def validate_session_file(path, doc: dict, override: str | None = None) -> str:
    """``skat validate`` of a session record: its structure, and every deal
    scored in order under the session rules.  Returns the line to print."""
    source = str(path)
    check_session(doc, source)
    rules = rules_for_session(doc, source, override)
    result = score_session(doc, rules, source)
    n, void = len(result.state.sheet_lines), len(result.state.voided)
    return (f"{path}: valid session record ({n} deal{'s' * (n != 1)}{f', {void} void' if void else ''} "
            f"under {rules.name!r}, {len(doc['players'])} players)")


# ---------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------


class Session:
    """A session being scored deal by deal (the persistent sheet adds one
    deal at a time; :func:`score_session` scores a whole record)."""

    def __init__(self, rules, players, *, stake=None, dealer: int = 0, source: str = "<session>"):
        players = tuple(players)
        try:
            seating(len(players), dealer if 0 <= dealer < len(players) else 0, people(rules))  # a table this ruleset is played at
        except InputError as exc:
            raise exc.at("players", source) from None
        try:
            check_stake(stake)
        except InputError as exc:
            raise exc.at("stake", source) from None
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
        record, extras = split_deal(deal)
        try:
            doc = as_deal_record(record, self.source)
        except InputError as exc:
            raise exc.at(where) from None
        if st.voided and st.voided[-1].index == i and doc.get("dealer") == next_dealer(len(st.players), st.dealer):
            st.dealer = doc["dealer"]  # dealt on before the deal before it was voided: it says so (docs/session-format.md)
        for key, want, show in (("players", list(st.players), ", ".join(st.players)),
                                ("dealer", st.dealer, f"{st.dealer} ({st.players[st.dealer]} deals)")):
            if key in doc and doc[key] != want:
                raise InputError(f"expected {show} as in the session, got {shown(doc[key])}", source=self.source,
                                 path=f"{where}.{key}")
        if doc.get("ruleset") not in (None, st.rules.name) and not self._same_rules(doc["ruleset"]):
            raise InputError(f"the session is played under {st.rules.name!r}, not {shown(doc['ruleset'])}",
                             source=self.source, path=f"{where}.ruleset")
        doc["players"], doc["dealer"] = list(st.players), st.dealer
        if extras.get("void"):
            line = self._void(doc, i)
        else:
            try:
                result = score_record(doc, st.rules, self.source)
            except InputError as exc:
                raise exc.at(where) from None
            line = self.enter(doc, result, i)
        line.history = list(extras.get("history") or ())
        if not line.void and any(h.get("action") == "edited" for h in line.history):
            line.marks.insert(0, "edited")
        return line

    def _void(self, doc: dict, i: int) -> SheetLine:
        """A voided deal: struck through, as if it had not been dealt.  It
        enters nothing, no session rule sees it (no Bock trigger, none of a
        round's or series' deals) and the same dealer deals again."""
        st = self.state
        zero = {p: 0 for p in st.players}
        try:
            was = score_record(doc, st.rules, self.source)  # only to show what was voided
            what = f"void, scores nothing (was: {was.explanation})"
        except InputError:
            was, what = None, "void, scores nothing"
        game = doc.get("game") or {}
        result = ScoreResult(
            ruleset=st.rules.name, game=was.game if was else str(game.get("type", "passed")),
            declarer=was.declarer if was else None, bid=was.bid if was else None, hand=bool(was and was.hand),
            won=None, overbid=False, matadors=None, multiplier=None, value=0, score=0,
            scores={seat: 0 for seat in (was.scores if was else ())}, declarer_points=None, explanation=what)
        line = SheetLine(index=i + 1, dealer=st.dealer, seating=seating(len(st.players), st.dealer, people(st.rules)),
                         record=doc, result=result, base=zero, entries=dict(zero), marks=["void"], counts=False,
                         redeal=True, totals=dict(st.totals), void=True)
        st.voided.append(line)
        return line

    def enter(self, doc: dict, result: ScoreResult, index: int | None = None) -> SheetLine:
        """Enter a scored deal on the sheet: ``doc`` is its record (the
        session rules read it: a bid deal in a Ramsch round is refused),
        ``result`` its score (a simulation has played it already)."""
        st = self.state
        i = len(st.lines) if index is None else index
        where = f"deals[{i}]"
        if st.closed:
            raise InputError(f"no more deals: {st.closed}", source=self.source, path=where)
        seats = seating(len(st.players), st.dealer, people(st.rules))
        # the line names its players from its record (`add` wrote them; a simulated deal's record has none)
        doc.setdefault("players", list(st.players))
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

    def next_deal(self) -> SheetLine | None:
        """What the session rules make of the next deal if it is bid: its
        line (``factor`` and ``marks``: a Bock deal counts double), or
        ``None`` when the next deal may not be bid (a Ramsch round) or the
        session is closed.  Asked of a copy: the session does not change."""
        from skatcore.engine.scoring import passed_result

        saved = self.state
        self.state = dataclasses.replace(saved, lines=list(saved.lines), totals=dict(saved.totals),
                                         data=copy.deepcopy(saved.data), notes=list(saved.notes))
        try:
            return self.enter({"bidding": ["pass"] * 3}, passed_result(saved.rules))
        except InputError:
            return None
        finally:
            self.state = saved

    def outlook(self) -> Outlook:
        """What the session rules say of the deals to come, merged: the next
        deal's kinds joined, bid only if every rule says so, the factors
        multiplied, the deals owed added up by kind."""
        merged = Outlook()
        try:
            outlooks = [o for o in self.state.hook("skat_session_outlook") if o is not None]
        except InputError as exc:
            raise exc.at(source=self.source) from None
        for o in outlooks:
            merged.next = "; ".join(x for x in (merged.next, o.next) if x)
            merged.bidding = merged.bidding and o.bidding
            merged.factor *= o.factor
            for kind, n in o.owed.items():
                merged.owed[kind] = merged.owed.get(kind, 0) + n
        return merged

    def _same_rules(self, ref: str) -> bool:
        """A deal naming the session's ruleset by its file (``house.yaml``
        beside the record) names the same ruleset as by its name."""
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
        outlook = self.outlook()
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
        return SessionResult(st, extra, final, money, settlement, net, outlook)


def score_session(doc: dict, rules, source: str = "<session>") -> SessionResult:
    """Score a validated session record under compiled ``rules``."""
    session = Session(rules, doc["players"], stake=doc.get("stake"), dealer=doc.get("dealer", 0), source=source)
    for i, deal in enumerate(doc.get("deals") or []):
        session.add(deal_doc(deal, i, source), i)
    return session.finish()


