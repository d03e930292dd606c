"""The docs say what the code does: every worked example of docs/rules/ is a
vector scored here, every shipped ruleset has its page, the generated parts
of docs/formats.md and docs/api.md are current, and every code block of
README.md and docs/ that is a command or a record runs (see
``test_command_blocks_run`` and ``test_record_block``).

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
from records.test_sessions import mismatches, run_file  # tests/records/test_sessions.py

from skatcore.cli import docgen
from skatcore.records.vectors import evaluate, load_vectors, rules_for
from skatcore.rules.ruleset import read_yaml, shipped_rulesets

ROOT = Path(__file__).resolve().parent.parent
RULES_DOCS = ROOT / "docs" / "rules"
BLOCK = re.compile(r"^(?:<!-- (?P<mark>file|not run): (?P<what>[^\n]*?) -->\n)?```(?P<lang>\w*)[^\n]*\n(?P<body>.*?)^```",
                   re.S | re.M)


def blocks(path: Path, skip_not_run: bool = True):
    """(lang, body, line, file name or None) for each fenced block of
    ``path``; a block after ``<!-- not run: why -->`` is left out."""
    text = path.read_text(encoding="utf-8")
    for m in BLOCK.finditer(text):
        if m.group("mark") == "not run" and skip_not_run:
            continue
        line = text.count("\n", 0, m.start("body")) + 1
        yield m.group("lang"), m.group("body"), line, m.group("what") if m.group("mark") == "file" else None


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


@pytest.mark.parametrize("name", ["deal", "session", "ruleset", "score", "provenance"])
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


# -- every command and record of README.md and docs/ runs ----------------------------

README = ROOT / "README.md"
# docs/ and its folders (docs/getting-started/ ...); the examples of docs/rules/ are vectors, run above
DOC_PAGES = [README, *sorted(p for p in (ROOT / "docs").rglob("*.md") if p.relative_to(ROOT / "docs").parts[0] != "rules")]


def _run_pages():
    return [pytest.param(page, id=str(page.relative_to(ROOT))) for page in DOC_PAGES
            if any(lang in ("sh", "python") for lang, *_ in blocks(page))]


def _commands(body: str):
    """The command lines of an ``sh`` block: continuation lines joined,
    comments kept (bash ignores them)."""
    lines = body.replace("\\\n", " ").splitlines()
    return [line for line in lines if line.strip() and not line.lstrip().startswith(("#", "pip install "))]


@pytest.mark.parametrize("page", _run_pages())
def test_command_blocks_run(page, tmp_path):
    """Every ``sh`` block line by line (each page in a folder of its own, so
    `skat sheet new` comes before `skat sheet add`, with the page's
    ``<!-- file: -->`` blocks written there first), every ``python`` block
    that is a program (starts with an import), each exiting 0.  `pip
    install` lines are not run: the test environment is that install.  A block
    marked ``<!-- not run: why -->`` says why it is not run (the install
    CI itself runs, a package install into the test environment)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "COLUMNS": "120"}
    for _lang, body, _line, name in blocks(page):
        if name:
            (tmp_path / name).write_text(body, encoding="utf-8")
    (tmp_path / "examples").symlink_to(ROOT / "examples")  # the pages' commands run in a clone
    for lang, body, line, name in blocks(page):
        if name:
            continue
        if lang == "sh":
            runs = [(command, ["bash", "-c", command]) for command in _commands(body)]
        elif lang == "python" and re.match(r"(from|import) ", body):
            runs = [(body, [sys.executable, "-c", body])]
        else:
            continue
        for command, argv in runs:
            proc = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
                                  stdin=subprocess.DEVNULL)
            assert proc.returncode == 0, (f"{page.name}:{line}: {command!r} exited {proc.returncode}\n"
                                          f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}")


def _record_blocks():
    for page in DOC_PAGES:
        for lang, body, line, name in blocks(page):
            if lang in ("yaml", "json") and not name:
                yield pytest.param(page, lang, body, id=f"{page.relative_to(ROOT)}:{line}")


@pytest.mark.parametrize(("page", "lang", "body"), list(_record_blocks()))
def test_record_block(page, lang, body, tmp_path):
    """Every ``yaml`` or ``json`` block outside docs/rules/ is a deal record,
    a session record, a ruleset or a score result, and is accepted as one
    (a vector list is scored case by case, like the examples of docs/rules/)."""
    from skatcore.records.deal import check_record, score_record
    from skatcore.records.session import rules_for_session, score_session
    from skatcore.records.session_record import check_session
    from skatcore.rules.compiler import compile_rules
    from skatcore.rules.compiler import rules_for as record_rules
    from skatcore.rules.ruleset import load_ruleset

    source = str(tmp_path / "block.yaml")
    (tmp_path / "block.yaml").write_text(body, encoding="utf-8")
    doc = read_yaml(source) if lang == "yaml" else __import__("json").loads(body)
    if isinstance(doc, list):
        for case in load_vectors(tmp_path / "block.yaml"):
            outcome = evaluate(rules_for(case, tmp_path / "block.yaml", "official"), case)
            assert outcome.ok, outcome.report()
    elif doc.get("format") == "skat-session/1":
        expect = doc.pop("expect", None)
        check_session(doc, source)
        result = score_session(doc, rules_for_session(doc, source), source).to_json()
        for key, want in (expect or {}).items():
            if key != "deals":
                assert result[key] == want, key
    elif doc.get("format") == "skat-sheet/1":
        assert {"deals", "totals", "final", "settlement", "net"} <= set(doc)
    elif "explanation" in doc:  # a score result
        jsonschema.validate(doc, docgen.load_schema("score"))
    elif "plugins" in doc:
        compile_rules(load_ruleset(tmp_path / "block.yaml"))
    else:
        check_record(doc, source)
        score_record(doc, record_rules(doc, source), source)


def test_citations_point_into_docs():
    """Rules and formats are cited by their pages in docs/ (docs/rules/official.md#a8,
    docs/formats.md#deal-record), not by files the repository does not contain."""
    import subprocess

    pattern = "FORM" + r"ATS|RULES\.md|RULES [AB][0-9]"  # spelt apart so that this file does not match
    proc = subprocess.run(["git", "grep", "-nE", pattern, "--", ".", ":!CHANGELOG.md"], cwd=ROOT,
                          capture_output=True, text=True)
    if proc.returncode == 128:
        pytest.skip("not a git clone")
    assert not proc.stdout, "cite docs/rules/<page>.md#<section> or docs/formats.md#<part> instead:\n" + proc.stdout[:3000]


# -- the README: the front door ---------------------------------------------------------

LINK = re.compile(r'\]\(([^)\s]+)\)|<img [^>]*src="([^"]+)"')


def test_the_readme_is_read_in_three_minutes():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 150, f"README.md: {len(lines)} lines; the reference belongs in docs/"


def test_the_readme_links_resolve():
    """Every link and picture of the README names a file of the repository,
    and an anchor the page has (as the docs site makes them: the toc
    extension's ids, and ``<a id>``); the web's links are left alone."""
    import markdown

    text = README.read_text(encoding="utf-8")
    broken = []
    for match in LINK.finditer(text):
        target = match.group(1) or match.group(2)
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path, _, anchor = target.partition("#")
        file = ROOT / path
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor:
            html = markdown.markdown(file.read_text(encoding="utf-8"), extensions=["toc", "tables"])
            if f'id="{anchor}"' not in html:
                broken.append(f"{target}: {path} has no anchor #{anchor}")
    assert not broken, "README.md: " + "; ".join(broken)
