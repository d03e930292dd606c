"""``skat solve FILE``: double-dummy analysis of recorded deals (deal records
with hands, ISS ``.sgf`` files); the work is in :mod:`skatcore.bots.analysis`."""

from __future__ import annotations

from skatcore.errors import json_text, printable


def register(sub) -> None:
    s = sub.add_parser("solve", help="double-dummy analysis of recorded deals (.yaml/.json with hands, or .sgf)")
    s.add_argument("files", nargs="+", metavar="FILE")
    s.add_argument("--ruleset", help="ruleset name or file (wins over the record's own; .sgf: default official)")
    s.add_argument("--json", action="store_true", help="JSON output (JSON Lines for several deals)")
    s.set_defaults(func=cmd_solve)


def _solve(deal_id: str, replay) -> dict:
    from skatcore.bots.analysis import NotSolvable, analyse

    try:
        out = analyse(replay())
    except NotSolvable as exc:
        return {"id": deal_id, "solved": False, "reason": exc.reason}
    return {"id": deal_id, "solved": True, **out}


def _solve_sgf(file: str, rules) -> list[dict]:
    from skatcore.records.iss import NotScorable, map_sgf_file, replay

    def one(record):
        try:
            deal = replay(record, rules)
        except NotScorable as exc:
            return {"id": record.id, "solved": False, "reason": exc.reason}
        return _solve(record.id, lambda: deal)

    return map_sgf_file(file, one)


def _solve_record(file: str, ruleset: str | None) -> dict:
    from skatcore.records.deal import read_record, replay_record
    from skatcore.rules.compiler import rules_for

    doc = read_record(file)
    rules = rules_for(doc, file, ruleset)
    return _solve(doc.get("id", file), lambda: replay_record(doc, rules, file))


def cmd_solve(args) -> int:
    from skatcore.bots.analysis import describe
    from skatcore.rules.compiler import get_rules

    results = []  # everything is read and solved before anything is written
    for file in args.files:
        if file.endswith(".sgf"):
            results += _solve_sgf(file, get_rules(args.ruleset or "official"))
        else:
            results.append(_solve_record(file, args.ruleset))
    for out in results:
        if args.json:
            print(json_text(out, indent=2 if len(results) == 1 else None))
        elif not out["solved"]:
            print(printable(f"{out['id']}: not solved: {out['reason']}"))
        else:
            first, *rest = describe(out)
            print("\n".join(printable(line) for line in (f"{out['id']}: {first}", *rest)))
    return 0
