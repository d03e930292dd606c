"""Scoring many records one at a time (``skat score``): deal records
(``.yaml``/``.json``), JSON Lines of deal records (``.jsonl``, one a line)
and ISS game records (``.sgf``, one a line).

Results stream: each record is read, scored and handed on before the next
line is read (the games of a big ISS archive in batches of :data:`ISS_BATCH`,
replayed together by :mod:`skatcore.records.iss_fast`), so memory stays flat
however big the file.  A bad record
becomes its one :class:`~skatcore.errors.InputError` (naming the file and
``line N``) in the stream and the rest are still scored.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from skatcore.errors import InputError, json_text, printable

Scored = tuple[dict, str]  # (the result as JSON, the explanation line)
ISS_BATCH = 500  # ISS games replayed together (memory stays flat)
# an .sgf file this big (~8,000 games) takes the compiled replay: loading numba and it costs ~0.9 s CPU once,
# which the games' ~110 µs each saved pay back; a smaller file goes one game at a time through Deal
FAST_ISS_BYTES = 4_000_000


def score_output(files: list[str], ruleset: str | None = None, as_json: bool = False) -> Iterator[str | InputError]:
    """What ``skat score`` prints, record by record: the result as JSON (one
    line each, indented for a single deal record) or as text, else the
    record's one :class:`InputError`."""
    pretty = as_json and len(files) == 1 and not files[0].endswith((".sgf", ".jsonl"))
    for item in score_files(files, ruleset):
        if isinstance(item, InputError):
            yield item
        elif as_json:
            yield json_text(item[0], indent=2 if pretty else None)
        else:
            yield "\n".join(printable(line) for line in _human(*item))


def _human(out: dict, explanation: str) -> list[str]:
    from skatcore.model import SEATS

    if out.get("scorable") is False:
        return [f"{out['id']}: not scorable: {out['reason']}"]
    who = out["declarer"] or "-"
    head = f"{out['id']}: {out['game']}"
    if out["declarer"]:
        head += f" by {who}, bid {out['bid']}"
    entries = ", ".join(f"{s} {out['scores'][s]:+d}" for s in SEATS if out["scores"].get(s))
    return [head, f"  {explanation}", f"  sheet: {entries or 'nothing'}"]


def score_files(files: list[str], ruleset: str | None = None) -> Iterator[Scored | InputError]:
    """Every record of ``files`` scored (``ruleset`` wins over the records' own)."""
    for file in files:
        try:
            if file.endswith(".sgf"):
                yield from _sgf(file, ruleset)
            elif file.endswith(".jsonl"):
                yield from _json_lines(file, ruleset)
            else:
                yield _deal(file, ruleset)
        except InputError as exc:
            yield exc.at(source=file)


def _deal(file: str, ruleset: str | None, doc: dict | None = None, source: str | None = None) -> Scored:
    from skatcore.records.deal import check_record, read_record, score_record
    from skatcore.rules.compiler import rules_for

    if doc is None:
        doc = read_record(file)
    else:
        check_record(doc, source or file)
    result = score_record(doc, rules_for(doc, file, ruleset), source or file)
    out = result.to_json()
    out["id"] = doc.get("id", source or file)
    return out, result.explanation


def lines(path: str) -> Iterator[tuple[int, str | InputError]]:
    """The non-blank lines of a text file with their numbers, read lazily; a
    line too long or not UTF-8 is its :class:`InputError` (the one line
    reader: :func:`skatcore.rules.reading.read_lines`)."""
    from skatcore.rules.reading import read_lines

    for n, line, _ in read_lines(path):
        yield n, line


def _at_line(exc: InputError, n: int, file: str) -> InputError:
    exc.path = f"line {n}, {exc.path}" if exc.path else f"line {n}"
    exc.source = file
    return exc


def _json_lines(file: str, ruleset: str | None) -> Iterator[Scored | InputError]:
    from skatcore.rules.ruleset import read_json

    seen = False
    for n, line in lines(file):
        seen = True
        if isinstance(line, InputError):
            yield _at_line(line, n, file)
            continue
        try:
            doc = read_json(line, file)
            if isinstance(doc, dict):
                doc.setdefault("id", f"{Path(file).name}:{n}")
            yield _deal(file, ruleset, doc, source=file)
        except InputError as exc:
            yield _at_line(exc, n, file)
    if not seen:
        raise InputError("no deal records in the file (expected one JSON record a line)", source=file)


def _sgf(file: str, ruleset: str | None) -> Iterator[Scored | InputError]:
    from skatcore.records.iss import score_line
    from skatcore.rules.compiler import get_rules

    rules = get_rules(ruleset or "official")
    try:
        fast = os.path.getsize(file) >= FAST_ISS_BYTES
    except OSError:
        fast = False  # lines() says why it cannot read the file
    seen = False
    for batch in _batches(lines(file), ISS_BATCH):
        seen = True
        texts = [line for _, line in batch if not isinstance(line, InputError)]
        if fast:
            from skatcore.records.iss_fast import score_lines

            scored = iter(score_lines(texts, rules))
        else:
            scored = (score_line(line, rules) for line in texts)
        # a line the reader refused is its own error, in its place
        items = [line if isinstance(line, InputError) else next(scored) for _, line in batch]
        for (n, _), item in zip(batch, items, strict=True):
            if isinstance(item, InputError):
                yield _at_line(item, n, file)
                continue
            out, explanation = item
            yield out, explanation
            if out.get("server_mismatch"):  # scored, and reported: the record contradicts itself (or we are wrong)
                yield _at_line(InputError(f"game {out['id']}: the server's R[] differs from the replay: "
                                          + "; ".join(out["server_mismatch"])), n, file)
    if not seen:
        raise InputError("no ISS game records in the file", source=file)


def _batches(items: Iterator, size: int) -> Iterator[list]:
    """``items`` in lists of ``size`` (the last one shorter); what was read
    before an error comes out before the error."""
    batch = []
    try:
        for item in items:
            batch.append(item)
            if len(batch) == size:
                yield batch
                batch = []
    except InputError:
        if batch:
            yield batch
        raise
    if batch:
        yield batch
