"""Leave-one-game-out (LOGO) agreement for an expert setting chosen by
looking at real ISS games.

A setting picked because it agreed best with the ISS sample has learnt the
sample's 25 games as much as the game; its in-sample figure flatters it.
For each game of the sample this tool picks the variant that agrees best on
the other games and scores it on the game left out; the sum over the games
is the LOGO figure.  Beside it: the in-sample figure of the variant that
agrees best on all the games, and that variant's figure on a held-out set
of other ISS games (never used to choose anything).  Each with a 95%
interval: Wilson's for a binomial share, and a bootstrap over games (the
decisions of one game are not independent).

    python tools/iss_logo.py --variants LEAD_SLACK=0.2 LEAD_SLACK=0 LEAD_SLACK=0.1 --seeds 1 2
    python tools/iss_logo.py --variants base SCHNEIDER=0 --heldout tests/data/iss/heldout.sgf --json

A variant is ``NAME=value[,NAME=value]`` (attributes of the expert, ``base``: as it is);
ties go to the variant named first (name the one in use first).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from skatcore.bots import resolve_player
from skatcore.errors import InputError
from skatcore.records.iss import NotScorable
from skatcore.rules import get_rules

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("iss_agreement", HERE / "iss_agreement.py")
assert _spec is not None and _spec.loader is not None
iss_agreement = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(iss_agreement)

KINDS = iss_agreement.KINDS
HELDOUT = HERE.parent / "tests" / "data" / "iss" / "heldout.sgf"
Counts = dict[str, tuple[int, int]]  # kind -> (agree, decisions) of one game


def parse(spec: str) -> dict[str, float | int]:
    """``NAME=value[,NAME=value]`` -> the attributes a variant sets (``base``: none)."""
    if spec == "base":
        return {}
    out: dict[str, float | int] = {}
    for part in spec.split(","):
        name, eq, value = part.partition("=")
        try:
            out[name.strip()] = int(value) if value.strip().lstrip("-").isdigit() else float(value)
        except ValueError:
            raise InputError(f"variant {spec!r}: expected NAME=number[,NAME=number], not {part!r}") from None
        if not eq or not name.strip():
            raise InputError(f"variant {spec!r}: expected NAME=number[,NAME=number], not {part!r}")
    return out


def patched(factory: Any, patch: dict) -> Any:
    """``factory`` whose players take the attributes of ``patch`` (each must be one they have)."""

    def make(rules: Any, seed: int | None = None) -> Any:
        p = factory(rules=rules, seed=seed)
        for k, v in patch.items():
            if not hasattr(p, k):
                raise InputError(f"variant: the player has no setting {k!r}")
            setattr(p, k, v)
        return p
    return make


def games(paths) -> list[tuple[str, int, Any]]:
    """``(game id, line number, record)`` of every record of ``paths`` (a bad line: skipped here as by
    the agreement tool, which counts it)."""
    return [(record.id or f"{Path(path).name}:{n + 1}", n, record)
            for path, n, record in iss_agreement.records(paths) if record is not None]


def per_game(records, factory, seeds, ruleset: str = "official", cache: dict | None = None, key: str = "") -> list[Counts]:
    """Each game's agreement by kind, summed over ``seeds`` (the agreement tool's seed for the line: seed + n);
    ``cache``: the counts of one game and seed already played, by ``key``, game id and seed."""
    rules = get_rules(ruleset)
    out = []
    for gid, n, record in records:
        hits, total = Counter(), Counter()
        for seed in seeds:
            name = f"{key}|{gid}|{seed}"
            if cache is None or name not in cache:
                one: dict = {k: [0, 0] for k in KINDS}
                try:
                    for kinds, mine, theirs in iss_agreement.decisions(record, rules, factory, seed + n):
                        for k in kinds:
                            one[k][0] += mine == theirs
                            one[k][1] += 1
                except NotScorable:
                    pass
                if cache is None:
                    cache = {}
                cache[name] = one
            for k, (h, t) in cache[name].items():
                hits[k] += h
                total[k] += t
        out.append({k: (hits[k], total[k]) for k in KINDS})
    return out


def summed(rows: list[Counts], kind: str, skip: int | None = None) -> tuple[int, int]:
    """Agreement and decisions of ``kind`` over the games of ``rows`` (but game ``skip``)."""
    h = sum(r[kind][0] for i, r in enumerate(rows) if i != skip)
    return h, sum(r[kind][1] for i, r in enumerate(rows) if i != skip)


def best(table: list[list[Counts]], kind: str = "all", skip: int | None = None) -> int:
    """The variant (index into ``table``) that agrees most on ``kind`` over the games (but ``skip``);
    ties to the first.  Every variant meets the same decisions (the record's), so agreements compare."""
    scores = [summed(rows, kind, skip)[0] for rows in table]
    return scores.index(max(scores))


def logo(table: list[list[Counts]], kind: str = "all") -> tuple[list[Counts], list[int]]:
    """Leave one game out: for each game, the variant chosen on the others (by ``kind``) and its
    counts on that game.  ``table[v][g]``: variant v's counts on game g."""
    chosen = [best(table, kind, skip=g) for g in range(len(table[0]))]
    return [table[v][g] for g, v in enumerate(chosen)], chosen


def wilson(h: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson's 95% interval of a binomial share ``h`` / ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = h / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def bootstrap(rows: list[Counts], kind: str, resamples: int = 2000, seed: int = 0) -> tuple[float, float]:
    """A 95% percentile interval of the share, the games drawn with replacement."""
    pairs = [r[kind] for r in rows if r[kind][1]]
    if not pairs:
        return 0.0, 1.0
    rng = random.Random(seed)
    shares = []
    for _ in range(resamples):
        draw = [pairs[rng.randrange(len(pairs))] for _ in pairs]
        n = sum(d[1] for d in draw)
        shares.append(sum(d[0] for d in draw) / n if n else 0.0)
    shares.sort()
    return shares[int(0.025 * resamples)], shares[int(0.975 * resamples) - 1]


def figure(rows: list[Counts], kind: str) -> dict:
    h, n = summed(rows, kind)
    return {"agree": h, "decisions": n, "share": round(h / n, 4) if n else None,
            "wilson": [round(x, 4) for x in wilson(h, n)], "bootstrap": [round(x, 4) for x in bootstrap(rows, kind)]}


def report(variants: list[str], table: list[list[Counts]], held: list[list[Counts]] | None) -> dict:
    """In-sample (the variant best on every game), LOGO and held-out figures by kind."""
    top = best(table)
    rows, chosen = logo(table)
    out: dict = {"variants": variants, "chosen_in_sample": variants[top],
                 "chosen_per_left_out_game": dict(Counter(variants[v] for v in chosen))}
    for k in ("all", "defender_leads", "opening_lead"):
        out[k] = {"in_sample": figure(table[top], k), "logo": figure(rows, k),
                  "by_variant": {variants[v]: figure(table[v], k)["share"] for v in range(len(variants))}}
        if held is not None:
            out[k]["heldout"] = figure(held[top], k)
            out[k]["heldout_by_variant"] = {variants[v]: figure(held[v], k)["share"] for v in range(len(variants))}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--player", default="expert", help="the player the variants patch (default expert)")
    ap.add_argument("--variants", nargs="+", default=["base"], help="NAME=value[,NAME=value] or base; the one in use first")
    ap.add_argument("--seeds", nargs="+", type=int, default=[1])
    ap.add_argument("--files", nargs="*", default=None, help=f"the ISS games settings were chosen on "
                    f"(default: {iss_agreement.DATA}/*.sgf)")
    ap.add_argument("--heldout", nargs="*", default=None, help=f"held-out ISS games (default: {HELDOUT}; none: no files)")
    ap.add_argument("--ruleset", default="official")
    ap.add_argument("--cache", default=None, help="a JSON file of the counts already played (same code, same games)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    try:
        paths = args.files if args.files else sorted(iss_agreement.DATA.glob("*.sgf"))
        held_paths = [HELDOUT] if args.heldout is None else args.heldout
        base = resolve_player(args.player)
        factories = [patched(base, parse(v)) for v in args.variants]
        sample, others = games(paths), games(held_paths)
        cache = json.loads(Path(args.cache).read_text("utf-8")) if args.cache and Path(args.cache).is_file() else {}
        table, held = [], []
        for v, f in zip(args.variants, factories, strict=True):
            table.append(per_game(sample, f, args.seeds, args.ruleset, cache, f"{args.player}|{v}"))
            held.append(per_game(others, f, args.seeds, args.ruleset, cache, f"{args.player}|{v}"))
            if args.cache:
                Path(args.cache).write_text(json.dumps(cache), "utf-8")
    except (InputError, ValueError, OSError) as e:
        print(f"iss_logo: {e}", file=sys.stderr)
        return 2
    out = report(args.variants, table, held if others else None)
    out.update(player=args.player, seeds=args.seeds, games=len(sample), heldout_games=len(others))
    if args.json:
        json.dump(out, sys.stdout, indent=1)
        print()
        return 0
    print(f"{args.player}, seeds {args.seeds}: {len(sample)} games chosen on, {len(others)} held out; "
          f"chosen on all: {out['chosen_in_sample']}; per left-out game: {out['chosen_per_left_out_game']}")
    for k in ("all", "defender_leads", "opening_lead"):
        cells = []
        for name in ("in_sample", "logo", "heldout"):
            f = out[k].get(name)
            if f and f["decisions"]:
                cells.append(f"{name} {f['share']:.1%} of {f['decisions']} [{f['wilson'][0]:.1%}, {f['wilson'][1]:.1%}]"
                             f" (games {f['bootstrap'][0]:.1%}-{f['bootstrap'][1]:.1%})")
        print(f"{k:<15}" + "; ".join(cells))
        print(f"{'':<15}by variant: " + ", ".join(f"{v} {s:.1%}" for v, s in out[k]["by_variant"].items() if s is not None)
              + ("; held out: " + ", ".join(f"{v} {s:.1%}" for v, s in out[k].get("heldout_by_variant", {}).items()
                                            if s is not None) if held else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
