"""The bench's null environment stands for the real one's protocol: the same
number of turns a deal, the same loop."""

from __future__ import annotations

import random
import statistics

import pytest

from tests.tool_module import load_tool

pytest.importorskip("pettingzoo")

from skatcore.env import skat_v0
from skatcore.sim.env_speed import NullDeal, agent_loop


class Counting:
    """Counts the steps an env takes (decisions and closing steps apart)."""

    def __init__(self, env) -> None:
        self.env, self.decisions, self.closing = env, 0, 0

    def __getattr__(self, key):
        return getattr(self.env, key)

    def step(self, action) -> None:
        if action is None:
            self.closing += 1
        else:
            self.decisions += 1
        self.env.step(action)


def test_the_null_deal_takes_its_decisions_and_three_closing_steps():
    null = NullDeal(decisions=39)
    counted = Counting(null)
    agent_loop(counted, null, random.Random(1))(5)
    assert (counted.decisions, counted.closing) == (5 * 39, 5 * 3)


def test_random_deals_through_the_env_take_about_the_null_deals_turns():
    env = skat_v0.env(ruleset="official")
    env.reset(seed=7)
    counted = Counting(env)
    per_deal = []
    for _ in range(200):
        before = counted.decisions
        agent_loop(counted, env.unwrapped, random.Random(len(per_deal)))(1)
        per_deal.append(counted.decisions - before)
    assert counted.closing == 3 * 200
    assert abs(statistics.mean(per_deal) - NullDeal().decisions) < 2  # 30 cards, the bidding, the skat, the game


def test_the_card_play_floor_plays_whole_legal_deals():
    """tools/env_floor.py's card play: each contract in turn, ten tricks, the
    card points of the 30 cards played, the legal cards always in the hand
    of the seat to move; a card outside them refused."""
    from skatcore.cards import cards_in, points_of

    mod = load_tool("env_floor")
    floor = mod.CardPlayOnly()
    for _ in range(2 * floor.n_contracts):
        floor.reset()
        st = floor.state
        dealt = sum(int(st[mod.HANDS + s]) for s in range(3))
        rng = random.Random(floor.i)
        while not floor.terminations["player_0"]:
            seat, legal = int(st[mod.TO_MOVE]), floor.legal_actions()
            hand = set(cards_in(int(st[mod.HANDS + seat])))
            assert set(legal) <= hand
            outside = sorted(hand - set(legal)) or [c for c in range(32) if c not in hand]
            with pytest.raises(ValueError):
                floor.step(outside[0])
            floor.step(rng.choice(legal))
        assert int(st[mod.TAKEN]) == 10
        assert sum(int(st[mod.POINTS + s]) for s in range(3)) == points_of(dealt)
