"""Rulesets: ``extends:``, dropping plugins, plugin resolution (``module:attr``,
file paths), and the errors a broken plugin must produce (one line, exit 2,
naming the plugin and the ruleset file)."""

from __future__ import annotations

import json
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

from skatcore.cli.main import main
from skatcore.rules.ruleset import load_ruleset


@pytest.fixture(autouse=True)
def trust_tmp_path(tmp_path, monkeypatch):
    """The house rules these tests write into tmp_path are trusted code (SKAT_TRUSTED_PATHS)."""
    monkeypatch.setenv("SKAT_TRUSTED_PATHS", str(tmp_path))

HOUSE = textwrap.dedent('''
    from skatcore.hookspecs import hookimpl
    from skatcore.model import Contract


    class HouseRule:
        """Raises the minimum bid to 20; ``bonus`` is a parameter nobody reads."""
        params_schema = {"type": "object", "properties": {"bonus": {"type": "integer", "default": 0}}}

        def __init__(self, bonus=0):
            self.bonus = bonus

        @hookimpl
        def skat_min_bid(self):
            return 20


    class BadArg:
        @hookimpl
        def skat_min_bid(self, colour):
            return 20


    class Dup:
        @hookimpl
        def skat_register_contracts(self):
            return [Contract("grand", "grand", base=20)]


    class Boom:
        @hookimpl
        def skat_thresholds(self):
            raise ValueError("kaboom")


    class BadStart:
        def __init__(self):
            raise RuntimeError("no table")


    class Unknown:
        @hookimpl
        def skat_frobnicate(self):
            return 1
''')

# grand with 1 (matadors), 70 card points: with 1, game 2 -> 2 x base
GRAND = "format: skat-deal/1\ndeclarer: forehand\nbid: 18\ngame: {type: grand}\noutcome: {declarer_points: 70, matadors: {with: 1}}\n"


