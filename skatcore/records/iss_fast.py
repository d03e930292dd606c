"""Scoring ISS archives fast: a lean parser and a compiled replay of a batch
of games, the output equal to :func:`skatcore.records.iss.score_record`'s.

Replaying a game through :class:`~skatcore.engine.deal.Deal` costs ~40
Python method calls a game.  Here each line is split once into its tags,
the moves' text of a batch of games is read and replayed by
:func:`~skatcore.records.iss_kernel.check_games` on the compiled engine's
tables, and only the finished game's facts go to the ruleset's scoring.
Any game the lean path does not cover - a line the parser does not take
apart the usual way, a move the kernel would have to refuse or does not model, a game
not scorable - is handed to :func:`~skatcore.records.iss.score_line` as
it is, so every message for a bad game stays its own.

The lean path needs a ruleset the compiled engine plays (32 cards, bidding,
no flow steps) that throws in when all pass; for another, every game goes
through ``Deal``.  Where a plugin decides trick winners, the kernel reads
its table (:mod:`skatcore.engine.trick_table`); a game whose record goes on
from a trick the plugin gave another seat, or that ends before its last
trick, goes through ``Deal``, which says why it cannot be scored.  The facts scored here have no tricks: a game whose
scoring reads them (a house rule about the last trick,
:func:`skatcore.engine.probe.reads_play`) goes through ``Deal`` too, which
refuses it where the record ends before the last trick
(:mod:`skatcore.records.holds`): the two paths cannot differ there.  Under
house rules that count card points (``skat_card_points``) the kernel keeps
the play, and a game played to its last trick is scored on facts with its
tricks and skat as ``Deal`` gives them (the rules and the explanation's
items as there); a game that ended before goes through ``Deal``.
"""

from __future__ import annotations

from operator import methodcaller
from typing import NamedTuple

import numpy as np

from skatcore.engine.probe import reads_play
from skatcore.engine.scoring import make_facts
from skatcore.errors import InputError
from skatcore.model import SEATS, Declaration, Trick
from skatcore.records import iss_kernel as K
from skatcore.records.iss import (
    GAME_LETTERS,
    IssRecord,
    _parse_result,
    ending,
    gone_early,
    not_scorable,
    score_line,
    scored,
)

_TAGS = frozenset(("GM", "PC", "CO", "SE", "ID", "DT", "P0", "P1", "P2", "R0", "R1", "R2", "MV", "R"))
_SPLIT_TAG = methodcaller("split", "[", 1)
_CONCESSION = (None, "declarer", "defenders")
_GONE = ("timed out", "left")
_OUTPUTS = ("status", "declarer", "bid", "declared", "concession", "points", "dtricks", "ftricks", "held",
            "resigned", "n_resigned", "claim_stands", "gone", "played", "takers", "skat")
_WIDE = {"resigned": 4, "played": 30, "takers": 10}  # outputs of a row per game


class _Tables(NamedTuple):
    arrays: tuple          # the kernel's table arguments
    declarations: list     # by the kernel's announcement key: the declaration as checked, or None
    probe: bool            # whether a game's scoring may read the play (then such a game goes through Deal)
    play: bool = False     # the facts carry the play (house rules' card points read it, as in Deal)


def _tables(rules) -> _Tables | None:
    """The lean path's tables for ``rules``, or None where every game goes through Deal."""
    if "iss_fast" not in rules.cache:
        rules.cache["iss_fast"] = _build(rules)
    return rules.cache["iss_fast"]


def _build(rules) -> _Tables | None:
    from skatcore.engine.compiled import TRICK_ARRAYS, Unsupported, engine_tables

    if rules.skip_bidding or rules.all_pass != "throw_in":
        return None
    try:
        t = engine_tables(rules)
    except Unsupported:
        return None
    contracts = {c: i for i, c in enumerate(t.contracts)}
    declared, table = [], []
    for letter in K.LETTERS.decode():
        for flags in range(16):
            for hand in (False, True):  # O, S, Z: the flags' bits 1, 4, 8 (H is in `hand`)
                d = _declaration(rules, GAME_LETTERS[letter], hand, bool(flags & 1), bool(flags & 4), bool(flags & 8))
                declared.append(d)
                if d is None:
                    table.append((-1, 0, 0))
                    continue
                contract = rules.contracts[d.game]
                table.append((contracts[d.game], contract.fixed[(d.hand, d.ouvert)] if contract.no_trick else 0, d.schwarz))
    # the facts here have no tricks: where a plugin's scoring might read them (it did for some key of the
    # compiled tables, a sheet hook is there, or a declaration the tables never asked about), each game is checked
    probe = bool(t.why) or t.sheet or any(d is not None and d not in t.options for d in declared)
    return _Tables((np.array(table, np.int64), t.arrays[1], *t.arrays[4:9], *t.arrays[TRICK_ARRAYS]), declared, probe,
                   bool(rules.card_points))


