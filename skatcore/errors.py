"""The one error type for bad input: it renders as one line, and the CLI exits 2."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable


class InputError(Exception):
    """Invalid input: a ruleset, deal record, card, bid or move.

    ``source`` is the file (or other origin) and ``path`` the place inside it
    (``game.discard[1]``); both are optional and added by outer layers through
    :meth:`at`, so low-level code only says what was expected.  ``stored``:
    the error is about what a file or sheet already holds, not about what the
    user just typed (a front end then never words it as one of its fields).
    """

    stored: bool = False

    def __init__(self, message: str, *, source: str | None = None, path: str | None = None):
        super().__init__(message)
        self.message = message
        self.source = source
        self.path = path

    def at(self, path: str | None = None, source: str | None = None) -> InputError:
        """Prefix a path (outer layers know the outer part) and set the source if unset."""
        if path:
            self.path = join_path(path, self.path) if self.path else path
        if source and not self.source:
            self.source = source
        return self

    def __str__(self) -> str:
        parts = [p for p in (self.source and shorten(self.source, 160), self.path and shorten(self.path, 160)) if p]
        return printable(": ".join([*parts, shorten(self.message, 280)]))


# What must not reach a terminal raw: C0 and C1 control characters and DEL (cursor moves, and the
# breaks \x0b \x0c \x1c-\x1e \x85 of str.splitlines), the bidirectional marks, embeddings, overrides
# and isolates that reorder a line, the line and paragraph separators U+2028/U+2029 (line breaks to
# Python and to some terminals), and lone surrogates (a file name that is not UTF-8: unprintable)
_BEYOND_C0 = "\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_CONTROL = re.compile(f"[\x00-\x1f{_BEYOND_C0}]")
_RAW_IN_DOCUMENT = re.compile(f"[{_BEYOND_C0}]")  # JSON and YAML escape C0 themselves; their "\n" is layout


def printable(text: str) -> str:
    """``text`` with control characters escaped (``\\x1b``, ``\\u202e``), so a name
    or value read from a file can neither move the cursor, reorder the line nor
    forge a line of output.  Every string from a file, a name or an argument
    goes through it on its way to the terminal; JSON and YAML output through
    :func:`json_text` and :func:`yaml_text`."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


_json = json.JSONEncoder(ensure_ascii=False).encode  # one encoder, not a new one per line (skat score streams)


def json_text(value: object, indent: int | None = None) -> str:
    """``value`` as JSON for output: UTF-8 as it is, but the characters of
    :func:`printable` escaped as ``\\u202e`` (JSON escapes only C0 itself).
    They can only stand inside JSON strings, so the text stays valid JSON and
    reads back the same."""
    text = _json(value) if indent is None else json.dumps(value, ensure_ascii=False, indent=indent)
    return _RAW_IN_DOCUMENT.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def yaml_text(value: object) -> str:
    """``value`` as block YAML for output, escaped like :func:`json_text`: a
    string holding a control character is written double-quoted (``"\\n"``,
    not a line of its own), and non-ASCII escaped too when PyYAML would
    write bidi controls raw (it counts them as printable)."""
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    Dumper.add_representer(str, lambda d, s: d.represent_scalar(
        "tag:yaml.org,2002:str", s, style='"' if _CONTROL.search(s) else None))
    text = yaml.dump(value, Dumper=Dumper, sort_keys=False, allow_unicode=True, default_flow_style=None)
    if _RAW_IN_DOCUMENT.search(text):
        text = yaml.dump(value, Dumper=Dumper, sort_keys=False, allow_unicode=False, default_flow_style=None)
    return text


def shorten(text: str, limit: int = 80) -> str:
    """A value echoed in a message, cut to about ``limit`` characters."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


class PluginWarning(UserWarning):
    """A plugin that loads but most likely does not do what its author meant
    (``skat`` prints it as one line ``skat: warning: ...``)."""


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``"did you mean 'official'? "`` for a name close to one of ``known``, else ``""``."""
    import difflib

    near = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f"did you mean {near[0]!r}? " if near else ""


def shown(value: object) -> str:
    """A value from the input as Python shows it (``'x'``), cut short."""
    return shorten(repr(value))


def join_path(outer: str, inner: str) -> str:
    return outer + inner if inner.startswith("[") else f"{outer}.{inner}"


_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def json_path(parts: Iterable[object]) -> str:
    """Render a jsonschema ``absolute_path`` as ``game.discard[1]``.

    A key that is not a plain name (a plugin reference such as
    ``./house.py:HouseRule``) is quoted, ``plugins["./house.py:HouseRule"]``,
    so its dots are not mistaken for path separators.
    """
    out = ""
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif isinstance(p, str) and _PLAIN_KEY.fullmatch(p):
            out += f".{p}" if out else p
        else:  # a key with dots or a colon (./house.py:X) is quoted, or it would read as a path
            out += f"[{json.dumps(p, ensure_ascii=False)}]"
    return out


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value: object) -> object:
    """A CSV cell a spreadsheet opens as data, never runs (OWASP's CSV
    injection rule): a string starting with ``=``, ``+``, ``-``, ``@``, tab or
    CR gets a leading ``'`` (then it is text), and control and bidi
    characters are escaped as on the terminal (:func:`printable`).  Numbers
    stay numbers (``-12`` is a score, not a formula)."""
    if not isinstance(value, str):
        return value
    return "'" + printable(value) if value.startswith(_FORMULA_START) else printable(value)
