"""``skat plugin new``: a scaffold of an installable plugin package - a
pyproject with the entry points, a hook module, a ruleset, vectors and a
test using the testing kit (:mod:`skatcore.testing`)."""

from __future__ import annotations

import re
from pathlib import Path

from skatcore.errors import InputError, printable

_NAME = re.compile(r"^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$")


def scaffold_names(name: str) -> dict[str, str]:
    if not _NAME.match(name):
        raise InputError(f"plugin name {name!r}: expected lower-case letters and digits, words joined by - or _ (e.g. grand20, house-rules)")
    snake = name.replace("-", "_")
    return {
        "name": name,
        "snake": snake,                                   # entry point name, ruleset name
        "dist": "skat-" + name.replace("_", "-"),          # the distribution pip installs
        "module": "skat_" + snake,                        # the import package
        "cls": "".join(w.capitalize() for w in re.split(r"[-_]", name)),
    }


SCAFFOLD: dict[str, str] = {
    "pyproject.toml": '''\
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "{dist}"
version = "0.1.0"
description = "A house rule for skatcore: {name}"
readme = "README.md"
requires-python = ">=3.11"
dependencies = ["skatcore"]

[project.optional-dependencies]
# pip install -e '.[test]' && pytest: the tests need pytest (skatcore's fixtures come with skatcore)
test = ["pytest>=8"]

# the plugin, by the name a ruleset uses: `plugins: {{{snake}: {{}}}}`
[project.entry-points.skat]
{snake} = "{module}:{cls}"

# the ruleset shipped with it: `skat rules {snake}`, `skat score --ruleset {snake} ...`
[project.entry-points."skat.rulesets"]
{snake} = "{module}:RULESET"

[tool.setuptools.package-data]
{module} = ["*.yaml"]

[tool.pytest.ini_options]
testpaths = ["tests"]
''',
    "README.md": '''\
# {dist}

A house rule for skatcore: **{name}**.

```sh
pip install -e '.[test]'  # installs the plugin `{snake}`, the ruleset `{snake}` and pytest
pytest                    # runs tests/ (fixtures from skatcore.testing)
skat rules {snake}        # the compiled ruleset
skat plugins {snake}      # the plugin, its parameters and hooks
```

- `src/{module}/__init__.py` - the plugin: `params_schema` and its hooks
- `src/{module}/{snake}.yaml` - a ruleset using it
- `tests/vectors/{snake}.yaml` - scored deals the ruleset must give
- `tests/test_{snake}.py` - the tests

See skatcore's `docs/writing-plugins.md` and `docs/hooks.md`.
''',
    "src/{module}/__init__.py": '''\
"""{name}: a house rule for skatcore.

The class below is the plugin.  skatcore creates one instance per compiled
ruleset, passing the parameters the ruleset gives (validated against
``params_schema``), and asks its hooks (see docs/hooks.md of skatcore).
"""

from __future__ import annotations

from pathlib import Path

from skatcore.hookspecs import hookimpl

#: the ruleset shipped with the plugin (entry point group ``skat.rulesets``)
RULESET = Path(__file__).with_name("{snake}.yaml")


class {cls}:
    """Grand is worth ``grand_base`` (change it, or the hook, to your rule)."""

    # JSON Schema of the parameters; every key a ruleset gives must be here
    params_schema = {{
        "type": "object",
        "additionalProperties": False,
        "properties": {{
            "grand_base": {{"type": "integer", "minimum": 1, "default": 24,
                           "description": "base value of grand"}},
        }},
    }}

    def __init__(self, grand_base: int = 24):
        self.grand_base = grand_base

    # An example hook.  skat_base_value is asked at compile time for every
    # contract, hand or not, and every set of announcements; return None
    # where this rule has nothing to say, and another plugin answers.  The
    # ruleset lists this plugin after `official`, so its answer wins.
    @hookimpl
    def skat_base_value(self, contract, hand, announced):
        if contract.family == "grand":
            return self.grand_base
        return None
''',
    "src/{module}/{snake}.yaml": '''\
name: {snake}
description: official rules with the house rule {name} (grand 20)
extends: official
plugins:
  {snake}: {{grand_base: 20}}   # the entry point name of the plugin (group "skat")
''',
    "tests/vectors/{snake}.yaml": '''\
# Scored deals under the ruleset `{snake}` (skatcore.records.vectors): a deal record,
# a `name`, and `expect` (result fields, or `error: <substring>`).

- name: "grand with 1: game 2, 2 x 20 = 40"
  declarer: forehand
  bid: 18
  game: {{type: grand}}
  outcome: {{declarer_points: 70, matadors: {{with: 1}}}}
  expect: {{multiplier: 2, value: 40, score: 40, won: true}}

- name: "suit games are unchanged: clubs with 2, game 3, 3 x 12 = 36"
  declarer: forehand
  bid: 18
  game: {{type: clubs}}
  outcome: {{declarer_points: 70, matadors: {{with: 2}}}}
  expect: {{value: 36}}

- name: "a lost grand: 2 x 40 = -80"
  declarer: forehand
  bid: 18
  game: {{type: grand}}
  outcome: {{declarer_points: 50, matadors: {{with: 1}}}}
  expect: {{won: false, score: -80}}
''',
    "tests/test_{snake}.py": '''\
"""Tests of {name}.  vector_tests, assert_same_rows and the fixtures
skat_rules, skat_score and skat_play come from skatcore's testing kit
(skatcore.testing)."""

from pathlib import Path

from skatcore.testing import assert_same_rows, vector_tests

from {module} import {cls}

# one test per vector, named by the case: pytest -k "lost and grand" runs one;
# a failing case names its line in the vector file
test_vectors = vector_tests(Path(__file__).parent / "vectors" / "{snake}.yaml", "{snake}")


def test_parameter(skat_rules, skat_score):
    rules = skat_rules("official", plugins={{"{snake}": ({cls}, {{"grand_base": 16}})}})
    record = {{"declarer": "forehand", "bid": 18, "game": {{"type": "grand"}},
              "outcome": {{"declarer_points": 70, "matadors": {{"with": 1}}}}}}
    assert skat_score(record, rules).value == 32


def test_random_deals(skat_play):
    for deal in skat_play("{snake}", seed=1, deals=50):
        assert deal.done


def test_same_rows_on_every_path():
    # skat simulate/compare play heuristic players compiled and through Deal: one result either way
    assert_same_rows("{snake}", deals=200)
''',
}


def scaffold(name: str, directory: str | Path | None = None) -> tuple[Path, list[Path]]:
    """Write a plugin package for ``name``; the folder and the files written."""
    n = scaffold_names(name)
    root = Path(directory) if directory else Path(n["dist"])
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise InputError(f"{root} exists and is not an empty folder (expected a new folder, e.g. --dir {n['dist']})")
    written = []
    for rel, text in SCAFFOLD.items():
        path = root / rel.format(**n)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.format(**n), encoding="utf-8")
        written.append(path)
    return root, written


def cmd_plugin_new(args) -> int:
    root, written = scaffold(args.name, args.dir)
    n = scaffold_names(args.name)
    for path in written:  # --dir is the user's, escaped like any argument
        print(printable(f"wrote {path}"))
    print()
    print(printable(f"next: pip install -e '{root}[test]' && pytest {root}"))
    print(printable(f"then: skat rules {n['snake']}; edit {root / 'src' / n['module'] / '__init__.py'}"))
    return 0
