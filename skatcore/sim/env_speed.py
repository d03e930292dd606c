"""``skat bench``'s figures of the PettingZoo environment (skatcore.env.skat_v0,
issue 38): random full deals through it as an agent loop runs them, beside
the ``Deal`` loop and OpenSpiel's skat through its Python API.

* ``env_deals_per_s`` - PettingZoo's loop (``agent_iter``, ``last(observe=False)``,
  a uniform choice among ``legal_actions()``, ``step``; the three closing
  steps of the terminated agents too), no observation built: what
  OpenSpiel's loop does, which builds none.
* ``env_observed_deals_per_s`` - the same loop reading ``last()``'s
  observation (the flat array and the action mask) and choosing among the
  mask's ones.
* ``env_null_protocol_deals_per_s`` - the same loop over :class:`NullDeal`,
  the protocol with no game behind it: the floor of any environment in
  Python (``null_protocol_vs_openspiel_python_api``).
* ``env_turns_*`` and the ratios ``env_vs_openspiel_python_api``,
  ``env_observed_vs_openspiel_python_api``, ``env_vs_deal_loop`` - the four
  loops timed by turns in one run (the median of the turns' ratios), so
  that all see the same load.

Empty without the ``env`` extra (pettingzoo); the OpenSpiel ratios need
OpenSpiel.  A measurement, never a test.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable

from skatcore.sim.speed import openspiel_deal_loop, random_deal_loop, timed


def env_deal_loop(ruleset: str, rng: random.Random, observe: bool = False) -> Callable[..., int]:
    """``step(n)`` for :func:`timed`: ``n`` random full deals through ``skat_v0.env``."""
    from skatcore.env import skat_v0

    env = skat_v0.env(ruleset=ruleset)
    env.reset(seed=rng.randrange(1 << 30))
    return agent_loop(env, env.unwrapped, rng, observe)


def agent_loop(env, raw, rng: random.Random, observe: bool = False) -> Callable[..., int]:
    """``step(n)``: ``n`` episodes of PettingZoo's loop over ``env`` (``raw``: it unwrapped), uniform random choices."""

    def step(n: int = 100) -> int:
        for _ in range(n):
            env.reset()
            for _agent in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last(observe)
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = obs["action_mask"].nonzero()[0] if observe else raw.legal_actions()
                env.step(int(legal[int(rng.random() * len(legal))]))
        return n

    return step


class NullDeal:
    """The PettingZoo protocol with no game behind it: three agents taking
    ``decisions`` turns (a random deal's 39 on average), each with
    ``choices`` legal actions, then the three closing steps - what
    :class:`skat_v0.raw_env`'s loop would cost if its moves and its deal
    cost nothing (``agent_iter`` a generator, ``last`` three lookups)."""

    def __init__(self, decisions: int = 39, choices: int = 5) -> None:
        self.decisions, self.legal = decisions, tuple(range(choices))
        self.agents: list[str] = []
        self.agent_selection = "player_0"
        self.stepped, self.made = True, 0
        self.possible_agents = ["player_0", "player_1", "player_2"]

    def reset(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.made, self.stepped, self.agent_selection = 0, True, "player_1"

    def agent_iter(self, max_iter: int = 2**63):
        while self.agents and max_iter > 0:
            max_iter -= 1
            assert self.stepped
            self.stepped = False
            yield self.agent_selection

    def last(self, observe: bool = True) -> tuple:
        agent = self.agent_selection
        return None, self.rewards[agent], self.terminations[agent], self.truncations[agent], self.infos[agent]

    def legal_actions(self) -> tuple[int, ...]:
        return self.legal

    def step(self, action: int | None) -> None:
        self.stepped = True
        if action is None:
            self.agents.remove(self.agent_selection)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        self.made += 1
        if self.made == self.decisions:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self.made % 3]


def env_figures(rules, seconds: float, turns: int = 5) -> dict:
    """The environment's figures (see the module docs)."""
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # noqa: F401
    except ImportError:
        return {"env": "not installed (pip install skatcore[env])"}
    null = NullDeal()
    loops = {"env": env_deal_loop(rules.name, random.Random(1)),
             "null_protocol": agent_loop(null, null, random.Random(1)),
             "env_observed": env_deal_loop(rules.name, random.Random(1), observe=True),
             "deal_loop": random_deal_loop(rules, random.Random(1))}
    try:
        import pyspiel

        loops["openspiel"] = openspiel_deal_loop(pyspiel.load_game("skat"), random.Random(1))
    except ImportError:
        pass
    rates: dict[str, list[float]] = {k: [] for k in loops}
    for _ in range(turns):
        for key, loop in loops.items():
            rates[key].append(timed(loop, seconds / len(loops)))
    out = {"env_deals_per_s": round(statistics.median(rates["env"])),
           "env_observed_deals_per_s": round(statistics.median(rates["env_observed"])),
           "env_turns_deal_loop_deals_per_s": round(statistics.median(rates["deal_loop"])),
           "env_vs_deal_loop": _ratio(rates["env"], rates["deal_loop"]),
           "env_null_protocol_deals_per_s": round(statistics.median(rates["null_protocol"]))}
    if "openspiel" in rates:
        out["env_turns_openspiel_python_api_deals_per_s"] = round(statistics.median(rates["openspiel"]))
        out["env_vs_openspiel_python_api"] = _ratio(rates["env"], rates["openspiel"])
        out["env_observed_vs_openspiel_python_api"] = _ratio(rates["env_observed"], rates["openspiel"])
        out["deal_loop_vs_openspiel_python_api_env_turns"] = _ratio(rates["deal_loop"], rates["openspiel"])
        out["null_protocol_vs_openspiel_python_api"] = _ratio(rates["null_protocol"], rates["openspiel"])
    return out


def _ratio(a: list[float], b: list[float]) -> float:
    return round(statistics.median(x / y for x, y in zip(a, b, strict=True)), 2)