def write(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def one_line_error(capsys, *argv) -> str:
    rc, out, err = run(capsys, *argv)
    assert rc == 2, (rc, err)
    assert out == "" and err.count("\n") == 1 and err.startswith("skat: error: "), err
    return err.rstrip("\n")


def ladder(out: str) -> list[int]:
    lines = out.splitlines()
    i = next(i for i, ln in enumerate(lines) if ln.startswith("bid ladder"))
    return [int(v) for v in lines[i + 1].split()]


def score_json(capsys, *argv) -> dict:
    rc, out, err = run(capsys, "score", "--json", *argv)
    assert rc == 0, err
    return json.loads(out)


# ---------------------------------------------------------------------------
# extends
# ---------------------------------------------------------------------------


def test_extends_overrides_a_parameter(tmp_path, capsys):
    rs = write(tmp_path / "grand20.yaml",
               "name: grand20\ndescription: old grand\nextends: official\nplugins:\n  official: {grand_base: 20}\n")
    rec = write(tmp_path / "grand.yaml", GRAND)

    official = score_json(capsys, rec)
    assert (official["value"], official["score"]) == (48, 48)

    house = score_json(capsys, "--ruleset", rs, rec)
    assert house["ruleset"] == "grand20"
    assert (house["value"], house["score"]) == (40, 40)
    assert house["explanation"] == "with 1, game 2; 2 x grand 20 = 40: won +40"

    # the same through the record's own `ruleset:`
    rec2 = write(tmp_path / "grand2.yaml", GRAND + f"ruleset: {json.dumps(rs)}\n")
    assert score_json(capsys, rec2)["score"] == 40

    # a child's parameters merge into its parent's
    child = write(tmp_path / "child.yaml", "name: child\nextends: grand20.yaml\nplugins:\n  official: {min_bid: 20}\n")
    params = load_ruleset(child).plugins[0].params
    assert (params["grand_base"], params["min_bid"]) == (20, 20)


def test_extends_a_file_relative_to_the_ruleset(tmp_path, capsys, monkeypatch):
    write(tmp_path / "rs" / "parent.yaml", "name: parent\nextends: official\nplugins:\n  official: {grand_base: 20}\n")
    child = write(tmp_path / "rs" / "child.yaml", "name: child\nextends: parent.yaml\nplugins: {}\n")
    monkeypatch.chdir(tmp_path)  # not the folder of the rulesets
    rec = write(tmp_path / "grand.yaml", GRAND)
    assert score_json(capsys, "--ruleset", child, rec)["value"] == 40


def test_extends_drops_an_inherited_plugin_with_false(tmp_path, capsys):
    write(tmp_path / "house.py", HOUSE)
    parent = write(tmp_path / "parent.yaml",
                   "name: parent\nextends: official\nplugins:\n  ./house.py:HouseRule: {}\n")
    child = write(tmp_path / "child.yaml",
                  "name: child\nextends: parent.yaml\nplugins:\n  ./house.py:HouseRule: false\n")

    rc, out, _ = run(capsys, "rules", parent)
    assert rc == 0 and "./house.py:HouseRule" in out and ladder(out)[:2] == [20, 22]

    rc, out, _ = run(capsys, "rules", child)
    plugins = out.split("plugins and parameters:")[1].split("\n\n")[0]
    assert rc == 0 and "house.py" not in plugins and ladder(out)[:2] == [18, 20]
    assert "- ./house.py:HouseRule (dropped)" in out
    assert [p.key for p in load_ruleset(child).plugins] == ["official"]


@pytest.mark.parametrize("files", [
    {"a.yaml": "extends: b.yaml\nplugins: {}\n", "b.yaml": "extends: a.yaml\nplugins: {}\n"},
    {"a.yaml": "extends: a.yaml\nplugins: {}\n"},
], ids=["two-files", "itself"])
def test_extends_cycle_is_an_error(tmp_path, capsys, files):
    for name, text in files.items():
        write(tmp_path / name, text)
    a = str(tmp_path / "a.yaml")
    line = one_line_error(capsys, "validate", a)
    assert ": extends: extends cycle " in line and "a.yaml -> " in line
    # the file whose `extends` closes the cycle is named
    assert f"{tmp_path / ('b.yaml' if len(files) == 2 else 'a.yaml')}: extends:" in line


def test_extends_an_unknown_ruleset(tmp_path, capsys):
    f = write(tmp_path / "x.yaml", "extends: nosuch\nplugins: {}\n")
    line = one_line_error(capsys, "validate", f)
    assert f"{f}: extends: unknown ruleset 'nosuch'" in line


# ---------------------------------------------------------------------------
# Plugin resolution
# ---------------------------------------------------------------------------


@pytest.fixture
def house_module(tmp_path, monkeypatch):
    """A house-rule module importable as ``skat_house_<random>``."""
    name = f"skat_house_{uuid.uuid4().hex[:8]}"
    write(tmp_path / "mods" / f"{name}.py", HOUSE)
    monkeypatch.syspath_prepend(str(tmp_path / "mods"))
    yield name
    sys.modules.pop(name, None)


def test_plugin_by_module_attr(tmp_path, capsys, house_module):
    rs = write(tmp_path / "m.yaml", f"name: m\nextends: official\nplugins:\n  {house_module}:HouseRule: {{bonus: 2}}\n")
    rc, out, err = run(capsys, "rules", rs)
    assert rc == 0, err
    assert f"{house_module}:HouseRule" in out and f"module {house_module}:HouseRule" in out
    assert ladder(out)[0] == 20
    spec = load_ruleset(rs).plugins[-1]
    assert spec.params == {"bonus": 2} and spec.factory.__name__ == "HouseRule"


def test_plugin_by_module_attr_missing(tmp_path, capsys, house_module):
    rs = write(tmp_path / "m.yaml", f"name: m\nplugins:\n  {house_module}:Nope: {{}}\n")
    line = one_line_error(capsys, "validate", rs)
    assert f'{rs}: plugins["{house_module}:Nope"]: cannot load plugin' in line and "Nope" in line


@pytest.mark.parametrize("ref", ["./house.txt:HouseRule", ":HouseRule"])
def test_plugin_reference_that_is_no_module_name(tmp_path, capsys, ref):
    """importlib refuses these names (TypeError, ValueError): bad input, so one line and exit 2."""
    write(tmp_path / "house.txt", HOUSE)
    rs = write(tmp_path / "t.yaml", f'name: t\nextends: official\nplugins:\n  "{ref}": {{}}\n')
    line = one_line_error(capsys, "validate", "--trust", rs)
    assert f"cannot load plugin {ref!r}" in line and "is not a module name (expected module:attr or a .py file)" in line


def test_plugin_by_file_path_relative_to_the_ruleset(tmp_path, capsys, monkeypatch):
    write(tmp_path / "rules" / "house.py", HOUSE)
    rs = write(tmp_path / "rules" / "h.yaml", "name: h\nextends: official\nplugins:\n  ./house.py:HouseRule: {}\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    rc, out, err = run(capsys, "validate", rs)
    assert rc == 0, err
    assert "valid ruleset 'h' (2 plugins" in out
    rc, out, _ = run(capsys, "rules", rs)
    assert ladder(out)[0] == 20


def test_plugin_file_missing(tmp_path, capsys):
    rs = write(tmp_path / "h.yaml", "name: h\nplugins:\n  ./gone.py:HouseRule: {}\n")
    line = one_line_error(capsys, "validate", rs)
    assert f'{rs}: plugins["./gone.py:HouseRule"]: plugin file' in line and "not found" in line


def test_unconsumed_parameter_of_a_lax_plugin_schema(tmp_path, capsys):
    """HouseRule's schema lacks additionalProperties: false; an unread key is still an error."""
    write(tmp_path / "house.py", HOUSE)
    rs = write(tmp_path / "h.yaml", "name: h\nextends: official\nplugins:\n  ./house.py:HouseRule: {bonus: 1, bonsu: 2}\n")
    line = one_line_error(capsys, "validate", rs)
    assert f'{rs}: plugins["./house.py:HouseRule"].bonsu: unknown parameter' in line and "expected one of: bonus" in line


# ---------------------------------------------------------------------------
# Broken plugins: one line naming the plugin and the ruleset file
# ---------------------------------------------------------------------------


def broken(tmp_path, cls: str) -> str:
    write(tmp_path / "house.py", HOUSE)
    return write(tmp_path / f"{cls}.yaml", f"name: t\nextends: official\nplugins:\n  ./house.py:{cls}: {{}}\n")


def test_hookimpl_with_an_argument_the_spec_lacks(tmp_path, capsys):
    rs = broken(tmp_path, "BadArg")
    line = one_line_error(capsys, "validate", rs)
    assert f'{rs}: plugins["./house.py:BadArg"]: ' in line
    assert "plugin './house.py:BadArg' is invalid" in line and "colour" in line and "skat_min_bid" in line


def test_two_plugins_registering_the_same_contract(tmp_path, capsys):
    rs = broken(tmp_path, "Dup")
    line = one_line_error(capsys, "validate", rs)
    assert f"{rs}: " in line
    assert "contract 'grand' is defined twice, by plugins 'official' and './house.py:Dup'" in line


def test_plugin_raising_inside_a_hook(tmp_path, capsys):
    rs = broken(tmp_path, "Boom")
    line = one_line_error(capsys, "validate", rs)
    assert f"{rs}: " in line
    assert "plugin './house.py:Boom' failed in skat_thresholds: ValueError: kaboom" in line


def test_plugin_raising_when_started(tmp_path, capsys):
    rs = broken(tmp_path, "BadStart")
    line = one_line_error(capsys, "validate", rs)
    assert f'{rs}: plugins["./house.py:BadStart"]: ' in line and "RuntimeError: no table" in line


def test_plugin_implementing_an_unknown_hook(tmp_path, capsys):
    rs = broken(tmp_path, "Unknown")
    line = one_line_error(capsys, "validate", rs)
    assert f'{rs}: plugins["./house.py:Unknown"]: ' in line
    assert "'./house.py:Unknown' implements skat_frobnicate, which is not a hook" in line


def test_broken_ruleset_reported_through_score(tmp_path, capsys):
    rs = broken(tmp_path, "Boom")
    rec = write(tmp_path / "grand.yaml", GRAND)
    line = one_line_error(capsys, "score", "--ruleset", rs, rec)
    assert f"{rs}: " in line and "'./house.py:Boom'" in line
