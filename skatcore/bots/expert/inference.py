"""Inference from the play: how likely a sampled layout makes the cards the
other seats played, under a model of their play (the heuristic player's
policy).

A defender who held the master ace of a suit led and did not take the trick
with it is unlikely to hold it; a declarer who led his small trumps is
unlikely to hold the top jacks.  Each card another seat played with more
than one legal card is evidence: in a layout where the model, holding that
seat's cards of the layout, plays the same card, the layout gets
``AGREE``; else the rest of the chance shared among the seat's other
legal cards.  Declarer and defenders are read alike (a declarer's view in
the model sees the layout's skat as his discard).
"""

from __future__ import annotations

from dataclasses import dataclass

from skatcore.bots.expert.worlds import bidding_levels
from skatcore.bots.heuristic import HeuristicPlayer
from skatcore.bots.heuristic.play import PLAY_CARD
from skatcore.bots.heuristic.tables import cards_in
from skatcore.engine.view import SeatView


@dataclass(frozen=True)
class Evidence:
    """One card another seat chose."""

    seat: int
    tricks: int             # finished tricks before it
    trick: tuple[int, ...]  # the cards of its trick before it
    card: int
    later: int              # the cards the seat played from then on (this card included)


def evidence(view: SeatView, kn, me: int, limit: int) -> list[Evidence]:
    """The other seats' card choices so far whose hands are not known,
    the latest ``limit`` of them (they carry most: fewest cards left to explain)."""
    out = []
    later = [0, 0, 0]
    tricks = [*view.tricks, (kn.leader, view.trick, None)]
    for n in range(len(tricks) - 1, -1, -1):
        leader, cards, _ = tricks[n]
        for i in range(len(cards) - 1, -1, -1):
            s = (leader + i) % 3
            later[s] |= 1 << cards[i]
            if s != me and not (kn.known[s] and kn.known[s].bit_count() == kn.sizes[s]):  # a hand not shown
                out.append(Evidence(s, n, tuple(cards[:i]), cards[i], later[s]))
    return out[:limit]


class PlayModel:
    """The likelihood of the other seats' cards in a layout (see the module)."""

    AGREE = 0.6  # the chance a seat plays the model's card (the heuristic agrees with ISS players about as often)

    def __init__(self, rules, seed: int | None = None):
        self.rules = rules
        self.model = HeuristicPlayer(rules, seed)
        self._views: dict[int, tuple[Evidence, SeatView]] = {}  # by id: a choice's view, its hand set per layout

    def weight(self, view: SeatView, table, found: list[Evidence], hands, skat: int,
               cache: dict[tuple, float] | None = None) -> float:
        """The likelihood of the choices ``found`` in the layout ``hands``, ``skat``;
        ``cache`` (for one deal) keeps each choice's by the hand its seat held then."""
        w = 1.0
        follow, class_mask = table.follow, table.class_mask
        for e in found:
            hand = hands[e.seat] | e.later
            key = (e.seat, e.tricks, len(e.trick), hand, skat if e.seat == view.declarer else 0)
            got = cache.get(key) if cache is not None else None
            if got is None:
                got = self._likelihood(view, table, e, hand, skat, follow, class_mask)
                if cache is not None:
                    cache[key] = got
            w *= got
        return w

    def _likelihood(self, view: SeatView, table, e: Evidence, hand: int, skat: int, follow, class_mask) -> float:
        legal = (hand & class_mask[follow[e.trick[0]]]) or hand if e.trick else hand
        k = legal.bit_count()
        if k < 2:
            return 1.0
        got = self._views.get(id(e))
        if got is None or got[0] is not e:
            if len(self._views) > 64:
                self._views.clear()
            got = self._views[id(e)] = (e, hypothetical(view, e, hand, legal, skat))
        other = got[1]  # the model reads the view and keeps nothing of it: one view serves every layout
        other.hand = hand
        other.legal = tuple(PLAY_CARD[c] for c in cards_in(legal))
        if e.seat == view.declarer:
            other.discard = tuple(cards_in(skat))
        if self.model.act(other).card == e.card:
            return self.AGREE
        return (1 - self.AGREE) / (k - 1)


def hypothetical(view: SeatView, e: Evidence, hand: int, legal: int, skat: int) -> SeatView:
    """The view seat ``e.seat`` had before playing ``e.card`` if it held ``hand``
    (built slot by slot, as ``SeatView.with_legal`` builds one: the tricks then were a prefix of now)."""
    other = object.__new__(SeatView)
    for slot in SeatView.__slots__:
        object.__setattr__(other, slot, getattr(view, slot))
    tricks = view.tricks[:e.tricks]
    other.seat = other.to_move = e.seat
    other.hand = hand
    other.trick = e.trick
    other.discard = tuple(cards_in(skat)) if e.seat == view.declarer else ()
    other.legal = tuple(PLAY_CARD[c] for c in cards_in(legal))
    other._n_tricks, other._tricks = len(tricks), tricks
    return other


def bid_weights(view: SeatView, limit, ladder, hand_size: int, misfit: float):
    """How plausible a world's hands are given how far each player bid: a
    hand whose ``limit`` (the heuristic's) lies below what its player bid or
    held, or past where he passed (a defender), counts ``misfit``.  A
    function of ``(hands, kn)``, or None when nobody bid or passed."""
    high, passed = bidding_levels(view)
    if not any(high) and all(p is None for p in passed):
        return None
    me = view.seat

    def weight(hands, kn) -> float:
        w = 1.0
        for s in range(3):
            if s == me or (high[s] == 0 and passed[s] is None):
                continue
            dealt = hands[s] | kn.played[s]
            if dealt.bit_count() != hand_size:
                continue
            most = limit(dealt)
            if high[s] and most < high[s]:
                w *= misfit
            if (said := passed[s]) is not None:
                nxt = next((v for v in ladder if v > said), None)
                if nxt is not None and most >= nxt and s != view.declarer:
                    w *= misfit
        return w

    return weight
