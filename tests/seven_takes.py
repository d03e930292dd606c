"""A trick-winner house rule the solver's and the ISS replay's tests share."""

from __future__ import annotations

from skatcore.cards import parse_card
from skatcore.hookspecs import hookimpl


class SevenTakes:
    """In a suit game the seven of trumps takes any trick it is in."""

    @hookimpl
    def skat_trick_winner(self, contract, order, cards):
        if contract.family == "suit":
            seven = next(parse_card(t) for t in order.trumps if t[1] == "7")
            return cards.index(seven) if seven in cards else None
        return None
