"""The figures of ``skat bench`` beyond deals per second: the compiled
engine's compile time, ``skat score`` records per second (JSON, YAML, ISS),
the CPU time of ``skat --help``, and OpenSpiel's C++ skat engine measured in
the same run when ``pyspiel`` is importable.

Per CPU second like the rest of the bench (``time.process_time``; child
processes by ``resource.getrusage``).  A measurement, never a test.
"""

from __future__ import annotations

import io
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Collection
from pathlib import Path

from skatcore.cards import names
from skatcore.engine.deal import Bid, Deal, Declare, Hold, Pass, PickUp, Play, deal_cards
from skatcore.records.iss import GAME_LETTERS
from skatcore.records.stream import FAST_ISS_BYTES
from skatcore.records.writer import deal_record
from skatcore.rules.compiler import get_rules

_PLAY = "from skatcore.engine.compiled import play_random; from skatcore.rules import get_rules; "


def timed(step: Callable[[], int], seconds: float) -> float:
    """Units per CPU second of this process: ``step()`` (which returns how
    many units it did) repeated for ``seconds`` of CPU time, after one warm-up."""
    step()  # warm up (compiled tables, caches)
    n, t0 = 0, time.process_time()
    while True:
        n += step()
        dt = time.process_time() - t0
        if dt >= seconds:
            return n / dt


