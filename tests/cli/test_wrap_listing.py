"""``skat rulesets``, ``skat rules`` and ``skat plugins`` on a narrow
terminal: lines wrapped at words under their text column (the terminal
broke them mid-word at the edge); in a pipe, one line stays one line."""

from __future__ import annotations

import io
import random

import pytest

from skatcore.cli.main import main
from skatcore.cli.wrap import fit

WORDS = ["Skat", "grand", "20,", "schneider", "at", "91,", "null", "ouvert", "46", "/", "Daekker", "(B11)", "-", "Ramsch"]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("seed", range(20))
def test_a_row_is_wrapped_at_words_under_its_text_column(seed):
    rng = random.Random(seed)
    width = rng.randrange(40, 100)
    name = rng.choice(["danish", "  clubs", "    grand_base", "thresholds:"])
    gap = " " * rng.randrange(1, 12)
    text = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 60)))
    line = f"{name}{gap}{text}"
    parts = fit(line, width)
    assert all(len(p) <= width for p in parts)
    assert " ".join(p.strip() for p in parts).split() == line.split()  # every word, in order
    if len(parts) > 1:
        column = len(line) - len(line[len(name):].lstrip()) if len(gap) >= 2 or name.endswith(":") else None
        indent = column if column is not None and column <= width // 2 else len(name) - len(name.lstrip()) + 2
        assert all(p.startswith(" " * indent) and p[indent] != " " for p in parts[1:])
    else:
        assert parts == [line]


@pytest.mark.parametrize("args", [["rulesets"], ["rules", "pub"], ["plugins", "official"]])
def test_the_listings_fit_a_terminal_of_60_columns(args, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "60")
    assert main(args) == 0
    piped = capsys.readouterr().out  # capsys: not a terminal, a line each
    out = Terminal()
    monkeypatch.setattr("sys.stdout", out)
    assert main(args) == 0
    shown = out.getvalue().splitlines()
    assert max(map(len, shown)) <= 60 < max(map(len, piped.splitlines()))
    assert " ".join(shown).split() == piped.split()
