"""``skat compare``: output of a comparison (table, JSON, HTML) for
simulated deals, re-scored real games (``--games``) and one recorded deal
(``--deal``); the work is in :mod:`skatcore.sim.compare` and
:mod:`skatcore.sim.games`."""

from __future__ import annotations

import dataclasses
import time

from skatcore.errors import InputError, json_text, printable
from skatcore.rules.compiler import get_rules
from skatcore.rules.describe import rules_diff
from skatcore.sim.compare import Comparison, compare, finding_text, stat_table
from skatcore.sim.simulate import check_args, parse_players, path_line, print_table, progress_bar
from skatcore.sim.verify import check_verify, verify_all

_DEFAULTS = {"deals": 1000, "seed": 1, "players": "heuristic", "max_deals": 1_000_000}


def cmd_compare(args) -> int:
    for mode, flags in (("deal", ("games", "until_ci", "per_deal", "html", "verify", "replay")),
                        ("games", ("until_ci", "verify"))):
        given = [f for f in flags if getattr(args, f) is not None]
        if getattr(args, mode) and given:  # refused rather than left unsaid
            raise InputError(f"--{given[0].replace('_', '-')} does not go with --{mode}")
    replay = _replay(args)
    for key, value in _DEFAULTS.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if args.deal:
        return _compare_deal(args)
    slots = parse_players(args.players)
    if args.games:
        check_args(args.rulesets, 1)
    else:
        check_args(args.rulesets, args.deals, args.jobs, slots)
        check_verify(args.verify, args.deals)
    started = time.monotonic()
    pins = _pins(args, slots) if args.json or args.html or args.per_deal or replay else None
    if replay and pins:
        _say_replay(args, replay, pins)
    verified = verify_all(args.rulesets, args.verify, args.seed, slots)  # first: a difference stops the run
    writer = digest = None
    if args.per_deal or replay:
        from skatcore.sim.export import RowDigest, RowWriter
        from skatcore.sim.outcomes import row_keys

        keys = row_keys([get_rules(r) for r in args.rulesets])
        writer = RowWriter(args.per_deal, keys) if args.per_deal else None
        digest = writer.digest if writer else RowDigest(keys)
    on_rows = writer.write if writer else digest.write if digest else None
    made, closed = None, False
    try:
        result, games = (_games(args, on_rows) if args.games else (_simulate(args, slots, on_rows), None))
        if replay and digest:
            replay.check_rows(digest.rows, digest.hexdigest())
            if args.strict and (refused := replay.rows_refusal()):
                raise refused  # nothing written: the rows are not the recorded ones
        if pins:
            from skatcore.sim.report import Provenance

            made = Provenance.now(args.argv, seconds=time.monotonic() - started, pins=pins)
            record = made.to_json()
            record["deals_compared"] = result.deals
            if replay:
                record["replay_of"] = {"file": args.replay, "same": replay.same()}
            if writer:
                writer.close(True, record)
                closed = True
            made = dataclasses.replace(made, pins=record)
    finally:
        if writer and not closed:
            writer.close(False)
    rules = [get_rules(r) for r in args.rulesets]
    differ = rules_diff(rules)
    if args.html:
        from skatcore.sim.report import write_html

        write_html(args.html, result, differ, slots if not args.games else None, games, rules, made)
    if args.json:
        out = result.to_json()
        out["players"] = None if args.games else list(slots)
        out["rules_differ"] = [d.to_json(result.names) for d in differ]
        for side, v in zip(out["rulesets"], verified or (), strict=False):  # no --verify: nothing to add
            side["verify"] = v.to_json()
        if games is not None:
            out["games"] = [g.to_json() for g in games]
        for key, value in (("until_ci", args.until_ci), ("per_deal", args.per_deal), ("html", args.html)):
            if value is not None:
                out[key] = value
        if args.until_ci is not None:
            out["headline_width"] = round(result.headline_width(), 4)
            out["widest"] = result.widest()[1]
            out["rounds"] = [{"deals": n, "headline_width": round(w, 4), "widest": name} for n, w, name in result.rounds]
        if made is not None:
            out["provenance"] = made.to_json()
        if replay:
            out["replay"] = replay.to_json()
        print(json_text(out))
        return 0
    if replay:
        for line in [*(replay.header() if args.strict else ()), replay.rows_text()]:
            print(printable(line))
    if games is None:
        print(printable(f"{' vs '.join(result.names)}: the same {result.deals} deals, seed {args.seed}, players {', '.join(slots)}"))
        for line in until_ci_lines(result, args.until_ci, args.max_deals):
            print(printable(line))
        for v in verified or ():
            print(printable(v.text()))
    else:
        print(printable(f"{' vs '.join(result.names)}: {games[0].games} real games re-scored, {result.deals} by every ruleset"))
        _print_games(games)
    _print_rules(result.names, differ)
    columns, rows = stat_table(result)
    print_table("statistics (95% intervals of the paired differences; ns: not significant)", columns, rows)
    _print_summary(result)
    if games is None:
        print("how played (the time a run takes, never its results):")
        for stats in result.stats:
            print(f"  {path_line(stats)}")
    if args.per_deal:
        print(printable(f"per deal: {args.per_deal} (provenance: {args.per_deal}.meta.json)"))
    if args.html:
        print(printable(f"report: {args.html}"))
    return 0


