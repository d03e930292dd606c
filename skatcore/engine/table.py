"""Seats at a table of 3 or 4 players (docs/rules/official.md#a1)."""

from __future__ import annotations

from skatcore.errors import InputError
from skatcore.model import SEATS


def seating(players: int, dealer: int) -> dict[str, int]:
    """Which player (index) holds each seat.  Forehand sits left of the
    dealer; with 3 players the dealer is Rearhand, with 4 the dealer sits out.
    """
    if players not in (3, 4):
        raise InputError(f"a table has 3 or 4 players, not {players}")
    if not 0 <= dealer < players:
        raise InputError(f"dealer {dealer} is not a player index (0..{players - 1})")
    return {seat: (dealer + 1 + i) % players for i, seat in enumerate(SEATS)}


def next_dealer(players: int, dealer: int) -> int:
    """The deal passes clockwise (also after a thrown-in deal)."""
    return (dealer + 1) % players
