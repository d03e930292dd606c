"""The deal record of a played Deal (skatcore.records.writer): the core's
fields and every step's part (``Step.record``, the reverse of ``replay``)
read back through the record reader to the deal's own result."""

from __future__ import annotations

from pathlib import Path

import pytest
from round_trip import check_round_trips, played, same_result

from skatcore.cards import names
from skatcore.engine.deal import Discard
from skatcore.records.deal import score_record
from skatcore.records.writer import deal_record
from skatcore.rules.compiler import get_rules
from skatcore.rules.ruleset import shipped_rulesets

SCHENKEN = Path(__file__).parents[1] / "vectors" / "rulesets" / "schenken.yaml"


@pytest.mark.parametrize("ref", [*sorted(shipped_rulesets()), str(SCHENKEN)])
def test_a_written_record_reads_back_to_the_same_result(ref):
    check_round_trips(get_rules(ref))


def pushed(rules, seed: int, want) -> tuple:
    """The first random deal whose pushes satisfy ``want``, and its record."""
    for i in range(400):
        deal = played(rules, seed, i, passing=True)
        doc = deal_record(deal)
        if want(deal, doc["game"].get("pushes")):
            return deal, doc
    raise AssertionError("no such deal in 400")


def test_the_push_step_writes_its_pushes():
    """Schieberamsch: blind pushes and the cards pushed, in seat order; the
    Ramsch then implies the three passes."""
    rules = get_rules("schieberamsch")
    deal, doc = pushed(rules, 3, lambda d, p: d.declarer is None and "blind" in p and any(isinstance(x, list) for x in p))
    assert "bidding" not in doc and doc["game"]["type"] == "ramsch"
    put = {seat: names(a.cards) for seat, a in deal.history if isinstance(a, Discard)}  # the cards each pusher put down
    assert doc["game"]["pushes"] == [put.get(seat, "blind") for seat in range(3)]
    same_result(score_record(doc, rules), deal.result())


def test_a_grand_after_pushes_and_declined_pickups_read_back():
    """Petersen's Ramse: a declined pick-up is written ``pass``; a grand hand
    declared after all pushed names its declarer and no bid."""
    rules = get_rules("danish-petersen")
    deal, doc = pushed(rules, 4, lambda d, p: p and "pass" in p)
    assert len(doc["game"]["pushes"]) == 3
    same_result(score_record(doc, rules), deal.result())
    deal, doc = pushed(rules, 4, lambda d, p: p is not None and d.declarer is not None)
    assert doc["declarer"] and "bid" not in doc and doc["game"]["hand"] is True
    same_result(score_record(doc, rules), deal.result())


def test_a_summary_gives_declarer_and_bid_not_the_cards():
    rules = get_rules("official")
    deal = next(d for d in (played(rules, 1, i, "heuristic") for i in range(20)) if d.bid)
    doc = deal_record(deal, summary=True)
    assert doc["declarer"] and doc["bid"] == deal.bid
    assert not {"hands", "skat", "play", "bidding"} & set(doc)
    thrown = played(rules, 1, 0, passing=True)
    assert deal_record(thrown, summary=True) == {"format": "skat-deal/1", "ruleset": "official",
                                                  "bidding": ["pass", "pass", "pass"]}
