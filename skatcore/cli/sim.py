"""``skat simulate``, ``skat compare``, ``skat bench`` and ``skat play``:
argument parsing and output; the work is in :mod:`skatcore.sim.simulate`,
:mod:`skatcore.sim.report` and :mod:`skatcore.cli.play`."""

from __future__ import annotations

from skatcore.cli import numbers
from skatcore.errors import json_text, printable

VERIFY_HELP = ("also play the first N deals on the compiled path (whatever N) and through Deal, and stop with an "
               "error naming the deal and field where they differ")


def add_commands(sub) -> None:
    """Register the simulation commands on the ``skat`` sub-parsers."""
    s = sub.add_parser("simulate", help="play seeded deals with bots and show statistics")
    s.add_argument("--ruleset", default="official", help="ruleset name or file (default official)")
    s.add_argument("--deals", type=numbers.deals, default=1000, help="number of deals (default 1000)")
    s.add_argument("--seed", type=numbers.seed, default=1, help="seed; deal i is seeded by (seed, i) (default 1)")
    s.add_argument("--players", default="heuristic",
                   help="player name for all three seats, or three comma-separated (heuristic,random,random); "
                        "registered players or module:factory (default heuristic)")
    s.add_argument("--jobs", type=numbers.jobs, default=1, help="local processes (results identical for any number)")
    s.add_argument("--dask", metavar="ADDRESS", help="run the chunks on a Dask scheduler (extra skatcore[cluster])")
    s.add_argument("--json", action="store_true", help="JSON output")
    s.add_argument("--verify", metavar="N", type=numbers.verify, help=VERIFY_HELP)
    s.set_defaults(func=cmd_simulate)

    s = sub.add_parser("compare", help="the same seeded deals under several rulesets, side by side")
    # no defaults here: --replay refuses what it takes from its record (skatcore.cli.compare fills them in)
    s.add_argument("rulesets", nargs="*", metavar="RULESET",
                   help="ruleset names or files (two or more, or one with --deal or --games; none with --replay)")
    s.add_argument("--deals", type=numbers.deals, help="number of deals (default 1000)")
    s.add_argument("--seed", type=numbers.seed, help="seed (default 1)")
    s.add_argument("--players", help="as for simulate (default heuristic)")
    s.add_argument("--jobs", type=numbers.jobs, default=1, help="local processes (results identical for any number)")
    s.add_argument("--dask", metavar="ADDRESS",
                   help="run the chunks on Dask: local:N starts a LocalCluster of N workers, else a scheduler address "
                        "(extra skatcore[cluster])")
    s.add_argument("--json", action="store_true", help="JSON output")
    s.add_argument("--html", metavar="FILE", help="also write a self-contained HTML report with charts")
    s.add_argument("--deal", metavar="FILE", help="score one recorded deal under each ruleset instead")
    s.add_argument("--games", metavar="FILE", nargs="+",
                   help="re-score real games instead: ISS archives (.sgf), deal records (.yaml/.json), JSON Lines (.jsonl)")
    s.add_argument("--until-ci", metavar="X", type=numbers.width,
                   help="deal on (doubling) until every headline interval is narrower than X "
                        "(percentage points for rates)")
    s.add_argument("--max-deals", type=numbers.deals, help="upper limit for --until-ci (default 1000000)")
    s.add_argument("--per-deal", metavar="FILE",
                   help="write one row per deal and ruleset: .jsonl, .csv or .parquet (the provenance beside it: "
                        "FILE.meta.json)")
    s.add_argument("--verify", metavar="N", type=numbers.verify, help=VERIFY_HELP)
    s.add_argument("--replay", metavar="FILE",
                   help="run a recorded comparison again (FILE.meta.json, --json output or a .parquet per-deal file) "
                        "and say whether its rules, players, games files and rows are the same")
    s.add_argument("--strict", action="store_true",
                   help="with --replay: refuse (exit 2) when anything the record pins differs, and write nothing "
                        "when the rows differ")
    s.set_defaults(func=cmd_compare)

    s = sub.add_parser("duel", help="duplicate play: player A against player B on the same deals, seats swapped")
    s.add_argument("a", metavar="A", help="player A (a registered player, name:key=value options, or module:factory)")
    s.add_argument("b", metavar="B", help="player B")
    s.add_argument("--ruleset", default="official", help="ruleset name or file (default official)")
    s.add_argument("--deals", type=numbers.deals, default=200, help="number of deals, each played twice (default 200)")
    s.add_argument("--seed", type=numbers.seed, default=1, help="seed (default 1)")
    s.add_argument("--jobs", type=numbers.jobs, default=1, help="local processes (results identical for any number)")
    s.add_argument("--json", action="store_true", help="JSON output")
    s.set_defaults(func=cmd_duel)

    s = sub.add_parser("bench", help="measure deals per second (random and heuristic players, ruleset official) "
                                     "and the double-dummy solver on opening positions")
    s.add_argument("--ruleset", default="official", help="ruleset (default official)")
    s.add_argument("--seconds", type=numbers.seconds, default=2.0, help="time per measurement (default 2)")
    s.add_argument("--json", action="store_true", help="JSON: the last line is one object with the figures")
    s.add_argument("--compare-openspiel", action="store_true",
                   help="measure OpenSpiel's C++ skat rollouts in the same run (needs pip install open_spiel)")
    s.add_argument("--solver-positions", metavar="N", type=numbers.positions, default=None,
                   help="time the double-dummy solver on N openings of declared games and N random ones "
                        "(default 40; 0: not at all)")
    s.add_argument("--solver-only", action="store_true", help="only the solver's figures")
    s.add_argument("--warm", action="store_true",
                   help="only compile the numba parts into numba's cache (once per machine and version), "
                        "so that no later command waits seconds for it")
    s.set_defaults(func=cmd_bench)

    s = sub.add_parser("play", help="play at a card table in the terminal against bots")
    s.add_argument("--ruleset", default="official", help="ruleset name or file (default official)")
    s.add_argument("--seed", type=numbers.seed, default=None, help="seed of the first deal (default: random)")
    s.add_argument("--deals", type=numbers.deals_or_none, default=0, help="stop after this many deals (default: ask)")
    s.add_argument("--opponents", default="heuristic",
                   help="the bots: one player for all (heuristic, expert, random) or one per bot clockwise from you "
                        "(expert,heuristic); default heuristic")
    s.set_defaults(func=_cmd_play)


