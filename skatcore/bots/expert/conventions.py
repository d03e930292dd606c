"""Which of the cards the expert's layouts leave level a player plays:
conventions of card play scored by weights fitted on decisions of XSkat's
computer player in fresh simulated deals (``tools/bot_agreement.py --ties``,
``tools/fit_conventions.py``), never on the ISS games.

Each level card is described by what a player sees in it - whether it is
the card the rules of thumb play (the heuristic's), its card points, a
trump, a jack, whether it takes the trick so far, whether it is the highest
card of its suit still out, the highest or lowest of its suit in the hand,
how long that suit is, how many of it are still out, whether it is the lowest or highest of
cards in the hand that follow each other in the suit (no card still out
between them: which of equal cards) - and the card with the highest weighted sum in its
situation (who plays, the place in the trick, whether the partner holds the
trick) is played; equal sums go to the fewest card points.
"""

from __future__ import annotations

from skatcore.bots.expert.defence import cheapest_key, holder
from skatcore.bots.heuristic.tables import cards_in
from skatcore.rules.compiler import TRUMP

FEATURES = ("heuristic", "points", "ace_or_ten", "trump", "jack", "takes", "master", "highest", "lowest",
            "suit_length", "blank", "out", "run_bottom", "run_top")

# situations: who plays and where (declarer / defender; the place in the trick; for a defender
# following, whether his partner holds the trick)
SITUATIONS = ("declarer_lead", "declarer_second", "declarer_last", "defender_lead",
              "defender_second_partner", "defender_second_declarer", "defender_last_partner",
              "defender_last_declarer")

# fitted by tools/fit_conventions.py on the level cards of 1,000 deals of seed 9201 that XSkat played at
# every seat (16,430 decisions with the teacher's card among the level ones), in FEATURES order;
# checked on 500 deals of seed 9202 (8,332)
WEIGHTS: dict[str, tuple[float, ...]] = {
    'declarer_lead': (1.39, -1.247, 0.415, -0.629, 0.601, 0.0, 0.729, 0.144, -1.068, 0.773, 0.763, -1.177, 0.476, -0.475),
    'declarer_second': (1.245, 2.12, -2.371, 1.673, -1.898, 1.776, -0.779, 0.096, 0.621, -0.517, 1.041, -0.328, -0.482, 0.438),
    'declarer_last': (1.454, 2.044, 0.544, 1.411, -0.861, 2.064, -0.898, 0.0, 0.398, -0.181, 1.412, -0.3, -0.525, 1.226),
    'defender_lead': (0.429, -1.399, 1.246, -2.258, 0.06, 0.0, 3.29, 1.455, 2.661, 0.565, -1.987, -2.366, -0.134, 0.878),
    'defender_second_partner': (0.516, 0.9, -0.43, -0.126, -0.966, 0.34, 0.347, 0.462, 2.4, 0.342, -1.03, 0.046, -0.045, 0.54),
    'defender_second_declarer': (1.017, 0.037, 0.506, -0.571, -0.263, 2.494, -0.454, 0.532, 1.456, 0.401, -0.729, -1.034, 0.271, 0.187),
    'defender_last_partner': (0.682, 3.042, 0.923, -0.232, -2.66, -1.785, -0.094, 1.437, 0.46, 0.313, -0.315, -0.276, -0.254, 0.952),
    'defender_last_declarer': (0.827, -1.585, 0.543, -0.202, 0.279, 1.535, -0.021, 0.26, 2.007, 0.444, -0.473, -0.439, 0.437, 0.066),
}


def describe(view, kn, g, tied: list[int], heuristic: int, live: int) -> tuple[str, dict[int, tuple[float, ...]]]:
    """The situation of a card decision and each level card's features (``kn``: the seat's
    :class:`~skatcore.bots.expert.worlds.Knowledge`; ``live``: the cards still in play)."""
    trick = tuple(view.trick)
    out = live & ~view.hand & ~kn.skat_known & ~sum(1 << c for c in trick)
    winner = holder(kn, g, trick) if trick else None
    where = situation(view.seat, view.declarer, trick, winner)
    return where, {c: features(g, view.hand, out, trick, c, heuristic) for c in tied}


def situation(me: int, declarer: int, trick: tuple[int, ...], winner: int | None) -> str:
    """The situation of a card decision (``winner``: the seat holding the trick so far)."""
    place = ("lead", "second", "last")[len(trick)]
    if me == declarer:
        return f"declarer_{place}"
    if not trick:
        return "defender_lead"
    return f"defender_{place}_{'partner' if winner != declarer else 'declarer'}"


def features(g, hand: int, unseen: int, trick: tuple[int, ...], card: int, heuristic: int) -> tuple[float, ...]:
    """The card's description in :data:`FEATURES` order (``unseen``: the cards still out in other hands
    or the skat; ``g``: the contract's :class:`~skatcore.bots.heuristic.tables.GameTables`)."""
    k = g.follow[card]
    suit = hand & g.class_mask[k]
    pts = g.points[card]
    if trick:
        s = g.strength[g.follow[trick[0]]]
        takes = s[card] > max(s[c] for c in trick)
    else:
        takes = False
    length = suit.bit_count()
    return (float(card == heuristic), pts / 11, float(pts >= 10), float(k == TRUMP),
            float(pts == 2 and k == TRUMP),
            float(takes), float(not g.higher[card] & unseen), float(not g.higher[card] & suit),
            float(not g.lower[card] & suit), length / 10, float(length == 1),
            (unseen & g.class_mask[k]).bit_count() / 10,
            float(not _next(g, g.lower[card] & (unseen | hand), max) & hand),
            float(not _next(g, g.higher[card] & (unseen | hand), min) & hand))


def _next(g, cards: int, pick) -> int:
    """The bit of the card of ``cards`` (one class) that ``pick`` (max: the highest, min: the lowest) chooses."""
    if not cards:
        return 0
    return 1 << pick(cards_in(cards), key=lambda c: g.power[c])


def best(weights: dict[str, tuple[float, ...]], where: str, described: dict[int, tuple[float, ...]],
         tiebreak) -> int:
    """The card of ``described`` (card -> features) with the highest weighted sum under ``weights[where]``;
    equal sums go by ``tiebreak`` (a sort key, smallest first)."""
    w = weights[where]

    def key(c: int):
        return -round(sum(a * b for a, b in zip(w, described[c], strict=True)), 9), tiebreak(c)
    return min(described, key=key)


def choose(g, where: str, described: dict[int, tuple[float, ...]], cards: list[int]) -> int:
    """The card of ``cards`` (described in ``described``) the conventions play in situation ``where``:
    :func:`best` under :data:`WEIGHTS`, equal sums to the fewest points (a side card before a trump, the lower)."""
    return best(WEIGHTS, where, {c: described[c] for c in cards}, lambda c: cheapest_key(g, c))
