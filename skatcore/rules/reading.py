"""Reading record and ruleset files safely: one reader per format (YAML,
JSON, and the lines of JSON Lines and ISS ``.sgf`` files) for every command.
Bounded before the memory is spent: a document (or a line) of at most
:func:`max_bytes`, at most :func:`max_items` values, nested at most
:data:`MAX_DEPTH` deep; YAML without code-running tags, timestamps or alias
bombs (:data:`MAX_EXPANSION`); no duplicate keys; every error one
:class:`InputError` naming the file and the place in it (docs/formats.md#limits)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import yaml

from skatcore.errors import InputError, shorten

MAX_DEPTH = 64  # nesting of lists and mappings; records nest 4 deep
MAX_EXPANSION = 10_000  # nodes that aliases may add beyond the file's own (a "billion laughs" adds billions)
MAX_BYTES = 8 * 1024 * 1024  # a document, or a line of .jsonl/.sgf; environment SKAT_MAX_DOCUMENT_BYTES
# lists, mappings, keys and values of one document (YAML's parser spends ~500 bytes on each: 100,000 ~ 50 MB; a
# session record of 800 deals); environment SKAT_MAX_DOCUMENT_ITEMS
MAX_ITEMS = 100_000
MAX_DIGITS = 40  # a YAML integer's text: beyond any count or score, and far from Python's 4,300-digit limit
_SCAN = 64 * 1024  # a text this short holds too few items to matter: not counted first
_STR, _INT, _FLOAT = "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"


def env_limit(name: str, default: int) -> int:
    """A limit set by environment variable ``name`` (a whole number >= 1), else ``default``; InputError naming it if bad."""
    text = os.environ.get(name)
    if text is None:
        return default
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        value = 0
    if value < 1:
        raise InputError(f"expected a whole number >= 1, got {shorten(text)!r}", source=name)
    return value


def max_bytes() -> int:
    """The size limit of a document or a line: :data:`MAX_BYTES`, or ``SKAT_MAX_DOCUMENT_BYTES``."""
    return env_limit("SKAT_MAX_DOCUMENT_BYTES", MAX_BYTES)


def max_items() -> int:
    """The item limit of a document: :data:`MAX_ITEMS`, or ``SKAT_MAX_DOCUMENT_ITEMS``."""
    return env_limit("SKAT_MAX_DOCUMENT_ITEMS", MAX_ITEMS)


def _too_many(limit: int) -> str:
    return f"more than {limit:,} items (lists, mappings, keys and values; the limit is SKAT_MAX_DOCUMENT_ITEMS)"


def read_document(path: Path | str) -> Any:
    """A record file: JSON if it ends in ``.json``, else YAML."""
    source = str(path)
    if not source.endswith(".json"):
        return read_yaml(path)
    return read_json(_read_text(path), source)


def read_json(text: str, source: str) -> Any:
    """JSON text: at most :func:`max_items` items, nested at most
    :data:`MAX_DEPTH` deep, no duplicate keys, no lone surrogate escapes;
    whole numbers written as decimals (``1.0``) are integers."""
    if len(text) > _SCAN:
        _count_json(text, source)
    try:
        # one decoder for every document (json.loads builds one per call); json.loads says what a BOM is
        doc = _JSON.decode(text) if not text.startswith("\ufeff") else json.loads(text)
    except RecursionError:
        raise InputError(f"nested deeper than {MAX_DEPTH} levels", source=source) from None
    except _Duplicate as exc:
        raise InputError(f"malformed JSON: duplicate key {shorten(exc.args[0])!r} (expected each key once in a mapping)",
                         source=source) from None
    except (json.JSONDecodeError, ValueError) as exc:
        raise InputError(f"malformed JSON: {shorten(str(exc))}", source=source) from None
    _check_depth(doc, source)
    if "\\u" in text:  # (depth checked first: the walk recurses)
        _check_strings(doc, source)
    return doc


class _Duplicate(Exception):
    pass


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _object(pairs: list) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):  # JSON keeps the last of a repeated key: `bid: 18` then `bid: 20` would score 20
        seen = set()
        raise _Duplicate(next(k for k, _ in pairs if k in seen or seen.add(k)))
    return out


def whole(value: float) -> int | float:
    """JSON Schema counts ``1.0`` as an integer: a whole number written as a decimal is read as that integer."""
    return int(value) if value.is_integer() and -2**53 <= value <= 2**53 else value


_JSON = json.JSONDecoder(parse_constant=_no_constant, object_pairs_hook=_object, parse_float=lambda t: whole(float(t)))
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _count_json(text: str, source: str) -> None:
    """Refuse a long JSON text of too many items before it is parsed: each
    item after the first of a list or mapping follows a comma or a colon."""
    limit = max_items()
    bare = _STRING.sub("", text) if '"' in text else text
    if 2 * (bare.count("[") + bare.count("{")) + bare.count(",") + bare.count(":") + 1 > limit:
        raise InputError(_too_many(limit), source=source)


def _check_depth(doc: Any, source: str) -> None:
    stack = [(doc, 1)] if isinstance(doc, (dict, list)) else []
    while stack:  # only containers go on the stack: a record's ~100 card names are never touched twice
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise InputError(f"nested deeper than {MAX_DEPTH} levels", source=source)
        for v in value.values() if type(value) is dict else value:
            if isinstance(v, (dict, list)):
                stack.append((v, depth + 1))


def _check_strings(doc: Any, source: str, path: str = "") -> None:
    """No lone surrogate (a ``\\ud800`` escape: text no file or terminal can hold), named by its path."""
    if isinstance(doc, str):
        _no_surrogate(doc, source, path)
    elif isinstance(doc, (dict, list)):
        for k, v in doc.items() if type(doc) is dict else enumerate(doc):
            if isinstance(k, str):
                _no_surrogate(k, source, path)
            _check_strings(v, source, _join(path, k))


def _join(path: str, key) -> str:
    from skatcore.errors import join_path, json_path

    part = json_path([key])
    return join_path(path, part) if path else part


def _no_surrogate(text: str, source: str, path: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError("malformed JSON: a lone surrogate escape such as \\ud800 (expected a character, or a "
                         "UTF-16 pair)", source=source, path=path or None) from None


def _read_text(path: Path | str) -> str:
    """A file's text, refused by its size before it is read, and read no
    further than the limit (a device or a pipe has no size)."""
    source = str(path)
    limit = max_bytes()
    try:
        fd = os.open(path, os.O_RDONLY)  # (not open(): its buffering and wrapping cost as much as the read)
        try:
            size = os.fstat(fd).st_size
            if size > limit:
                raise InputError(_too_big(limit), source=source)
            chunks, total, want = [], 0, size + 1 if size else 1 << 16
            while chunk := os.read(fd, min(want, limit + 1 - total)):
                chunks.append(chunk)
                total += len(chunk)
                if total > limit:
                    raise InputError(_too_big(limit), source=source)
                want = 1 << 20
        finally:
            os.close(fd)
        return (chunks[0] if len(chunks) == 1 else b"".join(chunks)).decode("utf-8")
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror or type(exc).__name__})", source=source) from None
    except UnicodeDecodeError:
        raise InputError("not a UTF-8 text file", source=source) from None
    except ValueError as exc:  # a path with a NUL byte
        raise InputError(f"cannot read file ({exc})", source=source) from None


def _too_big(limit: int, what: str = "a document") -> str:
    return f"larger than {limit:,} bytes (expected {what} within SKAT_MAX_DOCUMENT_BYTES)"


def read_lines(path: str) -> Iterator[tuple[int, str | InputError, int]]:
    """The non-blank lines of a ``.jsonl`` or ``.sgf`` file, lazily: ``(number,
    text, bytes read)``; a line over :func:`max_bytes` or not UTF-8 is its
    own :class:`InputError` in place of the text (skipped, never held; the
    caller adds ``line N``), and the lines after it are read on."""
    limit = max_bytes()
    try:
        with open(path, "rb") as f:
            n = 0
            while True:
                raw = f.readline(limit + 1)
                if not raw:
                    return
                n += 1
                size = len(raw)
                if size > limit and not raw.endswith(b"\n"):
                    while raw and not raw.endswith(b"\n"):  # the rest of the line, a bounded piece at a time
                        raw = f.readline(1 << 20)
                        size += len(raw)
                    yield n, InputError(_too_big(limit, "a line"), source=path), size
                    continue
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    yield n, InputError(f"not UTF-8 text ({exc.reason})", source=path), size
                    continue
                if line.strip():
                    yield n, line, size
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror or type(exc).__name__})", source=path) from None
    except ValueError as exc:  # a path with a NUL byte
        raise InputError(f"cannot read file ({exc})", source=path) from None


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml's parser where PyYAML has it
    """YAML without timestamps: no format has a date type, so a session's
    ``date: 2026-11-27`` stays the text it was written as."""

    _tags: ClassVar[dict] = {}  # (text, implicit) -> tag of a short scalar: records repeat the same card names

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
    text or integers (``yes:`` and ``null:`` are read as written), each once; at most :func:`max_items` items, :data:`MAX_DEPTH` levels and
    :data:`MAX_EXPANSION` nodes added by aliases; whole numbers written as
    decimals (``1.0``) are integers, as JSON Schema counts them."""
    source = str(path)
    if text is None:
        text = _read_text(path)
    loader = None
    try:
        if len(text) > _SCAN:
            _count_yaml(text, source)
        loader = _Loader(text)
        node = loader.get_single_node()
        if node is None:
            return None
        _check_nodes(node, source)
        return _construct(loader, node)
    except InputError as exc:
        raise exc.at(source=source) from None
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
    except (ValueError, TypeError, AttributeError, OverflowError, KeyError) as exc:  # a tagged value its constructor refuses (!!float x, !!bool x)
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
                if tag == _INT and len(node.value) > MAX_DIGITS:
                    _fail(node, f"a number of {len(node.value):,} characters (expected an integer of at most {MAX_DIGITS})")
                try:
                    value = scalars[tag](loader, node)
                except (ValueError, KeyError, TypeError, OverflowError):  # !!bool x, !!int x
                    _fail(node, f"expected a value of tag !!{tag.rpartition(':')[2]}, got {shorten(repr(node.value))}")
                return whole(value) if tag == _FLOAT else value
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
            if len(out) < len(node.value):  # else the last one wins: `bid: 18` then `bid: 20` would score 20
                _duplicate(node, lambda k: k.value if k.tag == _STR else build(k))
            return out
        raise _NotPlain

    try:
        return build(root)
    except _NotPlain:
        _no_duplicates(root, loader)
        return loader.construct_document(root)


