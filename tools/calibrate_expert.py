"""How well the expert's chances match what its games bring (issue 21, item 5).

Plays seeded deals as ``skat duel`` does (the same deals and player seeds:
each deal twice, the expert alone in one seat and the opponent in the other
two, then the other way round; ``--opponent expert`` plays each deal once
with three experts) and records, for every game the expert declares, the
chance its bidding acted on and the one its declaration acted on
(:func:`~skatcore.bots.expert.outlooks.bid_outlooks`, its
``declared`` outlook) beside the outcome and the score.  Prints:

* the declaration's chance against the win rate, by contract family (hand
  games apart) and by band of the chance, with the mean classic score;
* the same for the bidding's chance at the final bid (the contract of value
  at least the bid that the expert expects most from), for all games and for
  those bid to within 5 of the expert's limit;
* in a duel, each seat's games compared with the opponent's on the same
  cards (each seat is held by the expert in one play and by the opponent in
  the other; the classic points per deal of the duel are the sum of these
  differences): where only the expert declared, only the opponent, both.

``--fit`` adds a logistic correction per family and step, ``won ~
sigmoid(a + b * logit(chance before the correction))``, fitted on the
declared games whose chance came from the layouts (Newton's method, as
``tools/fit_expert_null.py``): the lines of ``SolverBidding.CALIBRATION``.

    PYTHONPATH=../xskat python tools/calibrate_expert.py --opponent xskat_player:factory --deals 400 --seed 7 --jobs 2 --fit
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

import numpy as np

from skatcore.bots import resolve_player
from skatcore.bots.expert.bidding import Outlook, SolverBidding, logit
from skatcore.bots.expert.outlooks import bid_outlooks
from skatcore.bots.heuristic.tables import BIT
from skatcore.rules import get_rules
from skatcore.sim.play import play_seeded, seeded_deal
from skatcore.sim.simulate import seat_points

BANDS = (0.0, 0.5, 0.6, 0.67, 0.75, 0.85, 0.95, 1.01)
Row = dict[str, Any]


def family(game: str, rules: Any) -> str:
    return str(rules.contracts[game].family)


def bid_choice(player: SolverBidding, outlooks: Sequence[Outlook], bid: int) -> Outlook | None:
    """The outlook of value at least ``bid`` the expert expects most from (its score as the player reckons it)."""
    best, key = None, -math.inf
    for o in outlooks:
        if o.value < bid:
            continue
        lost = player.info.lost_factor(next(c.d for r in ("pickup", "hand") for c in player.info.cands[r]
                                            if c.d.game == o.game and c.d.hand == o.hand and c.d.ouvert == o.ouvert))
        e = player._expected(o.chance, o.value, lost, bid, None)
        if e > key:
            best, key = o, e
    return best


def limit_of(player: SolverBidding, outlooks: Sequence[Outlook]) -> int:
    """The highest value among ``outlooks`` whose chance reaches the player's break-even chance."""
    best = 0
    for o in outlooks:
        cand = next(c for r in ("pickup", "hand") for c in player.info.cands[r]
                    if c.d.game == o.game and c.d.hand == o.hand and c.d.ouvert == o.ouvert)
        if o.value > best and o.chance >= player._need(o.value, cand.lost):
            best = o.value
    return best


