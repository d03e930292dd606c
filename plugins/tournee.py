"""Tournée Skat (Wisconsin), docs/rules/tournee.md#b10, on top of the ``official`` plugin.

Contracts by skat route:
- **Tournée** (turn-up route): the turned skat card sets trump (a jack: grand
  or its suit); bases diamonds 5 ... clubs 8, grand 12; lost single with the
  first card, double with the second ("passt mir nicht").
- **Solo** (hand): official bases with grand 20 (set in the ruleset), no hand
  multiplier, lost single.  Grand ouvert is the only open solo: base 24, no
  ouvert multiplier.
- **Grand Guckser** (pick up both cards): only grand, base 16, lost double.
- **Null** without the skat: 20, ouvert 40 (the ruleset's null values), lost single.
Schneider at 91 (declarer out at 31); schwarz announced counts 2.
"""

from __future__ import annotations

from skatcore.cards import CARD_NAMES, SUIT_NAMES
from skatcore.hookspecs import hookimpl
from skatcore.model import MultiplierItem, Thresholds, TurnUp

KEY = "tournee_card"
_base = {"type": "integer", "minimum": 1}


class Tournee:
    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "tournee_bases": {
                "type": "object", "additionalProperties": False,
                "properties": {k: _base for k in ("diamonds", "hearts", "spades", "clubs", "grand")},
                "description": "bases of a tournée by trump (default 5, 6, 7, 8, grand 12)",
            },
            "guckser_base": {**_base, "default": 16, "description": "base of the Grand Guckser"},
            "grand_ouvert_base": {**_base, "default": 24, "description": "base of the (solo) grand ouvert"},
        },
    }

    def __init__(self, tournee_bases=None, guckser_base=16, grand_ouvert_base=24):
        self.tournee_bases = {"diamonds": 5, "hearts": 6, "spades": 7, "clubs": 8, "grand": 12, **(tournee_bases or {})}
        self.guckser_base = guckser_base
        self.grand_ouvert_base = grand_ouvert_base

    @hookimpl
    def skat_register_declarations(self):
        return {KEY: {"enum": ["first", "second"], "description": "the turned skat card that set trump"}}

    @hookimpl
    def skat_turn_up(self):
        contracts = {}
        for name in CARD_NAMES:
            suit = SUIT_NAMES[name[0]]
            contracts[name] = (suit, "grand") if name[1] == "J" else (suit,)
        return TurnUp(KEY, contracts)

    @hookimpl
    def skat_contract_allowed(self, contract, route):
        if route == "pickup":  # picking up both cards without turning: Grand Guckser only
            return contract.family == "grand"
        return None

    @hookimpl
    def skat_check_announcements(self, contract, hand, announced):
        if "ouvert" in announced and contract.family == "suit":
            return "only grand and null may be played ouvert in Tournée"
        return None

    @hookimpl
    def skat_base_value(self, contract, hand, announced):
        if contract.family not in ("suit", "grand"):
            return None
        if hand:
            return self.grand_ouvert_base if "ouvert" in announced else None  # solo: the official bases
        tournee = self.tournee_bases[contract.name if contract.family == "suit" else "grand"]
        guckser = self.guckser_base if contract.family == "grand" else tournee
        return lambda d: tournee if KEY in d.declarations else guckser

    @hookimpl
    def skat_lost_factor(self, contract, hand):
        if hand or contract.family == "null":
            return 1  # solos and nulls cost their value
        return lambda d: {"first": 1, "second": 2}.get(d.declarations.get(KEY), 2)  # Guckser: double

    @hookimpl
    def skat_thresholds(self):
        return Thresholds(win=61, schneider=91, out_of_schneider=31)

    @hookimpl
    def skat_min_bid(self):
        return 2 * min(self.tournee_bases.values())

    @hookimpl(wrapper=True)
    def skat_multiplier_items(self):
        chunks = yield
        out = []
        for chunk in chunks:
            items = []
            for item in chunk:
                if item.name in ("hand", "ouvert"):
                    continue  # no hand multiplier; grand ouvert has no ouvert multiplier
                if item.name == "schwarz_announced":
                    item = MultiplierItem(item.name, lambda f: 2 * int(f.declaration.schwarz), item.label)
                items.append(item)
            out.append(items)
        return out