def _replay(args):
    """``--replay FILE``: the record read and checked, ``args`` set to it; else ``None``."""
    if args.replay is None:
        if args.strict:
            raise InputError("--strict goes with --replay FILE")
        if not args.rulesets:
            raise InputError("expected at least one RULESET (or --replay FILE)")
        return None
    from skatcore.sim.replay import RECORDED, Replay

    given = [f for f in RECORDED if getattr(args, f) not in (None, [])]
    if given:
        flag = "RULESET" if given[0] == "rulesets" else f"--{given[0].replace('_', '-')}"
        raise InputError(f"{flag} does not go with --replay: the replay runs the recorded comparison (expected only "
                         "--json, --html, --per-deal, --jobs, --dask, --strict, --trust)")
    replay = Replay.read(args.replay)
    replay.apply(args)
    return replay


def _pins(args, slots) -> dict:
    from skatcore.sim.provenance import pins

    return pins(args.rulesets, None if args.games else slots, args.games, seed=args.seed,
                deals=None if args.games else args.deals,
                options={"until_ci": args.until_ci, "max_deals": args.max_deals, "verify": args.verify})


def _say_replay(args, replay, pins: dict) -> None:
    """What the record pins against what this run finds, before anything runs
    (with ``--strict`` after the run, which may still refuse: an exit 2 prints
    nothing): on stdout (in --json, in its ``replay``), what differs on stderr too."""
    import sys

    from skatcore.sim.report import Provenance

    replay.compare(Provenance.now(pins=pins).to_json())
    if args.strict and (refused := replay.strict_refusal()):
        raise refused
    for c in replay.checks:
        if c.strict and not c.same:
            print(printable(f"skat: warning: replay: {c.text()}"), file=sys.stderr)
    if not args.json and not args.strict:
        for line in replay.header():
            print(printable(line))


def until_ci_lines(result: Comparison, until_ci: float | None, max_deals: int) -> list[str]:
    """``--until-ci``'s rounds, each naming the widest headline interval (what the doubling waits for)."""
    if until_ci is None:
        return []
    out = []
    for deals, width, name in result.rounds:
        if width < until_ci:
            end = f"narrower than {until_ci:g}: done"
        elif deals >= max_deals:
            end = f"not narrower at --max-deals {max_deals}"
        else:
            end = f"dealing on to {min(max_deals, 2 * deals)}"
        out.append(f"--until-ci {until_ci:g}: after {deals} deals the widest headline interval is {name}, "
                   f"{width:.1f} pp wide: {end}")
    return out


