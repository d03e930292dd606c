"""Tools for plugin authors: ``skat plugins`` (what is registered, where it
comes from, its parameters and hooks), ``skat plugin new`` (a scaffold of an
installable plugin package, :mod:`skatcore.cli.scaffold`) and ``skat hooks``
(every hook; ``--markdown`` renders ``docs/hooks.md`` from the hookspecs'
docstrings).
"""

from __future__ import annotations

import json
import re

from skatcore.cli.scaffold import cmd_plugin_new
from skatcore.errors import InputError, json_text, printable

# ---------------------------------------------------------------------------
# skat plugins
# ---------------------------------------------------------------------------


class PluginInfo:
    """One registered plugin: its name, origin, parameter schema and hooks.
    (A plain class: a dataclass here would import dataclasses and inspect on
    every ``skat --help``.)"""

    def __init__(self, name: str, origin: str, ref: str, params: dict | None = None, hooks: list[dict] | None = None,
                 error: str | None = None):
        self.name = name
        self.origin = origin          # "built-in", "entry point mod:Attr", "file ./x.py", "module mod:Attr"
        self.ref = ref                # module:attr, or the file
        self.params = params or {}    # the JSON Schema of its parameters
        self.hooks = hooks or []      # {"name", "kind", "wrapper"}
        self.error = error            # why it could not be loaded
        self.rules: list[dict] = []   # {"kind", "name", "words"}: what it adds to official (skatcore.rules.words)
        self.example: dict = {}       # the parameters the rules are shown under, where not its defaults

    def to_json(self) -> dict:
        return {"name": self.name, "origin": self.origin, "ref": self.ref, "params": self.params,
                "hooks": self.hooks, "rules": self.rules, **({"error": self.error} if self.error else {})}


def hook_kind(name: str) -> str:
    """``first result`` or ``collected`` (from the hookspec's marker)."""
    from skatcore import hookspecs
    spec = getattr(getattr(hookspecs, name), hookspecs.PROJECT + "_spec", {})
    return "first result" if spec.get("firstresult") else "collected"


def hooks_of(plugin: object) -> list[dict]:
    """The hooks ``plugin`` (a class, instance or module) implements
    (:meth:`SkatPluginManager.hooks_of`, on a manager of its own)."""
    from skatcore.rules.manager import SkatPluginManager
    pm = SkatPluginManager()
    pm.register(plugin, name="plugin")
    return pm.hooks_of(plugin)


def plugin_info(name: str, factory: object, origin: str, ref: str) -> PluginInfo:
    from skatcore.rules.ruleset import plugin_schema
    from skatcore.rules.words import plugin_rules

    info = PluginInfo(name, origin, ref, params=plugin_schema(factory))
    try:
        info.hooks = hooks_of(factory)
    except Exception as exc:  # a broken plugin is listed with the reason, not a crash
        info.error = f"{type(exc).__name__}: {exc}"
        return info
    info.example = dict(getattr(factory, "example_params", {}))
    info.rules = [{"kind": k, "name": n, "words": w} for k, n, w in plugin_rules(name, factory, example=True)]
    return info


def registered_plugins(ruleset: str | None = None) -> list[PluginInfo]:
    """Every plugin skatcore can find: built-in, installed through entry
    points (group ``skat``), and, with ``ruleset``, the ruleset's own
    (``module:attr``, local files)."""
    from skatcore.rules.manager import builtin_plugins, entry_point_plugins, import_attr
    from skatcore.rules.ruleset import load_ruleset

    found: dict[str, PluginInfo] = {}
    for name, ref in builtin_plugins().items():
        try:
            found[name] = plugin_info(name, import_attr(ref), "built-in", ref)
        except InputError as exc:
            found[name] = PluginInfo(name, "built-in", ref, error=str(exc))
    for name, ep in sorted(entry_point_plugins().items()):
        if name in found:  # a built-in name wins (manager.resolve_plugin_ref)
            continue
        origin = f"entry point {ep.value}"
        try:
            factory = ep.load()
        except Exception as exc:
            found[name] = PluginInfo(name, origin, ep.value, error=f"failed to load: {type(exc).__name__}: {exc}")
            continue
        found[name] = plugin_info(name, factory, origin, ep.value)
    if ruleset is not None:
        for spec in load_ruleset(ruleset).plugins:
            if spec.key not in found:
                found[spec.key] = plugin_info(spec.key, spec.factory, spec.origin, spec.key)
    return list(found.values())


