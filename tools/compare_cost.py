"""What a comparison costs against the play it compares (issue 39, P2).

    python tools/compare_cost.py [official texas] [--deals 100000 30000] [--repeats 3] [--jobs 1]
    python tools/compare_cost.py official texas --against ../main

CPU seconds of ``skat compare R1 R2 --deals N --jobs J`` and of ``skat
simulate --ruleset R1`` plus ``--ruleset R2`` on the same deals (seed 1),
run by the command's own entry point in one process after a warm-up of
both (numba's cache loaded, the rulesets compiled): the process's CPU time
(``time.process_time``, and its worker processes' with ``--jobs``), output
to memory.  Each measurement is a fresh process with the checkout's
``skatcore`` on ``PYTHONPATH``, so ``--against CHECKOUT`` measures that
checkout in turn with this one, repeat by repeat (other work on the machine
then slows both alike).  Prints each run and the medians of compare / (simulate
R1 + simulate R2); the last line is the figures as JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def cpu() -> float:
    """This process's CPU seconds and its finished children's (``--jobs`` workers)."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime


def command(argv: list[str]) -> float:
    """CPU seconds of one ``skat`` command in this process, its output to memory."""
    from skatcore.cli.main import main

    sink = io.StringIO()
    t = cpu()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        if main(argv) != 0:
            raise SystemExit(f"skat {' '.join(argv)} failed: {sink.getvalue()[-400:]}")
    return cpu() - t


def measure(refs: list[str], deals: int, jobs: int) -> dict:
    """One run: simulate of each ruleset, then the comparison, after a warm-up of both."""
    common = ["--seed", "1", "--jobs", str(jobs)]
    for ref in refs:
        command(["simulate", "--ruleset", ref, "--deals", "2000", *common])
    command(["compare", *refs, "--deals", "2000", *common])
    simulate = [command(["simulate", "--ruleset", ref, "--deals", str(deals), *common]) for ref in refs]
    compared = command(["compare", *refs, "--deals", str(deals), *common])
    return {"deals": deals, "simulate_s": [round(s, 3) for s in simulate], "compare_s": round(compared, 3),
            "ratio": round(compared / sum(simulate), 3)}


def run_in(checkout: Path, refs: list[str], deals: int, jobs: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    argv = [sys.executable, str(Path(__file__).resolve()), *refs, "--one", str(deals), "--jobs", str(jobs)]
    out = subprocess.run(argv, env=env, cwd=checkout, capture_output=True, text=True, check=True).stdout
    return json.loads(out.splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*", default=["official", "texas"])
    ap.add_argument("--deals", type=int, nargs="+", default=[100_000, 30_000])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--against", metavar="CHECKOUT", help="also measure that checkout, in turn with this one")
    ap.add_argument("--one", type=int, metavar="N", help=argparse.SUPPRESS)  # one run in this process
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(measure(args.rulesets, args.one, args.jobs)))
        return 0
    checkouts = {"this": HERE, **({"against": Path(args.against).resolve()} if args.against else {})}
    load = os.getloadavg()
    figures: dict = {"rulesets": args.rulesets, "jobs": args.jobs, "repeats": args.repeats, "cpus": os.cpu_count(),
                     "load_before": [round(x, 2) for x in load]}
    for deals in args.deals:
        runs: dict[str, list[dict]] = {name: [] for name in checkouts}
        for rep in range(args.repeats):
            for name, path in checkouts.items():
                r = run_in(path, args.rulesets, deals, args.jobs)
                runs[name].append(r)
                print(f"{deals:>8} deals, {name:<7} run {rep + 1}: simulate {' + '.join(map(str, r['simulate_s']))} s, "
                      f"compare {r['compare_s']} s: {r['ratio']}x", flush=True)
        for name, rs in runs.items():
            med = {"ratio": statistics.median(r["ratio"] for r in rs),
                   "simulate_s": round(statistics.median(sum(r["simulate_s"]) for r in rs), 3),
                   "compare_s": statistics.median(r["compare_s"] for r in rs)}
            figures[f"{name}_{deals}"] = med
            print(f"{deals:>8} deals, {name:<7} median: compare {med['compare_s']} s / simulate {med['simulate_s']} s "
                  f"= {med['ratio']}x")
    figures["load_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