def _simulate(args, slots, on_rows) -> Comparison:
    big = args.dask or args.until_ci or args.deals * len(args.rulesets) >= 2000
    with progress_bar(args.deals, "deals", enabled=None if big else False) as bar:
        label = f"deals x {len(args.rulesets)} rulesets"
        # the first chunk of a machine's first run waits for numba to compile the engine (cached after)
        task = bar.add_task(f"{label} (a first run compiles the engine: up to a minute)", total=args.deals)

        def progress(n, total):
            bar.update(task, total=total, advance=n, description=label)

        def on_round(result):  # the bar says what the doubling waits for
            nonlocal label
            width, name = result.widest()
            label = f"deals x {len(args.rulesets)} rulesets; widest: {printable(name)}, {width:.1f} pp"

        return compare(args.rulesets, args.deals, args.seed, slots, jobs=args.jobs, dask=args.dask,
                       until_ci=args.until_ci, max_deals=args.max_deals, progress=progress,
                       on_rows=on_rows, on_round=on_round)


def _games(args, on_rows):
    from pathlib import Path

    from skatcore.sim.games import rescore

    size = sum(Path(p).stat().st_size for p in args.games if Path(p).is_file())
    with progress_bar(size, "bytes") as bar:
        task = bar.add_task(f"games x {len(args.rulesets)} rulesets (bytes read)", total=size)
        names, metrics, tally, counts = rescore(args.rulesets, args.games, args.seed,
                                                progress=lambda n: bar.advance(task, n),
                                                on_rows=on_rows)
    result = Comparison(names, metrics, [], tally, args.seed, tally.n)
    return result, counts


# ---------------------------------------------------------------------------
# Text output
# ---------------------------------------------------------------------------


def _print_summary(result: Comparison) -> None:
    findings = result.findings()
    print("In short (significant at 95%, by ruleset: win rate, points, contract mix, largest first; "
          "then the clearest others; game values last):"
          if findings else
          "In short: no difference is significant at 95% (deal more, or --until-ci).")
    for name, m, iv in findings:
        print(printable(f"  - {finding_text(name, m, iv, result.names[0])}"))


def _print_rules(names, differ) -> None:
    if not differ:
        print("the rules: no difference")
        return
    print_table("the rules that differ", ["", *names], [[f"{d.section}: {d.item}", *d.values] for d in differ])


def _print_games(games) -> None:
    rows = [[g.ruleset, str(g.games), str(g.scored), str(g.server_agrees + g.server_differs),
             str(g.server_agrees), "; ".join(f"{why} ({n})" for why, n in g.unscored.most_common())]
            for g in games]
    print_table("games re-scored", ["ruleset", "games", "scored", "with server score", "agree with server",
                                    "not re-scored (why)"], rows)


# ---------------------------------------------------------------------------
# --deal FILE
# ---------------------------------------------------------------------------


def _compare_deal(args) -> int:
    """One recorded deal under each ruleset; a ruleset that refuses it is
    reported (which and why) and the others go on."""
    from skatcore.model import SEATS
    from skatcore.model.game import ScoreResult
    from skatcore.records.deal import read_record, score_record
    from skatcore.rules.compiler import rules_for

    doc = read_record(args.deal)
    out: list[tuple[str, ScoreResult | None, str | None]] = []
    for ref in args.rulesets:
        rules = rules_for(doc, args.deal, ref)
        try:
            out.append((rules.name, score_record(doc, rules, args.deal), None))
        except InputError as exc:
            exc.source = None  # the file is the deal's, named once in the header
            out.append((rules.name, None, str(exc)))
    if all(r is None for _, r, _ in out):
        raise InputError(f"no ruleset scores this deal ({'; '.join(f'{n}: {e}' for n, _, e in out)})", source=args.deal)
    if args.json:
        print(json_text([r.to_json() if r else {"ruleset": n, "refused": e} for n, r, e in out]))
        return 0
    for name, r, error in out:
        if r is None:
            print(printable(f"{name}: refuses this deal"))
            print(printable(f"  {error}"))
            continue
        entries = ", ".join(f"{s} {r.scores[s]:+d}" for s in SEATS if r.scores.get(s))
        print(printable(f"{r.ruleset}: {r.game}"))
        print(printable(f"  {r.explanation}"))  # built from plugin labels
        print(f"  sheet: {entries or 'nothing'}")
    return 0
