"""Players at a table with a hand shown to them (``SeatView.others``: a
straw man the defender plays, shown to both once the game is announced):
the heuristic counts it where it lies, the expert's worlds put it there."""

from __future__ import annotations

import random

from skatcore.bots import HeuristicPlayer
from skatcore.bots.expert import ExpertPlayer
from skatcore.bots.expert.worlds import Knowledge, sample
from skatcore.cards import parse_card
from skatcore.engine.deal import PASS, PLAY_HAND, Bid, Deal, Declare, Phase, Play, deal_cards
from skatcore.hookspecs import hookimpl
from skatcore.model import Declaration, SeatPlan, Table
from skatcore.testing import compile_with


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


class StrawMan:
    """Middlehand is a straw man the defender plays, shown to both once the game is announced."""

    @hookimpl
    def skat_table(self):
        return Table((SeatPlan(), SeatPlan(controller="defender", bids=False, shown=(("declared", "all"),)), SeatPlan()))


RULES = compile_with("official", {"straw": StrawMan})
# forehand plays a grand hand; rearhand defends with the straw man at middlehand
HANDS = [cards("CJ CA CT SJ ST S8 HJ H7 DJ D7"), cards("C9 C8 C7 SK S9 HK H8 D8 DK DQ"),
         cards("CK CQ SA S7 HA HT H9 DA DT D9")]
SKAT = cards("SQ HQ")


def grand_hand() -> Deal:
    deal = Deal(RULES, HANDS, SKAT)
    for action in (PASS, Bid(18), PLAY_HAND, Declare(Declaration("grand", hand=True))):
        deal.apply(action)  # rearhand passes, forehand plays at 18
    assert deal.declarer == 0 and deal.phase is Phase.PLAY
    return deal


def blind(view):
    """The same view with the shown hands taken away: how the heuristic played before."""
    v = view.with_legal(view.legal)
    v.others = {}
    return v


def test_the_defender_smears_when_his_shown_partner_takes_the_trick():
    """H7 led; the straw man holds HK H8, rearhand (playing last) HA HT: the
    straw man gives HK's 4 points; not knowing rearhand's hearts it ducks with H8."""
    deal = grand_hand()
    deal.apply(Play(parse_card("H7")))
    view = deal.view(1)
    assert view.others == {2: deal.hands[2]}
    assert HeuristicPlayer(RULES, seed=1).act(view) == Play(parse_card("HK"))
    assert HeuristicPlayer(RULES, seed=1).act(blind(view)) == Play(parse_card("H8"))


def test_the_declarer_takes_with_a_ten_the_shown_straw_man_cannot_beat():
    """Rearhand wins D7 DK DA and leads S7; the straw man behind the
    declarer holds SK S9: ST takes the trick for sure (blind: S8, SA might be out)."""
    deal = grand_hand()
    for c in ("D7", "DK", "DA", "S7"):
        deal.apply(Play(parse_card(c)))
    view = deal.view(0)
    assert view.others == {1: deal.hands[1]}
    assert HeuristicPlayer(RULES, seed=1).act(view) == Play(parse_card("ST"))
    assert HeuristicPlayer(RULES, seed=1).act(blind(view)) == Play(parse_card("S8"))


def test_worlds_put_a_shown_hand_where_it_lies():
    rng = random.Random(3)
    checked = 0
    for seed in range(6):
        deal = Deal(RULES, *deal_cards(random.Random(seed)))
        players = {s: HeuristicPlayer(RULES, seed=s) for s in (0, 2)}
        while not deal.done:
            view = deal.view(deal.to_move)
            who = deal.controller(deal.to_move)
            if deal.phase is Phase.PLAY and view.others:
                kn = Knowledge.of(view, deal.table, RULES.deck)
                for seat, shown in view.others.items():
                    assert kn.known[seat] & shown == shown and not kn.unseen & shown
                hands, _ = sample(kn, rng)
                for seat in (view.seat, *view.others):
                    assert hands[seat] & deal.hands[seat] == deal.hands[seat]
                checked += 1
            deal.apply(players[who].act(view))
    assert checked > 20


def test_the_expert_plays_a_straw_man_table_by_the_solver():
    """No card falls back to the heuristic: the solver sees the straw man where it is."""
    expert = ExpertPlayer(RULES, seed=1, worlds=2)
    for seed in range(3):
        deal = Deal(RULES, *deal_cards(random.Random(10 + seed)))
        players = {0: expert, 2: HeuristicPlayer(RULES, seed=seed)} if seed % 2 else {0: HeuristicPlayer(RULES, seed=seed), 2: expert}
        while not deal.done:
            view = deal.view(deal.to_move)
            action = players[deal.controller(deal.to_move)].act(view)
            assert action in view.legal
            deal.apply(action)
    assert expert.counters["pimc_moves"] > 10 and expert.counters["fallback_moves"] == 0
