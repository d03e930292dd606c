"""A deal played by bots, its record written (skatcore.records.writer) and
read back through the record reader: the same result.  Shared by the tests
of the shipped rulesets and of the example packages."""

from __future__ import annotations

from skatcore.bots import make_player
from skatcore.records.deal import as_deal_record, score_record
from skatcore.records.writer import deal_record
from skatcore.sim.play import play, seeded_deal
from skatcore.sim.sheet import Passing


def played(rules, seed: int, i: int, player: str = "random", passing: bool = False):
    """Deal ``i`` played by ``player`` bots (``passing``: all pass in the bidding)."""
    hands, skat, seeds, *aside = seeded_deal(seed, i, rules.deck)
    players = [make_player(player, rules, s) for s in seeds]
    return play(rules, hands, skat, [Passing(p) for p in players] if passing else players, *aside)


def same_result(a, b) -> None:
    assert (a.game, a.declarer, a.won, a.value, a.scores, a.explanation) == \
           (b.game, b.declarer, b.won, b.value, b.scores, b.explanation)


def check_round_trips(rules, deals: int = 45, seed: int = 5) -> None:
    """Heuristic players; random ones; random ones after all passed (the steps there)."""
    for i in range(deals):
        deal = played(rules, seed, i, "random" if i % 3 else "heuristic", passing=i % 3 == 2)
        doc = as_deal_record(deal_record(deal), "<written>")  # valid against the schema
        same_result(score_record(doc, rules), deal.result())
