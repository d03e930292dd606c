"""The ``skat`` command line (docs/formats.md#score-result, #command-line), in-process through
``skatcore.cli.main(argv)``, plus one run of the installed console script."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from skatcore.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "overbid-clubs-hand.yaml")
OFFICIAL_YAML = str(ROOT / "rulesets" / "official.yaml")

# docs/formats.md#score-result, the example's result (docs/rules/official.md#a8: overbid clubs hand)
EXPECTED = {
    "ruleset": "official",
    "declarer": "middlehand",
    "game": "clubs",
    "hand": True,
    "bid": 46,
    "won": False,
    "overbid": True,
    "matadors": {"with": 1},
    "multiplier": 3,
    "value": 36,
    "score": -96,
    "scores": {"forehand": 0, "middlehand": -96, "rearhand": 0},
    "declarer_points": 74,
    "explanation": "with 1, game 2, hand 3; 3 x clubs 12 = 36 < bid 46: overbid, lost 2 x 48 = -96",
}

# official bid ladder, first 40 rungs, written out by hand
LADDER_40 = [18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60,
             63, 66, 70, 72, 77, 80, 81, 84, 88, 90, 96, 99, 100, 108, 110, 117, 120, 121, 126, 130]


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_rulesets_lists_official_with_description(capsys):
    rc, out, err = run(capsys, "rulesets")
    assert rc == 0 and err == ""
    line = next(ln for ln in out.splitlines() if ln.split()[0] == "official")
    assert "International Skat Order 1999" in line


def test_rules_official(capsys):
    rc, out, err = run(capsys, "rules", "official")
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("official: International Skat Order 1999")

    assert "rules explained: docs/rules/official.md" in lines
    assert (Path(__file__).parents[2] / "docs" / "rules" / "official.md").is_file()

    # plugins with their (default) parameters, one line each
    at = lines.index("plugins and parameters:")
    assert lines[at + 1].split() == ["official", "[built-in]"]
    assert lines[at + 2:at + 6] == ["    grand_base             24", "    min_bid                18",
                                    "    out_of_schneider       31", "    schneider_at           90"]

    # the contract table
    table = {}
    for ln in lines[lines.index("contracts:") + 1:]:
        if not ln.strip():
            break
        name, rest = re.split(r"\s{2,}", ln.strip(), maxsplit=1)
        table[name] = rest
    assert set(table) == {"clubs", "spades", "hearts", "diamonds", "grand",
                          "null", "null hand", "null ouvert", "null ouvert hand"}
    for game, base in (("clubs", 12), ("spades", 11), ("hearts", 10), ("diamonds", 9), ("grand", 24)):
        # every form of a contract with its base and lost factor (official: the same base both ways)
        assert f"skat {base} (lost x2); hand {base} (lost x2)" in table[game], table[game]
    assert "matadors up to 4" in table["grand"] and "matadors up to 11" in table["clubs"]
    for game, value in (("null", 23), ("null hand", 35), ("null ouvert", 46), ("null ouvert hand", 59)):
        assert table[game].split()[:2] == ["fixed", str(value)]
        assert f"lost {-2 * value}" in table[game]

    thresholds = next(ln for ln in lines if ln.startswith("thresholds:"))
    assert "win 61" in thresholds and "schneider at 90" in thresholds and "out of schneider at 31" in thresholds

    # exactly the first 40 rungs of the ladder
    i = next(i for i, ln in enumerate(lines) if ln.startswith("bid ladder"))
    assert "first 40 of 63" in lines[i]
    assert [int(v) for v in lines[i + 1].split()] == LADDER_40


def test_rules_differences_from_the_parent(capsys):
    rc, out, _err = run(capsys, "rules", "texas")
    assert rc == 0
    diff = out.split("differs from official:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert "    official.grand_base: 24 -> 16" in diff
    assert "    official.schneider_at: 90 -> 91" in diff
    assert any(ln.startswith("  + announcements  {after_pickup: [schneider, schwarz, ouvert]") for ln in diff), diff
    assert any(ln.startswith("  + ramsch  {") and "scoring: texas" in ln for ln in diff), diff
    assert "rules explained: docs/rules/texas.md" in out


def test_rules_of_a_file_link_the_page_it_extends(capsys, tmp_path):
    (tmp_path / "mine.yaml").write_text("extends: pub\nplugins:\n  kontra: false\n")
    rc, out, err = run(capsys, "rules", str(tmp_path / "mine.yaml"))
    assert rc == 0, err
    assert "rules explained: docs/rules/pub.md" in out
    assert "  - kontra (dropped)" in out.split("differs from pub:")[1]


def test_ladder_oracle():
    """The hand-written rungs agree with the official values: suits 9-12 x
    2..18, grand 24 x 2..11, nulls 23/35/46/59."""
    values = {b * m for b in (9, 10, 11, 12) for m in range(2, 19)} | {24 * m for m in range(2, 12)} | {23, 35, 46, 59}
    ladder = sorted(v for v in values if v >= 18)
    assert ladder[:40] == LADDER_40 and len(ladder) == 63


def test_rules_of_a_ruleset_file(capsys):
    rc, out, _ = run(capsys, "rules", OFFICIAL_YAML)
    assert rc == 0 and out.startswith("official: ")


def test_validate_ruleset(capsys):
    rc, out, err = run(capsys, "validate", OFFICIAL_YAML)
    assert rc == 0 and err == ""
    assert out.startswith(f"{OFFICIAL_YAML}: valid ruleset 'official' (") and out.count("\n") == 1


def test_validate_deal_record(capsys):
    rc, out, err = run(capsys, "validate", EXAMPLE)
    assert (rc, out.strip(), err) == (0, f"{EXAMPLE}: valid deal record", "")


def test_validate_deal_record_as_json(tmp_path, capsys):
    f = tmp_path / "d.json"
    f.write_text(json.dumps(yaml.safe_load(Path(EXAMPLE).read_text("utf-8"))), "utf-8")
    rc, out, _ = run(capsys, "validate", str(f))
    assert rc == 0 and "valid deal record" in out
    rc, out, _ = run(capsys, "score", "--json", str(f))
    assert rc == 0 and json.loads(out)["score"] == -96


def test_score_json_fields(capsys):
    rc, out, err = run(capsys, "score", "--json", EXAMPLE)
    assert rc == 0 and err == ""
    result = json.loads(out)  # one JSON object
    assert {k: result[k] for k in EXPECTED} == EXPECTED
    # docs/formats.md: "add fields freely" -- only these documented extras today
    assert set(result) - set(EXPECTED) <= {"id", "players"}
    assert result["players"] == {"forehand": "Bernard", "middlehand": "Clara", "rearhand": "Anna"}


def test_score_human_output(capsys):
    rc, out, err = run(capsys, "score", EXAMPLE)
    assert rc == 0 and err == ""
    lines = [ln.strip() for ln in out.splitlines()]
    assert lines[0] == f"{EXAMPLE}: clubs by middlehand, bid 46"
    assert EXPECTED["explanation"] in lines
    assert "sheet: middlehand -96" in lines


def test_score_several_files_json_lines(tmp_path, capsys):
    doc = yaml.safe_load(Path(EXAMPLE).read_text("utf-8"))
    doc["id"] = "deal-7"
    second = tmp_path / "with-id.yaml"
    second.write_text(yaml.safe_dump(doc), "utf-8")
    rc, out, err = run(capsys, "score", "--json", EXAMPLE, str(second))
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 2  # JSON Lines: one compact object per line
    first, other = map(json.loads, lines)
    assert first["id"] == EXAMPLE and other["id"] == "deal-7"
    for r in (first, other):
        assert {k: r[k] for k in EXPECTED} == EXPECTED


def test_score_ruleset_option_wins_over_the_record(tmp_path, capsys):
    rs = tmp_path / "grand20.yaml"
    rs.write_text("name: grand20\nextends: official\nplugins:\n  official: {grand_base: 20}\n", "utf-8")
    rc, out, _ = run(capsys, "score", "--json", "--ruleset", str(rs), EXAMPLE)
    assert rc == 0
    assert json.loads(out)["ruleset"] == "grand20"


def test_help_exits_zero(capsys):
    rc, out, _ = run(capsys, "--help")
    assert rc == 0 and "score" in out


def test_installed_console_script(tmp_path):
    """The `skat` entry point of the installed package (one subprocess run)."""
    exe = Path(sys.executable).parent / "skat"
    script = str(exe) if exe.exists() else shutil.which("skat")
    if not script:
        pytest.skip("the skat console script is not installed")
    ok = subprocess.run([script, "score", "--json", EXAMPLE], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["score"] == -96
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: skat-deal/1\nhands: [CJ\n", "utf-8")
    fail = subprocess.run([script, "score", str(bad)], capture_output=True, text=True, timeout=60)
    assert fail.returncode == 2 and fail.stdout == ""
    assert fail.stderr.count("\n") == 1 and "Traceback" not in fail.stderr and str(bad) in fail.stderr


# ---------------------------------------------------------------------------
# Packaging
# ---------------------------------------------------------------------------


def _can_build_wheels() -> bool:
    """bdist_wheel comes with setuptools >= 70.1, or from the `wheel` package."""
    probe = "import importlib.util as u, sys; sys.exit(not (u.find_spec('wheel') or u.find_spec('setuptools.command.bdist_wheel')))"
    return subprocess.run([sys.executable, "-c", probe], capture_output=True).returncode == 0


def test_wheel_carries_rulesets_schemas_and_plugins(tmp_path):
    """A wheel built from a clean copy of the repo (offline, with this
    environment's setuptools) ships the package data and no bare `plugins`."""
    if not _can_build_wheels():
        pytest.skip("no bdist_wheel offline: setuptools < 70.1 and the `wheel` package is not installed")
    src = tmp_path / "src"
    # a copy, so that the in-tree build leaves no build/ or egg-info behind in the repo
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", "tests"))
    out = tmp_path / "wheels"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(out), "."],
        cwd=src, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0 and "No module named pip" in proc.stderr:
        pytest.skip("pip is not available")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    (wheel,) = out.glob("skatcore-*.whl")
    import zipfile

    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        top_level = next((zf.read(n).decode() for n in names if n.endswith(".dist-info/top_level.txt")), "")
    for required in ("skatcore_rulesets/official.yaml", "skatcore/schemas/deal.schema.json",
                     "skatcore/schemas/ruleset.schema.json", "skatcore_plugins/official.py", "skatcore/py.typed"):
        assert required in names, f"{required} missing from {wheel.name}"
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "skatcore").rglob("*.py")}
    assert not modules - names, f"modules missing from {wheel.name} (pyproject packages?): {sorted(modules - names)}"
    assert not any(n.startswith(("plugins/", "rulesets/")) for n in names), "bare top-level package in the wheel"
    assert "plugins" not in top_level.split() and "rulesets" not in top_level.split()


