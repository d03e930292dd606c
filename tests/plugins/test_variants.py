"""Variant rulesets texas, pre1999, danish, danish-aarhus, danish-petersen
(docs/rules/house-rules.md#b7, B8, B9, B11) and the plugins they are made of.

The worked examples are vectors in tests/vectors/<ruleset>.yaml.  Here: for
every parameter a test that fails if the parameter were ignored, the bid
ladders checked against a brute-force enumeration of every reachable value,
and random legal deals played to the end under each ruleset.
"""

from __future__ import annotations

import random
from itertools import count

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcore.cards import parse_card
from skatcore.engine.deal import Deal, deal_cards
from skatcore.engine.scoring import make_facts
from skatcore.errors import InputError
from skatcore.model import Declaration
from skatcore.records.deal import check_record, score_record
from skatcore.rules.compiler import compile_rules, get_rules
from skatcore.rules.ruleset import load_ruleset

VARIANTS = ("texas", "pre1999", "danish", "danish-aarhus", "danish-petersen")
_names = count()


def derive(tmp_path, base: str, **plugins):
    """Compile a ruleset that extends ``base`` and overrides plugin parameters."""
    name = f"{base}-derived-{next(_names)}"
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump({"name": name, "extends": base, "plugins": plugins}), "utf-8")
    return compile_rules(load_ruleset(path))


def score(rules, **record):
    doc = {"format": "skat-deal/1", "declarer": "forehand", "bid": 18, **record}
    check_record(doc, "test")
    return score_record(doc, rules, "test")


def refused(rules, **record) -> str:
    with pytest.raises(InputError) as info:
        score(rules, **record)
    return str(info.value)


SPADES_90 = dict(game={"type": "spades"}, outcome={"declarer_points": 90, "matadors": {"with": 1}})


# ---------------------------------------------------------------------------
# official: schneider_at, out_of_schneider, grand_base, null_values, min_bid
# ---------------------------------------------------------------------------


def test_official_defaults_unchanged():
    th = get_rules("official").thresholds
    assert (th.win, th.schneider, th.out_of_schneider) == (61, 90, 31)


def test_schneider_at_90_vs_91():
    assert score(get_rules("official"), **SPADES_90).value == 33  # schneider
    assert score(get_rules("texas"), **SPADES_90).value == 22
    assert score(get_rules("danish"), **SPADES_90).value == 22
    game = dict(SPADES_90, outcome={"declarer_points": 91, "matadors": {"with": 1}})
    assert score(get_rules("texas"), **game).value == 33


def test_out_of_schneider(tmp_path):
    rec = dict(game={"type": "spades"}, outcome={"declarer_points": 30, "matadors": {"with": 1}})
    assert score(get_rules("texas"), **rec).value == 33  # 30 < 31: the declarer is schneider
    lenient = derive(tmp_path, "texas", official={"out_of_schneider": 30})
    assert score(lenient, **rec).value == 22


def test_pre1999_old_grand_20_is_one_line(tmp_path):
    rec = dict(game={"type": "grand"}, outcome={"declarer_points": 80, "matadors": {"with": 2}})
    assert score(get_rules("pre1999"), **rec).value == 72
    old = derive(tmp_path, "pre1999", official={"grand_base": 20})
    assert score(old, **rec).value == 60
    assert 20 * 3 in old.values["grand"] and 24 * 3 not in old.values["grand"]


def test_pre1999_no_null_hand_is_one_line(tmp_path):
    rec = dict(bid=35, game={"type": "null", "hand": True}, outcome={"declarer_tricks": 0})
    assert score(get_rules("pre1999"), **rec).value == 35
    no_hand = derive(tmp_path, "pre1999", official={"null_values": {"null_hand": None}})
    assert "null hand is not played" in refused(no_hand, **dict(rec, bid=23))
    assert "35 is not a game value" in refused(no_hand, **rec)
    assert (True, False) not in no_hand.contracts["null"].fixed
    assert 35 not in no_hand.values["null"]
    # the other nulls keep their values
    assert dict(no_hand.contracts["null"].fixed) == {(False, False): 23, (False, True): 46, (True, True): 59}


def test_pre1999_null_ouvert_hand_69_is_one_line(tmp_path):
    rec = dict(bid=69, game={"type": "null", "hand": True, "ouvert": True}, outcome={"declarer_tricks": 0})
    assert "69 is not a game value" in refused(get_rules("pre1999"), **rec)
    r = derive(tmp_path, "pre1999", official={"null_values": {"null_ouvert_hand": 69}})
    assert score(r, **rec).value == 69


