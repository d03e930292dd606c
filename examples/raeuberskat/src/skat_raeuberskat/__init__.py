"""Raeuberskat (docs/rules/house-rules.md#b8): Skat without bidding.

* No bidding: forehand declares every deal (the soloist).
* The soloist chooses the contract after seeing only the first ``sees`` (5)
  cards dealt to them: a suit game, a grand, a null, or a Ramsch.  Then the
  soloist gets the rest of the hand and the skat and discards (``skat:
  pickup``, the default), or plays hand with the skat untouched (``skat:
  hand``).  A Ramsch is played all against all, the skat untouched; the
  ruleset's ``ramsch`` plugin scores it.
* A series has 4 deals per player - 12 with 3 players - and in it every
  player must declare each of suit, grand, null and Ramsch exactly once.  The
  session passes what a player has declared to ``Deal(..., played=...)``.
* There is no bid, so a game is never overbid; everything else is scored as
  in the ruleset (``official``).
"""

from __future__ import annotations

from pathlib import Path

from skatcore.hookspecs import hookimpl
from skatcore.model import FOREHAND, Series, Soloist

#: the ruleset shipped with the plugin (entry point group ``skat.rulesets``)
RULESET = Path(__file__).with_name("raeuberskat.yaml")

FAMILIES = ("suit", "grand", "null", "ramsch")


class Raeuberskat:
    """Who declares (forehand, after 5 cards) and the series (each family once)."""

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "sees": {"type": "integer", "minimum": 1, "maximum": 10, "default": 5,
                     "description": "cards the soloist sees before declaring"},
            "skat": {"enum": ["pickup", "hand"], "default": "pickup",
                     "description": "after declaring, the soloist takes the skat and discards, or plays hand"},
        },
    }

    def __init__(self, sees: int = 5, skat: str = "pickup"):
        self.soloist = Soloist(seat=FOREHAND, sees=sees, skat=skat)

    @hookimpl
    def skat_soloist(self):
        return self.soloist

    @hookimpl
    def skat_series(self, players):
        # every player is forehand once per round of `players` deals, and must
        # declare each family once: len(FAMILIES) rounds
        return Series(deals=len(FAMILIES) * players, once_each=FAMILIES)
