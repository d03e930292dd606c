"""Cards, their text notation (docs/formats.md#cards) and card points.

A card is a small int ``suit * 8 + rank`` with suits ``C S H D`` and ranks in
null order ``A K Q J T 9 8 7``; a set of cards (a hand, a trick pile) is an int
bitmask.  Both make the engine's tables plain tuples indexed by card.

Cards outside the 32-card deck get the ids after it: the sixes of Sechserskat
are 32..35 (``C6 S6 H6 D6``, worth 0), so the ids of the 32-card deck never
change.  Which cards a ruleset deals, and how, is its
:class:`~skatcore.model.Deck` (hook ``skat_deck``, ``CompiledRules.deck``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from skatcore.errors import InputError

SUITS = "CSHD"
RANKS = "AKQJT987"       # the 32-card deck
EXTRA_RANKS = "6"        # ranks a plugin's deck may add (Sechserskat), ids after the 32
ALL_RANKS = RANKS + EXTRA_RANKS
SUIT_NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
RANK_POINTS = {"A": 11, "K": 4, "Q": 3, "J": 2, "T": 10, "9": 0, "8": 0, "7": 0, "6": 0}

Card = int
DECK: tuple[Card, ...] = tuple(range(32))  # the standard 32-card deck
FULL_MASK = (1 << 32) - 1

CARD_NAMES: tuple[str, ...] = tuple(s + r for s in SUITS for r in RANKS) + tuple(s + r for r in EXTRA_RANKS for s in SUITS)
POINTS: tuple[int, ...] = tuple(RANK_POINTS[n[1]] for n in CARD_NAMES)
SUIT_OF: tuple[str, ...] = tuple(n[0] for n in CARD_NAMES)
RANK_OF: tuple[str, ...] = tuple(n[1] for n in CARD_NAMES)
CARD_IDS: dict[str, Card] = {n: i for i, n in enumerate(CARD_NAMES)}  # the canonical names only: CJ, HT, D6
_BY_NAME = CARD_IDS
_SYMBOLS = {"♣": "C", "♠": "S", "♥": "H", "♦": "D", "♧": "C", "♤": "S", "♡": "H", "♢": "D"}


def card(suit: str, rank: str) -> Card:
    return _BY_NAME[suit + rank]


def parse_card(text: object) -> Card:
    """Parse ``CJ``, ``ht``, ``H10``, ``10♥`` or ``J♣`` into a card.

    :raises InputError: with the expected notation when ``text`` is no card.
    """
    if type(text) is str:
        c = CARD_IDS.get(text)  # the usual spelling, before any normalising
        if c is not None:
            return c
    if isinstance(text, str):
        t = text.strip().upper().replace("10", "T")
        for sym, letter in _SYMBOLS.items():
            t = t.replace(sym, letter) if sym in t else t
        if len(t) == 2:
            if t[0] in ALL_RANKS and t[1] in SUITS:  # symbol after rank: "J♣" -> "JC"
                t = t[1] + t[0]
            if t in _BY_NAME:
                return _BY_NAME[t]
    raise InputError(f"{text!r} is not a card (expected suit C/S/H/D + rank A K Q J T/10 9 8 7, e.g. CJ, HT; 6 in a deck with sixes)")


def name(c: Card) -> str:
    return CARD_NAMES[c]


def names(cards: Iterable[Card]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def mask_of(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_in(mask: int) -> Iterator[Card]:
    """The cards of a bitmask, lowest id first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def points_of(mask: int) -> int:
    return sum(POINTS[c] for c in cards_in(mask))