def _cmd_play(args) -> int:
    from skatcore.cli.play import cmd_play

    return cmd_play(args)


# ---------------------------------------------------------------------------


def cmd_simulate(args) -> int:
    from skatcore.sim.counters import counter_rates, rate_specs, rates_line
    from skatcore.sim.simulate import check_args, fmt, metric_rows, parse_players, path_line, print_table
    from skatcore.sim.verify import check_verify, verify_all
    slots = parse_players(args.players)
    check_args([args.ruleset], args.deals, args.jobs, slots)
    check_verify(args.verify, args.deals)
    verified = verify_all([args.ruleset], args.verify, args.seed, slots)  # first: a difference stops the run
    stats = _run([args.ruleset], args, slots)[0]
    rates = counter_rates(stats.bots, rate_specs(slots))
    if args.json:
        out = stats.to_json()
        out["seed"] = args.seed
        if rates:
            out["bot_rates"] = rates
        if verified:
            out["verify"] = verified[0].to_json()
        print(json_text(out))
        return 0
    s = stats.summary()
    rows = [(label, fmt(v, label)) for label, v in metric_rows(s)]
    print(printable(f"{s['ruleset']}: {args.deals} deals, seed {args.seed}, players {', '.join(slots)}"))
    for v in verified or ():
        print(printable(v.text()))
    print_table(None, ["statistic", s["ruleset"]], rows)
    print(f"how played: {path_line(stats)}")
    if rates:
        print(printable(f"players' rates: {rates_line(rates)}"))
    return 0


