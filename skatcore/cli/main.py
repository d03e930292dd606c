"""The ``skat`` command line (docs/formats.md#command-line).

Exit status: 0 success, 2 invalid input (one line on stderr), 1 internal error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from skatcore.errors import InputError, printable, shorten
from skatcore.rules.trust import TRUST_HELP, trusting


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse errors are bad input too: one line, exit 2
        raise InputError(f"{self.prog}: {message}")


def _show_warning(message, category, filename, lineno, file=None, line=None):
    print(printable(f"skat: warning: {message}"), file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    import warnings

    for stream in (sys.stdout, sys.stderr):  # a terminal that cannot show é or Δ (an ASCII or Latin-1 locale): \xe9, not an internal error
        if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    with warnings.catch_warnings():
        warnings.showwarning = _show_warning  # one line, like the errors
        return _main(argv)


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        args.argv = list(sys.argv[1:] if argv is None else argv)  # as typed: a report's provenance names it
        if not getattr(args, "func", None):  # bad input: one line on stderr, not the help on stdout
            raise InputError("expected a command: rulesets, rules, validate or score (see skat --help)")
        if not getattr(args, "warm", False):  # skat bench --warm compiles in the foreground
            from skatcore.warmup import start

            start()  # numba's cache, once per machine, in the background (skatcore/warmup.py)
        with trusting(args.trust):
            return args.func(args) or 0
    except SystemExit as exc:  # --help/--version: main(argv) returns the status instead of exiting
        if isinstance(exc.__context__, BrokenPipeError):  # rich's answer to a reader gone (skat simulate | head): exit 1
            return 0
        return exc.code if isinstance(exc.code, int) else 0
    except InputError as exc:
        print(printable(f"skat: error: {exc}"), file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:  # Ctrl-C: one line, not a traceback; 130 as the shell reports a SIGINT
        print("skat: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:  # a file name the system refuses (too long, a directory, no permission)
        name = f"{shorten(str(exc.filename))}: " if exc.filename else ""
        print(printable(f"skat: error: {name}cannot use this file ({exc.strerror or type(exc).__name__})"), file=sys.stderr)
        return 2
    except Exception as exc:  # a bug of ours: say so in one line, not a traceback
        print(printable(f"skat: internal error: {type(exc).__name__}: {exc}"), file=sys.stderr)
        return 1


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="skat", description="Skat rules framework: score, validate and inspect rulesets.")
    sub = p.add_subparsers(parser_class=_Parser, metavar="COMMAND")

    s = sub.add_parser("rulesets", help="list shipped and installed rulesets")
    s.set_defaults(func=cmd_rulesets)

    s = sub.add_parser("rules", help="show a ruleset: plugins, parameters, contracts, bid ladder")
    s.add_argument("name", help="ruleset name or YAML file")
    s.set_defaults(func=cmd_rules)

    from skatcore.cli.authoring import register as register_authoring  # plugins, plugin new, hooks

    register_authoring(sub)

    s = sub.add_parser("validate", help="validate a ruleset or deal record (exit 0 or 2)")
    s.add_argument("file", help="a ruleset (file or name), a deal record, a session record, or .jsonl/.sgf records")
    s.add_argument("--ruleset", help="ruleset for a deal record (default: the record's, else official)")
    s.set_defaults(func=cmd_validate)

    s = sub.add_parser("score", help="score deal records (.yaml/.json, .jsonl: one a line) or ISS game records (.sgf)")
    s.add_argument("files", nargs="+", metavar="FILE", help="deal records (.yaml, .json), JSON Lines (.jsonl), ISS archives (.sgf)")
    s.add_argument("--ruleset", help="ruleset name or file (wins over the record's own)")
    s.add_argument("--json", action="store_true", help="JSON output (JSON Lines for several deals)")
    s.set_defaults(func=cmd_score)

    from skatcore.cli.solve import register as register_solve  # skat solve (skatcore/cli/solve.py)

    register_solve(sub)

    from skatcore.cli.sim import add_commands as add_sim_commands  # simulate, compare, bench, play (skatcore/simcli.py)

    add_sim_commands(sub)

    from skatcore.cli.sheet import (
        register as register_sheet,  # skat sheet: session records and live sheets (their storage: records/sheet_store.py)
    )

    register_sheet(sub)

    from skatcore.cli.serve import register as register_serve  # skat serve: the web app (skatcore/web/)

    register_serve(sub)

    from skatcore.cli.docs import register as register_docs  # skat docs: the documentation site, served locally

    register_docs(sub)
    add_trust_flag(p)
    return p


def add_trust_flag(parser: argparse.ArgumentParser, default=False) -> None:
    """``--trust`` before or after the command (``skat --trust score ...``, ``skat score --trust ...``)."""
    parser.add_argument("--trust", action="store_true", default=default, help=TRUST_HELP)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                if "+" not in child.prefix_chars:  # skat sheet parses its own words (cli/sheet.py)
                    add_trust_flag(child, default=argparse.SUPPRESS)


# ---------------------------------------------------------------------------


def cmd_rulesets(args) -> int:
    from skatcore.cli.wrap import emit
    from skatcore.rules.ruleset import all_rulesets, read_yaml
    rows = []
    for name, path in sorted(all_rulesets().items()):  # shipped, and installed (entry points skat.rulesets)
        doc = read_yaml(path) or {}
        rows.append(printable(f"{name:16} {doc.get('description', '')}"))
    emit(rows)
    return 0


def cmd_rules(args) -> int:
    from skatcore.cli.wrap import emit
    from skatcore.rules.overview import rules_lines

    emit(printable(line) for line in rules_lines(args.name))
    return 0


def cmd_validate(args) -> int:
    from skatcore.records.deal import check_record, score_record
    from skatcore.rules.compiler import rules_for
    from skatcore.rules.ruleset import find_ruleset, load_ruleset, read_document
    path = Path(args.file)
    if not path.exists() and "/" not in args.file and not path.suffix:
        path = find_ruleset(args.file)  # a ruleset name, as `skat rules NAME` takes it
    if path.suffix in (".jsonl", ".sgf"):  # read and judged as `skat score` does, a line at a time
        return _validate_lines(str(path), args.ruleset)
    doc = read_document(path)  # JSON if .json, else YAML: the reader `skat score` uses
    if isinstance(doc, dict) and doc.get("format") == "skat-session/1":  # a score sheet (skatcore/session.py)
        from skatcore.records.session import validate_session_file

        print(printable(validate_session_file(path, doc, args.ruleset)))
        return 0
    # a deal record, also one that lacks `format` (else it was judged as a ruleset: "unknown key 'game'")
    if isinstance(doc, dict) and ("format" in doc or ("plugins" not in doc and "game" in doc)):
        check_record(doc, str(path))
        score_record(doc, rules_for(doc, str(path), args.ruleset), str(path))
        print(printable(f"{path}: valid deal record"))
    else:
        from skatcore.rules.compiler import compile_rules
        from skatcore.sim.probe import probe

        rules = compile_rules(load_ruleset(path))
        try:
            probe(rules)
        except InputError as exc:
            raise exc.at(source=str(path)) from None
        n = len(rules.plugins)
        print(printable(f"{path}: valid ruleset {rules.name!r} ({n} plugin{'s' * (n != 1)}, {len(rules.contracts)} contracts)"))
    return 0


def _validate_lines(file: str, ruleset: str | None) -> int:
    """``skat validate`` of a ``.jsonl`` or ``.sgf`` file: every line scored, streamed; the first bad one is the error."""
    from skatcore.records.stream import score_files

    n = 0
    for item in score_files([file], ruleset):
        if isinstance(item, InputError):
            raise item
        n += 1
    kind = "ISS game records" if file.endswith(".sgf") else "deal records"
    print(printable(f"{file}: {n} valid {kind}"))
    return 0


def cmd_score(args) -> int:
    """Results stream as they are scored; a bad record prints its one error
    line and the rest are still scored; exit 2 at the end if any was bad."""
    from skatcore.records.stream import score_output

    bad = 0
    for item in score_output(args.files, args.ruleset, args.json):
        if isinstance(item, InputError):
            bad += 1
            print(printable(f"skat: error: {item}"), file=sys.stderr, flush=True)
        else:
            print(item)
    return 2 if bad else 0
