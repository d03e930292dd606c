"""Rulesets: YAML files that select plugins and their parameters.

Loading resolves ``extends:``, validates the structure against the shipped
JSON Schema, resolves every plugin (built-in name, entry point of group
``skat``, ``module:attr`` or a file path) and validates its parameters against
the plugin's own schema.  Every error is an :class:`InputError` naming the
file and the path inside it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import metadata, resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skatcore.errors import InputError, did_you_mean, join_path, json_path, shorten
from skatcore.rules.manager import PluginSpec, resolve_plugin_ref
from skatcore.rules.reading import read_document, read_json, read_yaml  # noqa: F401 (callers import them from here too)
from skatcore.rules.trust import inside

if TYPE_CHECKING:
    import jsonschema

RULESET_ENTRY_POINT_GROUP = "skat.rulesets"  # name -> module:attr holding the path of an installed ruleset file
RULESET_PACKAGE = "skatcore_rulesets"
NO_PARAMS: dict = {"type": "object", "additionalProperties": False, "properties": {}}
# a number in a plugin's parameters (a value, a factor, a count, a target): far beyond any rule's (the largest
# shipped is 501), and small enough that values times factors times multipliers stay exact in the compiled
# engine's 64-bit integers (grand_base: 99999999999999999999999 validated, then crashed skat simulate)
MAX_PARAM = 1_000_000
MAX_EXTENDS = 20  # rulesets in one extends chain (shipped chains are 2 long); a chain of 1,000 files overflowed the stack


@dataclass(frozen=True)
class Ruleset:
    name: str
    description: str
    source: str
    plugins: tuple[PluginSpec, ...]
    files: tuple[str, ...] = ()  # the files read: this one and those it extends


def file_stamp(files: tuple[str, ...]) -> tuple[tuple[int, int, int], ...] | None:
    """What changes when one of ``files`` is written, replaced or removed (``None`` then)."""
    try:
        return tuple((s.st_mtime_ns, s.st_size, s.st_ino) for s in (os.stat(f) for f in files))
    except OSError:
        return None


# ---------------------------------------------------------------------------
# Schemas and YAML
# ---------------------------------------------------------------------------


@cache
def load_schema(name: str) -> dict:
    return json.loads(resources.files("skatcore").joinpath("schemas", name).read_text("utf-8"))


_CHECKS: dict[int, tuple[dict, Callable[[Any], bool]]] = {}  # id(schema) -> (schema, its check); the schema kept alive


def _check_of(schema: dict) -> Callable[[Any], bool]:
    """The yes/no check of ``schema`` (built once per schema object):
    jsonschema-rs's compiled validator, else jsonschema's for a schema
    jsonschema-rs refuses.  Never a download: a remote ``$ref`` fails."""
    got = _CHECKS.get(id(schema))
    if got is None:
        import jsonschema_rs  # ~5 µs a deal record, where jsonschema takes ~14 ms (README, "Libraries")

        check: Callable[[Any], bool]
        try:
            is_valid = jsonschema_rs.validator_for(schema, validate_formats=False, offline=True).is_valid
        except ValueError:
            check = _jsonschema_validator(schema).is_valid
        else:
            def check(doc: Any) -> bool:
                try:
                    return is_valid(doc)
                except ValueError:  # no JSON (a YAML mapping with integer keys ...): jsonschema decides
                    return _jsonschema_validator(schema).is_valid(doc)
        if len(_CHECKS) > 512:  # schemas built per call would otherwise pile up
            _CHECKS.clear()
        got = _CHECKS[id(schema)] = (schema, check)
    return got[1]


def _jsonschema_validator(schema: dict) -> jsonschema.Draft202012Validator:
    import jsonschema  # only when a document is invalid, or jsonschema-rs refuses its schema

    return jsonschema.Draft202012Validator(schema)


def validate(instance: Any, schema: dict, source: str, prefix: str = "") -> None:
    """Validate against a JSON Schema; raise the best error as one line.

    The happy path is jsonschema-rs's yes/no check; jsonschema finds what
    is wrong and :func:`_schema_message` says it in the reader's words."""
    if _check_of(schema)(instance):
        return
    import jsonschema

    error = jsonschema.exceptions.best_match(_jsonschema_validator(schema).iter_errors(instance))
    if error is not None:
        message, key = _schema_message(error)
        # an unknown key is reported at its own path (plugins.official.grand_bse), not its parent's
        path = json_path([*error.absolute_path, *([key] if key is not None else [])])
        full = join_path(prefix, path) if prefix and path else prefix or path
        raise InputError(message, source=source, path=full or None)


