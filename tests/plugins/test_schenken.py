"""Schenken at the table (docs/rules/house-rules.md#b6) as table calls of the live Deal: the
defenders concede before the first card; the declarer accepts (scored as won
with 61-89, nothing played) or plays on for schneider, then schwarz."""

from pathlib import Path

import pytest

from skatcore.engine.deal import PASS, PICK_UP, PLAY_HAND, PLAYS, Bid, Call, Deal, Declare
from skatcore.errors import InputError
from skatcore.model import Declaration
from skatcore.rules.compiler import get_rules

RULES = Path(__file__).parents[1] / "vectors" / "rulesets" / "schenken.yaml"
# rearhand declares diamonds at 18 without 4 (the jacks sit with forehand and middlehand)
HANDS = [["CJ", "SJ", "CA", "CT", "CK", "CQ", "C9", "C8", "C7", "SA"],
         ["HJ", "DJ", "HA", "HT", "HK", "HQ", "H9", "H8", "H7", "ST"],
         ["DA", "DT", "DK", "DQ", "D9", "D8", "D7", "SK", "SQ", "S9"]]
SKAT = ["S8", "S7"]


def deal_declared(game="clubs", hand=True):
    from skatcore.cards import parse_card

    rules = get_rules(str(RULES))
    deal = Deal(rules, [[parse_card(c) for c in h] for h in HANDS], [parse_card(c) for c in SKAT])
    for a in (PASS, Bid(18), PASS):  # middlehand passes, rearhand bids 18, forehand (senior) passes
        deal.apply(a)
    assert deal.declarer == 2
    deal.apply(PLAY_HAND if hand else PICK_UP)
    if not hand:
        deal.apply(deal.legal_actions()[0])
    deal.apply(Declare(Declaration(game, hand=hand)))
    return deal


def names(calls):
    """The Schenken calls among those offered (the ruleset also has Kontra/Re)."""
    return [c.name for c in calls if c.name.startswith("schenken")]


def test_offer_then_accept_settles_as_won_with_61():
    deal = deal_declared("diamonds")
    assert names(deal.legal_calls(0)) == ["schenken"] and names(deal.legal_calls(2)) == []
    deal.apply(Call(0, "schenken"))
    assert names(deal.legal_calls(2)) == ["schenken_accept", "schenken_refuse"]
    assert names(deal.legal_calls(0)) == [] and names(deal.legal_calls(1)) == []
    deal.apply(Call(2, "schenken_accept"))
    assert deal.done and not deal.tricks[0].cards
    res = deal.result()
    # rearhand holds no jack: diamonds without 4, game 5, hand 6 = 54 (no schneider at 61 points)
    assert res.won and res.declarer_points == 61 and res.value == 54 and res.score == 54


def test_refused_then_schneider_given_and_accepted():
    deal = deal_declared("diamonds")
    deal.apply(Call(1, "schenken"))
    deal.apply(Call(2, "schenken_refuse"))
    assert names(deal.legal_calls(0)) == ["schenken_schneider"]
    deal.apply(Call(0, "schenken_schneider"))
    assert names(deal.legal_calls(2)) == ["schenken_schneider_accept", "schenken_schwarz"]
    deal.apply(Call(2, "schenken_schneider_accept"))
    res = deal.result()
    # without 4, game 5, hand 6, schneider 7, schneider announced 8: 8 x 9 = 72
    assert res.won and res.value == 72 and deal.declaration.declarations["schenken"] == "schneider"


def test_refused_game_must_make_schneider():
    deal = deal_declared("diamonds")
    deal.apply(Call(0, "schenken"))
    deal.apply(Call(2, "schenken_refuse"))
    deal.apply(PLAYS[deal.legal_actions()[0].card])  # the first card closes the window
    assert names(deal.legal_calls(0)) == [] and names(deal.legal_calls(2)) == []
    while not deal.done:
        deal.apply(deal.legal_actions()[0])
    res = deal.result()
    assert "schneider announced" in res.explanation
    assert res.won == (res.declarer_points >= 90)


def test_an_unanswered_offer_counts_as_refused():
    deal = deal_declared("diamonds")
    deal.apply(Call(0, "schenken"))
    while not deal.done:
        deal.apply(deal.legal_actions()[0])
    assert "schneider announced" in deal.result().explanation


def test_no_schenken_in_null_and_not_twice():
    deal = deal_declared("null")
    assert names(deal.legal_calls(0)) == []
    with pytest.raises(InputError, match="cannot call schenken"):
        deal.apply(Call(0, "schenken"))
    deal = deal_declared("diamonds")
    deal.apply(Call(0, "schenken"))
    with pytest.raises(InputError, match="cannot call schenken"):
        deal.apply(Call(1, "schenken"))


def test_official_has_no_table_calls():
    rules = get_rules("official")
    assert not rules.calls


def test_random_tables_with_schenken_calls_finish_and_score():
    """Random players also make the calls; a settled deal ends the game loop."""
    from skatcore.bots import RandomPlayer
    from skatcore.engine.deal import deal_cards
    from skatcore.sim.simulate import play

    rules = get_rules(str(RULES))
    seen = set()
    for i in range(300):
        deal = play(rules, *deal_cards(i), [RandomPlayer(seed=3 * i + k) for k in range(3)])
        assert deal.done
        res = deal.result()
        if deal.declaration is not None:
            seen.add(deal.declaration.declarations.get("schenken"))
            if deal.settled:
                assert not deal.tricks[0].cards and res.won in (True, False)
    assert {"offered", "accepted"} <= seen
