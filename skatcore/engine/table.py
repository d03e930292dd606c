"""Seats at a table of 3 or 4 players (docs/rules/official.md#a1), or of two
where the ruleset's table has two persons (a straw man's seat is nobody's)."""

from __future__ import annotations

from skatcore.errors import InputError
from skatcore.model import SEATS


def people(rules) -> tuple[int, ...]:
    """The seats a person plays under ``rules`` (a straw man's seat is nobody's)."""
    plans = rules.table.seats
    return tuple(s for s in rules.deck.seats if plans[s].controller == "own")


def seating(players: int, dealer: int, persons: tuple[int, ...] = (0, 1, 2)) -> dict[str, int]:
    """Which player (index) holds each seat.  Forehand sits left of the
    dealer; with 3 players the dealer is Rearhand, with 4 the dealer sits out.
    At a table of two (``persons``, the seats a person plays: :func:`people`)
    the non-dealer takes the first of them and the dealer the last.
    """
    if len(persons) == 2:
        if players != 2:
            raise InputError(f"this ruleset is played by 2 players, not {players}")
    elif players not in (3, 4):
        raise InputError(f"a table has 3 or 4 players, not {players}")
    if not 0 <= dealer < players:
        raise InputError(f"dealer {dealer} is not a player index (0..{players - 1})")
    if players == 2:
        return {SEATS[persons[0]]: 1 - dealer, SEATS[persons[1]]: dealer}
    return {seat: (dealer + 1 + i) % players for i, seat in enumerate(SEATS)}


def next_dealer(players: int, dealer: int) -> int:
    """The deal passes clockwise (also after a thrown-in deal)."""
    return (dealer + 1) % players
