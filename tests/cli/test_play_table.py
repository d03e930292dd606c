"""``skat play`` as a card table, in a pseudo-terminal (pexpect) answered by
a player who reads the screen: a discard typed in German words, a card
by name, an illegal card refused in a player's words, the hint, the last
trick, and an undo that replays the deal to the very same table.  In
process: the card points on the table against the tricks shown, the
opponents' card counts, the thinking time shown only where a person waits,
expert opponents, and Strohmann's cards laid aside with the side they went
to, checked by hand from the result line."""

from __future__ import annotations

import io
import re
import sys
import time

import pytest

from skatcore.bots import HeuristicPlayer
from skatcore.cards import CARD_NAMES, POINTS, parse_card
from skatcore.cli.play import TerminalGame, opponents
from skatcore.engine.deal import Phase
from skatcore.errors import InputError
from skatcore.rules.compiler import get_rules

pexpect = pytest.importorskip("pexpect")

# colour and cursor codes, and a line written and erased again (a compile's line on a cold cache: skatcore/warmup.py)
ANSI = re.compile(r"\r[^\r\n]*\x1b\[K|\x1b\[[0-9;?]*[A-Za-z]")
CARD = re.compile(r"([♣♠♥♦])(10|[AKQJ987])")
SUIT_OF = {"♣": "C", "♠": "S", "♥": "H", "♦": "D"}
GERMAN_SUIT = {"C": "Kreuz", "S": "Pik", "H": "Herz", "D": "Karo"}
GERMAN_RANK = {"A": "As", "T": "Zehn", "K": "König", "Q": "Dame", "J": "Bube", "9": "Neun", "8": "Acht", "7": "Sieben"}
ENV = {"TERM": "xterm-256color", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "SKAT_NO_WARM": "1"}  # no background compile


def shown(text: str) -> list[int]:
    return [parse_card(SUIT_OF[s] + ("T" if r == "10" else r)) for s, r in CARD.findall(text)]


def symbol(c: int) -> str:
    name = CARD_NAMES[c]
    return {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}[name[0]] + ("10" if name[1] == "T" else name[1])


class Screen:
    """What the player saw since the last answer: the table, the hand row
    and the numbers under the cards that may be played."""

    def __init__(self, text: str):
        self.text = text
        rows = text.splitlines()
        i = max(i for i, r in enumerate(rows) if r.startswith("your hand:"))
        self.hand = shown(rows[i])
        # the number under a card: the column of the card's first character
        starts = [m.start() for m in CARD.finditer(rows[i])]
        numbers = {m.start(): int(m[0]) for m in re.finditer(r"\d+", rows[i + 1])}
        self.playable = [c for c, at in zip(self.hand, starts, strict=True)
                         if any(at <= k <= at + 2 for k in numbers)]
        trick = re.findall(r"trick (\d+):  (.*?)\s*│", text)
        self.trick_no, on_table = int(trick[-1][0]), trick[-1][1]
        self.trick = shown(on_table)
        self.game = re.search(r"· (?:you play|\w+ plays) (\w+)", text)[1]


def spawn(*args: str):
    child = pexpect.spawn(sys.executable, ["-c", "import sys; from skatcore.cli import main; sys.exit(main())", "play", *args],
                          encoding="utf-8", timeout=180, dimensions=(60, 80), env=ENV)
    child.logfile_read = io.StringIO()
    return child


