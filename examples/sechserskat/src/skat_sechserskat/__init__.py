"""Sechserskat (docs/rules/house-rules.md#b8): Skat with 36 cards, the sixes added.

The deck and the deal follow from the 36 cards:

* 4 suits x ``A K Q J T 9 8 7 6``; a six is worth 0 card points, so there are
  still 120 in all, and 61 wins;
* 3 x 11 + 3 = 36: every player gets **11 cards**, the skat has **3**, dealt in
  packets of 3 - skat - 4 - 4; a declarer who takes the skat discards 3;
* a six ranks directly below the 7 of its suit - in plain suits, in null, and
  in the trump suit, where it is the lowest of now 12 trumps (so a suit game
  counts up to 12 matadors: "with 12, game 13 ...").

Everything else - contracts, values, bidding, announcements - comes from the
ruleset's other plugins (``official``).
"""

from __future__ import annotations

from pathlib import Path

from skatcore.cards import SUITS
from skatcore.hookspecs import hookimpl
from skatcore.model import CardOrder, Deck

#: the ruleset shipped with the plugin (entry point group ``skat.rulesets``)
RULESET = Path(__file__).with_name("sechserskat.yaml")

DECK = Deck(ranks="AKQJT9876", hand=11, skat=3, packets=(3, "skat", 4, 4))


class Sechserskat:
    """The 36-card deck and where the sixes rank."""

    params_schema = {"type": "object", "additionalProperties": False, "properties": {}}

    @hookimpl
    def skat_deck(self):
        return DECK

    @hookimpl(wrapper=True)
    def skat_card_order(self, contract):
        # a wrapper: whatever order another plugin gives, the six goes below the 7
        order = yield
        if order is None or "6" in order.plain:
            return order
        trump_suits = [s for s in SUITS if any(t[0] == s and t[1] != "J" for t in order.trumps)]
        return CardOrder(order.trumps + tuple(s + "6" for s in trump_suits), order.plain + "6", order.points)
