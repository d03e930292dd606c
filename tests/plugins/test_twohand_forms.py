"""Skat for two (docs/rules/house-rules.md#b13): what each form lets a player
see, its deal, and calls at a table of two; the fixtures come from
skatcore's testing kit (``skatcore.testing``)."""

import random
from pathlib import Path

import pytest

from skatcore.bots import resolve_player
from skatcore.cards import cards_in, mask_of, names
from skatcore.engine.deal import PASS, Bid, Deal, Phase, Play, deal_cards

VECTORS = Path(__file__).resolve().parents[1] / "vectors"
FORMS = ("skat-en-deux", "strohmann", "piloten-skat", "oma-skat", "offiziersskat", "schmegegge")


# -- what each form lets a player see, from the rules in words (docs/rules/house-rules.md#b13) ----------

def _played(deal) -> set[int]:
    return {c for t in deal.tricks for c in t.cards}


def hidden_from(form: str, deal, person: int) -> set[int]:
    """Cards the person at seat ``person`` may not see now: every card not
    yet played, less their own open cards, their discard and what the form
    shows them."""
    played = _played(deal)
    unseen = set(deal.rules.deck.cards) - played - set(cards_in(deal.hands[person])) - set(deal.discard if person == deal.declarer else ())
    d = deal.declaration
    if d is not None and d.ouvert and deal.phase is Phase.PLAY:
        unseen -= set(cards_in(deal.hands[deal.declarer]))  # an open game: the declarer's cards are shown
    third = set(deal.dealt[1]) - played
    first = deal.tricks[0] if deal.tricks else None
    if form == "skat-en-deux" and d is not None:
        unseen -= third  # shown once the game is announced
    elif form == "strohmann" and first is not None and first.winner is not None:
        unseen -= third  # face up after the first trick, for both
    elif form == "strohmann" and deal.to_move == 1 and deal.phase is Phase.PLAY:
        unseen.discard(deal.dealt[1][0])  # its top card, turned up as it is played blind to the first trick
    elif form == "piloten-skat" and first is not None and first.cards:
        unseen -= third  # turned up when the first card is led
    elif form == "schmegegge":
        done = sum(1 for t in deal.tricks if t.winner is not None) if deal.declarer is not None else 0
        unseen -= set(deal.dealt[1][:5 + done])  # five shown, one more after every trick (none in a Ramsch: out of play)
        unseen -= set(deal.marks.get("dummy_shown", ()))  # both passed: two more shown
    elif form == "offiziersskat":
        for seat in (0, 1):
            top, under = deal.dealt[seat][8:], deal.dealt[seat][:8]
            unseen -= set(top) | {c for i, c in enumerate(under) if top[i] in played}
        unseen |= {c for seat in (0, 1) for i, c in enumerate(deal.dealt[seat][:8]) if deal.dealt[seat][8 + i] not in played}
    return unseen


def view_cards(view) -> set[int]:
    seen = set(cards_in(view.hand)) | set(view.trick) | set(view.discard)
    seen |= {c for mask in view.others.values() for c in cards_in(mask)}
    seen |= set(cards_in(view.declarer_hand or 0))
    for action in view.legal:
        seen |= {action.card} if isinstance(action, Play) else set(getattr(action, "cards", ()))
    return seen


@pytest.mark.parametrize("players", ["random", "heuristic"])
@pytest.mark.parametrize("form", FORMS)
def test_no_view_shows_a_card_its_person_may_not_see(skat_rules, form, players):
    """Complete seeded deals, each move made by the person controlling the
    seat from that seat's view and checked against ``view.legal``; at every
    move no view of a person holds a hidden card."""
    rules = skat_rules(form)
    people = [s for s in rules.deck.seats if rules.table.seats[s].controller == "own"]
    assert len(people) == 2
    rng = random.Random(form)
    for n in range(40 if players == "random" else 15):
        bots = {s: resolve_player(players)(rules=rules, seed=rng.getrandbits(32)) for s in people}
        deal = Deal(rules, *deal_cards(rng, rules.deck))
        while not deal.done:
            for p in people:
                views = [deal.view(p)] + ([deal.view(deal.to_move)] if deal.controller(deal.to_move) == p != deal.to_move else [])
                for view in views:
                    leaked = view_cards(view) & hidden_from(form, deal, p)
                    assert not leaked, (form, n, p, view.phase, names(leaked))
            who = deal.controller(deal.to_move)
            if who is None:  # Oma: her one card, forced
                legal = deal.legal_actions()
                assert len(legal) == 1 and rules.table.seats[deal.to_move].controller == "nobody"
                deal.apply(legal[0])
                continue
            view = deal.view(deal.to_move)
            action = bots[who].act(view)
            assert action in view.legal
            deal.apply(action)
        deal.result()


