"""Spitze, Danish "music" (docs/rules/house-rules.md#b7; B11 Aarhus and Petersen).

In a suit or grand game the declarer may declare (``game.declarations:
{spitze: true}``) that the last trick will be won with the lowest trump (the
7 of trumps in a suit game, DJ in grand: the last card of the contract's
trump order).  It adds ``worth`` to the multiplier (Aarhus: 2), counted after
the official items and counted also when the game is lost.  The declarer must
make 61+ *and* win the last trick with that card.

Several Spitzen (``most`` > 1; ``spitze: 3``): the N lowest trumps win the
last N tricks in a row, the lowest the last trick (9-8-7 taking the last
three tricks), for ``worth`` per card.

Who won the last tricks with which cards is known only from the played cards,
so a record declaring Spitze must give every card in ``play``; a summary
record (``outcome`` only) is refused with an error rather than guessed.

A deal ended by a concession is judged on the tricks actually played.
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
                      "description": "added to the multiplier per Spitze (Aarhus: 2)"},
            "label": {"type": "string", "minLength": 1, "default": "spitze",
                      "description": "name in the explanation line and errors (Danish: music)"},
            "most": {"type": "integer", "minimum": 1, "maximum": 4, "default": 1,
                     "description": "how many Spitzen may be declared (9-8-7 winning the last three tricks: 3)"},
        },
    }

    def __init__(self, worth: int = 1, label: str = "spitze", most: int = 1):
        self.worth, self.label, self.most = worth, label, most
        self.lowest: dict[str, tuple[tuple[int, ...], int]] = {}  # contract -> (trumps lowest first, mask of all trumps)

    def count(self, facts) -> int:
        """How many Spitzen were declared (``true`` is one)."""
        return int(facts.declaration.declarations.get("spitze") or 0)

    @hookimpl
    def skat_register_declarations(self):
        return {"spitze": {"type": ["boolean", "integer"], "minimum": 0, "maximum": self.most,
                           "description": f"{self.label}: the last tricks are won with the lowest trumps"}}

    @hookimpl
    def skat_refuse_declaration(self, contract, hand, key):
        if key == "spitze" and (contract.family not in ("suit", "grand") or contract.name not in self.lowest):
            return f"{self.label} (spitze) is played only in suit and grand games"
        return None

    @hookimpl(wrapper=True)
    def skat_card_order(self, contract):
        order = yield
        # remember each trump contract's trumps, lowest first, for the last-tricks check
        if order is not None and order.trumps and contract.family in ("suit", "grand"):
            trumps = [parse_card(t) for t in order.trumps]
            self.lowest[contract.name] = (tuple(reversed(trumps)), sum(1 << c for c in trumps))
        return order

    @hookimpl(wrapper=True)
    def skat_multiplier_items(self):
        chunks = yield
        item = MultiplierItem("spitze", lambda f: self.worth * self.count(f), self.label)
        return [*chunks, [item]]  # after the official items: "game 3, music 5"

    @hookimpl(wrapper=True)
    def skat_win_conditions(self):
        chunks = yield
        cond = WinCondition("spitze", self.won_last_tricks,
                            f"{self.label} failed: the declarer did not win the last tricks with the lowest trumps",
                            f"{self.label} announced: the declarer takes the last tricks with the lowest trumps")
        return [*chunks, [cond]]

    def won_last_tricks(self, facts) -> bool:
        n = self.count(facts)
        if not n:
            return True
        tricks = [(t.cards, t.winner) for t in facts.tricks[-n:]]
        if not tricks and n == 1 and facts.last_trick:
            tricks = [(facts.last_trick, facts.last_trick_winner)]
        if len(tricks) < n:
            last = "trick" if n == 1 else f"{n} tricks"
            raise InputError(f"{self.label} (spitze) is decided by the last {last}: give every card in `play` "
                             "(a summary outcome cannot show it)", path="play")
        lowest, trumps = self.lowest[facts.contract.name]
        # the k-th lowest trump takes the k-th trick from the end (9-8-7: 7 the last);
        # it wins only a trick without another trump, and then its player took it
        return all(winner == facts.declarer and lowest[k] in cards
                   and not any(trumps >> c & 1 for c in cards if c != lowest[k])
                   for k, (cards, winner) in enumerate(reversed(tricks)))
