"""Which facts a plugin's scoring reads: the proof behind every score table.

The compiled engines (:mod:`skatcore.engine.compiled`, the compiled
heuristic, the compiled ISS replay) do not score deal by deal: they ask the
ruleset's scoring once per *key* (the declaration, matadors, which side of
the win and schneider lines the declarer's points fall, schwarz; for sheet
entries also the bid and the declarer) and look the answer up.  That is
right only where the answer depends on nothing outside the key.  A plugin's
function may read anything of the :class:`~skatcore.model.GameFacts` - the
last trick, the exact card points - so each key is scored once on
*recording* facts (:func:`recording`), which note every field a plugin's
code reads.  A key whose scoring read a field outside the key, or raised,
is not tabulated: its deals are scored on their own facts (:class:`Reads`).
One sample per key is enough: a function that reads only the key answers
alike for every deal of it.

Only reads from a plugin's code count: the core's own scoring
(:mod:`skatcore.engine.scoring`) reads the bid and the card points for the
overbid test and the explanation, which the tables handle themselves.  A
function must answer from the facts alone (no clock, no random, no state
kept between calls): that is what docs/hooks.md asks of every scoring hook.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field

from skatcore.model import GameFacts, ScoreResult

#: what every score table keys on: the declaration (contract and declarations),
#: the matadors, the card-point class (win and schneider lines) and schwarz
VALUE_KEY = frozenset({"contract", "declaration", "matadors", "made_points", "defenders_schneider",
                       "declarer_schneider", "defenders_schwarz", "declarer_schwarz", "seats", "thresholds"})
#: the sheet entries' tables key on the bid and the declarer's seat too
SHEET_KEY = VALUE_KEY | {"bid", "declarer"}
_SHEET_FIELDS = tuple(sorted(SHEET_KEY))
#: the fields a summary of a game (a score sheet line, an ISS result) does not have
PLAY_FIELDS = frozenset({"last_trick", "last_trick_winner", "tricks", "skat"})
#: the result's fields a sheet-entries hook leaves the key by reading (the others
#: follow from the key; the explanation is text to extend, never to decide by)
RESULT_OUTSIDE = frozenset({"declarer_points"})

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the skatcore package
_CORE_FILES = frozenset(os.path.normcase(os.path.join(_ROOT, *f.split("/")))
                        for f in ("engine/scoring.py", "engine/probe.py", "engine/card_points.py", "rules/compiler.py"))
_EVERYTHING = "*"  # vars(), dataclasses.replace and asdict read every field


@dataclass
class Reads:
    """Fields of the facts (and of the result, for sheet entries) that
    plugin code read, each with where it was first read (``file:line``);
    ``phase`` is ``score`` (multiplier items, win conditions) or ``sheet``
    (the sheet-entries hook)."""

    score: dict[str, str] = field(default_factory=dict)
    sheet: dict[str, str] = field(default_factory=dict)
    result: dict[str, str] = field(default_factory=dict)
    phase: str = "score"
    tabled: bool = False  # the facts' card points are a table's: the card-point rules are not asked (card_table)

    def note(self, name: str, frame, of_result: bool = False) -> None:
        """``name`` read by the code of ``frame`` (nothing if that is the core's)."""
        book = self.result if of_result else self.sheet if self.phase == "sheet" else self.score
        if name not in book:
            where = _plugin_file(frame.f_code)
            if where is not None:
                book[name] = f"{where}:{frame.f_lineno}"

    def outside(self, key: frozenset[str], sheet: bool) -> dict[str, str]:
        """The reads outside ``key`` (with ``sheet``: the sheet hook's too)."""
        got = {n: w for n, w in self.score.items() if n not in key}
        if sheet:
            got.update({n: w for n, w in self.sheet.items() if n not in key})
            got.update({f"result.{n}": w for n, w in self.result.items() if n in RESULT_OUTSIDE or n == _EVERYTHING})
        return got


_PLUGIN_FILE: dict = {}  # code object -> its file's name, None for the core's own code


def _plugin_file(code) -> str | None:
    got = _PLUGIN_FILE.get(code, False)
    if got is False:
        path = os.path.normcase(os.path.abspath(code.co_filename))
        got = _PLUGIN_FILE[code] = None if path in _CORE_FILES else os.path.basename(code.co_filename)
    return got


def _recording_class(base: type, of_result: bool) -> type:
    """``base`` (a dataclass) whose instances note into their ``_reads``
    every field plugin code reads (vars(), dataclasses.replace and asdict
    read ``__dict__``: every field)."""
    fields = {**{n: n for n in base.__dataclass_fields__}, "__dict__": _EVERYTHING}

    def __getattribute__(self, name):
        n = fields.get(name)
        if n is not None:
            reads = object.__getattribute__(self, "__dict__").get("_reads")
            if reads is not None:
                reads.note(n, sys._getframe(1), of_result)
        return object.__getattribute__(self, name)

    return type(f"Recording{base.__name__}", (base,), {"__getattribute__": __getattribute__,
                                                        "__doc__": f"{base.__name__} noting what plugin code reads."})


_RecordingFacts = _recording_class(GameFacts, of_result=False)
_RecordingResult = _recording_class(ScoreResult, of_result=True)  # handed to skat_sheet_entries of recording facts


def recording(facts: GameFacts, reads: Reads) -> GameFacts:
    """A copy of ``facts`` that notes into ``reads`` what plugin code reads."""
    copy = _RecordingFacts(**{f: object.__getattribute__(facts, f) for f in GameFacts.__dataclass_fields__})
    object.__setattr__(copy, "_reads", reads)
    return copy


def replaced(facts: GameFacts, **changes) -> GameFacts:
    """``facts`` with ``changes`` (as ``dataclasses.replace``), recording
    into the same reads where ``facts`` are recording; reading the fields
    here notes nothing."""
    fields = {f: object.__getattribute__(facts, f) for f in GameFacts.__dataclass_fields__}
    new = GameFacts(**{**fields, **changes})
    return recording(new, object.__getattribute__(facts, "_reads")) if type(facts) is _RecordingFacts else new


def note(facts, name: str, fn) -> None:
    """Where ``facts`` are recording: field ``name`` read by the code of
    ``fn``, a plugin's function the core reads it for (a card-point rule
    asked once per trick reads the tricks)."""
    if type(facts) is not _RecordingFacts:
        return
    reads = object.__getattribute__(facts, "_reads")
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    if code is not None and name not in reads.score:
        reads.score[name] = f"{os.path.basename(code.co_filename)}:{code.co_firstlineno}"


def tabled(facts) -> bool:
    """Whether ``facts`` are recording for a table that holds the house
    rules' card points itself (:mod:`skatcore.engine.card_table`): their
    ``declarer_points`` are the class's, the rules are not asked."""
    return type(facts) is _RecordingFacts and object.__getattribute__(facts, "_reads").tabled


def watch(result: ScoreResult, facts) -> bool:
    """Before the sheet-entries hook: where ``facts`` are recording, note
    the hook's reads as the ``sheet`` phase, and its reads of ``result``
    too, until :func:`unwatch`.  False (nothing to undo) for plain facts."""
    if type(facts) is not _RecordingFacts:
        return False
    reads = object.__getattribute__(facts, "_reads")
    reads.phase = "sheet"
    result.__class__ = _RecordingResult
    result.__dict__["_reads"] = reads
    return True


def unwatch(result: ScoreResult) -> None:
    """``result`` a plain ScoreResult again."""
    result.__class__ = ScoreResult
    result.__dict__.pop("_reads", None)


def play_read(rules, facts: GameFacts) -> tuple[object, dict[str, str]]:
    """``rules.score(facts)`` of facts without the play (a summary), and
    what of the play (:data:`PLAY_FIELDS`) plugin code read to get it: where
    it read any, the score is not to be trusted.  An error is the result.

    A key whose scoring read nothing but the key's fields reads the same for
    every summary of that key: remembered per ruleset, such summaries are
    scored on plain facts."""
    key = _summary_key(facts)
    clean = rules.cache.setdefault("summary_keys_clean", set())
    try:
        if key is not None and key in clean:
            return rules.score(facts), {}
        reads = Reads()
        result = rules.score(recording(facts, reads))
    except Exception as exc:
        return exc, {}
    read = {**reads.score, **reads.sheet}
    if key is not None and not reads.outside(SHEET_KEY, sheet=True):
        clean.add(key)
    return result, {n: w for n, w in read.items() if n in PLAY_FIELDS or n == _EVERYTHING}


def _summary_key(facts: GameFacts) -> tuple | None:
    """The fields of :data:`SHEET_KEY` as a hashable tuple (None if a declaration's value is not hashable)."""
    d = facts.declaration
    flat = {"contract": facts.contract.name,
            "declaration": (d.game, d.hand, d.schneider, d.schwarz, d.ouvert, tuple(sorted(d.declarations.items())))}
    key = tuple(flat[f] if f in flat else object.__getattribute__(facts, f) for f in _SHEET_FIELDS)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def reads_play(rules, facts: GameFacts) -> bool:
    """Whether scoring ``facts`` reads the play (the tricks), which a
    summary of a game does not have; an error counts as reading it."""
    result, read = play_read(rules, facts)
    return bool(read) or isinstance(result, Exception)


def describe(outside: dict[str, str]) -> str:
    """``reads last_trick_winner (lasttrick.py:12)`` for a reason line."""
    name, where = next(iter(outside.items()))
    what = "every field" if name.endswith(_EVERYTHING) else name
    more = f" and {len(outside) - 1} more field{'s' if len(outside) > 2 else ''}" if len(outside) > 1 else ""
    return f"reads {what} ({where}){more}"
