"""What a player types at ``skat play`` and what the table answers in a
player's words: cards by number, by the name skatcore prints (``♣A``,
``CA``, ``C10``), in English (``club ace``, ``ace of clubs``) or German
(``Kreuz As``, ``Herz Zehn``), and why a card may not be played (``you must
follow ♣``, ``trump must be followed``)."""

from __future__ import annotations

import re

from skatcore.cards import CARD_IDS, CARD_NAMES, parse_card
from skatcore.cli.play_text import card_markup, suit_markup
from skatcore.errors import InputError
from skatcore.rules.compiler import TRUMP

MAX_INPUT = 200  # characters read from a line: a card or two, some words

SUIT_WORDS = {
    "C": ("club", "clubs", "kreuz", "eichel", "eicheln"),
    "S": ("spade", "spades", "pik", "pique", "grün", "gruen", "laub"),
    "H": ("heart", "hearts", "herz", "rot", "cœur", "coeur"),
    "D": ("diamond", "diamonds", "karo", "caro", "schellen", "schelle"),
}
RANK_WORDS = {
    "A": ("a", "ace", "as", "ass", "daus"),
    "T": ("10", "t", "ten", "zehn"),
    "K": ("k", "king", "könig", "koenig", "koenich"),
    "Q": ("q", "queen", "dame", "ober"),
    "J": ("j", "jack", "bube", "bub", "knave", "unter"),
    "9": ("9", "nine", "neun"),
    "8": ("8", "eight", "acht"),
    "7": ("7", "seven", "sieben"),
    "6": ("6", "six", "sechs"),
}
_SUIT = {w: s for s, words in SUIT_WORDS.items() for w in words}
_RANK = {w: r for r, words in RANK_WORDS.items() for w in words}
_FILLER = {"of", "the", "von", "and", "und"}
_TOKEN = re.compile(r"[^\s,;+]+")


class NotUnderstood(ValueError):
    """A word that is neither a number nor a card (the message names it)."""


def _card_word(word: str) -> int | None:
    """A card written as one word: ``CA``, ``♣A``, ``A♣``, ``♣10``, ``ht``."""
    try:
        c = parse_card(word)
    except InputError:
        return None
    return c if CARD_NAMES[c] in CARD_IDS else None


def read_choices(text: str) -> list[int | str]:
    """The numbers and cards in what a player typed, in order: an ``int``
    for a number, a card's name (``"CA"``) for a card.

    >>> read_choices("3, Kreuz As and ace of hearts ♠10")
    [3, 'CA', 'HA', 'ST']

    :raises NotUnderstood: naming the first word that is neither.
    """
    words = [w.lower() for w in _TOKEN.findall(text[:MAX_INPUT]) if w.lower() not in _FILLER]
    out: list[int | str] = []
    i = 0
    while i < len(words):
        w, nxt = words[i], words[i + 1] if i + 1 < len(words) else ""
        if w in _SUIT and nxt in _RANK:  # "club ace", "Kreuz As"
            out.append(_SUIT[w] + _RANK[nxt])
            i += 2
        elif w in _RANK and nxt in _SUIT:  # "ace clubs" ("of" dropped)
            out.append(_SUIT[nxt] + _RANK[w])
            i += 2
        elif w.isdecimal() and len(w) <= 3:  # isdigit() is true of "²", which int() refuses
            out.append(int(w))
            i += 1
        elif (c := _card_word(w)) is not None:
            out.append(CARD_NAMES[c])
            i += 1
        else:
            raise NotUnderstood(w)
    return out


def pick_cards(text: str, numbered: list[int]) -> list[int]:
    """The cards a player named, a number counting in ``numbered`` (1 the
    first).  A number out of range or a word that is no card raises
    :class:`NotUnderstood`."""
    cards = []
    for x in read_choices(text):
        if isinstance(x, int):
            if not 1 <= x <= len(numbered):
                raise NotUnderstood(str(x))
            cards.append(numbered[x - 1])
        else:
            cards.append(CARD_IDS[x])
    return cards


def why_not(card: int, hand: int, legal: list[int], trick, table, symbols: bool = True) -> str:
    """Why ``card`` may not be played now, as a player says it (rich markup)."""
    name = card_markup(card, symbols)
    if not hand >> card & 1:
        return f"you do not hold {name}"
    if trick:
        led = table.follow[trick[0]]
        if table.follow[card] != led and any(table.follow[c] == led for c in legal):
            if led == TRUMP:
                return "trump must be followed"
            return f"you must follow {suit_markup(CARD_NAMES[trick[0]][0], symbols)}"
    return f"{name} may not be played now"
