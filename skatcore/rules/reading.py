"""Reading record and ruleset files safely: JSON and YAML nested at most
:data:`MAX_DEPTH` deep, YAML without code-running tags, timestamps or alias
bombs (:data:`MAX_EXPANSION`), every error one :class:`InputError` naming the file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from skatcore.errors import InputError, shorten

MAX_DEPTH = 64  # nesting of lists and mappings; records nest 4 deep
MAX_EXPANSION = 10_000  # nodes that aliases may add beyond the file's own (a "billion laughs" adds billions)
_STR, _INT = "tag:yaml.org,2002:str", "tag:yaml.org,2002:int"


def read_document(path: Path | str) -> Any:
    """A record file: JSON if it ends in ``.json``, else YAML."""
    source = str(path)
    if not source.endswith(".json"):
        return read_yaml(path)
    return read_json(_read_text(path), source)


def read_json(text: str, source: str) -> Any:
    """JSON text, nested at most :data:`MAX_DEPTH` deep."""
    try:
        # one decoder for every document (json.loads builds one per call); json.loads says what a BOM is
        doc = _JSON.decode(text) if not text.startswith("\ufeff") else json.loads(text)
    except RecursionError:
        raise InputError(f"nested deeper than {MAX_DEPTH} levels", source=source) from None
    except (json.JSONDecodeError, ValueError) as exc:
        raise InputError(f"malformed JSON: {shorten(str(exc))}", source=source) from None
    _check_depth(doc, source)
    return doc


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


_JSON = json.JSONDecoder(parse_constant=_no_constant)


def _check_depth(doc: Any, source: str) -> None:
    stack = [(doc, 1)] if isinstance(doc, (dict, list)) else []
    while stack:  # only containers go on the stack: a record's ~100 card names are never touched twice
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise InputError(f"nested deeper than {MAX_DEPTH} levels", source=source)
        for v in value.values() if type(value) is dict else value:
            if isinstance(v, (dict, list)):
                stack.append((v, depth + 1))


def _read_text(path: Path | str) -> str:
    source = str(path)
    try:
        with open(path, encoding="utf-8") as f:  # (not Path.read_text: its wrapping costs as much as the read)
            return f.read()
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror or type(exc).__name__})", source=source) from None
    except UnicodeDecodeError:
        raise InputError("not a UTF-8 text file", source=source) from None
    except ValueError as exc:  # a path with a NUL byte
        raise InputError(f"cannot read file ({exc})", source=source) from None


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml's parser where PyYAML has it
    """YAML without timestamps: no format has a date type, so a session's
    ``date: 2026-11-27`` stays the text it was written as."""

    _tags: dict = {}  # (text, implicit) -> tag of a short scalar: records repeat the same card names

    def resolve(self, kind, value, implicit):  # (no path resolvers here: a scalar's tag depends on its text alone)
        if kind is not yaml.ScalarNode or len(value) > 16:
            return super().resolve(kind, value, implicit)
        key = (value, implicit)
        tag = self._tags.get(key)
        if tag is None:
            if len(self._tags) > 10_000:
                self._tags.clear()
            tag = self._tags[key] = super().resolve(kind, value, implicit)
        return tag


_Loader.yaml_implicit_resolvers = {
    first: [r for r in resolvers if r[0] != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def read_yaml(path: Path | str, text: str | None = None) -> Any:
    """A YAML document, safely: no tags beyond YAML's own, mapping keys
    text or integers (``yes:`` and ``null:`` are read as written), at most
    :data:`MAX_DEPTH` levels and :data:`MAX_EXPANSION` nodes added by aliases."""
    source = str(path)
    if text is None:
        text = _read_text(path)
    loader = None
    try:
        loader = _Loader(text)
        node = loader.get_single_node()
        if node is None:
            return None
        _check_nodes(node, source)
        return _construct(loader, node)
    except RecursionError:
        raise InputError(f"malformed YAML: nested deeper than {MAX_DEPTH} levels", source=source) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = ""
        if mark:
            line, column = mark.line, mark.column
            if line > text.count("\n"):  # libyaml marks the end of a last line without newline one line further
                line, column = text.count("\n"), len(text) - (text.rfind("\n") + 1)
            where = f"line {line + 1}, column {column + 1}: "
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        if "maximum nesting depth" in problem:  # libyaml's own bound, met before ours
            problem = f"nested deeper than {MAX_DEPTH} levels"
        raise InputError(f"malformed YAML: {where}{shorten(problem)}", source=source) from None
    except (ValueError, TypeError, AttributeError, OverflowError) as exc:  # a tagged value its constructor refuses (!!float x)
        raise InputError(f"malformed YAML: a tagged value cannot be read ({shorten(str(exc))})", source=source) from None
    finally:
        if loader is not None:
            loader.dispose()


_SCALARS = {f"tag:yaml.org,2002:{t}" for t in ("int", "float", "bool", "null")}
_SEQ, _MAP = "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"
_Scalar = yaml.ScalarNode


class _NotPlain(Exception):
    """A node with a tag beyond text, numbers, booleans, null, lists and mappings."""


def _construct(loader, root: yaml.Node) -> Any:
    """The document of a checked node graph.  Lists, mappings and plain
    scalars are built here, without PyYAML's per-node bookkeeping (records are
    mostly card names); any other tag goes to PyYAML's constructor, whose
    values and errors are the reference.  A node an alias repeats is built once."""
    made: dict[int, Any] = {}
    scalars = loader.yaml_constructors

    def build(node: yaml.Node) -> Any:
        kind, tag = type(node), node.tag
        if kind is yaml.ScalarNode:
            if tag == _STR:
                return node.value
            if tag in _SCALARS:
                return scalars[tag](loader, node)
        elif id(node) in made:
            return made[id(node)]
        elif kind is yaml.SequenceNode and tag == _SEQ:
            made[id(node)] = out = []
            out.extend([item.value if type(item) is _Scalar and item.tag == _STR else build(item)  # a card: no call
                        for item in node.value])
            return out
        elif kind is yaml.MappingNode and tag == _MAP:  # keys are text or integers (_check_nodes)
            made[id(node)] = out = {}
            for key, value in node.value:
                out[key.value if key.tag == _STR else build(key)] = \
                    value.value if type(value) is _Scalar and value.tag == _STR else build(value)
            return out
        raise _NotPlain

    try:
        return build(root)
    except _NotPlain:
        return loader.construct_document(root)


def _check_nodes(root: yaml.Node, source: str) -> None:
    """Bound nesting and alias expansion on the composed node graph, before
    anything is built; text keys; no alias that contains itself."""
    sizes: dict[int, tuple[int, int]] = {}  # id -> (expanded nodes, height)
    busy: set[int] = set()

    def fail(node: yaml.Node, problem: str):
        mark = node.start_mark
        raise InputError(f"malformed YAML: line {mark.line + 1}, column {mark.column + 1}: {problem}", source=source)

    def walk(node: yaml.Node, depth: int) -> tuple[int, int]:
        key = id(node)
        if key in sizes:
            size, height = sizes[key]
            if depth + height > MAX_DEPTH:
                fail(node, f"nested deeper than {MAX_DEPTH} levels")
            return size, height
        if not isinstance(node, yaml.CollectionNode):
            sizes[key] = (1, 0)
            return 1, 0
        if key in busy:
            fail(node, "an alias inside the value it names")
        if depth >= MAX_DEPTH:
            fail(node, f"nested deeper than {MAX_DEPTH} levels")
        busy.add(key)
        size, height = 1, 0
        if isinstance(node, yaml.MappingNode):
            children = []
            for k, v in node.value:
                if not isinstance(k, yaml.ScalarNode):
                    fail(k, "expected a text key")
                if k.tag != _INT:
                    k.tag = _STR  # `yes:`, `null:`, `1.5:` are keys as written, not True, None, 1.5
                children.append(v)
        else:
            children = node.value
        for child in children:
            if type(child) is _Scalar:  # the commonest child (a card), counted here: no call, never too deep
                sizes[id(child)] = (1, 0)
                size, height = size + 1, height or 1
                continue
            s, h = walk(child, depth + 1)
            size, height = size + s, max(height, h + 1)
        busy.discard(key)
        sizes[key] = (size, height)
        return size, height

    expanded, _ = walk(root, 0)
    if expanded > len(sizes) + MAX_EXPANSION:  # len(sizes): the distinct values written
        fail(root, f"aliases expand to {expanded:,} values (expected at most {MAX_EXPANSION:,} more than written)")