def test_min_bid_24():
    rec = dict(game={"type": "diamonds"}, outcome={"declarer_points": 70, "matadors": {"with": 1}})
    assert score(get_rules("danish"), **rec).score == 18
    assert "18 is not a game value" in refused(get_rules("danish-petersen"), **rec)
    assert get_rules("danish-petersen").ladder[0] == 24


# ---------------------------------------------------------------------------
# lost_factor
# ---------------------------------------------------------------------------

HAND_LOSS = dict(game={"type": "spades", "hand": True}, outcome={"declarer_points": 50, "matadors": {"with": 1}})
SKAT_LOSS = dict(game={"type": "spades"}, outcome={"declarer_points": 50, "matadors": {"with": 1}})


def test_lost_hand_single_vs_official_double():
    assert score(get_rules("official"), **HAND_LOSS).score == -66
    assert score(get_rules("pre1999"), **HAND_LOSS).score == -33
    assert score(get_rules("pre1999"), **SKAT_LOSS).score == -44


def test_lost_factor_skat_parameter(tmp_path):
    r = derive(tmp_path, "pre1999", lost_factor={"skat": 1})
    assert score(r, **SKAT_LOSS).score == -22
    assert score(r, **HAND_LOSS).score == -33


def test_lost_factor_defaults_are_official(tmp_path):
    r = derive(tmp_path, "official", lost_factor={})
    assert score(r, **HAND_LOSS).score == -66 and score(r, **SKAT_LOSS).score == -44


# ---------------------------------------------------------------------------
# grand_ouvert
# ---------------------------------------------------------------------------

GRAND_OUVERT = dict(game={"type": "grand", "hand": True, "ouvert": True},
                    outcome={"declarer_points": 120, "declarer_tricks": 10, "matadors": {"with": 2}})


def test_grand_ouvert_base_and_multiplier(tmp_path):
    assert score(get_rules("official"), **GRAND_OUVERT).value == 9 * 24
    assert score(get_rules("pre1999"), **GRAND_OUVERT).value == 8 * 36
    with_mult = derive(tmp_path, "pre1999", grand_ouvert={"ouvert_multiplier": True})
    assert score(with_mult, **GRAND_OUVERT).value == 9 * 36
    base_off = derive(tmp_path, "pre1999", grand_ouvert={"base": None})
    assert score(base_off, **GRAND_OUVERT).value == 8 * 24
    # suits keep their ouvert multiplier
    hearts = dict(GRAND_OUVERT, game={"type": "hearts", "hand": True, "ouvert": True})
    assert score(get_rules("pre1999"), **hearts).value == 9 * 10


def test_grand_ouvert_ladder():
    assert 252 in get_rules("pre1999").ladder and 252 not in get_rules("official").ladder
    rec = dict(bid=252, **GRAND_OUVERT)
    rec["outcome"] = {**rec["outcome"], "matadors": {"with": 1}}
    assert score(get_rules("pre1999"), **rec).won is True
    assert "252 is not a game value" in refused(get_rules("official"), **rec)


# ---------------------------------------------------------------------------
# announcements
# ---------------------------------------------------------------------------

TEXAS_288 = dict(game={"type": "grand", "ouvert": True},
                 outcome={"declarer_points": 120, "declarer_tricks": 10, "matadors": {"with": 4}})


def test_announcements_defaults_are_official(tmp_path):
    r = derive(tmp_path, "official", announcements={})
    off = get_rules("official")
    def table(rules):  # the announcements in force, or refused
        return {k: "refused" if isinstance(v, str) else v for k, v in rules.announcements.items()}

    assert table(r) == table(off)
    assert dict(r.values) == dict(off.values) and r.ladder == off.ladder
    assert score(r, **GRAND_OUVERT).explanation == score(off, **GRAND_OUVERT).explanation


def test_after_pickup():
    rec = dict(game={"type": "clubs", "schneider": True}, outcome={"declarer_points": 95, "matadors": {"with": 1}})
    assert score(get_rules("texas"), **rec).value == 48
    assert "only in hand games" in refused(get_rules("official"), **dict(rec, game={**rec["game"], "hand": False}))
    assert "schneider may be announced only in hand games" in refused(get_rules("danish"), **dict(rec, game={**rec["game"], "hand": False}))


def test_ouvert_double_vs_add(tmp_path):
    assert score(get_rules("texas"), **TEXAS_288).value == 288
    adding = derive(tmp_path, "texas", announcements={"ouvert": "add"})
    r = score(adding, **TEXAS_288)
    assert r.multiplier == 10 and r.value == 160
    assert 16 * 11 not in get_rules("texas").values["grand"] and 16 * 12 in get_rules("texas").values["grand"]
    assert max(adding.values["grand"]) == 16 * 11  # official: with 4 ... ouvert 11


