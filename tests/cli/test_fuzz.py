"""Fuzzing the command line: any input file, however broken, exits 0 or 2
with one line on stderr (file, path, what was expected, echoed values cut
short); exit 1 is only for our own bugs.

Hypothesis mutates valid records (the seeds below: deal records from the
vectors, a session record, a ruleset) and raw text; the budget is bounded so
the run stays well under a minute.  Inputs it once found crashing are kept in
tests/cli/fuzz/ and replayed on every run.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatcore.cli.main import main

HERE = Path(__file__).parent
FOUND = HERE / "fuzz"
VECTORS = HERE.parent / "vectors"
LINE_LIMIT = 600  # file + path + message + at most ~80 characters of any echoed value

SESSION = {"format": "skat-session/1", "ruleset": "pub", "players": ["Anna", "Bernd", "Clara"], "stake": 0.05,
           "deals": [{"declarer": "forehand", "bid": 18, "game": {"type": "grand"},
                      "outcome": {"declarer_points": 70, "matadors": {"with": 1}}},
                     {"bidding": ["pass", "pass", "pass"], "game": {"type": "ramsch", "pushes": ["blind"]},
                      "outcome": {"points": {"forehand": 30, "middlehand": 40, "rearhand": 50},
                                  "tricks": {"forehand": 3, "middlehand": 3, "rearhand": 4},
                                  "last_trick": "rearhand"}}]}
RULESET = {"name": "house", "extends": "official", "plugins": {"official": {"grand_base": 20}, "kontra": {}}}


def _seeds() -> list[tuple[str, dict]]:
    seeds = [("session", SESSION), ("ruleset", RULESET)]
    for name in ("official", "pub", "tournee", "danish-petersen", "schieberamsch"):
        for case in yaml.safe_load((VECTORS / f"{name}.yaml").read_text("utf-8"))[:6]:
            record = {k: v for k, v in case.items() if k not in ("name", "expect", "note")}
            record.setdefault("format", "skat-deal/1")
            record.setdefault("ruleset", name)
            if not str(record["ruleset"]).startswith(("params/", "rulesets/")):
                seeds.append(("deal", record))
    return seeds


SEEDS = _seeds()

leaves = (st.integers(-(2 ** 70), 2 ** 70) | st.sampled_from([0, 1, 10, 11, 18, 120, 121, -1])
          | st.floats(allow_nan=True, allow_infinity=True) | st.booleans() | st.none()
          | st.text(max_size=12) | st.text(min_size=200, max_size=400)
          | st.sampled_from(["CJ", "XZ", "forehand", "grand", "null", "ramsch", "blind", "pass", "yes", "with",
                             "official", "../x.yaml", "/etc/passwd", "\x1b[2J", "a\nb"]))
values = st.recursive(leaves, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=8) | st.integers(-3, 3), inner, max_size=4), max_leaves=12)


def _paths(doc, prefix=()):
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*prefix, i))


def _mutate(doc, path, op, value):
    if not path:
        return value
    parent = doc
    for p in path[:-1]:
        parent = parent[p]
    last = path[-1]
    if op == "delete":
        del parent[last]
    elif op == "add" and isinstance(parent, dict):
        parent[value if isinstance(value, (str, int)) else "extra"] = value
    else:
        parent[last] = value
    return doc


@st.composite
def mutated(draw):
    kind, seed = draw(st.sampled_from(SEEDS))
    doc = json.loads(json.dumps(seed))
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(doc))
        path = draw(st.sampled_from(paths))
        doc = _mutate(doc, path, draw(st.sampled_from(["replace", "delete", "add"])) if path else "replace",
                      draw(values))
    return kind, doc


def run_cli(capsys, argv) -> tuple[int, str]:
    rc = main(argv)
    _out, err = capsys.readouterr()
    return rc, err


def check(capsys, tmp: Path, text: str, suffix: str) -> None:
    f = tmp / f"input{suffix}"
    f.write_text(text, encoding="utf-8", errors="surrogatepass")
    for argv in (["score", str(f)], ["validate", str(f)], ["sheet", str(f)]):
        rc, err = run_cli(capsys, argv)
        assert rc in (0, 2), (argv, text[:2000], err)
        if rc == 2:
            assert err.count("\n") == 1 and err.startswith("skat: error: "), (argv, err)
            assert len(err) < LINE_LIMIT, (argv, err)


# a longer hunt: SKAT_FUZZ_EXAMPLES=5000 python -m pytest tests/cli/test_fuzz.py (random, not derandomized)
EXAMPLES = int(os.environ.get("SKAT_FUZZ_EXAMPLES", 0))
FUZZ = settings(max_examples=EXAMPLES or 150, deadline=None, derandomize=not EXAMPLES,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@FUZZ
@given(mutated(), st.booleans())
def test_mutated_records_exit_0_or_2(tmp_path, capsys, case, as_json):
    _, doc = case
    if as_json:
        text, suffix = json.dumps(doc, ensure_ascii=False), ".json"
    else:
        text, suffix = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), ".yaml"
    check(capsys, tmp_path, text, suffix)


@FUZZ
@given(st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from(list("{}[]:,-&*!|>'\"#%@` \n")), max_size=120),
       st.sampled_from([".yaml", ".json"]))
def test_raw_text_exits_0_or_2(tmp_path, capsys, text, suffix):
    check(capsys, tmp_path, text, suffix)


@pytest.mark.parametrize("found", sorted(FOUND.glob("*")), ids=lambda p: p.name)
def test_inputs_the_fuzzer_found(tmp_path, capsys, found):
    """Every input that once crashed exits 0 or 2 with one line."""
    check(capsys, tmp_path, found.read_text("utf-8"), found.suffix)
