"""``skat plugin new``: a scaffold of an installable plugin package - a
pyproject with the entry points, a hook module, a ruleset, vectors and a
test using the testing kit (:mod:`skatcore.testing`) - for a rule of one
kind (``--kind``: a value, card points, a win condition;
:mod:`skatcore.cli.scaffold_kinds`)."""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
from pathlib import Path

from skatcore.cli.scaffold_kinds import KINDS
from skatcore.errors import InputError, printable, shown

_NAME = re.compile(r"^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$")
MAX_NAME = 40  # a plugin's name is a word or three; the file names made from it stay far from the system's limit


def scaffold_names(name: str) -> dict[str, str]:
    if not _NAME.match(name) or len(name) > MAX_NAME:
        raise InputError(f"plugin name {shown(name)}: expected lower-case letters and digits, words joined by - or _, at most {MAX_NAME} "
                         "characters (e.g. grand20, house-rules)")
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

{imports}
#: the ruleset shipped with the plugin (entry point group ``skat.rulesets``)
RULESET = Path(__file__).with_name("{snake}.yaml")


{plugin_class}''',
    "src/{module}/{snake}.yaml": '''\
name: {snake}
description: official rules with the house rule {name} ({rule})
extends: official
plugins:
  {snake}: {params}   # the entry point name of the plugin (group "skat")
''',
    "tests/vectors/{snake}.yaml": '''\
# Scored deals under the ruleset `{snake}` (skatcore.records.vectors): a deal record,
# a `name`, and `expect` (result fields, or `error: <substring>`).

{vectors}''',
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


{parameter_test}def test_random_deals(skat_play):
    for deal in skat_play("{snake}", seed=1, deals=50):
        assert deal.done


def test_same_rows_on_every_path():
    # skat simulate/compare play heuristic players compiled and through Deal: one result either way
    assert_same_rows("{snake}", deals=200)
''',
}


def scaffold(name: str, directory: str | Path | None = None, kind: str = "value") -> tuple[Path, list[Path]]:
    """Write a plugin package for ``name`` with a rule of ``kind`` (one of
    :data:`~skatcore.cli.scaffold_kinds.KINDS`); the folder and the files written."""
    n = scaffold_names(name)
    if kind not in KINDS:
        raise InputError(f"--kind {kind!r}: expected one of {', '.join(KINDS)}")
    root = Path(directory) if directory else Path(n["dist"])
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise InputError(f"{root} exists and is not an empty folder (expected a new folder, e.g. --dir {n['dist']})")
    parts = {key: text.format(**n) for key, text in KINDS[kind].items()}  # filled in as they are, braces and all
    made = [p for p in (root.absolute().parent, *root.absolute().parent.parents) if not p.exists()]
    root.parent.mkdir(parents=True, exist_ok=True)
    part = root.parent / f".{root.name[:40]}.{secrets.token_hex(4)}.part"
    part.mkdir()
    try:  # the package is written beside its folder and moved in whole: a failure leaves nothing behind
        for rel, text in SCAFFOLD.items():
            path = part / rel.format(**n)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text.format(**n, **parts), encoding="utf-8")
        os.rename(part, root)  # (onto an empty folder too)
    except BaseException:
        shutil.rmtree(part, ignore_errors=True)
        for folder in made:  # the parent folders --dir made, innermost first
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    return root, [root / rel.format(**n) for rel in SCAFFOLD]


def cmd_plugin_new(args) -> int:
    root, written = scaffold(args.name, args.dir, getattr(args, "kind", None) or "value")
    n = scaffold_names(args.name)
    for path in written:  # --dir is the user's, escaped like any argument
        print(printable(f"wrote {path}"))
    print()
    print(printable(f"next: pip install -e '{root}[test]' && pytest {root}"))
    print(printable(f"then: skat rules {n['snake']}; edit {root / 'src' / n['module'] / '__init__.py'}"))
    return 0
