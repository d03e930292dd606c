"""place_unseen: the draw behind the expert's layouts and the OpenSpiel game's resampling."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from skatcore.bots.unseen import place_unseen


@st.composite
def placements(draw):
    """A true placement of some cards (card -> place), and places each card may lie (its own among them)."""
    n_places = draw(st.integers(1, 4))
    cards = draw(st.lists(st.integers(0, 31), min_size=1, max_size=22, unique=True))
    truth = {c: draw(st.integers(0, n_places - 1)) for c in cards}
    allowed = {c: sorted({truth[c], *draw(st.sets(st.integers(0, n_places - 1), max_size=n_places))}) for c in cards}
    room = {p: sum(1 for c in cards if truth[c] == p) for p in range(n_places)}
    return allowed, room


@settings(max_examples=200, deadline=None)
@given(placements(), st.integers(0, 2**32))
def test_each_card_lands_once_and_each_place_gets_its_room(case, seed):
    allowed, room = case
    got = place_unseen(allowed, room, random.Random(seed))
    assert got is not None
    assert sorted(c for cs in got.values() for c in cs) == sorted(allowed)
    assert {p: len(cs) for p, cs in got.items()} == room
    assert got == place_unseen(allowed, room, random.Random(seed))  # the same draw from the same seed


@settings(max_examples=100, deadline=None)
@given(placements(), st.integers(0, 2**32))
def test_with_one_place_a_card_lands_there_and_with_any_place_no_draw_fails(case, seed):
    """Cards that may lie in one place each, the room matching, land there on
    the first try; cards that may lie anywhere never meet a dead end (no try
    but the last, which lets any card go anywhere)."""
    allowed, room = case
    free = {c: list(room) for c in allowed}
    got = place_unseen(free, room, random.Random(seed), tries=0)
    assert got is not None and {p: len(cs) for p, cs in got.items()} == room
    fixed = {c: [free[c][c % len(room)]] for c in allowed}
    room_fixed = {p: sum(1 for c in allowed if fixed[c] == [p]) for p in room}
    got = place_unseen(fixed, room_fixed, random.Random(seed), tries=1)
    assert got is not None and all(fixed[c] == [p] for p, cs in got.items() for c in cs)


def test_room_that_does_not_add_up_is_no_placement():
    assert place_unseen({1: [0], 2: [0, 1]}, {0: 1, 1: 2}, random.Random(1)) is None
