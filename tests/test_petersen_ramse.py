"""Petersen's all-pass "Ramse" (RULES B11): each in turn picks up the skat and
discards 2, *then* each in turn may choose a grand; else a Ramsch."""

import pytest

from skatcore.engine.deal import PASS, PICK_UP, PUSH_BLIND, Deal, Declare, Phase, deal_cards
from skatcore.errors import InputError
from skatcore.model import Declaration
from skatcore.records.deal import check_record, score_record
from skatcore.rules.compiler import get_rules

GRAND_HAND = Declare(Declaration("grand", hand=True))


def all_passed():
    deal = Deal(get_rules("danish-petersen"), *deal_cards(4))
    for _ in range(3):
        deal.apply(PASS)
    return deal


def push_all(deal):
    for _ in range(3):
        assert deal.legal_actions() == [PICK_UP]  # no blind push, no grand before all pushed
        deal.apply(PICK_UP)
        deal.apply(deal.legal_actions()[0])


def test_grand_only_after_all_pushed():
    deal = all_passed()
    assert deal.phase is Phase.PUSH
    with pytest.raises(InputError, match="only after all have pushed"):
        deal.apply(GRAND_HAND)
    with pytest.raises(InputError, match="blind"):
        deal.apply(PUSH_BLIND)
    push_all(deal)
    assert deal.push_round == 2 and deal.to_move == 0
    assert deal.legal_actions() == [GRAND_HAND, PASS]
    deal.apply(PASS)
    deal.apply(GRAND_HAND)  # middlehand plays the grand
    assert deal.declarer == 1 and deal.phase is Phase.PLAY


def test_all_decline_the_grand_then_ramsch():
    deal = all_passed()
    push_all(deal)
    for _ in range(3):
        deal.apply(PASS)
    assert deal.phase is Phase.PLAY and deal.declarer is None and deal.contract.name == "ramsch"


def test_official_schieberamsch_still_offers_the_grand_before_pushing():
    deal = Deal(get_rules("schieberamsch"), *deal_cards(4))
    assert GRAND_HAND in deal.legal_actions()


def record(game, **extra):
    doc = {"format": "skat-deal/1", "game": game, **extra}
    check_record(doc, "t")
    return score_record(doc, get_rules("danish-petersen"), "t")


def test_record_grand_after_the_pushes_names_its_declarer():
    game = {"type": "grand", "hand": True, "pushes": [["HA", "H7"], ["SA", "S7"], ["DA", "D7"]]}
    res = record(game, declarer="middlehand", outcome={"declarer_points": 70, "declarer_tricks": 6, "matadors": {"with": 2}})
    assert res.declarer == 1 and res.score == 80  # with 2, game 3, hand 4 x grand 20
    with pytest.raises(InputError, match="needs `declarer`"):
        record(game, outcome={"declarer_points": 70, "declarer_tricks": 6, "matadors": {"with": 2}})


def test_record_ramse_ramsch_fewest_points_wins():
    res = record({"type": "ramsch", "pushes": [["HA", "H7"], ["SA", "S7"], ["DA", "D7"]]},
                 outcome={"points": {"forehand": 31, "middlehand": 54, "rearhand": 35},
                          "tricks": {"forehand": 3, "middlehand": 5, "rearhand": 2}, "last_trick": "middlehand"})
    assert res.scores == {"forehand": 10, "middlehand": 0, "rearhand": 0}
