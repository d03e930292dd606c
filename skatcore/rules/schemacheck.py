"""A yes/no JSON Schema check compiled into Python closures, for the happy
path of :func:`~skatcore.rules.ruleset.validate`.

jsonschema resolves every ``$ref`` and builds a validator object per
sub-schema on each call (~2 ms for a full deal record); the closures here do
the same checks in ~30 µs.  They answer only *whether* a document is valid;
what is wrong is always jsonschema's job (``validate`` asks it whenever the
answer is no).  Only the keywords below are compiled - a schema with any
other keyword gets ``None`` and is checked by jsonschema alone - and
``tests/rules/test_schemacheck.py`` holds the verdicts equal to jsonschema's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    # JSON Schema: true is no number, 1.0 is an integer
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
}
_NOTES = {"$schema", "$id", "$comment", "title", "description", "default", "examples", "$defs", "definitions"}


class Unsupported(Exception):
    """The schema uses a keyword this module does not compile."""


def compile_check(schema: dict) -> Check | None:
    """A function telling whether a document is valid, or ``None`` when the
    schema uses a keyword (or a reference) this module does not handle."""
    try:
        return _Compiler(schema).compile(schema)
    except (Unsupported, KeyError, IndexError, TypeError, AttributeError, re.error):  # a keyword, type or reference we do not know
        return None


def _string_bounds(schema) -> tuple[float, float] | None:
    """``(minLength, maxLength)`` of a schema that is only a string of some length (a card), else ``None``."""
    if not isinstance(schema, dict) or schema.get("type") != "string" or set(schema) - _NOTES - {"type", "minLength", "maxLength"}:
        return None
    return schema.get("minLength", 0), schema.get("maxLength", float("inf"))


def _string_check(schema: dict) -> Check | None:
    """One closure for the commonest sub-schema: a string of some length (a card)."""
    bounds = _string_bounds(schema)
    if bounds is None:
        return None
    lo, hi = bounds
    return lambda v: isinstance(v, str) and lo <= len(v) <= hi


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1, 1 is 1.0; lists and objects element by element."""
    if type(a) is type(b) and type(a) in (str, int):  # the common case: an enum of words
        return a == b
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, dict)) or isinstance(b, (list, dict)):
        return False
    return (type(a) is type(b) and a == b) or (isinstance(a, (int, float)) and isinstance(b, (int, float)) and a == b)


class _Compiler:
    def __init__(self, root: dict):
        self.root = root
        self.refs: dict[str, Check] = {}

    def compile(self, schema) -> Check:
        if schema is True or schema == {}:
            return lambda v: True
        if schema is False:
            return lambda v: False
        if not isinstance(schema, dict):
            raise Unsupported(repr(schema))
        fast = _string_check(schema) or self._strings_check(schema)
        if fast is not None:
            return fast
        checks: list[Check] = []
        for key, arg in schema.items():
            if key in _NOTES:
                continue
            make = getattr(self, "k_" + key.lstrip("$"), None)
            if make is None:
                raise Unsupported(key)
            checks.append(make(arg, schema))
        checks = [c for c in checks if c is not None]
        if len(checks) == 1:
            return checks[0]

        def every(v):
            return all(c(v) for c in checks)
        return every

    def _strings_check(self, schema: dict) -> Check | None:
        """One loop for the next commonest: a list of such strings (a hand, the play)."""
        if schema.get("type") != "array" or set(schema) - _NOTES - {"type", "items", "minItems", "maxItems"}:
            return None
        item = schema.get("items", {})
        if isinstance(item, dict) and set(item) - _NOTES == {"$ref"} and item["$ref"].startswith("#/"):
            item = self._target(item["$ref"])
        bounds = _string_bounds(item)
        if bounds is None:
            return None
        (lo, hi), (shortest, longest) = (schema.get("minItems", 0), schema.get("maxItems", float("inf"))), bounds

        def strings(v):
            if not isinstance(v, list) or not lo <= len(v) <= hi:
                return False
            return all(isinstance(x, str) and shortest <= len(x) <= longest for x in v)
        return strings

    # -- keywords ------------------------------------------------------------
    def k_ref(self, ref, _):
        if not ref.startswith("#/"):
            raise Unsupported(ref)
        if ref in self.refs:
            return lambda v: self.refs[ref](v)  # a recursive reference: looked up when called
        self.refs[ref] = None
        check = self.refs[ref] = self.compile(self._target(ref))
        return check

    def _target(self, ref: str):
        """The sub-schema a local ``#/...`` reference points at."""
        target = self.root
        for part in ref[2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        return target

    def k_type(self, types, _):
        tests = [_TYPES[t] for t in ([types] if isinstance(types, str) else types)]
        return tests[0] if len(tests) == 1 else (lambda v: any(t(v) for t in tests))

    def k_enum(self, options, _):
        return lambda v: any(_equal(v, o) for o in options)

    def k_const(self, value, _):
        return lambda v: _equal(v, value)

    def k_properties(self, props, _):
        checks = tuple((k, self.compile(s)) for k, s in props.items())

        def properties(v):
            if isinstance(v, dict):
                for k, c in checks:
                    if k in v and not c(v[k]):
                        return False
            return True
        return properties

    def k_additionalProperties(self, extra, schema):
        known = set(schema.get("properties", ()))
        if "patternProperties" in schema:
            raise Unsupported("patternProperties")
        if extra is False:
            return lambda v: not isinstance(v, dict) or all(k in known for k in v)
        check = self.compile(extra)
        return lambda v: not isinstance(v, dict) or all(check(x) for k, x in v.items() if k not in known)

    def k_required(self, keys, _):
        return lambda v: not isinstance(v, dict) or all(k in v for k in keys)

    def k_minProperties(self, n, _):
        return lambda v: not isinstance(v, dict) or len(v) >= n

    def k_maxProperties(self, n, _):
        return lambda v: not isinstance(v, dict) or len(v) <= n

    def k_items(self, items, _):
        if isinstance(items, list):
            raise Unsupported("items as a list")
        check = self.compile(items)

        def every_item(v):
            if isinstance(v, list):
                for x in v:
                    if not check(x):
                        return False
            return True
        return every_item

    def k_minItems(self, n, _):
        return lambda v: not isinstance(v, list) or len(v) >= n

    def k_maxItems(self, n, _):
        return lambda v: not isinstance(v, list) or len(v) <= n

    def k_uniqueItems(self, on, _):
        if not on:
            return None
        return lambda v: not isinstance(v, list) or not any(_equal(v[i], v[j]) for i in range(len(v)) for j in range(i))

    def k_minLength(self, n, _):
        return lambda v: not isinstance(v, str) or len(v) >= n

    def k_maxLength(self, n, _):
        return lambda v: not isinstance(v, str) or len(v) <= n

    def k_pattern(self, pattern, _):
        search = re.compile(pattern).search  # jsonschema searches with Python's re too
        return lambda v: not isinstance(v, str) or search(v) is not None

    def k_minimum(self, n, _):
        return lambda v: not _TYPES["number"](v) or v >= n

    def k_maximum(self, n, _):
        return lambda v: not _TYPES["number"](v) or v <= n

    def k_anyOf(self, options, _):
        checks = [self.compile(s) for s in options]
        return lambda v: any(c(v) for c in checks)

    def k_oneOf(self, options, _):
        checks = [self.compile(s) for s in options]
        return lambda v: sum(1 for c in checks if c(v)) == 1
