"""``skat play`` in a pseudo-terminal (pexpect): full deals played to the
end, and what the screen shows checked against the rules by hand: the hand
sorted as a player sorts it, the skat picked up and put away, the value of
each declaration, the card points, Bock after a lost Kontra (pub) and the
running totals."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import pytest

from skatcore.cards import parse_card
from skatcore.cli.play_text import sort_hand, suit_order
from skatcore.rules.compiler import get_rules

pexpect = pytest.importorskip("pexpect")

# colour and cursor codes, and a line written and erased again (a compile's line on a cold cache: skatcore/warmup.py)
ANSI = re.compile(r"\r[^\r\n]*\x1b\[K|\x1b\[[0-9;?]*[A-Za-z]")
CARD = re.compile(r"([♣♠♥♦])(10|[AKQJ987])")
SUIT_OF = {"♣": "C", "♠": "S", "♥": "H", "♦": "D"}
PROMPTS = ["\nyour choice: ", "\nplay: ", "\nput away: ", "another deal", pexpect.EOF]  # at a line start
# colour as rich decides it from the terminal, whatever the caller's environment forces
ENV = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")}
BASE = {"clubs": 12, "spades": 11, "hearts": 10, "diamonds": 9, "grand": 24}


def cards(*names: str) -> list[int]:
    return [parse_card(c) for c in names]


def shown_cards(text: str) -> list[int]:
    """The cards on a line of the screen (``♥10`` is ``HT``)."""
    return [parse_card(SUIT_OF[s] + ("T" if r == "10" else r)) for s, r in CARD.findall(text)]


def play_in_terminal(ruleset: str, seed: int, deals: int) -> tuple[str, str]:
    """``skat play`` in a pseudo-terminal, answering every question with the
    first option and every discard with ``1 2``: (the screen as written, with
    its colours; the screen as text)."""
    log = io.StringIO()
    child = pexpect.spawn(sys.executable, ["-c", "import sys; from skatcore.cli import main; sys.exit(main())",
                                           "play", "--ruleset", ruleset, "--seed", str(seed), "--deals", str(deals)],
                          encoding="utf-8", timeout=120, dimensions=(50, 200), env={**ENV, "TERM": "xterm-256color"})
    child.logfile_read = log
    while True:
        i = child.expect(PROMPTS)
        if i == 4:
            break
        child.sendline("1 2" if i == 2 else "n" if i == 3 else "1")
    child.close()
    raw = log.getvalue()
    assert child.exitstatus == 0, raw[-2000:]
    return raw, ANSI.sub("", raw).replace("\r", "")


@pytest.fixture(scope="module")
def official():
    return play_in_terminal("official", 5, 2)


@pytest.fixture(scope="module")
def pub():
    return play_in_terminal("pub", 2, 2)


def deals_of(text: str) -> list[str]:
    return text.split("=== deal ")[1:]


def test_cards_have_suit_symbols_and_colours(official):
    raw, text = official
    assert "\x1b[31m♥" in raw and "\x1b[32m♠" in raw and "\x1b[33m♦" in raw  # red hearts, green spades, yellow diamonds
    shown = "\n".join(line for line in text.split("\n")[1:] if not line.startswith("a number or a card (♣A, CA,"))  # the help names the typed form
    assert CARD.search(text) and not re.search(r"\b[CSHD][AKQJT987]\b", shown)


def test_two_full_deals_to_the_end(official):
    _raw, text = official
    deals = deals_of(text)
    assert len(deals) == 2 and "you are forehand" in deals[0] and "you are rearhand" in deals[1]
    for deal in deals:
        assert "trick 10:" in deal and "result:" in deal and "score sheet:" in deal
        tricks = [line for line in deal.splitlines() if re.match(r"  trick \d+: .* takes? \d+$", line)]
        assert len(tricks) == 10
        # card points on the result line: the declarer's tricks and the skat, the rest to the defenders
        m = re.search(r"\(card points: declarer (\d+), defenders (\d+)\)", deal)
        assert m and int(m[1]) + int(m[2]) == 120
        mine = sum(int(t.rsplit(" ", 1)[1]) for t in tricks if "→ you " in t)
        skat = re.search(r"  the skat: (.*?); put away (.*)", deal)
        worth = {"A": 11, "1": 10, "K": 4, "Q": 3, "J": 2}
        assert int(m[1]) == mine + sum(worth.get(r[0], 0) for _, r in CARD.findall(skat[2]))


def test_the_hand_is_sorted_as_a_player_sorts_it(official):
    """Before the game: jacks first, then clubs, hearts, spades, diamonds;
    in a clubs game the clubs join the jacks and red and black alternate."""
    _raw, text = official
    rules = get_rules("official")
    for deal in deals_of(text):
        game = re.search(r"you \(\w+\) declare (\w+)", deal)[1]
        before, _, after = deal.partition(" declare ")
        for line in re.findall(r"your hand: (.*)", before):
            assert shown_cards(line) == sort_hand(shown_cards(line))
        for line in re.findall(r"your hand: (.*)", after):
            assert shown_cards(line) == sort_hand(shown_cards(line), rules.tricks[game])
    first = re.search(r"your hand: (.*)", text)[1]
    assert first == "♣J ♣A ♣K ♣7 ♥K ♠K ♠Q ♦A ♦K ♦7"  # seed 5, deal 1, by eye


def test_the_hand_is_printed_once_per_decision(official):
    _raw, text = official
    for block in re.split(r"\n(?:your choice|play|put away): ", text)[1:-1]:
        hands = block.count("your hand:") + block.count("put 2 cards away")
        assert hands == 1, block[-600:]


def test_the_skat_when_picked_up_and_what_was_put_away(official):
    _raw, text = official
    for deal in deals_of(text):
        picked = re.search(r"you pick up the skat: (.*)", deal)[1]
        put = re.search(r"you put away (.*)", deal)[1]
        end = re.search(r"  the skat: (.*?); put away (.*)", deal)
        assert sorted(shown_cards(end[1])) == sorted(shown_cards(picked)) and end[2] == put
        # the cards to put away are the hand and the skat together
        offered = shown_cards(deal.partition("put 2 cards away")[2].partition("put away:")[0])
        hand = shown_cards(re.findall(r"your hand: (.*)", deal.partition("you pick up")[0])[-1])
        assert sorted(offered) == sorted(hand + shown_cards(picked))


def test_each_declaration_shows_its_value_by_hand(official):
    """Every suit game and grand: with/without N, game N+1, times the base
    value; reaches the bid or not.  The matadors are those of the hand and
    the cards put away (checked here from the screen)."""
    _raw, text = official
    jacks = cards("CJ", "SJ", "HJ", "DJ")
    for deal in deals_of(text):
        bid = int(re.search(r"declare \(bid (\d+)\)", deal)[1])
        hand = shown_cards(re.findall(r"your hand: (.*)", deal.partition("declare (bid")[0])[-1])
        known = set(hand + shown_cards(re.search(r"you put away (.*)", deal)[1]))
        lines = re.findall(r"\d+\) (\w+)  (.*)", deal.partition("declare (bid")[2].partition("your choice")[0])
        assert [g for g, _ in lines][:5] == ["clubs", "spades", "hearts", "diamonds", "grand"]
        for game, how in lines:
            if game == "null":  # fixed values: 23, hand 35, ouvert 46, ouvert hand 59
                m = re.match(r"null( ouvert)?( hand)? (\d+)  (.*)", how)
                assert int(m[3]) == {(0, 0): 23, (0, 1): 35, (1, 0): 46, (1, 1): 59}[(bool(m[1]), bool(m[2]))]
                assert int(m[3]) >= bid and m[4] == "reaches the bid"  # a null below the bid is not offered
                continue
            trumps = jacks + ([] if game == "grand" else [c for c in cards(*(game[0].upper() + r for r in "ATKQ987"))])
            held = [c in known for c in trumps]
            n = held.index(not held[0]) if not all(held) else len(held)
            m = re.match(rf"(with|without) (\d+), game (\d+); \3 x {game} (\d+) = (\d+)  (.*)", how)
            assert m, how
            assert m[1] == ("with" if held[0] else "without") and int(m[2]) == n and int(m[3]) == n + 1
            assert int(m[4]) == BASE[game] and int(m[5]) == (n + 1) * BASE[game]
            assert m[6] == ("reaches the bid" if int(m[5]) >= bid else f"below the bid {bid}: overbid")


def test_a_card_you_must_play_is_played_for_you(official):
    _raw, text = official
    forced = re.findall(r"trick (\d+): .*; you play (\S+) \(the only card you may play\)", text)
    assert forced
    for n, card in forced:  # then the trick goes on without asking
        after = text.partition(f"you play {card} (the only card you may play)")[2]
        assert re.match(rf"\n  trick {n}: ", after)


def test_running_totals_add_up(official):
    _raw, text = official
    total = 0
    for deal in deals_of(text):
        mine = re.search(r"  you \(\w+\): ([+-]\d+)", deal)
        total += int(mine[1]) if mine else 0
        assert re.search(rf"score sheet: you {total:+d}, Ann \+0, Bob \+0", deal)


def test_a_lost_kontra_makes_the_next_deal_bock_under_pub(pub):
    """pub: a successful Kontra brings a Bock round, and the next deal counts
    double on the sheet, as ``skat sheet`` counts it."""
    _raw, text = pub
    first, second = deals_of(text)
    assert "calls kontra!" in first and re.search(r"lost .*; kontra: x2 = -96", first)
    assert "sheet: -> Bock: Kontra successful" in first and "score sheet: you -96," in first
    assert second.startswith("2 (pub): you are rearhand [Bock] ===")
    score = int(re.search(r"result: .* = (-\d+)  \(card points", second)[1])
    assert f"you (rearhand): {score:+d} x 2 = {2 * score:+d}" in second
    assert f"score sheet: you {-96 + 2 * score:+d}," in second


def test_sort_hand_for_each_game():
    rules = get_rules("official")
    hand = cards("H7", "DJ", "HA", "CJ", "S7", "HT", "CA", "D9")
    name = lambda cs: [__import__("skatcore.cards").cards.CARD_NAMES[c] for c in cs]  # noqa: E731
    assert name(sort_hand(hand)) == ["CJ", "DJ", "CA", "HA", "HT", "H7", "S7", "D9"]
    assert name(sort_hand(hand, rules.tricks["hearts"])) == ["CJ", "DJ", "HA", "HT", "H7", "CA", "D9", "S7"]
    assert name(sort_hand(hand, rules.tricks["clubs"])) == ["CJ", "DJ", "CA", "HA", "HT", "H7", "S7", "D9"]
    assert name(sort_hand(hand, rules.tricks["grand"])) == ["CJ", "DJ", "CA", "HA", "HT", "H7", "S7", "D9"]
    assert name(sort_hand(hand, rules.tricks["null"])) == ["CA", "CJ", "HA", "HT", "H7", "S7", "DJ", "D9"]
    assert suit_order("H") == ["C", "D", "S"] and suit_order("C") == ["H", "S", "D"] and suit_order(None) == ["C", "H", "S", "D"]


def test_play_with_piped_stdin_has_no_colour_codes():

    out = subprocess.run([sys.executable, "-c", "import sys; from skatcore.cli import main; sys.exit(main())",
                          "play", "--seed", "2", "--deals", "1", "--ruleset", "ramsch"],
                         input="1\n" * 400, capture_output=True, text=True, encoding="utf-8", timeout=120, env=ENV)
    assert out.returncode == 0, out.stderr
    assert "\x1b[" not in out.stdout and "your hand: ♣K ♣7 ♥A ♥Q ♥7" in out.stdout and "result:" in out.stdout
