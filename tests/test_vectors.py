"""Run every case of every vector file ``tests/vectors/<ruleset>.yaml``
under the ruleset named by the file's stem, or the case's own ``ruleset``
(a file resolved beside the vector file; see :mod:`skatcore.records.vectors`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skatcore.records.vectors import evaluate, load_vectors, rules_for

VECTOR_DIR = Path(__file__).parent / "vectors"
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
