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

import json
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
    """``history:`` and one line per change of a deal, in deal order."""
    out = []
    for line in lines:
        for h in line.history:
            text = f"  deal {line.index}: {h['action']}{' ' + h['at'] if h.get('at') else ''}"
            if h.get("reason"):
                text += f" ({h['reason']})"
            if "was" in h:
                text += f"; was {json.dumps(h['was'], ensure_ascii=False)}"
            out.append(text)
    return ["history:", *out] if out else ["history: no deal was edited or voided"]
