"""Every play line of a position tried, the slow way: what the solver's tests
check its values against (tests/bots/test_solver_trick_rule.py,
test_solver_card_points.py), and the endings they try."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence


def brute(rules, game, hands, leader, trick, declarer, judge: Callable[[tuple, int, int], tuple[int, int]]) -> int:
    """The best the declarer's side reaches from here, every play line tried:
    the declarer maximises, the others minimise.  ``judge(cards, leader,
    cards_left)`` says of each complete trick who took it and what it adds."""
    table = rules.tricks[game]
    seat = (leader + len(trick)) % 3
    hand = hands[seat]
    legal = (hand & table.class_mask[table.follow[trick[0]]] if trick else 0) or hand
    best = None
    for c in range(32):
        if not legal >> c & 1:
            continue
        left = list(hands)
        left[seat] &= ~(1 << c)
        cards = (*trick, c)
        if len(cards) < 3:
            v = brute(rules, game, tuple(left), leader, cards, declarer, judge)
        else:
            n_left = sum(h.bit_count() for h in left)
            w, v = judge(cards, leader, n_left)
            if n_left:
                v += brute(rules, game, tuple(left), w, (), declarer, judge)
        if best is None or (v > best if seat == declarer else v < best):
            best = v
    assert best is not None
    return best


def ending(rng: random.Random, tricks: int, favoured: Sequence[int] = ()) -> tuple[tuple[int, ...], list[int]]:
    """Random hands of ``tricks`` cards each (masks), the ``favoured`` cards
    among them four times in five, and the cards left over."""
    cards = list(range(32))
    rng.shuffle(cards)
    if favoured and rng.random() < 0.8:
        for c in favoured:
            cards.remove(c)
            cards.insert(rng.randrange(3 * tricks), c)
    hands = [0, 0, 0]
    for i, c in enumerate(cards[:3 * tricks]):
        hands[i % 3] |= 1 << c
    return tuple(hands), cards[3 * tricks:]
