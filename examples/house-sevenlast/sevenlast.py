"""A house rule as a table writes it: the trump seven takes the last trick.

In a suit game, whoever plays the seven of trumps to the tenth trick takes
it, above every jack; the other tricks go by the card order.  A grand, a
null game and a Ramsch have no trump seven: the card order decides.

The hook reads only its arguments (the contract, its card order, the
trick's cards and whether it is the last), so the compiled engines tabulate
it once per ruleset and play it at full speed (docs/hooks.md, "Per trick").
"""

from skatcore.cards import parse_card
from skatcore.hookspecs import hookimpl


class SevenLast:
    @hookimpl
    def skat_trick_winner(self, contract, order, cards, last):
        if not last or contract.family != "suit":
            return None
        seven = next(parse_card(t) for t in order.trumps if t[1] == "7")  # a suit game's lowest trump
        return cards.index(seven) if seven in cards else None
