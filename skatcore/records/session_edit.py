"""Changing a deal in the middle of a session (``skat sheet edit N`` / ``void N``).

A session is a list of deal records.  Editing deal N replaces its record,
voiding it strikes it through (``void: true``); either way the old state goes
to the deal's ``history`` and every deal is then scored again from the
start, so Bock and Ramsch rounds that deal N brought move with it.

The deals from N on get their dealer written down (``dealer``, the record
format's own field) as the sheet showed it before the change: who dealt a
deal, and so which player sat in which seat, is a fact of the evening that a
later correction does not move.  A voided deal is as if it had not been
dealt: the same dealer deals again (ISkO: an annulled deal is dealt again by
its dealer), so a deal entered after a void is that dealer's; a deal already
on the sheet after it keeps the dealer it was dealt by.  A change that makes
a later deal impossible (now inside a Ramsch round, say) is refused as a
whole.  docs/session-format.md, "Correcting a sheet".
"""

from __future__ import annotations

from collections.abc import Callable

from skatcore.errors import InputError
from skatcore.model import SheetLine
from skatcore.records.session import Session
from skatcore.records.session_record import split_deal


def deal_at(records: list[dict], n: int) -> dict:
    """Deal ``n`` (from 1) of the session, or a one-line refusal."""
    if not records:
        raise InputError(f"the sheet has no deals, so no deal {n}", path="N")
    if not 1 <= n <= len(records):
        raise InputError(f"expected a deal number 1..{len(records)}, got {n}", path="N")
    return records[n - 1]


def pinned(records: list[dict], session: Session, n: int) -> list[dict]:
    """Copies of the records with the dealer of every deal from ``n`` on
    written down as ``session`` (the sheet before the change) has it."""
    dealers = {line.index: line.dealer for line in session.state.sheet_lines}
    return [{**rec, "dealer": dealers[k]} if k >= n else dict(rec) for k, rec in enumerate(records, 1)]


def voided(records: list[dict], session: Session, n: int, at: str, reason: str | None = None) -> list[dict]:
    """The records with deal ``n`` struck through."""
    if deal_at(records, n).get("void"):
        raise InputError(f"deal {n} is void already", path="N")
    out = pinned(records, session, n)
    note = {"action": "voided", "at": at, **({"reason": reason} if reason else {})}
    out[n - 1] = {**out[n - 1], "void": True, "history": [*out[n - 1].get("history", ()), note]}
    return out


def edited(records: list[dict], session: Session, n: int, new: dict, at: str) -> list[dict]:
    """The records with deal ``n`` replaced by ``new`` (a voided deal is
    restored by its new record); the deal keeps its dealer and its ``id``
    unless ``new`` gives one."""
    old = deal_at(records, n)
    out = pinned(records, session, n)
    was, extras = split_deal(old)
    if new.get("id") is not None and any(r.get("id") == new["id"] for k, r in enumerate(records, 1) if k != n):
        raise InputError(f"deal id {new['id']!r} is on the sheet already", path="id")
    new = {**({"id": was["id"]} if "id" in was else {}), **new}
    new.setdefault("dealer", out[n - 1]["dealer"])
    note = {"action": "edited", "at": at, "was": was}
    out[n - 1] = {**new, "history": [*extras.get("history", ()), note]}
    return out


def rescored(records: list[dict], score: Callable[[list[dict]], Session], n: int, what: str) -> Session:
    """The session of the changed records; a deal that no longer fits
    refuses the change (``what``: "voiding deal 3") with its own reason."""
    try:
        return score(records)
    except InputError as exc:
        k = _deal_of(exc.path)
        if k is not None and k != n:
            exc.message = f"deal {k} no longer fits after {what}: {exc.message}"
        raise


def _deal_of(path: str | None) -> int | None:
    if path and path.startswith("deals["):
        return int(path[6:path.index("]")]) + 1
    return None


def history_lines(lines: list[SheetLine]) -> list[str]:
    """``history:`` and one line per change of a deal, in deal order, in
    players' names and words (``deal 1: edited 2026-12-01 21:04 UTC, was:
    Bernd clubs, bid 18, 60 card points, with 1``)."""
    out = []
    for line in lines:
        for h in line.history:
            at = h.get("at")
            text = f"  deal {line.index}: {h['action']}{' ' + _when(at) if isinstance(at, str) else ''}"
            if h.get("reason"):
                text += f" ({h['reason']})"
            if isinstance(h.get("was"), dict):
                text += f", was: {deal_words(h['was'], line)}"
            out.append(text)
    return ["history:", *out] if out else ["history: no deal was edited or voided"]


def _when(at: str) -> str:
    """``2026-12-01T21:04:00+00:00`` as ``2026-12-01 21:04 UTC``; other text as it is."""
    from datetime import datetime

    try:
        return datetime.fromisoformat(at).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        return at


def deal_words(record: dict, line: SheetLine) -> str:
    """A deal record as a scorer would say it, seats as the players of
    ``line`` (the deal it was: a correction keeps the dealer)."""
    def who(seat) -> str:
        name = line.player(seat) if seat in line.seating else None
        return str(seat) if name is None else name

    game = given if isinstance(given := record.get("game"), dict) else {}
    outcome = told if isinstance(told := record.get("outcome"), dict) else {}
    if not game:
        return "all passed" if record.get("bidding") else "no game"
    words = [who(record["declarer"])] if "declarer" in record else []
    words.append(" ".join([str(game.get("type")), *(k for k in ("hand", "ouvert") if game.get(k) is True),
                           *(f"{k} announced" for k in ("schneider", "schwarz") if game.get(k) is True)]))
    parts = [" ".join(words)]
    if isinstance(game.get("declarations"), dict) and game["declarations"]:
        parts[0] += f" ({', '.join(map(str, game['declarations']))})"
    if game.get("pushes") is not None:
        parts.append("pushes " + (", ".join(p if isinstance(p, str) else " ".join(map(str, p)) for p in game["pushes"])
                                  or "none"))
    if "bid" in record:
        parts.append(f"bid {record['bid']}")
    if "declarer_points" in outcome:
        parts.append(f"{outcome['declarer_points']} card points")
    if "declarer_tricks" in outcome:
        parts.append(f"{outcome['declarer_tricks']} tricks")
    matadors = outcome.get("matadors")
    if isinstance(matadors, dict) and matadors:
        key, n = next(iter(matadors.items()))
        parts.append(f"{key} {n}")
    for key, what in (("points", "card points"), ("tricks", "tricks")):
        if isinstance(outcome.get(key), dict):
            parts.append(f"{what} " + ", ".join(f"{who(seat)} {v}" for seat, v in outcome[key].items()))
    if "last_trick" in outcome:
        parts.append(f"last trick {who(outcome['last_trick'])}")
    return ", ".join(parts)
