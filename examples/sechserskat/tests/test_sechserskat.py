"""Sechserskat: run with the package installed (``pip install -e .``); the
fixtures come from skatcore's testing kit (``skatcore.testing``)."""

from pathlib import Path

from skatcore.cards import parse_card

VECTORS = Path(__file__).parent / "vectors" / "sechserskat.yaml"


def test_vectors(skat_vectors):
    skat_vectors(VECTORS, "sechserskat")


def test_the_deck_follows_from_36_cards(skat_rules):
    rules = skat_rules("sechserskat")
    deck = rules.deck
    assert len(deck.cards) == 36 and deck.total_points == 120
    assert (deck.hand, deck.skat) == (11, 3) and 3 * deck.hand + deck.skat == 36


def test_a_six_ranks_below_the_seven_and_is_worth_0(skat_rules):
    rules = skat_rules("sechserskat")
    c = lambda *names: [parse_card(n) for n in names]  # noqa: E731
    for game in ("clubs", "grand", "null"):
        table = rules.tricks[game]
        assert table.winner_index(c("H6", "H7", "S6")) == 1, game
        assert table.points[parse_card("H6")] == 0
    clubs = rules.tricks["clubs"]
    assert len(clubs.trumps) == 12 and clubs.trumps[-1] == parse_card("C6")
    assert clubs.winner_index(c("HA", "C6", "HT")) == 1  # the trump six still trumps


def test_random_deals_play_through(skat_play):
    for deal in skat_play("sechserskat", seed=1, deals=200):
        assert len(deal.dealt[0]) == 11 and len(deal.original_skat) == 3
        if deal.discard:
            assert len(deal.discard) == 3
