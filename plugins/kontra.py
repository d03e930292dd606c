"""Kontra and Re (docs/rules/pub.md#b2), with Supra and Resupra as an option.

A defender says **Kontra** before playing to the first trick; the declarer
may answer at once with **Re**; optionally a defender answers Re with
**Supra** and the declarer Supra with **Resupra**.  Each doubles the *score*
of the deal, won or lost; the game value does not change, so overbid is
judged on the value alone (B2: bid 20, diamonds with 1 = 18, overbid: lost
2 x 27 = -54, Kontra: -108).

In play the calls are :class:`~skatcore.model.TableCall` objects
(``Deal.legal_calls(seat)``, ``Deal.apply(Call(seat, "kontra"))``); a deal
record carries them as ``game.declarations: {kontra: true, re: true}``.

Parameters: ``window`` (Kontra before the defender's own first card, or
only before the first lead), ``until_trick`` (the trick that window closes
in: 2 for "Kontra may be said until the second trick"; such a ruleset plays
through ``Deal`` only), ``who`` (anyone; only a defender who bid or held;
the "18 rule": not a defender who passed when they could have bid or held
18), ``supra`` (allow Supra/Resupra).
"""

from __future__ import annotations

from itertools import pairwise

from skatcore.engine.deal import Bid, Hold, Pass
from skatcore.errors import InputError
from skatcore.hookspecs import hookimpl
from skatcore.model import GameFacts, TableCall

CHAIN = ("kontra", "re", "supra", "resupra")
BY = {"kontra": "defender", "re": "declarer", "supra": "defender", "resupra": "declarer"}


def bid_or_held(bidding, seat: int, declarer: int) -> bool:
    """Whether ``seat`` named a value or said yes during the bidding."""
    return any(s == seat and isinstance(a, (Bid, Hold)) for s, a in bidding)


def rule_18(bidding, seat: int, declarer: int, lowest: int = 18) -> bool:
    """The "18 rule" (B2): ``seat`` may not say Kontra if it passed when it
    could have bid ``lowest`` (asked to speak while nobody had bid) or
    said yes to ``lowest`` (asked exactly that value).  A player who never
    had the chance (Rearhand facing a bid above 18) may."""
    current = 0
    prev = None
    for s, a in bidding:
        if isinstance(a, Bid):
            current = a.value
        elif isinstance(a, Pass) and s == seat:
            answering = prev is not None and isinstance(prev[1], Bid) and prev[0] != seat
            if (answering and current <= lowest) or (not answering and current < lowest):
                return False
        prev = (s, a)
    return True


class Kontra:
    """Declarations/table calls ``kontra``, ``re`` (and ``supra``, ``resupra``): each doubles the score."""

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "window": {"enum": ["own_first_card", "first_lead"], "default": "own_first_card",
                       "description": "Kontra before the defender's own card in trick 1, or only before the first lead"},
            "who": {"enum": ["anyone", "bid_or_held", "rule_18"], "default": "anyone",
                    "description": "who may say Kontra: any defender; only one who bid or held; "
                                   "not one who passed when they could have bid or held 18"},
            "rule_value": {"type": "integer", "minimum": 1, "default": 18,
                           "description": "the value of the 18 rule (the lowest bid)"},
            "supra": {"type": "boolean", "default": False,
                      "description": "further doublings: Supra (defender, after Re) and Resupra (declarer)"},
            "until_trick": {"type": "integer", "minimum": 1, "default": 1,
                            "description": "the trick the window closes in: 2 lets Kontra be said until the "
                                           "defender's own card of trick 2 (or the second lead)"},
        },
    }

    def __init__(self, window="own_first_card", who="anyone", rule_value=18, supra=False, until_trick=1):
        self.window, self.who, self.rule_value, self.until_trick = window, who, rule_value, until_trick
        self.names = CHAIN if supra else CHAIN[:2]

    def may(self, bidding, seat, declarer) -> bool:
        if self.who == "bid_or_held":
            return bid_or_held(bidding, seat, declarer)
        if self.who == "rule_18":
            return rule_18(bidding, seat, declarer, self.rule_value)
        return True

    @hookimpl
    def skat_register_declarations(self):
        return {name: {"type": "boolean", "description": f"{name} was said (doubles the score)"} for name in self.names}

    @hookimpl
    def skat_register_calls(self):
        calls = [TableCall("kontra", by="defender", window=self.window, may=None if self.who == "anyone" else self.may,
                           until_trick=self.until_trick)]
        for before, name in pairwise(self.names):
            calls.append(TableCall(name, by=BY[name], after=before, window="next_card"))
        return calls

    @hookimpl(wrapper=True)
    def skat_sheet_entries(self, result, facts, entries):
        out = yield
        if not isinstance(facts, GameFacts):
            return out
        said = [n for n in self.names if facts.declaration.declarations.get(n)]
        for n in said:
            i = self.names.index(n)
            if i and not facts.declaration.declarations.get(self.names[i - 1]):
                raise InputError(f"{n} answers {self.names[i - 1]}, which was not said", path=f"game.declarations.{n}")
        if not said:
            return out
        factor = 2 ** len(said)
        out = {seat: v * factor for seat, v in out.items()}
        result.extra["calls"] = said
        result.explanation += f"; {', '.join(said)}: x{factor} = {out.get(facts.declarer, 0):+d}"
        return out
