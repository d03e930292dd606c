"""Properties of sessions: the pairwise settlement (docs/rules/official.md#a9) always sums to
exactly zero, and random sheets under ``pub`` keep their books: every entry is
the deal's own entry times a power of two, the totals are the sums of the
entries, and the money nets to zero."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from skatcore.cards import POINTS
from skatcore.model import Deck
from skatcore.records.money import pairwise
from skatcore.records.session import Session
from skatcore.rules.compiler import get_rules

SETTINGS = settings(deadline=None, max_examples=120, suppress_health_check=[HealthCheck.too_slow])

NAMES = ["Anna", "Bernd", "Clara", "Dieter"]
stakes = st.decimals(min_value=Decimal("0.001"), max_value=Decimal("5"), places=3)
totals = st.lists(st.integers(-5000, 5000), min_size=3, max_size=4)


@SETTINGS
@given(totals, stakes)
def test_pairwise_settlement_is_zero_sum(values, stake):
    final = dict(zip(NAMES, values, strict=False))
    s = pairwise(final, stake)
    assert sum(s.net.values()) == 0
    n, total = len(final), sum(final.values())
    for p, t in final.items():
        # each player settles with every other: n x own total - everyone's
        assert s.net[p] == (n * t - total) * stake
    for payer, payee, amount in s.transfers:
        assert final[payer] < final[payee] and amount == (final[payee] - final[payer]) * stake


GAMES = [("diamonds", 9), ("hearts", 10), ("spades", 11), ("clubs", 12), ("grand", 24)]


@st.composite
def deal(draw, ramsch: bool):
    if ramsch:
        # a shuffled deck taken trick by trick: each seat's points fit its tricks; the skat goes with the last trick
        cards = draw(st.permutations([POINTS[c] for c in Deck().cards]))
        a = draw(st.integers(1, 10))
        b = draw(st.integers(0, 10 - a))
        tricks = [a, b, 10 - a - b]
        last = draw(st.sampled_from([i for i in range(3) if tricks[i]]))
        pts, at = [], 0
        for t in tricks:
            pts.append(sum(cards[at:at + 3 * t]))
            at += 3 * t
        pts[last] += sum(cards[30:])
        seats = ("forehand", "middlehand", "rearhand")
        return {"game": {"type": "ramsch"}, "outcome": {
            "points": dict(zip(seats, pts, strict=True)), "tricks": dict(zip(seats, tricks, strict=True)), "last_trick": seats[last]}}
    game, _ = draw(st.sampled_from(GAMES))
    calls = draw(st.sampled_from([{}, {"kontra": True}, {"kontra": True, "re": True}]))
    return {
        "declarer": draw(st.sampled_from(["forehand", "middlehand", "rearhand"])),
        "bid": 18,
        "game": {"type": game, "hand": draw(st.booleans()), **({"declarations": calls} if calls else {})},
        "outcome": {"declarer_points": draw(st.sampled_from([30, 45, 60, 61, 75, 90, 100])),
                    "matadors": {draw(st.sampled_from(["with", "without"])): draw(st.integers(1, 4))}},
    }


@SETTINGS
@given(st.integers(3, 4), st.integers(1, 30), stakes, st.data())
def test_random_pub_sheets_keep_their_books(players, n, stake, data):
    rules = get_rules("pub")
    session = Session(rules, NAMES[:players], stake=stake)
    for _ in range(n):
        in_ramsch_round = session.state.data["bock"].ramsch_left > 0
        if in_ramsch_round:
            event("a Ramsch round")
        line = session.add(data.draw(deal(in_ramsch_round)))
        assert line.factor in (1, 2)  # pub queues its Bock rounds: never more than double
        if line.factor == 2:
            event("a Bock deal")
        for p in session.state.players:
            assert line.entries[p] == line.base[p] * line.factor
        if line.sitting_out:
            assert line.entries[line.sitting_out] == 0
    result = session.finish()
    for p in session.state.players:
        assert result.state.totals[p] == sum(ln.entries[p] for ln in session.state.lines)
    assert sum(result.settlement.net.values()) == 0
    assert sum(result.net.values()) == 0
