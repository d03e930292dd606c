"""A deal entered from plain fields, as a score sheet is filled in: the
inline options of ``skat sheet add`` (``--declarer Anna --game clubs
--points 74 --matadors with1``) and the web app's form share this module.

:func:`deal_from_fields` turns a mapping of :data:`FIELDS` into a deal
record (docs/formats.md#deal-record); :func:`add_entry` enters it on a
session.  Every refusal is an :class:`~skatcore.errors.InputError` whose
``path`` is a field and whose message names fields, each rendered by the
caller's ``name`` (the CLI: ``points`` -> ``--points``; a form: its label),
never the record paths behind them (``outcome.declarer_points``).

Field values may be typed (the CLI: ``bid=18``, ``hand=True``) or text as
a form sends it (``"18"``, ``"on"``, ``""`` for not given).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from skatcore.errors import InputError, shown
from skatcore.model import SEATS, SheetLine
from skatcore.rules.ruleset import read_yaml

#: the fields of an entered deal and what each holds
FIELDS = {
    "id": "the deal's id (unique on the sheet)",
    "passed": "all passed (thrown in, or the all-pass game)",
    "declarer": "seat (forehand ...) or player name",
    "bid": "the bid the declarer won",
    "game": "clubs, spades, hearts, diamonds, grand, null, ...",
    "hand": "played without picking up the skat",
    "schneider": "schneider announced",
    "schwarz": "schwarz announced",
    "ouvert": "played open",
    "points": "the declarer's card points (skat included)",
    "tricks": "the declarer's tricks",
    "matadors": "with2, without3 (or +2, -3)",
    "call": "calls or declarations made (kontra, re, ...)",
    "decl": "plugin declarations, KEY=VALUE",
    "ramsch": "Ramsch card points per seat, F,M,R (forehand, middlehand, rearhand)",
    "ramsch_tricks": "Ramsch tricks per seat, F,M,R",
    "last_trick": "seat or player who took the last trick (Ramsch)",
    "pushes": "Schieberamsch: each push in turn, blind, seen or pass (no card names)",
    "instead": "a grand hand declared instead of pushing (Schieberamsch): no bid, after the pushes given",
}
_FLAGS = ("passed", "hand", "schneider", "schwarz", "ouvert", "instead")
#: game names a German table says, to the contract names of the rulesets; both
#: suit sets (French: Kreuz, Pik, Herz, Karo; German: Eichel, Grün/Blatt, Rot,
#: Schellen, docs/rules/README.md); Grand, Null and Ramsch are the same words
GAME_NAMES = {"kreuz": "clubs", "eichel": "clubs", "pik": "spades", "grün": "spades", "gruen": "spades",
              "blatt": "spades", "herz": "hearts", "rot": "hearts", "karo": "diamonds", "schellen": "diamonds"}
#: words after the game name (``Grand Hand``, ``Null ouvert``, ``Kreuz Hand Schneider angesagt``)
GAME_WORDS = {"hand": "hand", "ouvert": "ouvert", "offen": "ouvert", "schneider": "schneider", "schwarz": "schwarz",
              "announced": None, "angesagt": None}
#: seats in German
SEAT_NAMES = {"vorhand": "forehand", "mittelhand": "middlehand", "hinterhand": "rearhand"}
_NUMBERS = ("bid", "points", "tricks")
_LISTS = ("call", "decl", "pushes")
_PUSHES = {"blind": "blind", "seen": "seen", "gesehen": "seen", "pass": "pass"}
_MAX_TEXT = 200  # a name, a game, a list of three numbers: never longer
_MAX_ITEMS = 20
_DIGITS = re.compile(r"[0-9]+")  # a number typed: ASCII digits (str.isdigit and int() take other scripts')

Namer = Callable[[str], str]


def flag(field: str) -> str:
    """A field as the CLI's option: ``ramsch_tricks`` -> ``--ramsch-tricks``."""
    return f"--{field.replace('_', '-')}"


def _field(name: str) -> str:
    return name


# ---------------------------------------------------------------------------
# Plain fields -> values
# ---------------------------------------------------------------------------


def _text(value: Any, field: str, name: Namer = _field) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError(f"expected text, got {shown(value)}", path=name(field))
    value = value.strip()
    if len(value) > _MAX_TEXT:
        raise InputError(f"expected at most {_MAX_TEXT} characters, got {len(value):,}", path=name(field))
    return value or None


def _yes(value: Any, field: str, name: Namer = _field) -> bool:
    if isinstance(value, bool) or value is None:
        return bool(value)
    text = _text(value, field, name)
    if text is None or text.lower() in ("0", "false", "off", "no"):
        return False
    if text.lower() in ("1", "true", "on", "yes"):
        return True
    raise InputError(f"expected yes or no, got {shown(text)}", path=name(field))


