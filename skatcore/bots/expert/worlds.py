"""Worlds: layouts of the cards a seat cannot see, consistent with what it
has seen - the cards played, the voids shown (a card that did not follow),
an ouvert declarer's hand, the open cards of other seats it is shown
(``SeatView.others``: a straw man), the skat the declarer put away - for Monte Carlo
card play over double-dummy solutions."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from skatcore.bots.heuristic.tables import cards_in
from skatcore.bots.unseen import place_unseen
from skatcore.cards import mask_of
from skatcore.engine.deal import Bid, Hold, Pass, SeatView


@dataclass
class Knowledge:
    """What one seat knows about the cards during play."""

    me: int
    sizes: tuple[int, int, int]    # cards still held, by seat
    known: list[int]               # cards known to sit in each hand (own hand, ouvert declarer, hands shown)
    void: list[int]                # cards each seat cannot hold (classes it showed void in)
    played: list[int]              # cards each seat has played
    unseen: int                    # cards to deal out among the other hands and the skat
    skat_size: int                 # skat cards to sample (0: the skat is known)
    skat_known: int                # the skat when known (the declarer's own discard)
    leader: int                    # of the trick in progress
    trick: tuple[int, ...]
    declarer_points: int           # card points of the declarer's tricks so far
    aside: int = 0                 # cards laid aside unseen (a deck that lays some aside)
    _places: dict[int, list[int]] | None = field(default=None, repr=False, compare=False)

    def places(self) -> dict[int, list[int]]:
        """For each unseen card, where a layout may put it: 0 and 1 the other
        seats in order (unless void in its class), 2 the skat, 3 aside."""
        if self._places is None:
            slots = [s for s in range(3) if s != self.me]
            extra = ([2] if self.skat_size else []) + ([3] if self.aside else [])
            self._places = {c: [i for i, s in enumerate(slots) if not self.void[s] >> c & 1] + extra
                            for c in cards_in(self.unseen)}
        return self._places

    @classmethod
    def of(cls, view: SeatView, table, deck) -> Knowledge:
        me = view.seat
        follow, class_mask, points = table.follow, table.class_mask, table.points
        played = [0, 0, 0]
        void = [0, 0, 0]
        decl_points = 0
        tricks = [(leader, cards) for leader, cards, _ in view.tricks]
        leader = (me - len(view.trick)) % 3
        tricks.append((leader, view.trick))
        for (lead, cards), winner in zip(tricks, [w for _, _, w in view.tricks] + [None], strict=True):
            if not cards:
                continue
            k = follow[cards[0]]
            for i, c in enumerate(cards):
                seat = (lead + i) % 3
                played[seat] |= 1 << c
                if follow[c] != k:
                    void[seat] |= class_mask[k]
            if winner is not None and winner == view.declarer:
                decl_points += sum(points[c] for c in cards)
        sizes = tuple(deck.hand - played[s].bit_count() for s in range(3))
        known = [0, 0, 0]
        known[me] = view.hand
        all_played = played[0] | played[1] | played[2]
        for seat, hand in view.others.items():  # a straw man, a hand shown face up: where it lies
            known[seat] |= hand
        if view.declarer_hand is not None and view.declarer != me:
            known[view.declarer] = view.declarer_hand
        elif (turned := view.marks.get("turned")) is not None and view.declarer is not None and view.declarer != me \
                and not all_played >> turned & 1 and not view.hand >> turned & 1:
            known[view.declarer] |= 1 << turned  # a skat card a step turned up, held by the declarer
        skat_known = 0
        if view.declarer == me and view.discard:
            skat_known = sum(1 << c for c in view.discard)
        unseen = deck.mask & ~all_played & ~known[0] & ~known[1] & ~known[2] & ~skat_known
        return cls(me, sizes, known, void, played, unseen, 0 if skat_known else deck.skat, skat_known,
                   leader, tuple(view.trick), decl_points, getattr(deck, "aside", 0))


def sample(kn: Knowledge, rng: random.Random, tries: int = 20) -> tuple[tuple[int, int, int], int] | None:
    """One world: the three hands and the skat, the unseen cards placed by
    :func:`~skatcore.bots.unseen.place_unseen` (fewest possible places
    first; after ``tries`` dead ends, voids are ignored)."""
    slots = [s for s in range(3) if s != kn.me]
    room = {0: kn.sizes[slots[0]] - kn.known[slots[0]].bit_count(), 1: kn.sizes[slots[1]] - kn.known[slots[1]].bit_count(),
            2: kn.skat_size, 3: kn.aside}
    got = place_unseen(kn.places(), room, rng, tries)
    if got is None:
        return None  # inconsistent knowledge (should not happen)
    hands = list(kn.known)
    hands[slots[0]] |= mask_of(got[0])
    hands[slots[1]] |= mask_of(got[1])
    return (hands[0], hands[1], hands[2]), (mask_of(got[2]) if kn.skat_size else kn.skat_known)


def consistent(kn: Knowledge, dealt: tuple[int, int, int], skat: int) -> bool:
    """Whether a layout sampled earlier in the deal - ``dealt``, each hand
    as the play began; ``skat`` - fits ``kn``: every card played is in the
    hand that played it, the hands now hold what they must (known cards,
    the number of cards), and nothing of a class their seat showed void in."""
    if kn.aside or (not kn.skat_size and skat != kn.skat_known):
        return False
    for s in range(3):
        now = dealt[s] & ~kn.played[s]
        if kn.played[s] & ~dealt[s] or now & kn.void[s] or kn.known[s] & ~now or now.bit_count() != kn.sizes[s]:
            return False
    return True


def bidding_levels(view: SeatView) -> tuple[list[int], list[int | None]]:
    """For each seat, the highest value it bid or held (0: none), and the
    bid it passed at (None: did not pass)."""
    high = [0, 0, 0]
    passed: list[int | None] = [None, None, None]
    current = 0
    for seat, a in view.history:
        if isinstance(a, Bid):
            current = a.value
            high[seat] = max(high[seat], current)
        elif isinstance(a, Hold):
            high[seat] = max(high[seat], current)
        elif isinstance(a, Pass):
            if passed[seat] is None:
                passed[seat] = current
        else:
            break
    return high, passed


def all_equivalent(table, legal: int, live: int, points: bool) -> bool:
    """Whether the ``legal`` cards are all one choice: in one follow class,
    with no ``live`` card (one still to be played, or in the trick) between
    them in strength and - when card points count - the same card points;
    the double-dummy solver would search only one of them in any layout."""
    cards = cards_in(legal)
    k = table.follow[cards[0]]
    members = table.class_mask[k]
    if legal & ~members or (points and len({table.points[c] for c in cards}) > 1):
        return False
    strength = table.strength[k]
    lo, hi = min(strength[c] for c in cards), max(strength[c] for c in cards)
    return not any(lo < strength[c] < hi for c in cards_in(members & live & ~legal))
