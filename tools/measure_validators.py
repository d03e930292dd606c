"""Measure JSON Schema validators on skatcore's own work (issue 24): the
happy-path check of a deal record, and the message on a bad one.

    .venv/bin/python tools/measure_validators.py          # needs: pip install fastjsonschema jsonschema-rs

Compares fastjsonschema, jsonschema-rs and jsonschema on the yes/no check
(skatcore.rules.schemacheck, the closures skatcore compiled before, measured
70 µs a record on the same machine), and their messages with skatcore's
(jsonschema's error, said in the reader's words by rules.ruleset).  Bad records are the schema-level ones of
tests/cli/test_bad_input.py.  Prints a table; no assertion (speed is not a test)."""

from __future__ import annotations

import sys
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "cli")]

from test_bad_input import PLAYED, variant  # noqa: E402  (the test's own records)

from skatcore.errors import InputError  # noqa: E402
from skatcore.rules.ruleset import load_schema, validate  # noqa: E402


def bad_records() -> list[tuple[str, object]]:
    return [
        ("bidding call false", variant(bidding=[18, False])),
        ("a card that is a number", variant(skat=[7, "HQ"])),
        ("overlong card text", variant(skat=["CJ", "HQUEEN"])),
        ("wrong format", variant(format="skat-deal/2")),
        ("record is a list", [1, 2]),
        ("unknown key", variant(colour="red")),
        ("game without type", variant(game={"discard": ["SK", "D7"]})),
        ("play is a mapping", variant(play={"a": 1})),
        ("bid is text", variant(bidding=None, declarer="forehand", bid="x")),
        ("declarer no seat", variant(declarer="dealer")),
        ("hands is a list", variant(hands=[["CJ"]])),
        ("outcome with an unknown key", variant(outcome={"declarer_pts": 61})),
    ]


def skatcore_message(schema: dict, doc: object) -> str:
    try:
        validate(doc, schema, source="d.yaml")
    except InputError as exc:
        return str(exc)
    return "(valid)"


def main() -> None:
    import fastjsonschema
    import jsonschema
    import jsonschema_rs

    schema = load_schema("deal.schema.json")
    fast = fastjsonschema.compile(schema)
    rs = jsonschema_rs.validator_for(schema)
    js = jsonschema.Draft202012Validator(schema)

    def fast_ok(doc: object) -> bool:
        try:
            fast(doc)
        except fastjsonschema.JsonSchemaException:
            return False
        return True

    good = PLAYED
    n = 20_000
    print(f"happy path, one played deal record, {n} checks, best of 5:")
    for name, check in [("fastjsonschema", fast_ok), ("jsonschema-rs", rs.is_valid),
                        ("jsonschema", js.is_valid)]:
        assert check(good)
        runs = n if name != "jsonschema" else n // 20
        best = min(timeit.repeat(lambda c=check: c(good), number=runs, repeat=5)) / runs
        print(f"  {name:20} {best * 1e6:8.1f} µs/record  {1 / best:>10,.0f} records/s")

    print("\nbad records: skatcore's message | fastjsonschema | jsonschema-rs")
    for label, doc in bad_records():
        try:
            fast(doc)
            fmsg = "(valid)"
        except fastjsonschema.JsonSchemaException as exc:
            fmsg = exc.message
        errors = list(rs.iter_errors(doc))
        rmsg = f"{'/'.join(map(str, errors[0].instance_path))}: {errors[0].message}" if errors else "(valid)"
        print(f"- {label}\n    ours: {skatcore_message(schema, doc)}\n    fast: {fmsg}\n    rs:   {rmsg}")


if __name__ == "__main__":
    main()
