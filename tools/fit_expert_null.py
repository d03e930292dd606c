"""Fit the expert's null chances (``SolverBidding.NULL_FIT``) on its own play.

Double-dummy defenders always find a null's weak suit; real ones mostly do
not, so the share of layouts a null survives double-dummy says little by
itself.  For seeded deals, each seat whose ten cards kept after the skat
(the expert's null discard) are unsafe in at most two suits, at most one of
them by more than a rank (hands a player might call a null), is made the
declarer of a null and of a null ouvert: it wins the bidding at 18, picks
up, discards and declares, and three expert players play the deal out.  A
logistic regression of the outcome on the double-dummy share the expert
computes at its discard and on the kept ten's unsafe suits (any, how many
by one rank, how many by more: ``null_features``) gives each form's
coefficients.

    python tools/fit_expert_null.py --deals 1400 --seed 1 --jobs 2
"""

from __future__ import annotations

import argparse
import random
import sys
from multiprocessing import Pool

import numpy as np

from skatcore.bots.expert import ExpertPlayer
from skatcore.bots.expert.bidding import null_features
from skatcore.bots.heuristic.tables import BIT
from skatcore.engine.deal import PASS, PICK_UP, Bid, Deal, Declare, Hold, Phase
from skatcore.rules import get_rules
from skatcore.sim.play import players_for, seeded_deal


def forced_null(rules, seed: int, i: int, seat: int, ouvert: bool) -> tuple:
    """``(double-dummy share, *null_features, won)`` of ``seat`` declaring null
    (ouvert) in deal ``i`` after winning the bidding at 18."""
    hands, skat, pseeds = seeded_deal(seed, i)
    players = players_for(rules, [ExpertPlayer] * 3, seed, i, pseeds)
    deal = Deal(rules, hands, skat)
    while deal.phase is Phase.BIDDING:
        legal = deal.legal_actions()
        mine = deal.to_move == seat
        deal.apply(next((a for a in legal if isinstance(a, (Bid, Hold))), PASS) if mine else PASS)
    me = players[seat]
    hand = sum(BIT[c] for c in hands[seat]) | sum(BIT[c] for c in skat)
    cand = next(c for c in me.info.cands["pickup"] if c.null and c.d.ouvert == ouvert)
    pair = me._pair(cand, hand)
    ten = hand & ~sum(BIT[c] for c in pair.cards)
    goal, amount = me._dd_goal(cand, pair)
    deck = rules.deck
    layouts = me._layouts(deck.mask & ~hand, (deck.hand, deck.hand), me.bid_worlds, random.Random((me.seed or 0) ^ hand))
    share = sum(me._dd_won(cand, goal, amount, ten, ab, seat) for ab in layouts) / len(layouts)
    deal.apply(PICK_UP)
    deal.apply(pair)
    deal.apply(Declare(cand.d))
    while not deal.done:
        legal = deal.legal_actions()
        deal.apply(legal[0] if len(legal) == 1 else players[deal.to_move].act(deal.view(deal.to_move)))
    return (share, *null_features(ten), bool(deal.result().won))


def _deal_rows(task) -> list[tuple]:
    ruleset, seed, i = task
    rules = get_rules(ruleset)
    player = ExpertPlayer(rules)
    cand = next(c for c in player.info.cands["pickup"] if c.null and not c.d.ouvert)
    hands, skat, _ = seeded_deal(seed, i)
    rows = []
    for seat in range(3):
        hand = sum(BIT[c] for c in hands[seat]) | sum(BIT[c] for c in skat)
        ten = hand & ~sum(BIT[c] for c in player._pair(cand, hand).cards)
        _, mild, bad = null_features(ten)
        if mild + bad <= 2 and bad <= 1:
            rows += [(ouvert, *forced_null(rules, seed, i, seat, ouvert)) for ouvert in (False, True)]
    return rows


def samples(ruleset: str, deals: int, seed: int, jobs: int = 1) -> list[tuple]:
    """``(ouvert, share, any unsafe, mild, bad, won)`` for every forced null of ``deals`` deals."""
    tasks = [(ruleset, seed, i) for i in range(deals)]
    if jobs > 1:
        with Pool(jobs) as pool:
            parts = pool.map(_deal_rows, tasks, chunksize=20)
    else:
        parts = [_deal_rows(t) for t in tasks]
    return [row for part in parts for row in part]


def fit(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Maximum-likelihood ``w`` of ``y ~ sigmoid(w[0] + X @ w[1:])`` (Newton's method, a little ridge)."""
    X = np.column_stack([np.ones(len(X)), X])
    w = np.zeros(X.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(X @ w)))
        hess = (X * (p * (1 - p))[:, None]).T @ X + 1e-3 * np.eye(len(w))
        step = np.linalg.solve(hess, X.T @ (y - p) - 1e-3 * w)
        w += step
        if abs(step).max() < 1e-9:
            break
    return w


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", default="official")
    ap.add_argument("--deals", type=int, default=1400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    rows = samples(args.ruleset, args.deals, args.seed, args.jobs)
    coef = {}
    for ouvert in (False, True):
        data = np.array([r[1:] for r in rows if r[0] == ouvert], dtype=float)
        X, y = data[:, :-1], data[:, -1]
        w = fit(X, y)
        coef[ouvert] = tuple(round(float(v), 2) for v in w)
        pred = 1.0 / (1.0 + np.exp(-(w[0] + X @ w[1:])))
        bands = []
        for lo, hi in ((0.0, 0.3), (0.3, 0.5), (0.5, 0.7), (0.7, 0.85), (0.85, 1.01)):
            inside = (pred >= lo) & (pred < hi)
            if inside.any():
                bands.append(f"{lo:.2f}+: {inside.sum()} predicted {pred[inside].mean():.2f} won {y[inside].mean():.2f}")
        print(f"{'null ouvert' if ouvert else 'null'}: {len(y)} games, {int(y.sum())} won; {'; '.join(bands)}")
    print("NULL_FIT =", coef)
    return 0


if __name__ == "__main__":
    sys.exit(main())
