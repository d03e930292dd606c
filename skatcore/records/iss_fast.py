"""Scoring ISS archives fast: a lean parser and a compiled replay of a batch
of games, the output equal to :func:`skatcore.records.iss.score_record`'s.

Replaying a game through :class:`~skatcore.engine.deal.Deal` costs ~40
Python method calls a game.  Here each line is split once into tags and
move codes, a batch of games is replayed by
:func:`~skatcore.records.iss_kernel.check_games` on the compiled engine's
tables, and only the finished game's facts go to the ruleset's scoring.
Any game the lean path does not cover - a line the parser does not take
apart the usual way, a move the kernel would have to refuse or does not model, a game
not scorable - is handed to :func:`~skatcore.records.iss.score_line` as
it is, so every message for a bad game stays its own.

The lean path needs a ruleset the compiled engine plays (32 cards, bidding,
no flow steps) that throws in when all pass; for another, every game goes
through ``Deal``.
"""

from __future__ import annotations

from operator import methodcaller
from typing import NamedTuple

import numpy as np

from skatcore.cards import CARD_NAMES
from skatcore.engine.scoring import make_facts
from skatcore.errors import InputError
from skatcore.model import SEATS, Declaration
from skatcore.records import iss_kernel as K
from skatcore.records.iss import (_CARD, _GAME, GAME_LETTERS, HIDDEN, IssRecord, _parse_result, ending, score_line,
                                  scored)

_CARD32 = {n: i for i, n in enumerate(CARD_NAMES[:32])}
_WHO = {"w": K.SERVER, "0": 0, "1": 1, "2": 2}
_TAGS = frozenset(("GM", "PC", "CO", "SE", "ID", "DT", "P0", "P1", "P2", "R0", "R1", "R2", "MV", "R"))
_SPLIT_TAG = methodcaller("split", "[", 1)
_CONCESSION = (None, "declarer", "defenders")
_GONE = ("timed out", "left")


class _Lean(NamedTuple):
    """A line taken apart for the kernel."""

    record: IssRecord
    deck: list[int]
    who: list[int]
    code: list[int]
    announced: tuple | None          # (Declaration as checked, contract index, null value, schwarz, picked up before)
    shown: tuple[int, int, int]      # the announcement's first two cards (-1: none), how many it shows
    discard: tuple[int, int]         # a discard given as a move of its own


class _Tables(NamedTuple):
    rules: object
    tokens: dict[str, int]           # move token -> code, for the tokens that need no parsing
    contracts: dict[str, int]        # contract name -> the engine tables' index
    arrays: tuple                    # the kernel's table arguments
    declarations: dict               # memo: (letter, flags, hand) -> announced without "picked up", or None


def _tables(rules) -> _Tables | None:
    """The lean path's tables for ``rules``, or None where every game goes through Deal."""
    if "iss_fast" not in rules.cache:
        rules.cache["iss_fast"] = _build(rules)
    return rules.cache["iss_fast"]


def _build(rules) -> _Tables | None:
    from skatcore.engine.compiled import Unsupported, engine_tables

    if rules.skip_bidding or rules.all_pass != "throw_in":
        return None
    try:
        t = engine_tables(rules)
    except Unsupported:
        return None
    ladder = t.arrays[1]
    tokens = {**_CARD32, "y": K.Y, "p": K.P, "s": K.S, "RE": K.RE, "SC": K.SC, HIDDEN: K.HIDDEN,
              **{f"TI.{s}": K.TI + s for s in range(3)}, **{f"LE.{s}": K.LE + s for s in range(3)},
              **{str(v): K.BID + int(v) for v in ladder}}
    return _Tables(rules, tokens, {c: i for i, c in enumerate(t.contracts)}, (ladder, *t.arrays[4:9]), {})


def score_lines(lines: list[str], rules) -> list[tuple[dict, str] | InputError]:
    """Every line's ``score_record(parse_sgf(line), rules)``, or the
    InputError it raises (without file and line: the caller adds them)."""
    t = _tables(rules)
    games = [_parse(line, t) for line in lines] if t is not None else [None] * len(lines)
    lean = [g for g in games if g is not None]
    outputs = _replay(lean, t) if lean else None
    out, j = [], 0
    for line, game in zip(lines, games):
        got = None
        if game is not None:
            got = _scored(game, outputs, j, rules)
            j += 1
        out.append(got if got is not None else score_line(line, rules))
    return out


# -- parsing --------------------------------------------------------------------


def _parse(line: str, t: _Tables) -> _Lean | None:
    """``line`` taken apart as ``parse_sgf`` would, or None for anything unusual."""
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
        mv, result = tags["MV"], tags["R"]
        record = IssRecord(tags["ID"], (tags["P0"], tags["P1"], tags["P2"]), (), (), [], result, tags=tags)
    except KeyError:
        return None
    words = mv.split()
    if len(words) % 2 or len(words) < 2 or words[0] != "w":
        return None
    deck = [_CARD32.get(c, -1) for c in words[1].split(".")]
    if len(deck) != 32 or -1 in deck or len(set(deck)) != 32:
        return None
    try:
        _parse_result(record, result)
        who = [_WHO[w] for w in words[2::2]]
    except (InputError, KeyError):
        return None
    tokens = words[3::2]
    code = [t.tokens.get(tok, -1) for tok in tokens]
    announced, shown, discard = None, (-1, -1, 0), (-1, -1)
    k = -1
    while -1 in code:
        k = code.index(-1, k + 1)
        special = _special(tokens[k], who[k], deck, code, k, t)
        if special is None:
            return None
        code[k], what = special
        if code[k] == K.ANNOUNCE:
            if announced is not None:
                return None
            announced, shown = what
        elif code[k] == K.DISCARD:
            if discard != (-1, -1):
                return None
            discard = what
    record.hands, record.skat = (tuple(deck[0:10]), tuple(deck[10:20]), tuple(deck[20:30])), (deck[30], deck[31])
    return _Lean(record, deck, who, code, announced, shown, discard)


