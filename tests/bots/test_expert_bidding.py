"""The expert's decision rule at the bidding and its calibration (issue 21, item 5)."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcore.bots.expert import ExpertPlayer
from skatcore.bots.expert.bidding import logit
from skatcore.bots.expert.outlooks import bid_outlooks
from skatcore.cards import mask_of, parse_card
from skatcore.engine.deal import PASS, PICK_UP, Deal, Phase
from skatcore.rules import get_rules


def _cand(me: ExpertPlayer, game: str, hand: bool = False):
    return next(c for c in me.info.cands["hand" if hand else "pickup"] if c.d.game == game and not c.d.ouvert)


def test_a_game_pays_where_its_expected_score_beats_passing():
    """The decision rule by hand: a diamonds game worth 18, won +18 and the
    game's 50, lost -36 and -50 (the ruleset's lost factor, twice its
    value), pays above a chance of 86/154; bid to 20 and worth 18 it is lost
    at the bid rounded up to diamonds' base, 27, twice, and the 50."""
    me = ExpertPlayer(get_rules("official"), seed=1)
    assert me.GAME_BONUS == 50
    assert me._need(18, 2) == pytest.approx((36 + 50) / (54 + 100))
    assert me._expected(me._need(18, 2), 18, 2, 18, 9) == pytest.approx(0.0)
    assert me._expected(0.75, 18, 2, 18, 9) == pytest.approx(0.75 * 68 - 0.25 * 86)
    assert me._expected(0.99, 18, 2, 20, 9) == -104
    # a hand game lost costs its value once under the 1998 rules: it pays above (18 + 50) / (36 + 100)
    old = ExpertPlayer(get_rules("pre1999"), seed=1)
    assert old._need(18, _cand(old, "diamonds", hand=True).lost) == pytest.approx(1 / 2)


def test_the_calibration_only_lowers_a_chance():
    """The fitted correction lowers an overconfident chance and never raises
    one; with no correction a suit game's chance is the blend of the
    layouts' share and the heuristic's estimate (worth two layouts)."""
    me = ExpertPlayer(get_rules("official"), seed=1)
    clubs = _cand(me, "clubs")
    assert me._chance(clubs, 0.1, 4, 6, (), raw=True) == pytest.approx((2 * 0.1 + 4) / 8)
    a, b = me.CALIBRATION[("suit", "bid")]
    lowered = 0
    for wins in range(7):
        blend = (2 * 0.5 + wins) / 8
        fitted = 1 / (1 + math.exp(-(a + b * logit(blend))))
        assert me._chance(clubs, 0.5, wins, 6, (), "bid") == pytest.approx(min(blend, fitted))
        lowered += fitted < blend
    assert lowered >= 2  # the high chances
    me.CALIBRATION = {("suit", "bid"): (0.0, 1.0)}  # the identity
    assert me._chance(clubs, 0.5, 5, 6, (), "bid") == pytest.approx(6 / 8)


@settings(max_examples=60, deadline=None)
@given(st.floats(0.0, 1.0), st.integers(0, 6), st.integers(0, 6), st.sampled_from(["bid", "declare"]))
def test_a_calibrated_chance_grows_with_the_layouts_won(p, w1, w2, step):
    me = ExpertPlayer(get_rules("official"), seed=1)
    for game in ("clubs", "grand"):
        cand = _cand(me, game)
        lo, hi = sorted((w1, w2))
        low, high = me._chance(cand, p, lo, 6, (), step), me._chance(cand, p, hi, 6, (), step)
        assert 0.0 <= low <= high <= 1.0
        assert high <= me._chance(cand, p, hi, 6, (), step, raw=True) + 1e-12


def test_the_limit_is_the_highest_bid_a_contract_pays_at():
    """The limit (the layouts of each contract solved until they settle its
    question) equals the highest bid at which a contract worth as much,
    judged in full with the layouts whose skat lowers it under the bid lost,
    reaches the break-even chance of its value, or the heuristic's floor."""
    rules = get_rules("official")
    rng = random.Random(5)
    for i in range(12):
        hand = mask_of(rng.sample(range(32), 10))
        me = ExpertPlayer(rules, seed=i)
        lost = {(c.d.game, c.d.hand, c.d.ouvert): c.lost for r in ("pickup", "hand") for c in me.info.cands[r]}
        top = max(o.value for o in bid_outlooks(me, hand, i % 3))
        solved = [b for b in rules.ladder if b <= top and any(
            o.source == "solver" and o.value >= b and o.chance >= me._need(o.value, lost[(o.game, o.hand, o.ouvert)])
            for o in bid_outlooks(me, hand, i % 3, b))]
        assert me._expert_limit(hand, i % 3) == max([me._limit(hand), *solved])


