"""Lines of a listing as a terminal shows them (``skat rulesets``, ``skat
rules``, ``skat plugins``): wrapped at words to the terminal's width, each
continuation indented under the line's text column, not broken mid-word at
the edge.  Written to a file or a pipe, a line stays one line."""

from __future__ import annotations

import re
import shutil
import sys
import textwrap

MIN_WIDTH = 40  # narrower than this, the terminal's own wrapping is left to it
_COLUMN = re.compile(r"^(\s*\S.*?(?:\s{2,}|: ))\S")  # where a row's text starts: after a gap of two, or "name: "


def fit(line: str, width: int) -> list[str]:
    """``line`` wrapped to ``width`` columns, continuations under its text
    column (``danish           Danish Skat ...``, ``  clubs   matadors ...``),
    else two further in than the line."""
    if len(line) <= width:
        return [line]
    lead = len(line) - len(line.lstrip())
    m = _COLUMN.match(line)
    indent = len(m.group(1)) if m and len(m.group(1)) <= width // 2 else lead + 2
    return textwrap.wrap(line, width=width, subsequent_indent=" " * indent, break_on_hyphens=False,
                         drop_whitespace=True) or [line]


def emit(lines, stream=None) -> None:
    """Print ``lines`` (already escaped: :func:`~skatcore.errors.printable`),
    fitted to the terminal when ``stream`` is one."""
    stream = stream or sys.stdout
    width = shutil.get_terminal_size().columns if stream.isatty() else 0
    for line in lines:
        for part in fit(line, width) if width >= MIN_WIDTH else [line]:
            print(part, file=stream)
