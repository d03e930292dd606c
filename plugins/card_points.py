"""House rules that count card points (docs/rules/house-rules.md#b15): the
black jacks taken in one trick, the last trick, the skat to whoever takes
the last trick.

Each is a :class:`~skatcore.model.CardPointRule` (hook ``skat_card_points``):
the core adds its points to the seats' card points before the win and
schneider lines are judged, and the explanation shows both counts ("card
points 55 + 10 for the black jacks = 65").  The lines stay the ruleset's
(61, 90, 31 under the official rules) and divide the card points between
the two sides: what a defender is given counts against the declarer ("card
points 70 - 10 for the black jacks (middlehand) = 60").

- ``black_jacks: N``: N card points to whoever takes both black jacks (CJ,
  SJ) in one trick, in every game with card points (a Ramsch too: there
  they count against the taker).
- ``last_trick: N``: N card points to whoever takes the last trick.
- ``skat: last_trick``: in a declarer game the skat's card points go to
  whoever takes the last trick, not to the declarer (a Ramsch gives the skat
  by its own parameter, ``ramsch: {skat: ...}``).

A deal that did not reach its last trick (conceded) gets no points for the
last trick or the skat: nobody took it.  These rules read the tricks, so a
ruleset with them scores a deal from its cards: a summary record (its
outcome only) is refused.  Each reads only what the compiled engines'
tables key on (:mod:`skatcore.engine.card_table`: a trick's cards; the last
trick's taker, the tricks taken, the skat), so those play such a ruleset
at full speed.
"""

from __future__ import annotations

from skatcore.cards import POINTS, parse_card
from skatcore.hookspecs import hookimpl
from skatcore.model import CardPointRule, GameFacts, RamschFacts, Trick

BLACK_JACKS = frozenset({parse_card("CJ"), parse_card("SJ")})


def played(facts: GameFacts | RamschFacts) -> tuple[Trick, ...]:
    """The tricks of a deal (``played`` in a Ramsch)."""
    return facts.played if isinstance(facts, RamschFacts) else facts.tricks


def last_taker(facts: GameFacts | RamschFacts) -> int | None:
    """The seat that took the deal's last trick; ``None`` where the deal
    ended before it (a concession: nobody took it) or nothing was played."""
    tricks = played(facts)
    taken = sum(facts.tricks) if isinstance(facts, RamschFacts) else facts.declarer_tricks + facts.defender_tricks
    return tricks[-1].winner if tricks and taken == len(tricks) else None


class CardPoints:
    """Card points for the black jacks, for the last trick, the skat to the last trick's taker."""

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "black_jacks": {"type": "integer", "minimum": 0, "maximum": 120, "default": 0,
                            "description": "card points to whoever takes both black jacks (CJ, SJ) in one trick; 0: none"},
            "last_trick": {"type": "integer", "minimum": 0, "maximum": 120, "default": 0,
                           "description": "card points to whoever takes the last trick; 0: none"},
            "skat": {"enum": ["declarer", "last_trick"], "default": "declarer",
                     "description": "whom the skat counts for in a declarer game: the declarer (official) or "
                                    "whoever takes the last trick"},
        },
    }

    #: what docs/hooks.md lists its rules under (its defaults give none)
    example_params = {"black_jacks": 10, "last_trick": 10, "skat": "last_trick"}

    def __init__(self, black_jacks: int = 0, last_trick: int = 0, skat: str = "declarer"):
        self.black_jacks, self.last_trick, self.skat = black_jacks, last_trick, skat

    def jacks(self, trick: Trick, facts) -> int:
        return self.black_jacks if BLACK_JACKS.issubset(trick.cards) else 0

    def last(self, facts) -> dict[int, int]:
        taker = last_taker(facts)
        return {} if taker is None else {taker: self.last_trick}

    def skat_to_last(self, facts) -> dict[int, int]:
        taker = last_taker(facts)
        if not isinstance(facts, GameFacts) or taker is None or taker == facts.declarer:
            return {}
        return {taker: sum(POINTS[c] for c in facts.skat)}  # the declarer's count held it: given away, it counts against

    @hookimpl
    def skat_card_points(self):
        rules = []
        if self.black_jacks:
            rules.append(CardPointRule("black_jacks", "for the black jacks", trick=self.jacks,
                                       description=f"+{self.black_jacks} to whoever takes both black jacks in one trick"))
        if self.last_trick:
            rules.append(CardPointRule("last_trick", "for the last trick", end=self.last,
                                       description=f"+{self.last_trick} to whoever takes the last trick"))
        if self.skat == "last_trick":
            rules.append(CardPointRule("skat_to_last_trick", "for the skat", end=self.skat_to_last,
                                       description="the skat's card points to whoever takes the last trick"))
        return rules
