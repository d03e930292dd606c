"""The rules a plugin hands back, in words and by whose: win conditions,
the plugins that decide trick winners, card-point rules and multiplier
items, for ``skat rules``, ``skat plugins``, ``skat compare``'s rules that
differ and the names docs/hooks.md lists (:func:`names_markdown`).

A win condition says itself by its ``description`` (formatted with the
ruleset's ``thresholds``), a card-point rule by its ``description``, a
trick-winner plugin by the docstring of its ``skat_trick_winner`` (else of
its class): every one of them falls back to something plain, never to
nothing.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable

#: the hooks whose answers are named rules, with what to call one
NAMED = (("skat_register_contracts", "contract"), ("skat_multiplier_items", "multiplier item"),
         ("skat_win_conditions", "win condition"), ("skat_card_points", "card-point rule"))


def condition_text(rules, w, thresholds=None) -> str:
    """A win condition in words: ``the declarer needs 61 card points``
    (the lines of ``rules``, or ``thresholds``)."""
    if w.description:
        try:
            return str(w.description.format(thresholds=thresholds or rules.thresholds))
        except (KeyError, IndexError, AttributeError, ValueError):
            return str(w.description)
    return "lost when: " + re.sub(r"\{[^}]*\}", "N", w.reason)


def card_rule_text(rule) -> str:
    """A card-point rule in words (its description, else its label)."""
    return rule.description or f"card points {rule.label}".strip()


def owners(rules, hook: str, name: str) -> list[str]:
    """The plugins of ``rules`` that give the rule ``name`` of collected
    ``hook``: those that answer with it, else the wrappers of the hook
    (a wrapper adds or replaces another plugin's)."""
    got = rules.pm.owners(hook, name)
    if got:
        return got
    return [i.plugin_name for i in getattr(rules.pm.hook, hook).get_hookimpls() if i.wrapper or i.hookwrapper]


def trick_rules(rules) -> list[tuple[str, str]]:
    """``(the rule in words, plugin)`` of each plugin that decides trick winners."""
    out = []
    for impl in rules.pm.hook.skat_trick_winner.get_hookimpls():
        out.append((_first_line(impl.function) or _first_line(type(impl.plugin))
                    or "decides who takes a trick (skat_trick_winner)", impl.plugin_name))
    return out


def _first_line(obj) -> str:
    doc = inspect.getdoc(obj) or ""
    return " ".join(doc.split("\n\n")[0].split()).rstrip(".")


def rule_lines(rules) -> list[str]:
    """What ``skat rules NAME`` says of the rules plugins hand back: each
    win condition, who takes a trick, the card-point rules."""
    out = ["win conditions (all must hold; a lost game names the first that fails):"]
    for w in rules.win_conditions:
        out.append(f"  {w.name:22} {condition_text(rules, w)} - {', '.join(owners(rules, 'skat_win_conditions', w.name))}")
    tricks = trick_rules(rules)
    out.append("trick winners: " + ("the card order" if not tricks else "the card order, except:"))
    out += [f"  {text} - {plugin}" for text, plugin in tricks]
    out.append("card points: " + ("as the cards give them" if not rules.card_points else "as the cards give them, and:"))
    for r in rules.card_points:
        out.append(f"  {card_rule_text(r)} - {', '.join(owners(rules, 'skat_card_points', r.name))} ({r.name})")
    return out


def differences(rules: Iterable) -> list[tuple[str, str, list[str]]]:
    """``(section, item, values)`` for ``rules_diff``: each win condition,
    the trick winners and each card-point rule, by ruleset (``-``: none)."""
    rules = list(rules)
    out = []
    conditions = [{w.name: condition_text(r, w) for w in r.win_conditions} for r in rules]
    for name in dict.fromkeys(n for c in conditions for n in c):
        out.append(("win conditions", name, [c.get(name, "-") for c in conditions]))
    out.append(("tricks", "who takes a trick", ["; ".join(f"{t} ({p})" for t, p in trick_rules(r)) or "the card order"
                                                   for r in rules]))
    cards = [{c.name: card_rule_text(c) for c in r.card_points} for r in rules]
    for name in dict.fromkeys(n for c in cards for n in c):
        out.append(("card points", name, [c.get(name, "-") for c in cards]))
    return out


# -- docs/hooks.md: the names the shipped plugins use ---------------------------------------


def shipped_names() -> dict[str, dict[tuple[str, str], dict]]:
    """Per kind (contract, multiplier item, win condition, card-point rule,
    trick winner) each name the built-in plugins give, with its words, the
    plugins and the shipped rulesets that use it.  Each plugin is compiled
    with ``official`` (under its ``example_params`` where it has them, else
    its defaults); what it adds or changes there is its own."""
    from skatcore.rules.compiler import get_rules
    from skatcore.rules.manager import builtin_plugins, import_attr
    from skatcore.rules.ruleset import shipped_rulesets

    found: dict[str, dict[tuple[str, str], dict]] = {kind: {} for _, kind in NAMED}
    found["trick winner"] = {}
    base = get_rules("official")
    for key, ref in builtin_plugins().items():
        for kind, name, text in plugin_rules(key, import_attr(ref), example=True):
            found[kind].setdefault((name, text), {"plugins": [], "rulesets": []})["plugins"].append(key)
    for ruleset in sorted(shipped_rulesets()):
        rules = get_rules(ruleset)
        for kind, name, text in _named(rules, base.thresholds):
            row = found[kind].get((name, text))
            if row is None:  # changed by a plugin's parameters: by a wrapper where the plain answer differs
                changed = _entry(base, kind, name) not in (None, text)
                who = [i.plugin_name for i in getattr(rules.pm.hook, _hook(kind)).get_hookimpls() if i.wrapper] \
                    if changed else []
                row = found[kind][(name, text)] = {"plugins": who or owners(rules, _hook(kind), name), "rulesets": []}
            row["rulesets"].append(ruleset)
    return found


def plugin_rules(key: str, factory, example: bool = False) -> list[tuple[str, str, str]]:
    """``(kind, name, in words)`` of what plugin ``factory`` adds to or
    changes in ``official`` under its default parameters (``example``: its
    ``example_params`` over them, where its defaults show no rule); empty
    for a plugin that cannot join ``official`` (a deck of its own)."""
    from skatcore.rules.compiler import compile_rules, get_rules
    from skatcore.rules.manager import PluginSpec
    from skatcore.rules.ruleset import Ruleset, load_ruleset, plugin_schema

    base = get_rules("official")
    if key == "official":
        return list(_named(base, base.thresholds))
    props = plugin_schema(factory).get("properties", {})
    params = {k: v["default"] for k, v in props.items() if isinstance(v, dict) and "default" in v}
    if example:
        params.update(getattr(factory, "example_params", {}))
    official = load_ruleset("official")
    try:
        rules = compile_rules(Ruleset("official", "", official.source,
                                      (*official.plugins, PluginSpec(key, "built-in", factory, params, layer=1))))
    except Exception:  # (a plugin that needs another layout: its rulesets show it)
        return []
    return [(kind, name, text) for kind, name, text in _named(rules, base.thresholds)
            if _entry(base, kind, name) != text]  # its own, or another's it changes


def _named(rules, thresholds):
    """``(kind, name, in words)`` of every named rule of ``rules``, lines as in ``thresholds``."""
    for c in rules.contracts.values():
        yield "contract", c.name, f"{c.label} ({c.family})"
    for i in rules.multiplier_items:
        yield "multiplier item", i.name, (i.label if isinstance(i.label, str) else "with / without") + (
            " (doubles)" if i.factor else "")
    for w in rules.win_conditions:
        yield "win condition", w.name, condition_text(rules, w, thresholds)
    for r in rules.card_points:
        yield "card-point rule", r.name, card_rule_text(r)
    for text, plugin in trick_rules(rules):
        yield "trick winner", plugin, text


def _entry(rules, kind: str, name: str) -> str | None:
    return next((text for k, n, text in _named(rules, rules.thresholds) if (k, n) == (kind, name)), None)


def _hook(kind: str) -> str:
    return next((hook for hook, k in NAMED if k == kind), "skat_trick_winner")


def names_markdown() -> str:
    """The section of docs/hooks.md that lists them, a table per kind."""
    found = shipped_names()
    parts = ["## Names the shipped plugins use\n\n",
             "Generated from the built-in plugins and the shipped rulesets. A wrapper finds another plugin's "
             "contract, item, condition or rule by its name; `skat rules NAME` lists those of one ruleset (with its "
             "own lines: here the official 61 and 90), `skat compare` the ones that differ. A name listed twice is "
             "changed by a plugin's parameters or a wrapper.\n\n"]
    heads = {"contract": "Contracts (`skat_register_contracts`)", "multiplier item": "Multiplier items, in the order "
             "they count (`skat_multiplier_items`)", "win condition": "Win conditions (`skat_win_conditions`)",
             "card-point rule": "Card-point rules (`skat_card_points`)", "trick winner": "Trick winners "
             "(`skat_trick_winner`, by plugin)"}
    for kind, rows in found.items():
        parts.append(f"### {heads[kind]}\n\n| name | in words | plugin | shipped rulesets |\n|---|---|---|---|\n")
        for (name, text), row in rows.items():
            used = ", ".join(f"`{r}`" for r in row["rulesets"]) or "none (a house rule, docs/rules/house-rules.md)"
            text = text.replace("|", "\\|")
            parts.append(f"| `{name}` | {text} | {', '.join(f'`{p}`' for p in dict.fromkeys(row['plugins']))} | {used} |\n")
        parts.append("\n")
    return "".join(parts)
