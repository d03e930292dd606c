"""What a house rule - a trick-winner or a card-point rule - costs a comparison (issue 37, A4 and item 3).

    python tools/trick_rule_cost.py examples/house-sevenlast/house-sevenlast.yaml --against ../main
    python tools/trick_rule_cost.py examples/house-cardpoints.yaml --against ../main
    python tools/trick_rule_cost.py RULESET [--deals 100000] [--repeats 3] [--jobs 2] [--against CHECKOUT]

CPU seconds (user + system, the workers' included) and the largest resident
set of ``skat --trust compare official texas`` and ``skat --trust compare
official RULESET`` on the same deals (seed 1), each a fresh process with a
checkout's ``skatcore`` on ``PYTHONPATH``: this one, and with ``--against``
another in turn, repeat by repeat (other work on the machine slows both
alike; the load average is printed with each run).  A warm-up of each
checkout first (numba's cache, bytecode).  Prints each run, then the medians
and RULESET's cost over texas's per checkout; the last line is the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
ENTRY = "import sys; from skatcore.cli.main import main; sys.exit(main(sys.argv[1:]))"


def run(checkout: Path, rulesets: list[str], deals: int, jobs: int) -> tuple[float, int]:
    """CPU seconds and largest resident set (KB) of one comparison in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    args = [sys.executable, "-c", ENTRY, "--trust", "compare", *rulesets, "--deals", str(deals), "--jobs", str(jobs),
            "--json"]
    # run in the checkout: ``python -c`` puts the working directory first on sys.path
    proc = subprocess.Popen(args, env=env, cwd=checkout, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    if status:
        raise SystemExit(f"{' '.join(args[3:])} failed in {checkout}: {proc.stderr.read().decode()[-500:]}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ruleset")
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--against", type=Path, help="another checkout, measured in turn with this one")
    a = ap.parse_args()
    ruleset = str(Path(a.ruleset).resolve())
    trees = {"this": HERE, **({"against": a.against.resolve()} if a.against else {})}
    pairs = {"texas": ["official", "texas"], "rule": ["official", ruleset]}
    for tree in trees.values():
        run(tree, ["official", "texas", ruleset], 400, 1)
    got: dict[str, dict[str, list]] = {t: {p: [] for p in pairs} for t in trees}
    for r in range(a.repeats):
        for t, tree in trees.items():
            for p, rulesets in pairs.items():
                load = os.getloadavg()[0]
                cpu, rss = run(tree, rulesets, a.deals, a.jobs)
                got[t][p].append((cpu, rss))
                print(f"repeat {r + 1} {t:7} {p:5}: {cpu:7.2f} s CPU, {rss / 1024:5.0f} MB (load {load:.1f})", flush=True)
    figures = {}
    for t in trees:
        med = {p: statistics.median(c for c, _ in got[t][p]) for p in pairs}
        rss = {p: max(m for _, m in got[t][p]) // 1024 for p in pairs}
        figures[t] = {"texas_cpu": round(med["texas"], 2), "rule_cpu": round(med["rule"], 2),
                      "rule_over_texas": round(med["rule"] / med["texas"], 2), "texas_mb": rss["texas"],
                      "rule_mb": rss["rule"]}
        print(f"{t}: official vs the rule {med['rule']:.2f} s, vs texas {med['texas']:.2f} s: "
              f"{med['rule'] / med['texas']:.2f}x ({rss['rule']} MB, {rss['texas']} MB)")
    print(json.dumps({"deals": a.deals, "jobs": a.jobs, "repeats": a.repeats, **figures}))


if __name__ == "__main__":
    main()
