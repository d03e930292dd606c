"""``skat sheet``: score sheets, from a session record or kept live in SQLite.

* ``skat sheet FILE [--json] [--ruleset R]`` scores a session record
  (``format: skat-session/1``, docs/session-format.md) and prints the sheet.
* ``skat sheet new NAME --ruleset R --players A,B,C[,D] [--stake X] [--dealer I]``
  starts a persistent sheet: the SQLite file ``NAME`` (``.sqlite`` added when
  NAME has no suffix).
* ``skat sheet add NAME [DEAL|-] [options]`` enters one deal: a deal record
  file, ``-`` for standard input, ``--record 'YAML'``, or inline options
  (``--declarer Anna --bid 24 --game clubs --points 74 --matadors with1``).
* ``skat sheet show NAME [--json] [--history]``, ``skat sheet undo NAME``,
  ``skat sheet export NAME [--json]`` (the sheet as a session record).
* ``skat sheet edit NAME N [DEAL|-] [options]`` replaces deal N, ``skat sheet
  void NAME N [--reason TEXT]`` strikes it through; every deal is re-scored
  (records/session_edit.py).

Crash safety: the file is in WAL mode with ``synchronous=FULL``; every deal
is one ``BEGIN IMMEDIATE`` transaction that re-reads the sheet, scores the
new deal after all confirmed ones (a Ramsch round refuses a declarer game
there), inserts it and commits.  A process killed at any moment leaves the
sheet as it was before or after the deal, never half of it; once ``add``
has printed its line the deal is on disk.  Two processes adding at once are
serialised by SQLite's write lock; each deal lands once, at the position its
transaction saw.  A deal record's ``id`` is unique on a sheet, so running
the same ``add`` twice (a retry after a crash) never counts a deal twice;
``--deal N`` refuses the deal unless it becomes deal N.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from skatcore.cli import numbers
from skatcore.errors import InputError, json_text, printable, shorten, shown, yaml_text
from skatcore.records import sheet_store as store
from skatcore.records.sheet_store import open_sheet, sheet_path, transaction
from skatcore.rules.trust import TRUST_HELP, trusting

ACTIONS = ("new", "add", "edit", "void", "show", "undo", "export", "rules")
NARROW_HELP = ("the narrow sheet (running totals only, for a phone or an 80-column terminal); "
               "chosen by itself when the wide one does not fit COLUMNS")


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise InputError(f"{self.prog}: {message}")


def register(sub) -> None:
    """Add ``skat sheet`` to the CLI's subparsers (its words are parsed here)."""
    s = sub.add_parser("sheet", help="score sheets: a session record, or a live sheet (new/add/edit/void/show/undo/export/rules)",
                       prefix_chars="+", add_help=False)
    s.add_argument("words", nargs="*")
    s.set_defaults(func=cmd_sheet)


def cmd_sheet(args) -> int:
    import sqlite3
    words = list(args.words)
    if words and words[0] in ACTIONS:
        action = words.pop(0)
        parser = action_parser(action)
        opts = parser.parse_intermixed_args(words)
        with trusting(opts.trust or args.trust):
            try:
                return globals()[f"_cmd_{action}"](opts)
            except (sqlite3.Error, UnicodeDecodeError) as exc:  # what SQLite says, in the scorer's words (read-only, disk full, ...)
                path = sheet_path(opts.name)
                raise InputError(store.problem(exc, path), source=str(path)) from None
    opts = file_parser().parse_intermixed_args(words)
    with trusting(opts.trust or args.trust):
        return _show_session(opts)


def file_parser() -> _Parser:
    """The parser of ``skat sheet FILE``: a session record's sheet."""
    parser = _Parser(prog="skat sheet", description="Print the score sheet of a session record (skat-session/1). "
                     "Live sheets: skat sheet new|add|edit|void|show|undo|export|rules NAME ...")
    parser.add_argument("file", metavar="FILE", help="a session record (skat-session/1), YAML or JSON")
    parser.add_argument("--json", action="store_true", help="the sheet as JSON (format skat-sheet/1)")
    parser.add_argument("--ruleset", help="ruleset name or file (wins over the record's own)")
    parser.add_argument("--trust", action="store_true", help=TRUST_HELP)
    parser.add_argument("--history", action="store_true", help="list every edited and voided deal below the sheet")
    parser.add_argument("--narrow", action="store_true", help=NARROW_HELP)
    return parser