def _duplicate(node: yaml.MappingNode, value) -> None:
    seen = set()
    for k, _ in node.value:
        key = value(k)
        if key in seen:
            _fail(k, f"duplicate key {shorten(str(key))!r} (expected each key once in a mapping)")
        seen.add(key)


def _no_duplicates(root: yaml.Node, loader) -> None:
    """The check of :func:`_construct`'s mappings for a document PyYAML builds (it keeps the last of two keys)."""
    done, stack = set(), [root]
    while stack:
        node = stack.pop()
        if id(node) in done or not isinstance(node, yaml.CollectionNode):
            continue
        done.add(id(node))
        if isinstance(node, yaml.MappingNode):
            if len({(k.tag, k.value) for k, _ in node.value}) < len(node.value):
                _duplicate(node, lambda k: (k.tag, k.value))
            stack.extend(v for _, v in node.value)
        else:
            stack.extend(node.value)


def _fail(node: yaml.Node, problem: str, source: str | None = None):
    mark = node.start_mark
    raise InputError(f"malformed YAML: line {mark.line + 1}, column {mark.column + 1}: {problem}", source=source)


def _count_yaml(text: str, source: str) -> None:
    """Refuse a long YAML text of too many items before its nodes are built
    (~500 bytes each): its parser's events are counted and dropped."""
    limit = max_items()
    loader = _Loader(text)
    try:
        n = 0
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, (yaml.ScalarEvent, yaml.CollectionStartEvent, yaml.AliasEvent)):
                n += 1
                if n > limit:
                    mark = event.start_mark
                    raise InputError(f"malformed YAML: line {mark.line + 1}, column {mark.column + 1}: "
                                     f"{_too_many(limit)}", source=source)
    finally:
        loader.dispose()


def _check_nodes(root: yaml.Node, source: str) -> None:
    """Bound nesting and alias expansion on the composed node graph, before
    anything is built; text keys; no alias that contains itself."""
    sizes: dict[int, tuple[int, int]] = {}  # id -> (expanded nodes, height)
    busy: set[int] = set()

    def fail(node: yaml.Node, problem: str):
        _fail(node, problem, source)

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
