"""What a player may type at every prompt of ``skat play`` without
stopping the program (digits that are no numbers to ``int``: ``²``), and
what the screen says checked against the rules: found by driving the table
in a pseudo-terminal with nonsense under every ruleset."""

from __future__ import annotations

import io
import re

import pytest

from skatcore.cards import CARD_NAMES, POINTS
from skatcore.cli.play import TerminalGame
from skatcore.cli.play_words import NotUnderstood, read_choices
from skatcore.errors import InputError
from skatcore.rules.compiler import get_rules
from skatcore.sim.workers import dask_workers

CARD = re.compile(r"([♣♠♥♦])(10|[AKQJ987])")
SUIT_OF = {"♣": "C", "♠": "S", "♥": "H", "♦": "D"}


def shown(text: str) -> list[int]:
    """The cards on a line of the screen (``♥10`` is ``HT``)."""
    return [CARD_NAMES.index(SUIT_OF[s] + ("T" if r == "10" else r)) for s, r in CARD.findall(text)]


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


# -- what the screen says: the skat of a Schieberamsch --------------------------------------------
SEAT_NAMES = ("forehand", "middlehand", "rearhand")


def test_a_pushed_skat_is_shown_as_it_was_picked_up_and_as_it_counted():
    """Schieberamsch: the skat you pick up is the one pushed to you, not the
    one dealt; the card points of the skat at the end go to the last trick
    (B3), so each player's points in the result are his tricks and, for
    the last trick's winner, that skat."""
    out = io.StringIO()
    assert TerminalGame(get_rules("schieberamsch"), 21, FirstOption(out, []), out).run(3) == 0
    deals = out.getvalue().split("=== deal ")[1:]
    pushed_to_you = 0
    for deal in deals:
        you = SEAT_NAMES.index(re.search(r"you are (\w+)", deal)[1])
        seat = {"you": you, "Ann": (you + 1) % 3, "Bob": (you + 2) % 3}
        if m := re.search(r"your hand: (.*)\n(?:.*\n){0,4}?.*you pick up the skat: (.*)\n.*\ncards: (.*)", deal):
            hand, skat, offered = (set(shown(x)) for x in m.groups())
            assert not skat & hand and skat <= offered <= hand | skat
            pushed_to_you += "puts 2 cards away" in deal.partition("you pick up")[0]
        points = [0, 0, 0]
        tricks = re.findall(r"  trick \d+: .* → (\w+) takes? (\d+)", deal)
        for winner, p in tricks:
            points[seat[winner]] += int(p)
        dealt, _, end = re.search(r"^  the skat: (.*)", deal, re.M)[1].partition("; at the end: ")
        points[seat[tricks[-1][0]]] += sum(POINTS[c] for c in shown(end or dealt))
        said = re.search(r"points forehand (\d+), middlehand (\d+), rearhand (\d+)", deal)
        assert [int(x) for x in said.groups()] == points
    assert len(deals) == 3 and pushed_to_you == 2  # seed 21: as middlehand and rearhand a bot pushed the skat to you


# -- a terminal 60 columns wide -------------------------------------------------------------------
@pytest.mark.parametrize(("ruleset", "seed"), [("danish", 5), ("skat-en-deux", 21)])
def test_a_narrow_terminal_shows_every_card_and_every_number(ruleset, seed, monkeypatch):
    """At 60 columns the table is fitted to the width, not cut off: the
    card points of both sides in full (they were cut to ``(your side) 2``
    for 28), the straw man's cards you play each shown (not ``…``)."""
    monkeypatch.setenv("COLUMNS", "60")
    out = io.StringIO()
    passes = ["2"]  # you pass: Ann declares, you defend (skat-en-deux: with the straw man's cards)
    assert TerminalGame(get_rules(ruleset), seed, FirstOption(out, passes), out).run(1) == 0
    text = out.getvalue()
    assert "…" not in text
    panels = re.findall(r"╭.*?╯", text, re.S)
    assert panels
    for panel in panels:
        assert all(len(row) <= 60 for row in panel.splitlines())
        inside = " ".join(row.strip("│ ") for row in panel.splitlines()[1:-1])
        sides = re.search(r"card points in tricks: (.+?) (\d+) · (.+?)(?: \(your side\))? (\d+)\b", inside)
        before = text.partition(panel)[0]
        taken = {name: 0 for name in ("you", "Ann", "Bob", "third hand")}  # Skat en deux's third seat
        for winner, p in re.findall(r"  trick \d+: .* → (you|Ann|Bob|third hand) takes? (\d+)", before):
            taken[winner] += int(p)
        assert int(sides[2]) == taken[sides[1]]
        assert int(sides[4]) == sum(taken[n] for n in sides[3].split(" and "))
    if ruleset == "skat-en-deux":  # you defend and play the straw man's cards
        straw = re.findall(r"middlehand's cards \(you play them\):\n(.*)", text)
        assert straw and all(len(shown(row)) >= 1 for row in straw)


def test_you_are_spoken_to_as_you():
    """``you declare``, ``you win the bidding``, and your own cards on the
    table where you play the straw man's are ``your hand``, not ``you shows``."""
    out = io.StringIO()
    assert TerminalGame(get_rules("skat-en-deux"), 21, FirstOption(out, ["2"]), out).run(2) == 0
    text = out.getvalue()
    assert not re.search(r"\byou( \(\w+\))? (declares|wins|shows|takes|plays|calls)\b", text)
    assert re.search(r"you \(\w+\) win the bidding at \d+\n", text) and re.search(r"you \(\w+\) declare \w+", text)
    assert "│ your hand: " in text  # deal 1: you defend and play middlehand's cards beside your own



def test_a_game_without_bidding_names_no_bid():
    """Offiziersskat: nobody bids, the non-dealer announces. Declaring said
    ``declare (bid 0):`` and ``reaches the bid`` beside every game, and a
    skat that counts too where there is none."""
    out = io.StringIO()
    assert TerminalGame(get_rules("offiziersskat"), 21, FirstOption(out, []), out).run(1) == 0
    text = out.getvalue()
    assert "\ndeclare:\n" in text and "  1) clubs hand  without" in text  # seed 21: you are forehand and announce
    assert "bid 0" not in text and "reaches the bid" not in text and "the skat counts" not in text