def _show_session(opts) -> int:
    from skatcore.records.session import rules_for_session, score_session
    from skatcore.records.session_record import read_session
    doc = read_session(opts.file)
    rules = rules_for_session(doc, opts.file, opts.ruleset)
    result = score_session(doc, rules, opts.file)
    _print(result, opts, doc.get("title"))
    return 0


def _print(result, opts, title=None) -> None:
    """The sheet as JSON, or as text as wide as the terminal (``COLUMNS``)
    allows: the narrow sheet where the wide one does not fit, or ``--narrow``."""
    import os
    import shutil
    import textwrap

    from skatcore.records.session_edit import history_lines
    from skatcore.records.session_text import narrow_text, sheet_text
    if opts.json:
        print(json_text(result.to_json(), indent=2))
        return
    columns = shutil.get_terminal_size((80, 24)).columns
    width = columns if opts.narrow or "COLUMNS" in os.environ or sys.stdout.isatty() else None
    print(narrow_text(result, title, columns) if opts.narrow else sheet_text(result, title, width))
    for line in history_lines(result.state.sheet_lines) if opts.history else ():
        print("\n".join(textwrap.wrap(printable(line), width, subsequent_indent="      ")) if width else printable(line))


def action_parser(action: str) -> _Parser:
    """The parser of ``skat sheet ACTION NAME ...`` (docs/commands.md lists its arguments)."""
    p = _Parser(prog=f"skat sheet {action}")
    p.add_argument("name", metavar="NAME", help="the sheet file (.sqlite added when there is no suffix)")
    p.add_argument("--trust", action="store_true", help=TRUST_HELP)
    if action == "new":
        p.add_argument("--ruleset", required=True, help="ruleset name or file")
        p.add_argument("--players", required=True, help="3 or 4 names, comma-separated, in seating order")
        p.add_argument("--stake", type=numbers.decimal, help="money per point")
        p.add_argument("--dealer", default="0", help="the first dealer: index or name (default the first player)")
        p.add_argument("--title", help="a title for the sheet")
    elif action in ("add", "edit"):
        if action == "edit":
            p.add_argument("n", metavar="N", type=numbers.whole, help="the number of the deal to replace")
        p.add_argument("deal", nargs="?", metavar="DEAL", help="a deal record file, or - for standard input")
        p.add_argument("--record", help="the deal record inline, as YAML/JSON")
        if action == "add":
            p.add_argument("--deal", dest="number", type=numbers.whole, help="refuse unless this becomes deal N (two scorers)")
        p.add_argument("--json", action="store_true", help="the result as JSON")
        g = p.add_argument_group("inline deal")
        g.add_argument("--id", help="the deal's id (unique on the sheet)")
        g.add_argument("--passed", action="store_true", help="all passed (thrown in, or the all-pass game)")
        g.add_argument("--declarer", help="seat (forehand ...) or player name")
        g.add_argument("--bid", type=numbers.whole, help="the winning bid")
        g.add_argument("--game", help="clubs, grand, null, ...")
        for flag, what in (("hand", "played without picking up the skat"), ("schneider", "schneider announced"),
                           ("schwarz", "schwarz announced"), ("ouvert", "played open")):
            g.add_argument(f"--{flag}", action="store_true", help=what)
        g.add_argument("--points", type=numbers.whole, help="the declarer's card points (skat included)")
        g.add_argument("--tricks", type=numbers.whole, help="the declarer's tricks")
        g.add_argument("--matadors", help="with2, without3 (or +2, -3)")
        g.add_argument("--call", action="append", default=[], help="a call or declaration made (kontra, re, ...)")
        g.add_argument("--decl", action="append", default=[], metavar="KEY=VALUE", help="a plugin declaration")
        g.add_argument("--ramsch", metavar="F,M,R", help="Ramsch card points per seat (forehand, middlehand, rearhand)")
        g.add_argument("--ramsch-tricks", metavar="F,M,R", help="Ramsch tricks per seat")
        g.add_argument("--last-trick", help="seat or player who took the last trick (Ramsch)")
        g.add_argument("--pushes", metavar="blind,seen,...",
                       help="Schieberamsch: each push in turn, blind, seen or pass (no card names)")
        g.add_argument("--instead", action="store_true",
                       help="a grand hand declared instead of pushing: no --bid; after the --pushes given")
    elif action == "rules":
        p.add_argument("--update", action="store_true",
                       help="freeze the ruleset file as it is now and re-score every deal with it")
    elif action == "void":
        p.add_argument("n", metavar="N", type=numbers.whole, help="the number of the deal to strike through")
        p.add_argument("--reason", help="why (kept in the deal's history)")
    elif action in ("show", "export"):
        p.add_argument("--json", action="store_true", help="the sheet as JSON (show: skat-sheet/1; export: the session record)")
        if action == "show":
            p.add_argument("--history", action="store_true", help="list every edited and voided deal below the sheet")
            p.add_argument("--narrow", action="store_true", help=NARROW_HELP)
    elif action == "undo":
        p.add_argument("--deal", dest="number", type=numbers.whole, help="refuse unless the last deal is deal N")
    return p


