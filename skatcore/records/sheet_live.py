"""A live sheet's actions for any front end (the web app; the CLI's
``skat sheet`` does the same steps): start a sheet, read it as one scored
snapshot, add, correct, void and take back deals, each in one transaction of
:mod:`skatcore.records.sheet_store`.

Two scorers at once: every change re-reads the sheet inside its write
transaction, so deals land once each, in the order saved.  A deal carries an
``id`` (unique on a sheet: a retried save is refused, never counted twice),
and a correction names the :func:`deal_tag` of the deal it was based on: if
the deal changed since, the correction is refused, never applied over it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from skatcore.errors import InputError, shown
from skatcore.records import sheet_store as store
from skatcore.records.sheet_store import open_sheet, transaction

TYPE_CHECKING = False
if TYPE_CHECKING:
    from skatcore.model import SheetLine
    from skatcore.records.session import Session, SessionResult


_RULES: dict[tuple, object] = {}  # (sheet, frozen ruleset, trust) -> compiled rules: a poll never compiles again


def _session(meta: dict, path: Path, deals) -> Session:
    """The sheet's session, its frozen ruleset compiled once per sheet and trust."""
    from skatcore.rules.trust import trust_key

    key = (str(path), json.dumps(meta.get("frozen"), sort_keys=True), meta.get("ruleset"), trust_key())
    if key not in _RULES:
        if len(_RULES) > 32:
            _RULES.clear()
        _RULES[key] = store.stored_rules(meta, path)
    return store.stored_session(meta, path, deals, _RULES[key])


class StaleError(InputError):
    """A change based on a sheet or deal that has changed since (HTTP 409)."""


@dataclass
class Snapshot:
    """One consistent reading of a sheet, scored."""

    path: Path
    meta: dict
    deals: list[tuple[int, dict]]
    session: Session
    result: SessionResult
    version: str


