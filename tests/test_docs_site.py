"""The docs site (mkdocs.yml: docs/ and the docstrings through mkdocstrings)
builds with ``--strict``: a broken link, a missing anchor or a reference to
a name the code no longer has fails the build, with mkdocs' own warning."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # mkdocs' notice about its successor is no finding


def build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config),
                           "--site-dir", str(site)], cwd=ROOT, capture_output=True, text=True, env=ENV)


def test_the_docs_site_builds_strict(tmp_path):
    proc = build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert proc.returncode == 0, proc.stderr
    reference = (tmp_path / "site" / "reference" / "index.html").read_text(encoding="utf-8")
    # the docstrings are on the page: a hook, a model type, the testing kit
    assert "skat_register_contracts" in reference and "GameFacts" in reference and "vector_tests" in reference
    assert (tmp_path / "site" / "rules" / "official" / "index.html").is_file()


def test_a_broken_link_or_anchor_fails_the_build(tmp_path):
    """The same validation settings on a two-page site with both faults."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    config["plugins"] = ["search"]
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\n[gone](gone.md) and [rules](other.md#a4-bidding)\n", encoding="utf-8")
    (docs / "other.md").write_text("# Other\n\n## A3. Dealing\n", encoding="utf-8")
    config["docs_dir"] = str(docs)
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    proc = build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert proc.returncode == 1
    assert "contains a link 'gone.md', but the target is not found" in proc.stderr
    assert "does not contain an anchor '#a4-bidding'" in proc.stderr
