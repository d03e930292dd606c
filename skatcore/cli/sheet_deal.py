"""``skat sheet add``: the deal to add, from a record file, ``--record`` text or
the inline options (``--declarer``, ``--game``, ``--points`` ...), with
player names resolved to the seats of the deal."""

from __future__ import annotations

import sys

from skatcore.errors import InputError, shown
from skatcore.model import SEATS
from skatcore.records.deal import as_deal_record
from skatcore.records.session import Session
from skatcore.rules.ruleset import read_document, read_yaml


def deal_from(opts) -> dict:
    inline = any([opts.passed, opts.declarer, opts.game, opts.ramsch, opts.points is not None, opts.bid is not None])
    given = [x for x in (opts.deal, opts.record, inline or None) if x]
    if len(given) != 1:
        raise InputError("give one deal: a deal record file (or - for stdin), --record 'YAML', or inline options "
                         "(--declarer, --bid, --game, --points, --matadors; --passed; --ramsch)")
    if opts.deal == "-":
        doc = read_yaml("<stdin>", sys.stdin.read())
        source = "<stdin>"
    elif opts.deal:
        doc = read_document(opts.deal)
        source = opts.deal
    elif opts.record:
        doc = read_yaml("--record", opts.record)
        source = "--record"
    else:
        return _inline(opts)
    if not isinstance(doc, dict):
        raise InputError("expected a mapping (a deal record)", source=source)
    doc = as_deal_record(doc, source)
    if opts.id:
        doc["id"] = opts.id
    return {k: v for k, v in doc.items() if k != "format"}


def _inline(opts) -> dict:
    deal: dict = {}
    if opts.id:
        deal["id"] = opts.id
    if opts.passed:
        if opts.declarer or opts.game:
            raise InputError("--passed: all passed, there is no declarer or game", path="--passed")
        deal["bidding"] = ["pass", "pass", "pass"]
        return deal
    if opts.ramsch:
        seats_of = lambda text, what: dict(zip(SEATS, _ints(text, what)))  # noqa: E731
        deal["game"] = {"type": opts.game or "ramsch"}
        outcome = {"points": seats_of(opts.ramsch, "--ramsch")}
        if opts.ramsch_tricks:
            outcome["tricks"] = seats_of(opts.ramsch_tricks, "--ramsch-tricks")
        if opts.last_trick:
            outcome["last_trick"] = opts.last_trick
        deal["outcome"] = outcome
        return deal
    for flag in ("declarer", "bid", "game"):
        if getattr(opts, flag) is None:
            raise InputError(f"give --{flag} (or a deal record file)", path=f"--{flag}")
    deal["declarer"] = opts.declarer
    deal["bid"] = opts.bid
    game: dict = {"type": opts.game}
    for flag in ("hand", "schneider", "schwarz", "ouvert"):
        if getattr(opts, flag):
            game[flag] = True
    decls = {c: True for c in opts.call}
    for kv in opts.decl:
        key, sep, value = kv.partition("=")
        if not sep or not key:
            raise InputError(f"expected KEY=VALUE, got {shown(kv)}", path="--decl")
        decls[key] = read_yaml(f"--decl {key}", value)
    if decls:
        game["declarations"] = decls
    deal["game"] = game
    outcome: dict = {}
    if opts.points is not None:
        outcome["declarer_points"] = opts.points
    if opts.tricks is not None:
        outcome["declarer_tricks"] = opts.tricks
    if opts.matadors:
        outcome["matadors"] = _matadors(opts.matadors)
    if outcome:
        deal["outcome"] = outcome
    return deal


def _ints(text: str, what: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",")]
    except ValueError:
        values = []
    if len(values) != 3:
        raise InputError(f"expected three numbers F,M,R, got {shown(text)}", path=what)
    return values


def _matadors(text: str) -> dict:
    t = text.strip().lower().replace(" ", "")
    for prefix, key in (("without", "without"), ("with", "with"), ("-", "without"), ("+", "with"), ("", "with")):
        if t.startswith(prefix) and t[len(prefix):].isdigit():
            return {key: int(t[len(prefix):])}
    raise InputError(f"expected with2, without3, +2 or -3, got {shown(text)}", path="--matadors")


def resolve_names(deal: dict, session: Session) -> dict:
    """Player names where the record wants seats (``--declarer Anna``)."""
    st = session.state
    seats = {st.players[i]: seat for seat, i in _seating(st).items()}
    deal = dict(deal)
    if deal.get("declarer") in st.players:
        if deal["declarer"] not in seats:
            raise InputError(f"{deal['declarer']} deals and sits out this deal", path="--declarer")
        deal["declarer"] = seats[deal["declarer"]]
    outcome = deal.get("outcome")
    if isinstance(outcome, dict) and outcome.get("last_trick") in st.players:
        if outcome["last_trick"] not in seats:
            raise InputError(f"{outcome['last_trick']} deals and sits out this deal", path="--last-trick")
        deal["outcome"] = {**outcome, "last_trick": seats[outcome["last_trick"]]}
    return deal


def _seating(st) -> dict[str, int]:
    from skatcore.engine.table import people, seating

    return seating(len(st.players), st.dealer, people(st.rules))
