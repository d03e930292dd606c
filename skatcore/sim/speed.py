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
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from skatcore.records.writer import deal_record

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


def _records(rules, n: int) -> list[dict]:
    from skatcore.engine.compiled import play_random

    out = play_random(rules, 4 * n, seed=1, keep=True)
    rows = [i for i in range(len(out)) if out.declarer[i] >= 0][:n]
    return [deal_record(out.replay(i)) for i in rows]


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


def iss_sample() -> Path | None:
    """The shared ISS sample beside the repository (or its worktrees), if present."""
    here = Path(__file__).resolve()
    return next((p / "shared/data/iss/iss-sample-25.sgf" for p in here.parents
                 if (p / "shared/data/iss/iss-sample-25.sgf").is_file()), None)


def score_figures(rules, seconds: float, n: int = 200) -> dict:
    """``skat score --json`` records per second: ``n`` full deal records
    (random deals with bidding, skat and every card) as YAML and as JSON
    files, and the ISS sample's games repeated to ~1,000 in one ``.sgf``."""
    import yaml

    out = {}
    docs = _records(rules, n)
    with tempfile.TemporaryDirectory() as tmp:
        for fmt, dump in (("json", json.dumps), ("yaml", lambda d: yaml.safe_dump(d, sort_keys=False))):
            files = []
            for k, doc in enumerate(docs):
                path = Path(tmp) / f"deal{k}.{fmt}"
                path.write_text(dump(doc), encoding="utf-8")
                files.append(str(path))
            out[f"score_{fmt}_records_per_s"] = round(_score_rate(files, len(files), seconds))
        sample = iss_sample()
        if sample is None:
            out["score_iss_games_per_s"] = None
        else:
            lines = [line for line in sample.read_text("utf-8").splitlines() if line.strip()]
            many = Path(tmp) / "many.sgf"
            copies = max(1, 1000 // len(lines))
            many.write_text("\n".join(lines * copies) + "\n", encoding="utf-8")
            out["score_iss_games_per_s"] = round(_score_rate([str(many)], len(lines) * copies, seconds))
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

    def python_api():
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

    return {"openspiel_cpp_rollouts_per_s": round(timed(rollouts, seconds)),
            "openspiel_python_api_deals_per_s": round(timed(python_api, seconds))}
