"""``skat sheet add``: the deal to add, from a record file, ``--record`` text or
the inline options (``--declarer``, ``--game``, ``--points`` ...: the fields
of :mod:`skatcore.records.sheet_entry`, which the web app's form shares)."""

from __future__ import annotations

import sys

from skatcore.errors import InputError
from skatcore.records.deal import as_deal_record
from skatcore.records.sheet_entry import FIELDS, deal_from_fields, flag, in_fields
from skatcore.rules.reading import max_bytes
from skatcore.rules.ruleset import read_document, read_yaml


def deal_from(opts) -> dict:
    inline = any([opts.passed, opts.declarer, opts.game, opts.ramsch, opts.instead, opts.points is not None,
                  opts.bid is not None])
    given = [x for x in (opts.deal, opts.record, inline or None) if x]
    if len(given) != 1:
        raise InputError("give one deal: a deal record file (or - for stdin), --record 'YAML', or inline options "
                         "(--declarer, --bid, --game, --points, --matadors; --passed; --ramsch)")
    if opts.deal == "-":
        limit = max_bytes()
        text = sys.stdin.read(limit + 1)  # no more than the limit is ever held
        if len(text) > limit:
            raise InputError(f"larger than {limit:,} characters (expected a deal record within SKAT_MAX_DOCUMENT_BYTES)",
                             source="<stdin>")
        doc = read_yaml("<stdin>", text)
        source = "<stdin>"
    elif opts.deal:
        doc = read_document(opts.deal)
        source = opts.deal
    elif opts.record:
        doc = read_yaml("--record", opts.record)
        source = "--record"
    else:
        return deal_from_fields(fields(opts), name=flag)
    if not isinstance(doc, dict):
        raise InputError("expected a mapping (a deal record)", source=source)
    doc = as_deal_record(doc, source)
    if opts.id:
        doc["id"] = opts.id
    return {k: v for k, v in doc.items() if k != "format"}


def fields(opts) -> dict:
    """The inline options as the fields of :mod:`skatcore.records.sheet_entry`."""
    return {key: getattr(opts, key) for key in FIELDS}


def in_flags(exc: InputError, opts) -> InputError:
    """An error about an inline deal in the words the scorer typed (``--points``)."""
    return in_fields(exc, fields(opts), name=flag)