def deal_tag(record: dict) -> str:
    """A short fingerprint of a deal record: what a correction was based on."""
    return hashlib.sha256(json.dumps(record, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def version(path: Path) -> str:
    """A fingerprint of the whole sheet (meta and deals), cheap enough to ask
    every second: it changes with every change, and only then."""
    _, con = open_sheet(str(path), write=False)
    with transaction(con, write=False):
        return _version(con, path)


def _version(con, path: Path) -> str:
    from skatcore.records.sheet_guard import check_deals_size, check_meta_size, query

    check_meta_size(con, path)  # within a sheet's limits before a row is read
    check_deals_size(con, path)
    h = hashlib.sha256()
    for table in ("SELECT key, value FROM meta ORDER BY key", "SELECT n, record FROM deals ORDER BY n"):
        for row in query(con, table, path):
            h.update(repr(row).encode())
    return h.hexdigest()[:16]


def snapshot(path: Path) -> Snapshot:
    """The sheet as it is, scored (one read transaction for meta, deals and version)."""
    _, con = open_sheet(str(path), write=False)
    with transaction(con, write=False):
        meta, deals = store.read_sheet(con, path)
        v = _version(con, path)
    session = _session(meta, path, deals)
    return Snapshot(path, meta, deals, session, session.finish(), v)


MAX_NAME = 40  # characters of a player's name on a new sheet (what a phone's sheet and the list of sheets show of one)


def create(path: Path, ruleset: str, players: list[str], *, dealer: int = 0, stake: float | None = None,
           title: str | None = None, name: Callable[[str], str] = str):
    """A new sheet at ``path`` under a shipped ruleset or a ruleset file
    beside it; returns its compiled rules.  ``name`` turns a field into the
    words of the caller's errors (the CLI's ``--players``)."""
    from skatcore.engine.table import people, seating
    from skatcore.records.money import check_stake
    from skatcore.records.session import Session, rules_for_session
    from skatcore.records.session_record import FORMAT, check_session
    from skatcore.rules.ruleset import freeze_ruleset

    if len(players) not in (2, 3, 4) or len(set(players)) != len(players) or not all(players):
        raise InputError(f"expected 3 or 4 different names (2 for a two-player ruleset), got {shown(', '.join(players))}",
                         path=name("players"))
    if long := next((p for p in players if len(p) > MAX_NAME), None):  # a name a phone's sheet can show
        raise InputError(f"a name has at most {MAX_NAME} characters, got {len(long)}: {shown(long)}",
                         path=name("players"))
    if not 0 <= dealer < len(players):
        raise InputError(f"expected a player name or index 0..{len(players) - 1}, got {dealer}", path=name("dealer"))
    doc = {"format": FORMAT, "ruleset": ruleset, "players": players, "dealer": dealer, "deals": []}
    if stake is not None:
        try:
            check_stake(stake)
        except InputError as exc:
            raise exc.at(name("stake")) from None
        doc["stake"] = stake
    if title:
        doc["title"] = title
    check_session(doc, str(path))
    rules = rules_for_session(doc, None, ruleset)
    try:
        seating(len(players), dealer, people(rules))  # two players only for a two-player ruleset
    except InputError as exc:
        raise exc.at(name("players")) from None
    Session(rules, players, stake=stake, dealer=dealer, source=str(path))  # the ruleset accepts this table
    store.create(path, {"ruleset": ruleset, "frozen": freeze_ruleset(ruleset), "players": players, "dealer": dealer,
                        "stake": stake, "title": title, "created": store.now()})
    return rules


def add(path: Path, enter: Callable[[Session], tuple[dict, SheetLine]], uid: str | None = None,
        save: bool = True) -> tuple[SheetLine, Session]:
    """Add a deal: ``enter(session)`` enters it on the sheet's session as it is
    inside the write transaction and returns its record (seats resolved) and
    line.  A deal ``uid`` (its record's ``id``) on the sheet already is
    refused first (a save repeated).  ``save=False``: scored, not written (the count shown before saving)."""
    _, con = open_sheet(str(path), write=save)
    with transaction(con, write=save):
        if save and uid is not None and (at := store.deal_with_id(con, uid)):
            raise StaleError(f"this deal is on the sheet already (deal {at})")
        meta, deals = store.read_sheet(con, path)
        session = _session(meta, path, deals)
        record, line = enter(session)
        if save:
            store.add_deal(con, len(deals) + 1, record)
    return line, session


def change(path: Path, n: int, tag: str | None, what: str,
           change_records: Callable[[list[dict], Session], list[dict]], save: bool = True) -> tuple[SheetLine, Session, int]:
    """Correct or void deal ``n`` (``what``: "voiding deal 3"): every deal
    re-scored after the change, all written or nothing.  ``tag``: the
    :func:`deal_tag` of deal ``n`` the change is based on.  ``save=False``:
    scored, not written (the count of a correction shown before saving)."""
    from skatcore.records.session_edit import deal_at, rescored

    _, con = open_sheet(str(path), write=save)
    with transaction(con, write=save):
        try:
            meta, deals = store.read_sheet(con, path)
            before = _session(meta, path, deals)
        except InputError as exc:
            exc.stored = True  # about the sheet as it is, not the change: never in the words of a form or flags
            raise
        records = [d for _, d in deals]
        if tag is not None and deal_tag(deal_at(records, n)) != tag:
            raise StaleError(f"deal {n} was changed on another device since you opened it: look at it again, "
                             "then correct it")
        try:
            new = change_records(records, before)
        except InputError as exc:
            raise exc.at(source=str(path)) from None
        session = rescored(new, lambda recs: _session(meta, path, list(enumerate(recs, 1))), n, what)
        if save:
            for (k, old), rec in zip(deals, new, strict=True):
                if rec != old:
                    store.replace_deal(con, k, rec)
            store.touch(con)
    line = next(x for x in session.state.sheet_lines if x.index == n)
    return line, session, len(new) - n


def undo(path: Path, last: int | None = None, name: Callable[[str], str] = str) -> int:
    """Take back the last deal (refused unless it is deal ``last``, when
    given); returns its number.  Only the sheet's meta is checked first: undo
    may take back a damaged last deal."""
    from skatcore.records.sheet_check import check_sheet

    _, con = open_sheet(str(path))
    with transaction(con):
        check_sheet(store.read_meta(con, path), [], str(path))
        n = store.last_deal(con)
        if n is not None and type(n) is not int:
            raise InputError(f"expected deal numbers, got {shown(n)}", source=str(path), path="deals")
        if n is None:
            raise InputError("the sheet has no deals to undo", source=str(path))
        if last is not None and n != last:
            raise StaleError(f"the last deal is deal {n}, not {last}: nothing was taken back", path=name("deal"))
        store.remove_deal(con, n)
    return n


def export_doc(meta: dict, deals: list[tuple[int, dict]]) -> dict:
    """The sheet as a session record (``skat-session/1``): a shipped ruleset by
    its name, a file by its name (to lie beside the record)."""
    from skatcore.records.session_record import FORMAT
    from skatcore.rules.ruleset import shipped_rulesets

    ruleset = meta["ruleset"] if meta["ruleset"] in shipped_rulesets() else Path(meta["ruleset"]).name
    doc = {"format": FORMAT, **({"title": meta["title"]} if meta.get("title") else {}), "ruleset": ruleset,
           "players": meta["players"], "dealer": meta.get("dealer", 0)}
    if meta.get("stake") is not None:
        doc["stake"] = meta["stake"]
    doc["deals"] = [d for _, d in deals]
    return doc
