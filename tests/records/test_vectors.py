"""Run every case of every vector file ``tests/vectors/<ruleset>.yaml``
under the ruleset named by the file's stem, or the case's own ``ruleset``
(a file resolved beside the vector file; see :mod:`skatcore.records.vectors`)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from skatcore.records.vectors import evaluate, load_vectors, rules_for
from skatcore.rules.compiler import compile_rules
from skatcore.rules.ruleset import load_ruleset

VECTOR_DIR = Path(__file__).parents[1] / "vectors"
TEST_RULESETS = Path(__file__).parents[1] / "vectors" / "params"
FILES = sorted(VECTOR_DIR.glob("*.yaml"))


def _params():
    for path in FILES:
        for case in load_vectors(path):
            yield pytest.param(path, case, id=f"{path.stem}: {case.name}")


@pytest.mark.parametrize(("path", "case"), list(_params()))
def test_vector(path, case):
    outcome = evaluate(rules_for(case, path, path.stem), case)
    if not outcome.ok:
        pytest.fail(outcome.report(), pytrace=False)


def test_vector_files_exist():
    assert any(p.stem == "official" for p in FILES), "tests/vectors/official.yaml is missing"


# ---------------------------------------------------------------------------
# Every parameter of a test ruleset is proven: drop it and a vector fails
# ---------------------------------------------------------------------------

def _cases_naming(ruleset_file: Path):
    for vf in FILES:
        for case in load_vectors(vf):
            ref = case.record.get("ruleset")
            if ref and (vf.parent / ref).resolve() == ruleset_file.resolve():
                yield vf, case


def _ablations(doc: dict):
    """(label, document) for each parameter (or parameterless plugin) dropped."""
    for plugin, params in doc["plugins"].items():
        if params:
            for key in params:
                yield f"{plugin}.{key}", {**doc, "plugins": {**doc["plugins"], plugin: {
                    k: v for k, v in params.items() if k != key}}}
        else:
            yield plugin, {**doc, "plugins": {k: v for k, v in doc["plugins"].items() if k != plugin}}


@pytest.mark.parametrize("ruleset_file", sorted(TEST_RULESETS.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_parameter_has_a_vector_that_fails_without_it(ruleset_file, tmp_path):
    cases = list(_cases_naming(ruleset_file))
    assert cases, f"no vector case names {ruleset_file.name}"
    for vf, case in cases:
        assert evaluate(rules_for(case, vf, vf.stem), case).ok
    doc = yaml.safe_load(ruleset_file.read_text())
    for label, ablated in _ablations(doc):
        path = tmp_path / f"{ruleset_file.stem}-without-{label}.yaml"
        path.write_text(yaml.safe_dump({**ablated, "name": path.stem}, sort_keys=False))
        rules = compile_rules(load_ruleset(path))
        failing = [case.name for vf, case in cases if not evaluate(rules, case).ok]
        assert failing, f"{ruleset_file.name}: no vector fails when {label} is dropped"
