"""Run every case of every vector file ``tests/vectors/<ruleset>.yaml``
under the ruleset named by the file's stem (see :mod:`skatcore.vectors`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skatcore.rules import get_rules
from skatcore.vectors import evaluate, load_vectors

VECTOR_DIR = Path(__file__).parent / "vectors"
FILES = sorted(VECTOR_DIR.glob("*.yaml"))


def _params():
    for path in FILES:
        for case in load_vectors(path):
            yield pytest.param(path.stem, case, id=f"{path.stem}: {case.name}")


@pytest.mark.parametrize(("ruleset", "case"), list(_params()))
def test_vector(ruleset, case):
    outcome = evaluate(get_rules(ruleset), case)
    if not outcome.ok:
        pytest.fail(outcome.report(), pytrace=False)


def test_vector_files_exist():
    assert any(p.stem == "official" for p in FILES), "tests/vectors/official.yaml is missing"
