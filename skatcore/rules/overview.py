"""What ``skat rules NAME`` shows of a ruleset: plugins and parameters,
what differs from the ruleset it extends, contracts, thresholds, the deal
layout and the bid ladder (the CLI prints it, ``skat serve`` shows it)."""

from __future__ import annotations

from pathlib import Path


def rules_lines(name: str) -> list[str]:
    """What ``skat rules NAME`` prints, a line each (the caller makes them printable)."""
    from skatcore.model import Declaration, null_label
    from skatcore.rules.compiler import get_rules
    from skatcore.rules.describe import all_pass_text, param_text
    from skatcore.rules.describe import forms as contract_forms
    from skatcore.rules.ruleset import find_ruleset, load_ruleset, read_yaml
    from skatcore.rules.words import rule_lines
    rules = get_rules(name)
    out: list[str] = []
    out.append(f"{rules.name}: {rules.description}")
    out.append(f"source: {rules.source}")
    page = _rules_page(Path(rules.source))
    if page:
        out.append(f"rules explained: {page}")
    out.append("")
    out.append("plugins and parameters:")
    for spec in rules.plugins:
        out.append(f"  {spec.key}  [{spec.origin}]")
        for key, value in sorted(spec.params.items()):
            out.append(f"    {key:22} {param_text(value)}")
    parent = (read_yaml(rules.source) or {}).get("extends")
    if parent:
        out.append("")
        out.append(f"differs from {parent}:")
        for line in _differences(load_ruleset(find_ruleset(parent, Path(rules.source).parent)), rules):
            out.append(f"  {line}")
    out.append("")
    out.append("contracts:")
    for c in rules.contracts.values():
        if c.base is not None:
            forms = "; ".join(f"{label} {rules.base_value(d)} (lost x{rules.lost_factor_of(d)})" for label, d in contract_forms(rules, c))
            out.append(f"  {c.name:18} matadors up to {len(rules.tricks[c.name].trumps):<2}  {forms}")
        elif c.fixed:
            for (hand, ouvert), v in sorted(c.fixed.items(), key=lambda kv: kv[1]):
                factor = rules.lost_factor_of(Declaration(c.name, hand, ouvert=ouvert))
                out.append(f"  {null_label(hand, ouvert):18} fixed {v:<3} lost {-factor * v}")
        else:
            out.append(f"  {c.name:18} ({c.family}, no declarer)")
    th = rules.thresholds
    out.append("")
    out.append(f"thresholds: win {th.win}, defenders schneider at {th.schneider}, declarer out of schneider at {th.out_of_schneider}")
    items = ", ".join(i.name.replace("_", " ") for i in rules.multiplier_items)
    out.append(f"multiplier items: {items}")  # names and texts of plugins, local ones too
    out += rule_lines(rules)
    out.append(f"all pass: {all_pass_text(rules)}")
    out += _table_lines(rules)
    out.append("")
    out.append(f"bid ladder (first 40 of {len(rules.ladder)}):")
    out.append("  " + " ".join(str(v) for v in rules.ladder[:40]))
    return out


_SHOWN = {"declared": "once the game is announced", "first_card": "when the first card is led",
          "first_trick": "after the first trick", "deal": "from the deal"}
_TO = {"controller": "the player who plays it", "declarer": "the declarer", "all": "everyone"}
_ASIDE = {"nobody": "nobody", "declarer": "the declarer", "defenders": "the defenders",
          "more_points": "the side with more card points"}


def _table_lines(rules) -> list[str]:
    """The deal layout and the seats, where they differ from three people with 10 cards each."""
    from skatcore.model import SEATS
    deck, plans = rules.deck, rules.table.seats
    lines = []
    if deck.seats != (0, 1, 2) or deck.aside:
        dealt = ", ".join(SEATS[s] for s in deck.seats)
        aside = f"; {deck.aside} laid aside, counted for {_ASIDE[deck.aside_to]}" if deck.aside else ""
        lines.append(f"deal: {deck.hand} cards each to {dealt}; {deck.skat} in the skat{aside}; tricks of {len(deck.seats)} cards")
    if not rules.table.plain:
        lines.append("seats:")
        for s in deck.seats:
            p = plans[s]
            who = {"own": "its own player", "defender": "played by the defender", "nobody": "nobody plays it (forced)"}[p.controller]
            parts = [who, *([] if p.bids else ["does not bid"])]
            if p.arrangement == "stacks":
                parts.append(f"{p.open} stacks, the top card face up")
            elif p.arrangement == "pile":
                parts.append(f"{p.open} open, the rest a face-down pile")
            parts += [f"shown to {_TO[to]} {_SHOWN[moment]}" for moment, to in p.shown]
            lines.append(f"  {SEATS[s]:11} " + "; ".join(parts))
    return lines


def _differences(parent, rules) -> list[str]:
    """What ``rules`` changes in the ruleset it extends: plugins added and
    dropped, and each parameter whose value differs."""
    from skatcore.rules.describe import param_text
    before = {spec.key: spec.params for spec in parent.plugins}
    after = {spec.key: spec.params for spec in rules.plugins}
    lines = [f"- {key} (dropped)" for key in before if key not in after]
    for key, params in after.items():
        if key not in before:
            lines.append(f"+ {key}" + (f"  {param_text(params)}" if params else ""))
            continue
        for name in sorted(set(params) | set(before[key])):
            old, new = before[key].get(name), params.get(name)
            if old != new:
                lines.append(f"  {key}.{name}: {param_text(old)} -> {param_text(new)}")
    return lines or ["nothing (the same plugins and parameters)"]


def _rules_page(source: Path) -> str | None:
    """The page of docs/rules/ that explains this ruleset: its own for a
    shipped one, else the page of the nearest shipped ruleset it extends."""
    from skatcore.rules.ruleset import find_ruleset, read_yaml, shipped_rulesets
    for _ in range(20):  # extends chains are short; a cycle was refused on loading
        if shipped_rulesets().get(source.stem) == source:
            return f"docs/rules/{source.stem}.md"
        parent = (read_yaml(source) or {}).get("extends")
        if not parent:
            return None
        source = find_ruleset(parent, source.parent)
    return None
