"""What a player types at ``skat play`` (cards by number, by the printed
name, in plain letters, in English and German words) and why the table
refuses a card, in a player's words, checked against the follow rule of
the official rules."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatcore.cards import CARD_NAMES, cards_in, parse_card
from skatcore.cli.play_text import card_markup
from skatcore.cli.play_words import NotUnderstood, pick_cards, read_choices, why_not
from skatcore.engine.deal import Deal, Phase, Play, deal_cards
from skatcore.rules.compiler import get_rules

TAGS = re.compile(r"\[/?[a-z ]+\]")
OFFICIAL = get_rules("official")


def plain(markup: str) -> str:
    return TAGS.sub("", markup)


@pytest.mark.parametrize("card", CARD_NAMES[:32])
def test_every_card_by_its_printed_and_its_plain_name(card):
    c = parse_card(card)
    assert read_choices(plain(card_markup(c))) == [card]  # ♣A, ♥10: as the table prints it
    assert read_choices(card) == [card] and read_choices(card.lower()) == [card]  # CA, ht
    assert read_choices(card.replace("T", "10")) == [card]  # H10


@pytest.mark.parametrize(("typed", "cards"), [
    ("club ace", ["CA"]), ("ace of clubs", ["CA"]), ("the ten of hearts", ["HT"]), ("queen spades", ["SQ"]),
    ("Kreuz As", ["CA"]), ("Pik Bube", ["SJ"]), ("Herz Zehn", ["HT"]), ("Karo Sieben", ["D7"]), ("herz 10", ["HT"]),
    ("Eichel Unter", ["CJ"]), ("Schellen Daus", ["DA"]), ("grün könig", ["SK"]),
    ("3 7", [3, 7]), ("3,7", [3, 7]), ("♠7 ♦8", ["S7", "D8"]), ("kreuz 7, D7", ["C7", "D7"]),
    ("CA and ace of hearts", ["CA", "HA"]), ("", []),
])
def test_cards_in_words(typed, cards):
    assert read_choices(typed) == cards


@pytest.mark.parametrize("typed", ["xyz", "club", "ace", "kreuz kreuz", "C11", "1234", "\x1b[31m"])
def test_what_is_no_card_is_named(typed):
    with pytest.raises(NotUnderstood):
        read_choices(typed)


def test_numbers_count_in_the_cards_offered():
    offered = [parse_card(c) for c in ("CJ", "CA", "H7")]
    assert pick_cards("1 3", offered) == [parse_card("CJ"), parse_card("H7")]
    assert pick_cards("Herz As", offered) == [parse_card("HA")]  # named: not offered, but a card (the caller says why not)
    for out_of_range in ("0", "4"):
        with pytest.raises(NotUnderstood):
            pick_cards(out_of_range, offered)


def message(game: str, trick: list[str], hand: list[str], card: str) -> str:
    table = OFFICIAL.tricks[game]
    t = [parse_card(c) for c in trick]
    h = [parse_card(c) for c in hand]
    led = table.follow[t[0]]
    legal = [c for c in h if table.follow[c] == led] or h
    return plain(why_not(parse_card(card), sum(1 << c for c in h), legal, t, table))


def test_why_a_card_may_not_be_played():
    assert message("clubs", ["SA"], ["S7", "HA"], "HA") == "you must follow ♠"
    assert message("clubs", ["C7"], ["DJ", "HA"], "HA") == "trump must be followed"  # the 7 of trumps
    assert message("clubs", ["SJ"], ["CA", "SA"], "SA") == "trump must be followed"  # a jack: trump, not spades
    assert message("grand", ["SJ"], ["CJ", "SA"], "SA") == "trump must be followed"
    assert message("null", ["SJ"], ["S7", "CJ"], "CJ") == "you must follow ♠"  # in a null the jack is a spade
    assert message("hearts", ["DA"], ["D7", "HJ"], "HA") == "you do not hold ♥A"
    assert plain(why_not(parse_card("HA"), 0, [], [], OFFICIAL.tricks["grand"], symbols=False)) == "you do not hold HA"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), cards_played=st.integers(0, 29))
def test_every_card_refused_in_play_is_refused_for_not_following(seed, cards_played):
    """In a Skat deal a card in the hand is refused only for not following
    suit or trump: the message says which, and names the suit led."""
    rng = random.Random(seed)
    deal = Deal(OFFICIAL, *deal_cards(seed))
    while not deal.done and not (deal.phase is Phase.PLAY and len(deal.history) >= cards_played):
        deal.apply(rng.choice(list(deal.legal_actions())))
    if deal.done:
        return
    legal = [a.card for a in deal.legal_actions() if isinstance(a, Play)]
    hand = deal.hands[deal.to_move]
    trick = deal.tricks[-1].cards
    for c in cards_in(hand):
        if c in legal:
            continue
        text = plain(why_not(c, hand, legal, trick, deal.table))
        led = deal.table.follow[trick[0]]
        assert text == ("trump must be followed" if led == 4 else f"you must follow {plain(card_markup(trick[0]))[0]}")
