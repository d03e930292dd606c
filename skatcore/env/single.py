"""One seat of Skat against skatcore's players, as a Gymnasium environment:
:class:`SkatSingleAgent` (docs/env.md).

The agent plays the seat ``seat`` (``None``: the seats a person plays in
turn, deal by deal, as ``skat duel`` seats its lone player); the other
persons are skatcore players (``opponents``: ``expert``, ``heuristic``,
``random`` or any name ``skat simulate`` takes), seeded as ``skat simulate``
seeds them for that deal.  An episode is one deal: the agent's decisions are
its steps, numbered as in :mod:`skatcore.env.skat_v0`; the observation is the
flat array of :class:`~skatcore.env.encoding.ObservationEncoder`, the legal
actions ``info["action_mask"]`` and :meth:`SkatSingleAgent.action_masks`
(as maskable learners ask).  The reward, at the end, is the seat's sheet entry
(``reward`` as in skat_v0).  An illegal action ends the deal with
``illegal_reward`` (-1000: below what a deal loses under the shipped rules
but the biggest games with Kontra and Re; set your own), so that an agent
without the mask learns to avoid them.  Needs the ``env`` extra (gymnasium).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from skatcore.bots import call_view, resolve_player
from skatcore.engine.actions import PASS, Call, Phase
from skatcore.engine.deal import Deal
from skatcore.engine.table import people
from skatcore.env.encoding import ActionCatalogue, ObservationEncoder, Turns
from skatcore.env.rewards import REWARDS, deal_rewards
from skatcore.env.skat_v0 import raw_env, render_text
from skatcore.errors import InputError
from skatcore.model import SEATS
from skatcore.sim.play import seeded_deal


class SkatSingleAgent(gymnasium.Env):
    """See the module docs."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012 (gymnasium's instance field)

    def __init__(self, ruleset: str = "official", opponents: str = "heuristic", seat: int | None = None,
                 reward: str = "sheet", render_mode: str | None = None, illegal_reward: float = -1000.0) -> None:
        if reward not in REWARDS:
            raise InputError(f"reward {reward!r}: expected one of {', '.join(REWARDS)}")
        if render_mode not in (None, "human", "ansi"):
            raise InputError(f"render_mode {render_mode!r}: expected one of human, ansi, or None")
        self._pz = raw_env(ruleset=ruleset, reward=reward)  # the deals and the rewards, as the AEC env has them
        self.rules = rules = self._pz.rules
        self.persons = people(rules)
        if seat is not None and seat not in self.persons:
            raise InputError(f"seat {seat}: expected one a person plays under {rules.name}: "
                             f"{', '.join(str(s) for s in self.persons)}")
        self.fixed_seat, self.render_mode, self.illegal_reward, self.reward = seat, render_mode, illegal_reward, reward
        self.factory = resolve_player(opponents)
        self.catalogue: ActionCatalogue = self._pz.catalogue
        self.encoder: ObservationEncoder = self._pz.encoder
        self.observation_space = spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32)
        self.action_space = spaces.Discrete(self.catalogue.size)
        self.seat = seat if seat is not None else self.persons[0]
        self.players: list[Any] = [None, None, None]
        self.deal: Deal | None = None
        self.turns: Turns | None = None

    # -- episodes ----------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        if seed is None and self._pz.seed_value is None:  # gymnasium's own generator chooses the run
            seed = int(self.np_random.integers(0, 2**62))
        while True:
            self._pz.reset(seed=seed, options=options)
            seed, options = None, None
            i = self._pz.deal_index
            self.seat = self.fixed_seat if self.fixed_seat is not None else self.persons[i % len(self.persons)]
            pseeds = seeded_deal(self._pz.seed_value or 0, i)[2]  # the players' seeds of skat simulate's deal i
            self.players = [None if s == self.seat else self.factory(rules=self.rules, seed=pseeds[s]) for s in range(3)]
            self.deal, self.turns = self._pz.deal, self._pz.turns
            self._others()
            if self.turns.person == self.seat:  # type: ignore[union-attr]
                break  # (a deal over before the agent decides: the next one)
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        turns = self.turns
        if turns is None or turns.person != self.seat:
            raise ValueError("the deal is over: reset() first")
        if int(action) not in turns.legal():
            self.turns = None  # the deal ends here
            return self.encoder.encode(self.deal, self.seat), self.illegal_reward, True, False, \
                {"action_mask": np.zeros(self.catalogue.size, np.int8), "seat": SEATS[self.seat], "illegal": True}
        turns.apply(int(action))
        self._others()
        done = turns.person is None
        reward = 0.0
        if done:
            reward = float(deal_rewards(self.deal.result(), self.persons, self.reward)[self.seat])  # type: ignore[union-attr]
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, done, False, self._info()

    def _others(self) -> None:
        """Let skatcore's players decide until it is the agent's turn or the deal is over."""
        turns, deal = self.turns, self.deal
        assert turns is not None and deal is not None
        while True:
            person = turns.person
            if person is None or person == self.seat:
                return
            player = self.players[person]
            seat = turns.actor
            assert seat is not None
            said = first_call(player, deal, seat) if turns.answering is not None or deal.phase is Phase.PLAY else None
            if said is not None:
                turns.apply_action(said)
            else:  # no call: a pass where it answers one, else its move
                turns.apply_action(PASS if turns.answering is not None else player.act(deal.view(seat)))

    def _obs(self) -> np.ndarray:
        return self.encoder.encode(self.deal, self.seat, self.turns)

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (what maskable learners ask for)."""
        mask = np.zeros(self.catalogue.size, bool)
        if self.turns is not None and self.turns.person == self.seat:
            mask[list(self.turns.legal())] = True
        return mask

    def _info(self) -> dict:
        return {"action_mask": self.action_masks().astype(np.int8), "seat": SEATS[self.seat]}

    def describe(self, action: int) -> str:
        """What action index ``action`` does (``bid 18``, ``play CJ`` ...)."""
        return self.catalogue.describe(action)

    def render(self) -> str | None:
        """The deal as text: printed (``render_mode="human"``) or returned (``"ansi"``)."""
        text = render_text(self.deal, self.turns)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def first_call(player, deal: Deal, seat: int) -> Call | None:
    """The first table call (Kontra, Re ...) ``player`` makes of those
    ``seat`` may make now, or ``None``: it makes none, may make none, or is
    a player that makes no calls."""
    opts = deal.legal_calls(seat)
    if not opts or not hasattr(player, "call"):
        return None
    return next((c for c in player.call(call_view(deal.view(seat), opts)) or () if c in opts), None)