@pytest.fixture(scope="module")
def session():
    """Two deals of the official rules played by a reader of the screen;
    returns what it did, what the screen showed at each card, and the whole text."""
    rules = get_rules("official")
    child = spawn("--ruleset", "official", "--seed", "5", "--deals", "2")
    seen: dict = {}  # (deal, trick, cards on the table) -> the table as drawn
    did: dict = {"refused": [], "undo": None, "hints": [], "last": [], "discard": []}
    deal = 0
    chosen: list = []  # (trick, card) chosen by me in this deal
    while True:
        i = child.expect(["\nyour choice: ", "\nplay: ", "\nput away: ", "=== deal", pexpect.EOF])
        text = ANSI.sub("", child.before).replace("\r", "")
        if i == 4:
            break
        if i == 3:
            deal += 1
            chosen = []
        elif i == 0:
            child.sendline("1")
        elif i == 2:  # the two last cards offered, in German words
            offered = shown(text.rpartition("put 2 cards away")[2].partition("\n")[2].partition("\n")[0])
            put = offered[-2:]
            did["discard"].append(put)
            child.sendline(", ".join(f"{GERMAN_SUIT[CARD_NAMES[c][0]]} {GERMAN_RANK[CARD_NAMES[c][1]]}" for c in put))
        else:
            s = Screen(text.rpartition("╭")[2])
            key = (deal, s.trick_no, tuple(s.trick))
            table = text.rpartition("╭")[2].rpartition("play:")[0]
            if key in seen and did["undo"] and did["undo"][1] == key and "again" not in did["undo"]:
                did["undo"].append("again")
                did["undo"].append((seen[key], table))
            seen[key] = table
            wrong = [c for c in s.hand if c not in s.playable]
            if wrong and len(did["refused"]) < 3:
                child.sendline(symbol(wrong[0]))
                did["refused"].append((s.game, s.trick, s.hand, wrong[0], reply(child)))
            if len(did["hints"]) < 2 and len(s.playable) > 1:
                child.sendline("?")
                did["hints"].append((s.playable, reply(child)))
            if chosen and did["undo"] is None:
                child.sendline("undo")
                did["undo"] = [chosen[-1], key_of(deal, chosen[-1])]
                continue
            if s.trick_no > 1 and len(did["last"]) < 1:
                child.sendline("last")
                did["last"].append((text, reply(child)))
            card = s.playable[-1]
            chosen.append((s.trick_no, tuple(s.trick), card))
            child.sendline(CARD_NAMES[card])  # the plain-letter form: CA, HT
    child.close()
    text = ANSI.sub("", child.logfile_read.getvalue()).replace("\r", "")
    assert child.exitstatus == 0, text[-2000:]
    return rules, did, text


def reply(child) -> str:
    """The table's answer to what was typed (the terminal's echo of it left out)."""
    child.expect("\nplay: ")
    return ANSI.sub("", child.before).replace("\r", "").partition("\n")[2].strip()


def key_of(deal: int, chosen) -> tuple:
    trick_no, trick, _card = chosen
    return (deal, trick_no, trick)


def test_the_discard_in_german_words(session):
    _rules, did, text = session
    assert did["discard"]
    for put, line in zip(did["discard"], re.findall(r"you put away (.*)", text), strict=True):
        assert shown(line) == sorted(put)


def test_an_illegal_card_gets_the_players_words(session):
    rules, did, _text = session
    assert did["refused"]
    for game, trick, hand, card, said in did["refused"]:
        table = rules.tricks[game]
        if not trick:
            pytest.fail(f"a card refused when leading: {said}")
        led = table.follow[trick[0]]
        assert any(table.follow[c] == led for c in hand) and table.follow[card] != led
        assert said == ("trump must be followed" if led == 4 else f"you must follow {symbol(trick[0])[0]}"), said


def test_the_hint_is_the_experts_card_with_its_number(session):
    _rules, did, _text = session
    assert did["hints"]
    for playable, said in did["hints"]:
        m = re.fullmatch(r"the expert would play (\S+) \((\d+)\)", said)
        assert m and shown(m[1])[0] == playable[int(m[2]) - 1]


def test_last_shows_the_last_trick_as_it_was_shown(session):
    _rules, did, _text = session
    for before, said in did["last"]:
        tricks = re.findall(r"  (trick \d+: .* takes? \d+)\n", before)
        assert said == tricks[-1]