def _describe_param(schema: dict) -> str:
    from skatcore.rules.ruleset import describe_schema

    text = describe_schema(schema) if ("type" in schema or "enum" in schema or "const" in schema) else "a value"
    if "anyOf" in schema:
        text = " or ".join(describe_schema(s) for s in schema["anyOf"])
    if "default" in schema:
        text += f", default {json.dumps(schema['default'])}"
    return text


def format_plugin(info: PluginInfo) -> str:
    lines = [f"{info.name}  [{info.origin}]"]
    if info.error:
        lines.append(f"  error: {info.error}")
    else:
        props = info.params.get("properties", {})
        lines.append("  parameters:" if props else "  parameters: none")
        for key, schema in props.items():
            desc = f" - {schema['description']}" if isinstance(schema, dict) and schema.get("description") else ""
            lines.append(f"    {key}: {_describe_param(schema) if isinstance(schema, dict) else 'a value'}{desc}")
        hooks = ", ".join(h["name"] + (" (wrapper)" if h["wrapper"] else "") for h in info.hooks)
        lines.append(f"  hooks: {hooks or 'none'}")
        if info.rules:
            under = f" (with {', '.join(f'{k}: {v}' for k, v in info.example.items())})" if info.example else ""
            lines.append(f"  rules it adds or changes{under}:")
            lines += [f"    {r['kind']} {r['name']}: {r['words']}" for r in info.rules]
    return "\n".join(printable(line) for line in lines)  # names, file names and descriptions come from files


def cmd_plugins(args) -> int:
    infos = registered_plugins(getattr(args, "ruleset", None))
    if getattr(args, "name", None):
        infos = [i for i in infos if i.name == args.name]
        if not infos:
            known = ", ".join(i.name for i in registered_plugins(getattr(args, "ruleset", None)))
            raise InputError(f"unknown plugin {args.name!r} (expected one of: {known})")
    if getattr(args, "json", False):
        print(json_text([i.to_json() for i in infos], indent=2))
    else:
        from skatcore.cli.wrap import emit

        emit("\n\n".join(format_plugin(i) for i in infos).split("\n"))
    return 0


# ---------------------------------------------------------------------------
# skat hooks (and docs/hooks.md)
# ---------------------------------------------------------------------------


def hookspec_functions() -> list[tuple[str, object, str]]:
    """``(banner, function, kind)`` of every hookspec, in source order."""
    import inspect  # here, not at the top: skat --help needs neither

    from skatcore import hookspecs
    source = inspect.getsource(hookspecs)
    banners: list[tuple[int, str]] = []
    for m in re.finditer(r"^# -{10,}\n# (.+)\n# -{10,}$", source, re.M):
        banners.append((m.start(), m.group(1).strip()))
    out = []
    for name, fn in inspect.getmembers(hookspecs, inspect.isfunction):
        if not hasattr(fn, hookspecs.PROJECT + "_spec"):
            continue
        pos = source.find(f"\ndef {name}(")
        banner = ""
        for start, title in banners:
            if start < pos:
                banner = title
        out.append((pos, banner, fn, hook_kind(name)))
    return [(b, fn, k) for _, b, fn, k in sorted(out, key=lambda t: t[0])]


