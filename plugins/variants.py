"""Scoring variants of docs/rules/house-rules.md#b8: Rum, open contracts, Revolution.

* ``rum``: in a suit or grand game with the skat picked up, the declarer who
  showed the skat to the defenders before picking it up (``game.declarations:
  {rum: true}``) gets +``worth`` multiplier (not recommended, but played).
* ``open_contract``: any suit or grand game may be played open, the
  declarer's cards shown after the first lead or after the first trick
  (``game.declarations: {open: first_lead}`` / ``first_trick``; ``true``
  means ``when``).  ``scoring``: +1 multiplier (``plus_one``), the score
  doubled (``double``), or doubled when shown before the first lead and +1
  when shown after trick one (``by_time``).  The cards are shown at the
  table; the engine does not reveal them in ``Deal.view``.
* ``revolution``: contract ``revolution`` (92), like null ouvert hand, but
  once the declarer's cards are shown the defenders may see each other's
  cards and re-split their 20 cards (or exchange at most 2, as agreed at the
  table).  A record writes ``game: {type: revolution, ouvert: true}``; a
  record with ``hands`` gives the defenders' hands as they were after the
  exchange (the engine does not replay the exchange itself).
"""

from __future__ import annotations

from skatcore.hookspecs import hookimpl
from skatcore.model import CardOrder, Contract, GameFacts, MultiplierItem

TRUMP_GAMES = ("suit", "grand")


class Rum:
    """Declaration ``rum``: the skat shown before pickup, +worth multiplier."""

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "worth": {"type": "integer", "minimum": 1, "default": 1, "description": "added to the multiplier"},
        },
    }

    def __init__(self, worth=1):
        self.worth = worth

    @hookimpl
    def skat_register_declarations(self):
        return {"rum": {"type": "boolean", "description": "the skat was shown to the defenders before pickup"}}

    @hookimpl
    def skat_refuse_declaration(self, contract, hand, key):
        if key != "rum":
            return None
        if contract.family not in TRUMP_GAMES:
            return "rum is played only in suit and grand games"
        if hand:
            return "rum needs the skat picked up, not a hand game"
        return None

    @hookimpl(wrapper=True)
    def skat_multiplier_items(self):
        chunks = yield
        item = MultiplierItem("rum", lambda f: self.worth if f.declaration.declarations.get("rum") else 0, "rum")
        return [*chunks, [item]]  # after the official items: "game 2, rum 3"


class OpenContract:
    """Declaration ``open``: a suit or grand game played with the declarer's cards shown."""

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "scoring": {"enum": ["plus_one", "double", "by_time"], "default": "plus_one",
                        "description": "+1 multiplier; the score doubled; doubled if shown before the first lead, "
                                       "+1 if shown after the first trick"},
            "when": {"enum": ["first_lead", "first_trick"], "default": "first_lead",
                     "description": "when the cards are shown for `open: true`"},
        },
    }

    def __init__(self, scoring="plus_one", when="first_lead"):
        self.scoring, self.when = scoring, when

    def shown(self, declaration) -> str | None:
        value = declaration.declarations.get("open")
        if not value:
            return None
        return self.when if value is True else value

    def doubles(self, declaration) -> bool:
        when = self.shown(declaration)
        return bool(when) and (self.scoring == "double" or (self.scoring == "by_time" and when == "first_lead"))

    @hookimpl
    def skat_register_declarations(self):
        return {"open": {"enum": [True, False, "first_lead", "first_trick"],
                         "description": "the declarer's cards are shown (true, or when: first_lead, first_trick)"}}

    @hookimpl
    def skat_refuse_declaration(self, contract, hand, key):
        if key == "open" and contract.family not in TRUMP_GAMES:
            return "open contracts are suit and grand games (null has null ouvert)"
        return None

    @hookimpl(wrapper=True)
    def skat_multiplier_items(self):
        chunks = yield

        def count(f):
            return 1 if self.shown(f.declaration) and not self.doubles(f.declaration) else 0
        return [*chunks, [MultiplierItem("open", count, "open")]]

    @hookimpl(wrapper=True)
    def skat_sheet_entries(self, result, facts, entries):
        out = yield
        if isinstance(facts, GameFacts) and self.doubles(facts.declaration):
            out = {seat: 2 * v for seat, v in out.items()}
            result.explanation += f"; open before the first lead: x2 = {out.get(facts.declarer, 0):+d}"
        return out


class Revolution:
    """Contract ``revolution``: null ouvert hand with the defenders' cards re-split, worth ``value``."""

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "value": {"type": "integer", "minimum": 1, "default": 92, "description": "the fixed value"},
        },
    }

    def __init__(self, value=92):
        self.value = value

    @hookimpl
    def skat_register_contracts(self):
        return [Contract("revolution", "null", fixed={(True, True): self.value}, label="Revolution")]

    @hookimpl
    def skat_card_order(self, contract):
        if contract.name == "revolution":
            return CardOrder((), "AKQJT987")
        return None

    @hookimpl
    def skat_check_announcements(self, contract, hand, announced):
        if contract.name != "revolution":
            return None
        if not hand or announced != frozenset({"ouvert"}):
            return "Revolution is an open hand game: give ouvert (and nothing else)"
        return announced
