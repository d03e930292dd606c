"""Skat for two (docs/rules/house-rules.md#b13): six forms, one plugin and one ruleset each.

Every form keeps the ordinary card ranks, contracts, bidding values and
scoring of the ruleset it extends (``official``).  What makes each a game for
two is said only through two engine concepts, the deal layout (hook
``skat_deck``: which seats are dealt, cards laid aside) and the table (hook
``skat_table``: who plays each seat, whether it bids, who sees its cards and
when, cards in stacks or a pile); Offiziersskat adds a flow step (hook
``skat_register_steps``): the non-dealer announces without bidding.

The table: the two players sit at forehand (the non-dealer) and rearhand
(the dealer); the third hand, where a form has one, is middlehand, the seat at
the dealer's right.  It never bids, so the bidding is the dealer (rearhand)
asking the non-dealer (forehand), starting with pass or 18; if the dealer
passes, the non-dealer may play at 18 or pass, and if both pass the deal is
thrown in.  A third hand is a defending seat: its tricks count for the
defender, who plays it (Oma's cards play themselves).

What the source leaves open is a parameter, with the default below:

=================  ==========================================================
form               parameters (default)
=================  ==========================================================
Skat en deux       ``shown``: when the third hand is turned face up for both
                   (``declared``: once the game is announced)
Strohmann          ``shown`` (``first_trick``: face down until then, its card
                   to the first trick its top card, played blind),
                   ``aside_to``: who gets the 3 unused cards
                   (``more_points``: the side with more card points; a tie
                   leaves them with the defender)
Piloten-Skat       ``shown`` (``first_card``: when the first card is led);
                   ``reduced`` (false): the form for exactly two, the third
                   hand laid aside unused and two-card tricks, 61 still wins
Oma-Skat           none: Oma is middlehand, a face-down pile in the order
                   dealt, seen by nobody, playing its top card in its turn
                   (so never following suit by choice) for the defender
Offiziersskat      ``deals``, ``target`` (none): a session of that many deals,
                   or ending when a player's total reaches the target;
                   with no skat to take, every game is a hand game
Schmegegge         ``open`` (5): the cards the half-dummy shows
=================  ==========================================================

Schmegegge's Ramsch (both pass: the dummy shows its next two cards and both
may bid again; both pass again: each may swap two cards with the dummy's
face-down ones, then two-card tricks without the dummy) is in
``dummy_ramsch``; the ruleset ``schmegegge`` scores it as an Augenramsch
(plugin ``ramsch``), a ruleset without a Ramsch throws such a deal in.
"""

from __future__ import annotations

from skatcore.cards import mask_of
from skatcore.engine.deal import Declare, Phase
from skatcore.engine.steps import Step
from skatcore.errors import InputError
from skatcore.hookspecs import hookimpl
from skatcore.model import FOREHAND, MOMENTS, SEATS, Deck, SeatPlan, Series, Table


def _shown(default: str) -> dict:
    return {"enum": list(MOMENTS[1:]), "default": default,
            "description": "when the third hand is turned face up for both players"}


STRAW_MAN = 1  # the third hand sits at middlehand


def third_hand(plan: SeatPlan) -> Table:
    """The two players at forehand and rearhand, the third hand at middlehand."""
    return Table((SeatPlan(), plan, SeatPlan()))


class SkatEnDeux:
    """Ten cards each; the spare hand is played by the defender and shown to
    the declarer (and so to both) once the game is announced."""

    params_schema = {"type": "object", "additionalProperties": False, "properties": {"shown": _shown("declared")}}

    def __init__(self, shown: str = "declared"):
        self.table = third_hand(SeatPlan(controller="defender", bids=False, shown=((shown, "all"),), name="third hand"))

    @hookimpl
    def skat_table(self):
        return self.table


class StrawManTurnedUp(Step):
    """After the first trick the straw man's face-down cards are turned up
    (B13): a step between tricks that asks nothing of anybody."""

    name = "straw_man_up"
    at = "trick"
    description = "after the first trick the straw man is turned face up"

    def begins(self, deal) -> bool:
        return len(deal.tricks) == 1 and bool(deal.piles.get(STRAW_MAN))

    def enter(self, deal) -> None:
        pile = deal.piles[STRAW_MAN]
        deal.hands[STRAW_MAN] |= mask_of(pile)
        pile.clear()
        deal.end_step()


class Strohmann:
    """Nine cards each and a 9-card straw man, 2 in the skat, 3 unused; the
    straw man lies face down until the first trick is over - its card to the
    first trick is its top card, played blind - then it is turned face up and
    the defender plays it; the unused cards go to the side with more card
    points.  ``shown`` earlier (``declared``, ``first_card``): the defender
    sees it from the announcement and plays it from the first trick."""

    params_schema = {
        "type": "object", "additionalProperties": False,
        "properties": {
            "shown": _shown("first_trick"),
            "aside_to": {"enum": ["more_points", "declarer", "defenders", "nobody"], "default": "more_points",
                         "description": "whose card points the 3 unused cards count for at the end"},
        },
    }

    def __init__(self, shown: str = "first_trick", aside_to: str = "more_points"):
        self.deck = Deck(hand=9, skat=2, aside=3, aside_to=aside_to, packets=(3, "skat", 3, "aside", 3))
        self.blind = shown == "first_trick"
        if self.blind:  # a pile whose one open card is its top card, nobody's to see before it is played
            plan = SeatPlan(controller="defender", bids=False, shown=((shown, "all"),), arrangement="pile", open=1)
        else:
            plan = SeatPlan(controller="defender", bids=False, shown=(("declared", "controller"), (shown, "all")))
        self.table = third_hand(plan)

    @hookimpl
    def skat_deck(self):
        return self.deck

    @hookimpl
    def skat_table(self):
        return self.table

    @hookimpl
    def skat_register_steps(self):
        return [StrawManTurnedUp()] if self.blind else []