def _signature(fn) -> str:
    import inspect
    sig = inspect.signature(fn)
    params = ", ".join(f"{p.name}: {p.annotation}" if p.annotation is not inspect.Parameter.empty else p.name
                       for p in sig.parameters.values())
    ret = f" -> {sig.return_annotation}" if sig.return_annotation is not inspect.Signature.empty else ""
    return f"{fn.__name__}({params}){ret}"


def _rst_to_md(text: str) -> str:
    """The docstrings' reST bits in Markdown: roles, literals, example blocks."""
    import textwrap

    text = re.sub(r":(?:func|class|meth|data|mod):`~?([\w.]+)`", lambda m: f"`{m.group(1).split('.')[-1]}`", text)
    text = re.sub(r"``([^`]+)``", r"`\1`", text)
    out: list[str] = []
    lines = text.splitlines()
    i, in_field = 0, False
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(\s*)(.*)::\s*$", line)
        if m and line.strip() != "::" and i + 1 < len(lines) and not lines[i + 1].strip():
            out.append(f"{m.group(1)}{m.group(2)}:" if m.group(2) else "")
            block, i = [], i + 1
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith("    ")):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            out += ["", "```python", *textwrap.dedent("\n".join(block)).strip("\n").splitlines(), "```", ""]
            continue
        pm = re.match(r"^:param (\w+):\s*(.*)$", line)
        if pm:
            line = f"- **`{pm.group(1)}`**: {pm.group(2)}"
        elif line.startswith(":returns:"):
            line = "- **returns**: " + line[len(":returns:"):].strip()
        elif line.startswith(":raises"):
            line = "- **raises**: " + line.split(":", 2)[2].strip()
        elif line.startswith("    ") and in_field:
            line = "  " + line.strip()  # continuation of a :param: line
        in_field = line.startswith(("- **", "  ")) and bool(line.strip())
        out.append(line)
        i += 1
    return "\n".join(out).strip() + "\n"


