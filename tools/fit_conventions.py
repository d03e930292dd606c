"""Fit the weights of the expert's card conventions
(:mod:`skatcore.bots.expert.conventions`) on the level cards of simulated
decisions (``tools/bot_agreement.py --ties FILE``): for each situation, a
conditional logit - the chance of the teacher's card among the level ones
grows with its weighted features - by gradient ascent with a small L2
penalty.  Prints the weights as the module's ``WEIGHTS`` and, per
situation, how often the fitted weights, the heuristic's card and the
fewest card points pick the teacher's card (on ``--check`` files if
given: fit on one seed, check on another).

    python tools/fit_conventions.py /tmp/ties9201.jsonl --check /tmp/ties9202.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from skatcore.bots.expert.conventions import FEATURES, SITUATIONS, best
from skatcore.errors import InputError


def load(paths) -> dict[str, list[tuple[np.ndarray, int]]]:
    """Situation -> [(features of the level cards, row of the teacher's card)]."""
    out: dict[str, list] = defaultdict(list)
    for p in paths:
        for n, line in enumerate(Path(p).read_text(encoding="utf-8").splitlines(), 1):
            try:
                d = json.loads(line)
                cards = list(d["cards"])
                x = np.array([d["cards"][c] for c in cards], dtype=float)
                if d["where"] not in SITUATIONS or x.shape != (len(cards), len(FEATURES)):
                    raise ValueError
                out[d["where"]].append((x, cards.index(str(d["teacher"]))))
            except (ValueError, KeyError, TypeError, AttributeError):
                raise InputError(f"{p}: line {n}: expected a JSON object with where (a situation), cards "
                                 f"({len(FEATURES)} features each) and teacher (one of the cards)") from None
    return out


def fit(rows, l2: float = 0.01, steps: int = 400, rate: float = 0.5) -> np.ndarray:
    w = np.zeros(len(FEATURES))
    for _ in range(steps):
        grad = -l2 * w
        for x, y in rows:
            z = x @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            grad += x[y] - p @ x
        w += rate * grad / len(rows)
    return w


def hits(rows, pick) -> int:
    return sum(pick(x) == y for x, y in rows)


def argbest(w):
    """The row :func:`conventions.best` picks under weights ``w`` (equal sums: the fewest points, feature 1)."""
    weights = {"": tuple(float(v) for v in w)}
    return lambda x: best(weights, "", {i: tuple(row) for i, row in enumerate(x)}, lambda i: x[i][1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--check", nargs="*", default=[])
    ap.add_argument("--l2", type=float, default=0.01)
    args = ap.parse_args(argv)
    try:
        train, check = load(args.files), load(args.check) if args.check else {}
    except (InputError, OSError) as e:
        print(f"fit_conventions: {e}", file=sys.stderr)
        return 2
    weights = {}
    heur = FEATURES.index("heuristic")
    for where in SITUATIONS:
        rows = train.get(where, [])
        w = fit(rows, args.l2) if rows else np.zeros(len(FEATURES))
        weights[where] = tuple(round(float(v), 3) for v in w)
        for name, data in (("fit", rows), ("check", check.get(where, []))):
            if data:
                n = len(data)
                print(f"{where:<26} {name:<5} {n:>6}  weights {hits(data, argbest(w)) / n:6.1%}  "
                      f"heuristic {hits(data, lambda x: int(np.argmax(x[:, heur]))) / n:6.1%}  "
                      f"fewest points {hits(data, argbest(np.zeros(len(FEATURES)))) / n:6.1%}", file=sys.stderr)
    print("WEIGHTS = {")
    for where, w in weights.items():
        print(f"    {where!r}: {w},")
    print("}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