# ---------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------


def _cmd_new(opts) -> int:
    from skatcore.records import sheet_live
    from skatcore.records.sheet_check import folder_of
    from skatcore.records.sheet_entry import flag
    from skatcore.rules.ruleset import shipped_rulesets
    path = sheet_path(opts.name)
    players = [p.strip() for p in opts.players.split(",")]
    ruleset = opts.ruleset
    if ruleset not in shipped_rulesets() and Path(ruleset).is_file():
        ruleset = str(Path(ruleset).resolve())  # a file: found again from anywhere
        folder = folder_of(path).resolve()
        if not Path(ruleset).is_relative_to(folder):  # the sheet will name it, and a sheet names only files beside it
            raise InputError(f"expected a shipped ruleset or a file inside the sheet's folder {shorten(str(folder))}, "
                             f"got {shown(opts.ruleset)} (a sheet, like a record, names files only in its own folder)",
                             path="--ruleset")
    dealer = players.index(opts.dealer) if opts.dealer in players else opts.dealer
    try:
        dealer = int(dealer)
    except ValueError:
        raise InputError(f"expected a player name or index, got {shown(opts.dealer)}", path="--dealer") from None
    rules = sheet_live.create(path, ruleset, players, dealer=dealer, stake=opts.stake, title=opts.title, name=flag)
    print(printable(f"{path}: new sheet under {rules.name!r} for {', '.join(players)}; {players[dealer]} deals first"))
    return 0


def _cmd_add(opts) -> int:
    from skatcore.cli.sheet_deal import deal_from, fields
    from skatcore.records.sheet_entry import add_entry, flag
    deal = deal_from(opts)
    path, con = open_sheet(opts.name)
    with transaction(con):
        meta, deals = store.read_sheet(con, path)
        uid = deal.get("id")
        if uid is not None and (at := store.deal_with_id(con, uid)):  # a retry of a confirmed add: never count it twice
            raise InputError(f"deal id {uid!r} is on the sheet already (deal {at})", path="id")
        n = len(deals) + 1
        if opts.number is not None and opts.number != n:
            raise InputError(f"this would be deal {n}, not {opts.number}: the sheet changed (see skat sheet show)",
                             path="--deal")
        session = store.stored_session(meta, path, deals)
        try:
            deal, line = add_entry(session, deal, None if opts.deal or opts.record else fields(opts), name=flag)
        except InputError as exc:
            exc.source = opts.deal if opts.deal and opts.deal != "-" else exc.source
            raise
        store.add_deal(con, n, deal)
    _report(line, session, opts.json)
    return 0


def _report(line, session, as_json: bool, later: int | None = None) -> None:
    """What ``add``/``edit``/``void`` did (``later``: deals re-scored after it)."""
    from skatcore.records.session_text import change_text
    print(json_text(line.to_json()) if as_json else change_text(line, session.state, later, session.outlook()))


