"""Paired screening of expert variants (issue 21): the same deals, played as
``skat duel`` plays them (each deal twice, seats swapped; ``--opponent
expert``: three experts, once), by the expert as it is and by variants that
set its attributes (``GRAND_MARGIN=10``).  Every deal is first played up to
the first card under each variant; where the bidding, the skat, the discard
and the declaration all match the base's, the card play is the same, so
only the deals where some variant's differ are played to the end.  Prints,
per variant, the deals that differ, the classic points per deal the expert's
side gains against the base (a 95% interval over all deals) and the contract
mix of the expert's games.

    python tools/paired_expert.py --deals 400 --seed 3 GRAND_MARGIN=10 GRAND_MARGIN=0

``--card-play declarer`` (or ``defenders``) screens card play alone: three
heuristic players bid, discard and declare, then the variants play the
declarer's cards against heuristic defenders (or both defenders' against a
heuristic declarer) from the same start; printed per variant, against the
base: the expert side's classic points per game and the declarer's card
points, the same contracts throughout.

    python tools/paired_expert.py --card-play defenders --deals 600 --seed 13 evidence=0
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

from skatcore.bots import resolve_player
from skatcore.bots.expert import ExpertPlayer
from skatcore.engine.deal import Deal, Phase
from skatcore.rules import get_rules
from skatcore.sim.play import play_on, players_for, seeded_deal
from skatcore.sim.simulate import seat_points
from skatcore.sim.stats import mean_ci

Patch = dict[str, float | int]


def parse(spec: str) -> Patch:
    """``NAME=value[,NAME=value]`` -> the attributes a variant sets (``base``: none)."""
    if spec == "base":
        return {}
    return {k: int(v) if v.lstrip("-").isdigit() else float(v) for k, v in (part.split("=") for part in spec.split(","))}


def patched(factory: Any, patch: Patch) -> Any:
    """``factory`` whose expert players take the attributes of ``patch``."""

    def make(rules: Any, seed: int | None = None) -> Any:
        p = factory(rules=rules, seed=seed)
        if isinstance(p, ExpertPlayer):
            for k, v in patch.items():
                setattr(p, k, v)
        return p
    return make


def start(rules: Any, players: list, hands: Any, skat: Any) -> tuple[Deal, list]:
    """The deal played up to its first card (or its end), with the actions taken."""
    deal = play_on(Deal(rules, hands, skat), players, until=Phase.PLAY)
    return deal, list(deal.history)


def rows(task: tuple[str, str, int, int, int, tuple[str, ...], bool]) -> list[dict]:
    """Per deal and play: whether each variant started it as the base did (``same``), and the classic points by
    side and the expert's contract (game, won) of the base, or of every variant where any started otherwise
    (``check``: always)."""
    ref, opponent, seed, lo, hi, specs, check = task
    rules = get_rules(ref)
    patches = [parse(s) for s in specs]
    expert, other = resolve_player("expert"), resolve_player(opponent)
    sides = (0,) if opponent == "expert" else (0, 1)
    out = []
    for i in range(lo, hi):
        hands, skat, pseeds, *_ = seeded_deal(seed, i)
        lone = i % 3
        for alone in sides:
            side_of = [alone if s == lone else 1 - alone for s in range(3)]
            runs = []
            for patch in patches:
                facs = (patched(expert, patch), patched(other, patch))
                by_slot = [facs[side_of[(p + i) % 3]] for p in range(3)]
                players = players_for(rules, by_slot, seed, i, pseeds)
                deal, log = start(rules, players, hands, skat)
                runs.append((deal, players, log))
            differs = any(r[2] != runs[0][2] for r in runs) or check
            row: dict = {"deal": i, "alone": alone, "differs": differs, "classic": [], "game": [],
                         "same": [r[2] == runs[0][2] for r in runs]}
            for deal, players, _ in runs if differs else runs[:1]:
                r = play_on(deal, players).result()
                cl, _ = seat_points(r, (0, 1, 2))
                row["classic"].append([sum(cl[s] for s in range(3) if side_of[s] == k) for k in (0, 1)])
                row["game"].append(None if r.declarer is None or r.won is None
                                   or (side_of[r.declarer] != 0 and opponent != "expert") else (r.game, bool(r.won)))
            out.append(row)
    return out


def card_rows(task: tuple[str, str, int, int, int, tuple[str, ...]]) -> list[dict]:
    """Per deal some heuristic declared: the declarer's score and card points under each variant, the expert
    playing the ``role``'s cards (``declarer`` or ``defenders``) after the heuristics' bidding and declaration."""
    ref, role, seed, lo, hi, specs = task
    rules = get_rules(ref)
    expert, heuristic = resolve_player("expert"), resolve_player("heuristic")
    out = []
    for i in range(lo, hi):
        hands, skat, pseeds, *_ = seeded_deal(seed, i)
        deal, _ = start(rules, players_for(rules, [heuristic] * 3, seed, i, pseeds), hands, skat)
        if deal.done or deal.declarer is None:
            continue
        start_actions = [a for _, a in deal.history]
        row: dict = {"deal": i, "score": [], "points": []}
        for spec in specs:
            mine = patched(expert, parse(spec))
            by_seat = [mine if (s == deal.declarer) == (role == "declarer") else heuristic for s in range(3)]
            again = Deal(rules, hands, skat)
            for a in start_actions:
                again.apply(a)
            r = play_on(again, players_for(rules, [by_seat[(p + i) % 3] for p in range(3)], seed, i, pseeds)).result()
            row["score"].append(r.score if role == "declarer" else -r.score)
            row["points"].append(r.declarer_points or 0)
        out.append(row)
    return out


def _interval(vals: list[float]) -> str:
    """The mean of ``vals`` with its 95% interval."""
    ci = mean_ci(vals)
    if ci.estimate is None or ci.low is None or ci.high is None:
        return "n/a" if ci.estimate is None else f"{ci.estimate:+.2f}"
    return f"{ci.estimate:+.2f} [{ci.low:+.2f}, {ci.high:+.2f}]"


def card_main(args: argparse.Namespace, specs: tuple[str, ...]) -> int:
    """``--card-play``: the variants' card play on the heuristics' contracts."""
    tasks = [(args.ruleset, args.card_play, args.seed, x, min(args.first + args.deals, x + 10), specs)
             for x in range(args.first, args.first + args.deals, 10)]
    got = [r for t in tasks for r in card_rows(t)]
    print(f"{len(got)} games of {args.deals} deals, seed {args.seed}, the expert as {args.card_play} against heuristics")
    for k, spec in enumerate(specs[1:], 1):
        print(f"{spec}: the expert's side per game vs base {_interval([r['score'][k] - r['score'][0] for r in got])}; "
              f"declarer's card points {_interval([r['points'][k] - r['points'][0] for r in got])}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("variants", nargs="+", help="NAME=value[,NAME=value] per variant")
    ap.add_argument("--ruleset", default="official")
    ap.add_argument("--opponent", default="heuristic")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--check", action="store_true", help="play every deal to the end under every variant")
    ap.add_argument("--card-play", choices=("declarer", "defenders"),
                    help="the heuristics bid and declare; the variants play this side's cards")
    args = ap.parse_args(argv)
    specs = ("base", *args.variants)
    if args.card_play:
        return card_main(args, specs)
    step = 10
    tasks = [(args.ruleset, args.opponent, args.seed, x, min(args.first + args.deals, x + step), specs, args.check)
             for x in range(args.first, args.first + args.deals, step)]
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            parts = pool.map(rows, tasks, chunksize=1)
    else:
        parts = [rows(t) for t in tasks]
    got = [r for part in parts for r in part]
    n = args.deals
    print(f"{n} deals, seed {args.seed}, expert against {args.opponent}")
    for k, spec in enumerate(specs[1:], 1):
        diffs: dict[int, float] = {}
        mix: Counter = Counter()
        wins: Counter = Counter()
        changed = 0
        for r in got:
            j = 0 if r["same"][k] else k
            base, mine = r["classic"][0], r["classic"][j]
            d = (mine[0] - mine[1]) - (base[0] - base[1])
            diffs[r["deal"]] = diffs.get(r["deal"], 0) + d
            changed += j != 0
            if r["game"][j] is not None:
                fam = str(get_rules(args.ruleset).contracts[r["game"][j][0]].family)
                mix[fam] += 1
                wins[fam] += r["game"][j][1]
        vals = [diffs.get(i, 0.0) for i in range(args.first, args.first + n)]
        games = sum(mix.values())
        print(f"{spec}: {changed} plays changed; classic per deal vs base {_interval(vals)}; expert's games "
              + " / ".join(f"{f} {100 * mix[f] / games:.1f}% (won {100 * wins[f] / max(1, mix[f]):.0f}%)"
                           for f in ("grand", "suit", "null")))
    base_mix: Counter = Counter(str(get_rules(args.ruleset).contracts[r["game"][0][0]].family)
                                for r in got if r["game"][0] is not None)
    games = sum(base_mix.values())
    print("base: expert's games " + " / ".join(f"{f} {100 * base_mix[f] / games:.1f}%" for f in ("grand", "suit", "null")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
