"""How fast could a PettingZoo environment of Skat be in Python at all?

``skat bench`` puts the environment (skatcore.env.skat_v0) beside OpenSpiel's
skat through its Python API and beside ``NullDeal``, PettingZoo's loop with
no game behind it.  This tool adds the cheapest game one could put behind
that loop: **the card play alone** (30 decisions and the three closing
steps; no bidding, skat, declaration or scoring), each card checked,
played and the trick taken in one call of a numba function on the
official ruleset's compiled tables, the legal cards kept as a mask, the
seeded deals of ``skat simulate``.  Everything a real environment adds on
top (nine more decisions, the rules' flow, the reward) only costs more, so
if this loop is not faster than OpenSpiel's whole deal, no environment in
Python driven through PettingZoo's protocol is.

    python tools/env_floor.py --seconds 3 --turns 3

Prints, per CPU second: OpenSpiel's random deals, the null protocol's, the
card-play floor's and the environment's, each timed by turns in one run
(the median of the turns), and their ratios to OpenSpiel's.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections.abc import Callable

import numpy as np
from numba import njit

from skatcore.engine.compiled import engine_tables
from skatcore.engine.deal import PACKETS
from skatcore.engine.kernel import trick_winner
from skatcore.rules import get_rules
from skatcore.sim.dealing import seeded_decks
from skatcore.sim.env_speed import NullDeal, agent_loop, env_deal_loop
from skatcore.sim.speed import openspiel_deal_loop, timed

NAMES = ("player_0", "player_1", "player_2")
HANDS, TO_MOVE, IN_TRICK, TRICK, LEADER, CONTRACT, POINTS, TAKEN, SHAPES = 0, 3, 4, 5, 8, 9, 10, 13, 14
DONE = 1 << 40


@njit(cache=False)  # a tool, loaded as __main__ or by a test: no cache file tied to a module name
def play_card(buf, card):
    """Seat ``buf[TO_MOVE]`` plays ``card``: -1 if it may not; else the next
    seat's legal cards (a mask) | its seat << 33, or ``DONE`` after the last
    trick.  ``buf``: the state (16 words), then the tables, their shapes in
    ``buf[SHAPES:]`` - one array, as an argument costs the call ~0.1 us."""
    n_c, n_cls = buf[SHAPES], buf[SHAPES + 1]
    at = 16
    follow = buf[at:at + n_c * 32].reshape(n_c, 32)
    at += n_c * 32
    class_mask = buf[at:at + n_c * n_cls].reshape(n_c, n_cls)
    at += n_c * n_cls
    strength = buf[at:at + n_c * n_cls * 32].reshape(n_c, n_cls, 32)
    at += n_c * n_cls * 32
    points = buf[at:at + n_c * 32].reshape(n_c, 32)
    seat = buf[TO_MOVE]
    hand = buf[HANDS + seat]
    bit = 1 << card
    c = buf[CONTRACT]
    n = buf[IN_TRICK]
    if not hand & bit:
        return -1
    if n > 0:
        follows = hand & class_mask[c, follow[c, buf[TRICK]]]
        if follows and not follows & bit:
            return -1
    buf[HANDS + seat] = hand ^ bit
    buf[TRICK + n] = card
    if n < 2:
        buf[IN_TRICK] = n + 1
        nxt = (seat + 1) % 3
    else:
        w, p = trick_winner(c, buf[LEADER], buf[TRICK:TRICK + 3], follow, strength, points)
        buf[POINTS + w] += p
        buf[TAKEN] += 1
        buf[IN_TRICK] = 0
        buf[LEADER] = w
        if buf[TAKEN] == 10:
            return DONE
        nxt = w
    buf[TO_MOVE] = nxt
    legal = buf[HANDS + nxt]
    if buf[IN_TRICK] > 0:
        follows = legal & class_mask[c, follow[c, buf[TRICK]]]
        if follows:
            legal = follows
    return legal | (nxt << 33)


class CardPlayOnly(NullDeal):
    """The card play of a deal behind PettingZoo's protocol (see the module
    docs): the null deal's agents, ``agent_iter``, ``last`` and closing steps."""

    def __init__(self, ruleset: str = "official", seed: int = 1) -> None:
        super().__init__()
        rules = get_rules(ruleset)
        arrays = engine_tables(rules).arrays
        follow, class_mask, strength, points = arrays[5], arrays[6], arrays[7], arrays[8]
        self.n_contracts = follow.shape[0]
        tables = [np.asarray(t, np.int64).ravel() for t in (follow, class_mask, strength, points)]
        self.state = np.concatenate([np.zeros(16, np.int64), *tables])
        self.state[SHAPES], self.state[SHAPES + 1] = class_mask.shape
        # the hands of skat simulate's first 4,096 deals, dealt before any timing (a floor: the env deals each reset)
        self.hands = [[sum(1 << deck[k] for k in packet) for packet in PACKETS] for deck in seeded_decks(seed, 0, 4096).tolist()]
        self.i = 0
        self._legal: tuple[int, ...] | None = None
        self._key = 0
        self._by_key: dict[int, tuple[int, ...]] = {}
        play_card(self.state, 0)  # compiled before any timing

    def reset(self) -> None:
        super().reset()
        hands = self.hands[self.i % len(self.hands)]
        self.i += 1
        st = self.state
        st[:SHAPES] = 0
        st[HANDS], st[HANDS + 1], st[HANDS + 2] = hands
        st[CONTRACT] = self.i % self.n_contracts  # each contract in turn, forehand leads
        self._key, self._legal = int(st[HANDS]), None
        self.agent_selection = NAMES[0]

    def legal_actions(self) -> tuple[int, ...]:
        legal = self._legal
        if legal is None:
            key = self._key
            legal = self._by_key.get(key)
            if legal is None:
                legal = tuple(c for c in range(32) if key >> c & 1)
                if len(self._by_key) < 1 << 16:
                    self._by_key[key] = legal
            self._legal = legal
        return legal

    def step(self, action: int | None) -> None:
        if action is None:
            super().step(None)  # a closing step
            return
        self.stepped = True
        r = play_card(self.state, action)
        if 0 <= r < DONE:
            self._legal, self._key = None, r & 0xFFFFFFFF
            self.agent_selection = NAMES[r >> 33]
        elif r == DONE:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            raise ValueError(f"card {action} is not legal now")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per loop and turn (default 3)")
    ap.add_argument("--turns", type=int, default=3, help="turns of all loops (default 3)")
    args = ap.parse_args(argv)
    import pyspiel

    null, floor = NullDeal(), CardPlayOnly()
    os_deal = openspiel_deal_loop(pyspiel.load_game("skat"), random.Random(1))

    def openspiel(n: int = 100) -> int:
        for _ in range(n):
            os_deal()
        return n

    loops: dict[str, Callable[..., int]] = {
        "openspiel_python_api": openspiel,
        "null_protocol": agent_loop(null, null, random.Random(1)),
        "card_play_floor": agent_loop(floor, floor, random.Random(1)),
        "env": env_deal_loop("official", random.Random(1)),
    }
    rates: dict[str, list[float]] = {k: [] for k in loops}
    for _ in range(args.turns):
        for key, loop in loops.items():
            rates[key].append(timed(loop, args.seconds))
    out: dict[str, float] = {f"{k}_deals_per_s": round(statistics.median(v)) for k, v in rates.items()}
    for key in ("null_protocol", "card_play_floor", "env"):
        out[f"{key}_vs_openspiel"] = round(statistics.median(
            a / b for a, b in zip(rates[key], rates["openspiel_python_api"], strict=True)), 2)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
