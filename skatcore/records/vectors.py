"""Plain-text test vectors: one YAML file of scored deals per ruleset.

A vector file (``tests/vectors/<ruleset>.yaml``) is a list of cases.  Each
case is a ``skat-deal/1`` record (docs/formats.md#deal-record; ``format`` may be left out)
plus two keys of its own::

    - name: "A8 spades with 2, hand, schneider: 11 x 5 = 55"
      declarer: forehand
      bid: 18
      game: {type: spades, hand: true}
      outcome: {declarer_points: 95, matadors: {with: 2}}
      expect: {multiplier: 5, value: 55, score: 55, won: true}

``expect`` holds any fields of the score result (docs/formats.md#score-result: ``value``,
``score``, ``won``, ``overbid``, ``multiplier``, ``declarer``, ``bid``,
``game``, ``hand``, ``scores``, ``declarer_points``, ``explanation`` and any
extra a plugin adds); ``matadors`` may be ``{with: 2}``, ``{without: 3}`` or a
signed number; ``explanation`` matches any part of the explanation line.  A record the engine must refuse says ``error: <substring>``
instead, matched against the one-line error.  An optional ``note`` is ignored.
A case may name its own ``ruleset`` (the record's field): a shipped name, or
a ruleset file inside the vector file's folder (``params/half.yaml``),
so that one vector file can prove a plugin's parameters (:func:`rules_for`).

The runner scores exactly as ``skat score`` does (``as_deal_record`` then
``score_record``), so a vector tests the whole path from record to result,
and python-chess-style a failing case prints the traditional breakdown
("with 2, game 3, schneider 4; 4 x spades 11 = 44 ...").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skatcore.errors import InputError
from skatcore.model import ScoreResult
from skatcore.records.deal import as_deal_record, score_record
from skatcore.rules.compiler import rules_for as _rules_for
from skatcore.rules.ruleset import read_yaml

CASE_KEYS = ("name", "expect", "note")  # keys of a case that are not part of the record


@dataclass(frozen=True)
class Case:
    """One vector: a deal record and what scoring it must give."""

    name: str
    record: Mapping[str, Any]
    expect: Mapping[str, Any]
    source: str = ""  # "tests/vectors/house.yaml:12": the file and the line the case starts on
    note: str = ""


@dataclass
class Outcome:
    """What running a case gave: the result or the error, and the mismatches."""

    case: Case
    result: ScoreResult | None = None
    error: InputError | None = None
    mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def report(self) -> str:
        """The mismatches and the multiplier breakdown, for a failure message."""
        lines = [f"{self.case.source}: {self.case.name}"]
        lines += [f"  mismatch: {m}" for m in self.mismatches]
        if self.result is not None:
            lines.append(f"  breakdown: {self.result.explanation}")
            lines.append(f"  result: {self.result.to_json()}")
        if self.error is not None:
            lines.append(f"  error: {self.error}")
        if self.case.note:
            lines.append(f"  note: {self.case.note}")
        return "\n".join(lines)


def load_vectors(path: str | Path) -> list[Case]:
    """Read a vector file: a YAML list of cases, each a mapping with ``name``,
    ``expect`` and the record's keys.

    :raises InputError: naming the file and case for a malformed file.
    """
    doc = read_yaml(path)
    if not isinstance(doc, list):
        raise InputError("expected a list of cases", source=str(path))
    shown, lines = _shown(path), _case_lines(path)
    cases: list[Case] = []
    seen: dict[str, str] = {}
    for i, item in enumerate(doc):
        where = f"[{i}]"
        source = f"{shown}:{lines[i]}" if i < len(lines) else shown  # file:line, as an editor jumps to it
        if not isinstance(item, dict):
            raise InputError("a case is a mapping (a deal record with name and expect)", source=source, path=where)
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            raise InputError("give every case a `name`", source=source, path=where)
        if name in seen:
            raise InputError(f"case name {name!r} is used twice (also {seen[name]})", source=source, path=f"{where}.name")
        seen[name] = source
        expect = item.get("expect")
        if not isinstance(expect, dict) or not expect:
            raise InputError("give `expect` (result fields, or `error`)", source=source, path=f"{where}.expect")
        if "error" in expect and len(expect) > 1:
            raise InputError("`error` excludes other expectations", source=source, path=f"{where}.expect")
        record = {k: v for k, v in item.items() if k not in CASE_KEYS}
        cases.append(Case(name=name, record=record, expect=expect, source=source, note=str(item.get("note", ""))))
    return cases


def _shown(path: str | Path) -> str:
    """A vector file as a message names it: relative to the working
    directory when it lies inside it, else as given."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except (ValueError, OSError):
        return str(path)


def _case_lines(path: str | Path) -> list[int]:
    """The line (from 1) each case of a vector file starts on."""
    import yaml

    try:
        node = yaml.compose(Path(path).read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return []
    return [item.start_mark.line + 1 for item in node.value] if isinstance(node, yaml.SequenceNode) else []


def rules_for(case: Case, vector_file: str | Path, default: str):
    """The compiled rules ``case`` is scored under: the record's own
    ``ruleset`` if it names one (a shipped name, else a file beside
    ``vector_file``, as ``skat score`` resolves it beside the record), else
    ``default`` (the vector file's stem)."""
    try:
        return _rules_for(case.record, str(vector_file), default=default)
    except InputError as exc:
        if exc.source == str(vector_file):
            exc.source = case.source  # name the case, not just the file
        raise


def evaluate(rules, case: Case) -> Outcome:
    """Score ``case`` under compiled ``rules`` and compare with ``expect``."""
    out = Outcome(case)
    try:
        record = as_deal_record(case.record, case.source)
        out.result = score_record(record, rules, case.source)
    except InputError as exc:
        out.error = exc
    want_error = case.expect.get("error")
    if want_error is not None:
        if out.error is None:
            out.mismatches.append(f"expected an error containing {want_error!r}, but the record was accepted")
        elif str(want_error).lower() not in str(out.error).lower():
            out.mismatches.append(f"expected an error containing {want_error!r}, got {str(out.error)!r}")
        return out
    if out.error is not None:
        out.mismatches.append(f"unexpected error: {out.error}")
        return out
    got = out.result.to_json()
    for key, want in case.expect.items():
        if key == "matadors":
            have, want = _signed(got.get("matadors")), _signed(want)
        elif key == "explanation" and isinstance(want, str) and want in str(got.get(key)):
            continue  # a part of the line is enough (the whole line matches too)
        elif key not in got:
            out.mismatches.append(f"{key}: the result has no such field (has: {', '.join(got)})")
            continue
        else:
            have = got[key]
        if have != want:
            out.mismatches.append(f"{key}: expected {want!r}, got {have!r}")
    return out


def run_case(rules, case: Case) -> list[str]:
    """The mismatches of one case (empty when it passes)."""
    return evaluate(rules, case).mismatches


def _signed(m) -> int | None:
    """Matadors as a signed number: ``{with: 2}`` -> 2, ``{without: 3}`` -> -3."""
    if isinstance(m, Mapping):
        if "with" in m:
            return m["with"]
        if "without" in m:
            return -m["without"]
    return m
