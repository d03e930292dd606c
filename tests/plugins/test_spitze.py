"""Several Spitzen (docs/rules/house-rules.md#b7): 9-8-7 of trumps winning the last three tricks
count +1 each; played in another order the declaration fails."""

import pytest

from skatcore.cards import parse_card
from skatcore.engine.deal import PASS, PLAY_HAND, PLAYS, Bid, Deal, Declare
from skatcore.errors import InputError
from skatcore.model import Declaration
from skatcore.rules.compiler import get_rules

HANDS = [["CJ", "SJ", "HJ", "DJ", "HA", "HT", "H9", "H8", "H7", "CA"],
         ["HK", "CT", "CK", "CQ", "C9", "C8", "C7", "SA", "ST", "SK"],
         ["HQ", "SQ", "S9", "S8", "S7", "DA", "DT", "DK", "DQ", "D9"]]
SKAT = ["D8", "D7"]


@pytest.fixture
def rules(tmp_path):
    (tmp_path / "spitze3.yaml").write_text("extends: official\nplugins:\n  spitze: {most: 3}\n")
    return get_rules(str(tmp_path / "spitze3.yaml"))


def play(rules, leads, spitze):
    """Forehand plays hearts hand; it leads ``leads`` in order, the defenders their first legal card."""
    deal = Deal(rules, [[parse_card(c) for c in h] for h in HANDS], [parse_card(c) for c in SKAT])
    for a in (PASS, PASS, Bid(18), PLAY_HAND, Declare(Declaration("hearts", hand=True, declarations={"spitze": spitze}))):
        deal.apply(a)
    for card in leads:
        deal.apply(PLAYS[parse_card(card)])
        while deal.to_move != 0 and not deal.done:
            deal.apply(deal.legal_actions()[0])
    assert deal.done
    return deal.result()


def test_three_spitzen_win_the_last_three_tricks(rules):
    res = play(rules, ["CJ", "SJ", "HJ", "DJ", "HA", "HT", "CA", "H9", "H8", "H7"], 3)
    # with 6, game 7, hand 8, schneider 9, schwarz 10, spitze 13: 13 x hearts 10
    assert res.won and res.multiplier == 13 and res.value == 130, res.explanation


def test_spitzen_in_the_wrong_order_lose(rules):
    res = play(rules, ["CJ", "SJ", "HJ", "DJ", "HA", "HT", "CA", "H7", "H8", "H9"], 3)
    assert not res.won and res.score == -2 * 130 and "spitze failed" in res.explanation


def test_one_spitze_needs_only_the_last_trick(rules):
    res = play(rules, ["CJ", "SJ", "HJ", "DJ", "HA", "HT", "CA", "H8", "H9", "H7"], 1)
    assert res.won and res.multiplier == 11


def test_more_spitzen_than_allowed_is_refused(rules):
    with pytest.raises(InputError, match="spitze"):
        play(rules, [], 4)


def test_the_ladder_carries_the_spitzen(rules):
    # hearts with 11, game 12, hand ... schwarz announced 17, ouvert 18, spitze x3: 21 x 10
    assert 210 in rules.ladder and 210 not in get_rules("official").ladder
