"""The heuristic's judgement of grand and null (issue 12): hands a Skat
player plays grand with are declared grand - two jacks and four aces, three
jacks and a long suit, the two low jacks with Stehkarten in forehand only -
and a long suit with one jack stays a suit game; a null hand safe in every
suit is played ouvert, one with a suit a rank too high plain; as declarer it
keeps trumps nobody else holds to come back in."""

import pytest

from skatcore.bots.heuristic import HeuristicPlayer
from skatcore.bots.heuristic.tables import _GRAND_JACKS, jack_bits
from skatcore.cards import CARD_NAMES, parse_card
from skatcore.engine.deal import PASS, Deal, Phase
from skatcore.model import Declaration
from skatcore.rules import get_rules

RULES = get_rules("official")


def mask(cards: str) -> int:
    return sum(1 << parse_card(c) for c in cards.split())


def declared(hand: str, skat: str, seat: int) -> Declaration | None:
    """What a heuristic player in ``seat`` declares with ``hand`` (the others pass at once)."""
    cards = hand.split() + skat.split()
    others = [c for c in CARD_NAMES[:32] if c not in cards]
    hands = [others[:10], others[10:]]
    hands.insert(seat, hand.split())
    deal = Deal(RULES, [[parse_card(c) for c in h] for h in hands], [parse_card(c) for c in skat.split()])
    me = HeuristicPlayer(RULES)
    while deal.phase is not Phase.PLAY and not deal.done:
        deal.apply(me.act(deal.view(seat)) if deal.to_move == seat else PASS)
    return deal.declaration


@pytest.mark.parametrize("hand, games", [
    ("CJ SJ CA CT SA S9 HA H8 DA D7", ["grand"] * 3),        # two jacks, four aces
    ("CJ SJ HJ CA CT CK C9 C8 SA H9", ["grand"] * 3),        # three jacks and a long suit that runs
    ("HJ DJ CA CT C9 SA SK HA H9 D9", ["grand", "hearts", "hearts"]),  # the low jacks: grand when leading
    ("CJ CA CT CK CQ C9 SA S8 H9 D7", ["clubs"] * 3),        # one jack and six clubs: a suit game
])
def test_hands_a_skat_player_plays_grand_with(hand, games):
    assert [declared(hand, "H7 D8", seat).game for seat in range(3)] == games


@pytest.mark.parametrize("hand, ouvert, hand_game", [
    ("C7 C8 C9 S7 S8 ST H7 H9 D7 D8", True, True),    # every suit safe: null ouvert hand
    ("C7 C9 CT S7 S8 ST H7 H9 D7 D8", True, True),    # 7-9-T is safe too
    ("C8 C9 CT S7 S8 ST H7 H9 D7 D8", False, False),  # clubs without the 7: pick up, a plain null
])
def test_null_hands(hand, ouvert, hand_game):
    for seat in range(3):
        d = declared(hand, "HA SA", seat)
        assert (d.game, d.ouvert, d.hand) == ("null", ouvert, hand_game)


def test_null_risk_by_how_far_a_suit_lies_too_high():
    me = HeuristicPlayer(RULES)
    assert me.null_risk(mask("C7 C8 C9 S7 S9 ST H7 D7")) == 0.0          # 7, 8-7, 9-7, T-9-7 ... are safe
    one, two = me.null_risk(mask("C8 C9 CT")), me.null_risk(mask("C9 CT"))  # no 7: one rank / two ranks too high
    assert 0.0 < one < two < me.null_risk(mask("CA C7"))


def test_grand_strength_counts_jacks_stehkarten_and_the_lead():
    me = HeuristicPlayer(RULES)
    grand = me.info.games["grand"]
    base = mask("HJ DJ CA CT C9 SA SK HA H9 D9")
    strength = me.strength(base, grand)
    assert me.strength(base, grand, fore=True) > strength                             # forehand leads the jacks
    assert me.strength(base ^ mask("HJ CJ"), grand) > strength                        # the club jack for the heart jack
    assert me.strength(base ^ mask("C9 CK"), grand) == strength                       # a small card more or less
    assert me.strength(base ^ mask("H9 HT"), grand) > strength                        # a ten with its ace
    assert me.strength(base ^ mask("D9 DA"), grand) > me.strength(base ^ mask("H9 HT"), grand)  # an ace more
    # the second and third jack weigh more than the first
    one, two, three = (_GRAND_JACKS[jack_bits(mask(j))] for j in ("DJ", "DJ HJ", "DJ HJ SJ"))
    assert two - one > one - _GRAND_JACKS[0] and three - two > one - _GRAND_JACKS[0]
    # after the discard the estimate says who wins: an even chance at strength 0
    weak = mask("DJ CA C9 C8 SA SK H9 H8 D9 D8")
    assert me._win_p(base, Declaration("grand", False), fore=True) > 0.5 > me._win_p(weak, Declaration("grand", False))


def test_declarer_keeps_the_last_trumps_and_leads_the_long_suit():
    """No jack left with the defenders: the declarer leads his long suit low and keeps the jacks to come back in."""
    me = HeuristicPlayer(RULES)
    grand = me.info.games["grand"]
    hand = mask("HJ DJ HK HT H9")
    unseen = mask("HA HQ H8 H7 SK ST S9 CK CQ DQ")
    card = me._play_declarer(None, grand, hand, hand, unseen, ())
    assert CARD_NAMES[card] == "H9"
