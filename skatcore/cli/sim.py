"""``skat simulate``, ``skat compare``, ``skat bench`` and ``skat play``:
argument parsing and output; the work is in :mod:`skatcore.sim.simulate`,
:mod:`skatcore.sim.report` and :mod:`skatcore.cli.play`."""

from __future__ import annotations

import json

from skatcore.errors import InputError
from skatcore.sim.simulate import Stats, check_args, fmt, fmt_diff, metric_rows, parse_players, print_table, run, run_with_progress


def _positive(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise InputError(f"expected a whole number, not {text!r}") from None


def add_commands(sub) -> None:
    """Register the simulation commands on the ``skat`` sub-parsers."""
    s = sub.add_parser("simulate", help="play seeded deals with bots and show statistics")
    s.add_argument("--ruleset", default="official", help="ruleset name or file (default official)")
    s.add_argument("--deals", type=_positive, default=1000, help="number of deals (default 1000)")
    s.add_argument("--seed", type=_positive, default=1, help="seed; deal i is seeded by (seed, i) (default 1)")
    s.add_argument("--players", default="heuristic",
                   help="player name for all three seats, or three comma-separated (heuristic,random,random); "
                        "registered players or module:factory (default heuristic)")
    s.add_argument("--jobs", type=_positive, default=1, help="local processes (results identical for any number)")
    s.add_argument("--dask", metavar="ADDRESS", help="run the chunks on a Dask scheduler (extra skatcore[cluster])")
    s.add_argument("--json", action="store_true", help="JSON output")
    s.set_defaults(func=cmd_simulate)

    s = sub.add_parser("compare", help="the same seeded deals under several rulesets, side by side")
    s.add_argument("rulesets", nargs="+", metavar="RULESET")
    s.add_argument("--deals", type=_positive, default=1000, help="number of deals (default 1000)")
    s.add_argument("--seed", type=_positive, default=1, help="seed (default 1)")
    s.add_argument("--players", default="heuristic", help="as for simulate (default heuristic)")
    s.add_argument("--jobs", type=_positive, default=1, help="local processes (results identical for any number)")
    s.add_argument("--dask", metavar="ADDRESS", help="run the chunks on a Dask scheduler (extra skatcore[cluster])")
    s.add_argument("--json", action="store_true", help="JSON output")
    s.add_argument("--html", metavar="FILE", help="also write a self-contained HTML report with charts")
    s.add_argument("--deal", metavar="FILE", help="score one recorded deal under each ruleset instead")
    s.set_defaults(func=cmd_compare)

    s = sub.add_parser("bench", help="measure deals per second (random and heuristic players, ruleset official)")
    s.add_argument("--ruleset", default="official", help="ruleset (default official)")
    s.add_argument("--seconds", type=float, default=2.0, help="time per measurement (default 2)")
    s.add_argument("--json", action="store_true", help="JSON: the last line is one object with the figures")
    s.add_argument("--compare-openspiel", action="store_true",
                   help="measure OpenSpiel's C++ skat rollouts in the same run (needs pip install open_spiel)")
    s.set_defaults(func=cmd_bench)

    s = sub.add_parser("play", help="play in the terminal against two heuristic players")
    s.add_argument("--ruleset", default="official", help="ruleset name or file (default official)")
    s.add_argument("--seed", type=int, default=None, help="seed of the first deal (default: random)")
    s.add_argument("--deals", type=_positive, default=0, help="stop after this many deals (default: ask)")
    s.set_defaults(func=_cmd_play)


def _cmd_play(args) -> int:
    from skatcore.cli.play import cmd_play

    return cmd_play(args)


# ---------------------------------------------------------------------------


def cmd_simulate(args) -> int:
    slots = parse_players(args.players)
    check_args([args.ruleset], args.deals, args.jobs, slots)
    stats = _run([args.ruleset], args, slots)[0]
    if args.json:
        out = stats.to_json()
        out["seed"] = args.seed
        print(json.dumps(out, ensure_ascii=False))
        return 0
    s = stats.summary()
    rows = [(label, fmt(v, label)) for label, v in metric_rows(s)]
    print(f"{s['ruleset']}: {args.deals} deals, seed {args.seed}, players {', '.join(slots)}")
    print_table(None, ["statistic", s["ruleset"]], rows)
    return 0


def _run(refs, args, slots) -> list[Stats]:
    if getattr(args, "dask", None) or args.deals * len(refs) >= 2000:
        return run_with_progress(refs, args.deals, args.seed, slots, args.jobs, args.dask)
    return run(refs, args.deals, args.seed, slots, jobs=args.jobs)


def compare_table(summaries: list[dict]) -> tuple[list[str], list[list[str]], dict]:
    """Columns, rows and the differences (each ruleset minus the first)."""
    names = [s["ruleset"] for s in summaries]
    values = [dict(metric_rows(s)) for s in summaries]
    # row order: the fixed statistics, then each section over the union of contracts
    labels: dict[str, None] = {}
    sections: dict[str, dict[str, None]] = {}
    for v in values:
        for label in v:
            head, sep, _ = label.partition(": ")
            if sep:
                sections.setdefault(head, {})[label] = None
            else:
                labels[label] = None
    for head, section in sections.items():
        if head == "mix":  # most frequent first, over all rulesets
            section = dict.fromkeys(sorted(section, key=lambda k: -max(v.get(k, 0.0) for v in values)))
        labels.update(section)
    columns = ["statistic", *names, *(f"Δ {n}" for n in names[1:])]
    table, diffs = [], {n: {} for n in names[1:]}
    for label in labels:
        vals = [v.get(label, 0.0 if label.startswith("mix: ") else None) for v in values]
        row = [label, *(fmt(v, label) for v in vals)]
        for n, v in zip(names[1:], vals[1:]):
            base = vals[0]
            d = _r(v - base) if isinstance(v, (int, float)) and isinstance(base, (int, float)) else None
            diffs[n][label] = d
            row.append(fmt_diff(d, label))
        table.append(row)
    return columns, table, diffs


def _r(x):
    return round(x, 4) if isinstance(x, float) else x


def cmd_compare(args) -> int:
    if args.deal:
        return _compare_deal(args)
    slots = parse_players(args.players)
    check_args(args.rulesets, args.deals, args.jobs, slots)
    stats = _run(args.rulesets, args, slots)
    summaries = [s.summary() for s in stats]
    columns, rows, diffs = compare_table(summaries)
    if args.html:
        from skatcore.sim.report import write_html

        write_html(args.html, stats, args.seed, slots)
    if args.json:
        out = {"deals": args.deals, "seed": args.seed, "players": list(slots),
               "rulesets": [s.to_json() for s in stats], "differences": diffs}
        if args.html:
            out["html"] = args.html
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(f"{' vs '.join(args.rulesets)}: the same {args.deals} deals, seed {args.seed}, players {', '.join(slots)}")
    print_table(None, columns, rows)
    if args.html:
        print(f"report: {args.html}")
    return 0


def _compare_deal(args) -> int:
    from skatcore.rules.compiler import rules_for
    from skatcore.records.deal import read_record, score_record

    doc = read_record(args.deal)
    results = []
    for ref in args.rulesets:
        rules = rules_for(doc, args.deal, ref)
        results.append(score_record(doc, rules, args.deal))
    if args.json:
        print(json.dumps([r.to_json() for r in results], ensure_ascii=False))
        return 0
    from skatcore.model import SEATS

    for r in results:
        entries = ", ".join(f"{s} {r.scores[s]:+d}" for s in SEATS if r.scores.get(s))
        print(f"{r.ruleset}: {r.game}")
        print(f"  {r.explanation}")
        print(f"  sheet: {entries or 'nothing'}")
    return 0


# ---------------------------------------------------------------------------


def cmd_bench(args) -> int:
    from skatcore.sim.bench import bench

    if args.seconds <= 0:
        raise InputError(f"--seconds must be positive, not {args.seconds}")
    figures = bench(args.ruleset, args.seconds, log=None if args.json else print, compare_openspiel=args.compare_openspiel)
    if args.json:
        print(json.dumps(figures))
    return 0

