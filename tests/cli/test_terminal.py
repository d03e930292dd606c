"""The terminal programs as a player meets them at a real terminal:
Ctrl-C at any prompt of ``skat play`` stops the table as ``q`` does (the
sheet so far, exit 0), any other command with one line; the screen speaks
to you as "you", names the third seat as its form does (Oma), shows a lost
null without card points, answers a word that is no card in one sentence;
at a narrow terminal nothing is cut off or broken inside a word (the
table's title, the declarations)."""

from __future__ import annotations

import importlib
import io
import re
import sys

import pytest

from skatcore.cli.play import TerminalGame
from skatcore.rules.compiler import get_rules

pexpect = pytest.importorskip("pexpect")

ANSI = re.compile(r"\r[^\r\n]*\x1b\[K|\x1b\[[0-9;?]*[A-Za-z]")
ENV = {"TERM": "xterm-256color", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "SKAT_NO_WARM": "1"}
PROMPTS = ["\nyour choice: ", "\nplay: ", "\nput away: "]


class FirstOption(io.StringIO):
    """The first option (or pass, when ``passes``), the first cards offered to put away."""

    def __init__(self, out: io.StringIO, passes: bool = False, script=()):
        super().__init__()
        self.out, self.passes, self.script = out, passes, list(script)

    def readline(self, *_):
        if self.script:
            return self.script.pop(0) + "\n"
        text = self.out.getvalue().rstrip()
        if text.endswith("put away:"):
            return "1 2\n"
        asked = text.rpartition("\n")[0].rpartition("your hand:")[2]
        if self.passes and (m := re.search(r"(\d+)\) pass$", asked, re.M)):
            return m[1] + "\n"
        return "1\n"


def play(ruleset: str, seed: int, deals: int, passes: bool = False, script=()) -> str:
    out = io.StringIO()
    assert TerminalGame(get_rules(ruleset), seed, FirstOption(out, passes, script), out).run(deals) == 0
    return out.getvalue()


@pytest.mark.parametrize("at", PROMPTS)
def test_ctrl_c_at_a_prompt_stops_as_q_does(at):
    """Seed 3: you bid (your choice), pick up and put away, then play."""
    child = pexpect.spawn(sys.executable, ["-c", "import sys; from skatcore.cli import main; sys.exit(main())", "play",
                                           "--seed", "3", "--deals", "2"],
                          encoding="utf-8", timeout=120, dimensions=(40, 100), env=ENV)
    child.logfile_read = io.StringIO()
    while (i := child.expect([*PROMPTS, pexpect.EOF])) != PROMPTS.index(at):
        assert i < len(PROMPTS), "the prompt never came"
        child.sendline("1 2" if i == 2 else "1")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    text = ANSI.sub("", child.logfile_read.getvalue())
    assert child.exitstatus == 0, text[-1500:]
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    assert text.rstrip().endswith("stopped.")


def test_ctrl_c_in_any_command_is_one_line(monkeypatch, capsys):
    cli = importlib.import_module("skatcore.cli.main")  # the module: skatcore.cli.main is also the function

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "cmd_rulesets", interrupted)
    assert cli.main(["rulesets"]) == 130  # as a shell reports a program stopped by Ctrl-C
    assert capsys.readouterr().err == "skat: interrupted\n"


def test_you_win_the_bidding_and_declare():
    text = play("official", 3, 1)  # you bid and win
    assert re.search(r"you \(\w+\) win the bidding at \d+", text)
    assert re.search(r"you \(\w+\) declare \w+", text)
    assert not re.search(r"you \(\w+\) (wins|declares)", text)
    text = play("official", 3, 3, passes=True)  # you pass: a bot still "wins", "declares"
    assert re.search(r"(Ann|Bob) \(\w+\) wins the bidding", text) and re.search(r"(Ann|Bob) \(\w+\) declares", text)