HOOKS_INTRO = '''# Hooks

<!-- Generated from the docstrings of skatcore/hookspecs.py by `skat hooks --markdown > docs/hooks.md`;
     tests/cli/test_authoring.py fails when this file is out of date or a hook is missing. Edit the docstrings. -->

Every rules question skatcore asks is a [pluggy](https://pluggy.readthedocs.io)
hook named `skat_*`, specified in `skatcore/hookspecs.py`. A plugin answers a
hook with a method of the same name marked `@hookimpl` (from
`skatcore.hookspecs`), taking any subset of the hook's arguments. A hookimpl
that takes an argument the hook does not have, or a method marked `@hookimpl`
whose name is no hook, is rejected when the ruleset is loaded, with the
plugin's name.

## When hooks are called

Almost every hook is called **once, when a ruleset is compiled**
(`skatcore.rules.compiler.compile_rules`), for every combination it needs (every
contract, hand or not, every set of announcements ...). The answers are frozen
into `CompiledRules` tables; the deal engine never calls a hook. The hooks
under "Per deal" run once per finished deal, when it is scored;
`skat_trick_winner` ("Per trick") runs once per finished trick, only in a
ruleset where a plugin answers it.

## What a function may read, and the paths a deal takes

A deal is played on one of three paths, and every path gives the same
per-deal rows: card by card through `Deal` (the exact path: every
`skat score`, `skat sheet`, `skat play`, small runs); in the compiled engines
(`skat simulate`/`compare` with heuristic players in chunks of 200 deals or
more, `skat bench`, the compiled replay of big ISS archives), which look the
score up in tables; or in compiled play, scored on the deal's own facts.

Hooks answered at compile time read only their arguments: every path reads
the same frozen answer. The functions a hook hands back - a
`MultiplierItem`'s `count` and `label`, a `WinCondition`'s `check`, a
`CardPointRule`'s `trick` and `end`, and the per-deal hooks
`skat_sheet_entries` and `skat_ramsch_scores` - run on each scored deal and
may read **any field of the facts** (`GameFacts`: the last trick, every
trick, the exact card points ...). The compiled engines ask
them once per *key* - the declaration, the matadors, which side of the win
and schneider lines the declarer's card points fall, schwarz, and for sheet
entries also the bid and the declarer - on facts that record every field
your code reads (`skatcore.engine.probe`). Where your function read only
those, its answer is tabulated; where it read anything else, or raised,
those deals are replayed through `Deal` and scored on their own facts. That
costs time, never correctness; `skat simulate`/`compare` say which path each
ruleset took and why (`paths` in `--json`). What the probe cannot see is a
function that answers differently for the same facts: answer from the facts
alone - no clock, no random numbers, no state kept between calls.

A deal record that gives only an outcome (no `play`) has no tricks, and a
real game that ended before its last trick (an ISS game ended by a claim, a
concession or a player who left or timed out; a record stopped once the
game was decided) lacks the tricks after it: a ruleset whose scoring of that
game reads them refuses it with one line naming what the game lacks, the
field and your plugin's line, instead of guessing (`skat compare --games`
counts such games apart, per ruleset, by how they ended;
`skatcore.records.holds`).

## Kinds

- **collected**: every plugin may contribute; the core merges the lists. A
  name (contract, declaration, multiplier item ...) given by two plugins is
  an error naming both.
- **first result**: one answer is used. pluggy asks the plugins in reverse
  order of registration - the last plugin of the ruleset first - and stops at
  the first answer that is not `None`. Return `None` to let another plugin
  answer.
- **wrapper**: any hook may also be wrapped, `@hookimpl(wrapper=True)`, by a
  plugin that adjusts the answer the others give:

```python
@hookimpl(wrapper=True)
def skat_multiplier_items(self):
    chunks = yield                 # what the other plugins answered: one list per plugin
    return [*chunks, [MultiplierItem("rum", lambda f: 1, "rum")]]
```

  A wrapper of a first-result hook gets the one answer (or `None`); a
  wrapper of a collected hook gets the list of every plugin's list, and
  returns the same shape.

## Conflicts

A first-result question has one answer, and the order of the plugins says
which plugin wins. That order is how a house rule overrides the official
rules, so skatcore keeps it - and errs only where two answers cannot both be
meant. When a ruleset is compiled, every first-result question asked is also
put to each plugin on its own:

- A plugin whose class sets **`base = True`** gives *default* answers:
  `official` and the core's own defaults. Any other plugin overrides them
  silently - that is what a house rule is for.
- A plugin listed in a ruleset that **`extends`** another overrides the
  plugins listed first in that other ruleset (or in its parents): a child
  ruleset refines its parent. Extra plugins given to the testing kit's
  `skat_rules(..., plugins=...)` form such a layer of their own.
- Two other plugins of the same layer - listed first in the same ruleset
  file - that give **different** answers to the same question (same hook,
  same arguments) are a **conflict**: compiling fails with one line naming
  both plugins, the hook, the question and the two answers:

```
house.yaml: plugins 'grand20' and 'grand16' both answer skat_base_value(contract=grand, hand=false, announced={}): 20 and 16 (a rule with one answer: drop one of them, or list the one that should win in a ruleset that extends this one)
```

  Equal answers are no conflict; answers that are functions are equal only
  when they are the same function. Wrappers are never in conflict: they are
  meant to adjust the others.
- Collected hooks cannot conflict by order: a name registered twice is an
  error naming both plugins (`contract 'grand' is defined twice, by plugins
  'official' and 'house'`).
- The per-deal hooks are not checked (they run after the ruleset was
  accepted); their order is the plugins' order.

## Errors inside plugins

A plugin that raises inside a hook is reported as one line naming the
plugin, the hook and the ruleset file - `rulesets/house.yaml: plugin 'house'
failed in skat_thresholds: ValueError: ...` - at compile time and for the
per-deal hooks alike; the `skat` command exits with status 2, not a
traceback. So does a function a hook handed back: `plugin 'house':
win condition 'last_trick' (skat_win_conditions) failed: ZeroDivisionError:
...`.

'''


