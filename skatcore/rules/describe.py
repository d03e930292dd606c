"""Rules in words, for people: a ruleset's contract table, its all-pass
rule, parameters as a reader writes them, and what differs between several
compiled rulesets (``skat rules``, ``skat compare``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from skatcore.model import Declaration, null_label
from skatcore.rules.words import differences

ABSENT = "-"


def param_text(value) -> str:
    """A parameter value as a reader writes it: 24, true, [schneider, ouvert], {null: 23, ...}."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {param_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(param_text(v) for v in value) + "]"
    return json.dumps(value) if value is None or isinstance(value, bool) else str(value)


def forms(rules, c) -> list[tuple[str, Declaration]]:
    """The ways contract ``c`` can be declared, as (label, Declaration): their
    base and lost factor may differ (a step's own route, pre-1999 grand ouvert)."""
    out = []
    for route, hand in (("skat", False), ("hand", True)):
        opts = [d for d in rules.options["pickup" if route == "skat" else "hand"] if d.game == c.name]
        if any(not d.ouvert for d in opts):
            out.append((route, Declaration(c.name, hand)))
        ouvert = next((d for d in opts if d.ouvert), None)
        if ouvert:
            out.append((f"{route} ouvert", ouvert))
    for step in rules.steps:
        out += step.forms(rules, c)
    return out


def contract_table(rules) -> dict[str, str]:
    """Each contract form -> its value in words (``24 (lost x2)``, ``fixed 23``,
    ``no declarer``), in the ruleset's order."""
    out = {}
    for c in rules.contracts.values():
        if c.base is not None:
            for label, d in forms(rules, c):
                out[f"{c.name} {label}"] = f"{rules.base_value(d)} (lost x{rules.lost_factor_of(d)})"
        elif c.fixed:
            for (hand, ouvert), v in sorted(c.fixed.items(), key=lambda kv: kv[1]):
                factor = rules.lost_factor_of(Declaration(c.name, hand, ouvert=ouvert))
                out[null_label(hand, ouvert)] = f"fixed {v} (lost {-factor * v})"
        else:
            out[c.name] = f"{c.family}, no declarer"
    return out


def all_pass_text(rules) -> str:
    if rules.all_pass == "throw_in":
        return "thrown in, no score; the next dealer deals"
    text = f"{rules.all_pass} (no declarer)"
    text += "".join(f"; {s.description}" for s in rules.steps_at["all_passed"])
    if rules.skip_bidding:
        text = "no bidding: every deal is " + text
    return text


def thresholds_text(rules) -> str:
    th = rules.thresholds
    return f"win {th.win}, schneider at {th.schneider}, out of schneider at {th.out_of_schneider}"


def ladder_text(rules, rungs: int = 12) -> str:
    head = " ".join(str(v) for v in rules.ladder[:rungs])
    return f"{len(rules.ladder)} rungs: {head}{' ...' if len(rules.ladder) > rungs else ''}"


@dataclass(frozen=True)
class RuleDifference:
    """One rule that differs: ``section`` (plugins, contracts, thresholds,
    win conditions, tricks, card points, all pass, ladder), the ``item`` (``official.grand_base``, ``grand hand``)
    and its value in each ruleset (``-`` where it has none)."""

    section: str
    item: str
    values: tuple[str, ...]

    def to_json(self, names: Sequence[str]) -> dict:
        return {"section": self.section, "item": self.item, "values": dict(zip(names, self.values, strict=True))}


def rules_diff(rules: Sequence) -> list[RuleDifference]:
    """What differs between compiled rulesets, from their compiled form: each
    plugin parameter (every parameter of a plugin only some of them use), each
    contract form's value, the thresholds, each win condition, the trick
    winners, each card-point rule (in words, :mod:`skatcore.rules.words`),
    the all-pass rule and the ladder."""
    out: list[RuleDifference] = []

    def add(section: str, item: str, values: list[str]) -> None:
        if len(set(values)) > 1:
            out.append(RuleDifference(section, item, tuple(values)))

    params = [{spec.key: spec.params for spec in r.plugins} for r in rules]
    for key in dict.fromkeys(k for p in params for k in p):
        if not any(p.get(key) for p in params):  # a plugin without parameters, used by some
            add("plugins", key, ["used" if key in p else ABSENT for p in params])
        for name in sorted({n for p in params for n in p.get(key, {})}):
            add("plugins", f"{key}.{name}",
                [param_text(p[key].get(name)) if key in p else ABSENT for p in params])
    tables = [contract_table(r) for r in rules]
    for form in dict.fromkeys(f for t in tables for f in t):
        add("contracts", form, [t.get(form, ABSENT) for t in tables])
    add("thresholds", "thresholds", [thresholds_text(r) for r in rules])
    for section, item, values in differences(rules):  # what plugins hand back: win conditions, trick winners, card points
        add(section, item, values)
    add("all pass", "all pass", [all_pass_text(r) for r in rules])
    add("ladder", "bid ladder", [ladder_text(r) for r in rules])
    return out
