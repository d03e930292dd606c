"""``skat duel A B``: duplicate play.  Every deal is played twice with the
seats swapped between the two players - A alone in one seat and B in the
other two, then B alone there and A in the other two - so that each player
holds every hand once and luck of the cards cancels out.  The lone seat
rotates with the deal number over the seats a person plays (at a table of
two, a straw man is played by whoever defends: A against B every deal).

Reported (JSON keys ``A``/``B`` for the two sides): the mean per-deal difference of A's and B's sheet points (classic
and Seeger-Fabian) with 95% intervals, each side's declarer win rate (and
their difference, by a seeded bootstrap), and the contracts each side
declares; the players' own counters (``bot_counters``: the expert's
``pimc_moves`` and ``fallback_moves``) and their rates (``bot_rates``: the
expert's layouts per decision, the share of its decisions inference
changed, its fallbacks), by side."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from skatcore.bots import resolve_player
from skatcore.engine.table import people
from skatcore.rules.compiler import get_rules
from skatcore.sim.counters import counter_rates, rate_specs
from skatcore.sim.play import all_passed, play_seeded, seeded_deal
from skatcore.sim.simulate import check_args, chunks, map_chunks, seat_points
from skatcore.sim.stats import MeanSums, RatioBoot


@dataclass
class DuelStats:
    """Mergeable sums of a duel; side 0 is player A, side 1 player B."""

    ruleset: str
    players: tuple[str, str]
    seed: int
    classic: MeanSums = field(default_factory=lambda: MeanSums(2))
    sf: MeanSums = field(default_factory=lambda: MeanSums(2))
    wins: RatioBoot = field(default_factory=lambda: RatioBoot(2))
    contracts: list = field(default_factory=lambda: [Counter(), Counter()])
    passed: int = 0
    plays: int = 0
    bots: list = field(default_factory=lambda: [Counter(), Counter()])

    def merge(self, other: DuelStats) -> DuelStats:
        self.classic.merge(other.classic)
        self.sf.merge(other.sf)
        self.wins.merge(other.wins)
        for mine, theirs in zip(self.contracts, other.contracts, strict=True):
            mine.update(theirs)
        self.passed += other.passed
        self.plays += other.plays
        for mine, theirs in zip(self.bots, other.bots, strict=True):
            mine.update(theirs)
        return self

    def to_json(self) -> dict:
        a, b = self.players
        n = self.classic.n
        mix = {}
        for side, label in enumerate("AB"):
            games = sum(self.contracts[side].values())
            mix[label] = {g: round(c / games, 4) for g, c in self.contracts[side].most_common()} if games else {}
        out = {
            "ruleset": self.ruleset, "players": [a, b], "deals": n, "seed": self.seed,
            "score_diff": self.classic.diff(1, 0).to_json(),
            "seeger_fabian_diff": self.sf.diff(1, 0).to_json(),
            "declarer_win_rate": {label: self.wins.value(side).to_json() for side, label in enumerate("AB")},
            "declarer_win_rate_diff": self.wins.diff(1, 0).to_json(),
            "declarer_games": {label: int(self.wins.den[side]) for side, label in enumerate("AB")},
            "contract_mix": mix,
            "passed_rate": round(self.passed / self.plays, 4) if self.plays else None,
        }
        if any(self.bots):
            out["bot_counters"] = {label: dict(sorted(self.bots[side].items())) for side, label in enumerate("AB")}
            rates = {label: counter_rates(self.bots[side], rate_specs([self.players[side]])) for side, label in enumerate("AB")}
            if any(rates.values()):
                out["bot_rates"] = rates
        return out


def duel_chunk(task) -> DuelStats:
    """Deals ``start..stop-1``, each played twice (a top-level function of
    plain arguments, for worker processes)."""
    ref, a, b, seed, start, stop = task
    rules = get_rules(ref)
    factories = (resolve_player(a), resolve_player(b))
    out = DuelStats(rules.name, (a, b), seed)
    classic = np.zeros((2, stop - start), dtype=np.int64)
    sf = np.zeros((2, stop - start), dtype=np.int64)
    num = np.zeros((2, stop - start))
    den = np.zeros((2, stop - start))
    persons = people(rules)
    for k, i in enumerate(range(start, stop)):
        dealt = seeded_deal(seed, i)
        lone = persons[i % len(persons)]
        for alone in (0, 1):  # the side seated alone at ``lone``
            side_of = [alone if s == lone else 1 - alone for s in range(3)]
            by_slot = [factories[side_of[(p + i) % 3]] for p in range(3)]  # slot p sits in seat (p + i) % 3
            deal, players = play_seeded(rules, by_slot, seed, i, dealt)
            for s in persons:
                out.bots[side_of[s]].update(getattr(players[s], "counters", None) or {})
            r = deal.result()
            out.plays += 1
            cl, pts = seat_points(r, persons)
            for s in range(3):
                classic[side_of[s], k] += cl[s]
                sf[side_of[s], k] += pts[s]
            if all_passed(deal):
                out.passed += 1
            if r.declarer is None or r.won is None:
                continue
            side = side_of[r.declarer]
            out.contracts[side][r.game] += 1
            den[side, k] += 1
            num[side, k] += bool(r.won)
    out.classic.add(classic)
    out.sf.add(sf)
    out.wins.add(seed, start, num, den)
    return out


def duel(ref: str, a: str, b: str, deals: int, seed: int, jobs: int = 1, progress=None) -> DuelStats:
    check_args([ref], deals, jobs, (a, b))
    total = DuelStats(get_rules(ref).name, (a, b), seed)
    tasks = [(ref, a, b, seed, x, y) for x, y in chunks(deals, jobs, size=max(1, min(50, -(-deals // max(1, jobs * 4)))))]
    for task, res in map_chunks(duel_chunk, tasks, jobs):
        total.merge(res)
        if progress:
            progress(task[5] - task[4])
    return total
