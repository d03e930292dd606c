"""Ramsch (docs/rules/ramsch.md#b3), Schieberamsch (B4) and Petersen's Ramse (B11) at the
level of the Deal state machine and the command line.

The score tables themselves are proven by tests/vectors/ramsch.yaml and
schieberamsch.yaml; this file checks what a summary cannot show: the push
phase as real steps, replays of played records, one-line errors with exit
status 2, and random full deals (hypothesis) against scores computed from
card names and docs/rules/ (tests/rules_by_hand.py).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_by_hand import POINTS, augen_scores, cards, check_ramsch_tricks, names, play_random, score_cli

from skatcore.cards import parse_card
from skatcore.engine.deal import PASS, PICK_UP, PLAYS, Deal, Declare, Discard, Phase, deal_cards
from skatcore.errors import InputError
from skatcore.model import SEATS, Declaration
from skatcore.records.deal import check_record, score_record
from skatcore.rules.compiler import get_rules
from skatcore_plugins.ramsch import PUSH_BLIND

TEST_RULESETS = Path(__file__).parents[1] / "vectors" / "params"
SETTINGS = settings(deadline=None, max_examples=120, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------
# A played Ramsch record (generated with the engine, checked by hand)
# ---------------------------------------------------------------------------

PLAYED_RAMSCH = {
    "format": "skat-deal/1",
    "hands": {
        "forehand": ["H7", "HT", "DJ", "HJ", "C8", "HQ", "H9", "HK", "SA", "D8"],
        "middlehand": ["D9", "SQ", "H8", "SJ", "CQ", "D7", "HA", "S8", "DK", "C7"],
        "rearhand": ["ST", "CK", "CA", "DQ", "C9", "S7", "CJ", "S9", "SK", "CT"],
    },
    "skat": ["DA", "DT"],
    "game": {"type": "ramsch"},
    "play": ["SA", "S8", "S7", "HJ", "SJ", "CJ", "SK", "HK", "SQ", "CK", "C8", "CQ", "DQ", "D8", "D7",
             "C9", "HT", "C7", "S9", "HQ", "HA", "CT", "H9", "DK", "CA", "H7", "H8", "ST", "DJ", "D9"],
}
# by hand: F SA S8 S7 -> F 11; F HJ SJ CJ -> R 6; R SK HK SQ -> R 11; R CK C8 CQ -> R 7;
# R DQ D8 D7 -> R 3; R C9 HT C7 -> R 10; R S9 HQ HA -> R 14; R CT H9 DK -> R 14;
# R CA H7 H8 -> R 11; R ST DJ D9 -> F 12.  F 23, M 0, R 76; skat 21 to forehand.
PLAYED_WINNERS = ["forehand", "rearhand", "rearhand", "rearhand", "rearhand", "rearhand", "rearhand",
                  "rearhand", "rearhand", "forehand"]


def test_played_ramsch_record_replays_to_the_hand_checked_score():
    rules = get_rules("ramsch")
    check_record(PLAYED_RAMSCH, "played")
    result = score_record(PLAYED_RAMSCH, rules, "played").to_json()
    assert result["game"] == "ramsch" and result["declarer"] is None
    assert result["points"] == {"forehand": 23, "middlehand": 0, "rearhand": 76}
    assert result["tricks"] == {"forehand": 2, "middlehand": 0, "rearhand": 8}
    # rearhand has most (76), middlehand is a Jungfrau: 76 x 2
    assert result["scores"] == {"forehand": 0, "middlehand": 0, "rearhand": -152}
    assert "points forehand 44, middlehand 0, rearhand 76" in result["explanation"]


def test_played_ramsch_record_tricks_follow_the_rules():
    rec = PLAYED_RAMSCH
    hands = [cards(*rec["hands"][s]) for s in SEATS]
    deal = Deal(get_rules("ramsch"), hands, cards(*rec["skat"]))
    assert deal.phase is Phase.PLAY and deal.declarer is None and deal.to_move == 0  # no bidding, forehand leads
    for c in cards(*rec["play"]):
        deal.apply(next(a for a in deal.legal_actions() if a.card == c))
    assert deal.done
    assert [SEATS[t.winner] for t in deal.tricks] == PLAYED_WINNERS
    points, tricks = check_ramsch_tricks(deal)
    assert points == [44, 0, 76] and tricks == [2, 0, 8]
    assert deal.result().scores == augen_scores(points, tricks, blind=0)


def test_ramsch_legal_plays_follow_grand_order():
    """A jack is a trump, not a card of its suit: on a heart lead a player
    holding hearts must play one, not a jack; on a jack lead, a jack."""
    rec = PLAYED_RAMSCH
    rules = get_rules("ramsch")
    deal = Deal(rules, [cards(*rec["hands"][s]) for s in SEATS], cards(*rec["skat"]))
    deal.apply(PLAYS[parse_card("H7")])
    assert sorted(names(a.card for a in deal.legal_actions())) == ["H8", "HA"]
    with pytest.raises(InputError, match="SJ does not follow H"):
        deal.apply(PLAYS[parse_card("SJ")])
    deal = Deal(rules, [cards(*rec["hands"][s]) for s in SEATS], cards(*rec["skat"]))
    deal.apply(PLAYS[parse_card("HJ")])
    assert names(a.card for a in deal.legal_actions()) == ["SJ"]


# ---------------------------------------------------------------------------
# B4 Schieberamsch: the push phase
# ---------------------------------------------------------------------------

SCHIEBE_HANDS = {
    "forehand": ["CK", "C9", "DK", "DJ", "D7", "DA", "H7", "SA", "HA", "HK"],
    "middlehand": ["CJ", "HJ", "S7", "H9", "DQ", "DT", "D8", "C8", "HT", "D9"],
    "rearhand": ["H8", "SQ", "S8", "C7", "ST", "CQ", "HQ", "CA", "CT", "SK"],
}
SCHIEBE_SKAT = ["S9", "SJ"]


def schiebe_deal(ruleset="schieberamsch") -> Deal:
    rules = get_rules(ruleset if "/" not in ruleset else str(TEST_RULESETS / ruleset.split("/")[-1]))
    return Deal(rules, [cards(*SCHIEBE_HANDS[s]) for s in SEATS], cards(*SCHIEBE_SKAT))


def test_push_phase_runs_forehand_middlehand_rearhand_then_forehand_leads():
    deal = schiebe_deal()
    assert deal.step is not None and deal.step.name == "push" and deal.to_move == 0 and deal.declarer is None
    actions = list(deal.legal_actions())
    assert PICK_UP in actions and PUSH_BLIND in actions
    assert Declare(Declaration("grand", hand=True)) in actions  # a grand hand instead of pushing
    deal.apply(PUSH_BLIND)
    assert deal.step is not None and deal.step.name == "push" and deal.to_move == 1
    deal.apply(PICK_UP)
    assert deal.phase is Phase.DISCARD and deal.to_move == 1
    assert set(names(c for c in range(32) if deal.hands[1] >> c & 1)) >= {"S9", "SJ"}
    deal.apply(Discard(tuple(cards("S9", "D9"))))
    assert deal.step is not None and deal.step.name == "push" and deal.to_move == 2
    deal.apply(PICK_UP)
    deal.apply(Discard(tuple(cards("CA", "CT"))))
    assert deal.phase is Phase.PLAY and deal.to_move == 0 and deal.contract.name == "ramsch"
    assert list(deal.marks["pushes"]) == [(0, True), (1, False), (2, False)]
    assert sorted(names(c for c in range(32) if deal.skat >> c & 1)) == ["CA", "CT"]  # the last push
    assert all(len(deal.hand_of(s)) == 10 for s in range(3))


def test_jacks_may_not_be_pushed():
    deal = schiebe_deal()
    deal.apply(PUSH_BLIND)
    deal.apply(PICK_UP)  # middlehand now holds CJ HJ SJ
    discards = [names(a.cards) for a in deal.legal_actions()]
    assert len(discards) == 36  # 12 cards, 3 jacks barred: C(9, 2)
    assert not any(c[1] == "J" for pair in discards for c in pair)
    with pytest.raises(InputError, match="SJ may not be pushed"):
        deal.apply(Discard(tuple(cards("SJ", "D9"))))


def test_jacks_may_be_pushed_with_push_jacks():
    deal = schiebe_deal("rulesets/schieberamsch-push-jacks.yaml")
    deal.apply(PUSH_BLIND)
    deal.apply(PICK_UP)
    discards = [sorted(names(a.cards)) for a in deal.legal_actions()]
    assert len(discards) == 66 and ["D9", "SJ"] in discards
    deal.apply(Discard(tuple(cards("SJ", "D9"))))
    assert deal.step is not None and deal.step.name == "push" and deal.to_move == 2


def test_blind_push_forbidden_when_blind_false():
    deal = schiebe_deal("rulesets/schieberamsch-no-blind.yaml")
    assert PUSH_BLIND not in list(deal.legal_actions())
    with pytest.raises(InputError, match="may not be pushed blind"):
        deal.apply(PUSH_BLIND)
    deal.apply(PICK_UP)  # looking is still fine
    assert deal.phase is Phase.DISCARD


def test_no_grand_hand_instead_when_grand_hand_false():
    deal = schiebe_deal("rulesets/schieberamsch-no-grand.yaml")
    assert not any(isinstance(a, Declare) for a in deal.legal_actions())
    with pytest.raises(InputError, match="not allowed"):
        deal.apply(Declare(Declaration("grand", hand=True)))


def test_grand_hand_instead_of_pushing_becomes_a_declarer_game():
    deal = schiebe_deal()
    deal.apply(PUSH_BLIND)
    with pytest.raises(InputError, match="only a grand hand"):
        deal.apply(Declare(Declaration("grand", hand=False)))
    with pytest.raises(InputError, match="only a grand hand"):
        deal.apply(Declare(Declaration("clubs", hand=True)))
    deal.apply(Declare(Declaration("grand", hand=True)))
    assert deal.declarer == 1 and deal.contract.name == "grand" and deal.phase is Phase.PLAY
    assert deal.declaration.hand and deal.to_move == 0
    rng = random.Random(1)
    while not deal.done:
        deal.apply(rng.choice(list(deal.legal_actions())))
    result = deal.result()
    assert result.declarer == 1 and result.game == "grand" and result.hand
    assert result.scores["forehand"] == result.scores["rearhand"] == 0
    assert result.scores["middlehand"] == result.score != 0
    # the declarer owns the untouched skat (S9 SJ: 2 points)
    facts = deal.facts()
    taken = sum(POINTS[c[1]] for t in deal.tricks if t.winner == 1 for c in names(t.cards))
    assert facts.declarer_points == taken + 2


def test_played_schieberamsch_record_replays():
    rec = {"format": "skat-deal/1", "hands": SCHIEBE_HANDS, "skat": SCHIEBE_SKAT,
           "game": {"type": "ramsch", "pushes": ["blind", ["S9", "D9"], ["CA", "CT"]]},
           "play": ["DJ", "HJ", "CQ", "SJ", "ST", "CK", "CJ", "SQ", "DA", "S7", "SK", "SA", "H7", "H9", "H8", "DT",
                    "D9", "D7", "HT", "HQ", "HK", "DQ", "C7", "DK", "HA", "C8", "S8", "C9", "D8", "S9"]}
    result = score_record(rec, get_rules("schieberamsch")).to_json()
    assert result["points"] == {"forehand": 33, "middlehand": 66, "rearhand": 0}
    # the pushed CA CT (21) are the skat and go to forehand with the last trick;
    # middlehand's 66 doubles for rearhand's Jungfrau and for the blind push
    assert result["scores"] == {"forehand": 0, "middlehand": -264, "rearhand": 0}



# ---------------------------------------------------------------------------
# B11 Petersen's Ramse: each in turn picks up the skat and discards 2, *then*
# each in turn may choose a grand; else a Ramsch
# ---------------------------------------------------------------------------

GRAND_HAND = Declare(Declaration("grand", hand=True))


def all_passed():
    deal = Deal(get_rules("danish-petersen"), *deal_cards(4))
    for _ in range(3):
        deal.apply(PASS)
    return deal


def push_all(deal):
    for _ in range(3):
        assert deal.legal_actions() == [PICK_UP, PASS]  # no blind push, no grand before all pushed; may decline
        deal.apply(PICK_UP)
        deal.apply(deal.legal_actions()[0])


def test_grand_only_after_all_pushed():
    deal = all_passed()
    assert deal.step is not None and deal.step.name == "push"
    with pytest.raises(InputError, match="only after all have pushed"):
        deal.apply(GRAND_HAND)
    with pytest.raises(InputError, match="blind"):
        deal.apply(PUSH_BLIND)
    push_all(deal)
    assert deal.state["push"]["round"] == 2 and deal.to_move == 0
    assert deal.legal_actions() == [PASS, GRAND_HAND]
    deal.apply(PASS)
    deal.apply(GRAND_HAND)  # middlehand plays the grand
    assert deal.declarer == 1 and deal.phase is Phase.PLAY


def test_a_ramse_player_may_decline_to_pick_up():
    """B11: each in turn *may* pick the skat up; one who declines passes it on
    unseen, as it lies, and nothing doubles."""
    deal = all_passed()
    skat, hands = deal.skat, list(deal.hands)
    deal.apply(PASS)  # forehand declines
    assert deal.skat == skat and list(deal.hands) == hands and deal.to_move == 1
    deal.apply(PICK_UP)  # middlehand picks up and pushes two cards on
    deal.apply(deal.legal_actions()[0])
    deal.apply(PASS)  # rearhand declines the skat middlehand pushed
    assert deal.marks["declined"] == (0, 2) and [seat for seat, _ in deal.marks["pushes"]] == [1]
    assert deal.state["push"]["round"] == 2 and deal.legal_actions() == [PASS, GRAND_HAND]
    for _ in range(3):
        deal.apply(PASS)
    assert deal.contract.name == "ramsch" and deal.phase is Phase.PLAY


def test_schieberamsch_has_no_declining():
    deal = Deal(get_rules("pub"), *deal_cards(4))
    for _ in range(3):
        deal.apply(PASS)
    assert PASS not in deal.legal_actions()
    with pytest.raises(InputError, match="declining to pick it up is not allowed in this ruleset"):
        deal.apply(PASS)


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


# ---------------------------------------------------------------------------
# One-line errors through the command line (exit 2)
# ---------------------------------------------------------------------------

RAMSCH_SUMMARY = {"game": {"type": "ramsch"},
                  "outcome": {"points": {"forehand": 31, "middlehand": 54, "rearhand": 35},
                              "tricks": {"forehand": 3, "middlehand": 5, "rearhand": 2}, "last_trick": "middlehand"}}


@pytest.mark.parametrize("record", [RAMSCH_SUMMARY, {**RAMSCH_SUMMARY, "bidding": ["pass", "pass", "pass"]}],
                         ids=["no bidding", "all passed (was accepted as thrown in)"])
def test_cli_ramsch_record_under_official_is_refused(tmp_path, capsys, record):
    rc, out, err = score_cli(tmp_path, capsys, {**record, "ruleset": "official"})
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and "contract 'ramsch' does not exist in ruleset 'official'" in err


def test_cli_ramsch_record_scores_under_ramsch(tmp_path, capsys):
    rc, out, _err = score_cli(tmp_path, capsys, {**RAMSCH_SUMMARY, "ruleset": "ramsch"})
    assert rc == 0 and "middlehand -54" in out


def test_cli_jack_pushed_in_a_summary_is_refused(tmp_path, capsys):
    record = {**RAMSCH_SUMMARY, "ruleset": "schieberamsch", "game": {"type": "ramsch", "pushes": [["CJ", "D7"]]}}
    rc, _out, err = score_cli(tmp_path, capsys, record)
    assert rc == 2 and "game.pushes[0][0]: CJ may not be pushed" in err



# ---------------------------------------------------------------------------
# Random full deals (hypothesis): they finish, distribute 120 card points,
# and the sheet holds what RULES says
# ---------------------------------------------------------------------------


@SETTINGS
@given(st.randoms(use_true_random=False))
def test_random_ramsch_deals(rng):
    deal = play_random(get_rules("ramsch"), rng)
    assert deal.declarer is None and deal.contract.name == "ramsch"
    points, tricks = check_ramsch_tricks(deal)
    assert sum(points) == 120
    result = deal.result()
    assert result.scores == augen_scores(points, tricks, blind=0)
    assert result.score == 0 and result.declarer is None


@SETTINGS
@given(st.randoms(use_true_random=False))
def test_random_schieberamsch_deals(rng):
    deal = play_random(get_rules("schieberamsch"), rng)
    pushed = [names(a.cards) for seat, a in deal.history if isinstance(a, Discard)]
    assert not any(c[1] == "J" for pair in pushed for c in pair), "a jack was pushed"
    result = deal.result()
    if deal.declarer is not None:  # a grand hand instead of pushing
        assert deal.contract.name == "grand" and deal.declaration.hand
        assert len(list(deal.marks["pushes"])) == deal.declarer  # the players before the declarer pushed
        assert sum(result.scores.values()) == result.score == result.scores[SEATS[deal.declarer]]
        return
    assert [seat for seat, _ in list(deal.marks["pushes"])] == [0, 1, 2]
    points, tricks = check_ramsch_tricks(deal)
    blind = sum(1 for _, b in list(deal.marks["pushes"]) if b)
    assert result.scores == augen_scores(points, tricks, blind)
