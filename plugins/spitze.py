"""Spitze, Danish "music" (RULES B7; B11 Aarhus and Petersen).

In a suit or grand game the declarer may declare (``game.declarations:
{spitze: true}``) that the last trick will be won with the lowest trump (the
7 of trumps in a suit game, DJ in grand: the last card of the contract's
trump order).  It adds ``worth`` to the multiplier (Aarhus: 2), counted after
the official items and counted also when the game is lost.  The declarer must
make 61+ *and* win the last trick with that card.

Who won the last trick with which card is known only from the played cards,
so a record declaring Spitze must give every card in ``play``; a summary
record (``outcome`` only) is refused with an error rather than guessed.

A deal ended by a concession is judged on the last trick actually played
(the facts hold no other).

Only one Spitze is supported (``spitze: true`` or ``1``).  Several Spitzen
(an unbeatable run of the lowest trumps winning the last tricks, +1 per
card) need every trick of the deal, and the facts of a finished game carry
only the last one.
"""

from __future__ import annotations

from skatcore.cards import parse_card
from skatcore.errors import InputError
from skatcore.hookspecs import hookimpl
from skatcore.model import MultiplierItem, WinCondition


class Spitze:
    """Declaration ``spitze``: win the last trick with the lowest trump, for ``worth`` more multiplier."""

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "worth": {"type": "integer", "minimum": 1, "default": 1,
                      "description": "added to the multiplier (Aarhus: 2)"},
            "label": {"type": "string", "minLength": 1, "default": "spitze",
                      "description": "name in the explanation line and errors (Danish: music)"},
        },
    }

    def __init__(self, worth: int = 1, label: str = "spitze"):
        self.worth, self.label = worth, label
        self.lowest: dict[str, tuple[int, int]] = {}  # contract -> (lowest trump, mask of all trumps)

    def declared(self, facts) -> bool:
        return bool(facts.declaration.declarations.get("spitze"))

    @hookimpl
    def skat_register_declarations(self):
        return {"spitze": {"type": ["boolean", "integer"], "minimum": 0, "maximum": 1,
                           "description": f"{self.label}: the last trick is won with the lowest trump"}}

    @hookimpl
    def skat_refuse_declaration(self, contract, hand, key):
        if key == "spitze" and (contract.family not in ("suit", "grand") or contract.name not in self.lowest):
            return f"{self.label} (spitze) is played only in suit and grand games"
        return None

    @hookimpl(wrapper=True)
    def skat_card_order(self, contract):
        order = yield
        # remember each trump contract's lowest trump, for the last-trick check
        if order is not None and order.trumps and contract.family in ("suit", "grand"):
            trumps = [parse_card(t) for t in order.trumps]
            self.lowest[contract.name] = (trumps[-1], sum(1 << c for c in trumps))
        return order

    @hookimpl(wrapper=True)
    def skat_contract_values(self, contract, order):
        values = yield
        # any value of a trump game can carry the Spitze on top
        if values is not None and contract.name in self.lowest and contract.base:
            values = sorted({*values, *(v + self.worth * contract.base for v in values if v % contract.base == 0)})
        return values

    @hookimpl(wrapper=True)
    def skat_multiplier_items(self):
        chunks = yield
        item = MultiplierItem("spitze", lambda f: self.worth if self.declared(f) else 0, self.label)
        return [*chunks, [item]]  # after the official items: "game 3, music 5"

    @hookimpl(wrapper=True)
    def skat_win_conditions(self):
        chunks = yield
        cond = WinCondition("spitze", self.won_last_trick,
                            f"{self.label} failed: the declarer did not win the last trick with the lowest trump")
        return [*chunks, [cond]]

    def won_last_trick(self, facts) -> bool:
        if not self.declared(facts):
            return True
        if not facts.last_trick:
            raise InputError(f"{self.label} (spitze) is decided by the last trick: give every card in `play` "
                             "(a summary outcome cannot show it)", path="play")
        lowest, trumps = self.lowest[facts.contract.name]
        trick = facts.last_trick
        # the lowest trump wins only a trick without another trump, and then its player took it
        return (facts.last_trick_winner == facts.declarer and lowest in trick
                and not any(trumps >> c & 1 for c in trick if c != lowest))