class PilotenSkat:
    """The third hand is played by the defender as a straw man, turned face
    up when the first card is led; ``reduced``: laid aside unused instead."""

    params_schema = {
        "type": "object", "additionalProperties": False,
        "properties": {
            "shown": _shown("first_card"),
            "reduced": {"type": "boolean", "default": False,
                        "description": "the form for exactly two: the third hand is laid aside unused, two-card tricks"},
        },
    }

    def __init__(self, shown: str = "first_card", reduced: bool = False):
        self.reduced = reduced
        self.table = third_hand(SeatPlan(controller="defender", bids=False, shown=((shown, "all"),)))

    @hookimpl
    def skat_deck(self):
        if self.reduced:  # the players at forehand and middlehand; 10 cards aside, counted for nobody
            return Deck(hand=10, skat=2, seats=(0, 1), aside=10, packets=(3, "skat", 4, 3, "aside"))
        return None

    @hookimpl
    def skat_table(self):
        return None if self.reduced else self.table


class OmaSkat:
    """Oma, the third hand, is a face-down pile nobody sees; its top card is
    played in Oma's turn, for the defender."""

    params_schema = {"type": "object", "additionalProperties": False, "properties": {}}

    TABLE = third_hand(SeatPlan(controller="nobody", bids=False, arrangement="pile", open=1, name="Oma"))

    @hookimpl
    def skat_table(self):
        return self.TABLE


class NonDealerAnnounces(Step):
    """No bidding: forehand (the non-dealer) announces a hand game, seeing
    its open cards; there is no skat to take."""

    name = "announce"
    at = "start"
    description = "no bidding: the non-dealer announces the game"
    chooser = FOREHAND

    def enter(self, deal) -> None:
        deal.declarer = deal.to_move = FOREHAND
        deal.phase = Phase.DECLARE

    def actions(self, rules):
        return [Declare(d) for d in rules.options["hand"]]

    def legal(self, deal):
        options = deal.rules.cache.get(self.name)
        if options is None:
            options = deal.rules.cache[self.name] = tuple(Declare(d) for d in deal.rules.options["hand"])
        return options

    def apply(self, deal, action) -> None:
        if not isinstance(action, Declare) or not action.declaration.hand:
            raise InputError(f"{action} is not possible now (forehand announces a hand game)")
        deal.route = "hand"
        deal.declare(FOREHAND, action.declaration)

    def replay(self, deal, record):
        from skatcore.records.deal import apply_at, declaration_in

        rules, game = deal.rules, record["game"]
        if record.get("declarer", SEATS[FOREHAND]) != SEATS[FOREHAND]:
            raise InputError(f"in ruleset {rules.name!r} forehand announces every deal", path="declarer")
        declaration = declaration_in({"hand": True, **game}, rules, rules.contract(game["type"]))
        if "hands" not in record:
            try:
                return rules.check_declaration(declaration, deal.bid)
            except InputError as exc:
                raise exc.at("game") from None
        apply_at(deal, Declare(declaration), "game")
        return None


class Offiziersskat:
    """16 cards each in 8 stacks of two, the top card face up; no bidding:
    the non-dealer announces the game; 16 two-card tricks.  A session
    (``skat sheet``) plays ``deals`` deals or until a player's total reaches
    ``target``, as the players agreed."""

    params_schema = {
        "type": "object", "additionalProperties": False,
        "properties": {
            "deals": {"type": "integer", "minimum": 1,
                      "description": "a session is this many deals (default: no agreed number)"},
            "target": {"type": "integer", "minimum": 1,
                       "description": "a session ends when a player's total reaches this score (default: none)"},
        },
    }

    DECK = Deck(hand=16, skat=0, seats=(0, 1), packets=(8, "skat", 8))  # dealt first: the face-down cards
    STACKS = SeatPlan(shown=(("deal", "all"),), arrangement="stacks", open=8)

    @hookimpl
    def skat_deck(self):
        return self.DECK

    @hookimpl
    def skat_table(self):
        return Table((self.STACKS, self.STACKS, SeatPlan()))

    def __init__(self, deals: int | None = None, target: int | None = None):
        self.deals, self.target = deals, target

    @hookimpl
    def skat_register_steps(self):
        return [NonDealerAnnounces()]

    @hookimpl
    def skat_series(self, players):
        return Series(self.deals) if self.deals else None

    @hookimpl
    def skat_session_after_deal(self, state, line):
        if self.target is None or state.closed:
            return
        best = max(state.players, key=lambda p: state.totals[p])
        if state.totals[best] >= self.target:
            state.closed = f"Offiziersskat: {best} reached {state.totals[best]} at deal {line.index} (target {self.target})"
            line.marks.append(f"{best} wins")


class Schmegegge:
    """A half-dummy the defender plays: it always shows ``open`` cards face
    up and turns up a new one after every trick."""

    params_schema = {
        "type": "object", "additionalProperties": False,
        "properties": {"open": {"type": "integer", "minimum": 1, "maximum": 10, "default": 5,
                                "description": "cards the half-dummy shows face up"}},
    }

    def __init__(self, open: int = 5):
        self.table = third_hand(SeatPlan(controller="defender", bids=False, shown=(("deal", "all"),),
                                         arrangement="pile", open=open, name="half-dummy"))

    @hookimpl
    def skat_table(self):
        return self.table

    @hookimpl
    def skat_register_steps(self):
        from skatcore_plugins.dummy_ramsch import STEPS

        return list(STEPS)  # run only where the ruleset plays a contract when all pass (plugin ramsch)