def test_a_null_shows_no_card_points():
    """Offiziersskat seed 2: Ann declares null hand in the second deal; at
    the first trick she takes, the deal is over, the cards left in the
    stacks taken by nobody."""
    text = play("offiziersskat", 2, 2)
    nulls = [d for d in text.split("=== deal ")[1:] if re.search(r"declares? null", d)]
    assert nulls
    for deal in nulls:
        result = re.search(r"result: .*", deal)[0]
        assert "card points" not in result, result
    others = [d for d in text.split("=== deal ")[1:] if re.search(r"declares? (clubs|spades|hearts|diamonds|grand)", d)]
    for deal in others:  # a suit game or grand still shows them, 120 in all
        m = re.search(r"\(card points: declarer (\d+), defenders (\d+)\)", deal)
        assert int(m[1]) + int(m[2]) == 120


@pytest.mark.parametrize(("ruleset", "called"), [("oma-skat", "Oma"), ("schmegegge", "half-dummy"),
                                                  ("skat-en-deux", "third hand"), ("strohmann", "straw man"),
                                                  ("piloten-skat", "straw man")])
def test_the_third_seat_has_the_name_its_form_gives_it(ruleset, called):
    """B13: Oma-Skat's face-down pile is Oma, Schmegegge's the half-dummy,
    Skat en deux's the spare third hand; Strohmann and Piloten-Skat play a
    straw man.  It sits at middlehand; you at forehand in the first deal."""
    text = play(ruleset, 2, 1)
    assert f"{called} (middlehand) · " in text  # the table's seats
    others = {"Oma", "half-dummy", "third hand", "straw man"} - {called}
    tricks = re.findall(r"  trick \d+: (.*) → ", text)
    assert tricks and all(f"{called} " in t for t in tricks)  # it plays to every trick
    assert not any(name in text for name in others)


def test_a_word_that_is_no_card_is_answered_in_one_sentence():
    """Seed 3: bid 18, play hand, hearts hand (9), then a word at the table."""
    text = play("official", 3, 1, script=["1", "2", "9", "xyz"])
    said = re.search(r"'xyz': (.*)", text)[1]
    assert said == "type a number from 1 to 10 or a card (♣A, CA, club ace, Kreuz As); ? hint · last · undo · q stop"


def test_a_hand_games_note_is_said_once_above_the_list():
    """Seed 3: you play hand; the 22 declarations (4 suits and grand, each
    plain, schneider, schwarz, ouvert; null hand and null ouvert hand)
    under one note that the skat's matadors count too."""
    text = play("official", 3, 1, script=["1", "2"])
    listed = text.partition("declare (bid 18):")[2].partition("your choice:")[0]
    assert listed.splitlines()[0] == " (the matadors of your hand; the skat counts too)"
    options = re.findall(r"^ +\d+\) (.*)", listed, re.M)
    assert len(options) == 5 * 4 + 2 and not any("skat counts" in o for o in options)


@pytest.mark.parametrize("columns", ["40", "80"])
def test_the_game_and_the_bid_are_never_cut_off_the_table(monkeypatch, columns):
    """Danish-Petersen, seed 23: you win the bidding at 24 (its lowest bid)
    and play clubs.  At 40 columns the title would end ``(bid 2``: the game
    and the bid move inside the table, whole; at 80 they stay in the title."""
    monkeypatch.setenv("COLUMNS", columns)
    text = play("danish-petersen", 23, 1)
    bid = re.search(r"win the bidding at (\d+)", text)[1]
    game = re.search(r"you \(\w+\) declare (.*)", text)[1]
    tables = re.findall(r"╭.*?╯", text, re.S)
    assert bid == "24" and tables
    for table in tables:
        assert max(map(len, table.splitlines())) <= int(columns)
        top, first = table.splitlines()[:2]
        where, other = (top, first) if columns == "80" else (first, top)
        assert f"you play {game} (bid {bid})" in where and "(bid" not in other, table


