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

from skatcore.engine.deal import Declare, Discard, Phase
from skatcore.engine.steps import Step
from skatcore.errors import InputError
from skatcore.hookspecs import hookimpl
from skatcore.model import FOREHAND, SEATS, Declaration, Series

#: the ruleset shipped with the plugin (entry point group ``skat.rulesets``)
RULESET = Path(__file__).with_name("raeuberskat.yaml")

FAMILIES = ("suit", "grand", "null", "ramsch")


class SoloistStep(Step):
    """No bidding: ``seat`` declares every deal, having seen its first
    ``sees`` cards (``None``: all); the rest come after the declaration.
    After a suit, grand or null game the soloist takes the skat and discards
    (``skat="pickup"``) or leaves it (``"hand"``: hand games).  A contract
    without declarer (Ramsch) may be chosen too: then it is played all
    against all, and the skat stays out.  Contract families the soloist
    declared earlier in the series (``Deal(played=...)``) are not offered."""

    name = "soloist"
    at = "start"
    description = "no bidding: one seat declares every deal"

    def __init__(self, seat: int = FOREHAND, sees: int | None = None, skat: str = "pickup"):
        self.seat, self.sees, self.skat = seat, sees, skat
        self.chooser = seat
        self.options: tuple[Declaration, ...] = ()

    def prepare(self, rules) -> str | None:
        if self.skat not in ("pickup", "hand"):
            return f"skat {self.skat!r}: expected 'pickup' or 'hand'"
        if not (self.sees is None or 1 <= self.sees <= rules.deck.hand):
            return f"sees {self.sees}: expected 1 to {rules.deck.hand} cards, or None"
        without = tuple(Declaration(c.name) for c in rules.contracts.values() if not c.declarer
                        and rules.call_hook("skat_contract_allowed", contract=c, route=self.name) is not False)
        self.options = rules.options[self.skat] + without
        return None

    def enter(self, deal) -> None:
        seat = self.seat
        deal.declarer = deal.to_move = seat
        withheld = 0
        if self.sees is not None:  # the rest of the hand comes after the declaration
            seen = sum(1 << c for c in deal.dealt[seat][:self.sees])
            withheld = deal.hands[seat] & ~seen
            deal.hands[seat] = seen
        deal.state[self.name] = withheld
        deal.phase = Phase.DECLARE  # the decision it asks for first: a declaration

    def legal(self, deal):
        key = (self.name, deal.played)
        options = deal.rules.cache.get(key)
        if options is None:
            options = deal.rules.cache[key] = tuple(
                Declare(d) for d in self.options if deal.rules.contracts[d.game].family not in deal.played)
        return options

    def apply(self, deal, action) -> None:
        if not isinstance(action, Declare):
            raise InputError(f"{action} is not possible now ({SEATS[self.seat]} to declare)")
        d, rules = action.declaration, deal.rules
        contract = rules.contract(d.game)
        if contract.family in deal.played:
            raise InputError(f"{SEATS[self.seat]} has already declared a {contract.family} game in this series")
        if contract.declarer and d.hand != (self.skat == "hand"):
            raise InputError("the soloist " + ("leaves the skat: declare a hand game" if self.skat == "hand"
                                               else "takes the skat: not a hand game"))
        d = rules.check_declaration(d, deal.bid, route=None if contract.declarer else self.name)
        deal.hands[self.seat] |= deal.state[self.name]
        if not contract.declarer:  # all against all: nobody is declarer, the skat stays out
            deal.declarer = None
            deal.start_play(d.game)
        elif d.hand:
            deal.route = "hand"
            deal.declare(self.seat, d)
        else:  # discard, then play
            deal.route = "pickup"
            deal.declaration = d
            deal.take_skat(self.seat)
            deal.end_step(Phase.DISCARD)

    def replay(self, deal, record):
        """The soloist declares, then takes the skat and discards (or plays
        hand); a summary's declaration is returned checked."""
        from skatcore.records.deal import apply_at, cards_at, declaration_in

        rules, game = deal.rules, record["game"]
        if record.get("declarer", SEATS[self.seat]) != SEATS[self.seat]:
            raise InputError(f"in ruleset {rules.name!r} {SEATS[self.seat]} declares every deal", path="declarer")
        contract = rules.contract(game["type"])
        if not contract.declarer:
            for key in ("hand", "schneider", "schwarz", "ouvert", "discard", "declarations"):
                if key in game:
                    raise InputError(f"a {contract.label} is played all against all: no {key}", path=f"game.{key}")
            declaration = Declaration(contract.name)
        else:
            declaration = declaration_in(game, rules, contract)
            if declaration.hand != (self.skat == "hand"):
                raise InputError("the soloist " + ("leaves the skat: declare a hand game" if self.skat == "hand"
                                                   else "takes the skat: not a hand game"), path="game.hand")
        if "hands" not in record:
            try:
                return rules.check_declaration(declaration, deal.bid, route=None if contract.declarer else self.name)
            except InputError as exc:
                raise exc.at("game") from None
        apply_at(deal, Declare(declaration), "game")
        if deal.phase is Phase.DISCARD:
            if "discard" not in game:
                raise InputError(f"the skat was picked up: give the {rules.deck.skat} discarded cards", path="game.discard")
            apply_at(deal, Discard(tuple(cards_at(game["discard"], "game.discard"))), "game.discard")
        elif "discard" in game:
            raise InputError("the skat stays untouched: there is no discard", path="game.discard")
        return None


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
        self.soloist = SoloistStep(seat=FOREHAND, sees=sees, skat=skat)

    @hookimpl
    def skat_register_steps(self):
        return [self.soloist]

    @hookimpl
    def skat_series(self, players):
        # every player is forehand once per round of `players` deals, and must
        # declare each family once: len(FAMILIES) rounds
        return Series(deals=len(FAMILIES) * players, once_each=FAMILIES)
