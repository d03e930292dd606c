"""Who gets what on the score sheet for a declarer game (docs/rules/official.md#a9, B11).

* ``classic`` (official): only the declarer's line changes; money is
  settled at the end by pairwise differences.
* ``danish_tournament`` (Danish Skat Union): a lost game gives each defender
  the contract value, and the declarer loses double (the usual -2 x value):
  grand open with 2 lost, 80: declarer -160, each defender +80.  A won game
  is entered for the declarer only.
* ``money`` (Danish money games, and the classic sheet settled deal by
  deal): a winning declarer receives the value from each defender (+2v,
  -v each); a losing one pays each defender double (-4v, +2v each).

Deals without a declarer (Ramsch) are left as their plugin scored them.
"""

from __future__ import annotations

from skatcore.hookspecs import hookimpl


class Settlement:
    """Sheet entries of the defenders of a declarer game."""

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "mode": {"enum": ["classic", "danish_tournament", "money"], "default": "classic",
                     "description": "classic: the declarer's line only; danish_tournament: a failed declarer "
                                    "gives each defender the value; money: the declarer settles with each defender"},
        },
    }

    def __init__(self, mode: str = "classic"):
        self.mode = mode

    @hookimpl(wrapper=True)
    def skat_sheet_entries(self, result, facts, entries):
        out = yield
        if self.mode == "classic" or result.declarer is None or result.won is None:
            return out
        decl = result.declarer
        entry = out.get(decl, 0)
        defenders = [s for s in range(3) if s != decl]
        if self.mode == "danish_tournament":
            if entry < 0:  # the declarer's entry is double the value: each defender receives the value
                return {**out, **{s: out.get(s, 0) - entry // 2 for s in defenders}}
            return out
        # money: each defender pays (or receives) the declarer's entry
        return {decl: 2 * entry, **{s: out.get(s, 0) - entry for s in defenders}}