def test_skat_en_deux_the_third_hand_is_shown_once_the_game_is_announced(skat_rules):
    rules = skat_rules("skat-en-deux")
    deal = Deal(rules, *deal_cards(random.Random(2)))
    assert deal.to_move == 2  # the dealer asks first; the third hand never bids
    for action in (Bid(18), PASS):
        deal.apply(action)  # rearhand 18, forehand passes: rearhand declares
    deal.apply(deal.legal_actions()[1])  # hand
    assert deal.view(0).others == {} and deal.view(2).others == {}
    deal.apply(next(a for a in deal.legal_actions() if a.declaration.game == "grand"))
    third = deal.hands[1]
    assert deal.view(2).others == {1: third} and deal.view(0).others == {1: third}
    assert deal.controller(1) == 0  # the defender plays it


def test_strohmann_deals_9_9_9_2_and_3_aside(skat_rules):
    rules = skat_rules("strohmann")
    hands, skat, aside = deal_cards(random.Random(5), rules.deck)
    assert [len(h) for h in hands] == [9, 9, 9] and len(skat) == 2 and len(aside) == 3
    assert rules.deck.aside_to == "more_points"


def test_strohmann_the_straw_man_lies_face_down_until_the_first_trick_is_over(skat_rules):
    """B13: nobody sees the straw man during the first trick (its top card is
    played blind); then both see its other 8 cards and the defender plays them."""
    from skatcore.engine.deal import PLAY_HAND, Declare
    from skatcore.model import Declaration

    rules = skat_rules("strohmann")
    hands, skat, aside = deal_cards(random.Random(5), rules.deck)
    deal = Deal(rules, hands, skat, aside)
    for action in (PASS, Bid(18), PLAY_HAND, Declare(Declaration("grand", hand=True))):
        deal.apply(action)  # the dealer passes; forehand plays a grand hand, rearhand defends
    assert deal.controller(1) == 2
    assert deal.view(0).others == {} and deal.view(2).others == {} and deal.view(1).hand == 0
    deal.apply(deal.legal_actions()[0])  # forehand leads
    assert list(deal.legal_actions()) == [Play(hands[1][0])]  # the straw man's top card, whatever it is
    deal.apply(Play(hands[1][0]))
    assert deal.view(0).others == {} and deal.view(2).others == {}
    deal.apply(deal.legal_actions()[0])  # the trick is complete: the straw man turns face up
    rest = mask_of(hands[1][1:])
    assert deal.view(0).others == {1: rest} and deal.view(2).others == {1: rest}


def test_schmegegge_the_dummy_always_shows_five(skat_rules):
    """B13: after both pass, the dummy's next two cards are shown for
    information; when the second round of bidding finds a declarer, the dummy
    shows five open cards, as in any game, and one more after every trick
    (its 6th and 7th cards, the two shown, come up first)."""
    from skatcore.engine.deal import PLAY_HAND, Declare
    from skatcore.model import Declaration

    rules = skat_rules("schmegegge")
    hands, skat = deal_cards(random.Random(4), rules.deck)
    deal = Deal(rules, hands, skat)
    deal.apply(PASS)
    deal.apply(PASS)  # both passed: the dummy shows two more, the bidding starts over
    assert deal.marks["dummy_shown"] == tuple(hands[1][5:7])
    assert deal.view(0).marks["dummy_shown"] == tuple(hands[1][5:7])  # shown to both
    for action in (PASS, Bid(18), PLAY_HAND, Declare(Declaration("grand", hand=True))):
        deal.apply(action)  # the dealer passes, forehand plays a grand hand
    assert deal.hands[1] == mask_of(hands[1][:5])
    for n in range(1, 6):
        while (len(deal.tricks) == n and deal.tricks[-1].winner is None) or len(deal.tricks) < n:
            deal.apply(deal.legal_actions()[0])
        assert deal.hands[1] & ~mask_of(hands[1][:5 + n]) == 0 and deal.hands[1].bit_count() == 5, n


