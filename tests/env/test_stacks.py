"""What a seat knows of the stacks (Offiziersskat, ruleset ``offiziersskat``):
the cards turned up under the cards played (``SeatView.turned_up``), part of
the information state (``view_key``), and the stacks as the person saw them
(:func:`~skatcore.env.worlds.stacks_seen`), in which every move seen replays."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from skatcore.engine.actions import Play
from skatcore.engine.deal import Deal
from skatcore.engine.view import SeatView
from skatcore.env.worlds import Knowledge, Shared, info_key, relabelled, stacks_seen, view_key
from skatcore.env.worlds import Play as Layout
from skatcore.rules.compiler import get_rules

RULES = get_rules("offiziersskat")
SEATS = RULES.deck.seats  # the two players


def played_into(rng: random.Random, moves: int) -> Deal:
    """An Offiziersskat deal dealt by ``rng``, ``moves`` random legal moves into it (or to its end)."""
    deal = Deal(RULES, *RULES.deck.deal(rng))
    for _ in range(moves):
        if deal.done:
            break
        legal = deal.legal_actions()
        deal.apply(legal[int(rng.random() * len(legal))])
    return deal


def test_turned_up_are_the_cards_under_the_cards_played_for_both_seats():
    deal = played_into(random.Random(3), 14)
    want = tuple((a.card, deal.beneath[a.card]) for _, a in deal.history if type(a) is Play and a.card in deal.beneath)
    assert want  # some top cards were played
    for seat in SEATS:
        assert SeatView(deal, seat, ()).turned_up == want
    assert SeatView(Deal(get_rules("official"), *get_rules("official").deck.deal(random.Random(3))), 0, ()).turned_up == ()


def test_a_view_taken_earlier_keeps_the_cards_turned_up_then():
    deal = played_into(random.Random(4), 4)
    view = SeatView(deal, SEATS[0], ())
    before = len(view.history)
    while not deal.done and len(deal.history) < 12:
        deal.apply(deal.legal_actions()[0])
    assert len(view.turned_up) == sum(type(a) is Play and a.card in deal.beneath for _, a in deal.history[:before])


def test_the_information_state_tells_apart_stacks_turned_up_crosswise():
    """Two deals alike but for the cards under two top cards of forehand's:
    once both are played, the hands are the same; the person saw which
    card came up under which, and so does its information state."""
    found = 0
    for k in range(200):
        rng = random.Random(k)
        hands, skat = RULES.deck.deal(rng)
        a = Deal(RULES, hands, skat)
        t0, t1 = hands[0][8], hands[0][9]  # the tops of stacks 0 and 1 (the bottoms are dealt first)
        while not a.done and not {t0, t1} <= {x.card for _, x in a.history if type(x) is Play}:
            legal = a.legal_actions()
            a.apply(legal[int(rng.random() * len(legal))])
        if a.done:
            continue
        crossed = list(hands[0])
        crossed[0], crossed[1] = crossed[1], crossed[0]
        b = Deal(RULES, [crossed, hands[1], hands[2]], skat)
        try:
            for _, x in a.history:
                b.apply(x)
        except Exception:  # the crossed cards change what a hand held at some trick: not a pair of this kind
            continue
        for seat in SEATS:
            va, vb = SeatView(a, seat, ()), SeatView(b, seat, ())
            assert (va.hand, va.others, va.history) == (vb.hand, vb.others, vb.history)
            assert view_key(va) != view_key(vb)
        found += 1
    assert found


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 40), st.sampled_from(SEATS))
def test_every_layout_of_the_stacks_seen_replays_the_deal(seed, moves, seat):
    """Any unseen cards dealt to the face-down places of the stacks the seat
    saw make a deal in which every move seen is legal and the seat sees what
    it saw."""
    rng = random.Random(seed)
    deal = played_into(rng, moves)
    view = SeatView(deal, seat, ())
    stacks = stacks_seen(view, RULES)
    assert set(stacks) == set(SEATS)
    known = {c for cards in stacks.values() for c in cards if c is not None}
    unseen = [c for c in RULES.deck.cards if c not in known]
    rng.shuffle(unseen)
    fill = iter(unseen)
    hands = [[next(fill) if c is None else c for c in stacks.get(s, ())] for s in range(3)]
    assert next(fill, None) is None
    layout = Deal(RULES, hands, [])
    for _, a in deal.history:
        layout.apply(a)
    assert view_key(SeatView(layout, seat, ())) == view_key(view)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 30))
def test_every_drawn_layout_replays_the_deal(seed, moves):
    """OpenSpiel's resampling (:class:`Knowledge`): the face-down cards dealt
    afresh, every move replays and the seat's information state stays."""
    rng = random.Random(seed)
    shared = Shared(RULES)
    play = Layout(shared)
    hands, _ = RULES.deck.deal(rng)
    for c in hands[0] + hands[1]:  # dealt in the order of Shared.sizes: forehand's, middlehand's
        play.apply(c)
    for _ in range(moves):
        if play.turns.deal.done:  # type: ignore[union-attr]
            break
        legal = play.turns.legal()  # type: ignore[union-attr]
        play.apply(legal[int(rng.random() * len(legal))])
    for seat in SEATS:
        known = Knowledge.of(play, seat)
        for _ in range(3):
            new = relabelled(play, known.draw(rng))
            assert new is not None and info_key(new, seat) == info_key(play, seat)