def _cmd_show(opts) -> int:
    from skatcore.records.sheet_check import changed_files, folder_of
    path, con = open_sheet(opts.name, write=False)
    with transaction(con, write=False):  # one consistent snapshot of meta and deals
        meta, deals = store.read_sheet(con, path)
    result = store.stored_session(meta, path, deals).finish()
    _print(result, opts, meta.get("title"))
    for f in changed_files(meta.get("frozen", {}), folder_of(path)):
        print(printable(f"note: {f} has changed since the sheet was started; the sheet keeps the ruleset as it was "
                        f"then (skat sheet rules {opts.name} --update re-scores with the file as it is now)"),
              file=sys.stderr)
    return 0


def _cmd_rules(opts) -> int:
    """The sheet's frozen ruleset; ``--update`` re-freezes it from the file
    and re-scores every deal in one transaction (all or nothing)."""
    from skatcore.records.sheet_check import changed_files, folder_of, ruleset_file
    from skatcore.rules.ruleset import freeze_ruleset
    path, con = open_sheet(opts.name, write=opts.update)
    with transaction(con, write=opts.update):
        meta, deals = store.read_sheet(con, path)
        changed = changed_files(meta.get("frozen", {}), folder_of(path))
        if not opts.update:
            frozen = meta.get("frozen") or {}
            print(printable(f"{path}: ruleset {frozen.get('name', meta['ruleset'])!r} frozen from {meta['ruleset']}"))
            for f in frozen.get("files", {}):
                print(printable(f"  {f}{'  (changed since)' if f in changed else ''}"))
            return 0
        before = store.stored_session(meta, path, deals).state.totals
        try:  # the file the sheet names, found as a record's: inside the sheet's folder
            meta["frozen"] = freeze_ruleset(ruleset_file(meta["ruleset"], folder_of(path)))
        except InputError as exc:
            raise exc if exc.source else exc.at("meta.ruleset", str(path)) from None
        after = store.stored_session(meta, path, deals).state.totals  # a deal the new rules refuse stops here: nothing changes
        store.set_meta(con, "frozen", meta["frozen"])
        store.touch(con)
    print(printable(f"{path}: {len(deals)} deals re-scored under the ruleset as it is now; totals "
                    + ", ".join(f"{p} {before[p]} -> {after[p]}" for p in after)))
    return 0


def _cmd_undo(opts) -> int:
    from skatcore.records import sheet_live
    from skatcore.records.sheet_entry import flag
    path = sheet_path(opts.name)
    last = sheet_live.undo(path, opts.number, name=flag)
    print(printable(f"{path}: deal {last} removed"))
    return 0


def _cmd_void(opts) -> int:
    from skatcore.records.session_edit import voided
    return _change(opts, f"voiding deal {opts.n}", lambda records, before: voided(records, before, opts.n, store.now(), opts.reason))


def _cmd_edit(opts) -> int:
    """Replace deal N; names (``--declarer Anna``) are seats of deal N's dealer."""
    from skatcore.cli.sheet_deal import deal_from, in_flags
    from skatcore.records.session_edit import deal_at, edited
    from skatcore.records.sheet_entry import resolve_names
    new = deal_from(opts)

    def change(records, before):
        deal_at(records, opts.n)
        before.state.dealer = next(x.dealer for x in before.state.sheet_lines if x.index == opts.n)
        return edited(records, before, opts.n, resolve_names(new, before), store.now())
    try:
        return _change(opts, f"editing deal {opts.n}", change)
    except InputError as exc:  # about the new deal itself: in the words the scorer typed
        where = f"deals[{opts.n - 1}]"
        path = exc.path or ""
        if opts.deal or opts.record or exc.stored or not path.startswith(where):
            raise
        exc.path = path[len(where):].lstrip(".") or None
        raise in_flags(exc, opts) from None


def _change(opts, what: str, change) -> int:
    """Edit or void in one transaction: every deal re-scored after the
    change, all written or (a deal that no longer fits) nothing."""
    from skatcore.records import sheet_live
    line, session, later = sheet_live.change(sheet_path(opts.name), opts.n, None, what, change)
    _report(line, session, getattr(opts, "json", False), later)
    return 0


def _cmd_export(opts) -> int:
    from skatcore.records.sheet_live import export_doc
    path, con = open_sheet(opts.name, write=False)
    with transaction(con, write=False):
        meta, deals = store.read_sheet(con, path)
    doc = export_doc(meta, deals)
    if opts.json:
        print(json_text(doc, indent=2))
    else:
        print(yaml_text(doc), end="")
    return 0
