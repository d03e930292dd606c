"""The table and the deal layout as engine concepts that plugins configure
(hooks ``skat_table`` and ``skat_deck``): a seat another person plays, a seat
nobody plays, seats that do not bid, cards shown to some, stacks and piles,
tricks of two cards, cards laid aside.  The plugins here are made up; the
two-player forms of docs/rules/house-rules.md#b13 are built from these (plugins/twohand.py)."""

from __future__ import annotations

import random

import pytest

from skatcore.cards import POINTS, cards_in, mask_of, parse_card
from skatcore.engine.deal import PASS, PLAY_HAND, Bid, Deal, Declare, Hold, Play, deal_cards
from skatcore.errors import InputError
from skatcore.hookspecs import hookimpl
from skatcore.model import Deck, Declaration, SeatPlan, Table
from skatcore.testing import compile_with


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


FOREHAND = cards("CJ SJ CA CT CK SA ST SK HA HT")
MIDDLEHAND = cards("HJ DJ CQ C9 C8 SQ S9 S8 HK HQ")
REARHAND = cards("C7 S7 H9 H8 H7 DA DT DK DQ D9")
SKAT = cards("D8 D7")


class StrawMan:
    """Middlehand is a straw man: it does not bid, the defender plays it,
    everyone sees it once the game is announced."""

    @hookimpl
    def skat_table(self):
        return Table((SeatPlan(), SeatPlan(controller="defender", bids=False, shown=(("declared", "all"),)), SeatPlan()))


def test_a_straw_man_does_not_bid_and_is_played_by_the_defender():
    rules = compile_with("official", {"straw": StrawMan})
    deal = Deal(rules, [FOREHAND, MIDDLEHAND, REARHAND], SKAT)
    assert deal.to_move == 2  # middlehand passed unasked: rearhand asks forehand
    assert deal.controller(1) is None  # nobody plays it before there is a declarer
    for action in (Bid(18), Hold(), PASS):
        deal.apply(action)
    assert deal.declarer == 0 and [s for s, _ in deal.history] == [2, 0, 2]
    assert deal.view(0).others == {} and deal.view(2).others == {}  # not shown before the game is announced
    deal.apply(PLAY_HAND)
    deal.apply(Declare(Declaration("grand", hand=True)))
    assert deal.controller(1) == 2 and deal.controller(0) == 0
    assert deal.view(0).others == {1: mask_of(MIDDLEHAND)}
    deal.apply(Play(parse_card("CJ")))
    view = deal.view(1)  # what rearhand sees when moving for the straw man
    assert view.hand == mask_of(MIDDLEHAND) and view.others == {2: mask_of(REARHAND)}
    assert {a.card for a in view.legal} == set(cards("HJ DJ"))


class TwoSeatsInStacks:
    """Two seats of 16 cards in 8 stacks of 2 (the cards dealt last on top,
    shown to both), two-card tricks; rearhand is not dealt."""

    @hookimpl
    def skat_deck(self):
        return Deck(hand=16, skat=0, seats=(0, 1), packets=(8, "skat", 8))

    @hookimpl
    def skat_table(self):
        stacks = SeatPlan(shown=(("deal", "all"),), arrangement="stacks", open=8)
        return Table((stacks, stacks, SeatPlan()))


def test_stacks_two_card_tricks_and_a_seat_not_dealt():
    rules = compile_with("official", {"stacks": TwoSeatsInStacks})
    hands, skat = deal_cards(random.Random(4), rules.deck)
    assert [len(h) for h in hands] == [16, 16, 0] and skat == []
    deal = Deal(rules, hands, skat)
    assert deal.hands[0] == mask_of(hands[0][8:]) and deal.view(1).others == {0: mask_of(hands[0][8:])}
    deal.apply(PASS)  # middlehand passes; rearhand is not dealt, so it is not asked
    assert deal.to_move == 0
    deal.apply(Bid(18))
    deal.apply(PLAY_HAND)
    deal.apply(Declare(Declaration("grand", hand=True)))
    top = hands[0][8]
    deal.apply(Play(top))
    assert deal.hands[0] >> hands[0][0] & 1  # the card beneath is turned up
    rng = random.Random(1)
    while not deal.done:
        legal = deal.legal_actions()
        assert all(deal.hands[deal.to_move] >> a.card & 1 for a in legal)  # only open cards
        deal.apply(legal[rng.randrange(len(legal))])
    assert all(len(t.cards) == 2 for t in deal.tricks) and len(deal.tricks) == 16
    assert sum(deal.trick_points) == 120 and deal.trick_points[2] == 0
    for t in deal.tricks:  # the winner is the seat whose card wins
        seats = [t.leader, 1 - t.leader]
        assert t.winner == seats[deal.table.winner_index(t.cards)]


