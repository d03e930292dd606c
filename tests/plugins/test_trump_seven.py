"""The seven of trumps takes the last trick (docs/rules/house-rules.md#b14), and
a ruleset using skat_trick_winner elsewhere: the compiled engines read it
from a table, the bots play it, a plugin's failure is one line."""

from __future__ import annotations

import pytest
from cli_checks import refused

from skatcore.cards import parse_card
from skatcore.cli.main import main
from skatcore.engine.compiled import engine_tables
from skatcore.engine.deal import PASS, PICK_UP, PLAYS, Bid, Deal, Declare, Discard
from skatcore.model import Declaration
from skatcore.records.deal import score_record
from skatcore.rules.compiler import get_rules

RULESET = "name: trump-seven\nextends: official\nplugins:\n  trump_seven: {}\n"

# the worked example of docs/rules/house-rules.md#b14: middlehand plays diamonds with 1
HANDS = {"forehand": "CQ D7 H8 S7 SJ C9 DK DA SA SK", "middlehand": "CK DT H9 D8 S8 HJ HA CJ DQ H7",
         "rearhand": "ST HQ HT HK S9 CT C7 C8 SQ CA"}
SKAT = "D9 DJ"
PLAY = ["SA", "CJ", "S9", "HJ", "C7", "SJ", "C9", "DJ", "C8", "D8", "SQ", "DK", "S7", "H7", "ST", "CA", "CQ", "D9", "HA", "HQ", "H8", "H9", "HT", "SK", "CT", "DA", "DQ", "D7", "DT", "HK"]


def cards(text):
    return [parse_card(c) for c in text.split()]


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory):
    path = tmp_path_factory.mktemp("trump-seven") / "trump-seven.yaml"
    path.write_text(RULESET)
    return path


@pytest.fixture(scope="module")
def rules(ruleset):
    return get_rules(str(ruleset))


def example(rules) -> Deal:
    deal = Deal(rules, [cards(HANDS[s]) for s in ("forehand", "middlehand", "rearhand")], cards(SKAT))
    for action in (Bid(18), PASS, PASS, PICK_UP, Discard(tuple(cards("CK S8"))), Declare(Declaration("diamonds"))):
        deal.apply(action)
    for c in PLAY:
        deal.apply(PLAYS[parse_card(c)])
    return deal


def test_worked_example_by_hand(rules):
    deal = example(rules)
    last = deal.tricks[-1]
    assert last.leader == 0 and last.winner == 0  # forehand's D7 beats middlehand's DT
    # middlehand's tricks: SA CJ S9 (13), C9 DJ C8 (2), CA CQ D9 (14), HA HQ H8 (14) = 43, skat CK S8 = 4
    res = deal.result()
    assert (res.declarer_points, res.won, res.value, res.score) == (47, False, 18, -36)
    official = example(get_rules("official"))
    assert official.tricks[-1].winner == 1  # by the card order DT takes D7 DT HK: 47 + 14
    assert (official.result().declarer_points, official.result().score) == (61, 18)


def test_only_the_last_trick_and_only_the_seven_of_trumps(rules):
    def winner(game, trick, number=10):
        return rules.trick_winner(game, cards(trick), number, 0, 1)

    assert winner("diamonds", "DA D7 CJ") == 1  # the seven of trumps above a jack
    assert winner("diamonds", "DA D7 CJ", number=9) == 2  # not the last trick: the card order
    assert winner("hearts", "D7 DA HQ") == 2  # D7 is no trump in hearts
    assert winner("grand", "CJ DJ D7") == 0  # grand: not applicable by default
    assert winner("null", "D7 D8 D9") == 2  # null: no trumps


def test_grand_with_the_lowest_jack(tmp_path):
    (tmp_path / "g.yaml").write_text("extends: official\nplugins:\n  trump_seven: {grand: lowest_jack}\n")
    rules = get_rules(str(tmp_path / "g.yaml"))
    assert rules.trick_winner("grand", cards("CJ DJ SJ"), 10, 0, 1) == 1
    assert rules.trick_winner("grand", cards("CJ DJ SJ"), 3, 0, 1) == 0


def test_the_compiled_engines_read_it_from_a_table(rules):
    """The hook reads the contract, its order, the cards and whether the trick
    is the last: tabulated (skatcore.engine.trick_table), the compiled engines play it."""
    from skatcore.engine.trick_table import trick_wins

    engine_tables(rules, hand_back=True)
    wins = trick_wins(rules)
    assert wins.reads == ("last",) and rules.trick_hook and not get_rules("official").trick_hook
    diamonds = wins.contracts.index("diamonds")
    last = example(rules).tricks[-1]
    assert wins.index(diamonds, 9, last.leader, 1, last.cards) == 0  # the worked example: D7 takes D7 DT HK
    assert wins.index(diamonds, 8, last.leader, 1, last.cards) == 1  # not the last trick: DT


def test_a_record_replays_and_scores_under_the_rule(rules):
    from skatcore.records.writer import deal_record

    deal = example(rules)
    record = deal_record(deal)
    assert score_record(record, rules).score == -36
    assert score_record(record, get_rules("official")).score == 18


@pytest.mark.parametrize("players", [None, "random", "expert"])
def test_bots_play_it(ruleset, players, capsys):
    deals = 4 if players == "expert" else 30
    extra = ["--players", players] if players else []
    assert main(["simulate", "--ruleset", str(ruleset), "--deals", str(deals), "--seed", "1", "--json", *extra]) == 0
    out = capsys.readouterr().out
    assert str(deals) in out and "trump-seven" in out


BAD = '''from skatcore.hookspecs import hookimpl

class Raises:
    @hookimpl
    def skat_trick_winner(self, number):
        if number == 3:
            raise ValueError("no third trick")

class BadIndex:
    @hookimpl
    def skat_trick_winner(self, last):
        return 3 if last else None

class NotAnInt:
    @hookimpl
    def skat_trick_winner(self):
        return "first"
'''


@pytest.mark.parametrize(("plugin", "says"), [
    ("Raises", "plugin './bad.py:Raises' failed in skat_trick_winner: ValueError: no third trick"),
    ("BadIndex", "plugin './bad.py:BadIndex' answered skat_trick_winner with 3: expected the index of the winning "
                 "card in the trick, 0 to 2, or None"),
    ("NotAnInt", "plugin './bad.py:NotAnInt' answered skat_trick_winner with 'first'"),
])
@pytest.mark.parametrize("players", ["heuristic", "random"])
def test_a_failing_plugin_is_one_line_exit_2(tmp_path, monkeypatch, capsys, plugin, says, players):
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "bad.yaml").write_text(f"extends: official\nplugins:\n  ./bad.py:{plugin}: {{}}\n")
    monkeypatch.chdir(tmp_path)
    refused(capsys, ["simulate", "--trust", "--ruleset", "bad.yaml", "--deals", "5", "--seed", "1", "--players", players],
            says, "bad.yaml")


def test_the_solver_plays_it(rules):
    """analyse() (skat solve) follows the rule: the worked example's last trick goes to the seven."""
    from skatcore.bots.analysis import analyse

    got = analyse(example(rules))
    assert (got["played"], got["complete"], got["tricks"][-1]["winner"]) == (47, True, "forehand")
    assert analyse(example(get_rules("official")))["played"] == 61