def _special(tok: str, who: int, deck: list[int], code: list[int], k: int, t: _Tables):
    """A move the token table does not hold, read as ``iss._step`` reads it:
    ``(code, what)``, or None where the lean path stops."""
    if tok.startswith("SC."):
        return K.SC, None
    parts = tok.split(".")
    if who == K.SERVER:  # the skat shown to the declarer; anything else is the replay's to judge
        if len(parts) == 2 and all(p in _CARD32 or p == HIDDEN for p in parts) and \
                (HIDDEN in parts or sorted(_CARD32[p] for p in parts) == sorted(deck[30:32])):
            return K.SHOWN, None
        return None
    if len(parts) > 1 and all(p in _CARD for p in parts):  # the discard, after the announcement
        return K.DISCARD, (_CARD[parts[0]], _CARD[parts[1]])
    m = _GAME.fullmatch(tok)
    if m is None:
        return None
    letter, flags, cards = m.groups()
    cards = cards.split(".") if cards else []
    if not all(p in _CARD for p in cards):
        return None
    picked = K.S in code[:k]
    ouvert = "O" in flags
    hand = "H" in flags or not picked or (ouvert and letter != "N")
    if hand == picked:
        return None  # a hand game after picking up the skat
    key = (letter, flags, hand)
    if key not in t.declarations:
        t.declarations[key] = _declaration(t, GAME_LETTERS[letter], hand, "S" in flags, "Z" in flags, ouvert)
    announced = t.declarations[key]
    if announced is None:
        return None
    first = [_CARD[p] for p in cards[:2]] + [-1, -1]
    return K.ANNOUNCE, ((*announced, picked), (first[0], first[1], len(cards)))


def _declaration(t: _Tables, game: str, hand: bool, schneider: bool, schwarz: bool, ouvert: bool):
    """(the declaration as checked, contract index, null value, schwarz), or
    None where the ruleset refuses it; a null game's value is checked against
    the bid in the kernel."""
    if game not in t.contracts:
        return None
    rules = t.rules
    try:
        d = rules.check_declaration(Declaration(game, hand, schneider, schwarz, ouvert), 0)
    except InputError:
        return None
    contract = rules.contracts[game]
    return d, t.contracts[game], contract.fixed[(d.hand, d.ouvert)] if contract.no_trick else 0, d.schwarz


# -- replay and score -------------------------------------------------------------


def _replay(games: list[_Lean], t: _Tables) -> dict:
    """The kernel over ``games``: its outputs by name."""
    n = len(games)
    i64 = np.int64
    starts = np.zeros(n + 1, i64)
    np.cumsum([len(g.code) for g in games], out=starts[1:])
    flat_who, flat_code = [], []
    for g in games:
        flat_who += g.who
        flat_code += g.code
    announced = [g.announced or (None, -1, 0, False, False) for g in games]
    out = {"status": np.zeros(n, i64), "declarer": np.zeros(n, i64), "bid": np.zeros(n, i64),
           "concession": np.zeros(n, i64), "points": np.zeros(n, i64), "dtricks": np.zeros(n, i64),
           "ftricks": np.zeros(n, i64), "held": np.zeros(n, i64), "resigned": np.zeros((n, 4), i64),
           "n_resigned": np.zeros(n, i64), "claim_stands": np.zeros(n, np.bool_), "gone": np.zeros(n, i64)}
    K.check_games(n, np.array([g.deck for g in games], i64), starts, np.array(flat_who, i64), np.array(flat_code, i64),
                  np.array([g.shown[:2] for g in games], i64), np.array([g.shown[2] for g in games], i64),
                  np.array([g.discard for g in games], i64), np.array([a[4] for a in announced], np.bool_),
                  np.array([a[1] for a in announced], i64), np.array([a[2] for a in announced], i64),
                  np.array([a[3] for a in announced], np.bool_), *t.arrays, *out.values())
    return {k: v.tolist() for k, v in out.items()}


def _scored(game: _Lean, o: dict, j: int, rules) -> tuple[dict, str] | None:
    """Game ``j``'s output from the kernel's, or None where it fell back."""
    if o["status"][j] != K.OK:
        return None
    decl = o["declarer"][j]
    if decl < 0:
        return scored(game.record, rules, None, "", None)
    d = game.announced[0]
    contract = rules.contracts[d.game]
    facts = make_facts(rules, contract, d, bid=o["bid"][j], declarer=decl, matadors=rules.tricks[d.game].matadors(o["held"][j]),
                       declarer_points=o["points"][j], declarer_tricks=o["dtricks"][j], defender_tricks=o["ftricks"][j])
    gone = o["gone"][j]
    how = ending(f"{SEATS[gone // 2]} {_GONE[gone % 2]}" if gone >= 0 else "",
                 o["resigned"][j][:o["n_resigned"][j]], o["claim_stands"][j])
    return scored(game.record, rules, facts, how, _CONCESSION[o["concession"][j]])
