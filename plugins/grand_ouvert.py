"""Grand ouvert with its own base value (docs/rules/house-rules.md#b8, pre-1999: base 36 and no
ouvert multiplier).

The announcement rules stay the official ones (ouvert only in a hand game,
implying schneider and schwarz announced); the derived bid ladder then has
grand base x 2 .. trumps + 6 without ouvert and the grand ouvert base x
(matadors + 6, + 1 if ouvert still counts).
"""

from __future__ import annotations

from dataclasses import replace

from skatcore.hookspecs import hookimpl


class GrandOuvert:
    """Base value of grand ouvert and whether ouvert still adds 1 to it."""

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "base": {"anyOf": [{"type": "integer", "minimum": 1}, {"const": None}], "default": 36,
                     "description": "base value of grand ouvert (null: the grand base)"},
            "ouvert_multiplier": {"type": "boolean", "default": False,
                                  "description": "ouvert still adds 1 to the multiplier of grand ouvert"},
        },
    }

    def __init__(self, base: int | None = 36, ouvert_multiplier: bool = False):
        self.base, self.ouvert_multiplier = base, ouvert_multiplier

    @hookimpl
    def skat_base_value(self, contract, hand, announced):
        if contract.family == "grand" and "ouvert" in announced and self.base is not None:
            return self.base
        return None

    @hookimpl(wrapper=True)
    def skat_multiplier_items(self):
        chunks = yield
        if self.ouvert_multiplier:
            return chunks
        out, found = [], False
        for chunk in chunks:
            items = []
            for item in chunk or ():
                if item.name == "ouvert":
                    found, count = True, item.count
                    item = replace(item, count=lambda f, count=count: 0 if f.contract.family == "grand" else count(f))
                items.append(item)
            out.append(items)
        if not found:
            raise ValueError("no multiplier item 'ouvert' to change (list grand_ouvert after official)")
        return out
