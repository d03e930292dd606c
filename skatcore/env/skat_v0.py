"""Skat under any ruleset as a PettingZoo AEC environment (docs/env.md).

``from skatcore.env import skat_v0; env = skat_v0.env(ruleset="texas")``.
One episode is one deal.  The agents are the persons at the table, named
as PettingZoo names players, by seat: ``player_0`` forehand, ``player_1``
middlehand, ``player_2`` rearhand (at a table of two, the two seats a person
plays: ``player_0`` and ``player_2`` at a straw man's table); a straw man is played by the defender's
agent, a seat nobody plays (Oma) moves by itself.  Every decision of the
deal is a step - bids, yes and pass, picking up or hand, the discard card by
card, the declaration, the steps' own actions (pushes ...), table calls,
the cards - numbered by :class:`~skatcore.env.encoding.ActionCatalogue`;
the observation is ``{"observation": ..., "action_mask": ...}``, the
observation the flat float32 array of
:class:`~skatcore.env.encoding.ObservationEncoder` (``observation="dict"``:
its blocks by name).  Rewards come at the end of the deal: each person's
sheet entry (``reward="sheet"``), its classic settlement against the others
(``"classic"``: persons x own entry - the sum of all, zero-sum) or its
Seeger-Fabian points (``"seeger_fabian"``).

``reset(seed=S)`` deals deal 0 of ``skat simulate --seed S``; each later
``reset()`` without a seed the next deal of that run (``options={"deal": i}``:
deal ``i``).  An illegal action raises ``ValueError``; ``illegal_reward=x``
ends the deal instead, ``x`` for the agent that chose it and 0 for the rest.

No ``parallel_env``: Skat is turn-based throughout, one person decides at a
time, so a parallel step would hold one action and ignore the others.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from skatcore.cards import cards_in, name
from skatcore.engine.actions import PLAYS, Phase
from skatcore.engine.deal import PACKETS, Deal, deal_cards
from skatcore.engine.table import people
from skatcore.env.encoding import ActionCatalogue, ObservationEncoder, Turns
from skatcore.env.rewards import REWARDS, deal_rewards
from skatcore.errors import InputError
from skatcore.model import SEATS, STANDARD_DECK
from skatcore.rules.compiler import get_rules
from skatcore.sim.dealing import seeded_decks
from skatcore.sim.play import deal_rng

_BATCH = 64
_PLAY = Phase.PLAY


def env(**kwargs) -> AECEnv:
    """The environment as PettingZoo's classic games come: :class:`raw_env`
    in PettingZoo's ``OrderEnforcingWrapper`` (bounds and legality the env
    checks itself), whose ``last``, ``step`` and ``agent_iter`` go straight to
    the env (:class:`OrderEnforcing`)."""
    return OrderEnforcing(raw_env(**kwargs))


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order enforcing with the same checks, but once reset,
    ``last``, ``step`` and ``agent_iter`` are the env's own: the wrapper's
    attribute forwarding (``__getattr__`` twice per attribute, eight
    attributes a move) and its extra call cost more than the deal's own
    move.  The env keeps the flag the iterator checks (``stepped``) and
    warns of a step after the deal itself."""

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        super().reset(seed=seed, options=options)
        self.last, self.step = self.env.last, self.env.step

    def agent_iter(self, max_iter: int = 2**63):
        if not self._has_reset:
            return super().agent_iter(max_iter)
        return agent_generator(self.env, max_iter)


def agent_generator(env: raw_env, max_iter: int):
    """PettingZoo's ``AECOrderEnforcingIterator`` over the env unwrapped (a
    generator: resuming one costs less than a ``__next__`` method)."""
    while env.agents and max_iter > 0:
        max_iter -= 1
        assert env.stepped, "need to call step() or reset() in a loop over `agent_iter`"
        env.stepped = False
        yield env.agent_selection


