"""Session rules in a simulation read each deal's record as the steps write
it (skatcore.sim.sheet.session_record): Ramsch rounds (plugins/bock.py)
see the pushes before a grand hand, and a Ramsch without pushing shows no
bidding, as on a score sheet."""

from __future__ import annotations

from skatcore.bots import resolve_player
from skatcore.rules.compiler import get_rules
from skatcore.sim.play import seeded_deal
from skatcore.sim.sheet import Sheet


def sheet_lines(rules, deals: int, seed: int = 1) -> list:
    """Every line the sheet entered over ``deals`` deals (one session: under 36)."""
    sheet = Sheet(rules, [resolve_player("heuristic")] * 3, seed)
    for i in range(deals):
        sheet.play(i, seeded_deal(seed, i))
    return sheet.session.state.lines


def ramsch_round_lines(lines) -> list:
    return [x for x in lines if any(m.startswith("Ramsch round") for m in x.marks)]


def test_ramsch_rounds_without_pushing_are_played(tmp_path):
    """All pass into a plain Ramsch: the record gives the Ramsch, not three
    passes (which the Ramsch round refuses as a bidding), so the round is
    played and ends; before, every deal of the round was refused and the
    sheet stayed in it for good."""
    path = tmp_path / "ramsch-rounds.yaml"
    path.write_text("name: ramsch-rounds\nextends: official\nplugins:\n  ramsch: {}\n  bock: {ramsch_after: 1}\n",
                    encoding="utf-8")
    lines = sheet_lines(get_rules(str(path)), 35)
    rounds = ramsch_round_lines(lines)
    assert len(rounds) >= 3 and len(lines) == 35  # every deal is on the sheet
    for line in rounds:
        assert line.result.game == "ramsch" and line.result.declarer is None
        assert "bidding" not in line.record and line.record["game"] == {"type": "ramsch"}
    assert any(m == "Ramsch round 1 (3/3)" for x in rounds for m in x.marks)


def test_a_ramsch_round_sees_the_pushes_before_a_grand_hand():
    """pub: in a Ramsch round a grand hand declared instead of pushing names
    the pushes made before it; the round deals again."""
    lines = sheet_lines(get_rules("pub"), 35)
    rounds = ramsch_round_lines(lines)
    grands = [x for x in rounds if x.result.declarer is not None]
    assert grands, "no grand hand in a Ramsch round: pick another seed"
    assert any(x.record["game"]["pushes"] for x in grands)  # at least one after a push, not just forehand's
    for line in rounds:
        game = line.record["game"]
        assert "bidding" not in line.record and "pushes" in game
        pushes = game["pushes"]
        assert all(p == "blind" or len(p) == 2 for p in pushes)
        if line.result.declarer is None:  # a Ramsch: all three pushed
            assert len(pushes) == 3
        else:  # the grand hand's declarer is the next to push
            assert line.record["declarer"] == ("forehand", "middlehand", "rearhand")[len(pushes)]
            assert line.record["game"]["hand"] is True and any("grand hand, deals again" in m for m in line.marks)