class FaceDownPile:
    """Middlehand's cards are a face-down pile nobody sees; its top card is
    played in its turn."""

    @hookimpl
    def skat_table(self):
        return Table((SeatPlan(), SeatPlan(controller="nobody", bids=False, arrangement="pile", open=1), SeatPlan()))


def test_a_face_down_pile_plays_its_top_card_and_is_seen_by_nobody():
    rules = compile_with("official", {"pile": FaceDownPile})
    deal = Deal(rules, [FOREHAND, MIDDLEHAND, REARHAND], SKAT)
    for action in (PASS, Bid(18), PLAY_HAND, Declare(Declaration("grand", hand=True))):
        deal.apply(action)  # rearhand passes, forehand plays at 18
    assert deal.controller(1) is None
    played = []
    while not deal.done:
        for seat in (0, 2):
            assert deal.view(seat).others == {}
            assert not deal.view(seat).hand & mask_of(MIDDLEHAND)
        if deal.to_move == 1:
            legal = deal.legal_actions()
            assert len(legal) == 1  # the top card, suit or not
            played.append(legal[0].card)
            deal.apply(legal[0])
        else:
            deal.apply(deal.legal_actions()[0])
    assert played == MIDDLEHAND  # from the top, in the order dealt


class LaidAside:
    """9 cards each, 2 in the skat, 3 laid aside for the side with more points."""

    def __init__(self, to="more_points"):
        self.to = to

    @hookimpl
    def skat_deck(self):
        return Deck(hand=9, skat=2, aside=3, aside_to=self.to, packets=(3, "skat", 3, "aside", 3))


@pytest.mark.parametrize("to", ["more_points", "declarer", "nobody"])
def test_cards_laid_aside_count_where_the_deck_says(to):
    rules = compile_with("official", {"aside": lambda: LaidAside(to)})
    rng = random.Random(7)
    seen = set()
    for _ in range(60):
        dealt = deal_cards(rng, rules.deck)
        assert len(dealt) == 3 and [len(x) for x in dealt[0]] == [9, 9, 9] and len(dealt[2]) == 3
        deal = Deal(rules, *dealt)
        while not deal.done:
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
        if deal.contract is None or deal.contract.family == "null":
            continue
        d = deal.declarer
        own = deal.trick_points[d] + sum(POINTS[c] for c in cards_in(deal.skat))  # the skat counts for the declarer
        aside = sum(POINTS[c] for c in dealt[2])
        assert len(deal.tricks) == 9 and sum(deal.trick_points) + aside + sum(POINTS[c] for c in cards_in(deal.skat)) == 120
        gets = {"declarer": True, "nobody": False, "more_points": own > 120 - aside - own}[to]
        assert deal.facts().declarer_points == own + (aside if gets else 0)
        seen.add(gets)
    assert seen == ({True, False} if to == "more_points" else {to == "declarer"})


@pytest.mark.parametrize(("deck", "message"), [
    (Deck(hand=9, skat=2, packets=(3, "skat", 3, 3)), "32 cards do not make 3 hands of 9 and a skat of 2"),
    (Deck(hand=9, skat=2, aside=3, packets=(3, "skat", 3, 3)), "packets [3, 'skat', 3, 3] do not deal 9 cards each"),
    (Deck(hand=16, skat=0, seats=(0, 0), packets=(8, "skat", 8)), "seats [0, 0]: expected 2 or 3 different seats"),
    (Deck(hand=9, skat=2, aside=3, aside_to="dealer", packets=(3, "skat", 3, "aside", 3)), "aside_to 'dealer'"),
])
def test_a_layout_that_cannot_be_dealt_is_a_compile_error(deck, message):
    class Bad:
        @hookimpl
        def skat_deck(self):
            return deck

    with pytest.raises(InputError, match="skat_deck: " + message.replace("[", r"\[").replace("]", r"\]")):
        compile_with("official", {"bad": Bad})


@pytest.mark.parametrize(("plan", "message"), [
    (SeatPlan(controller="partner"), "seat 1: controller 'partner'"),
    (SeatPlan(shown=(("later", "all"),)), "seat 1: shown ('later', 'all')"),
    (SeatPlan(arrangement="stacks", open=3), "seat 1: stacks of 3 open cards: expected 1 to 10, dividing the 10 cards"),
])
def test_a_table_that_cannot_be_played_is_a_compile_error(plan, message):
    class Bad:
        @hookimpl
        def skat_table(self):
            return Table((SeatPlan(), plan, SeatPlan()))

    with pytest.raises(InputError, match="skat_table: " + message.replace("(", r"\(").replace(")", r"\)")):
        compile_with("official", {"bad": Bad})
