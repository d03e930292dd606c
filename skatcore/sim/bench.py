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
* ``random_deal_loop_vs_openspiel_python_api`` (with ``compare_openspiel``) -
  the Deal loop over random full deals of OpenSpiel's skat (C++) through
  its Python API, the two timed by turns in the same run
  (:func:`~skatcore.sim.speed.deal_vs_openspiel`).
* ``env_deals_per_s``, ``env_observed_deals_per_s``, ``env_vs_deal_loop``
  and (with OpenSpiel installed) ``env_vs_openspiel_python_api``,
  ``env_observed_vs_openspiel_python_api`` - random full deals through
  the PettingZoo environment, without and with observations, timed by turns
  beside the Deal loop and OpenSpiel's Python API
  (:mod:`skatcore.sim.env_speed`; needs the ``env`` extra).
* ``numba_compile_s``, ``score_{json,yaml}_records_per_s``,
  ``score_iss_games_per_s``, ``help_cpu_s``, ``compare_vs_simulate_cpu`` and, with ``compare_openspiel``,
  ``openspiel_cpp_rollouts_per_s``: see :mod:`skatcore.sim.speed`.
* ``warmup_cpu_s``, ``warmup_wall_s`` - the last background compile of
  numba's cache (:mod:`skatcore.warmup`), when its note is there.
* ``solver_{declared,random}_{exact,61}_ms_{median,p90,p99,max}`` and
  ``solver_{declared,random}_nodes_per_s`` - the double-dummy solver
  (:mod:`skatcore.bots.solver`) on ``solver_positions`` opening 30-card
  positions of each kind (:mod:`skatcore.sim.solver_speed`): games a
  heuristic table declared (run 11) and random deals where forehand plays his
  longest trumps; the exact card points and "does the declarer reach 61", a
  cold transposition table each.  ``solver_opening_ms_median`` and
  ``solver_nodes_per_s``: the random kind's 61 question, as benches before
  issue 26 reported it (mostly clear losses: it flatters the solver).

All on one core, in this process, per CPU second of the process
(``time.process_time``), so that other work on the machine disturbs the
figures less than it would wall-clock ones.  A measurement, never a test.
"""

from __future__ import annotations

import os
import platform
import random
from collections.abc import Callable

from skatcore.rules.compiler import get_rules
from skatcore.sim.simulate import run_chunk
from skatcore.sim.speed import (
    compile_figures,
    deal_vs_openspiel,
    openspiel_figures,
    random_deal_loop,
    score_figures,
    startup_figures,
    timed,
    warmup_figures,
)

SOLVER_POSITIONS = 40  # openings of each kind the solver is timed on


def bench(ref: str = "official", seconds: float = 2.0, log: Callable[[str], None] | None = print,
          compare_openspiel: bool = False, solver_positions: int = SOLVER_POSITIONS) -> dict:
    rules = get_rules(ref)
    rng = random.Random(1)
    out: dict = {"ruleset": rules.name}

    out["random_deal_loop_deals_per_s"] = round(timed(random_deal_loop(rules, rng), seconds))
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
    from skatcore.sim.speed import compare_figures

    out.update(compare_figures(seconds))
    if log:
        log(f"skat compare {' '.join(out['compare_vs_simulate_rulesets'])}: {out['compare_vs_simulate_cpu']:>6}x "
            f"the CPU of skat simulate of each ({out['compare_vs_simulate_deals']} deals)")
    out.update(solver_figures(rules, solver_positions, log))
    out.update(score_figures(rules, seconds))
    out.update(startup_figures())
    out.update(warmup_figures())
    if log:
        for fmt in ("json", "yaml"):
            log(f"skat score, {fmt.upper()} records:       {out[f'score_{fmt}_records_per_s']:>8} records/s")
        log(f"skat score, ISS .sgf games:      {out['score_iss_games_per_s']:>8} games/s")
        log(f"skat --help:                     {out['help_cpu_s']:>8} s CPU (python -c pass {out['python_pass_cpu_s']} s)")
        if "warmup_cpu_s" in out:
            log(f"last background compile:         {out['warmup_cpu_s']:>8} s CPU ({out['warmup_wall_s']} s wall)")
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
        out.update(deal_vs_openspiel(rules, seconds))
        if log and "random_deal_loop_vs_openspiel_python_api" in out:
            log(f"Deal loop vs OpenSpiel's Python API, by turns: {out['random_deal_loop_vs_openspiel_python_api']}x "
                f"({out['random_deal_loop_turns_deals_per_s']} against {out['openspiel_python_api_turns_deals_per_s']} deals/s)")
    from skatcore.sim.env_speed import env_figures

    out.update(env_figures(rules, seconds, turns=3))
    if log and "env_deals_per_s" in out:
        versus = (f", {out['env_vs_openspiel_python_api']}x OpenSpiel's Python API "
                  f"({out['env_observed_vs_openspiel_python_api']}x observed)" if "env_vs_openspiel_python_api" in out else "")
        log(f"PettingZoo env, random deals:    {out['env_deals_per_s']:>8} deals/s, "
            f"{out['env_observed_deals_per_s']} observed; {out['env_vs_deal_loop']}x the Deal loop{versus}, by turns")
    out["python"] = platform.python_version()
    out["cpus"] = os.cpu_count()
    return out


def solver_figures(rules, positions: int = SOLVER_POSITIONS, log: Callable[[str], None] | None = print) -> dict:
    """The solver on ``positions`` openings of each kind (:mod:`skatcore.sim.solver_speed`):
    quantiles of the exact value and of the 61 question, nodes per second."""
    from skatcore.sim.simulate import progress_bar
    from skatcore.sim.solver_speed import declared_openings, random_openings, time_openings

    if positions <= 0:
        return {}
    kinds = {"declared": declared_openings(rules, positions), "random": random_openings(rules, positions)}
    kinds = {kind: openings for kind, openings in kinds.items() if openings}
    if "random" not in kinds:
        return {}
    time_openings(kinds["random"][:1])  # compile (or load from the cache)
    out: dict = {"solver_positions": positions}
    total = sum(len(o) for o in kinds.values())
    with progress_bar(total, "positions", enabled=None if log else False) as bar:
        task = bar.add_task("solver: opening positions", total=total)
        for kind, openings in kinds.items():
            f = time_openings(openings, tick=lambda: bar.advance(task))
            for q in ("exact", "question"):
                for stat, ms in f[f"{q}_ms"].items():
                    out[f"solver_{kind}_{'61' if q == 'question' else q}_ms_{stat}"] = round(ms, 2)
            out[f"solver_{kind}_nodes_per_s"] = f["nodes_per_s"]
    # the figures of earlier benches: "61?" on the random kind
    out["solver_opening_ms_median"] = out["solver_random_61_ms_median"]
    out["solver_nodes_per_s"] = out["solver_random_nodes_per_s"]
    if log:
        for kind, label in (("declared", "games a heuristic table declared"), ("random", "random deals")):
            if kind not in kinds:
                continue
            log(f"solver, {len(kinds[kind])} openings of {label}, ms median / p90 / p99 / max "
                f"({out[f'solver_{kind}_nodes_per_s'] / 1e6:.1f}M nodes/s):")
            for q, what in (("exact", "exact card points"), ("61", "does the declarer reach 61")):
                row = " / ".join(f"{out[f'solver_{kind}_{q}_ms_{s}']:.2f}" for s in ("median", "p90", "p99", "max"))
                log(f"  {what + ':':<32}{row}")
    return out
