"""``skat bench``: full deals per second through a compiled ruleset.

* ``random_deal_loop_deals_per_s`` - one :class:`~skatcore.engine.deal.Deal` at a
  time, each action drawn uniformly from ``legal_actions()`` (bidding, skat,
  10 tricks, score).
* ``random_compiled_deals_per_s`` - the numba-compiled engine
  (:mod:`skatcore.engine.compiled`), random players too, when the ruleset
  has no step it cannot model.
* ``random_deals_per_s`` - the faster of the two.
* ``random_players_deals_per_s`` - :class:`~skatcore.bots.RandomPlayer`
  through the player protocol (a :class:`SeatView` per decision).
* ``heuristic_deals_per_s`` - three :class:`~skatcore.bots.HeuristicPlayer`
  through ``Deal``.
* ``heuristic_compiled_deals_per_s`` - the same table through the compiled
  heuristic (:mod:`skatcore.sim.fastpath`), as ``skat simulate`` runs it
  (a ruleset the compiled engine does not play: the Python path again).
* ``numba_compile_s``, ``score_{json,yaml}_records_per_s``,
  ``score_iss_games_per_s``, ``help_cpu_s`` and, with ``compare_openspiel``,
  ``openspiel_cpp_rollouts_per_s``: see :mod:`skatcore.sim.speed`.
* ``solver_opening_ms_median`` and ``solver_nodes_per_s`` - the double-dummy
  solver (:mod:`skatcore.bots.solver`) on opening 30-card positions: "does
  forehand reach 61?" in the suit (or grand, with two jacks or more) where
  forehand holds the most trumps, the skat's points counted for him.

All on one core, in this process, per CPU second of the process
(``time.process_time``), so that other work on the machine disturbs the
figures less than it would wall-clock ones.  A measurement, never a test.
"""

from __future__ import annotations

import os
import platform
import random
import time
from collections.abc import Callable

from skatcore.engine.deal import Deal, deal_cards
from skatcore.rules.compiler import get_rules
from skatcore.sim.simulate import run_chunk
from skatcore.sim.speed import compile_figures, openspiel_figures, score_figures, startup_figures, timed


def bench(ref: str = "official", seconds: float = 2.0, log: Callable[[str], None] | None = print,
          compare_openspiel: bool = False) -> dict:
    rules = get_rules(ref)
    rng = random.Random(1)
    out: dict = {"ruleset": rules.name}

    def deal_loop(n=500):
        for _ in range(n):
            d = Deal(rules, *deal_cards(rng, rules.deck))
            while not d.done:
                legal = d.legal_actions()
                d.apply(legal[int(rng.random() * len(legal))])
            d.result()
        return n

    out["random_deal_loop_deals_per_s"] = round(timed(deal_loop, seconds))
    if log:
        log(f"random players, Deal loop:       {out['random_deal_loop_deals_per_s']:>8} deals/s")
    try:
        from skatcore.engine.compiled import Unsupported, play_random

        seeds = iter(range(1, 10**9))
        out["random_compiled_deals_per_s"] = round(timed(lambda: len(play_random(rules, 50000, next(seeds))), seconds))
        out.update(compile_figures(ref))
        if log:
            log(f"random players, compiled engine: {out['random_compiled_deals_per_s']:>8} deals/s "
                f"(first compile {out['numba_compile_s']} s CPU, once per machine)")
    except Unsupported:
        pass
    out["random_deals_per_s"] = max(out["random_deal_loop_deals_per_s"], out.get("random_compiled_deals_per_s", 0))

    starts = iter(range(0, 10**9, 2000))

    def chunk(slots, compiled=False, size=200):
        def step():
            a = next(starts)
            run_chunk(((ref,), slots, 1, a, a + size), path="auto" if compiled else "exact")
            return size
        return step

    out["random_players_deals_per_s"] = round(timed(chunk(("random",) * 3), seconds))
    if log:
        log(f"RandomPlayer via SeatView:       {out['random_players_deals_per_s']:>8} deals/s")
    out["heuristic_deals_per_s"] = round(timed(chunk(("heuristic",) * 3), seconds))
    if log:
        log(f"HeuristicPlayer x3:              {out['heuristic_deals_per_s']:>8} deals/s")
    out["heuristic_compiled_deals_per_s"] = round(timed(chunk(("heuristic",) * 3, True, 2000), seconds))
    if log:
        log(f"heuristic x3, compiled:          {out['heuristic_compiled_deals_per_s']:>8} deals/s "
            f"(skat simulate's path, deals dealt as there)")
    out.update(solver_figures(rules, seconds))
    if log:
        log(f"solver, opening 30 cards, 61?:   {out['solver_opening_ms_median']:>8} ms median, "
            f"{out['solver_nodes_per_s'] / 1e6:.1f}M nodes/s")
    out.update(score_figures(rules, seconds))
    out.update(startup_figures())
    if log:
        for fmt in ("json", "yaml"):
            log(f"skat score, {fmt.upper()} records:       {out[f'score_{fmt}_records_per_s']:>8} records/s")
        log(f"skat score, ISS .sgf games:      {out['score_iss_games_per_s']:>8} games/s")
        log(f"skat --help:                     {out['help_cpu_s']:>8} s CPU (python -c pass {out['python_pass_cpu_s']} s)")
    if compare_openspiel:
        out.update(openspiel_figures(seconds))
        cpp = out.get("openspiel_cpp_rollouts_per_s")
        if cpp and "random_compiled_deals_per_s" in out:
            out["compiled_vs_openspiel_cpp"] = round(out["random_compiled_deals_per_s"] / cpp, 1)
        if log and cpp:
            log(f"OpenSpiel C++ random rollouts:   {cpp:>8} /s (its Python API "
                f"{out['openspiel_python_api_deals_per_s']} deals/s); compiled engine "
                f"{out.get('compiled_vs_openspiel_cpp', '-')}x")
        elif log:
            log(f"OpenSpiel: {out['openspiel']}")
    out["python"] = platform.python_version()
    out["cpus"] = os.cpu_count()
    return out


def solver_figures(rules, seconds: float, seed: int = 1) -> dict:
    """Median CPU time and node rate of the solver on opening positions."""
    from skatcore.bots.solver import Position, Solver

    games = [c for c in rules.contracts.values() if c.family in ("suit", "grand")]
    if not games:
        return {}
    rng = random.Random(seed)
    times: list[float] = []
    nodes = 0

    def one():
        nonlocal nodes
        hands, skat = deal_cards(rng, rules.deck)
        mine = set(hands[0]) | set(skat)
        def trumps(c):
            return len(mine & set(rules.tricks[c.name].trumps))
        best = max(games, key=trumps)
        if any(c.family == "grand" for c in games) and len(mine & {3, 11, 19, 27}) >= 2 and rng.random() < 0.35:
            best = next(c for c in games if c.family == "grand")
        table = rules.tricks[best.name]
        solver = Solver(table, declarer=0)
        pos = Position(tuple(sum(1 << c for c in h) for h in hands), 0, ())
        need = rules.thresholds.win - sum(table.points[c] for c in skat)
        t0 = time.process_time()
        solver.reaches(pos, need)
        times.append(time.process_time() - t0)
        nodes += solver.nodes
        return 1

    one()  # compile
    times.clear()
    nodes = 0
    timed(one, seconds)
    times.sort()
    return {"solver_opening_ms_median": round(1000 * times[len(times) // 2], 2),
            "solver_nodes_per_s": round(nodes / sum(times))}
