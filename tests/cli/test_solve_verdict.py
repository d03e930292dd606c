"""``skat solve`` says whether the declarer wins as the game is scored, not
by 61 card points alone: an overbid hand game that reaches the bid only
with schneider (A8) needs 90, an announced schneider 90, a bid only schwarz
reaches every trick, a bid nothing reaches no card points at all."""

from __future__ import annotations

import json

import pytest

from skatcore.cli.main import main

# examples/overbid-clubs-hand.yaml with the diamond ace and ten moved from
# forehand to the declarer for the spade ace and ten: 74 under best play
RECORD = """\
format: skat-deal/1
ruleset: official
players: [Anna, Bernard, Clara]
dealer: 0
hands:
  forehand:   [SJ, DJ, SA, ST, DK, DQ, D9, D8, D7, SK]
  middlehand: [HJ, CA, CT, CK, C9, C8, C7, DA, DT, HA]
  rearhand:   [CQ, SQ, S9, S8, S7, HT, HK, H9, H8, H7]
skat: [CJ, HQ]
bidding: [{bid}, pass, pass]
game:
  type: clubs
  hand: true
  schneider: {schneider}
outcome:
  declarer_points: 74
  declarer_tricks: 7
"""
CLUBS = 12


def needs(bid: int, schneider: bool) -> int:
    """By hand (A6-A8): clubs hand with 1 (the CJ lies in the skat): with 1,
    game 2, hand 3, schneider 4 (announced 5), schwarz 5 (6): the fewest
    card points whose game wins and reaches the bid; 121 where none does."""
    steps = [(61, 3), (90, 4), (120, 5)]  # the card points and the multiplier they make
    if schneider:
        steps = [(90, 5), (120, 6)]
    return next((pts for pts, k in steps if k * CLUBS >= bid), 121)


@pytest.mark.parametrize(("bid", "schneider"), [(18, False), (36, False), (40, False), (46, False), (48, False),
                                                (60, False), (72, False), (18, True), (60, True), (72, True)])
def test_the_card_points_that_win_as_the_game_is_scored(tmp_path, capsys, bid, schneider):
    f = tmp_path / "deal.yaml"
    f.write_text(RECORD.format(bid=bid, schneider=str(schneider).lower()))
    assert main(["solve", "--json", str(f)]) == 0
    got = json.loads(capsys.readouterr().out)
    target = needs(bid, schneider)
    assert got["target"] == target and got["total"] == 120
    assert got["start"] == 74 and got["summary"]["double_dummy_wins"] is (target <= 74)
    assert main(["solve", str(f)]) == 0
    text = capsys.readouterr().out
    said = {61: "61+ wins", 90: "90+ wins", 120: "120, every trick, wins", 121: "no card points win it"}[target]
    assert f"card points ({said})" in text
    assert f"double-dummy 74 ({'wins' if target <= 74 else 'loses'})" in text
