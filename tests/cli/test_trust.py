"""Untrusted input: no code runs unless the user says so (--trust,
SKAT_TRUSTED_PATHS), paths stay inside the naming file's tree, YAML bombs
and deep nesting are refused at once, control characters never reach the
terminal raw, stakes are finite."""

from __future__ import annotations

import pytest
import yaml
from cli_checks import refused

from skatcore.cli.main import main

# a plugin that leaves a trace when its module runs
EVIL = "from pathlib import Path\nPath(__file__).with_name('ran').write_text('yes')\nclass Plugin:\n    pass\n"
GRAND = {"declarer": "forehand", "bid": 18, "game": {"type": "grand"},
         "outcome": {"declarer_points": 70, "matadors": {"with": 1}}}


@pytest.fixture(autouse=True)
def untrusted(monkeypatch):
    monkeypatch.delenv("SKAT_TRUSTED_PATHS", raising=False)


def write(path, text) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture
def evil(tmp_path):
    """A ruleset naming a local plugin file, and a deal record naming that ruleset."""
    write(tmp_path / "evil.py", EVIL)
    ruleset = write(tmp_path / "evil.yaml", "name: evil\nextends: official\nplugins:\n  ./evil.py:Plugin: {}\n")
    record = write(tmp_path / "deal.yaml", yaml.safe_dump({"format": "skat-deal/1", "ruleset": "evil.yaml", **GRAND}))
    return tmp_path, ruleset, record




def test_local_plugin_code_runs_only_with_trust(evil, capsys, monkeypatch):
    tmp, ruleset, record = evil
    session = write(tmp / "session.yaml", yaml.safe_dump({"format": "skat-session/1", "ruleset": "evil.yaml",
                                                          "players": ["A", "B", "C"], "deals": [GRAND]}))
    for argv in (["score", record], ["validate", record], ["validate", ruleset], ["rules", ruleset],
                 ["plugins", "--ruleset", ruleset], ["sheet", session], ["validate", session]):
        refused(capsys, argv, "evil.yaml", "./evil.py:Plugin", "--trust", "SKAT_TRUSTED_PATHS")
        assert not (tmp / "ran").exists(), argv
    for argv in (["--trust", "score", record], ["score", "--trust", record]):
        assert main(argv) == 0 and "+48" in capsys.readouterr().out
    assert (tmp / "ran").exists()
    (tmp / "ran").unlink()
    monkeypatch.setenv("SKAT_TRUSTED_PATHS", str(tmp))
    assert main(["score", record]) == 0 and (tmp / "ran").exists()


def test_module_attr_is_code_too(tmp_path, capsys):
    # os:abort would end the process if it were called as a plugin factory
    ruleset = write(tmp_path / "abort.yaml", "name: x\nextends: official\nplugins:\n  os:abort: {}\n")
    refused(capsys, ["validate", ruleset], "os:abort", "--trust")


def test_sheet_show_needs_trust_for_a_sheet_made_with_it(evil, capsys):
    tmp, ruleset, _ = evil
    sheet = str(tmp / "friday.sqlite")
    assert main(["sheet", "new", sheet, "--ruleset", ruleset, "--players", "A,B,C", "--trust"]) == 0
    (tmp / "ran").unlink()
    capsys.readouterr()
    refused(capsys, ["sheet", "show", sheet], "--trust")
    assert not (tmp / "ran").exists()
    assert main(["sheet", "show", sheet, "--trust"]) == 0


def test_paths_stay_inside_the_naming_files_tree(tmp_path, capsys):
    secret = tmp_path / "secret.yaml"
    secret.write_text("password: hunter2\n", encoding="utf-8")
    inner = tmp_path / "records"
    inner.mkdir()
    for ref in ("/etc/passwd", "../secret.yaml", str(secret)):
        record = write(inner / "deal.yaml", yaml.safe_dump({"format": "skat-deal/1", "ruleset": ref, **GRAND}))
        err = refused(capsys, ["score", record], "deal.yaml: ruleset: ", "outside the directory")
        assert "root:" not in err and "hunter2" not in err
    ruleset = write(inner / "child.yaml", "name: c\nextends: ../secret.yaml\nplugins: {}\n")
    refused(capsys, ["validate", ruleset], "child.yaml: extends: ", "outside the directory")
    write(tmp_path / "evil.py", EVIL)
    ruleset = write(inner / "plug.yaml", "name: p\nextends: official\nplugins:\n  ../evil.py:Plugin: {}\n")
    refused(capsys, ["--trust", "validate", ruleset], "outside the directory")
    assert not (tmp_path / "ran").exists()


def test_a_ruleset_inside_the_tree_that_is_no_ruleset_is_not_echoed(tmp_path, capsys):
    write(tmp_path / "notes.yaml", "the safe combination is 12-34-56\n")
    record = write(tmp_path / "deal.yaml", yaml.safe_dump({"format": "skat-deal/1", "ruleset": "notes.yaml", **GRAND}))
    err = refused(capsys, ["score", record], "notes.yaml: expected a mapping, got a string")
    assert "12-34-56" not in err


def billion_laughs(levels: int = 12) -> str:
    text = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    for i in range(1, levels):
        text += f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n"
    return text  # 10**12 values if expanded: this test would never end


@pytest.mark.parametrize("suffix, text, expected", [
    (".yaml", billion_laughs(), "aliases expand to"),
    (".yaml", "[" * 5000 + "]" * 5000, "nested deeper than 64 levels"),
    (".yaml", "a: &a [*a]\n", "an alias inside the value it names"),
    (".json", "[" * 5000 + "]" * 5000, "nested deeper than 64 levels"),
    (".json", '{"format": NaN}', "NaN"),
    (".yaml", "a: !!float x\n", "line 1, column 4: expected a value of tag !!float, got 'x'"),
])
def test_hostile_documents_are_refused(tmp_path, capsys, suffix, text, expected):
    f = write(tmp_path / f"bomb{suffix}", text)
    for command in ("validate", "score"):
        refused(capsys, [command, f], f, expected)


def test_control_characters_are_escaped_in_text_output(tmp_path, capsys):
    sheet = str(tmp_path / "s.sqlite")
    forged = "Anna\x1b[2J\nfake line"
    assert main(["sheet", "new", sheet, "--ruleset", "official", "--players", f"{forged},Bernd,Clara"]) == 0
    assert main(["sheet", "add", sheet, "--declarer", forged, "--bid", "18", "--game", "grand", "--points", "70",
                 "--matadors", "with1"]) == 0
    assert main(["sheet", "show", sheet]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\nfake line" not in out and "Anna\\x1b[2J\\nfake line" in out
    record = write(tmp_path / "d.yaml", yaml.safe_dump({"format": "skat-deal/1", "id": "x\x07\ny", **GRAND}))
    assert main(["score", record]) == 0
    assert "x\\x07\\ny: grand" in capsys.readouterr().out


@pytest.mark.parametrize("stake", ["nan", "inf", "-1"])
def test_stakes_are_finite(tmp_path, capsys, stake):
    sheet = str(tmp_path / "s.sqlite")
    refused(capsys, ["sheet", "new", sheet, "--ruleset", "official", "--players", "A,B,C", f"--stake={stake}"],
            "--stake: expected a finite amount")
    session = write(tmp_path / "s.yaml", f"format: skat-session/1\nruleset: official\nplayers: [A, B, C]\n"
                                         f"stake: {stake.replace('nan', '.nan').replace('inf', '.inf')}\ndeals: []\n")
    refused(capsys, ["sheet", session], "stake")
