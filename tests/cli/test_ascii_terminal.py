"""A terminal that cannot show the suit symbols, ``é`` or ``Δ`` (an ASCII or
Latin-1 locale, ``PYTHONIOENCODING=ascii``): every command writes what it can and escapes the rest,
and ``skat play`` is played in letters; none stops with an internal error."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

ENV = {**os.environ, "PYTHONIOENCODING": "ascii", "LANG": "C", "LC_ALL": "C", "SKAT_NO_WARM": "1"}


def skat(*args: str, answers: str = "") -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-m", "skatcore", *args], input=answers.encode(), capture_output=True,
                          env=ENV, timeout=120)
    return done.returncode, done.stdout.decode("ascii"), done.stderr.decode("ascii")  # nothing else was written


def test_an_ascii_terminal_plays_a_whole_deal_in_letters():
    """An ASCII terminal: the suit symbols, ``·`` and ``→`` cannot be written. The
    first refusal stopped the game (UnicodeEncodeError, exit 1); now cards
    are letters (``S7 D8``) and the table's marks plain ASCII."""
    rc, out, err = skat("play", "--seed", "3", "--deals", "1", answers="1\n1\nxx\n1 2\n1\nxyz\n" + "1\n" * 40)
    assert rc == 0, err[-500:]
    assert "e.g. 3 7 or S7 D8" in out and "'xyz': type a number from 1 to 10 or a card (CA, CA, club ace" in out
    assert re.search(r"trick 1: you [CSHD][AKQJT987] - Ann \S+ - Bob \S+ -> \w+ takes? \d+", out) and "result: " in out


@pytest.mark.parametrize(("args", "escaped"), [(("rulesets",), "Tourn\\xe9e Skat"), (("rules", "tournee"), "Tourn\\xe9e"),
                                               (("plugins", "tournee"), "tourn\\xe9e")])
def test_what_the_terminal_cannot_show_is_escaped(args, escaped):
    """``Tournée`` as ``Tourn\\xe9e``: it was UnicodeEncodeError, exit 1."""
    rc, out, err = skat(*args)
    assert rc == 0, err[-500:]
    assert escaped in out