def test_ouvert_implies(tmp_path):
    # Danish open after the skat: 6 tricks are enough, no schneider/schwarz counted
    rec = dict(game={"type": "hearts", "ouvert": True},
               outcome={"declarer_points": 70, "declarer_tricks": 6, "matadors": {"with": 1}})
    r = score(get_rules("danish"), **rec)
    assert (r.won, r.multiplier, r.value) == (True, 3, 30)
    committed = derive(tmp_path, "danish", announcements={"ouvert_implies": ["schneider", "schwarz"]})
    r = score(committed, **rec)
    assert (r.won, r.multiplier) == (False, 7)
    assert "ouvert, and the declarer lost a trick" in r.explanation  # what failed: the open game committed to schwarz


def test_ouvert_label(tmp_path):
    rec = dict(game={"type": "hearts", "ouvert": True},
               outcome={"declarer_points": 70, "declarer_tricks": 6, "matadors": {"with": 1}})
    assert "open 3" in score(get_rules("danish"), **rec).explanation
    plain = derive(tmp_path, "danish", announcements={"ouvert_label": "ouvert"})
    assert "ouvert 3" in score(plain, **rec).explanation


def test_announcements_need_an_ouvert_item(tmp_path):
    path = tmp_path / "bare.yaml"
    path.write_text(yaml.safe_dump({"name": "bare", "plugins": {"announcements": {"ouvert": "double"}}}), "utf-8")
    with pytest.raises(InputError, match="announcements"):
        compile_rules(load_ruleset(path))


# ---------------------------------------------------------------------------
# settlement
# ---------------------------------------------------------------------------

LOST_GRAND_OPEN = dict(declarer="middlehand", game={"type": "grand", "ouvert": True},
                       outcome={"declarer_points": 50, "declarer_tricks": 4, "matadors": {"with": 2}})
WON_GRAND_OPEN = dict(LOST_GRAND_OPEN, outcome={"declarer_points": 70, "declarer_tricks": 6, "matadors": {"with": 2}})


def test_settlement_tournament_vs_classic(tmp_path):
    r = score(get_rules("danish"), **LOST_GRAND_OPEN)
    assert r.scores == {"forehand": 80, "middlehand": -160, "rearhand": 80}
    classic = derive(tmp_path, "danish", settlement={"mode": "classic"})
    r = score(classic, **LOST_GRAND_OPEN)
    assert r.scores == {"forehand": 0, "middlehand": -160, "rearhand": 0} and r.score == -160


def test_settlement_money(tmp_path):
    money = derive(tmp_path, "danish", settlement={"mode": "money"})
    r = score(money, **LOST_GRAND_OPEN)
    assert r.scores == {"forehand": 160, "middlehand": -320, "rearhand": 160}
    r = score(money, **WON_GRAND_OPEN)
    assert r.scores == {"forehand": -80, "middlehand": 160, "rearhand": -80}


def test_settlement_leaves_ramsch_alone(tmp_path):
    rules = derive(tmp_path, "texas", settlement={"mode": "money"})
    doc = {"format": "skat-deal/1", "bidding": ["pass", "pass", "pass"], "game": {"type": "ramsch"},
           "outcome": {"points": {"forehand": 25, "middlehand": 50, "rearhand": 35},
                       "tricks": {"forehand": 2, "middlehand": 5, "rearhand": 3}, "last_trick": "middlehand"}}
    check_record(doc, "t")
    assert score_record(doc, rules, "t").scores == {"forehand": 10, "middlehand": 0, "rearhand": 0}


# ---------------------------------------------------------------------------
# spitze (music)
# ---------------------------------------------------------------------------

MUSIC = dict(
    hands={"forehand": ["HJ", "DJ", "HA", "HT", "HK", "HQ", "H9", "H8", "H7", "CA"],
           "middlehand": ["CJ", "SJ", "CT", "CK", "CQ", "C9", "C8", "C7", "SA", "ST"],
           "rearhand": ["SK", "SQ", "S9", "S8", "DA", "DT", "DK", "DQ", "D9", "D8"]},
    skat=["S7", "D7"],
    game={"type": "hearts", "discard": ["S7", "D7"], "declarations": {"spitze": True}},
    play=["HK", "CJ", "DA", "C8", "DK", "CA", "DJ", "SJ", "DT", "C9", "S8", "HA", "HJ", "SA", "DQ", "HT", "CT", "SK",
          "HQ", "CK", "SQ", "H8", "ST", "D8", "H9", "CQ", "D9", "H7", "C7", "S9"],
)


def test_spitze_worth_and_label():
    aarhus = score(get_rules("danish-aarhus"), **MUSIC)
    petersen = score(get_rules("danish-petersen"), **dict(MUSIC, bid=24))
    assert (aarhus.multiplier, aarhus.value) == (5, 50) and "music 5" in aarhus.explanation
    assert (petersen.multiplier, petersen.value) == (4, 40) and "music 4" in petersen.explanation