def _run(refs, args, slots) -> list:  # one skatcore.sim.simulate.Stats per ruleset (imported by the command)
    from skatcore.sim.simulate import run, run_with_progress
    if getattr(args, "dask", None) or args.deals * len(refs) >= 2000:
        return run_with_progress(refs, args.deals, args.seed, slots, args.jobs, args.dask)
    return run(refs, args.deals, args.seed, slots, jobs=args.jobs)


def cmd_compare(args) -> int:
    from skatcore.cli.compare import cmd_compare as run_compare

    return run_compare(args)


# ---------------------------------------------------------------------------


def cmd_bench(args) -> int:
    from skatcore.rules.compiler import get_rules
    from skatcore.sim.bench import SOLVER_POSITIONS, bench, solver_figures
    from skatcore.sim.warming import run as warm

    log = None if args.json else print
    positions = SOLVER_POSITIONS if args.solver_positions is None else args.solver_positions
    if args.warm:
        figures = warm(args.ruleset, log)  # after the warm-up's if one runs, and noted as the warm-up notes
    elif args.solver_only:
        figures = solver_figures(get_rules(args.ruleset), positions, log)
    else:
        figures = bench(args.ruleset, args.seconds, log, compare_openspiel=args.compare_openspiel,
                        solver_positions=positions)
    if args.json:
        print(json_text(figures))
    return 0



def cmd_duel(args) -> int:
    from skatcore.sim.counters import rates_line
    from skatcore.sim.duel import duel
    from skatcore.sim.simulate import print_table, progress_bar

    with progress_bar(args.deals, "deals") as bar:
        task = bar.add_task(f"{args.deals} deals x 2", total=args.deals)
        stats = duel(args.ruleset, args.a, args.b, args.deals, args.seed, args.jobs, lambda n: bar.advance(task, n))
    out = stats.to_json()
    if args.json:
        print(json_text(out))
        return 0
    a, b = args.a, args.b

    def ci(x: dict, scale: float = 1.0, unit: str = "") -> str:
        if x["estimate"] is None:
            return "-"
        e = f"{x['estimate'] * scale:+.1f}{unit}"
        if x["low"] is None:
            return e
        mark = "" if x["significant"] else ", includes 0"
        return f"{e}  [95% CI {x['low'] * scale:+.1f} to {x['high'] * scale:+.1f}{mark}]"

    def rate(x: dict) -> str:
        return "-" if x["estimate"] is None else f"{100 * x['estimate']:.1f}% of {x['n']}"

    print(printable(f"{a} vs {b}: {out['ruleset']}, {out['deals']} deals played twice with the seats swapped, seed {args.seed}"))
    rows = [("score per deal, A - B (classic)", ci(out["score_diff"])),
            ("Seeger-Fabian per deal, A - B", ci(out["seeger_fabian_diff"])),
            ("declarer wins, A", rate(out["declarer_win_rate"]["A"])),
            ("declarer wins, B", rate(out["declarer_win_rate"]["B"])),
            ("declarer wins, A - B", ci(out["declarer_win_rate_diff"], 100, " pp")),
            ("passed deals", f"{100 * out['passed_rate']:.1f}%" if out["passed_rate"] is not None else "-")]
    games = sorted({g for mix in out["contract_mix"].values() for g in mix},
                   key=lambda g: -max(m.get(g, 0) for m in out["contract_mix"].values()))
    for g in games:
        rows.append((f"mix: {g} (A / B)", "  /  ".join(f"{100 * out['contract_mix'][p].get(g, 0):.1f}%" for p in "AB")))
    for key in sorted({k for c in out.get("bot_counters", {}).values() for k in c}):
        rows.append((f"{key} (A / B)", "  /  ".join(str(out["bot_counters"][p].get(key, 0)) for p in "AB")))
    for side in "AB":
        if rates := out.get("bot_rates", {}).get(side):
            rows.append((f"rates, {side}", rates_line(rates)))
    print_table(None, ["statistic", f"A = {a}, B = {b}"], rows)
    return 0