def _discard_view(rules, forehand: list[int], skat: list[int], others: list[int]):
    """The view of forehand at the discard, the other two having passed at once."""
    deal = Deal(rules, [forehand, others[:10], others[10:]], skat)
    while deal.phase is Phase.BIDDING:
        legal = deal.legal_actions()
        deal.apply(PASS if deal.to_move != 0 else next(a for a in legal if a is not PASS))
    deal.apply(PICK_UP)
    return deal.view(0)


class _Uncut(ExpertPlayer):
    """Judges every contract over all its layouts (no bound ends a contract's layouts early)."""

    def _declare_outlook(self, row, hand, bid, layouts, seat, solve, beat):
        return super()._declare_outlook(row, hand, bid, layouts, seat, solve, -math.inf)


@settings(max_examples=12, deadline=None)
@given(st.permutations(range(32)), st.integers(0, 5))
def test_dropping_a_contract_that_cannot_win_keeps_the_declaration(cards, seed):
    """A contract's layouts stop once even winning (schneider) all the rest
    could not beat the best so far: the discard and the contract are those
    chosen with every contract judged in full."""
    rules = get_rules("official")
    view = _discard_view(rules, cards[:10], cards[10:12], cards[12:])
    cut, full = ExpertPlayer(rules, seed=seed), _Uncut(rules, seed=seed)
    assert cut.act(view) == full.act(view)
    assert cut._expert_plan == full._expert_plan
    assert {o.game for o, _ in cut.declare_outlooks} == {o.game for o, _ in full.declare_outlooks}


def test_a_grand_must_beat_the_suit_game_by_the_margin():
    """The contract choice with the expected scores set by hand: a grand
    expected to bring less than GRAND_MARGIN more than clubs gives way to
    clubs, as people declare the suit game where the grand is marginal."""
    rules = get_rules("official")
    hand = [parse_card(c) for c in ("CJ", "SJ", "CA", "CK", "C9", "C8", "C7", "SA", "HA", "D8")]
    skat = [parse_card(c) for c in ("HK", "S8")]
    view = _discard_view(rules, hand, skat, [c for c in range(32) if c not in hand + skat])

    class Fixed(ExpertPlayer):
        grand = 0.0

        def _declare_outlook(self, row, hand, bid, layouts, seat, solve, beat):
            seen, _ = super()._declare_outlook(row, hand, bid, layouts, seat, False, -math.inf)
            e = {"grand": self.grand, "clubs": 100.0}.get(seen.game, -50.0)
            return seen, e

    me = Fixed(rules, seed=1)
    assert me.GRAND_MARGIN == 15
    for grand, game in ((114.0, "clubs"), (116.0, "grand")):
        me.grand = grand
        me.act(view)
        assert me._expert_plan.game == game


def test_a_bid_asks_only_whether_the_limit_reaches_it():
    """The bidding asks, bid by bid, whether some contract worth that much
    holds (the cheapest first, stopping at the first): the same answers as
    the full limit."""
    rules = get_rules("official")
    rng = random.Random(8)
    for i in range(8):
        hand = mask_of(rng.sample(range(32), 10))
        limit = ExpertPlayer(rules, seed=i)._expert_limit(hand, i % 3)
        lazy = ExpertPlayer(rules, seed=i)
        for value in [v for v in rules.ladder if v <= 72]:
            assert lazy._bids_to(hand, i % 3, value) == (limit >= value), (i, value)


def test_a_layout_whose_skat_lowers_the_value_below_the_bid_is_overbid():
    """Hearts without three (the diamond jack the highest jack held) is worth
    4 x 10 = 40 on ten cards.  A skat with the club jack makes it "with one"
    (20), with the spade jack "without one" (20), with the heart jack
    "without two" (30); a skat of two low cards leaves 40."""
    me = ExpertPlayer(get_rules("official"), seed=1)
    hearts = _cand(me, "hearts")
    hand = mask_of([parse_card(c) for c in ("DJ", "HA", "HT", "HK", "HQ", "H9", "H8", "SA", "CA", "CT")])
    assert hearts.value(hearts.g.table.matadors(hand)) == 40
    skats = [("CJ", "S7"), ("SJ", "S7"), ("HJ", "S7"), ("S7", "S8"), ("CJ", "SJ")]
    layouts = [(mask_of([parse_card(c) for c in skat]), 0, 0) for skat in skats]
    assert me._overbid(hearts, hand, layouts, 40) == (True, True, True, False, True)
    assert me._overbid(hearts, hand, layouts, 30) == (True, True, False, False, False)  # with two: 30
    assert me._overbid(hearts, hand, layouts, 20) == (False,) * 5
    assert me._overbid(_cand(me, "null"), hand, layouts, 40) == (False,) * 5  # a null's value has no matadors