def _child_cpu(args: list[str], env: dict | None = None) -> float:
    """CPU seconds (user + system) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def compile_figures(ref: str) -> dict:
    """The compiled engine's first compile (an empty numba cache, in a child
    process) and its load from the cache (in this process)."""
    with tempfile.TemporaryDirectory() as cache:
        code = _PLAY + f"play_random(get_rules({ref!r}), 10, 1)"
        fresh = _child_cpu([sys.executable, "-c", code], {**os.environ, "NUMBA_CACHE_DIR": cache})
        cached = _child_cpu([sys.executable, "-c", code], {**os.environ, "NUMBA_CACHE_DIR": cache})
        bare = _child_cpu([sys.executable, "-c", _PLAY + f"get_rules({ref!r})"])
    return {"numba_compile_s": round(fresh - cached, 2), "numba_import_and_cache_load_s": round(max(0.0, cached - bare), 2)}


def startup_figures() -> dict:
    """CPU seconds of ``skat --help`` and of a bare ``python -c pass`` (best of 5)."""
    helps = [_child_cpu([sys.executable, "-c", "import sys; from skatcore.cli import main; sys.exit(main(['--help']))"])
             for _ in range(5)]
    bare = [_child_cpu([sys.executable, "-c", "pass"]) for _ in range(5)]
    return {"help_cpu_s": round(min(helps), 3), "python_pass_cpu_s": round(min(bare), 3)}


def declarer_deals(rules, n: int) -> list:
    """``n`` finished random deals with a declarer (the compiled engine's, replayed through Deal)."""
    from skatcore.engine.compiled import play_random

    out = play_random(rules, 4 * n, seed=1, keep=True)
    return [out.replay(i) for i in [i for i in range(len(out)) if out.declarer[i] >= 0][:n]]


def _score_rate(files: list[str], count: int, seconds: float) -> float:
    """Records per CPU second of ``skat score --json FILES``: what the
    command prints, written to memory (its argument parsing left out)."""
    from skatcore.errors import InputError
    from skatcore.records.stream import score_output

    def step():
        sink = io.StringIO()
        for item in score_output(files, as_json=True):
            if isinstance(item, InputError):
                raise RuntimeError(f"skat score failed: {item}")
            print(item, file=sink)
        return count
    return timed(step, seconds)


_ISS_LETTER = {game: letter for letter, game in GAME_LETTERS.items()}


def iss_line(deal, game_id: int) -> str:
    """A finished official :class:`Deal` as an ISS game record (one ``.sgf``
    line, data/iss/SOURCES.md), with the server's result as the replay scores it."""
    moves = ["w " + ".".join(names([*deal.dealt[0], *deal.dealt[1], *deal.dealt[2], *deal.original_skat]))]
    for seat, a in deal.history:
        if isinstance(a, Bid):
            moves.append(f"{seat} {a.value}")
        elif isinstance(a, (Hold, Pass)):
            moves.append(f"{seat} {'y' if isinstance(a, Hold) else 'p'}")
        elif isinstance(a, PickUp):
            moves.append(f"{seat} s w {'.'.join(names(deal.original_skat))}")
        elif isinstance(a, Declare):
            d = a.declaration
            flags = ("O" if d.ouvert else "") + ("H" if d.hand else "")
            if not d.ouvert or d.game == "null":
                flags += ("S" if d.schneider else "") + ("Z" if d.schwarz else "")
            moves.append(f"{seat} {_ISS_LETTER[d.game]}{flags}" + "".join(f".{c}" for c in names(deal.discard)))
        elif isinstance(a, Play):
            moves.append(f"{seat} {names([a.card])[0]}")
    if deal.declarer is None:
        result = "passed"
    else:
        f, r = deal.facts(), deal.result()
        result = (f"d:{deal.declarer} {'win' if r.won else 'loss'} v:{r.score} m:{f.matadors} "
                  f"{'overbid' if r.overbid else 'bidok'} p:{f.declarer_points} t:{f.declarer_tricks} "
                  f"s:{int(f.defenders_schneider or f.declarer_schneider)} z:{int(f.defenders_schwarz or f.declarer_schwarz)} "
                  "p0:0 p1:0 p2:0 l:-1 to:-1 r:0")
    return (f"(;GM[Skat]PC[skat bench]ID[{game_id}]P0[forehand]P1[middlehand]P2[rearhand]"
            f"MV[{' '.join(moves)}]R[{result}] ;)")


def score_figures(rules, seconds: float, n: int = 200, iss_games: int = 1000) -> dict:
    """``skat score --json`` records per second: ``n`` full deal records
    (random deals with bidding, skat and every card) as YAML and as JSON
    files, and ``iss_games`` random official deals as ISS records in one
    ``.sgf``, repeated to the size of an archive (``FAST_ISS_BYTES``)."""
    import yaml

    out = {}
    docs = [deal_record(deal) for deal in declarer_deals(rules, n)]
    with tempfile.TemporaryDirectory() as tmp:
        for fmt, dump in (("json", json.dumps), ("yaml", lambda d: yaml.safe_dump(d, sort_keys=False))):
            files = []
            for k, doc in enumerate(docs):
                path = Path(tmp) / f"deal{k}.{fmt}"
                path.write_text(dump(doc), encoding="utf-8")
                files.append(str(path))
            out[f"score_{fmt}_records_per_s"] = round(_score_rate(files, len(files), seconds))
        games = Path(tmp) / "games.sgf"
        deals = declarer_deals(get_rules("official"), iss_games)
        text = "".join(iss_line(deal, k) + "\n" for k, deal in enumerate(deals))
        copies = -(-FAST_ISS_BYTES // len(text.encode()))  # as big as an archive skat score replays compiled
        games.write_text(text * copies, encoding="utf-8")
        out["score_iss_games_per_s"] = round(_score_rate([str(games)], iss_games * copies, seconds))
    return out


def openspiel_figures(seconds: float) -> dict:
    """OpenSpiel's skat in the same run: its C++ engine alone (random
    rollouts after the deal, by ``MCTSBot`` with a ``RandomRolloutEvaluator``),
    and random full deals through its Python API."""
    try:
        import pyspiel
    except ImportError:
        return {"openspiel": "not installed (pip install open_spiel)"}
    game = pyspiel.load_game("skat")
    rng = random.Random(1)

    def dealt():
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
        return state

    sims = 2000
    evaluator = pyspiel.RandomRolloutEvaluator(1, 1)

    def rollouts():
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, sims, 10**9, True, rng.randrange(1 << 30), False,
                              pyspiel.ChildSelectionPolicy.UCT)
        bot.step(dealt())
        return sims

    return {"openspiel_cpp_rollouts_per_s": round(timed(rollouts, seconds)),
            "openspiel_python_api_deals_per_s": round(timed(openspiel_deal_loop(game, rng), seconds))}


def random_deal_loop(rules, rng: random.Random) -> Callable[..., int]:
    """``step(n)`` for :func:`timed`: ``n`` random full deals through
    :class:`~skatcore.engine.deal.Deal` (each action drawn uniformly from
    ``legal_actions()``: bidding, skat, the tricks), each scored."""

    def step(n: int = 500) -> int:
        for _ in range(n):
            d = Deal(rules, *deal_cards(rng, rules.deck))
            while not d.done:
                legal = d.legal_actions()
                d.apply(legal[int(rng.random() * len(legal))])
            d.result()
        return n

    return step


def openspiel_deal_loop(game, rng: random.Random) -> Callable[[], int]:
    """``step()``: one random full deal of OpenSpiel's skat through its
    Python API (the deal's chance nodes too; its engine is C++)."""

    def step() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
        state.returns()
        return 1

    return step


def deal_vs_openspiel(rules, seconds: float, turns: int = 5) -> dict:
    """``random_deal_loop_vs_openspiel_python_api``: random full deals per CPU
    second through Deal over those through OpenSpiel's skat (its Python API),
    timed by turns (``turns`` each, ``seconds / 2`` a turn) so that both see
    the same load: the median of the turns' ratios, and each side's median
    (``..._turns_deals_per_s``).  Empty without OpenSpiel."""
    try:
        import pyspiel
    except ImportError:
        return {}
    ours = random_deal_loop(rules, random.Random(1))
    theirs = openspiel_deal_loop(pyspiel.load_game("skat"), random.Random(1))
    a, b = [], []
    for _ in range(turns):
        a.append(timed(ours, seconds / 2))
        b.append(timed(theirs, seconds / 2))
    return {"random_deal_loop_turns_deals_per_s": round(statistics.median(a)),
            "openspiel_python_api_turns_deals_per_s": round(statistics.median(b)),
            "random_deal_loop_vs_openspiel_python_api": round(statistics.median(x / y for x, y in zip(a, b, strict=True)), 2)}


def compare_figures(seconds: float, pair: tuple[str, str] = ("official", "texas")) -> dict:
    """``compare_vs_simulate_cpu``: CPU of ``skat compare`` of ``pair`` on
    ``10,000 x seconds`` deals over that of ``skat simulate`` of each ruleset
    on the same deals (``--jobs 1``, in this process after a warm-up; issue
    39 asks <= 1.3 at 100,000 deals: ``tools/compare_cost.py``)."""
    from skatcore.sim.compare import compare
    from skatcore.sim.simulate import run

    deals = max(1000, round(10_000 * seconds))
    for ref in pair:
        run([ref], 1000, 1)
    compare(list(pair), 1000, 1)
    t0 = time.process_time()
    for ref in pair:
        run([ref], deals, 1)
    t1 = time.process_time()
    compare(list(pair), deals, 1)
    t2 = time.process_time()
    return {"compare_vs_simulate_cpu": round((t2 - t1) / (t1 - t0), 2), "compare_vs_simulate_deals": deals,
            "compare_vs_simulate_rulesets": list(pair)}


def warm(ref: str = "official", log: Callable[[str], None] | None = print, only: Collection[str] | None = None) -> dict:
    """Compile every numba part once (``skat bench --warm``, the background
    warm-up of :mod:`skatcore.warmup`), or the parts named in ``only``, so that
    numba's cache holds them and no later command waits for a compile: CPU
    seconds of each part (a second call only loads the cache)."""
    import numpy as np

    from skatcore.bots.heuristic.compiled import play_heuristic
    from skatcore.bots.solver import Position, Solver
    from skatcore.engine.compiled import Unsupported, play_random
    from skatcore.records.iss_fast import score_lines
    from skatcore.sim.dealing import seeded_deals
    from skatcore.sim.stats import ratio_diff_ci

    rules = get_rules(ref)
    official = get_rules("official")
    ones = np.ones(3, np.int64)

    def solver():
        for name, goal in (("grand", "points"), ("null", "tricks")):
            s = Solver(official.tricks[name], 0, goal)
            pos = Position((0b111 << 8, 0b111 << 16, 0b111 << 24), 0, ())
            s.value(pos), s.reaches(pos, 1), s.card_values(pos), s.card_values(pos, 1)

    parts = {"dealing": lambda: seeded_deals(1, 0, 10),
             "compiled engine": lambda: play_random(rules, 10, 1),
             "compiled heuristic": lambda: play_heuristic(rules, seeded_deals(1, 0, 10)),
             "bootstrap": lambda: ratio_diff_ci(ones, ones, ones, ones, 1),
             "double-dummy solver": solver,
             "ISS replay": lambda: score_lines([iss_line(d, k) for k, d in enumerate(declarer_deals(official, 3))],
                                               official)}
    out = {}
    for name, part in parts.items():
        if only is not None and name not in only:
            continue
        t0 = time.process_time()
        try:
            part()
        except Unsupported:  # a ruleset the compiled engine does not play: nothing to compile for it
            continue
        out[name] = round(time.process_time() - t0, 2)
        if log:
            log(f"{name + ':':<22}{out[name]:>6} s CPU")
    return out


def warmup_figures() -> dict:
    """The last background warm-up's own CPU and wall seconds, from its note
    (:mod:`skatcore.warmup`; what it compiled, not what it found in the
    cache).  A new machine's first commands: ``tools/first_run.py``."""
    from skatcore.warmup import note

    last = note()
    if not last.get("ok") or last.get("only") or "cpu_s" not in last:
        return {}
    return {"warmup_cpu_s": last["cpu_s"], "warmup_wall_s": last["wall_s"]}