def test_undo_replays_the_deal_to_the_same_table(session):
    """The card taken back is the last one chosen; the table drawn after the
    undo is the table drawn before that card, to the last character."""
    _rules, did, text = session
    (trick_no, _trick, card), key, _again, (before, after) = did["undo"]
    assert f"you take back {symbol(card)}" in text
    assert key[1] == trick_no and before.strip() == after.strip()


def test_every_deal_ends_with_the_skat_and_the_explanation(session):
    _rules, _did, text = session
    assert text.count("result: ") == 2 and text.count("  the skat: ") == 2
    assert "a number or a card (♣A, CA, club ace, Kreuz As)" in text


def test_the_table_fits_80_columns(session):
    _rules, _did, text = session
    tables = re.findall(r"╭.*?╯", text, re.S)
    assert tables and all(len(line) <= 80 for t in tables for line in t.splitlines())


def test_expert_opponents_in_the_terminal():
    child = spawn("--ruleset", "official", "--seed", "9", "--deals", "1", "--opponents", "expert")
    while (i := child.expect(["\nyour choice: ", "\nplay: ", "\nput away: ", pexpect.EOF])) != 3:
        child.sendline("1 2" if i == 2 else "1")
    child.close()
    text = ANSI.sub("", child.logfile_read.getvalue())
    assert child.exitstatus == 0, text[-2000:]
    assert "opponents: Ann expert, Bob expert" in text and text.count("result: ") == 1 and "score sheet: " in text


# -- in process ------------------------------------------------------------------------------
class Answers(io.StringIO):
    """A player who answers the last question on ``out``: the first option,
    the first cards offered to put away, the first card he may play."""

    def __init__(self, out: io.StringIO, script=()):
        super().__init__()
        self.out, self.script = out, list(script)

    def readline(self, *_):
        text = self.out.getvalue().rstrip()
        if self.script:
            return self.script.pop(0) + "\n"
        if text.endswith("put away:"):
            k = int(re.findall(r"put (\d+) cards away", text)[-1])
            return " ".join(map(str, range(1, k + 1))) + "\n"
        return "1\n"


def play(ruleset: str, seed: int, deals: int, kinds=None, script=()) -> tuple[TerminalGame, str]:
    out = io.StringIO()
    game = TerminalGame(get_rules(ruleset), seed, Answers(out, script), out, kinds=kinds)
    assert game.run(deals) == 0
    return game, out.getvalue()


def tables(text: str) -> list[str]:
    return re.findall(r"╭.*?╯", text, re.S)


def test_card_points_and_card_counts_on_the_table():
    """At every card: the card points of the tricks shown so far, by side;
    each other seat's cards = 10 minus the cards it played."""
    _game, text = play("official", 3, 2)
    for deal in text.split("=== deal")[1:]:
        declarer = re.search(r"· (you|Ann|Bob) plays? ", deal)[1]
        for part in deal.split("╭")[1:]:
            before = deal.partition("╭" + part)[0]
            tricks = re.findall(r"  trick \d+: (.*) → (\w+) takes? (\d+)", before)
            pts = {"you": 0, "Ann": 0, "Bob": 0}
            for _cards, winner, p in tricks:
                pts[winner] += int(p)
            line = re.search(r"card points in tricks: (.*?)\s*│", part)[1]
            defenders = [n for n in pts if n != declarer]
            mine = "" if declarer == "you" else " (your side)"
            assert line == f"{declarer} {pts[declarer]} · {' and '.join(defenders)}{mine} {pts[defenders[0]] + pts[defenders[1]]}"
            on_table = re.search(r"trick \d+:  (.*?)\s*│", part)[1]
            for name in ("Ann", "Bob"):
                played = sum(f"{name} " in t[0] for t in tricks) + (f"{name} " in on_table)
                assert re.search(rf"{name} \(\w+\) · {10 - played} cards?\b", part)