def hooks_markdown() -> str:
    """The text of ``docs/hooks.md``, rendered from the hookspecs."""
    import inspect

    from skatcore.rules.words import names_markdown

    parts = [HOOKS_INTRO]
    current = None
    for banner, fn, kind in hookspec_functions():
        if banner != current:
            parts.append(f"## {banner}\n\n")
            current = banner
        doc = _rst_to_md(inspect.cleandoc(fn.__doc__ or "(undocumented)"))
        if "(collected)" in banner or "(first result wins)" in banner:
            when = " *Called:* at compile time."
        elif banner.lower().startswith("per deal"):
            when = " *Called:* once per finished deal."
        elif banner.lower().startswith("per trick"):
            when = " *Called:* once per finished trick, by `Deal`."
        else:
            when = ""  # the section's title says when
        if "*On each path:*" not in doc and when == " *Called:* at compile time.":
            when += (" *Reads:* its arguments. *On each path:* answered once per compiled ruleset; `Deal` and the "
                     "compiled engines read the same frozen answer.")
        parts.append(f"### `{fn.__name__}`\n\n"
                     f"```python\n{_signature(fn)}\n```\n\n"
                     f"*Kind:* {kind}.{when}\n\n{doc}\n")
    parts.append(names_markdown())
    return "".join(parts).rstrip("\n") + "\n"


def cmd_hooks(args) -> int:
    import inspect
    import textwrap
    if getattr(args, "markdown", False):
        print(hooks_markdown(), end="")
        return 0
    for _banner, fn, kind in hookspec_functions():
        summary = inspect.cleandoc(fn.__doc__ or "").split("\n\n")[0].replace("\n", " ")
        summary = re.sub(r":\w+:`~?([\w.]+)`", lambda m: m.group(1).split(".")[-1], summary).replace("``", "")
        print(f"{fn.__name__:28} {kind:13} {textwrap.shorten(summary, 100, placeholder=' ...')}")
    return 0


def _plugin_no_action(args) -> int:
    raise InputError("skat plugin: expected an action: new (see skat plugin --help)")


def register(sub) -> None:
    """Add the authoring commands to the ``skat`` command line."""
    s = sub.add_parser("plugins", help="list plugins: built-in, installed (entry points), a ruleset's own; parameters, hooks")
    s.add_argument("name", nargs="?", help="show only this plugin")
    s.add_argument("--ruleset", help="also the plugins of this ruleset (local files, module:attr)")
    s.add_argument("--json", action="store_true", help="JSON output")
    s.set_defaults(func=cmd_plugins)

    s = sub.add_parser("plugin", help="plugin authoring: `skat plugin new NAME [--dir D]`")
    s.set_defaults(func=_plugin_no_action)
    psub = s.add_subparsers(parser_class=sub._parser_class, metavar="ACTION")
    n = psub.add_parser("new", help="scaffold an installable plugin package (pyproject, hook module, ruleset, vectors, test)")
    n.add_argument("name", help="plugin name, e.g. grand20 or house-rules")
    n.add_argument("--dir", help="target folder (default: ./skat-NAME)")
    n.add_argument("--kind", choices=("value", "card-points", "win-condition"), default="value",
                   help="the rule it starts with: a value (grand 20, skat_base_value), card points (the black jacks, "
                        "skat_card_points) or a win condition (the last trick, skat_win_conditions)")
    n.set_defaults(func=cmd_plugin_new)

    s = sub.add_parser("hooks", help="list every hook (--markdown: docs/hooks.md)")
    s.add_argument("--markdown", action="store_true", help="the full reference in Markdown (docs/hooks.md)")
    s.set_defaults(func=cmd_hooks)