def _declaration(rules, game: str, hand: bool, ouvert: bool, schneider: bool, schwarz: bool):
    """An announcement as ``iss._announce`` makes it and the ruleset checks
    it (at bid 0: a null game's value is checked against the bid in the
    kernel), or None where the ruleset refuses it."""
    try:
        return rules.check_declaration(Declaration(game, hand, schneider, schwarz, ouvert), 0)
    except InputError:
        return None


def score_lines(lines: list[str], rules) -> list[tuple[dict, str] | InputError]:
    """Every line's ``score_record(parse_sgf(line), rules)``, or the
    InputError it raises (without file and line: the caller adds them)."""
    t = _tables(rules)
    games = [_parse(line) for line in lines] if t is not None else [None] * len(lines)
    lean = [g for g in games if g is not None]
    outputs = _replay(lean, t) if lean else None
    out, j = [], 0
    for line, game in zip(lines, games, strict=True):
        got = None
        if game is not None:
            got = _scored(game[0], outputs, j, rules, t)
            j += 1
        out.append(got if got is not None else score_line(line, rules))
    return out


def _parse(line: str) -> tuple[IssRecord, bytes] | None:
    """The record of ``line`` without its moves, and the moves' ASCII text,
    as ``parse_sgf`` reads them; None for anything unusual."""
    text = line.strip()
    if not (text.startswith("(;") and text.endswith(";)")):
        return None
    try:  # the tags as _TAG.findall finds them, while every piece is KEY[value
        tags = dict(map(_SPLIT_TAG, text[2:-2].split("]")[:-1]))
    except ValueError:
        return None
    if not _TAGS.issuperset(tags):
        return None
    try:
        record = IssRecord(tags["ID"], (tags["P0"], tags["P1"], tags["P2"]), (), (), [], tags["R"], tags=tags)
        _parse_result(record, tags["R"])
        return record, tags["MV"].encode("ascii")
    except (KeyError, InputError, UnicodeEncodeError):
        return None


def _replay(games: list, t: _Tables) -> dict:
    """The kernel over ``games``: its outputs by name, as lists."""
    n = len(games)
    text = b"".join(mv for _, mv in games)
    starts = np.zeros(n + 1, np.int64)
    np.cumsum([len(mv) for _, mv in games], out=starts[1:])
    out = {k: np.zeros((n, _WIDE[k] if t.play or k == "resigned" else 0) if k in _WIDE else n, np.int64)
           for k in _OUTPUTS}
    K.check_games(n, np.frombuffer(text, np.uint8).astype(np.int64), starts, *t.arrays, *out.values())
    return {k: v.tolist() for k, v in out.items()}


def _play(o: dict, j: int) -> dict:
    """Game ``j``'s play as ``DealFacts.facts`` gives it: the tricks taken, the last one, the skat (lowest first)."""
    tricks, leader, cards = [], 0, o["played"][j]
    for k, w in enumerate(o["takers"][j]):
        if w < 0:
            break
        tricks.append(Trick(leader, cards[3 * k:3 * k + 3], w))
        leader = w
    skat = o["skat"][j]
    return {"tricks": tuple(tricks), "last_trick": tuple(tricks[-1].cards) if tricks else (),
            "last_trick_winner": tricks[-1].winner if tricks else None, "skat": tuple(c for c in range(32) if skat >> c & 1)}


def _scored(record: IssRecord, o: dict, j: int, rules, t: _Tables) -> tuple[dict, str] | None:
    """Game ``j``'s output from the kernel's, or None where it fell back."""
    status = o["status"][j]
    if status != K.OK:
        if status == K.FALLBACK:
            return None
        gone = o["gone"][j]
        return not_scorable(record, gone_early(gone // 2, _GONE[gone % 2], status == K.GONE_BIDDING))
    decl = o["declarer"][j]
    if decl < 0:
        return scored(record, rules, None, "", None)
    d = t.declarations[o["declared"][j]]
    play = _play(o, j) if t.play else {}
    facts = make_facts(rules, rules.contracts[d.game], d, bid=o["bid"][j], declarer=decl,
                       matadors=rules.tricks[d.game].matadors(o["held"][j]), declarer_points=o["points"][j],
                       declarer_tricks=o["dtricks"][j], defender_tricks=o["ftricks"][j], **play)
    if t.play and o["concession"][j]:
        return None  # ended before its last trick: Deal says whether the house rules' card points can be counted
    if t.probe and not t.play and reads_play(rules, facts):
        return None
    gone = o["gone"][j]
    how = ending(f"{SEATS[gone // 2]} {_GONE[gone % 2]}" if gone >= 0 else "",
                 o["resigned"][j][:o["n_resigned"][j]], o["claim_stands"][j])
    return scored(record, rules, facts, how, _CONCESSION[o["concession"][j]])