class Slow(HeuristicPlayer):
    """The heuristic player, 0.15 s over each card (a person waits for it)."""

    def act(self, view):
        if view.phase is Phase.PLAY:
            time.sleep(0.15)
        return super().act(view)


def test_thinking_time_is_shown_only_where_a_person_waits():
    game, text = play("official", 5, 1, kinds=[f"{__name__}:Slow", "heuristic"])
    tricks = re.findall(r"  trick \d+: (.*) → ", text)
    assert tricks and all(re.search(r"Ann \S+ \(0\.\d s\)", t) for t in tricks)  # Ann thinks at every card
    assert not re.search(r"Bob \S+ \(", text) and not re.search(r"you \S+ \(", text)
    assert {kind for kind, _phase, _secs in game.waits} == {f"{__name__}:Slow", "heuristic"}


def test_expert_opponents_and_a_mixed_table():
    assert opponents("expert", get_rules("official")) == ["expert", "expert"]
    assert opponents("expert, heuristic", get_rules("official")) == ["expert", "heuristic"]
    for bad in ("expert,heuristic,random", "nobody"):
        with pytest.raises(InputError):
            opponents(bad, get_rules("official"))
    game, text = play("official", 7, 1, kinds=["expert", "heuristic"])
    assert "opponents: Ann expert, Bob heuristic" in text and "result: " in text
    assert any(kind == "expert" and phase == "play" for kind, phase, _secs in game.waits)


def test_a_ramsch_table_counts_each_player_alone():
    _game, text = play("ramsch", 2, 1)
    part = tables(text)[-1]
    before = text.partition(part)[0].rpartition("=== deal")[2]
    pts = {"you": 0, "Ann": 0, "Bob": 0}
    for winner, p in re.findall(r"  trick \d+: .* → (\w+) takes? (\d+)", before):
        pts[winner] += int(p)
    line = re.search(r"card points in tricks: (.*?)\s*│", part)[1]
    assert line == f"you {pts['you']} · Ann {pts['Ann']} · Bob {pts['Bob']}"  # you are forehand in the first deal


# -- two players ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def strohmann():
    return [play("strohmann", seed, 1) for seed in (1, 2, 3, 4)]


def test_strohmann_lays_the_unused_cards_aside_to_the_side_with_more_points(strohmann):
    """``laid aside: cards (points), to the declarer|defenders (more card
    points)``: the points are the cards' own; the declarer's card points on
    the result line include them exactly when the side went to him, and he
    had more of the rest (B13)."""
    for _game, text in strohmann:
        m = re.search(r"laid aside: (.*) \((\d+) points\), to the (declarer|defenders) \(more card points\): (.*)", text)
        cards = shown(m[1])
        assert len(cards) == 3 and int(m[2]) == sum(POINTS[c] for c in cards)
        declarer = int(re.search(r"\(card points: declarer (\d+), defenders (\d+)\)", text)[1])
        worth, rest = int(m[2]), 120 - int(m[2])
        if m[3] == "declarer":
            assert 2 * (declarer - worth) > rest
        else:
            assert 2 * declarer <= rest and "straw man" in m[4]


def test_strohmann_shows_the_straw_man_after_the_first_trick(strohmann):
    for _game, text in strohmann:
        for part in tables(text):
            number = int(re.search(r"trick (\d+):", part)[1])
            assert ("straw man shows" in part) == (number > 1), part



@pytest.mark.parametrize(("spec", "said"), [
    ("nobody", "unknown player 'nobody'"),
    ("expert,heuristic,random", "expected one player or 2 (Ann, Bob), not 3"),
    ("\x1b[31mx", "unknown player '\\x1b[31mx'"),
])
def test_bad_opponents_are_one_line_exit_2(spec, said, capsys):
    from skatcore.cli.main import main

    assert main(["play", "--opponents", spec, "--deals", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and "\x1b" not in err
