"""The expert player: worlds consistent with what a seat has seen, legal
play on every shipped ruleset, counters in the simulation statistics."""

from __future__ import annotations

import random

import pytest

from skatcore.bots import HeuristicPlayer, resolve_player
from skatcore.bots.expert import ExpertPlayer
from skatcore.bots.expert.worlds import Knowledge, bidding_levels, sample
from skatcore.engine.deal import Deal, Phase, deal_cards
from skatcore.rules import get_rules
from skatcore.rules.ruleset import shipped_rulesets
from skatcore.sim.simulate import run


def views_during_play(rules, seed: int):
    """Every view a player to move gets during a heuristic deal's play."""
    rng = random.Random(seed)
    deal = Deal(rules, *deal_cards(rng, rules.deck))
    players = [HeuristicPlayer(rules, seed=s) for s in range(3)]
    while not deal.done:
        view = deal.view(deal.to_move)
        if deal.phase is Phase.PLAY:
            yield deal, view
        deal.apply(players[deal.to_move].act(view))


@pytest.mark.parametrize("ruleset", ["official", "ramsch", "danish"])
def test_worlds_agree_with_what_the_seat_has_seen(ruleset):
    rules = get_rules(ruleset)
    rng = random.Random(7)
    checked = 0
    for seed in range(12):
        for deal, view in views_during_play(rules, seed):
            table = deal.table
            kn = Knowledge.of(view, table, rules.deck)
            truth = deal.hands
            assert kn.sizes == tuple(h.bit_count() for h in truth)
            for _ in range(3):
                hands, skat = sample(kn, rng)
                assert hands[view.seat] == view.hand
                assert [h.bit_count() for h in hands] == list(kn.sizes)
                assert hands[0] & hands[1] == hands[0] & hands[2] == hands[1] & hands[2] == 0
                # the unplayed cards, skat included, are dealt out exactly once
                assert hands[0] | hands[1] | hands[2] | skat == truth[0] | truth[1] | truth[2] | deal.skat
                assert skat.bit_count() == rules.deck.skat
                for s in range(3):
                    assert hands[s] & kn.void[s] == 0  # no card of a class the seat showed void in
                    assert kn.void[s] & truth[s] == 0  # (and the voids are real)
                if view.seat == view.declarer and view.discard:
                    assert skat == deal.skat
                checked += 1
    assert checked > 300


def test_bidding_levels():
    rules = get_rules("official")
    deal = Deal(rules, *deal_cards(random.Random(3)))
    for v in (["18", "yes", "20", "pass"]):
        legal = deal.legal_actions()
        deal.apply(next(a for a in legal if str(a) == v))
    # middlehand bid 18 and 20, forehand held 18 then passed at 20; rearhand has not spoken
    high, passed = bidding_levels(deal.view(2))
    assert high == [18, 20, 0] and passed == [20, None, None]


@pytest.mark.parametrize("ruleset", sorted(shipped_rulesets()))
def test_expert_table_plays_every_shipped_ruleset(ruleset):
    """Two deals of three expert players (two layouts a move): every action is
    the engine's (a wrong one raises), every card decision counted."""
    stats = run([ruleset], 2, 1, ("expert:worlds=2:bid_worlds=2",) * 3)[0]
    assert stats.deals == 2
    counted = stats.bots["pimc_moves"] + stats.bots["fallback_moves"]
    assert counted > 0 or all(g == "passed" for g in stats.games)
    assert stats.summary().get("bot_counters", {}) == dict(sorted(stats.bots.items()))


def test_player_options():
    factory = resolve_player("expert:worlds=3:ms=2.5")
    p = factory(rules=get_rules("official"), seed=1)
    assert isinstance(p, ExpertPlayer) and p.worlds == 3 and p.ms == 2.5
