"""What the sheet says of the deals to come (issue 22, F1 and F2): the next
deal's kind and the deals still owed, counted by hand on the pub evening of
tests/sessions/pub-evening-4-table.yaml (4-table, a Bock round is 4 deals,
a Ramsch round of 4 after every Bock round, pending Bock rounds queued).

Owed after deal k = the Bock deals pending + the Ramsch-round deals: those
left of a running round, and one round of 4 for every pending Bock round
(each brings one when it finishes; F1 counted only finished ones)::

  k   running / queued           Ramsch round          owed Bock  owed Ramsch  next deal
  1   Bock 1 (4 left) / -        -                      4          4            2: Bock
  5   Bock 2 (waits) / Bock 3    round 1, 4 left        8          4 + 2x4 = 12 6: Ramsch round 1 (1/4)
  7   Bock 2 (waits) / 3, 4      round 1, 3 left (the   12         3 + 3x4 = 15 8: Ramsch round 1 (2/4),
                                 grand hand is none)                            Clara deals again
  10  Bock 2 (4 left) / 3, 4     -                      12         3x4 = 12     11: Bock
  16  Bock 3 (waits) / 4, 5      round 2, 2 left        12         2 + 3x4 = 14 17: Ramsch round 2 (3/4)
  20  Bock 3 (2 left) / 4, 5, 6  -                      14         4x4 = 16     21: Bock

Before the fix, only the Ramsch rounds already brought were counted (after
deal 16: 2 of the 14 Ramsch-round deals).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from skatcore.cli.main import main
from skatcore.records.session import rules_for_session, score_session

EVENING = Path(__file__).parents[1] / "sessions" / "pub-evening-4-table.yaml"
RAMSCH_ROUND = "a Ramsch, or a grand hand instead of pushing"


def evening(k: int) -> dict:
    doc = yaml.safe_load(EVENING.read_text("utf-8"))
    doc.pop("expect")
    doc["deals"] = doc["deals"][:k]
    return doc


@pytest.mark.parametrize(("k", "owed", "next_deal"), [
    (1, {"Bock": 4, "Ramsch round": 4}, {"deal": 2, "dealer": "Bernd", "kind": "Bock", "bidding": True, "factor": 2}),
    (5, {"Bock": 8, "Ramsch round": 12}, {"deal": 6, "dealer": "Bernd", "kind": f"Ramsch round 1 (1/4): {RAMSCH_ROUND}",
                                          "bidding": False, "factor": 1}),
    (7, {"Bock": 12, "Ramsch round": 15}, {"deal": 8, "dealer": "Clara", "kind": f"Ramsch round 1 (2/4): {RAMSCH_ROUND}",
                                           "bidding": False, "factor": 1}),
    (10, {"Bock": 12, "Ramsch round": 12}, {"deal": 11, "dealer": "Bernd", "kind": "Bock", "bidding": True, "factor": 2}),
    (16, {"Bock": 12, "Ramsch round": 14}, {"deal": 17, "dealer": "Dieter",
                                            "kind": f"Ramsch round 2 (3/4): {RAMSCH_ROUND}", "bidding": False, "factor": 1}),
    (20, {"Bock": 14, "Ramsch round": 16}, {"deal": 21, "dealer": "Dieter", "kind": "Bock", "bidding": True, "factor": 2}),
])
def test_owed_and_next_deal_counted_by_hand(k, owed, next_deal):
    doc = evening(k)
    sheet = score_session(doc, rules_for_session(doc)).to_json()
    assert sheet["owed"] == owed
    assert sheet["next_deal"] == next_deal
    assert sheet["notes"][-1] == (f"still to play out: {owed['Bock']} Bock deals, "
                                  f"{owed['Ramsch round']} Ramsch-round deals")


def test_the_owed_deals_are_what_the_evening_then_takes(tmp_path):
    """Played on without new triggers, the evening after deal 5 takes exactly
    the 20 deals it was told: Ramsch round 1, Bock 2, Ramsch 2, Bock 3, Ramsch 3."""
    doc = evening(5)
    hearts = {"declarer": "forehand", "bid": 18, "game": {"type": "hearts"},
              "outcome": {"declarer_points": 75, "matadors": {"with": 1}}}
    ramsch = {
        "game": {"type": "ramsch"}, "outcome": {"points": {"forehand": 30, "middlehand": 50, "rearhand": 40},
                                                "tricks": {"forehand": 3, "middlehand": 4, "rearhand": 3},
                                                "last_trick": "middlehand"}}
    for _ in range(20):
        sheet = score_session(doc, rules_for_session(doc)).to_json()
        doc["deals"].append(hearts if sheet["next_deal"]["bidding"] else ramsch)
    sheet = score_session(doc, rules_for_session(doc)).to_json()
    assert sheet["owed"] == {} and sheet["next_deal"]["kind"] == ""
    assert [d["factor"] for d in sheet["deals"][5:]] == [1] * 4 + [2] * 4 + [1] * 4 + [2] * 4 + [1] * 4


def test_add_says_what_the_next_deal_is(capsys, tmp_path):
    """After each ``add`` the scorer is told that a Ramsch round comes next
    (F2), and ``show`` says it under the sheet."""
    path = str(tmp_path / "pub.sqlite")
    assert main(["sheet", "new", path, "--ruleset", "pub", "--players", "Anna,Bernd,Clara"]) == 0
    # Anna deals: Bernd forehand; 60-60 brings a Bock round of 3 deals, then a Ramsch round of 3
    assert main(["sheet", "add", path, "--declarer", "Bernd", "--bid", "18", "--game", "clubs", "--points", "60",
                 "--matadors", "with1"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "  next deal: Bock; still owed: 3 Bock deals, 3 Ramsch-round deals"
    for _ in range(3):
        assert main(["sheet", "add", path, "--declarer", "forehand", "--bid", "18", "--game", "hearts", "--points", "75",
                     "--matadors", "with1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == f"  next deal: Ramsch round 1 (1/3): {RAMSCH_ROUND}; still owed: 3 Ramsch-round deals"
    assert main(["sheet", "show", path]) == 0
    assert f"next dealer: Bernd; next deal: Ramsch round 1 (1/3): {RAMSCH_ROUND}" in capsys.readouterr().out
    assert main(["sheet", "show", path, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["next_deal"]["bidding"] is False
