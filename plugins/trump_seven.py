"""The seven of trumps takes the last trick (docs/rules/house-rules.md#b14).

A house rule of trick play: in a suit game, a last trick that holds the
seven of trumps goes to whoever played it, above every higher trump, jacks
included; earlier tricks go by the card order.  It rewards keeping the
smallest trump to the end, much as Spitze (B7) does for the declarer alone -
here any player may.

Grand: the trumps are the four jacks, there is no seven of trumps, so the
rule does not apply by default (``grand: none``).  ``grand: lowest_jack``
lets the DJ take the last trick instead, as Spitze counts the DJ as a
grand's lowest trump.  Null has no trumps and Ramsch no trump suit: not
applicable.

The hook reads only the contract, its card order, the trick's cards and
whether it is the last: the compiled engines, the double-dummy solver and
the expert player read its answers from a table
(:mod:`skatcore.engine.trick_table`).
"""

from __future__ import annotations

from skatcore.cards import parse_card
from skatcore.hookspecs import hookimpl


class TrumpSeven:
    """Answers ``skat_trick_winner``: the seven of trumps wins the last trick."""

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "grand": {"enum": ["none", "lowest_jack"], "default": "none",
                      "description": "in a grand: no such rule, or the lowest jack (DJ) takes the last trick"},
        },
    }

    def __init__(self, grand: str = "none"):
        self.grand = grand

    def small_trump(self, contract, order) -> int | None:
        """The card that takes the last trick in ``contract``, if any."""
        if contract.family == "suit":
            return next((parse_card(t) for t in order.trumps if t[1] == "7"), None)
        if contract.family == "grand" and self.grand == "lowest_jack" and order.trumps:
            return parse_card(order.trumps[-1])
        return None

    @hookimpl
    def skat_trick_winner(self, contract, order, cards, last):
        """the seven of trumps takes the last trick"""
        if not last:
            return None
        small = self.small_trump(contract, order)
        return cards.index(small) if small in cards else None