class raw_env(AECEnv):
    """One deal of Skat under ``ruleset`` (a shipped name, a file, anything
    ``skat --ruleset`` takes).  See the module docs."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "skat_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(self, ruleset: str = "official", render_mode: str | None = None, reward: str = "sheet",
                 observation: str = "flat", illegal_reward: float | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "human", "ansi"):
            raise InputError(f"render_mode {render_mode!r}: expected one of human, ansi, or None")
        if reward not in REWARDS:
            raise InputError(f"reward {reward!r}: expected one of {', '.join(REWARDS)}")
        if observation not in ("flat", "dict"):
            raise InputError(f"observation {observation!r}: expected flat or dict")
        self.rules = rules = get_rules(ruleset)
        self.render_mode, self.reward, self.observation_mode, self.illegal_reward = render_mode, reward, observation, illegal_reward
        self.catalogue = cat = ActionCatalogue(rules)
        self.encoder = enc = ObservationEncoder(rules, cat)
        self.persons = people(rules)
        self.possible_agents = [f"player_{s}" for s in self.persons]
        self._agent_of = {s: f"player_{s}" for s in self.persons}
        self._seat_of = {a: s for s, a in self._agent_of.items()}
        if observation == "flat":
            obs_space: spaces.Space = spaces.Box(0.0, 1.0, (enc.size,), np.float32)
        else:
            obs_space = spaces.Dict({k: spaces.Box(0.0, 1.0, enc.shapes.get(k, (s.stop - s.start,)), np.float32)
                                     for k, s in enc.offsets.items()})
        space = spaces.Dict({"observation": obs_space, "action_mask": spaces.Box(0, 1, (cat.size,), np.int8)})
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(cat.size) for a in self.possible_agents}
        self.seed_value: int | None = None
        self.deal_index = 0
        self.deal: Deal | None = None
        self.turns: Turns | None = None
        # the short paths of legal_actions and step (three persons, no table calls, nothing printed per move): the env
        # keeps the legal indices itself and makes each decision straight on the deal, a discard's cards through Turns
        self._fast = rules.table.plain and not rules.calls and render_mode != "human"
        self._made = tuple(cat.action(i) for i in range(cat.size))  # index -> the engine's action (put away: None)
        self._by_mask: dict[int, Sequence[int]] = {}  # legal cards (a mask) -> their indices
        self._legal: Sequence[int] | None = None  # legal_actions(), until the next step
        self._names = [f"player_{s}" if s in self.persons else "" for s in range(3)]
        self._seat_names = [(a, SEATS[s]) for s, a in self._agent_of.items()]  # each agent and its seat's name
        self._batch: list[list[int]] = []
        self._batch_key: tuple[int, int] | None = None
        self.stepped = False  # a step or reset since agent_iter's last agent (OrderEnforcing's check)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- episodes --------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self.seed_value, self.deal_index = int(seed), 0
        elif self.seed_value is None:
            self.seed_value, self.deal_index = random.SystemRandom().getrandbits(63), 0
        else:
            self.deal_index += 1
        if options and "deal" in options:
            self.deal_index = int(options["deal"])
        self.deal = deal = Deal(self.rules, *self.dealt(self.seed_value, self.deal_index))
        self.turns = Turns(self.catalogue, deal)
        self._legal = None
        self.seat_agents()
        person = self.turns.person
        if person is None:  # a deal over before anybody decides (never under the shipped rules)
            self._finish()
        else:
            self.agent_selection = self._agent_of[person]
        if self.render_mode == "human":
            self.render()

    def seat_agents(self) -> None:
        """Every agent at the table for a new deal: no reward yet, none terminated, each told its seat."""
        self.stepped = True
        self.agents = agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(agents, 0)
        self._cumulative_rewards = dict.fromkeys(agents, 0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos = {a: {"seat": seat} for a, seat in self._seat_names}

    def dealt(self, seed: int, i: int) -> tuple:
        """The cards of deal ``i`` of ``skat simulate --seed seed``: hands, skat (and the cards laid aside)."""
        if self.rules.deck is not STANDARD_DECK:
            return deal_cards(deal_rng(seed, i), self.rules.deck)
        deck = self.deck(seed, i)
        return [[deck[k] for k in packet] for packet in PACKETS], deck[9:11]

    def deck(self, seed: int, i: int) -> list[int]:
        """The 32 cards of deal ``i`` of ``skat simulate --seed seed`` in dealing order (the standard deck)."""
        start = i - i % _BATCH
        if self._batch_key != (seed, start):  # the compiled dealing, _BATCH deals at a time (seeding costs a deal's moves)
            self._batch, self._batch_key = seeded_decks(seed, start, _BATCH).tolist(), (seed, start)
        return self._batch[i - start]

    # -- moves -------------------------------------------------------------------
    def legal_actions(self) -> Sequence[int]:
        """The indices the agent to move may choose (the action mask's ones; empty when the deal is over)."""
        legal = self._legal
        if legal is not None:
            return legal
        deal, turns = self.deal, self.turns
        if deal is None or turns is None:
            return ()
        if not self._fast:
            legal = turns.legal()
        elif deal.phase is _PLAY:  # the cards, from Deal's mask of them
            deal.legal_actions()
            mask = deal.legal_mask
            legal = self._by_mask.get(mask)  # type: ignore[arg-type]
            if legal is None:
                legal = self.catalogue.play_indices(mask)  # type: ignore[arg-type]
                if len(self._by_mask) < 1 << 16:
                    self._by_mask[mask] = legal  # type: ignore[index]
        else:
            legal = () if deal.done else self.catalogue.legal_indices(deal, turns.chosen)
        self._legal = legal
        return legal

    def step(self, action: Any) -> None:
        self.stepped = True
        if self._fast and action in (self._legal or self.legal_actions()):  # (the rewards stay 0 until the deal is over)
            self._legal = None
            deal = self.deal
            made = self._made[action]
            if made is None:
                self.turns.make(action)  # type: ignore[union-attr]  # a card put away: Turns gathers the discard
            else:
                deal.apply(made)  # type: ignore[union-attr]
            if deal.done:  # type: ignore[union-attr]
                self._finish()
            else:
                self.agent_selection = self._names[deal.to_move]  # type: ignore[union-attr, index]
            return
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self._legal = None
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        turns = self.turns
        try:
            if self._fast:
                raise ValueError(turns.illegal(action))  # type: ignore[union-attr]  # (not among legal_actions())
            turns.apply(action)  # type: ignore[union-attr]
        except (ValueError, TypeError, InputError) as exc:
            if self.illegal_reward is None:
                raise ValueError(str(exc)) from None
            self._cumulative_rewards[agent] = 0
            self.rewards = {a: (self.illegal_reward if a == agent else 0) for a in self.agents}  # type: ignore[misc]
            self._end()
            return
        self._cumulative_rewards[agent] = 0
        person = turns.person  # type: ignore[union-attr]
        if person is None:
            self._finish()
        else:
            self.agent_selection = self._agent_of[person]
        if self.render_mode == "human":
            self.render()

    def last(self, observe: bool = True) -> tuple:
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def _was_dead_step(self, action: Any) -> None:
        """PettingZoo's, for the one way agents end here: all at once, when the deal is over."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        for d in (self.terminations, self.truncations, self.rewards, self._cumulative_rewards, self.infos):
            del d[agent]
        self.agents.remove(agent)
        if self.agents:
            self.agent_selection = self.agents[0]
        for a in self.rewards:
            self.rewards[a] = 0

    def _finish(self) -> None:
        """The deal is over: each person's reward, every agent terminated."""
        r = self.deal.result()  # type: ignore[union-attr]
        names = self._names
        self.rewards = {names[s]: v for s, v in deal_rewards(r, self.persons, self.reward).items()}  # type: ignore[misc]
        self.infos = {a: {"seat": seat, "result": r.explanation, "game": r.game} for a, seat in self._seat_names}
        self._end()

    def _end(self) -> None:
        """Every agent terminated, its reward added (``_accumulate_rewards``; all 0 until now when the deal ended)."""
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    # -- what an agent sees ---------------------------------------------------------
    def observe(self, agent: str) -> dict:
        seat = self._seat_of[agent]
        turns = self.turns
        flat = self.encoder.encode(self.deal, seat, turns)
        mask = np.zeros(self.catalogue.size, np.int8)
        if turns is not None and turns.person == seat:
            mask[list(self.legal_actions())] = 1  # (never Turns.legal directly: the short path of step leaves its cache alone)
        if self.observation_mode == "dict":
            enc = self.encoder
            obs: Any = {k: flat[s].reshape(enc.shapes.get(k, (s.stop - s.start,))) for k, s in enc.offsets.items()}
        else:
            obs = flat
        return {"observation": obs, "action_mask": mask}

    def describe(self, action: int) -> str:
        """An action index in words (``play CJ``, ``bid 18`` ...)."""
        return self.catalogue.describe(action)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        text = render_text(self.deal, self.turns)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def render_text(deal: Deal | None, turns: Turns | None) -> str:
    """The deal in text: every hand, the skat, the bidding and the game, the tricks so far, who decides."""
    if deal is None:
        return "(no deal yet: reset() first)"
    lines = [f"ruleset {deal.rules.name}"]
    for s in deal.rules.deck.seats:
        pile = deal.piles.get(s)
        lines.append(f"  {SEATS[s]:<10} {' '.join(name(c) for c in cards_in(deal.hands[s]))}"
                     + (f" (face down: {' '.join(name(c) for c in pile)})" if pile else ""))
    lines.append(f"  {'skat':<10} {' '.join(name(c) for c in cards_in(deal.skat))}")
    said = [f"{SEATS[who]} {a}" for who, a in deal.history if a not in PLAYS]
    if said:
        lines.append("  said: " + ", ".join(said))
    if deal.declaration is not None:
        d = deal.declaration
        lines.append(f"  game: {SEATS[deal.declarer] if deal.declarer is not None else 'nobody'} plays {d.game}" + ("".join(f", {a}" for a in sorted(d.announced))))
    for t, trick in enumerate(deal.tricks, 1):
        lines.append(f"  trick {t}: {SEATS[trick.leader]} leads {' '.join(name(c) for c in trick.cards)}"
                     + (f" - {SEATS[trick.winner]} takes it" if trick.winner is not None else ""))
    if deal.done:
        lines.append(f"  result: {deal.result().explanation}")
    elif turns is not None and turns.actor is not None:
        lines.append(f"  to decide: {SEATS[turns.actor]}")
    return "\n".join(lines)
