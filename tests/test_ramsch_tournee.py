"""Ramsch (RULES B3), Schieberamsch (B4), the Texas all-pass Ramsch (B9) and
Tournée (B10) at the level of the Deal state machine and the command line.

The score tables themselves are proven by tests/vectors/ramsch.yaml,
schieberamsch.yaml and tournee.yaml; this file checks what a summary cannot
show: the push phase, the Tournée turn-up as real steps, replays of played
records, one-line errors with exit status 2, random full deals (hypothesis)
against scores computed here from card names and RULES.md, and that every
parameter ruleset in tests/rulesets/ is proven by a vector that fails when
that parameter is dropped.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatcore.cards import CARD_NAMES, parse_card
from skatcore.cli.main import main
from skatcore.engine.deal import (
    FIRST_CARD, PASS, PICK_UP, PLAY_HAND, PLAYS, PUSH_BLIND, SECOND_CARD, TURN_UP, Bid, Deal, Declare, Discard, Hold,
    Phase, TurnChoice, deal_cards,
)
from skatcore.errors import InputError
from skatcore.model import SEATS, Declaration
from skatcore.records.deal import check_record, score_record
from skatcore.rules.compiler import get_rules
from skatcore.records.vectors import evaluate, load_vectors, rules_for

HERE = Path(__file__).parent
TEST_RULESETS = HERE / "rulesets"
SETTINGS = settings(deadline=None, max_examples=120, suppress_health_check=[HealthCheck.too_slow])

# -- RULES.md, restated from card names ----------------------------------------

POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}   # A2
JACKS = ["CJ", "SJ", "HJ", "DJ"]
PLAIN = "ATKQ987"                                                               # grand order (B3: Ramsch)
SUIT = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
TOURNEE_BASE = {"diamonds": 5, "hearts": 6, "spades": 7, "clubs": 8, "grand": 12}   # B10
SOLO_BASE = {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12, "grand": 20}


def names(cards) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def cards(*text: str) -> list[int]:
    return [parse_card(t) for t in text]


def ramsch_winner(trick: list[str]) -> int:
    """Index in play order of the card that takes a Ramsch trick: jacks are
    the only trumps (CJ SJ HJ DJ), else the highest card of the led suit."""
    def power(card):
        if card[1] == "J":
            return (2, -JACKS.index(card))
        led = trick[0]
        if led[1] != "J" and card[0] == led[0]:
            return (1, -PLAIN.index(card[1]))
        return (0, 0)
    powers = [power(c) for c in trick]
    return powers.index(max(powers))


def augen_scores(points: list[int], tricks: list[int], blind: int) -> dict[str, int]:
    """B3/B4 with the ramsch/schieberamsch defaults: Durchmarsch +120; else
    the most points lose them (ties in full, three-way none), doubled per
    Jungfrau; each blind push doubles."""
    entries = {}
    if 10 in tricks:
        entries = {tricks.index(10): 120}
    else:
        top = max(points)
        losers = [s for s in range(3) if points[s] == top]
        if len(losers) < 3:
            loss = top * 2 ** tricks.count(0)
            entries = {s: -loss for s in losers}
    return {SEATS[s]: entries.get(s, 0) * 2 ** blind for s in range(3)}


def texas_scores(points: list[int], tricks: list[int], last: int) -> dict[str, int]:
    """B9/B10 all pass: two without a trick -> the third -30; one without a
    trick +20; else the fewest +10 (tie: the tied one without the last trick,
    the senior if neither took it; 40-40-40: forehand)."""
    virgins = [s for s in range(3) if tricks[s] == 0]
    if len(virgins) == 2:
        entries = {next(s for s in range(3) if s not in virgins): -30}
    elif len(virgins) == 1:
        entries = {virgins[0]: 20}
    else:
        low = min(points)
        tied = [s for s in range(3) if points[s] == low]
        if len(tied) == 3:
            entries = {0: 10}
        elif len(tied) == 2:
            entries = {next(s for s in tied if s != last): 10}
        else:
            entries = {tied[0]: 10}
    return {SEATS[s]: entries.get(s, 0) for s in range(3)}


# -- a random player -----------------------------------------------------------


def choose(deal: Deal, rng: random.Random):
    actions = deal.legal_actions()
    assert len(actions), f"no legal action in phase {deal.phase}"
    if deal.phase is Phase.BIDDING:
        actions = list(actions)
        if any(isinstance(a, Hold) for a in actions):
            wanted = Hold if rng.random() < 0.5 else type(PASS)
            return next(a for a in actions if isinstance(a, wanted))
        bids = [a for a in actions if isinstance(a, Bid)]
        if bids and rng.random() < 0.6:
            return rng.choice(bids[:3])
        return PASS
    return rng.choice(actions)


def play_random(rules, rng: random.Random) -> Deal:
    hands, skat = deal_cards(rng.randrange(2**32))
    deal = Deal(rules, hands, skat)
    for _ in range(400):
        if deal.done:
            return deal
        deal.apply(choose(deal, rng))
    raise AssertionError("the deal did not finish")


def check_ramsch_tricks(deal: Deal) -> tuple[list[int], list[int]]:
    """Trick winners and points recomputed from card names; all 32 cards
    are in the tricks or the skat and the card points add up to 120."""
    points, tricks = [0, 0, 0], [0, 0, 0]
    leader = 0
    for t in deal.tricks:
        trick = names(t.cards)
        assert t.leader == leader
        winner = (leader + ramsch_winner(trick)) % 3
        assert t.winner == winner, f"Ramsch trick {trick} goes to {SEATS[winner]}"
        points[winner] += sum(POINTS[c[1]] for c in trick)
        tricks[winner] += 1
        leader = winner
    skat = names(c for c in range(32) if deal.skat >> c & 1)
    assert len(deal.tricks) == 10 and len(skat) == 2
    assert len({*(c for t in deal.tricks for c in names(t.cards)), *skat}) == 32
    assert sum(points) + sum(POINTS[c[1]] for c in skat) == 120
    facts = deal.facts()
    assert list(facts.points) == points and list(facts.tricks) == tricks
    points[deal.tricks[-1].winner] += sum(POINTS[c[1]] for c in skat)  # skat to the last trick (default)
    return points, tricks


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
    assert deal.phase is Phase.PUSH and deal.to_move == 0 and deal.declarer is None
    actions = list(deal.legal_actions())
    assert PICK_UP in actions and PUSH_BLIND in actions
    assert Declare(Declaration("grand", hand=True)) in actions  # a grand hand instead of pushing
    deal.apply(PUSH_BLIND)
    assert deal.phase is Phase.PUSH and deal.to_move == 1
    deal.apply(PICK_UP)
    assert deal.phase is Phase.DISCARD and deal.to_move == 1
    assert set(names(c for c in range(32) if deal.hands[1] >> c & 1)) >= {"S9", "SJ"}
    deal.apply(Discard(tuple(cards("S9", "D9"))))
    assert deal.phase is Phase.PUSH and deal.to_move == 2
    deal.apply(PICK_UP)
    deal.apply(Discard(tuple(cards("CA", "CT"))))
    assert deal.phase is Phase.PLAY and deal.to_move == 0 and deal.contract.name == "ramsch"
    assert deal.pushes == [(0, True), (1, False), (2, False)]
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
    assert deal.phase is Phase.PUSH and deal.to_move == 2


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
# B10 Tournée: the turn-up is a real step
# ---------------------------------------------------------------------------


def tournee_deal(skat: list[str]) -> Deal:
    """A deal whose skat is ``skat``, forehand declarer at 10."""
    rest = [c for c in CARD_NAMES if c not in skat]
    deal = Deal(get_rules("tournee"), [cards(*rest[0:10]), cards(*rest[10:20]), cards(*rest[20:30])], cards(*skat))
    deal.set_declarer(0, 10)
    return deal


def test_turn_up_then_first_or_second_card():
    deal = tournee_deal(["HA", "SJ"])
    assert deal.phase is Phase.SKAT
    assert set(deal.legal_actions()) == {PICK_UP, PLAY_HAND, TURN_UP}
    deal.apply(TURN_UP)
    assert deal.phase is Phase.TURN
    assert list(deal.legal_actions()) == [FIRST_CARD, SECOND_CARD]
    with pytest.raises(InputError, match="not possible now"):
        deal.apply(PICK_UP)
    with pytest.raises(InputError, match="not possible now"):
        deal.apply(TurnChoice("third"))


def test_second_card_jack_offers_grand_or_its_suit():
    deal = tournee_deal(["HA", "SJ"])
    deal.apply(TURN_UP)
    deal.apply(SECOND_CARD)
    assert deal.phase is Phase.DISCARD and deal.picked_up  # both skat cards are taken
    assert len(deal.hand_of(0)) == 12
    deal.apply(Discard(tuple(cards("HA", "SJ"))))
    offered = [a.declaration for a in deal.legal_actions()]
    assert sorted(d.game for d in offered) == ["grand", "spades"]
    assert all(dict(d.declarations) == {"tournee_card": "second"} and not d.hand for d in offered)
    with pytest.raises(InputError, match="the turned card SJ allows"):
        deal.apply(Declare(Declaration("hearts", declarations={"tournee_card": "second"})))
    deal.apply(Declare(Declaration("grand", declarations={"tournee_card": "second"})))
    assert deal.phase is Phase.PLAY and deal.contract.name == "grand"


def test_first_card_non_jack_offers_only_its_suit():
    deal = tournee_deal(["HA", "SJ"])
    deal.apply(TURN_UP)
    deal.apply(FIRST_CARD)
    deal.apply(Discard(tuple(cards("HA", "SJ"))))
    offered = [a.declaration for a in deal.legal_actions()]
    assert [(d.game, dict(d.declarations)) for d in offered] == [("hearts", {"tournee_card": "first"})]
    with pytest.raises(InputError, match="allows hearts, not grand"):
        deal.apply(Declare(Declaration("grand", declarations={"tournee_card": "first"})))


def test_declaring_without_tournee_card_after_a_turn_records_the_card_used():
    deal = tournee_deal(["HA", "SJ"])
    deal.apply(TURN_UP)
    deal.apply(FIRST_CARD)
    deal.apply(Discard(tuple(cards("HA", "SJ"))))
    deal.apply(Declare(Declaration("hearts")))
    assert deal.declaration.declarations["tournee_card"] == "first"


def test_pickup_without_turning_allows_only_the_guckser():
    deal = tournee_deal(["HA", "SJ"])
    deal.apply(PICK_UP)
    deal.apply(Discard(tuple(cards("HA", "SJ"))))
    assert [a.declaration.game for a in deal.legal_actions()] == ["grand"]
    with pytest.raises(InputError):
        deal.apply(Declare(Declaration("hearts")))
    with pytest.raises(InputError, match="needs the turn-up route"):
        deal.apply(Declare(Declaration("grand", declarations={"tournee_card": "first"})))


def test_solo_offers_suits_grand_null_and_ouvert_only_for_grand_and_null():
    deal = tournee_deal(["HA", "SJ"])
    deal.apply(PLAY_HAND)
    offered = {(a.declaration.game, a.declaration.ouvert) for a in deal.legal_actions()}
    assert {("clubs", False), ("spades", False), ("hearts", False), ("diamonds", False), ("grand", False),
            ("grand", True), ("null", False), ("null", True)} == offered


def test_turn_up_is_no_step_of_the_official_game():
    deal = Deal(get_rules("official"), *deal_cards(3))
    deal.set_declarer(0, 18)
    assert TURN_UP not in list(deal.legal_actions())
    with pytest.raises(InputError):
        deal.apply(TURN_UP)


PLAYED_TOURNEE = {
    "format": "skat-deal/1", "ruleset": "tournee", "declarer": "forehand", "bid": 10,
    "hands": {
        "forehand": ["CT", "DA", "DT", "S9", "DJ", "C8", "CQ", "SK", "CA", "DK"],
        "middlehand": ["HA", "D9", "CJ", "S8", "HK", "D8", "C9", "SJ", "HT", "DQ"],
        "rearhand": ["HJ", "SQ", "D7", "S7", "H9", "ST", "C7", "HQ", "CK", "H8"],
    },
    "skat": ["H7", "SA"],
    "game": {"type": "hearts", "discard": ["CA", "DT"], "declarations": {"tournee_card": "first"}},
    "play": ["DA", "D9", "D7", "CQ", "C9", "C7", "H7", "HA", "HQ", "S8", "ST", "SA", "DJ", "HT", "H8", "DK", "DQ",
             "SQ", "SK", "CJ", "S7", "HK", "HJ", "C8", "H9", "S9", "SJ", "D8", "CK", "CT"],
}


def test_played_tournee_record_replays():
    result = score_record(PLAYED_TOURNEE, get_rules("tournee")).to_json()
    # hearts by the first card H7: without 3 (CJ SJ HJ), game 4 x 6; 57 + 21 discarded = 78
    assert (result["value"], result["score"], result["declarer_points"]) == (24, 24, 78)
    assert result["matadors"] == {"without": 3}


# ---------------------------------------------------------------------------
# One-line errors through the command line (exit 2)
# ---------------------------------------------------------------------------


def score_cli(tmp_path, capsys, record: dict, *extra: str):
    path = tmp_path / "deal.yaml"
    path.write_text(yaml.safe_dump({"format": "skat-deal/1", **record}, sort_keys=False))
    rc = main(["score", *extra, str(path)])
    out, err = capsys.readouterr()
    return rc, out, err


GUCKSER = {"ruleset": "tournee", "declarer": "forehand", "bid": 10,
           "game": {"type": "grand", "discard": ["D7", "D8"]},
           "outcome": {"declarer_points": 61, "matadors": {"with": 1}}}


def test_cli_guckser_is_fine_under_tournee(tmp_path, capsys):
    rc, out, err = score_cli(tmp_path, capsys, GUCKSER, "--json")
    assert rc == 0 and err == ""
    assert '"value": 32' in out  # with 1, game 2 x Guckser 16


def test_cli_tournee_card_under_official_is_an_unknown_declaration(tmp_path, capsys):
    record = {**GUCKSER, "ruleset": "official", "bid": 18,
              "game": {"type": "grand", "discard": ["D7", "D8"], "declarations": {"tournee_card": "second"}}}
    rc, out, err = score_cli(tmp_path, capsys, record)
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and "game.declarations.tournee_card" in err and "unknown declaration" in err


@pytest.mark.parametrize(("record", "message"), [
    pytest.param({"declarer": "forehand", "bid": 10, "game": {"type": "hearts", "discard": ["D7", "D8"]},
                  "outcome": {"declarer_points": 61, "matadors": {"with": 1}}},
                 "hearts cannot be declared after picking up the skat", id="suit picked up without tournee_card"),
    pytest.param({"declarer": "forehand", "bid": 10, "game": {"type": "null", "hand": False},
                  "outcome": {"declarer_tricks": 0}},
                 "null cannot be declared after picking up the skat", id="null with hand false"),
    pytest.param({"bidding": ["pass", "pass", "pass"], "game": {"type": "grand"},
                  "outcome": {"declarer_points": 61, "matadors": {"with": 1}}},
                 "all passed: the deal is a Ramsch, not grand", id="all passed but a grand (was exit 1)"),
    pytest.param({**PLAYED_TOURNEE, "game": {**PLAYED_TOURNEE["game"], "type": "spades"}},
                 "the turned card H7 allows hearts, not spades", id="played record contradicting the turned card"),
])
def test_cli_tournee_refusals(tmp_path, capsys, record, message):
    rc, out, err = score_cli(tmp_path, capsys, {**record, "ruleset": "tournee"})
    assert rc == 2 and out == ""
    assert err.startswith("skat: error: ") and err.count("\n") == 1 and message in err


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
    rc, out, err = score_cli(tmp_path, capsys, {**RAMSCH_SUMMARY, "ruleset": "ramsch"})
    assert rc == 0 and "middlehand -54" in out


def test_cli_jack_pushed_in_a_summary_is_refused(tmp_path, capsys):
    record = {**RAMSCH_SUMMARY, "ruleset": "schieberamsch", "game": {"type": "ramsch", "pushes": [["CJ", "D7"]]}}
    rc, out, err = score_cli(tmp_path, capsys, record)
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
        assert len(deal.pushes) == deal.declarer  # the players before the declarer pushed
        assert sum(result.scores.values()) == result.score == result.scores[SEATS[deal.declarer]]
        return
    assert [seat for seat, _ in deal.pushes] == [0, 1, 2]
    points, tricks = check_ramsch_tricks(deal)
    blind = sum(1 for _, b in deal.pushes if b)
    assert result.scores == augen_scores(points, tricks, blind)


@SETTINGS
@given(st.randoms(use_true_random=False))
def test_random_tournee_deals(rng):
    deal = play_random(get_rules("tournee"), rng)
    result = deal.result()
    if deal.declarer is None:  # all passed: Texas-scored Ramsch
        points, tricks = check_ramsch_tricks(deal)
        assert result.scores == texas_scores(points, tricks, deal.tricks[-1].winner)
        return
    d = deal.declaration
    route = d.declarations.get("tournee_card") or ("hand" if d.hand else "pickup")
    assert route == deal.route
    if route in ("first", "second"):  # the turned card sets the game
        turned = CARD_NAMES[deal.original_skat[0 if route == "first" else 1]]
        allowed = {SUIT[turned[0]], "grand"} if turned[1] == "J" else {SUIT[turned[0]]}
        assert d.game in allowed
    if route == "pickup":
        assert d.game == "grand"  # Grand Guckser only
    if d.game == "null":
        value = 40 if d.ouvert else 20
        assert d.hand and result.value == value
        factor = 1
    else:
        if route == "hand":
            base = 24 if d.ouvert else SOLO_BASE[d.game]
        elif route == "pickup":
            base = 16
        else:
            base = TOURNEE_BASE[d.game]
        assert result.value == base * result.multiplier
        assert not any(label in ("hand", "ouvert") for label, _ in result.items)
        factor = 2 if route in ("second", "pickup") else 1  # B10: lost single, except second card and Guckser
        value = result.value if not result.overbid else -(-deal.bid // base) * base
    if result.won:
        assert result.score == result.value >= deal.bid
    else:
        assert result.score == -factor * value
    assert result.scores == {s: result.score if i == deal.declarer else 0 for i, s in enumerate(SEATS)}


# ---------------------------------------------------------------------------
# Every parameter of a test ruleset is proven: drop it and a vector fails
# ---------------------------------------------------------------------------

VECTOR_FILES = sorted((HERE / "vectors").glob("*.yaml"))


def _cases_naming(ruleset_file: Path):
    for vf in VECTOR_FILES:
        for case in load_vectors(vf):
            ref = case.record.get("ruleset")
            if ref and (vf.parent / ref).resolve() == ruleset_file.resolve():
                yield vf, case


def _ablations(doc: dict):
    """(label, document) for each parameter (or parameterless plugin) dropped."""
    for plugin, params in doc["plugins"].items():
        if params:
            for key in params:
                yield f"{plugin}.{key}", {**doc, "plugins": {**doc["plugins"], plugin: {
                    k: v for k, v in params.items() if k != key}}}
        else:
            yield plugin, {**doc, "plugins": {k: v for k, v in doc["plugins"].items() if k != plugin}}


@pytest.mark.parametrize("ruleset_file", sorted(TEST_RULESETS.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_parameter_has_a_vector_that_fails_without_it(ruleset_file, tmp_path):
    cases = list(_cases_naming(ruleset_file))
    assert cases, f"no vector case names {ruleset_file.name}"
    for vf, case in cases:
        assert evaluate(rules_for(case, vf, vf.stem), case).ok
    doc = yaml.safe_load(ruleset_file.read_text())
    for label, ablated in _ablations(doc):
        path = tmp_path / f"{ruleset_file.stem}-without-{label}.yaml"
        path.write_text(yaml.safe_dump({**ablated, "name": path.stem}, sort_keys=False))
        from skatcore.rules.compiler import compile_rules
        from skatcore.rules.ruleset import load_ruleset

        rules = compile_rules(load_ruleset(path))
        failing = [case.name for vf, case in cases if not evaluate(rules, case).ok]
        assert failing, f"{ruleset_file.name}: no vector fails when {label} is dropped"
