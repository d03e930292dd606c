"""``skat compare R1 R2 ... --games FILE...``: real games re-scored under
each ruleset.

A game is replayed move by move under every ruleset (the same bids, skat,
declaration and cards), so a ruleset scores it only where the very same
play is legal and means the same; where it is not (another deck, a contract
or bid the ruleset does not have, all pass played on where the server threw
in), the game is counted apart under that ruleset with the reason.  The
paired statistics use the games every ruleset could score.

A record need not hold the whole play (an ISS game ended by a claim, a
concession or a player gone; a summary deal record): under a ruleset that
reads what it lacks (the last trick, a trick-winner rule), the game is
counted apart too (:mod:`skatcore.records.holds`), never scored on tricks
it does not hold.

Inputs: ISS archives (``.sgf``, one game a line), deal records (``.yaml``,
``.json``, docs/formats.md#deal-record) and JSON Lines (``.jsonl``, one deal record a line).
Files are read a line at a time and games go through in chunks, so an
archive of millions of games runs in constant memory.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skatcore.engine.table import people
from skatcore.errors import InputError
from skatcore.model import SEATS
from skatcore.records.deal import check_record, read_record, score_record
from skatcore.records.holds import NotHeld
from skatcore.records.iss import NotScorable, parse_sgf, replay_held
from skatcore.rules.compiler import get_rules
from skatcore.rules.reading import read_json, read_lines
from skatcore.sim.outcomes import Tally, deal_row, metrics_for

CHUNK = 500


@dataclass
class Game:
    """One real game: where it comes from, and how to score it under a ruleset."""

    source: str
    where: str
    players: tuple[str, ...]     # by seat; () for a deal record (each ruleset's result names them)
    score: Callable              # rules -> (ScoreResult, all_pass)
    server_score: int | None = None    # the server's own score of a declared game (ISS ``v:``)


@dataclass
class Rescored:
    """Per ruleset: games scored, games counted apart by reason, and how the
    scores compare with the server's own where the record has them."""

    ruleset: str
    games: int = 0
    scored: int = 0
    unscored: Counter = field(default_factory=Counter)
    server_agrees: int = 0
    server_differs: int = 0
    lacking: Counter = field(default_factory=Counter)  # of unscored: the record lacks what the ruleset reads, by how it ends

    def to_json(self) -> dict:
        return {"ruleset": self.ruleset, "games": self.games, "scored": self.scored,
                "unscored": dict(self.unscored.most_common()), "server_agrees": self.server_agrees,
                "server_differs": self.server_differs, "lacking": dict(self.lacking.most_common())}


def read_games(paths: Sequence[str], progress: Callable[[int], None] | None = None) -> Iterator[Game]:
    """Every game of the files, lazily; ``progress(bytes)`` as lines are read."""
    for path in paths:
        p = Path(path)
        if not p.is_file():
            raise InputError("no such file", source=str(path))
        if p.suffix == ".sgf" or p.suffix == ".jsonl":
            yield from _lines(p, progress)
        elif p.suffix in (".yaml", ".yml", ".json"):
            doc = read_record(p)
            if progress:
                progress(p.stat().st_size)
            yield _record_game(doc, str(p), "")
        else:
            raise InputError("expected an ISS archive (.sgf), a deal record (.yaml, .json) or JSON Lines (.jsonl)",
                             source=str(path))


def _lines(p: Path, progress) -> Iterator[Game]:
    for n, line, size in read_lines(str(p)):  # the one line reader of skat score: bounded lines
        if progress:
            progress(size)
        try:
            if isinstance(line, InputError):
                raise line
            line = line.strip()
            yield _sgf_game(line, str(p), n) if p.suffix == ".sgf" else _json_game(line, str(p), n)
        except InputError as exc:
            exc.path = f"line {n}, {exc.path}" if exc.path else f"line {n}"
            raise exc.at(source=str(p)) from None


def _sgf_game(line: str, source: str, n: int) -> Game:
    record = parse_sgf(line)

    def score(rules):
        deal = replay_held(record, rules)
        return deal.result(), deal.bid == 0

    declared = record.outcome in ("win", "loss")
    return Game(source, f"line {n} (ISS game {record.id})", tuple(record.players), score, record.v if declared else None)


def _json_game(line: str, source: str, n: int) -> Game:
    doc = read_json(line, source)
    if isinstance(doc, dict):
        doc.setdefault("format", "skat-deal/1")
    check_record(doc, source)
    return _record_game(doc, source, f"line {n}")


def _record_game(doc: dict, source: str, where: str) -> Game:
    def score(rules):
        result = score_record(doc, rules, source)
        return result, result.declarer is None and result.game in ("passed", *_without_declarer(rules))

    # who sits where depends on the ruleset (at a table of two, on the seats its persons play):
    # the names come with each ruleset's result
    return Game(source, where, (), score)


def _without_declarer(rules) -> list[str]:
    return [c.name for c in rules.contracts.values() if not c.declarer]


def rescore(refs: Sequence[str], paths: Sequence[str], seed: int = 1, progress: Callable[[int], None] | None = None,
            on_rows: Callable[[list[dict]], None] | None = None):
    """Re-score every game of ``paths`` under each ruleset: ``(names,
    metrics, tally, per-ruleset Rescored)``.  ``seed`` seeds the bootstrap."""
    rules = [get_rules(r) for r in refs]
    metrics = metrics_for(rules)
    tally = Tally(metrics, len(rules), seed)
    counts = [Rescored(r.name) for r in rules]
    chunk: list[list[dict]] = [[] for _ in rules]
    paired = 0
    ordinal = 0

    def flush():
        nonlocal paired, chunk
        if chunk[0]:
            tally.add(paired, chunk)
            paired += len(chunk[0])
            chunk = [[] for _ in rules]

    for game in read_games(paths, progress):
        rows: list[dict[str, Any] | None] = []
        for rs, count in zip(rules, counts, strict=True):
            count.games += 1
            try:
                result, all_pass = game.score(rs)
            except (InputError, NotScorable) as exc:
                count.unscored[getattr(exc, "reason", None) or getattr(exc, "message", str(exc))] += 1
                if isinstance(exc, NotHeld):
                    count.lacking[exc.holds.kind] += 1
                rows.append(None)
                continue
            count.scored += 1
            if game.server_score is not None:
                agrees = result.score == game.server_score
                count.server_agrees += agrees
                count.server_differs += not agrees
            named = result.extra.get("players") or {}
            rows.append(deal_row(result, seed=None, deal=ordinal, all_pass=all_pass,
                                 players=game.players or tuple(named.get(s, "") for s in SEATS),
                                 server_score=game.server_score, people=len(people(rs))))
        ordinal += 1
        if on_rows:
            on_rows([r for r in rows if r is not None])
        if all(r is not None for r in rows):
            for side, row in zip(chunk, rows, strict=True):
                side.append(row)
            if len(chunk[0]) >= CHUNK:
                flush()
    flush()
    return [r.name for r in rules], metrics, tally, counts

