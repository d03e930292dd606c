"""What a player may type at every prompt of ``skat play`` without
stopping the program: digits that are no numbers to ``int`` (``²``),
found by driving the table in a pseudo-terminal with nonsense."""

from __future__ import annotations

import io

import pytest

from skatcore.cli.play import TerminalGame
from skatcore.cli.play_words import NotUnderstood, read_choices
from skatcore.errors import InputError
from skatcore.rules.compiler import get_rules
from skatcore.sim.workers import dask_workers

# str.isdigit() is true of each, int() refuses each
NOT_NUMBERS = ["²", "1²", "³⁴", "①"]


class FirstOption(io.StringIO):
    """Answers ``script`` first, then the first option / the first cards offered."""

    def __init__(self, out: io.StringIO, script):
        super().__init__()
        self.out, self.script = out, list(script)

    def readline(self, *_):
        if self.script:
            return self.script.pop(0) + "\n"
        return "1 2\n" if self.out.getvalue().rstrip().endswith("put away:") else "1\n"


def play(ruleset: str, seed: int, script) -> str:
    out = io.StringIO()
    assert TerminalGame(get_rules(ruleset), seed, FirstOption(out, script), out).run(1) == 0
    return out.getvalue()


@pytest.mark.parametrize("typed", NOT_NUMBERS)
def test_digits_that_are_no_numbers_are_no_cards(typed):
    assert typed.isdigit()
    with pytest.raises(NotUnderstood):
        read_choices(typed)


def test_digits_that_are_no_numbers_are_asked_again_at_every_prompt():
    # seed 3: you are asked to bid, then to pick up the skat or play hand
    text = play("official", 3, [*NOT_NUMBERS, "1", *NOT_NUMBERS])
    assert text.count("type a number from 1 to") == len(NOT_NUMBERS) * 2
    assert "result: " in text
    # at the card table and when putting away too
    out = play("official", 3, ["1", "1", *NOT_NUMBERS, "1 2", "1", *NOT_NUMBERS])
    assert out.count("is not one of your cards") == len(NOT_NUMBERS)
    assert out.count(": type a number from 1 to") == len(NOT_NUMBERS) and "result: " in out


@pytest.mark.parametrize("workers", NOT_NUMBERS)
def test_dask_workers_that_are_no_number(workers):
    with pytest.raises(InputError):
        dask_workers(f"local:{workers}")
