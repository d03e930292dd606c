"""The provenance of a comparison names an installed plugin by its
distribution and version (issue 36, R3): the example packages, pip-installed
for the session (``examples_installed``, tests/plugins/conftest.py), as a
user's house rule package is."""

from __future__ import annotations

import hashlib
import json
import sys
import tomllib
from pathlib import Path

from skatcore.cli.main import main
from skatcore.rules.compiler import _compiled
from skatcore.sim.provenance import ruleset_pin

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_an_installed_plugin_is_named_by_its_distribution_and_version(examples_installed):
    for name in ("raeuberskat", "sechserskat"):
        project = tomllib.loads((EXAMPLES / name / "pyproject.toml").read_text(encoding="utf-8"))["project"]
        pin = ruleset_pin(name)
        assert pin["ref"] == name  # an installed ruleset is named again by its name
        plugin = next(p for p in pin["plugins"] if p["plugin"] == name)
        assert (plugin["distribution"], plugin["version"]) == (project["name"], project["version"])
        module = sys.modules[f"skat_{name}"]
        assert plugin["file"] == str(Path(module.__file__).resolve()) and Path(plugin["file"]).is_relative_to(examples_installed)
        assert plugin["sha256"] == hashlib.sha256(Path(module.__file__).read_bytes()).hexdigest()
        # the built-ins it extends come from skatcore
        assert {p["distribution"] for p in pin["plugins"] if p["origin"] == "built-in"} <= {"skatcore"}


def test_a_replay_says_when_an_installed_plugins_file_changed(examples_installed, tmp_path, capsys):
    rows = tmp_path / "d.jsonl"
    assert main(["compare", "official", "sechserskat", "--deals", "20", "--seed", "2", "--per-deal", str(rows)]) == 0
    capsys.readouterr()
    meta = Path(f"{rows}.meta.json")
    record = json.loads(meta.read_text(encoding="utf-8"))
    plugin = next(p for p in record["rulesets"][1]["plugins"] if p["plugin"] == "sechserskat")
    plugin["sha256"] = "0" * 64  # as if the installed package had been edited in place since
    plugin["version"] = "0.0.9"
    meta.write_text(json.dumps(record), encoding="utf-8")
    _compiled.cache_clear()
    assert main(["compare", "--replay", str(meta), "--json"]) == 0
    out, err = capsys.readouterr()
    check = next(c for c in json.loads(out)["replay"]["checks"] if c["name"] == "sechserskat")
    assert check["differs"] == ["plugin sechserskat version skat-sechserskat 0.0.9 -> skat-sechserskat 0.1.0"]
    assert "ruleset sechserskat: DIFFERS" in err