def test_offiziersskat_no_bidding_the_non_dealer_announces_seeing_the_face_up_cards(skat_rules):
    rules = skat_rules("offiziersskat")
    hands, skat = deal_cards(random.Random(3), rules.deck)
    deal = Deal(rules, hands, skat)
    assert deal.phase is Phase.DECLARE and deal.to_move == 0
    view = deal.view(0)
    assert view.hand == mask_of(hands[0][8:]) and view.others == {1: mask_of(hands[1][8:])}
    assert all(a.declaration.hand for a in view.legal)


def test_piloten_skat_reduced_lays_the_third_hand_aside(skat_rules):
    rules = skat_rules(VECTORS / "rulesets" / "piloten-skat-reduced.yaml")
    hands, _skat, aside = deal_cards(random.Random(9), rules.deck)
    assert [len(h) for h in hands] == [10, 10, 0] and len(aside) == 10 and rules.deck.aside_to == "nobody"


# -- table calls and concessions are the persons' (the third hand is nobody's) ----------

def _en_deux_grand(rules):
    """The full-play deal of the vectors: forehand plays a grand hand, rearhand defends with middlehand."""
    from skatcore.engine.deal import PLAY_HAND, Declare
    from skatcore.model import Declaration

    hands = [[_card(c) for c in h.split()] for h in ("CJ SJ HJ DJ CA CT SA ST HA HT", "C7 C8 C9 S7 S8 S9 H7 H8 H9 D7",
                                                     "CK CQ SK SQ HK HQ DA DT DK DQ")]
    deal = Deal(rules, hands, [_card("D9"), _card("D8")])
    for action in (PASS, Bid(18)):  # the dealer passes, the non-dealer plays at 18
        deal.apply(action)
    deal.apply(PLAY_HAND)
    deal.apply(Declare(Declaration("grand", hand=True)))
    return deal


def _card(text):
    from skatcore.cards import parse_card

    return parse_card(text)


def test_kontra_and_re_at_a_table_of_two(skat_rules):
    """The defender (rearhand) says Kontra before playing, for himself and the
    third hand; the third hand, nobody's own seat, calls nothing; the
    declarer answers Re: a grand hand schwarz, 8 x 24 = 192, x4 = 768."""
    from skatcore.engine.deal import Call

    rules = skat_rules(VECTORS / "rulesets" / "skat-en-deux-kontra.yaml")
    deal = _en_deux_grand(rules)
    assert deal.legal_calls(1) == [] and deal.legal_calls(0) == []
    assert deal.legal_calls(2) == [Call(2, "kontra")]
    deal.apply(Play(_card("CJ")))
    deal.apply(Play(_card("C7")))  # the defender has played for the third hand, not yet his own card
    deal.apply(Call(2, "kontra"))
    assert deal.legal_calls(0) == [Call(0, "re")]
    deal.apply(Call(0, "re"))
    while not deal.done:
        deal.apply(deal.legal_actions()[0])
    result = deal.result()
    assert result.score == 768 and result.extra["calls"] == ["kontra", "re"]


def test_kontra_window_closes_with_the_defenders_own_first_card(skat_rules):
    rules = skat_rules(VECTORS / "rulesets" / "skat-en-deux-kontra.yaml")
    deal = _en_deux_grand(rules)
    for card in ("CJ", "C7", "CK"):
        deal.apply(Play(_card(card)))
    assert deal.legal_calls(2) == []


def test_the_defender_concedes_for_the_third_hand_too(skat_rules):
    """One concession of the defending person ends the deal: the rest goes to
    the declarer; the third hand cannot concede, nobody sits there."""
    from skatcore.engine.deal import Concede
    from skatcore.errors import InputError

    deal = _en_deux_grand(skat_rules("skat-en-deux"))
    with pytest.raises(InputError, match="middlehand is played by rearhand: only a person concedes"):
        deal.apply(Concede(1))
    deal.apply(Concede(2))
    assert deal.done and deal.concession_by == "defenders"
    assert deal.result().score == 192  # every trick left to the declarer: with 4, game 5, hand 6, schneider 7, schwarz 8 x 24


def test_the_declarer_concedes_alone(skat_rules):
    from skatcore.engine.deal import Concede

    deal = _en_deux_grand(skat_rules("skat-en-deux"))
    deal.apply(Concede(0))
    assert deal.done and deal.concession_by == "declarer" and deal.result().score < 0
