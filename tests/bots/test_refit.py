"""tools/refit_heuristic.py: the fit recovers known coefficients, and its
samples are the heuristic's own hand features with solver outcomes."""

import math
import random

from tests.tool_module import load_tool

refit = load_tool("refit_heuristic")


def test_fit_recovers_a_known_sigmoid():
    rng = random.Random(1)
    pairs = []
    for _ in range(20000):
        x = rng.uniform(-4, 4)
        pairs.append((x, rng.random() < 1 / (1 + math.exp(-(1.5 * x - 0.5)))))
    a, b = refit.fit(pairs)
    assert abs(a - 1.5) < 0.1 and abs(b + 0.5) < 0.1
    assert "predicted" in refit.calibration(pairs, a, b)


def test_samples_cover_both_routes():
    data = refit.samples("official", 2, 1, ("grand",))
    assert set(data) == {("grand", "pre"), ("grand", "post"), ("grand", "hand")}
    assert len(data[("grand", "pre")]) == len(data[("grand", "post")]) == 6  # 2 deals x 3 seats
    assert all(isinstance(won, bool) for _, won in data[("grand", "hand")])



def test_grand_features_of_a_hand():
    from skatcore.cards import parse_card
    hand = sum(1 << parse_card(c) for c in ["CJ", "HJ", "CA", "CT", "C9", "C8", "SA", "HK", "H9", "D7"])
    # club jack, -, heart jack, -, 2+ jacks, -, voids, aces, tens with ace, guarded tens, long-suit cards, forehand
    assert refit.grand_features(hand, True) == [1, 0, 1, 0, 1, 0, 0, 2, 1, 0, 1, 1]
    assert len(refit.GRAND_FEATURES) == len(refit.grand_features(hand, False))


def test_samples_by_heuristic_play_declare_the_contract():
    """--play heuristic: the would-be declarer declares the grand it is asked to (hand or after its discard)."""
    from skatcore.engine.deal import deal_cards
    from skatcore.rules import get_rules
    rules = get_rules("official")
    hands, skat = deal_cards(random.Random(3), rules.deck)
    for hand_game in (False, True):
        won, laid = refit.played(rules, hands, skat, 1, "grand", hand_game)
        assert isinstance(won, bool) and laid.bit_count() == (0 if hand_game else 2)
    data = refit.samples("official", 2, 1, ("grand",), by="heuristic")
    assert len(data[("grand", "pre")]) == len(data[("grand", "post")]) == len(data[("grand", "hand")]) == 6
