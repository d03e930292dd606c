"""The docs say what the code does: every worked example of docs/rules/ is a
vector scored here, every shipped ruleset has its page, and the generated
parts of docs/formats.md and docs/api.md are current.

A page's examples are its fenced ``yaml`` blocks: a list of cases (a deal
record plus ``name`` and ``expect``, as in tests/vectors/) or a session
record with ``expect`` (as in tests/sessions/).  A block after an
``<!-- file: NAME -->`` line is a file the examples use (a house ruleset).
"""

from __future__ import annotations

import re
from pathlib import Path

import jsonschema
import pytest
import yaml

from skatcore.cli import docgen

from skatcore.records.vectors import evaluate, load_vectors, rules_for
from skatcore.rules.ruleset import shipped_rulesets

from records.test_sessions import mismatches, run_file  # tests/records/test_sessions.py

ROOT = Path(__file__).resolve().parent.parent
RULES_DOCS = ROOT / "docs" / "rules"
BLOCK = re.compile(r"^(?:<!-- file: (?P<file>\S+) -->\n)?```(?P<lang>\w*)[^\n]*\n(?P<body>.*?)^```", re.S | re.M)


def blocks(path: Path):
    """(lang, body, line, file name or None) for each fenced block of ``path``."""
    text = path.read_text(encoding="utf-8")
    for m in BLOCK.finditer(text):
        line = text.count("\n", 0, m.start("body")) + 1
        yield m.group("lang"), m.group("body"), line, m.group("file")


def page_examples(page: Path, tmp: Path):
    """Write the page's files and examples into ``tmp``; yield (kind, path, line)."""
    for lang, body, line, name in blocks(page):
        if lang != "yaml":
            continue
        if name:
            (tmp / name).write_text(body, encoding="utf-8")
            continue
        doc = yaml.safe_load(body)
        kind = "vectors" if isinstance(doc, list) else "session" if isinstance(doc, dict) and "expect" in doc else None
        if kind:
            target = tmp / f"{page.stem}-{line}.yaml"
            target.write_text(body, encoding="utf-8")
            yield kind, target, line


def _rule_pages():
    return sorted(p for p in RULES_DOCS.glob("*.md") if p.name != "README.md")


def _examples():
    """One pytest param per vector and per session example of every page."""
    import tempfile

    tmp = Path(tempfile.mkdtemp(prefix="skat-docs-"))
    for page in _rule_pages():
        where = tmp / page.stem
        where.mkdir()
        for kind, path, line in page_examples(page, where):
            ref = f"docs/rules/{page.name}:{line}"
            if kind == "session":
                yield pytest.param(page, path, None, id=f"{ref} session")
                continue
            for case in load_vectors(path):
                yield pytest.param(page, path, case, id=f"{ref} {case.name}")


@pytest.mark.parametrize(("page", "path", "case"), list(_examples()))
def test_rules_page_example(page, path, case):
    if case is None:
        bad = mismatches(*run_file(path))
        if bad:
            pytest.fail(f"{page.name}: session example\n  " + "\n  ".join(bad), pytrace=False)
        return
    default = page.stem if page.stem in shipped_rulesets() else "official"
    outcome = evaluate(rules_for(case, path, default), case)
    if not outcome.ok:
        pytest.fail(f"docs/rules/{page.name}: " + outcome.report(), pytrace=False)
    if outcome.result is not None:  # what skat score --json prints is what docs/formats.md says
        jsonschema.validate(outcome.result.to_json(), docgen.load_schema("score"))


def test_every_shipped_ruleset_has_a_page_with_examples():
    tmp_pages = {p.stem for p in _rule_pages()}
    missing = sorted(set(shipped_rulesets()) - tmp_pages)
    assert not missing, f"no page docs/rules/<name>.md for {missing}"
    index = (RULES_DOCS / "README.md").read_text(encoding="utf-8")
    for name in shipped_rulesets():
        assert f"({name}.md)" in index, f"docs/rules/README.md does not link {name}.md"
        text = (RULES_DOCS / f"{name}.md").read_text(encoding="utf-8")
        assert "```yaml\n- name:" in text, f"docs/rules/{name}.md has no worked example"


@pytest.mark.parametrize("page", docgen.PAGES)
def test_generated_parts_are_current(page):
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    assert "<!-- generated:" in text
    assert docgen.render(text) == text, f"docs/{page} is out of date: run `python -m skatcore.cli.docgen`"


@pytest.mark.parametrize("name", ["deal", "session", "ruleset", "score"])
def test_every_schema_property_is_described(name):
    schema = docgen.load_schema(name)
    missing = [path for path, node, _ in docgen._properties(schema, schema) if not node.get("description")]
    assert not missing, f"skatcore/schemas/{name}.schema.json: give these a description: {missing}"
    assert f"<!-- generated: schema {name} -->" in (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")


def test_api_page_covers_the_plugin_api():
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    for name in ("MultiplierItem", "GameFacts", "Declaration", "CompiledRules", "Deal", "SeatView", "Player"):
        assert f"### `{name}`" in text, name
    assert "(0 = absent)" in text and "multiplies the running multiplier" in text