def _number(value: Any, field: str, name: Namer = _field) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    else:
        text = _text(value, field, name)
        if text is None:
            return None
        if not _DIGITS.fullmatch(text.lstrip("-")) or len(text) > 9:  # ASCII digits: '٧٠' is not 70
            raise InputError(f"expected a whole number, got {shown(text)}", path=name(field))
        number = int(text)
    return number


def _items(value: Any, field: str, name: Namer = _field) -> list[str]:
    if value is None or value == "":
        return []
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list | tuple) or len(items) > _MAX_ITEMS:
        raise InputError(f"expected a list of at most {_MAX_ITEMS}, got {shown(value)}", path=name(field))
    return [t for t in (_text(x, field, name) for x in items) if t]


def fields_of(raw: Mapping[str, Any], name: Namer = _field) -> dict[str, Any]:
    """Every field with its value checked and typed: flags bool, numbers
    int or ``None``, ``call``/``decl`` lists, the rest text or ``None``."""
    if not isinstance(raw, Mapping):
        raise InputError(f"expected a mapping of fields, got {shown(raw)}")
    for key in raw:
        if key not in FIELDS:
            raise InputError(f"unknown field {shown(key)} (expected {', '.join(FIELDS)})", path=name(str(key)[:40]))
    out: dict[str, Any] = {}
    for key in FIELDS:
        value = raw.get(key)
        if key in _FLAGS:
            out[key] = _yes(value, key, name)
        elif key in _NUMBERS:
            out[key] = _number(value, key, name)
        elif key in _LISTS:
            out[key] = _items(value, key, name)
        else:
            out[key] = _text(value, key, name)
    if out["game"]:
        _game_words(out, name)
    for push in out["pushes"]:
        if push.casefold() not in _PUSHES:
            raise InputError(f"expected blind, seen or pass for each push in turn, got {shown(push)}", path=name("pushes"))
    if len(out["pushes"]) > 3:
        raise InputError("expected at most 3 pushes (one per player)", path=name("pushes"))
    out["pushes"] = [_PUSHES[p.casefold()] for p in out["pushes"]]
    return out


def _game_words(f: dict, name: Namer) -> None:
    """``Grand Hand`` -> game ``grand`` and ``hand``; names case-insensitive, German or English."""
    first, *words = f["game"].casefold().split()
    f["game"] = GAME_NAMES.get(first, first)
    for word in words:
        if word not in GAME_WORDS:
            raise InputError(f"expected a game and hand, ouvert, schneider or schwarz, got {shown(word)}", path=name("game"))
        if GAME_WORDS[word]:
            f[GAME_WORDS[word]] = True


# ---------------------------------------------------------------------------
# Fields -> deal record
# ---------------------------------------------------------------------------

# the fields of a declarer's game, and of a game without declarer (a Ramsch)
_DECLARED = ("declarer", "bid", "points", "tricks", "matadors", "hand", "schneider", "schwarz", "ouvert", "call", "decl")
_RAMSCH = ("ramsch_tricks", "last_trick")


def given(f: Mapping[str, Any], names, name: Namer = _field) -> list[str]:
    """The fields among ``names`` the scorer filled in (``points 0`` counts)."""
    return [name(n) for n in names if f.get(n) not in (None, []) and f.get(n) is not False]


def deal_from_fields(raw: Mapping[str, Any], *, name: Namer = _field) -> dict:
    """The deal record of the fields in ``raw`` (see :data:`FIELDS`).
    Player names stay as given (``declarer: Anna``): :func:`add_entry`
    resolves them against the session.  ``name`` renders a field in messages."""
    f = fields_of(raw, name)
    deal: dict = {}
    if f["id"]:
        deal["id"] = f["id"]
    if f["game"] == "ramsch" and not f["ramsch"] and not f["instead"]:
        raise InputError(f"a Ramsch: give each player's card points ({name('ramsch')} F,M,R)", path=name("ramsch"))
    if f["pushes"] and not (f["ramsch"] or f["instead"]):
        raise InputError(f"pushes are for a Ramsch ({name('ramsch')} F,M,R) or a grand hand instead of pushing "
                         f"({name('instead')})", path=name("pushes"))
    if f["instead"]:
        return _instead(deal, f, name)
    if f["ramsch"] or f["passed"]:
        mixed = given(f, _DECLARED, name) + ([] if f["ramsch"] or not f["game"] else [name("game")])
        if mixed:
            where = "ramsch" if f["ramsch"] else "passed"
            what = "a Ramsch has no declarer or bid" if f["ramsch"] else "all passed, there is no declarer or game"
            raise InputError(f"{what}: leave out {', '.join(mixed)}", path=name(where))
    elif given(f, _RAMSCH):
        raise InputError(f"only for a Ramsch: give its card points with {name('ramsch')} F,M,R",
                         path=given(f, _RAMSCH, name)[0])
    if f["passed"]:
        deal["bidding"] = ["pass", "pass", "pass"]
        if not f["ramsch"]:
            return deal
    if f["ramsch"]:
        deal["game"] = {"type": f["game"] or "ramsch", **({"pushes": f["pushes"]} if f["pushes"] else {})}
        outcome: dict = {"points": _per_seat(f["ramsch"], "ramsch", name)}
        if f["ramsch_tricks"]:
            outcome["tricks"] = _per_seat(f["ramsch_tricks"], "ramsch_tricks", name)
        if f["last_trick"]:
            outcome["last_trick"] = f["last_trick"]
        deal["outcome"] = outcome
        return deal
    for key in ("declarer", "bid", "game"):
        if f[key] is None:
            raise InputError(f"give {name(key)}", path=name(key))
    deal["declarer"] = f["declarer"]
    deal["bid"] = f["bid"]
    return _declared(deal, f, {"type": f["game"]}, name)


