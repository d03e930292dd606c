"""The shape of the code: no import circles among skatcore's modules and the
built-in plugins, no module over 500 lines (hookspecs.py, the documentation
of every hook, excepted) and no class over 300.

Imports are read with :mod:`ast`, not run: every ``import`` and ``from ...
import`` anywhere in a module counts, also one deferred into a function (a
circle hidden that way still ties the modules together).  ``from package
import name`` depends on the submodule ``package.name`` when there is one,
else on the package itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"skatcore": ROOT / "skatcore", "skatcore_plugins": ROOT / "plugins"}
MAX_MODULE_LINES = 500
MAX_CLASS_LINES = 300
LONG_MODULES_ALLOWED = {"skatcore/hookspecs.py"}  # every hook's documentation, rendered into docs/hooks.md


def modules() -> dict[str, Path]:
    found = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = [package, *path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _runtime_nodes(tree: ast.AST):
    """Every node but those under ``if TYPE_CHECKING:``: imports for type
    hints only (``from __future__ import annotations``) never run, so they
    close no circle."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            yield from (n for child in node.orelse for n in (child, *_runtime_nodes(child)))
            continue
        yield node
        yield from _runtime_nodes(node)


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that module ``name`` imports."""
    wanted = set()
    for node in _runtime_nodes(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            wanted.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package that holds this module
                package = name.split(".")[: len(name.split(".")) - (path.name != "__init__.py")]
                package = package[: len(package) - node.level + 1]
                base = ".".join([*package, *([node.module] if node.module else [])])
            wanted.update(f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names)
    found = set()
    for module in wanted:
        while module and module not in known:  # a name inside a module: the module
            module = module.rpartition(".")[0]
        if module and module != name:
            found.add(module)
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


# Deferred imports that close a circle, each with why; to be removed, not added to.
CIRCLE_EDGES_ALLOWED: dict[tuple[str, str], str] = {}


def test_no_import_circles():
    known = modules()
    graph = {name: imports_of(name, path, known) for name, path in known.items()}
    for (a, b) in CIRCLE_EDGES_ALLOWED:
        graph.get(a, set()).discard(b)
    assert graph["skatcore.rules.compiler"] >= {"skatcore.rules.manager", "skatcore.model"}  # the graph is read
    found = circles(graph)
    assert not found, "import circles: " + "; ".join(
        " -> ".join(f"{m} (imports {', '.join(sorted(graph[m] & set(group)))})" for m in group) for group in found)


def test_the_circle_finder_finds_a_deferred_import(tmp_path):
    (tmp_path / "a.py").write_text("import b\n")
    (tmp_path / "b.py").write_text("def f():\n    from a import g\n")
    known = {"a": tmp_path / "a.py", "b": tmp_path / "b.py"}
    graph = {name: imports_of(name, path, known) for name, path in known.items()}
    assert circles(graph) == [["a", "b"]]


def test_an_import_for_type_hints_only_closes_no_circle(tmp_path):
    (tmp_path / "a.py").write_text("import b\n")
    (tmp_path / "b.py").write_text("if TYPE_CHECKING:\n    from a import g\nelse:\n    import c\n")
    (tmp_path / "c.py").write_text("")
    known = {m: tmp_path / f"{m}.py" for m in "abc"}
    graph = {name: imports_of(name, path, known) for name, path in known.items()}
    assert graph == {"a": {"b"}, "b": {"c"}, "c": set()} and circles(graph) == []


def sources():
    for folder in PACKAGES.values():
        for path in sorted(folder.rglob("*.py")):
            yield path.relative_to(ROOT).as_posix(), path


@pytest.mark.parametrize(("name", "path"), list(sources()), ids=lambda x: x if isinstance(x, str) else "")
def test_modules_and_classes_are_small(name, path):
    text = path.read_text("utf-8")
    if name not in LONG_MODULES_ALLOWED:
        lines = len(text.splitlines())
        assert lines <= MAX_MODULE_LINES, f"{name} has {lines} lines (at most {MAX_MODULE_LINES}): split it by job"
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef):
            size = node.end_lineno - node.lineno + 1
            assert size <= MAX_CLASS_LINES, f"{name}: class {node.name} has {size} lines (at most {MAX_CLASS_LINES}): split it"


def test_test_files_have_unique_names():
    """The tests are collected without packages (rootdir imports): two test
    files of one name in two folders stop the whole run at collection."""
    tests = Path(__file__).resolve().parent
    seen: dict[str, list[str]] = {}
    for path in tests.rglob("test_*.py"):
        seen.setdefault(path.name, []).append(str(path.relative_to(tests)))
    twice = {name: paths for name, paths in seen.items() if len(paths) > 1}
    assert not twice, twice
