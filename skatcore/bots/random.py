"""The random player: uniform over the legal actions."""

from __future__ import annotations

import random

from skatcore.engine.deal import Call, SeatView
from skatcore.rules.compiler import CompiledRules


class RandomPlayer:
    """Uniformly random among the legal actions (and table calls, rarely)."""

    def __init__(self, seed: int | None = None, rules: CompiledRules | None = None):
        self.rng = random.Random(seed)

    def act(self, view: SeatView):
        legal = view.legal
        return legal[int(self.rng.random() * len(legal))]

    def call(self, view: SeatView) -> list[Call]:
        return [c for c in view.legal if self.rng.random() < 0.1]