def _instead(deal: dict, f: dict, name: Namer) -> dict:
    """A grand hand declared instead of pushing (Schieberamsch, B4): all
    passed, so no bid; the declarer is whoever's turn it was after the
    pushes given (the ruleset checks a ``declarer`` given too)."""
    mixed = given(f, ("bid", "ramsch", "ramsch_tricks", "last_trick"), name)
    if mixed:
        raise InputError(f"a game instead of pushing is not bid (all passed): leave out {', '.join(mixed)}",
                         path=name("instead"))
    if f["passed"]:
        deal["bidding"] = ["pass", "pass", "pass"]
    if f["declarer"]:
        deal["declarer"] = f["declarer"]
    return _declared(deal, f, {"type": f["game"] or "grand", "hand": True, "pushes": f["pushes"]}, name)


def _declared(deal: dict, f: dict, game: dict, name: Namer) -> dict:
    """The declarer's game (announcements, calls) and its outcome."""
    for key in ("hand", "schneider", "schwarz", "ouvert"):
        if f[key]:
            game[key] = True
    decls = {c.casefold(): True for c in f["call"]}
    for kv in f["decl"]:
        key, sep, value = kv.partition("=")
        if not sep or not key:
            raise InputError(f"expected KEY=VALUE, got {shown(kv)}", path=name("decl"))
        decls[key] = read_yaml(f"{name('decl')} {key}", value)
    if decls:
        game["declarations"] = decls
    deal["game"] = game
    outcome = {}
    if f["points"] is not None:
        outcome["declarer_points"] = f["points"]
    if f["tricks"] is not None:
        outcome["declarer_tricks"] = f["tricks"]
    if f["matadors"]:
        outcome["matadors"] = _matadors(f["matadors"], name)
    if outcome:
        deal["outcome"] = outcome
    return deal


def _per_seat(text: str, field: str, name: Namer) -> dict[str, int]:
    try:
        values = [int(x) for x in text.split(",")]
    except ValueError:
        values = []
    if not all(_DIGITS.fullmatch(x.strip().lstrip("-")) for x in text.split(",")):  # ASCII digits only
        values = []
    if len(values) != 3:
        raise InputError(f"expected three numbers F,M,R, got {shown(text)}", path=name(field))
    return dict(zip(SEATS, values, strict=True))


def _matadors(text: str, name: Namer) -> dict:
    t = text.strip().lower().replace(" ", "")
    for prefix, key in (("without", "without"), ("with", "with"), ("ohne", "without"), ("mit", "with"), ("-", "without"),
                        ("+", "with"), ("", "with")):
        if t.startswith(prefix) and _DIGITS.fullmatch(t[len(prefix):]):
            return {key: int(t[len(prefix):])}
    raise InputError(f"expected with2, without3, +2 or -3 (mit 2, ohne 3), got {shown(text)}", path=name("matadors"))


# ---------------------------------------------------------------------------
# Entering it on a session
# ---------------------------------------------------------------------------


def resolve_names(deal: dict, session) -> dict:
    """Player names where the record wants seats (``declarer: Anna``), for
    the seats of the session's next deal; a name or seat in any case, a
    seat in German too (``anna``, ``Vorhand``)."""
    st = session.state
    seats = {st.players[i]: seat for seat, i in _seating(st).items()}
    deal = dict(deal)
    outcome = deal.get("outcome")
    if isinstance(outcome, dict):
        deal["outcome"] = outcome = dict(outcome)
    for path, where, key in (("declarer", deal, "declarer"), ("outcome.last_trick", outcome, "last_trick")):
        if not isinstance(where, dict) or not isinstance(who := where.get(key), str):
            continue
        who = _who(who, st.players)
        if who in st.players:
            if who not in seats:
                raise InputError(f"{who} deals and sits out this deal", path=path)
            who = seats[who]
        elif who not in SEATS:
            raise InputError(f"expected a player ({', '.join(st.players)}) or a seat ({', '.join(SEATS)}), "
                             f"got {shown(where[key])}", path=path)
        where[key] = who
    return deal


