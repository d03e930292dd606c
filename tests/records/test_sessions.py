"""Score sheets (skat-session/1) scored end to end against hand-computed
results: every file ``tests/sessions/*.yaml`` is a session record plus
``expect`` (fields of ``skat sheet --json``; ``deals: {N: {...}}`` checks
fields of deal N's line; ``error: <substring>`` for a record that must be
refused) and an optional ``note``.  A session's ``ruleset`` may be a file
beside it (``rulesets/...``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skatcore.errors import InputError
from skatcore.records.session import rules_for_session, score_session
from skatcore.records.session_record import check_session
from skatcore.rules.ruleset import read_yaml

SESSION_DIR = Path(__file__).parents[1] / "sessions"
FILES = sorted(SESSION_DIR.glob("*.yaml"))


def run_file(path: Path):
    doc = read_yaml(path)
    expect = doc.pop("expect")
    doc.pop("note", None)
    try:
        check_session(doc, str(path))
        result = score_session(doc, rules_for_session(doc, str(path)), str(path)).to_json()
    except InputError as exc:
        return expect, None, exc
    return expect, result, None


def mismatches(expect: dict, got: dict | None, error: InputError | None) -> list[str]:
    if "error" in expect:
        if error is None:
            return [f"expected an error containing {expect['error']!r}, but the session was accepted"]
        return [] if expect["error"].lower() in str(error).lower() else [f"expected error {expect['error']!r}, got {error}"]
    if error is not None:
        return [f"unexpected error: {error}"]
    out = []
    for key, want in expect.items():
        if key == "deals":
            for n, fields in want.items():
                line = got["deals"][n - 1]
                for k, v in fields.items():
                    if line.get(k) != v:
                        out.append(f"deal {n}: {k}: expected {v!r}, got {line.get(k)!r}")
        elif got.get(key) != want:
            out.append(f"{key}: expected {want!r}, got {got.get(key)!r}")
    return out


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_session(path):
    expect, got, error = run_file(path)
    bad = mismatches(expect, got, error)
    if bad:
        pytest.fail(f"{path.name}:\n  " + "\n  ".join(bad), pytrace=False)
