"""The solver's speed on opening positions, as issue 26 measures it.

    python tools/solver_speed.py [--n 200] [--seed 11] [--kind declared|random|both] [--repeat 1]
    python tools/solver_speed.py --kind declared --repeat 3 --against ../main

Prints median / p90 / p99 / max CPU ms of the exact card points and of "does
the declarer reach 61" (cold transposition table per position, one core),
the same quantiles and the sum of the nodes searched (independent of the
machine and its load) and nodes per second.  ``--repeat 3``: each position's fastest of 3 runs
(a steadier figure on a busy machine).  ``--against CHECKOUT``: the exact value
by that checkout's solver and by this one alternately, position by position,
in one process (other work on the machine then slows both alike): their
quantiles and this one's CPU time over the other's.  See
:mod:`skatcore.sim.solver_speed`.
"""

from __future__ import annotations

import argparse
import json
import sys

from skatcore.errors import InputError
from skatcore.rules import get_rules
from skatcore.sim.solver_speed import (
    declared_openings,
    load_solver_from,
    pair_openings,
    random_openings,
    time_openings,
)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=11, help="run of the declared games (random: seed 1)")
    ap.add_argument("--kind", choices=("declared", "random", "both"), default="both")
    ap.add_argument("--ruleset", default="official")
    ap.add_argument("--repeat", type=int, default=1, help="each position's fastest of this many runs")
    ap.add_argument("--against", metavar="CHECKOUT", help="time the exact value against that checkout's solver")
    args = ap.parse_args(argv)
    rules = get_rules(args.ruleset)
    if args.against:
        try:
            return _against(args, rules)
        except InputError as e:
            print(f"solver_speed: {e}", file=sys.stderr)
            return 2
    time_openings(random_openings(rules, 2))  # compile
    for kind, ops in _openings(args, rules):
        f = time_openings(ops, repeat=args.repeat)
        print(f"{kind:>8}: exact {_row(f['exact_ms'])} ms; 61? {_row(f['question_ms'])} ms; "
              f"{f['nodes_per_s'] / 1e6:.1f}M nodes/s")
        print(f"{'':>8}  nodes (the same on every machine): exact {_row(f['exact_nodes'], ',')} "
              f"(sum {f['exact_nodes_sum']:,}); 61? {_row(f['question_nodes'], ',')} (sum {f['question_nodes_sum']:,})")
        print(json.dumps({kind: f}))
    return 0


def _openings(args, rules):
    """The kinds of openings asked for, each with its positions (made when its turn comes)."""
    for kind in ("declared", "random") if args.kind == "both" else (args.kind,):
        yield kind, (declared_openings(rules, args.n, args.seed) if kind == "declared"
                     else random_openings(rules, args.n, 1))


def _row(q, fmt=".2f") -> str:
    return " / ".join(f"{q[k]:{fmt}}" for k in ("median", "p90", "p99", "max"))


def _against(args, rules) -> int:
    other, cleanup = load_solver_from(args.against)
    try:
        pair_openings(random_openings(rules, 1), other, 1)  # compile both
        for kind, ops in _openings(args, rules):
            f = pair_openings(ops, other, args.repeat)
            print(f"{kind:>8}: exact, other {_row(f['other_ms'])} ms; this {_row(f['this_ms'])} ms; "
                  f"this / other: median {f['ratio_median']:.3f}, sum {f['ratio_sum']:.3f}")
            print(f"{'':>8}  nodes: other {_row(f['other_nodes'], ',')}; this {_row(f['this_nodes'], ',')}")
            print(json.dumps({kind: f}))
    finally:
        cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
