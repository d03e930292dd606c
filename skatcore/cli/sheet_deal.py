"""``skat sheet add``: the deal to add, from a record file, ``--record`` text or
the inline options (``--declarer``, ``--game``, ``--points`` ...), with
player names resolved to the seats of the deal."""

from __future__ import annotations

import sys

from skatcore.errors import InputError, shown
from skatcore.model import SEATS
from skatcore.records.deal import as_deal_record
from skatcore.records.session import Session
from skatcore.rules.reading import max_bytes
from skatcore.rules.ruleset import read_document, read_yaml


def deal_from(opts) -> dict:
    inline = any([opts.passed, opts.declarer, opts.game, opts.ramsch, opts.points is not None, opts.bid is not None])
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
        return _inline(opts)
    if not isinstance(doc, dict):
        raise InputError("expected a mapping (a deal record)", source=source)
    doc = as_deal_record(doc, source)
    if opts.id:
        doc["id"] = opts.id
    return {k: v for k, v in doc.items() if k != "format"}


# the flags of a declarer's game, and of a game without declarer (a Ramsch)
_DECLARED = ("declarer", "bid", "points", "tricks", "matadors", "hand", "schneider", "schwarz", "ouvert", "call", "decl")
_RAMSCH = ("ramsch_tricks", "last_trick")


def _given(opts, names) -> list[str]:
    """The flags among ``names`` the scorer typed (``--points 0`` counts)."""
    return [f"--{n.replace('_', '-')}" for n in names if getattr(opts, n) not in (None, [])
            and getattr(opts, n) is not False]


def _inline(opts) -> dict:
    deal: dict = {}
    if opts.id:
        deal["id"] = opts.id
    if opts.ramsch or opts.passed:
        mixed = _given(opts, _DECLARED) + ([] if opts.ramsch or not opts.game else ["--game"])
        if mixed:
            flag = "--ramsch" if opts.ramsch else "--passed"
            what = "a Ramsch has no declarer or bid" if opts.ramsch else "all passed, there is no declarer or game"
            raise InputError(f"{what}: leave out {', '.join(mixed)}", path=flag)
    elif _given(opts, _RAMSCH):
        raise InputError("only for a Ramsch: give its card points with --ramsch F,M,R", path=_given(opts, _RAMSCH)[0])
    if opts.passed:
        deal["bidding"] = ["pass", "pass", "pass"]
        if not opts.ramsch:
            return deal
    if opts.ramsch:
        seats_of = lambda text, what: dict(zip(SEATS, _ints(text, what), strict=True))  # noqa: E731
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
    outcome = deal.get("outcome")
    for path, name in (("declarer", deal.get("declarer")),
                       ("outcome.last_trick", isinstance(outcome, dict) and outcome.get("last_trick"))):
        if isinstance(name, str) and name not in st.players and name not in SEATS:
            raise InputError(f"expected a player ({', '.join(st.players)}) or a seat ({', '.join(SEATS)}), "
                             f"got {shown(name)}", path=path)
    if deal.get("declarer") in st.players:
        if deal["declarer"] not in seats:
            raise InputError(f"{deal['declarer']} deals and sits out this deal", path="declarer")
        deal["declarer"] = seats[deal["declarer"]]
    if isinstance(outcome, dict) and outcome.get("last_trick") in st.players:
        if outcome["last_trick"] not in seats:
            raise InputError(f"{outcome['last_trick']} deals and sits out this deal", path="outcome.last_trick")
        deal["outcome"] = {**outcome, "last_trick": seats[outcome["last_trick"]]}
    return deal


def _seating(st) -> dict[str, int]:
    from skatcore.engine.table import people, seating

    return seating(len(st.players), st.dealer, people(st.rules))


# record paths (longest first) and the flags of ``sheet add`` that give them
_FLAG_OF = {"outcome.declarer_points": "--points", "outcome.declarer_tricks": "--tricks", "outcome.matadors": "--matadors",
            "outcome.points": "--ramsch", "outcome.tricks": "--ramsch-tricks", "outcome.last_trick": "--last-trick",
            "game.type": "--game", "declarer": "--declarer", "bidding": "--passed", "bid": "--bid", "id": "--id"}
# record words in messages, as the flags say them
_WORDS = [("outcome.matadors (or the hands and skat)", "--matadors (with2, without3 ...)"), (" (or the `play`)", ""),
          ("outcome.points for every seat", "--ramsch F,M,R"), ("outcome.tricks for every seat", "--ramsch-tricks F,M,R"),
          ("outcome.last_trick", "--last-trick (who took the last trick)"),
          *((word, flag) for word, flag in _FLAG_OF.items() if "." in word),
          ("`declarer` (or the `bidding`)", "--declarer"), ("`declarer`", "--declarer")]


def in_flags(exc: InputError, opts) -> InputError:
    """An error about an inline deal in the words the scorer typed: the
    flag for the record path, flags for record words in the message."""
    path, message = exc.path or "", exc.message
    if path == "game" and "all passed" in message and not opts.ramsch:  # all passed and the ruleset plays on
        path, message = "--passed", message.split(" then:")[0].removeprefix("all passed: ") + \
            " on all pass: use --ramsch F,M,R (with --ramsch-tricks and --last-trick)"
    elif path == "bidding":  # every deal a Ramsch
        path, message = "--passed", message + (": leave out --passed" if opts.ramsch else ": use --ramsch F,M,R")
    elif path == "declarer" and opts.ramsch:  # --game names a declarer's game
        path, message = "--game", f"{opts.game} has a declarer: give --declarer, --bid and --points, not --ramsch"
    elif path.startswith("game.declarations."):
        key = path.split(".")[2]
        path = f"--call {key}" if key in opts.call else f"--decl {key}"
    elif path == "game":  # the game as a whole: what was announced, or the Ramsch
        path = ", ".join(_given(opts, ("hand", "schneider", "schwarz", "ouvert"))) or ("--ramsch" if opts.ramsch else "--game")
    else:
        path = next((flag for word, flag in _FLAG_OF.items() if path == word or path.startswith(word + ".")), exc.path)
    if opts.ramsch and path == "--game" and not opts.game:
        path = "--ramsch"
    for word, flag in _WORDS:
        message = message.replace(word, flag)
    source = None if path and path.startswith("--") else exc.source
    return InputError(message, source=source, path=path or None)
