"""The first commands on a new machine, in CPU seconds (issue 39, item 1).

    python tools/first_run.py [--repeat 3] [--cold] [--json]

numba's cache emptied - a fresh ``NUMBA_CACHE_DIR``, so that the cache other
checkouts share stays - then the README's set-up step's warming part (its
``skat score``, the first command, which starts the background warm-up of
skatcore.warmup), then at once, one after the other, the first ``skat solve``
of an ISS game, ``skat simulate --deals 20000`` and ``skat play --opponents
expert`` up to its first question (the experts' first bid answered before
it; stdin closed, so it stops there).  Each command's CPU (``getrusage`` of
the child) and wall time, and the cache entries it wrote (0: it compiled
nothing itself), against the same command again on the warm cache (median
of ``--repeat`` runs).  The set-up's cost is its ``skat score`` plus the
warm-up's own CPU (from the warm-up's note: it is no child of this script).
``--cold``: also each command's first run on its own empty cache without the
warm-up (``SKAT_NO_WARM=1``), what a user waited before.  The target: each
command after the set-up within 3 s CPU of its warm figure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKAT = [sys.executable, "-c", "import sys; from skatcore.cli import main; sys.exit(main())"]
SETUP = ["score", "examples/overbid-clubs-hand.yaml"]  # the README's set-up line after the install
COMMANDS = {
    "solve": ["solve", "tests/records/iss-13577.sgf"],
    "simulate": ["simulate", "--deals", "20000"],
    "play": ["play", "--opponents", "expert", "--seed", "9", "--deals", "1"],
}
TARGET_S = 3.0


def env_for(cache: Path, warm: bool = True) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SKAT_NO_WARM", "NUMBA_DISABLE_JIT")}
    env.update(NUMBA_CACHE_DIR=str(cache), PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")])))
    if not warm:
        env["SKAT_NO_WARM"] = "1"
    return env


def measure(name: str, argv: list[str], env: dict[str, str]) -> dict:
    """One run of ``skat argv``: CPU and wall seconds, and the functions it
    compiled and saved itself (numba's cache log, not the warm-up's)."""
    before, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
    done = subprocess.run(SKAT + argv, env={**env, "NUMBA_DEBUG_CACHE": "1"}, cwd=ROOT, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True)
    wall, after = time.monotonic() - t0, resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"first_run: skat {' '.join(argv)} exited {done.returncode}: {done.stderr.strip()[-500:]}")
    if name == "play" and not re.search(r"\(\d+(\.\d+)? s\): ", done.stdout):  # "Ann (middlehand) (0.4 s): 18"
        sys.exit(f"first_run: no expert's answer in skat play's output: {done.stdout[-500:]}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return {"cpu_s": round(cpu, 2), "wall_s": round(wall, 2), "compiled": done.stdout.count("[cache] data saved to")}


def wait_for_warmup(cache: Path) -> dict:
    """The warm-up's note once it has ended."""
    os.environ["NUMBA_CACHE_DIR"] = str(cache)  # skatcore.warmup finds the lock and the note there
    sys.path.insert(0, str(ROOT))
    from skatcore import warmup

    while warmup.running():
        time.sleep(1)
    return warmup.note()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="warm runs of each command (median; default 3)")
    ap.add_argument("--cold", action="store_true", help="also each command on an empty cache, no warm-up")
    ap.add_argument("--json", action="store_true", help="the figures as one JSON object")
    args = ap.parse_args()
    out: dict = {"load": os.getloadavg(), "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="skat-first-run-") as tmp:
        cache = Path(tmp) / "numba"
        env = env_for(cache)
        out["setup"] = measure("setup", SETUP, env)
        first = {name: measure(name, argv, env) for name, argv in COMMANDS.items()}
        warmup = wait_for_warmup(cache)
        out["warmup"] = {k: warmup.get(k) for k in ("ok", "cpu_s", "wall_s", "parts")}
        out["setup_cpu_s"] = round(out["setup"]["cpu_s"] + (warmup.get("cpu_s") or 0), 2)
        runs = {name: [measure(name, argv, env) for _ in range(args.repeat)] for name, argv in COMMANDS.items()}
        for name in COMMANDS:
            warm = statistics.median(r["cpu_s"] for r in runs[name])
            out[name] = {"after_setup": first[name], "warm_cpu_s": warm,
                         "warm_wall_s": statistics.median(r["wall_s"] for r in runs[name]),
                         "over_warm_s": round(first[name]["cpu_s"] - warm, 2),
                         "within_target": first[name]["cpu_s"] - warm <= TARGET_S}
        if args.cold:
            for name, argv in COMMANDS.items():
                fresh = Path(tmp) / f"cold-{name}"
                out[name]["cold"] = measure(name, argv, env_for(fresh, warm=False))
                shutil.rmtree(fresh, ignore_errors=True)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"load {' '.join(f'{x:.2f}' for x in out['load'])} on {out['cpus']} CPUs; CPU seconds (wall)")
    print(f"set-up: skat score {out['setup']['cpu_s']} s ({out['setup']['wall_s']} s) + background warm-up "
          f"{out['warmup']['cpu_s']} s ({out['warmup']['wall_s']} s) = {out['setup_cpu_s']} s CPU")
    for name in COMMANDS:
        row = out[name]
        a = row["after_setup"]
        cold = f"; cold, no warm-up {row['cold']['cpu_s']} s ({row['cold']['wall_s']} s)" if "cold" in row else ""
        print(f"{name:<9} after set-up {a['cpu_s']} s ({a['wall_s']} s, {a['compiled']} compiled), warm "
              f"{row['warm_cpu_s']} s ({row['warm_wall_s']} s): {row['over_warm_s']:+} s "
              f"{'within' if row['within_target'] else 'OVER'} {TARGET_S:g} s{cold}")
    return 0 if all(out[name]["within_target"] for name in COMMANDS) else 1


if __name__ == "__main__":
    sys.exit(main())
