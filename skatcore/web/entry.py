"""The deal form of ``skat serve``: what it offers for a ruleset and the
deal at hand, and the fields of ``skat sheet add`` it sends.

The form shows only what the chosen game needs (CSS on the game chips), but
a browser posts every checked input, seen or not; :func:`fields_of_form`
therefore keeps, per game, exactly the fields that game has - a Ramsch never
sends a bid the scorer could not see.  The rest is
:mod:`skatcore.records.sheet_entry`, the CLI's own fields and messages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from skatcore.model import SEATS

#: the game chips: symbol and the word a German table says (the page's language picks)
SYMBOLS = {"clubs": "♣", "spades": "♠", "hearts": "♥", "diamonds": "♦", "grand": "G", "null": "N", "ramsch": "R"}
GAME_WORDS = {"clubs": "Clubs", "spades": "Spades", "hearts": "Hearts", "diamonds": "Diamonds", "grand": "Grand",
              "null": "Null", "ramsch": "Ramsch"}
MATADORS = [f"{kind}{n}" for kind in ("with", "without") for n in range(1, 5)]
MORE_MATADORS = [f"{kind}{n}" for kind in ("with", "without") for n in range(5, 12)]
PUSHES = ("seen", "blind", "pass")  # the first is what a player does unless the scorer says otherwise
_DECLARED = ("declarer", "bid", "hand", "schneider", "schwarz", "ouvert", "call", "decl")


@dataclass
class Offer:
    """What the form offers for one deal of one ruleset."""

    games: list[str]  # contracts with a declarer, in the ruleset's order
    ramsch: bool  # a Ramsch can be entered (on all pass, a Ramsch round, every deal)
    thrown_in: bool  # all pass throws the deal in (no Ramsch)
    ramsch_only: bool  # this deal is a Ramsch (every deal, or a Ramsch round): nothing is bid
    instead: bool  # a grand hand may be declared instead of pushing
    pushes: tuple[str, ...]  # the pushes a player may make (empty: no pushing)
    ladder: tuple[int, ...]  # the bids; empty: nothing is bid
    calls: list[str]
    declarations: list[tuple[str, list[str]]]  # plugin declarations with their choices
    flags: list[str]  # plugin declarations said or not (Spitze), sent as calls
    tricks: int  # tricks in a deal (schwarz: all of them)


def offer(rules, bidding: bool = True) -> Offer:
    """The form for ``rules``; ``bidding`` false: the deal is a Ramsch-round deal."""
    games = [c.name for c in rules.contracts.values() if c.declarer]
    ramsch = any(c.family == "ramsch" and not c.declarer for c in rules.contracts.values())
    step = next((s for s in rules.steps_at.get("all_passed", ()) if hasattr(s, "blind")), None)
    pushes = () if step is None else ("seen", *(("blind",) if step.blind else ()), *(("pass",) if step.decline else ()))
    specs = {key: spec for key, spec in (rules.declarations or {}).items() if isinstance(spec, dict)}
    declarations = [(key, [str(v) for v in spec["enum"]]) for key, spec in specs.items() if isinstance(spec.get("enum"), list)]
    flags = [key for key, spec in specs.items() if key not in rules.calls and "boolean" in _types(spec)]
    ramsch_only = ramsch and (not games or not bidding or rules.skip_bidding)
    return Offer(games=games, ramsch=ramsch, thrown_in=not ramsch and rules.all_pass == "throw_in", ramsch_only=ramsch_only,
                 instead=bool(pushes) and "grand" in games, pushes=pushes if ramsch else (),
                 ladder=() if rules.skip_bidding else tuple(rules.ladder), calls=list(rules.calls),
                 declarations=declarations, flags=flags, tricks=rules.deck.hand)


def _types(spec: dict) -> list:
    kind = spec.get("type")
    return kind if isinstance(kind, list) else [kind]


def fields_of_form(form, seats: Mapping[str, str], tricks: int = 10) -> dict:
    """The ``skat sheet add`` fields of a posted deal form, only those its
    game has.  ``seats``: player -> seat of the deal (an instead declarer's
    place in the pushing order); ``tricks``: a deal's tricks (schwarz)."""
    if _last(form, "game") in ("ramsch", "instead"):  # fields by seat: the seats of the deal as it is now
        form = in_seats_now(form, seats)
    one = {key: _last(form, key) for key in ("id", "game", "declarer", "bid", "points", "matadors", "matadors_more",
                                              "null_tricks", "all_tricks", "last_trick")}
    game = one["game"]
    raw: dict = {"id": one["id"]} if one["id"] else {}
    if game == "passed":
        return {**raw, "passed": "on"}
    if game == "ramsch":
        raw["game"] = "ramsch"
        for field, per_seat in (("ramsch", "ramsch_seat"), ("ramsch_tricks", "ramsch_trick_seat")):
            values = [str(v).strip() for v in form.getlist(per_seat)][:3]
            if any(values):
                raw[field] = ",".join(values)
        if one["last_trick"]:
            raw["last_trick"] = one["last_trick"]
        pushes = _pushes(form, SEATS)
        if any(p != PUSHES[0] for p in pushes):
            raw["pushes"] = pushes
        return raw
    if game is None:
        return raw
    instead = game == "instead"
    raw["game"] = "grand" if instead else game
    for key in _DECLARED:
        values = [v for v in form.getlist(key) if isinstance(v, str) and v.strip() and not v.endswith("=")]  # key=: not declared
        if key in ("call", "decl"):
            raw[key] = values
        elif values:
            raw[key] = values[-1]
    if instead:
        raw["instead"] = "on"
        raw.pop("bid", None)
        seat = seats.get(str(raw.get("declarer")), None)
        raw["pushes"] = _pushes(form, SEATS[:SEATS.index(seat)] if seat in SEATS else ())
    if game == "null":
        if one["null_tricks"]:
            raw["tricks"] = one["null_tricks"]
        return raw
    if one["points"]:
        raw["points"] = one["points"]
    if one["matadors_more"] or one["matadors"]:
        raw["matadors"] = one["matadors_more"] or one["matadors"]
    if one["all_tricks"] == "all":
        raw["tricks"] = str(tricks)
    elif one["all_tricks"] == "none":
        raw["tricks"] = "0"
    return raw