def _who(text: str, players) -> str:
    """A player or seat as typed, to its own spelling: exact first, then
    ignoring case (a player only if no other name matches so)."""
    if text in players or text in SEATS:
        return text
    folded = text.casefold()
    same = [p for p in players if p.casefold() == folded]
    if len(same) == 1:
        return same[0]
    return SEAT_NAMES.get(folded, folded if folded in SEATS else text)


def _seating(st) -> dict[str, int]:
    from skatcore.engine.table import people, seating

    return seating(len(st.players), st.dealer, people(st.rules))


def add_entry(session, deal: dict, raw: Mapping[str, Any] | None = None, *,
              name: Namer = _field) -> tuple[dict, SheetLine]:
    """Enter ``deal`` as the session's next deal; the record to store (player
    names resolved to seats) and its line on the sheet.  A refusal's path is inside the deal (``outcome.matadors``);
    with the ``raw`` fields the deal came from, it is in their words."""
    from skatcore.records.deal import as_deal_record

    st = session.state
    i = len(st.lines) + len(st.voided)
    try:
        deal = resolve_names(deal, session)
        as_deal_record(deal, "<deal>")
        return deal, session.add(deal, i)
    except InputError as exc:
        if exc.path and exc.path.startswith(f"deals[{i}]"):
            exc.path = exc.path[len(f"deals[{i}]"):].lstrip(".") or None
        raise (exc if raw is None else in_fields(exc, raw, name=name)) from None


# record paths (longest first) and the fields that give them
_FIELD_OF = {"outcome.declarer_points": "points", "outcome.declarer_tricks": "tricks", "outcome.matadors": "matadors",
             "outcome.points": "ramsch", "outcome.tricks": "ramsch_tricks", "outcome.last_trick": "last_trick",
             "game.pushes": "pushes", "game.type": "game", "declarer": "declarer", "bidding": "passed", "bid": "bid", "id": "id"}


def _words(name: Namer) -> list[tuple[str, str]]:
    """Record words in messages, and the fields that say them."""
    return [("outcome.matadors (or the hands and skat)", f"{name('matadors')} (with2, without3 ...)"), (" (or the `play`)", ""),
            ("outcome.points for every seat", f"{name('ramsch')} F,M,R"),
            ("outcome.tricks for every seat", f"{name('ramsch_tricks')} F,M,R"),
            ("outcome.last_trick", f"{name('last_trick')} (who took the last trick)"),
            *((word, name(field)) for word, field in _FIELD_OF.items() if "." in word),
            ("`declarer` (or the `bidding`)", name("declarer")), ("`declarer`", name("declarer"))]


def in_fields(exc: InputError, raw: Mapping[str, Any], *, name: Namer = _field) -> InputError:
    """An error about a deal entered from the fields ``raw`` in the words of
    those fields: the field for the record path, fields for record words in
    the message (``name`` renders a field)."""
    f = fields_of(raw, name)
    named, path, message = True, exc.path or "", exc.message
    if path == "game" and "all passed" in message and not f["ramsch"]:  # all passed and the ruleset plays on
        path, message = name("passed"), message.split(" then:")[0].removeprefix("all passed: ") + \
            f" on all pass: use {name('ramsch')} F,M,R (with {name('ramsch_tricks')} and {name('last_trick')})"
    elif path == "bidding":  # every deal a Ramsch
        path = name("passed")
        message += f": leave out {name('passed')}" if f["ramsch"] else f": use {name('ramsch')} F,M,R"
    elif path == "declarer" and f["ramsch"]:  # the game names a declarer's game
        path = name("game")
        message = (f"{f['game']} has a declarer: give {name('declarer')}, {name('bid')} and {name('points')}, "
                   f"not {name('ramsch')}")
    elif path.startswith("game.declarations."):
        key = path.split(".")[2]
        path = f"{name('call')} {key}" if key in f["call"] else f"{name('decl')} {key}"
    elif path == "game" and f["instead"]:  # what may be declared instead of pushing
        path = name("instead")
    elif path == "game":  # the game as a whole: what was announced, or the Ramsch
        path = ", ".join(given(f, ("hand", "schneider", "schwarz", "ouvert"), name)) or name("ramsch" if f["ramsch"] else "game")
    else:
        field = next((field for word, field in _FIELD_OF.items() if path == word or path.startswith((word + ".", word + "["))),
                     None)
        named, path = field is not None, name(field) if field else path
    if f["ramsch"] and path == name("game") and not f["game"]:
        path = name("ramsch")
    for word, said in _words(name):
        message = message.replace(word, said)
    return InputError(message, source=None if named else exc.source, path=path or None)