# -- what a plugin author meets (issue 14) ---------------------------------------------


def test_validate_takes_a_ruleset_name_and_suggests_the_nearest(capsys):
    assert main(["validate", "texas"]) == 0
    assert "valid ruleset 'texas'" in capsys.readouterr().out
    assert main(["validate", "texsa"]) == 2
    assert "unknown ruleset 'texsa' (did you mean 'texas'?" in capsys.readouterr().err
    assert main(["rules", "offical"]) == 2
    assert "did you mean 'official'?" in capsys.readouterr().err


def test_unknown_plugin_suggests_the_nearest(capsys, tmp_path):
    (tmp_path / "r.yaml").write_text("plugins:\n  oficial: {}\n")
    assert main(["validate", str(tmp_path / "r.yaml")]) == 2
    assert "unknown plugin 'oficial' (did you mean 'official'?" in capsys.readouterr().err


def test_hooks_cut_descriptions_between_words(capsys):
    assert main(["hooks"]) == 0
    for line in capsys.readouterr().out.splitlines():
        text = line[43:]  # after the name (28) and the kind (13) columns
        assert len(text) <= 100 and (text.endswith((".", " ...", ")", ":")) or len(text) < 100), line


def test_sheet_flags_have_help(capsys):
    assert main(["sheet", "add", "x", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--schneider           schneider announced" in out and "--hand                played without" in out


def test_a_plugin_class_without_hookimpl_is_warned_about(capsys, tmp_path):
    (tmp_path / "house.py").write_text("class NoHooks:\n    def skat_base_value(self, contract):\n        return 20\n")
    (tmp_path / "house.yaml").write_text("extends: official\nplugins:\n  ./house.py:NoHooks: {}\n")
    assert main(["validate", "--trust", str(tmp_path / "house.yaml")]) == 0
    out, err = capsys.readouterr()
    assert "valid ruleset 'house'" in out
    assert err.startswith("skat: warning: ") and err.count("\n") == 1
    assert "plugin './house.py:NoHooks' implements no hook: skat_base_value not marked @hookimpl" in err


def test_an_entry_point_added_after_the_editable_install_says_reinstall(capsys, tmp_path, monkeypatch):
    """The source's pyproject.toml declares `kreuz_bock`, the installed metadata does not."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "pyproject.toml").write_text('[project]\nname = "skat-kreuz-bock"\n\n'
                                        '[project.entry-points.skat]\nkreuz_bock = "skat_kreuz_bock:KreuzBock"\n')
    info = tmp_path / "site" / "skat_kreuz_bock-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: skat-kreuz-bock\nVersion: 0.1.0\n")
    (info / "direct_url.json").write_text(json.dumps({"url": src.as_uri(), "dir_info": {"editable": True}}))
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    (tmp_path / "r.yaml").write_text("extends: official\nplugins:\n  kreuz_bock: {}\n")
    assert main(["validate", str(tmp_path / "r.yaml")]) == 2
    err = capsys.readouterr().err
    assert "unknown plugin 'kreuz_bock'" in err
    assert f"the installed metadata of skat-kreuz-bock is older: run pip install -e {src} again" in err


def test_skat_vectors_reports_a_failure_once_and_a_bad_file_in_one_line():
    """Through pytest itself: the failing case's report once, no traceback
    into skatcore.testing, and a malformed file named with the case."""
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / "official.yaml").write_text(
            "- name: grand with 1 is 48\n  declarer: forehand\n  bid: 18\n  game: {type: grand}\n"
            "  outcome: {declarer_points: 70, matadors: {with: 1}}\n  expect: {value: 40}\n")
        (d / "broken.yaml").write_text("- name: no expect\n  declarer: forehand\n")
        (d / "test_v.py").write_text(
            "def test_good(skat_vectors):\n    skat_vectors('official.yaml')\n\n"
            "def test_broken(skat_vectors):\n    skat_vectors('broken.yaml', 'official')\n")
        # -rN: no short summary, which repeats the message in full when CI is set
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rN", "-p", "no:cacheprovider", "test_v.py"],
                              cwd=d, capture_output=True, text=True)
    out = proc.stdout
    assert proc.returncode == 1, out
    assert out.count("mismatch: value: expected 40, got 48") == 1, out
    assert "During handling" not in out and "testing.py" not in out, out
    assert "broken.yaml:1: [0].expect: give `expect`" in out, out


def test_vector_tests_one_test_per_vector_and_the_line_of_a_failure(tmp_path):
    """``vector_tests``: a test id per vector (``-k`` selects one), a failure
    named by the file and line the case starts on, once, without a traceback
    into skatcore.testing; a malformed file fails one test with its line."""
    import subprocess
    import sys

    vectors = ("# my house vectors\n"
               "- name: grand with 1 is 48\n  declarer: forehand\n  bid: 18\n  game: {type: grand}\n"
               "  outcome: {declarer_points: 70, matadors: {with: 1}}\n  expect: {value: 48}\n\n"
               "- name: grand with 1 is 40\n  declarer: forehand\n  bid: 18\n  game: {type: grand}\n"
               "  outcome: {declarer_points: 70, matadors: {with: 1}}\n  expect: {value: 40}\n")
    (tmp_path / "vectors").mkdir()
    (tmp_path / "vectors" / "official.yaml").write_text(vectors)
    (tmp_path / "vectors" / "broken.yaml").write_text("- name: fine\n  expect: {value: 1}\n- name: no expect\n  bid: 18\n")
    (tmp_path / "test_v.py").write_text(
        "from pathlib import Path\nfrom skatcore.testing import vector_tests\n\nHERE = Path(__file__).parent\n"
        "test_official = vector_tests(HERE / 'vectors' / 'official.yaml')\n"
        "test_broken = vector_tests(HERE / 'vectors' / 'broken.yaml', 'official')\n")

    def pytest_run(*args):  # -rN: no short summary, which repeats the message in full when CI is set
        return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rN", "-p", "no:cacheprovider", *args],
                              cwd=tmp_path, capture_output=True, text=True).stdout

    ids = pytest_run("--collect-only", "test_v.py").splitlines()
    assert ids[:3] == ["test_v.py::test_official[grand with 1 is 48]", "test_v.py::test_official[grand with 1 is 40]",
                       "test_v.py::test_broken[broken.yaml]"]
    out = pytest_run("test_v.py", "-k", "48")
    assert "1 passed, 2 deselected" in out, out
    out = pytest_run("test_v.py")
    assert "2 failed, 1 passed" in out, out
    assert out.count("vectors/official.yaml:9: grand with 1 is 40\n  mismatch: value: expected 40, got 48") == 1, out
    assert "vectors/broken.yaml:3: [1].expect: give `expect`" in out, out
    assert "During handling" not in out and "testing.py" not in out, out


def test_cli_starts_without_the_heavy_libraries():
    """`skat --help` and importing the CLI load neither numpy, numba,
    jsonschema nor rich (nor the engine, nor the hook data types with the
    dataclasses, inspect and typing they pull in): each command imports what it needs."""
    import subprocess
    import sys

    code = ("import sys; from skatcore.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('numpy', 'numba', 'jsonschema', 'rich', 'skatcore.engine.deal', 'pluggy', "
            "'skatcore.model', 'dataclasses', 'inspect', 'typing', 'datetime') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"
