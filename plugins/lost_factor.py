"""How many times its value a lost game costs (docs/rules/official.md#a8, B8).

Official since 1999: twice, hand games included.  Before 1999 a lost hand
game counted single (``lost_factor: {hand: 1}``, ruleset ``pre1999``).
"""

from __future__ import annotations

from skatcore.hookspecs import hookimpl

_factor = {"type": "integer", "minimum": 1}


class LostFactor:
    """The loss factor of skat games and of hand games (every contract, null included)."""

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "skat": {**_factor, "default": 2, "description": "a lost game after picking up the skat costs this times its value"},
            "hand": {**_factor, "default": 2, "description": "a lost hand game costs this times its value (pre-1999: 1)"},
        },
    }

    def __init__(self, skat: int = 2, hand: int = 2):
        self.skat, self.hand = skat, hand

    @hookimpl
    def skat_lost_factor(self, contract, hand):
        return self.hand if hand else self.skat
