"""The expert's speed: deals per second of CPU for a table of three
experts, the CPU time of each decision (p50, p99, max), and where the time
goes by phase: the bidding, the skat (hand game or pickup), the discard
with the contract choice (the expert weighs the contracts at its discard),
the declaration itself, and card play; and the rates of the players' own
counters (the expert's layouts and solver nodes per card decision, the
share of layouts kept from its last decision: work that does not depend
on the machine).

CPU time (``time.process_time``), not the wall clock, so that other work on
the machine does not count; one process, so the figure is per core.

    python tools/expert_timing.py --deals 100 --seed 1
    python tools/expert_timing.py --deals 100 --player expert:worlds=20
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from typing import Any

import numpy as np

from skatcore.bots import resolve_player
from skatcore.engine.actions import Phase
from skatcore.rules import get_rules
from skatcore.sim.counters import counter_rates, rate_specs
from skatcore.sim.play import play, players_for, seeded_deal

# the phases reported: the expert weighs the contracts at its discard (what it declares is then decided), so the
# discard and the contract choice are one; a plugin's steps (Phase.STEP) count as the skat's
PHASES = {Phase.BIDDING: "bidding", Phase.SKAT: "skat", Phase.STEP: "skat", Phase.DISCARD: "discard_and_contract",
          Phase.DECLARE: "declare", Phase.PLAY: "card_play"}


class Timed:
    """A player whose every ``act`` is timed, by the phase of the view."""

    def __init__(self, inner: Any, times: list[float], by_phase: dict[str, float]):
        self.inner, self.times, self.by_phase = inner, times, by_phase
        self.counters = getattr(inner, "counters", None)

    def act(self, view: Any) -> Any:
        t = time.process_time()
        a = self.inner.act(view)
        dt = time.process_time() - t
        self.times.append(dt)
        self.by_phase[PHASES.get(view.phase, "other")] += dt
        return a


def timing(player: str, deals: int, seed: int, ruleset: str = "official") -> dict[str, Any]:
    """Play ``deals`` seeded deals with three ``player`` s; their CPU time in all, per decision and by phase."""
    rules = get_rules(ruleset)
    factory = resolve_player(player)
    times: list[float] = []
    by_phase: dict[str, float] = defaultdict(float)
    counters: Counter = Counter()
    play(rules, *seeded_deal(seed, 0)[:2], [factory(rules=rules, seed=s) for s in range(3)])  # compile first
    start = time.process_time()
    for i in range(deals):
        hands, skat, pseeds = seeded_deal(seed, i)
        players = [Timed(p, times, by_phase) for p in players_for(rules, [factory] * 3, seed, i, pseeds)]
        play(rules, hands, skat, players)
        for p in players:
            counters.update(p.counters or {})
    cpu = time.process_time() - start
    t = np.array(times)
    return {"player": player, "deals": deals, "seed": seed, "cpu_s": round(cpu, 2),
            "deals_per_cpu_s": round(deals / cpu, 2), "decisions": len(t),
            "decision_ms": {q: round(1000 * float(np.percentile(t, p)), 1) for q, p in (("p50", 50), ("p99", 99))}
            | {"max": round(1000 * float(t.max()), 1)},
            # the players' own time by phase (the engine's, between decisions, is the rest of cpu_s)
            "phase_cpu_s": {k: round(v, 2) for k, v in sorted(by_phase.items())},
            "phase_share": {k: round(v / cpu, 3) for k, v in sorted(by_phase.items())},
            # the players' own counters' rates (the expert's: machine-independent work per card decision)
            "rates": counter_rates(counters, rate_specs([player]))
            | ({"reused_share": round(counters["reused_worlds"] / counters["worlds"], 4)} if counters["worlds"] else {})}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--player", default="expert")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ruleset", default="official")
    args = ap.parse_args(argv)
    print(json.dumps(timing(args.player, args.deals, args.seed, args.ruleset)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
