"""Money settlement of a session (docs/rules/official.md#a9, B11).

* ``pairwise`` (A9, also the core's default): between every pair of players
  the lower final total pays the difference times the stake.  Totals A 96,
  B 30, C -8 at 5 cents a point: A +8.50, B -1.40, C -7.10.  The nets always
  sum to 0.  At a 4-table the dealer who sat out is thereby on the
  defenders' side of every deal.
* ``direct``: each player's final total times the stake, for sheets whose
  entries already settle deal by deal (the Danish money game, ``settlement:
  {mode: money}``; Bierlachs), where pairwise differences would count every
  deal three times.
* ``none``: the session is not settled in money, whatever the stake.

The stake comes from the session record (``stake``).
"""

from __future__ import annotations

from decimal import Decimal

from skatcore.hookspecs import hookimpl
from skatcore.model import Settlement
from skatcore.records.money import pairwise


class Money:
    """Session plugin: how final totals turn into money."""

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "method": {"enum": ["pairwise", "direct", "none"], "default": "pairwise",
                       "description": "pairwise differences x stake (A9), each total x stake, or no money"},
        },
    }

    def __init__(self, method="pairwise"):
        self.method = method

    @hookimpl
    def skat_session_settlement(self, state, final):
        if self.method == "none" or state.stake is None:
            return Settlement(method="none") if self.method == "none" else None
        if self.method == "pairwise":
            return pairwise(dict(final), state.stake)
        net = {p: Decimal(t) * state.stake for p, t in final.items()}
        return Settlement(net, [], "direct")
