"""Reading a session record (``format: skat-session/1``, docs/session-format.md):
its structure against ``session.schema.json`` and each deal as a deal record."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from skatcore.errors import InputError, shown
from skatcore.records.deal import as_deal_record
from skatcore.rules.ruleset import load_schema, read_document, validate

FORMAT = "skat-session/1"
# What a session adds to a deal record (docs/session-format.md): ``void: true``
# strikes the deal through, ``history`` lists its earlier versions.
SESSION_KEYS = ("void", "history")


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
    """A session's deal as a deal record (``format`` implied), validated; its
    session keys (``void``, ``history``) kept beside it."""
    where = f"deals[{i}]"
    if not isinstance(deal, dict):
        raise InputError("expected a mapping (a deal record)", source=source, path=where)
    record, extras = split_deal(deal)
    try:
        return {**as_deal_record(record, source), **extras}
    except InputError as exc:
        raise exc.at(where) from None


def split_deal(deal: dict) -> tuple[dict, dict]:
    """A session's deal as (its deal record, its session keys)."""
    return ({k: v for k, v in deal.items() if k not in SESSION_KEYS},
            {k: deal[k] for k in SESSION_KEYS if k in deal})
