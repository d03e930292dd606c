"""Announcements of suit and grand games: when they may be made, what they
imply, and what ouvert (open) is worth.

Official (A5): schneider, schwarz and ouvert only in hand games; ouvert
implies schwarz announced, schwarz implies schneider announced; ouvert adds 1.
This plugin, listed after ``official``, answers instead of it for suit and
grand games (null keeps the official rules: null ouvert is its own contract):

* Texas (B9): everything may be announced after picking up the skat too,
  and ouvert doubles the multiplier:
  ``announcements: {after_pickup: [schneider, schwarz, ouvert], ouvert: double}``.
* Danish (B11): any suit or grand may be played open for +1, also after
  picking up, without committing to schneider or schwarz:
  ``announcements: {after_pickup: [ouvert], ouvert_implies: [], ouvert_label: open}``.

With its defaults it gives exactly the official answers.  The bid ladder
follows from these rules by itself (the core derives it from the
announcements in force and the multiplier items): Texas' grand can be worth
16 x 12 = 192, but never 16 x 11.
"""

from __future__ import annotations

from dataclasses import replace

from skatcore.hookspecs import hookimpl
from skatcore.model import ANNOUNCEMENTS, MultiplierItem

_ann_list = {"type": "array", "items": {"enum": list(ANNOUNCEMENTS)}, "uniqueItems": True}


class Announcements:
    """When schneider, schwarz and ouvert may be announced in suit and grand
    games, what ouvert implies, and whether ouvert adds 1 or doubles."""

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "after_pickup": {**_ann_list, "default": [],
                             "description": "announcements allowed after picking up the skat (hand games allow all)"},
            "ouvert_implies": {"type": "array", "items": {"enum": ["schneider", "schwarz"]}, "uniqueItems": True,
                               "default": ["schneider", "schwarz"],
                               "description": "what an ouvert game commits the declarer to (Danish open: nothing)"},
            "ouvert": {"enum": ["add", "double"], "default": "add",
                       "description": "ouvert adds 1 to the multiplier, or doubles it (Texas)"},
            "ouvert_label": {"type": "string", "minLength": 1, "default": "ouvert",
                             "description": "name of the ouvert item in the explanation line (Danish: open)"},
        },
    }

    def __init__(self, after_pickup=(), ouvert_implies=("schneider", "schwarz"), ouvert="add", ouvert_label="ouvert"):
        self.after_pickup = frozenset(after_pickup)
        self.ouvert_implies = frozenset(ouvert_implies)
        self.doubles = ouvert == "double"
        self.label = ouvert_label

    # -- what may be announced -------------------------------------------------
    def in_force(self, hand: bool, announced: frozenset) -> frozenset | str:
        """The announcements in force (with what they imply), or why refused."""
        if not hand and announced - self.after_pickup:
            refused = [a for a in ANNOUNCEMENTS if a in announced - self.after_pickup]
            what = " and ".join(refused)
            return f"{what} may be announced only in hand games"
        out = set(announced)
        if "ouvert" in out:
            out |= self.ouvert_implies
        if "schwarz" in out:
            out.add("schneider")
        return frozenset(out)

    @hookimpl
    def skat_check_announcements(self, contract, hand, announced):
        if contract.family not in ("suit", "grand"):
            return None
        return self.in_force(hand, frozenset(announced))

    # -- what ouvert is worth ------------------------------------------------
    @hookimpl(wrapper=True)
    def skat_multiplier_items(self):
        chunks = yield
        if not self.doubles and self.label == "ouvert":
            return chunks
        found = False
        out = []
        for chunk in chunks:
            items = []
            for item in chunk or ():
                if item.name == "ouvert":
                    found = True
                    item = self._ouvert_item(item)
                items.append(item)
            out.append(items)
        if not found:
            raise ValueError("no multiplier item 'ouvert' to change (list the announcements plugin after official)")
        return out

    def _ouvert_item(self, item: MultiplierItem) -> MultiplierItem:
        if not self.doubles:
            return replace(item, label=self.label)
        count = item.count
        return MultiplierItem("ouvert", lambda f: 2 if count(f) else 0, f"{self.label} doubles", factor=True)