def in_seats_now(form, seats: Mapping[str, str]):
    """The form's fields by seat (a Ramsch's numbers, the last trick, the pushes) moved to the seats of the deal
    as it is now.  The form names the player of each seat as it was drawn (``seat_who``, ``forehand=Ben``); another
    phone's deal saved since has moved the seats on, and each row's numbers are the player's it names.  A row of a
    player who deals now (a table of four) is refused: the form is of another deal."""
    from skatcore.errors import InputError, shorten

    drawn = [(seat, who) for seat, _, who in (v.partition("=") for v in form.getlist("seat_who") if isinstance(v, str))
             if seat in SEATS]
    for _, who in drawn:
        if who not in seats:
            raise InputError(f"{shorten(who, 40)} deals and sits out this deal", path="ramsch")
    if len({seat for seat, _ in drawn}) != len(drawn) or len({who for _, who in drawn}) != len(drawn):
        raise InputError("expected each seat and each player once", path="ramsch")
    now = {seat: seats[who] for seat, who in drawn}
    if all(seat == moved for seat, moved in now.items()):
        return form
    return _Moved(form, [seat for seat, _ in drawn], now)


class _Moved:
    """A posted form read in the seats of now (:func:`in_seats_now`): only ``getlist``, what :func:`fields_of_form` reads."""

    def __init__(self, form, rows: list[str], now: dict[str, str]):
        self.form, self.rows, self.now = form, rows, now
        self.back = {moved: seat for seat, moved in now.items()}  # a seat of now -> the seat the form drew it as

    def getlist(self, key: str) -> list:
        if key in ("ramsch_seat", "ramsch_trick_seat"):  # one value per row, rows in the order drawn
            by_row = dict(zip(self.rows, self.form.getlist(key), strict=False))
            return [by_row.get(self.back.get(seat, ""), "") for seat in SEATS]
        if key == "last_trick":
            return [self.now.get(v, v) if isinstance(v, str) else v for v in self.form.getlist(key)]
        if key.startswith("push_") and key[5:] in SEATS:
            return self.form.getlist(f"push_{self.back.get(key[5:], key[5:])}")
        return self.form.getlist(key)


def missing(raw: Mapping) -> list[str]:
    """What the scorer has still to enter for the game chosen (field names), before any count can be shown."""
    game = raw.get("game")
    if raw.get("passed"):
        return []
    if game is None:
        return ["game"]
    if game == "ramsch":
        return [f for f in ("ramsch", "ramsch_tricks", "last_trick") if not raw.get(f) or ("," in raw[f] and
                "" in raw[f].split(","))]
    needed = ["declarer"] + (["tricks"] if game == "null" else ["matadors", "points"])
    return [f for f in needed if not raw.get(f)]


def _last(form, key: str) -> str | None:
    values = [v.strip() for v in form.getlist(key) if isinstance(v, str) and v.strip()]
    return values[-1] if values else None


def _pushes(form, seats) -> list[str]:
    """Each seat's push in turn (seen unless the scorer said blind or declined)."""
    return [(_last(form, f"push_{seat}") or PUSHES[0]) for seat in seats]


def values_of_record(record: dict, declarer: str | None) -> dict:
    """The form's values of a stored deal: a correction starts from them."""
    game, outcome = record.get("game") or {}, record.get("outcome") or {}
    kind = game.get("type") or ("passed" if record.get("bidding") else None)
    if kind == "grand" and game.get("pushes") is not None and not record.get("bid"):
        kind = "instead"
    values: dict = {"declarer": declarer, "bid": record.get("bid"), "game": kind,
                    "points": outcome.get("declarer_points"),
                    **{k: bool(game.get(k)) for k in ("hand", "schneider", "schwarz", "ouvert")},
                    "call": [k for k, v in (game.get("declarations") or {}).items() if v is True],
                    "decl": [f"{k}={v}" for k, v in (game.get("declarations") or {}).items() if v is not True]}
    tricks = outcome.get("declarer_tricks")
    if kind == "null" and tricks is not None:
        values["null_tricks"] = "0" if tricks == 0 else "1"
    elif tricks is not None:
        values["all_tricks"] = "none" if tricks == 0 else "all" if outcome.get("declarer_points") == 120 else None
    m = outcome.get("matadors") or {}
    if m:
        key = next(iter(m))
        values["matadors"] = f"{key}{m[key]}"
    for key, field in (("points", "ramsch_seat"), ("tricks", "ramsch_trick_seat")):
        if isinstance(outcome.get(key), dict):
            values[field] = [outcome[key].get(s) for s in SEATS]
    if outcome.get("last_trick") in SEATS:
        values["last_trick"] = outcome["last_trick"]
    values["pushes"] = dict(zip(SEATS, game.get("pushes") or (), strict=False))
    return values
