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

``--grand-features`` fits the weights of the grand's hand features themselves
(:func:`grand_features`: the jacks, Stehkarten, guarded tens, long suits,
voids, forehand) on the same outcomes after the discard: the weights of
``skatcore.bots.heuristic.tables._grand_jacks`` / ``_grand_side`` /
``GRAND_FORE``.

The solver on the true layout stands in for expert card play: it is cheap
(about 1 ms a position) and plays both sides perfectly, where the expert
samples the unseen cards.  ``--play heuristic`` takes the outcome of the
heuristic's own card play instead: the same deal played through ``Deal`` by
three heuristic players, the would-be declarer bidding 18 and declaring that
contract, the others passing.

    python tools/refit_heuristic.py --deals 3000 --seed 1
    python tools/refit_heuristic.py --deals 3000 --seed 7 --grand-features
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys

import numpy as np

from skatcore.bots.heuristic import HeuristicPlayer
from skatcore.bots.heuristic.tables import BIT
from skatcore.bots.solver import Position, Solver
from skatcore.engine.deal import PASS, PICK_UP, PLAY_HAND, Bid, Declare, Hold, Phase, deal_cards
from skatcore.model import Declaration
from skatcore.rules import get_rules
from skatcore.sim.play import play

NODE_LIMIT = 2_000_000  # a search past this is left out of the fit (rare)


class _Forced(HeuristicPlayer):
    """A heuristic player at a table where ``declarer`` declares ``game``
    (a hand game if ``hand``) after bidding 18 and the others pass."""

    def __init__(self, rules, declarer: int, game: str, hand: bool):
        super().__init__(rules)
        self.declarer, self.game, self.hand = declarer, game, hand

    def act(self, view):
        legal = view.legal
        phase = view.phase
        if phase is Phase.BIDDING:
            return legal[0] if view.seat == self.declarer and isinstance(legal[0], (Bid, Hold)) else PASS
        if phase is Phase.SKAT:
            return PLAY_HAND if self.hand else PICK_UP
        if phase is Phase.DISCARD:
            g = self.info.games[self.game]
            if g.family == "null":
                return self._null_discard(view.hand, legal, self.info.skat)
            return self._top_pair(view.hand, self._trump_discard_scores(view.hand, g), self.info.skat)
        if phase is Phase.DECLARE:
            want = Declaration(self.game, self.hand)
            return next(a for a in legal if isinstance(a, Declare) and a.declaration == want)
        return super().act(view)


def played(rules, hands, skat, declarer: int, game: str, hand: bool) -> tuple[bool, int]:
    """``(won, cards laid away)`` of ``game`` declared by ``declarer`` and played by heuristic players."""
    deal = play(rules, hands, skat, [_Forced(rules, declarer, game, hand) for _ in range(3)])
    return bool(deal.result().won), sum(BIT[c] for c in deal.discard)


def samples(ruleset: str, deals: int, seed: int, families=("suit", "grand", "null"), features=None,
            by: str = "solver"):
    """``{(family, when): [(x, won), ...]}`` from ``deals`` seeded deals;
    ``x``: the heuristic's strength, or ``features(hand, fore)`` if given;
    ``by``: who plays the cards - ``solver`` (double-dummy) or ``heuristic``."""
    rules = get_rules(ruleset)
    player = HeuristicPlayer(rules)
    info = player.info
    games = {fam: [g for g in info.games.values() if g.family == fam] for fam in ("suit", "grand", "null")}
    win = rules.thresholds.win
    rng = random.Random(seed)
    out: dict = {}

    def x(hand, d, fore):
        return player._x(hand, d, fore) if features is None else features(hand, fore)

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
                solver = Solver(g.table, declarer, "tricks" if null else "points", node_limit=NODE_LIMIT) \
                    if by == "solver" else None
                for when in ("hand", "pre"):
                    d = Declaration(g.name, when == "hand")
                    if by == "heuristic":
                        won, laid = played(rules, hands, skat, declarer, g.name, d.hand)
                        held = hand if d.hand else full & ~laid
                    elif when == "hand":
                        held, laid = hand, skat_mask
                    else:
                        pair = (player._null_discard(full, [], 2) if null
                                else player._top_pair(full, player._trump_discard_scores(full, g)))
                        laid = sum(BIT[c] for c in pair.cards)
                        held = full & ~laid
                    if solver is not None:
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
                    fore = declarer == 0  # forehand leads the first trick
                    out.setdefault((g.family, when), []).append((x(hand, d, fore), won))
                    if when == "pre":
                        out.setdefault((g.family, "post"), []).append((x(held, d, fore), won))
        if (n + 1) % 100 == 0:
            print(f"{n + 1}/{deals} deals", file=sys.stderr)
    return out