def play_rows(task: tuple[str, str, str, int, int, int]) -> list[Row]:
    """One row per seat and play of deals ``start..stop-1``."""
    ref, expert, opponent, seed, start, stop = task
    rules = get_rules(ref)
    factories = (resolve_player(expert), resolve_player(opponent))
    alone_sides = (0,) if opponent == expert else (0, 1)
    rows: list[Row] = []
    for i in range(start, stop):
        dealt = seeded_deal(seed, i)
        hands = dealt[0]
        lone = i % 3
        for alone in alone_sides:
            side_of = [alone if s == lone else 1 - alone for s in range(3)]
            by_slot = [factories[side_of[(p + i) % 3]] for p in range(3)]
            deal, players = play_seeded(rules, by_slot, seed, i, dealt)
            r = deal.result()
            classic, sf = seat_points(r)
            for s in range(3):
                me = players[s]
                row: Row = {"deal": i, "alone": alone, "seat": s, "side": side_of[s], "classic": classic[s],
                            "sf": sf[s], "declared": r.declarer == s and r.won is not None}
                if row["declared"]:
                    row.update(game=r.game, family=family(r.game, rules), hand=bool(r.hand), bid=r.bid,
                               won=bool(r.won), overbid=bool(r.overbid))
                if isinstance(me, SolverBidding):
                    ten = sum(BIT[c] for c in hands[s])
                    outs = bid_outlooks(me, ten, s)
                    row["limit"] = limit_of(me, outs)
                    if row["declared"]:
                        got = bid_choice(me, outs, r.bid or 0)
                        if got is not None:
                            row["bid_chance"], row["bid_raw"], row["bid_family"] = got.chance, got.raw, got.family
                            row["bid_source"] = got.source
                        d = getattr(me, "declared", None)
                        if d is not None and not r.hand and d.game == r.game:
                            row["decl_chance"], row["decl_raw"], row["decl_source"] = d.chance, d.raw, d.source
                        elif r.hand:  # a hand game: the heuristic's estimate the expert acted on
                            o = next((o for o in outs if o.hand and o.game == r.game and not o.ouvert), None)
                            if o is not None:
                                row["decl_chance"], row["decl_raw"], row["decl_source"] = o.chance, o.raw, o.source
                rows.append(row)
    return rows


