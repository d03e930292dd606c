"""The generated parts of docs/formats.md, docs/api.md, docs/commands.md and docs/env.md.

A page keeps its prose; what the code already says - the fields of the JSON
Schemas with their descriptions, the commands of the ``skat`` parser, the
docstrings of the plugin API - is written between markers::

    <!-- generated: schema deal -->
    ...
    <!-- end generated -->

``python -m skatcore.cli.docgen`` rewrites those parts in place (run it in a
clone); ``tests/test_docs.py`` fails while a page is out of date.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
import re
import sys
from importlib import resources
from pathlib import Path
from typing import Any

REGION = re.compile(r"(<!-- generated: (?P<key>[^>]*?) -->\n)(?P<body>.*?)(<!-- end generated -->)", re.S)
PAGES = ("formats.md", "api.md", "commands.md", "env.md")


# -- JSON Schemas ---------------------------------------------------------------


def load_schema(name: str) -> dict:
    return json.loads(resources.files("skatcore").joinpath(f"schemas/{name}.schema.json").read_text(encoding="utf-8"))


def schema_table(name: str) -> str:
    """Every property of ``skatcore/schemas/<name>.schema.json`` as a table
    row: its path in the document, what it accepts, its description."""
    schema = load_schema(name)
    rows = ["| field | accepts | meaning |", "|---|---|---|"]
    for path, node, required in _properties(schema, schema):
        what = _accepts(node, schema) + (" (required)" if required else "")
        rows.append(f"| `{path}` | {what} | {_inline(node.get('description', ''))} |")
    return "\n".join(rows) + "\n"


def _properties(node: dict, root: dict, prefix: str = ""):
    required = set(node.get("required", ()))
    for key, child in node.get("properties", {}).items():
        path = f"{prefix}{key}"
        yield path, child, key in required
        target = _deref(child, root)
        if target.get("properties"):
            yield from _properties(target, root, f"{path}.")
        kinds = target.get("type")
        is_list = "array" in (kinds if isinstance(kinds, list) else [kinds])  # (a list or null: ["array", "null"])
        items = _deref(target.get("items") or {}, root) if is_list else {}
        if items.get("properties"):  # a list of mappings (a session's deals): deals[].void
            yield from _properties(items, root, f"{path}[].")


def _deref(node: dict, root: dict) -> dict:
    ref = node.get("$ref")
    if not ref:
        return node
    target = root
    for part in ref.removeprefix("#/").split("/"):
        target = target[part]
    return target


def _accepts(node: dict, root: dict) -> str:
    node = _deref(node, root)
    if "const" in node:
        return f"`{node['const']}`"
    if "enum" in node:
        return " or ".join(f"`{json.dumps(v)}`" if v is None or isinstance(v, bool) else f"`{v}`" for v in node["enum"])
    if "anyOf" in node:
        return " or ".join(_accepts(n, root) for n in node["anyOf"])
    kind = node.get("type", "any")
    kinds = kind if isinstance(kind, list) else [kind]
    text = " or ".join(kinds)
    if "array" in kinds and "items" in node:
        items = _deref(node["items"], root)
        size = node.get("minItems"), node.get("maxItems")
        count = "" if None in size else f"{size[0]} " if size[0] == size[1] else f"{size[0]}-{size[1]} "
        what = "cards" if items.get("description", "").startswith("a card") else _accepts(items, root)
        text = " or ".join(f"list of {count}{what}" if k == "array" else k for k in kinds)
    if "minimum" in node or "maximum" in node:
        text += f" {node.get('minimum', '')}..{node.get('maximum', '')}"
    return text


def _inline(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


# -- the command line --------------------------------------------------------------


def commands_table() -> str:
    """Every ``skat`` command with its arguments and help, from the parser;
    each command links to its section of docs/commands.md (``## `skat NAME```),
    so a command without a section fails the site's ``--strict`` build."""
    from skatcore.cli.main import build_parser

    rows = ["| command | arguments | what it does |", "|---|---|---|"]
    for name, parser, help_text in _subcommands(build_parser()):
        rows.append(f"| [`skat {name}`](#{_anchor(name)}) | {_arguments(parser)} | {_inline(help_text or '')} |")
    rows.append("\nEvery command also takes `--trust`: run the local plugin code that rulesets name "
                "([rulesets.md](rulesets.md#trust)).")
    return "\n".join(rows) + "\n"


def options_table(command: str) -> str:
    """The arguments of ``skat COMMAND`` with their help, one row each
    (``--help`` and ``--trust``, which every command takes, left out).
    ``skat sheet`` parses its own words: its forms are listed one by one."""
    from skatcore.cli import sheet
    from skatcore.cli.main import build_parser

    if command == "sheet":
        forms = [("skat sheet FILE", sheet.file_parser())]
        forms += [(f"skat sheet {action} NAME", sheet.action_parser(action)) for action in sheet.ACTIONS]
        return "\n".join(f"**`{title}`**\n\n{_option_rows(parser)}" for title, parser in forms)
    found = {name: parser for name, parser, _ in _subcommands(build_parser())}
    if command not in found:
        raise ValueError(f"no command 'skat {command}'")
    return _option_rows(found[command])


def _option_rows(parser) -> str:
    rows = ["| argument | what it does |", "|---|---|"]
    for action in parser._actions:
        if action.dest in ("help", "trust"):
            continue
        if action.option_strings:
            takes = "" if action.nargs == 0 else f" {action.metavar or action.dest.upper()}"
            what = ", ".join(f"`{o}{takes}`" for o in action.option_strings)
        else:
            what = f"`{action.metavar or action.dest}`" + (" ..." if action.nargs in ("+", "*") else "")
        rows.append(f"| {what} | {_inline(action.help or '')} |")
    return "\n".join(rows) + "\n" if len(rows) > 2 else "No arguments but `--trust`.\n"


def _arguments(parser) -> str:
    usage = " ".join(parser.format_usage().removeprefix("usage: ").split())
    args = " ".join(usage.removeprefix(parser.prog).replace("[-h]", "").replace("[--trust]", "").split())
    return f"`{args}`" if args else ""


def _anchor(name: str) -> str:
    """The anchor mkdocs gives the heading ``## `skat NAME```."""
    return "skat-" + name.replace(" ", "-")


def _subcommands(parser, prefix: str = ""):
    import argparse

    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        helps = {a.dest: a.help for a in action._choices_actions}
        for name, sub in action.choices.items():
            if any(isinstance(a, argparse._SubParsersAction) for a in sub._actions):
                yield from _subcommands(sub, f"{prefix}{name} ")
            else:
                yield f"{prefix}{name}", sub, helps.get(name)


# -- the Python API ------------------------------------------------------------


def api_reference() -> str:
    """The classes a plugin author touches, from their docstrings."""
    from skatcore import model
    from skatcore.bots import registry
    from skatcore.engine import deal
    from skatcore.rules import compiler

    parts = ["## Hook data types (`skatcore.model`)\n",
             "What hooks return to the core and what the core hands to them.\n"]
    for cls in [*_dataclasses_of(model.game), *_dataclasses_of(model.table), *_dataclasses_of(model.sheet)]:
        parts.append(_class_doc(cls, "skatcore.model"))
    parts.append("## The compiled ruleset\n")
    parts.append(_class_doc(compiler.CompiledRules, "skatcore.rules", fields=False))
    parts.append("## A deal and what a seat sees (`skatcore.engine.deal`)\n")
    parts.append(_class_doc(deal.Deal, "skatcore"))
    parts.append(_class_doc(deal.SeatView, "skatcore.engine.deal"))
    parts.append("Actions (`view.legal` holds some of these; `str(action)` is how the table says it):\n")
    for cls in (deal.Bid, deal.Hold, deal.Pass, deal.PickUp, deal.PlayHand, deal.Discard, deal.Declare, deal.Play,
                deal.Concede, deal.Call):
        fields = ", ".join(f.name for f in dataclasses.fields(cls))
        parts.append(f"- `{cls.__name__}({fields})`" + (f": {_first_line(cls)}" if _own_doc(cls) else ""))
    parts.append("")
    parts.append("## Players (`skatcore.bots`)\n")
    parts.append(_class_doc(registry.Player, "skatcore.bots"))
    parts.append(_rest(inspect.getdoc(registry) or "") + "\n")
    return "\n".join(parts)


def _dataclasses_of(module):
    found = [obj for obj in vars(module).values()
             if inspect.isclass(obj) and dataclasses.is_dataclass(obj) and obj.__module__ == module.__name__]
    return sorted(found, key=lambda c: inspect.getsourcelines(c)[1])


def _class_doc(cls, where: str, fields: bool = True) -> str:
    doc = _own_doc(cls)
    paragraphs = doc.split("\n\n")
    params: dict[str, Any] = {}
    for p in (p for p in paragraphs if p.startswith(":param ")):
        params.update(re.findall(r"^:param (\w+):\s*(.*?)(?=^:param |\Z)", p, re.S | re.M))
    text = "\n\n".join(p for p in paragraphs if not p.startswith(":param "))
    out = [f"### `{cls.__name__}`\n", f"`from {where} import {cls.__name__}`\n", _rest(text) + "\n"]
    if fields and dataclasses.is_dataclass(cls):
        out += ["| field | type | default | meaning |", "|---|---|---|---|"]
        for f in dataclasses.fields(cls):
            if f.name.startswith("_"):
                continue
            default = "" if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING else (
                f"`{f.default!r}`" if f.default is not dataclasses.MISSING else "(empty)")
            meaning = " ".join(params.get(f.name, "").split())
            out.append(f"| `{f.name}` | `{_inline(_type(f.type))}` | {default} | {_inline(_rest(meaning))} |")
        out.append("")
    members, seen = [], set()
    # the class's own members, then those of the parts it is built from (Deal's Bidding, TrickPlay ...)
    parts = [c for c in cls.__mro__ if c is cls or c.__module__.startswith("skatcore.")]
    for name, member in ((n, m) for c in parts for n, m in vars(c).items()):
        documented = inspect.isfunction(member) or isinstance(member, (property, functools.cached_property))
        if name.startswith("_") or name in seen or not documented:
            continue
        seen.add(name)
        if inspect.isfunction(member):
            sig = str(inspect.signature(member)).replace("(self, ", "(").replace("(self)", "()")
            members.append(f"- `{name}{sig}`: {_rest(_first_paragraph(member))}")
        elif (getter := getattr(member, "fget", None) or getattr(member, "func", None)) and getter.__doc__:
            members.append(f"- `{name}` (property): {_rest(_first_paragraph(getter))}")
    if members:
        out += [*members, ""]
    return "\n".join(out)


def _own_doc(obj) -> str:
    """The docstring written for ``obj``, not the signature dataclasses make up."""
    doc = inspect.getdoc(obj) or ""
    return "" if doc.startswith(f"{obj.__name__}(") else doc


def _type(t) -> str:
    return re.sub(r"\b(?:collections\.abc|typing|skatcore\.\w+)\.", "", t if isinstance(t, str) else getattr(t, "__name__", str(t)))


def _first_line(obj) -> str:
    return _rest(_own_doc(obj).split("\n\n")[0].replace("\n", " "))


def _first_paragraph(obj) -> str:
    return " ".join((inspect.getdoc(obj) or "").split("\n\n")[0].split())


def _rest(text: str) -> str:
    """reStructuredText markup as Markdown: ``x`` -> `x`, :func:`~a.b` -> `b`."""
    text = re.sub(r":(?:func|class|meth|mod|attr|data):`~?([^`]*?)`", lambda m: f"`{m.group(1).split('.')[-1] if '~' in m.group(0) else m.group(1)}`", text)
    text = text.replace("``", "`")
    return re.sub(r"::\n", ":\n\n", text)


# -- pages ---------------------------------------------------------------------------


def generate(key: str) -> str:
    kind, _, arg = key.partition(" ")
    if kind == "schema":
        return schema_table(arg)
    if kind == "commands":
        return commands_table()
    if kind == "options":
        return options_table(arg)
    if kind == "api":
        return api_reference()
    if kind == "env":  # the environment's action sections and observation blocks under a ruleset (docs/env.md)
        from skatcore.env.encoding import ActionCatalogue, ObservationEncoder, layout_table, sections_table
        from skatcore.rules.compiler import get_rules

        part, _, ruleset = arg.partition(" ")
        catalogue = ActionCatalogue(get_rules(ruleset))
        return sections_table(catalogue) if part == "actions" else layout_table(ObservationEncoder(catalogue.rules, catalogue))
    raise ValueError(f"unknown generated part {key!r}")


def render(text: str) -> str:
    """``text`` with every generated part brought up to date."""
    return REGION.sub(lambda m: m.group(1) + generate(m.group("key")) + m.group(4), text)


def main(argv: list[str] | None = None) -> int:
    docs = Path(argv[0] if argv else "docs")
    for page in PAGES:
        path = docs / page
        old = path.read_text(encoding="utf-8")
        new = render(old)
        if new != old:
            path.write_text(new, encoding="utf-8")
            print(f"{path}: updated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
