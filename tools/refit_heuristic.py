"""Refit the heuristic's win-probability coefficients (``HeuristicPlayer.COEF``)
against double-dummy play.

For seeded deals of a ruleset, each seat in turn is the would-be declarer of
its best suit game, a grand and a null, by both routes: picking up the skat
(the heuristic's own discard for that game) and a hand game.  The feature is
the heuristic's strength of the hand (null: minus its risk) - before the skat
("pre"), after the discard ("post") or as dealt ("hand") - and the outcome is
whether the declarer wins with every hand open under best play by all three
(:mod:`skatcore.bots.solver`: 61 card points, null no trick).  A logistic
regression per (family, when) gives the new ``(a, b)`` of
``p = sigmoid(a * x + b)``.

The solver on the true layout stands in for expert card play: it is cheap
(about 1 ms a position) and plays both sides perfectly, where the expert
samples the unseen cards.

    python tools/refit_heuristic.py --deals 3000 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys

import numpy as np

from skatcore.bots.heuristic import HeuristicPlayer
from skatcore.bots.heuristic.tables import BIT
from skatcore.bots.solver import Position, Solver
from skatcore.engine.deal import deal_cards
from skatcore.model import Declaration
from skatcore.rules import get_rules

NODE_LIMIT = 2_000_000  # a search past this is left out of the fit (rare)


def samples(ruleset: str, deals: int, seed: int, families=("suit", "grand", "null")):
    """``{(family, when): [(x, won), ...]}`` from ``deals`` seeded deals."""
    rules = get_rules(ruleset)
    player = HeuristicPlayer(rules)
    info = player.info
    games = {fam: [g for g in info.games.values() if g.family == fam] for fam in ("suit", "grand", "null")}
    win = rules.thresholds.win
    rng = random.Random(seed)
    out: dict = {}
    for n in range(deals):
        hands, skat = deal_cards(rng, rules.deck)
        masks = [sum(BIT[c] for c in h) for h in hands]
        skat_mask = sum(BIT[c] for c in skat)
        for declarer in range(3):
            hand = masks[declarer]
            full = hand | skat_mask
            # the best suit by the hand's strength, the grand, the null
            chosen = [max(games["suit"], key=lambda g: player.strength(hand, g)), *games["grand"][:1], *games["null"][:1]]
            chosen = [g for g in chosen if g.family in families]
            for g in chosen:
                null = g.family == "null"
                solver = Solver(g.table, declarer, "tricks" if null else "points", node_limit=NODE_LIMIT)
                for when in ("hand", "pre"):
                    d = Declaration(g.name, when == "hand")
                    if when == "hand":
                        held, laid = hand, skat_mask
                    else:
                        pair = (player._null_discard(full, [], 2) if null
                                else player._top_pair(full, player._trump_discard_scores(full, g)))
                        laid = sum(BIT[c] for c in pair.cards)
                        held = full & ~laid
                    layout = list(masks)
                    layout[declarer] = held
                    pos = Position(tuple(layout), 0, ())
                    solver.new_deal()
                    aborted = solver.aborted
                    if null:
                        won = not solver.reaches(pos, 1)
                    else:
                        won = solver.reaches(pos, win - sum(g.points[c] for c in range(32) if laid >> c & 1))
                    if solver.aborted != aborted:
                        continue
                    out.setdefault((g.family, when), []).append((player._x(hand, d), won))
                    if when == "pre":
                        out.setdefault((g.family, "post"), []).append((player._x(held, d), won))
        if (n + 1) % 100 == 0:
            print(f"{n + 1}/{deals} deals", file=sys.stderr)
    return out


def fit(pairs) -> tuple[float, float]:
    """Maximum-likelihood ``(a, b)`` of ``won ~ sigmoid(a * x + b)`` (Newton's method)."""
    x = np.array([p[0] for p in pairs], dtype=float)
    y = np.array([p[1] for p in pairs], dtype=float)
    X = np.stack([x, np.ones_like(x)], axis=1)
    w = np.zeros(2)
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(X @ w)))
        grad = X.T @ (y - p)
        hess = (X * (p * (1 - p))[:, None]).T @ X + 1e-9 * np.eye(2)
        step = np.linalg.solve(hess, grad)
        w += step
        if abs(step).max() < 1e-9:
            break
    return float(w[0]), float(w[1])


BANDS = (0.0, 0.3, 0.5, 0.7, 0.85, 0.95, 1.01)


def calibration(pairs, a: float, b: float) -> str:
    """Predicted against observed win rate in bands of predicted probability."""
    x = np.array([p[0] for p in pairs], dtype=float)
    y = np.array([p[1] for p in pairs], dtype=float)
    pred = 1.0 / (1.0 + np.exp(-(a * x + b)))
    rows = []
    for lo, hi in zip(BANDS, BANDS[1:]):
        inside = (pred >= lo) & (pred < hi)
        if inside.any():
            rows.append(f"{lo:.2f}+: {inside.sum()} hands, predicted {pred[inside].mean():.2f}, won {y[inside].mean():.2f}")
    return "; ".join(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", default="official")
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--families", default="suit,grand,null", help="comma-separated: suit, grand, null")
    args = ap.parse_args(argv)
    data = samples(args.ruleset, args.deals, args.seed, tuple(args.families.split(",")))
    coef = {}
    for key in sorted(data):
        a, b = fit(data[key])
        coef[key] = (round(a, 2), round(b, 2))
        old = HeuristicPlayer.COEF[key]
        wins = sum(y for _, y in data[key])
        print(f"{key}: {len(data[key])} hands, {wins} won; was {old}, now {coef[key]}; {calibration(data[key], a, b)}")
    print("COEF =", {k: coef[k] for k in HeuristicPlayer.COEF if k in coef})
    return 0


if __name__ == "__main__":
    sys.exit(main())