def collect(ref: str, expert: str, opponent: str, deals: int, seed: int, jobs: int) -> list[Row]:
    step = max(1, min(25, -(-deals // max(1, 4 * jobs))))
    tasks = [(ref, expert, opponent, seed, x, min(deals, x + step)) for x in range(0, deals, step)]
    if jobs > 1:
        with Pool(jobs) as pool:
            parts = pool.map(play_rows, tasks, chunksize=1)
    else:
        parts = [play_rows(t) for t in tasks]
    return [row for part in parts for row in part]


def kind(row: Row) -> str:
    return f"{row['family']}{' hand' if row['hand'] else ''}"


def band_table(rows: Sequence[Row], key: str, group: str) -> list[str]:
    """Lines of a calibration table of ``rows`` by ``group`` and band of ``rows[key]``."""
    out = [f"{'contract':12} {'chance':>11} {'games':>6} {'est':>6} {'won':>6} {'classic':>8}"]
    groups = sorted({str(r[group]) if group != "kind" else kind(r) for r in rows})
    for g in groups:
        mine = [r for r in rows if (kind(r) if group == "kind" else str(r[group])) == g]
        for lo, hi in itertools.pairwise(BANDS):
            inside = [r for r in mine if lo <= r[key] < hi]
            if inside:
                out.append(f"{g:12} {lo:.2f}-{min(hi, 1.0):.2f} {len(inside):6d} {np.mean([r[key] for r in inside]):6.3f} "
                           f"{np.mean([r['won'] for r in inside]):6.3f} {np.mean([r['classic'] for r in inside]):8.2f}")
        out.append(f"{g:12} {'all':>11} {len(mine):6d} {np.mean([r[key] for r in mine]):6.3f} "
                   f"{np.mean([r['won'] for r in mine]):6.3f} {np.mean([r['classic'] for r in mine]):8.2f}")
    return out


def duplicate_table(rows: Sequence[Row]) -> list[str]:
    """Each seat's games by the expert (side 0) and by the opponent (side 1) on the same cards."""
    by = {(r["deal"], r["seat"], r["side"]): r for r in rows}
    cells: dict[str, list[tuple[int, int]]] = {}
    for (i, s, side), a in by.items():
        if side != 0:
            continue
        b = by[(i, s, 1)]
        what = {(True, True): "both declared", (True, False): "only the expert",
                (False, True): "only the opponent", (False, False): "neither"}[(a["declared"], b["declared"])]
        cells.setdefault(what, []).append((a["classic"], b["classic"]))
        if a["declared"] and not b["declared"]:
            cells.setdefault(f"  only the expert, {kind(a)}", []).append((a["classic"], b["classic"]))
        if b["declared"] and not a["declared"]:
            cells.setdefault(f"  only the opponent, {kind(b)}", []).append((a["classic"], b["classic"]))
    deals = len({r["deal"] for r in rows})
    out = [f"{'seat outcome':34} {'seats':>6} {'expert':>8} {'opponent':>8} {'per deal':>9}"]
    for what in sorted(cells, key=lambda w: (w.strip().split(",")[0], w)):
        pairs = np.array(cells[what])
        out.append(f"{what:34} {len(pairs):6d} {pairs[:, 0].mean():8.2f} {pairs[:, 1].mean():8.2f} "
                   f"{(pairs[:, 0] - pairs[:, 1]).sum() / deals:+9.2f}")
    return out


def fit(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Maximum-likelihood ``(a, b)`` of ``y ~ sigmoid(a + b * x)`` (Newton's method, a little ridge)."""
    X = np.column_stack([np.ones(len(x)), x])
    w = np.array([0.0, 1.0])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(X @ w)))
        hess = (X * (p * (1 - p))[:, None]).T @ X + 1e-3 * np.eye(2)
        step = np.linalg.solve(hess, X.T @ (y - p) - 1e-3 * (w - [0.0, 1.0]))
        w += step
        if abs(step).max() < 1e-9:
            break
    return round(float(w[0]), 2), round(float(w[1]), 2)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--ruleset", default="official")
    ap.add_argument("--expert", default="expert", help="the expert player (options as in skat duel)")
    ap.add_argument("--opponent", default="expert", help="a player spec; 'expert': three experts, one play per deal")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--fit", action="store_true", help="fit a logistic correction per family")
    ap.add_argument("--rows", help="write the rows as JSON lines to this file")
    args = ap.parse_args(argv)
    rows = collect(args.ruleset, args.expert, args.opponent, args.deals, args.seed, args.jobs)
    if args.rows:
        with open(args.rows, "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in rows)
    mine = [r for r in rows if r["side"] == 0 and r["declared"]]
    print(f"{args.deals} deals, seed {args.seed}, {args.expert} against {args.opponent}: "
          f"the expert declared {len(mine)} games, won {np.mean([r['won'] for r in mine]):.3f}")
    print("\nAt the declaration (the chance of the contract declared):")
    print("\n".join(band_table([r for r in mine if "decl_chance" in r], "decl_chance", "kind")))
    print("\nAt the bidding (the chance at the final bid; family of the contract judged):")
    print("\n".join(band_table([r for r in mine if "bid_chance" in r], "bid_chance", "bid_family")))
    near = [r for r in mine if "bid_chance" in r and r["bid"] is not None and r["limit"] <= r["bid"] + 5]
    print(f"\nBid to within 5 of the expert's limit ({len(near)} games):")
    print("\n".join(band_table(near, "bid_chance", "bid_family")))
    if any(r["side"] == 1 for r in rows):
        print("\nThe same seats, the expert against the opponent (classic points):")
        print("\n".join(duplicate_table(rows)))
    if args.fit:
        print("\nCALIBRATION (won ~ sigmoid(a + b * logit(chance before the correction)); solver chances only):")
        for step, key, pick in (("bid", "bid_raw", "bid_family"), ("declare", "decl_raw", "family")):
            for fam in ("grand", "suit"):
                sel = [r for r in mine if key in r and r[pick] == fam and not r["hand"]
                       and r["bid_source" if step == "bid" else "decl_source"] == "solver"]
                if len(sel) >= 20:
                    a, b = fit(np.array([logit(r[key]) for r in sel]), np.array([r["won"] for r in sel], dtype=float))
                    print(f"  ({fam!r}, {step!r}): ({a}, {b}),  # {len(sel)} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
