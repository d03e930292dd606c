"""The Gymnasium wrapper (skatcore/env/single.py): gymnasium's env checker
under every shipped ruleset, the deal replayed through ``Deal`` scoring the
reward the agent got, the seats a person plays taken in turn."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from skatcore.engine.deal import Deal
from skatcore.engine.table import people
from skatcore.env import SkatSingleAgent
from skatcore.model import SEATS
from skatcore.rules.compiler import get_rules
from skatcore.rules.ruleset import shipped_rulesets

RULESETS = sorted(shipped_rulesets())


@pytest.mark.parametrize("ruleset", RULESETS)
def test_gymnasium_env_checker(ruleset):
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # what the checker finds wrong, it warns of
        check_env(SkatSingleAgent(ruleset, opponents="heuristic"), skip_render_check=True)


@pytest.mark.parametrize(("ruleset", "opponents"), [("official", "random"), ("pub", "heuristic"),
                                                   ("strohmann", "heuristic"), ("schieberamsch", "random"),
                                                   ("official", "expert")])
def test_the_reward_is_what_the_deal_replayed_through_deal_scores(ruleset, opponents):
    rules = get_rules(ruleset)
    env = SkatSingleAgent(ruleset, opponents=opponents)
    rng = random.Random(3)
    obs, info = env.reset(seed=9)
    persons = people(rules)
    for i in range(2 if opponents == "expert" else 6):
        assert env.seat == persons[i % len(persons)] and info["seat"] == SEATS[env.seat]
        done, reward = False, 0.0
        while not done:
            assert env.observation_space.contains(obs)
            assert obs[env.encoder.offsets["acting"]][0] == 1.0
            obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        played = env.deal
        replay = Deal(rules, *env._pz.dealt(9, i))
        for _seat, action in played.history:
            replay.apply(action)
        assert replay.done
        assert reward == replay.result().scores.get(SEATS[env.seat], 0)
        obs, info = env.reset()


def test_an_illegal_action_ends_the_deal_with_the_penalty():
    env = SkatSingleAgent("official", opponents="random", seat=0, illegal_reward=-500)
    _, info = env.reset(seed=4)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert done and reward == -500 and info["illegal"]
