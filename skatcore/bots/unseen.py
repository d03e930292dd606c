"""Dealing the cards a seat has not seen to the places they may lie: the
one draw behind the expert's layouts (:mod:`skatcore.bots.expert.worlds`)
and the OpenSpiel game's resampling (:mod:`skatcore.env.worlds`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence


def place_unseen(allowed: Mapping[int, Sequence[int]], room: Mapping[int, int], rng: random.Random,
                 tries: int = 20) -> dict[int, list[int]] | None:
    """Each card of ``allowed`` (card -> the places it may lie) to one
    place, place ``p`` getting ``room[p]`` cards: cards with fewest places
    first (a stable sort of a shuffle), each drawn into a place in
    proportion to the room left there.  A dead end (a card with no room
    left in its places) starts again; after ``tries`` of them any place
    goes, and the caller judges the result.  Place -> its cards in the
    order drawn; ``None`` if the room does not add up to the cards."""
    cards = list(allowed)
    if sum(room.values()) != len(cards):
        return None
    anywhere = list(room)
    draw = rng.randrange
    for attempt in range(tries + 1):
        rng.shuffle(cards)
        order = sorted(cards, key=lambda c: len(allowed[c])) if attempt < tries else cards
        left = dict(room)
        got: dict[int, list[int]] = {p: [] for p in room}
        for c in order:
            places = allowed[c] if attempt < tries else anywhere
            total = 0
            for p in places:
                total += left[p]
            if total == 0:
                break
            r = draw(total)
            for p in places:
                r -= left[p]
                if r < 0:
                    break
            left[p] -= 1
            got[p].append(c)
        else:
            return got
    return None