def _schema_message(error) -> tuple[str, Any]:
    """What was expected, in words, and the offending key of an
    ``additionalProperties`` error (else ``None``).  jsonschema's own
    messages ("3 is not valid under any of the given schemas") do not say
    what was expected.
    """
    kind, schema, got = error.validator, error.schema, _show(error.instance)
    if not error.absolute_path and kind == "type":  # the whole file: its kind only (it may be someone else's file)
        got = _TYPE_WORDS.get(_json_type(error.instance), type(error.instance).__name__)
    if kind == "additionalProperties":
        allowed = sorted(schema.get("properties", {}))
        extra = [k for k in error.instance if k not in schema.get("properties", {})]
        key = extra[0] if extra else None
        hint = f"expected one of: {', '.join(allowed)}" if allowed else "takes no parameters"
        note = " (YAML reads a bare null as None: quote it)" if key is None and extra else ""
        return f"unknown key {key!r} ({hint}){note}", key
    if kind in ("anyOf", "oneOf"):
        options = [describe_schema(s) for s in error.validator_value]
        expected = ", ".join(options[:-1]) + " or " + options[-1] if len(options) > 1 else options[0]
        return f"expected {expected}, got {got}", None
    if kind in ("type", "const", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return f"expected {describe_schema(schema)}, got {got}", None
    if kind in ("minItems", "maxItems"):
        lo, hi = schema.get("minItems"), schema.get("maxItems")
        n = len(error.instance)
        want = f"exactly {lo}" if lo == hi else f"at least {lo}" if kind == "minItems" else f"at most {hi}"
        return f"expected {want} items, got {n}", None
    if kind == "required":
        missing = [k for k in error.validator_value if k not in error.instance]
        return f"missing key {missing[0]!r} (required)", None
    if kind in ("minLength", "maxLength", "pattern") and schema.get("description"):
        return f"expected {schema['description']}, got {got}", None
    if kind == "pattern":
        return f"expected text matching {error.validator_value}, got {got}", None
    return error.message, None


_TYPE_WORDS = {"integer": "an integer", "number": "a number", "string": "a string", "boolean": "true or false",
               "object": "a mapping", "array": "a list", "null": "null"}


def _json_type(value: Any) -> str:
    for name, kinds in (("boolean", bool), ("integer", int), ("number", float), ("string", str), ("object", dict),
                        ("array", list)):
        if isinstance(value, kinds):
            return name
    return "null" if value is None else type(value).__name__


def describe_schema(schema: Any) -> str:
    """A subschema in words: ``an integer >= 1``, ``one of: yes, pass``, ``false``."""
    if not isinstance(schema, dict):
        return "anything" if schema is True else "nothing"
    if "const" in schema:
        return _show(schema["const"])
    if "enum" in schema:
        return "one of: " + ", ".join(_show(v, quote=False) for v in schema["enum"])
    types = schema.get("type")
    if types is None:
        return "a valid value"
    types = [types] if isinstance(types, str) else types
    text = " or ".join(_TYPE_WORDS.get(t, t) for t in types)
    bounds = [f">= {schema['minimum']}" if "minimum" in schema else "", f"<= {schema['maximum']}" if "maximum" in schema else ""]
    return " ".join([text, *(b for b in bounds if b)])


def _show(value: Any, quote: bool = True) -> str:
    """A value as the user wrote it (JSON/YAML words: null, true), shortened."""
    if isinstance(value, str) and not quote:
        return value
    return shorten(json.dumps(value, ensure_ascii=False, default=str))


# ---------------------------------------------------------------------------
# Finding rulesets
# ---------------------------------------------------------------------------


def shipped_rulesets() -> dict[str, Path]:
    """Names of the rulesets shipped in the package, with their files."""
    return dict(_shipped())


@lru_cache(maxsize=1)
def _shipped() -> dict[str, Path]:  # the package's files do not change while we run: listed once, not per record
    root = resources.files(RULESET_PACKAGE)
    return {Path(p.name).stem: Path(str(p)) for p in root.iterdir() if p.name.endswith(".yaml")}


def installed_rulesets() -> dict[str, Path]:
    """Rulesets that installed packages offer through the entry point group
    ``skat.rulesets`` (name = ``module:ATTR``, the attribute a path to the
    YAML file); shipped names win, a broken entry point is skipped."""
    found: dict[str, Path] = {}
    for ep in metadata.entry_points(group=RULESET_ENTRY_POINT_GROUP):
        try:
            found.setdefault(ep.name, Path(str(ep.load())))
        except Exception:  # a broken third-party package must not break ruleset lookup
            continue
    return found


def all_rulesets() -> dict[str, Path]:
    """Shipped and installed rulesets by name (shipped names win)."""
    return {**installed_rulesets(), **shipped_rulesets()}


def find_ruleset(ref: str, relative_to: Path | None = None) -> Path:
    """A ruleset by shipped name, installed name (entry point group
    ``skat.rulesets``) or file path.  A path named inside a file (``extends:``,
    a record's ``ruleset:``; ``relative_to`` that file's directory) resolves
    inside that directory's tree; a path from the command line as given."""
    shipped = shipped_rulesets()
    if ref in shipped:
        return shipped[ref]
    if not ref.endswith((".yaml", ".yml")) and "/" not in ref:
        installed = installed_rulesets()
        if ref in installed and installed[ref].is_file():
            return installed[ref]
        shipped = {**installed, **shipped}
    path = Path(ref) if relative_to is None else inside(ref, relative_to)
    if path.is_file():
        return path
    raise InputError(f"unknown ruleset {shorten(ref)!r} ({did_you_mean(ref, shipped)}expected a file or one of: "
                     f"{', '.join(sorted(shipped))})")


def load_ruleset(ref: str | Path) -> Ruleset:
    """Load, merge (``extends``) and validate a ruleset by name or path."""
    path = find_ruleset(str(ref))
    doc = load_doc(path, seen=())
    plugins = tuple(
        resolve_plugin(key, params, source=str(doc["_sources"][key]), layer=doc["_layers"][key])
        for key, params in doc["plugins"].items()
        if params is not False
    )
    return Ruleset(name=doc.get("name", path.stem), description=doc.get("description", ""), source=str(path),
                   plugins=plugins, files=tuple(str(p) for p in doc["_chain"]))


def freeze_ruleset(ref: str | Path) -> dict:
    """The resolved ruleset as plain data (JSON), to keep with a score sheet:
    name, description, every plugin in order with the parameters the chain
    gave it, the file that listed it and its layer, and the SHA-256 of every
    file of the ``extends`` chain (to tell later whether one changed)."""
    path = find_ruleset(str(ref))
    doc = load_doc(path, seen=())
    load_ruleset(path)  # every plugin resolves and validates now, not when the sheet is next read
    files = sorted({str(Path(p).resolve()) for p in (path, *doc["_chain"])})
    return {"name": doc.get("name", path.stem), "description": doc.get("description", ""),
            "source": str(path.resolve()), "files": {f: _digest(Path(f)) for f in files},
            "plugins": [[key, params, str(doc["_sources"][key]), doc["_layers"][key]]
                        for key, params in doc["plugins"].items() if params is not False]}


def thaw_ruleset(frozen: dict) -> Ruleset:
    """The :class:`Ruleset` of :func:`freeze_ruleset`'s data (plugins resolved again)."""
    plugins = tuple(resolve_plugin(key, params, source=src, layer=layer) for key, params, src, layer in frozen["plugins"])
    return Ruleset(name=frozen["name"], description=frozen["description"], source=frozen["source"], plugins=plugins)


def changed_files(frozen: dict) -> list[str]:
    """The files of a frozen ruleset's chain that changed or vanished since."""
    return [f for f, digest in frozen.get("files", {}).items() if _digest(Path(f)) != digest]


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def load_doc(path: Path, seen: tuple[Path, ...]) -> dict:
    source = str(path)
    doc = read_yaml(path)
    validate(doc, load_schema("ruleset.schema.json"), source)
    plugins: dict[str, Any] = {}
    sources: dict[str, Path] = {}
    layers: dict[str, int] = {}
    depth, chain = 0, ()
    if "extends" in doc:
        seen = (*seen, path.resolve())
        try:
            parent_path = find_ruleset(doc["extends"], path.parent)
        except InputError as exc:
            raise exc.at(source=source, path="extends") from None
        # reported at the `extends` that closes the cycle, naming the chain
        if len(seen) >= MAX_EXTENDS:
            raise InputError(f"extends chain longer than {MAX_EXTENDS} rulesets (expected at most {MAX_EXTENDS})",
                             source=source, path="extends")
        if parent_path.resolve() in seen:
            cycle = " -> ".join(p.name for p in (*seen, parent_path.resolve()))
            raise InputError(f"extends cycle {cycle} (expected a chain of rulesets ending in one without extends)",
                             source=source, path="extends")
        parent = load_doc(parent_path, seen)
        plugins, sources, layers = parent["plugins"], parent["_sources"], parent["_layers"]
        depth, chain = parent["_depth"] + 1, parent["_chain"]
    for key, params in (doc.get("plugins") or {}).items():
        if not isinstance(key, str):  # `1:` is an integer to YAML; a plugin is named by text
            raise InputError(f"expected a plugin name, got the number {key} (quote it if it is a name)",
                             source=source, path=f"plugins[{key}]")
        if key not in plugins or plugins[key] is False:
            layers[key] = depth  # listed (again) here first
        if params is False or params is None or key not in plugins or plugins[key] is False:
            plugins[key] = params if params is not None else {}
        else:  # a child overrides single parameters of a parent's plugin
            plugins[key] = {**plugins[key], **params}
        sources[key] = path
    return {**doc, "plugins": plugins, "_sources": sources, "_layers": layers, "_depth": depth,
            "_chain": (*chain, path)}


# ---------------------------------------------------------------------------
# Plugins
# ---------------------------------------------------------------------------


def _check_numbers(value: Any, path: list, source: str) -> None:
    """Every number in a plugin's parameters within :data:`MAX_PARAM` either side of 0, whatever its plugin's
    schema says."""
    if isinstance(value, dict):
        for k, v in value.items():
            _check_numbers(v, [*path, k], source)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check_numbers(v, [*path, i], source)
    elif isinstance(value, (int, float)) and not isinstance(value, bool) and not -MAX_PARAM <= value <= MAX_PARAM:
        raise InputError(f"expected a number from -{MAX_PARAM:,} to {MAX_PARAM:,} (a rule's value, factor or count), "
                         f"got {shorten(str(value))}", source=source, path=json_path(path))


def plugin_schema(factory: Any) -> dict:
    return getattr(factory, "params_schema", None) or NO_PARAMS


def resolve_plugin(key: str, params: Any, source: str, layer: int = 0) -> PluginSpec:
    where = json_path(["plugins", key])
    try:
        factory, origin = resolve_plugin_ref(key, Path(source))
    except InputError as exc:
        raise exc.at(where, source) from None
    schema = plugin_schema(factory)
    validate(params, schema, source, prefix=where)
    _check_numbers(params, ["plugins", key], source)
    # An option nothing reads is an error, even if a plugin's schema forgot
    # additionalProperties: false.
    known = schema.get("properties", {})
    for k in params:
        if k not in known:
            hint = f"expected one of: {', '.join(sorted(known))}" if known else "takes no parameters"
            raise InputError(f"unknown parameter {k!r} ({hint})", source=source, path=json_path(["plugins", key, k]))
    defaults = {k: v["default"] for k, v in known.items() if isinstance(v, dict) and "default" in v}
    return PluginSpec(key=key, origin=origin, factory=factory, params={**defaults, **params}, layer=layer)
