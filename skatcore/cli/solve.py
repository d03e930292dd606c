"""``skat solve FILE``: double-dummy analysis of recorded deals (deal records
with hands, ISS ``.sgf`` files), read as a coach would: the players' names,
one line per game, and at every card that changed the value a card that
would have kept it.  The work is in :mod:`skatcore.bots.analysis`."""

from __future__ import annotations

import sys
import time

from skatcore.errors import InputError, json_text, printable

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: `skat --help` stays light
if TYPE_CHECKING:
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID


def register(sub) -> None:
    s = sub.add_parser("solve", help="double-dummy analysis of recorded deals (.yaml/.json with hands, or .sgf)")
    s.add_argument("files", nargs="+", metavar="FILE")
    s.add_argument("--ruleset", help="ruleset name or file (wins over the record's own; .sgf: default official)")
    s.add_argument("--json", action="store_true", help="JSON output (JSON Lines for several deals)")
    s.set_defaults(func=cmd_solve)


class Progress:
    """A progress bar on stderr (a terminal only) for work that has taken
    more than ``after`` seconds and is not done: a file of one game shows
    none.  ``bar(total, label)`` makes the rich Progress (tests pass their own)."""

    def __init__(self, total: int, label: str, after: float = 1.0, clock=time.monotonic, bar=None):
        self.total, self.label, self.after, self.clock = total, label, after, clock
        self.make = bar
        self.start, self.done = clock(), 0
        self.bar: RichProgress | None = None
        self.task: TaskID | None = None

    def advance(self) -> None:
        self.done += 1
        if self.bar is None and self.done < self.total and self.clock() - self.start > self.after:
            if self.make is None:
                from skatcore.sim.simulate import progress_bar as make
            else:
                make = self.make
            bar = self.bar = make(self.total, self.label)
            bar.start()
            self.task = bar.add_task(self.label, total=self.total)
        if self.bar is not None and self.task is not None:
            self.bar.update(self.task, completed=self.done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _solve(deal_id: str, replay, players: dict[str, str] | None) -> dict:
    from skatcore.bots.analysis import NotSolvable, analyse, coach

    try:
        out = coach(analyse(replay()), players)
    except NotSolvable as exc:
        return {"id": deal_id, "solved": False, "reason": exc.reason}
    return {"id": deal_id, "solved": True, **out}


def _solve_sgf(file: str, rules, progress: Progress) -> list[dict]:
    from skatcore.model import SEATS
    from skatcore.records.iss import NotScorable, map_sgf_file, replay

    def one(record):
        try:
            deal = replay(record, rules)
        except NotScorable as exc:
            out = {"id": record.id, "solved": False, "reason": exc.reason}
        else:
            out = _solve(record.id, lambda: deal, dict(zip(SEATS, record.players, strict=True)))
        progress.advance()
        return out

    return map_sgf_file(file, one)


def _solve_record(file: str, ruleset: str | None) -> dict:
    from skatcore.engine.table import people, seating
    from skatcore.records.deal import read_record, replay_record
    from skatcore.rules.compiler import rules_for

    doc = read_record(file)
    rules = rules_for(doc, file, ruleset)
    deal = replay_record(doc, rules, file)  # a record the rules refuse is bad input, checked before its names
    names, players = doc.get("players") or [], None
    if names:
        try:
            players = {s: names[i] for s, i in seating(len(names), doc.get("dealer", 0), people(rules)).items()}
        except InputError as exc:
            raise exc.at("players", source=file) from None
    return _solve(doc.get("id", file), lambda: deal, players)


def _games(file: str) -> int:
    """How many games a file holds, for the progress bar (an .sgf: one a line)."""
    if not file.endswith(".sgf"):
        return 1
    try:
        with open(file, encoding="utf-8", errors="replace") as f:
            return sum(1 for line in f if line.strip())
    except OSError:
        return 1  # the reader says what is wrong with it


def cmd_solve(args) -> int:
    """Every game solved, then written in order.  A game the solver cannot take (no declarer,
    settled before the first card, a plugin's trick winners ...) is not a result: one game alone
    is exit 2 with the reason, as bad input is; of several, each still has its line (``not
    solved`` and why; JSON ``solved: false``) and a last line on stderr says how many were not
    solved: exit 2 unless every one was."""
    from skatcore.bots.analysis import describe
    from skatcore.rules.compiler import get_rules

    results: list[tuple[str, dict]] = []  # everything is read and solved before anything is written
    progress = Progress(sum(_games(f) for f in args.files), "games solved")
    try:
        for file in args.files:
            if file.endswith(".sgf"):
                results += [(file, r) for r in _solve_sgf(file, get_rules(args.ruleset or "official"), progress)]
            else:
                results.append((file, _solve_record(file, args.ruleset)))
                progress.advance()
    finally:
        progress.close()
    unsolved = [(file, out) for file, out in results if not out["solved"]]
    if len(results) == 1 and unsolved:
        file, out = unsolved[0]
        raise InputError(f"not solved: {out['reason']}", source=file,
                         path=f"ISS game {out['id']}" if file.endswith(".sgf") else None)
    from skatcore.cli.play_text import can_show_symbols
    suits = can_show_symbols(sys.stdout)
    for _file, out in results:
        if args.json:
            print(json_text(out, indent=2 if len(results) == 1 else None))
        elif not out["solved"]:
            print(printable(f"{out['id']}: not solved: {out['reason']}"))
        else:
            first, *rest = describe(out, suits)
            print("\n".join(printable(line) for line in (f"{out['id']}: {first}", *rest)))
    if unsolved:
        sys.stdout.flush()  # the games first, then what went wrong (a terminal shows both in this order)
        named = ", ".join(str(out["id"]) for _f, out in unsolved[:5]) + (", ..." if len(unsolved) > 5 else "")
        print(printable(f"skat: error: {len(unsolved)} of {len(results)} games not solved: {named} "
                        f"(each one's {'reason' if args.json else 'line'} says why)"), file=sys.stderr)
        return 2
    return 0