def test_spitze_label_parameter(tmp_path):
    r = derive(tmp_path, "danish-aarhus", spitze={"label": "Spitze"})
    assert "Spitze 5" in score(r, **MUSIC).explanation


def test_spitze_unknown_without_the_plugin():
    assert "unknown declaration 'spitze'" in refused(get_rules("danish"), **MUSIC)


def test_spitze_refused_in_null_by_the_refusal_hook():
    rules = get_rules("danish-aarhus")
    assert "suit and grand" in rules.declaration_refusals[("null", False, "spitze")]
    assert ("grand", True, "spitze") not in rules.declaration_refusals
    null = dict(bid=35, game={"type": "null", "declarations": {"spitze": True}}, outcome={"declarer_tricks": 0})
    assert "music (spitze) is played only in suit and grand games" in refused(rules, **null)
    # a declaration given as false is no declaration
    assert score(rules, **dict(null, game={"type": "null", "declarations": {"spitze": False}})).value == 35


def test_spitze_needs_the_lowest_trump_in_grand_too():
    rules = get_rules("danish-petersen")
    trumps = rules.tricks["grand"].order.trumps
    assert trumps[-1] == "DJ" and rules.tricks["hearts"].order.trumps[-1] == "H7"


def test_spitze_values_on_the_ladder():
    # Aarhus: music 2 on top of the Danish maximum 11 in grand (with 4, game, hand, schneider,
    # announced, schwarz, announced, open): 13 x 20
    assert max(get_rules("danish-aarhus").values["grand"]) == 13 * 20
    assert max(get_rules("danish").values["grand"]) == 11 * 20
    assert max(get_rules("danish-petersen").values["hearts"]) == 19 * 10


# ---------------------------------------------------------------------------
# the bid ladder holds exactly the reachable values
# ---------------------------------------------------------------------------

OUTCOMES = [(0, 0), (20, 1), (30, 2), (31, 2), (60, 4), (61, 5), (89, 7), (90, 8), (91, 8), (110, 9), (120, 10)]


def reachable(rules, contract) -> set[int]:
    """Every value a contract can have, by scoring every legal declaration,
    matador count and outcome class through the compiled rules."""
    if contract.family == "null":
        return set(contract.fixed.values())
    trumps = rules.tricks[contract.name].order.trumps
    spitze = [{}, {"spitze": True}] if "spitze" in rules.declarations else [{}]
    last = (parse_card(trumps[-1]), parse_card("CA"), parse_card("SA"))
    out = set()
    for (game, hand, _), answer in rules.announcements.items():
        if game != contract.name or isinstance(answer, str):
            continue
        for extra in spitze:
            d = Declaration(game, hand, "schneider" in answer, "schwarz" in answer, "ouvert" in answer, extra)
            for k in range(1, len(trumps) + 1):
                for sign in (1, -1):
                    for points, tricks in OUTCOMES:
                        facts = make_facts(rules, contract, d, bid=rules.min_bid, declarer=0, matadors=sign * k,
                                           declarer_points=points, declarer_tricks=tricks, defender_tricks=10 - tricks,
                                           last_trick=last, last_trick_winner=0)
                        out.add(rules.score(facts).value)
    return out


@pytest.mark.parametrize("name", VARIANTS)
def test_ladder_is_exactly_the_reachable_values(name):
    rules = get_rules(name)
    every = set()
    for c in rules.declarable():
        values = reachable(rules, c)
        assert set(rules.values[c.name]) == values, c.name
        every |= values
    assert set(rules.ladder) == {v for v in every if v >= rules.min_bid}


# ---------------------------------------------------------------------------
# random legal deals
# ---------------------------------------------------------------------------


def play_random(rules, seed: int):
    rng = random.Random(seed)
    deal = Deal(rules, *deal_cards(rng))
    for _ in range(500):
        if deal.done:
            break
        deal.apply(rng.choice(deal.legal_actions()))
    assert deal.done
    return deal, deal.result()


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_deals_complete(name, seed):
    rules = get_rules(name)
    deal, result = play_random(rules, seed)
    if deal.thrown_in or result.declarer is None:
        return
    assert result.value > 0
    if result.won:
        assert result.value in rules.ladder
        assert result.value >= result.bid
    scores = result.scores
    decl = ("forehand", "middlehand", "rearhand")[result.declarer]
    assert scores[decl] == result.score
    if name.startswith("danish"):  # tournament settlement
        defenders = [v for s, v in scores.items() if s != decl]
        assert defenders == ([-result.score // 2] * 2 if result.score < 0 else [0, 0])
    else:
        assert all(v == 0 for s, v in scores.items() if s != decl)