GRAND_FEATURES = ("club jack", "spade jack", "heart jack", "diamond jack", "2+ jacks", "3+ jacks", "voids", "aces",
                  "tens with ace", "guarded tens", "long-suit cards", "forehand")


def grand_features(hand: int, fore: bool) -> list[int]:
    """A Skat player's grand features of ``hand`` (names: ``GRAND_FEATURES``)."""
    jacks = [hand >> (8 * k + 3) & 1 for k in range(4)]
    n = sum(jacks)
    side = [0] * 5
    for k in range(4):
        b = hand >> (8 * k) & 0xF7  # bit 0 A, 4 T
        cards, ace, ten = b.bit_count(), b & 1, b >> 4 & 1
        side[0] += cards == 0
        side[1] += ace
        side[2] += ace & ten
        side[3] += ten and not ace and cards >= 2
        side[4] += max(0, cards - 3) if ace else 0
    return [*jacks, int(n >= 2), int(n >= 3), *side, int(fore)]


def fit(pairs, ridge: float = 1e-9) -> tuple[float, ...]:
    """Maximum-likelihood ``(a, b)`` of ``won ~ sigmoid(a * x + b)`` (Newton's
    method); ``x`` a vector: its weights, then ``b``."""
    x = np.array([p[0] for p in pairs], dtype=float).reshape(len(pairs), -1)
    y = np.array([p[1] for p in pairs], dtype=float)
    X = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(X.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(X @ w)))
        grad = X.T @ (y - p) - ridge * w
        hess = (X * (p * (1 - p))[:, None]).T @ X + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w += step
        if abs(step).max() < 1e-9:
            break
    return tuple(float(v) for v in w)


BANDS = (0.0, 0.3, 0.5, 0.7, 0.85, 0.95, 1.01)


def calibration(pairs, a: float, b: float) -> str:
    """Predicted against observed win rate in bands of predicted probability."""
    x = np.array([p[0] for p in pairs], dtype=float)
    y = np.array([p[1] for p in pairs], dtype=float)
    pred = 1.0 / (1.0 + np.exp(-(a * x + b)))
    rows = []
    for lo, hi in itertools.pairwise(BANDS):
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
    ap.add_argument("--grand-features", action="store_true",
                    help="fit the weights of the grand's hand features (after the discard), not COEF")
    ap.add_argument("--play", choices=("solver", "heuristic"), default="solver",
                    help="who plays the cards: double-dummy (default) or three heuristic players")
    args = ap.parse_args(argv)
    if args.grand_features:
        data = samples(args.ruleset, args.deals, args.seed, ("grand",), grand_features, args.play)[("grand", "post")]
        *weights, b = fit(data, ridge=1e-2)
        print(f"{len(data)} grands after the discard, {sum(y for _, y in data)} won; log-odds weights:")
        for name, w in zip(GRAND_FEATURES, weights, strict=True):
            print(f"  {name}: {w:+.2f}")
        print(f"  constant: {b:+.2f}")
        return 0
    data = samples(args.ruleset, args.deals, args.seed, tuple(args.families.split(",")), by=args.play)
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
