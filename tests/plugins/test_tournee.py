"""Tournée (docs/rules/tournee.md#b10) at the level of the Deal state machine and the
command line: the turn-up as real steps, the declarations each route allows,
a played record, one-line refusals, and random full deals (hypothesis)
against scores computed from card names and docs/rules/.  The score table
itself is proven by tests/vectors/tournee.yaml."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_by_hand import cards, check_ramsch_tricks, play_random, score_cli, texas_scores

from skatcore.cards import CARD_NAMES
from skatcore.engine.deal import PICK_UP, PLAY_HAND, Deal, Declare, Discard, Phase, deal_cards
from skatcore.errors import InputError
from skatcore.model import SEATS, Declaration
from skatcore.records.deal import score_record
from skatcore.rules.compiler import get_rules
from skatcore_plugins.tournee import FIRST_CARD, SECOND_CARD, TURN_UP, TurnChoice

SETTINGS = settings(deadline=None, max_examples=120, suppress_health_check=[HealthCheck.too_slow])
SUIT = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
TOURNEE_BASE = {"diamonds": 5, "hearts": 6, "spades": 7, "clubs": 8, "grand": 12}   # B10
SOLO_BASE = {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12, "grand": 20}


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
    assert deal.phase is Phase.STEP and deal.step.name == "turn-up"
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


@pytest.mark.parametrize(("route", "game", "ok"), [
    ("first", "hearts", True), ("first", "clubs", False),     # skat[0] = H7 turned up: hearts
    ("second", "clubs", True), ("second", "hearts", False),   # skat[0] unseen, skat[1] = CA turned up: clubs
])
def test_tournee_card_first_is_skat_0_in_a_summary_record(route, game, ok):
    record = {"ruleset": "tournee", "declarer": "forehand", "bid": 10, "skat": ["H7", "CA"],
              "game": {"type": game, "discard": ["D7", "D8"], "declarations": {"tournee_card": route}},
              "outcome": {"declarer_points": 61, "matadors": {"with": 1}}}
    if ok:
        assert score_record(record, get_rules("tournee")).won
    else:
        turned = "H7" if route == "first" else "CA"
        with pytest.raises(InputError, match=f"the turned card {turned} allows"):
            score_record(record, get_rules("tournee"))


def test_tournee_card_meaning_is_documented():
    from pathlib import Path
    formats = (Path(__file__).parents[2] / "docs" / "formats.md").read_text(encoding="utf-8")
    assert "{tournee_card: first} (Tournée: the card turned up and kept is `skat[0]`" in formats
