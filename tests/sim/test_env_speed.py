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

    floor = load_tool("env_floor").CardPlayOnly()
    for _ in range(2 * len(floor.games)):
        floor.reset()
        dealt = sum(floor.hands)
        rng = random.Random(floor.i)
        while not floor.terminations["player_0"]:
            hand = set(cards_in(floor.hands[floor.to_move]))
            legal = floor.legal_actions()
            assert set(legal) <= hand
            outside = sorted(hand - set(legal)) or [c for c in range(32) if c not in hand]
            with pytest.raises(ValueError):
                floor.step(outside[0])
            floor.step(rng.choice(legal))
        assert sum(floor.taken) == 10
        assert sum(floor.trick_points) == points_of(dealt)


@pytest.mark.parametrize("ruleset", ["official", "tournament", "danish", "pre1999"])
def test_the_whole_deal_floor_is_the_environment_on_ints(ruleset):
    """tools/env_floor.py's whole deal: at every turn of 300 seeded random
    deals the same agent and legal indices as skat_v0, at the end the same
    rewards and infos (the ruleset's own scoring of the same facts)."""
    floor = load_tool("env_floor").WholeDeal(ruleset)
    env = skat_v0.raw_env(ruleset=ruleset)
    floor.reset(seed=11)
    env.reset(seed=11)
    kinds = set()
    for deal in range(300):
        if deal:
            floor.reset()
            env.reset()
        rng = random.Random(deal)
        while env.agents:
            assert floor.agent_selection == env.agent_selection
            done = env.terminations[env.agent_selection]
            assert floor.terminations[floor.agent_selection] == done
            if done:
                assert (floor.rewards, floor.infos) == (env.rewards, env.infos)
                kinds.add(env.infos[env.agent_selection]["game"])
                floor.step(None)
                env.step(None)
                continue
            legal = env.legal_actions()
            assert tuple(floor.legal_actions()) == tuple(legal)
            action = choose(env, legal, rng)
            floor.step(action)
            env.step(action)
        assert not floor.agents
    assert {"passed", "grand", "null", "clubs"} <= {k.split()[0] for k in kinds}, sorted(kinds)


def choose(env, legal, rng: random.Random) -> int:
    """A random choice that passes half the time it may, and declares null a
    third of the time it may (uniform choices would hardly ever do either)."""
    words = [env.describe(i) for i in legal]
    if "pass" in words and rng.random() < 0.5:
        return legal[words.index("pass")]
    nulls = [i for i, w in zip(legal, words, strict=True) if w.startswith("declare null")]
    if nulls and rng.random() < 0.3:
        return rng.choice(nulls)
    return legal[int(rng.random() * len(legal))]


def test_the_floors_refuse_a_ruleset_they_do_not_play():
    from skatcore.errors import InputError

    mod = load_tool("env_floor")
    for ruleset in ("texas", "schieberamsch", "strohmann", "pub"):
        with pytest.raises(InputError, match=f"ruleset {ruleset}: the floors play plain rulesets only"):
            mod.WholeDeal(ruleset)
