"""Raeuberskat: run with the package installed (``pip install -e .``); the
fixtures come from skatcore's testing kit (``skatcore.testing``)."""

import random
from pathlib import Path

import pytest

from skatcore.engine.deal import Deal, Declare, Phase, deal_cards
from skatcore.errors import InputError
from skatcore.model import Declaration

VECTORS = Path(__file__).parent / "vectors" / "raeuberskat.yaml"


def test_vectors(skat_vectors):
    skat_vectors(VECTORS, "raeuberskat")


def test_the_soloist_declares_after_seeing_five_cards(skat_rules):
    rules = skat_rules("raeuberskat")
    deal = Deal(rules, *deal_cards(3))
    assert deal.phase is Phase.DECLARE and deal.to_move == 0
    view = deal.view(0)
    assert view.hand.bit_count() == 5 and view.hand == sum(1 << c for c in deal.dealt[0][:5])
    games = {a.declaration.game for a in view.legal}
    assert games == {"clubs", "spades", "hearts", "diamonds", "grand", "null", "ramsch"}
    deal.apply(Declare(Declaration("grand")))
    assert deal.phase is Phase.DISCARD and len(deal.hand_of(0)) == 12


def test_a_family_played_in_the_series_is_not_offered_again(skat_rules):
    rules = skat_rules("raeuberskat")
    deal = Deal(rules, *deal_cards(3), played={"suit", "ramsch"})
    assert {a.declaration.game for a in deal.legal_actions()} == {"grand", "null"}
    with pytest.raises(InputError, match="already declared a suit game"):
        deal.apply(Declare(Declaration("clubs")))


def test_a_series_of_12_deals_each_player_plays_each_family_once(skat_rules):
    """Three players, the dealer rotating: each is forehand (the soloist) 4
    times in the 12 deals of a series and declares suit, grand, null, Ramsch."""
    rules = skat_rules("raeuberskat")
    series = rules.series[3]
    assert series.deals == 12
    rng = random.Random(5)
    played = {p: set() for p in range(3)}
    for n in range(series.deals):
        soloist = n % 3  # player at the forehand seat of deal n
        deal = Deal(rules, *deal_cards(rng), played=played[soloist])
        while not deal.done:
            actions = deal.legal_actions()
            deal.apply(actions[rng.randrange(len(actions))])
        played[soloist].add(deal.contract.family)
        deal.result()
    assert all(sorted(f) == sorted(series.once_each) for f in played.values())