def test_at_a_narrow_terminal_lines_break_between_words():
    """At 60 columns (seed 3: bid 18, play hand, the 22 hand games listed),
    every line written fits: the terminal would otherwise break it where it
    reaches the edge, inside a word or a number (``3 x spades 1`` over
    ``1 = 33``)."""
    child = pexpect.spawn(sys.executable, ["-c", "import sys; from skatcore.cli import main; sys.exit(main())", "play",
                                           "--seed", "3", "--deals", "1"],
                          encoding="utf-8", timeout=120, dimensions=(40, 60), env=ENV)
    child.logfile_read = io.StringIO()
    for answer in ("1", "2"):
        child.expect("\nyour choice: ")
        child.sendline(answer)
    child.expect("\nyour choice: ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    text = ANSI.sub("", child.logfile_read.getvalue()).replace("\r", "")
    listed = text.partition("declare (bid 18):")[2].partition("your choice:")[0]
    assert len(re.findall(r"^ +\d+\) ", listed, re.M)) == 22
    assert max(len(line) for line in text.splitlines()) <= 60
    # each option's words whole: rejoined, every value reads as it was written
    options = re.split(r"\n(?= +\d+\) )", listed.strip())[1:]  # after the note
    assert len(options) == 22
    for o in options:
        one = " ".join(o.split())
        assert re.search(r"(\d+ x \w+ \d+ = \d+|null (ouvert )?hand \d+) (reaches the bid|below the bid 18: overbid)$", one), one



@pytest.mark.parametrize("typed", ["kontra", "Kontra", "call kontra"])
def test_a_call_is_typed_by_its_name(typed):
    """Pub, seed 7: you pass, Ann declares spades; at your first card you
    may call Kontra - by its number or by its name."""
    out = io.StringIO()

    class Caller(FirstOption):
        called = False

        def readline(self, *_):
            asked = self.out.getvalue().rpartition("╭")[2]  # since the table was drawn
            if not self.called and asked.rstrip().endswith("play:") and ") call kontra" in asked:
                self.called = True
                return typed + "\n"
            return super().readline()

    assert TerminalGame(get_rules("pub"), 7, Caller(out, passes=True), out).run(1) == 0
    text = out.getvalue()
    assert "Ann (middlehand) declares spades" in text
    assert "you call kontra!" in text and "kontra: x2" in re.search(r"result: .*", text)[0]


def test_a_long_word_is_echoed_short():
    """10,000 characters at the table (a paste gone wrong): the answer names
    the word cut to 24 characters, on one line, and the table goes on."""
    text = play("official", 3, 1, script=["1", "2", "9", "x" * 10_000])
    said = re.search(r"  ('x+\.\.\.'): type a number", text)
    assert said and said[1] == "'" + "x" * 21 + "...'" and "result: " in text


def test_a_tournament_ends_with_the_seeger_fabian_points():
    """B1 at a 3-table: +50 for each game won as declarer, -50 for each
    lost; +40 to each defender of a lost game; the final totals add them to
    the game scores.  Counted here from the result lines of three deals."""
    text = play("tournament", 3, 3)
    names = ("you", "Ann", "Bob")
    games = {n: 0 for n in names}
    defence = {n: 0 for n in names}
    for declarer, won in re.findall(r"\n  (\w+) \(\w+\): ([+-])\d+\n", text):
        games[declarer] += 50 if won == "+" else -50
        for n in names:
            defence[n] += 40 if won == "-" and n != declarer else 0
    totals = dict(re.findall(r"(\w+) ([+-]\d+)", re.findall(r"score sheet: (.*)", text)[-1]))
    said = {label: dict(re.findall(r"(\w+) ([+-]\d+)", rest)) for label, rest in
            re.findall(r"\n  (won/lost games x50|opponents' lost games): (.*)", text)}
    assert said["won/lost games x50"] == {n: f"{games[n]:+d}" for n in names}
    assert said["opponents' lost games"] == {n: f"{defence[n]:+d}" for n in names}
    final = dict(re.findall(r"(\w+) ([+-]\d+)", re.search(r"\nfinal: (.*)", text)[1]))
    assert final == {n: f"{int(totals[n]) + games[n] + defence[n]:+d}" for n in names}
    assert "final:" not in play("official", 3, 1)  # nothing to add: no final line
