"""Every rule visible (issue 37, A2): the win conditions, the plugins that
decide trick winners and the card-point rules, in words - in `skat rules`,
`skat plugins`, `skat compare`'s rules that differ, and docs/hooks.md's
list of the names the shipped plugins use (generated from the code)."""

from __future__ import annotations

import re
from pathlib import Path

from skatcore import get_rules
from skatcore.cli.main import main
from skatcore.hookspecs import hookimpl
from skatcore.model import WinCondition
from skatcore.rules.describe import rules_diff
from skatcore.rules.overview import rules_lines
from skatcore.rules.ruleset import shipped_rulesets
from skatcore.rules.words import condition_text, names_markdown, trick_rules
from skatcore.testing import compile_with

DOCS = Path(__file__).resolve().parents[2] / "docs"


class LastTrick:
    """The declarer must take the last trick."""

    @hookimpl
    def skat_win_conditions(self):
        return [WinCondition("last_trick", lambda f: f.last_trick_winner == f.declarer, "lost the last trick",
                             "the declarer must take the last trick")]


class Undescribed:
    @hookimpl
    def skat_win_conditions(self):
        return [WinCondition("over_70", lambda f: f.declarer_points > 70, "only {facts.declarer_points} of 70")]


SEVEN = compile_with("official", {"trump_seven": "trump_seven"})
LAST = compile_with("official", {"last": LastTrick})
JACKS = compile_with("official", {"card_points": ("card_points", {"black_jacks": 10})})


def test_a_last_trick_ruleset_no_longer_looks_like_official():
    official = get_rules("official")
    differ = {(d.section, d.item): d.values for d in rules_diff([official, SEVEN, LAST, JACKS])}
    assert differ[("tricks", "who takes a trick")] == (
        "the card order", "the seven of trumps takes the last trick (trump_seven)", "the card order", "the card order")
    assert differ[("win conditions", "last_trick")] == ("-", "-", "the declarer must take the last trick", "-")
    assert differ[("card points", "black_jacks")] == ("-", "-", "-", "+10 to whoever takes both black jacks in one trick")
    assert not [d for d in rules_diff([official, get_rules("official")])]


def test_win_conditions_say_the_rulesets_own_lines():
    for name in ("official", "texas"):
        rules = get_rules(name)
        points = next(w for w in rules.win_conditions if w.name == "points")
        assert condition_text(rules, points) == f"the declarer needs {rules.thresholds.win} card points"
        announced = next(w for w in rules.win_conditions if w.name == "schneider_announced")
        assert str(rules.thresholds.schneider) in condition_text(rules, announced)
    rules = compile_with("official", {"u": Undescribed})
    over = next(w for w in rules.win_conditions if w.name == "over_70")
    assert condition_text(rules, over) == "lost when: only N of 70"  # no description: its reason


def test_skat_rules_shows_each_rule_in_words():
    lines = rules_lines(SEVEN.source)  # (the ruleset file: official, whose trick winner is the card order)
    assert "trick winners: the card order" in lines and "card points: as the cards give them" in lines
    for w in get_rules("official").win_conditions:
        assert any(line.split()[:1] == [w.name] and line.endswith("- official") for line in (x.strip() for x in lines))


def test_skat_rules_names_the_trick_winner_and_card_point_plugins(tmp_path, capsys):
    (tmp_path / "seven.yaml").write_text("name: seven\nextends: official\nplugins:\n  trump_seven: {}\n")
    (tmp_path / "jacks.yaml").write_text("name: jacks\nextends: official\nplugins:\n  card_points: {black_jacks: 10}\n")
    assert main(["rules", str(tmp_path / "seven.yaml")]) == 0
    out = capsys.readouterr().out
    assert "trick winners: the card order, except:\n  the seven of trumps takes the last trick - trump_seven\n" in out
    assert main(["rules", str(tmp_path / "jacks.yaml")]) == 0
    out = capsys.readouterr().out
    assert "  +10 to whoever takes both black jacks in one trick - card_points (black_jacks)\n" in out


def test_skat_plugins_shows_the_rules_a_plugin_gives(capsys):
    assert main(["plugins", "card_points"]) == 0
    out = capsys.readouterr().out
    assert "rules it adds or changes (with black_jacks: 10, last_trick: 10, skat: last_trick):" in out
    assert "card-point rule black_jacks: +10 to whoever takes both black jacks in one trick" in out
    assert main(["plugins", "spitze"]) == 0
    assert "win condition spitze: spitze announced: the declarer takes the last tricks" in capsys.readouterr().out
    assert trick_rules(SEVEN) == [("the seven of trumps takes the last trick", "trump_seven")]


def test_docs_hooks_md_lists_every_name_the_shipped_rulesets_use():
    """Every contract, multiplier item, win condition, card-point rule and
    trick-winner plugin of every shipped ruleset is a row of the list (it
    is generated: tests/cli/test_authoring.py checks the page is current)."""
    text = (DOCS / "hooks.md").read_text(encoding="utf-8")
    listed = text[text.index("## Names the shipped plugins use"):]
    assert listed == names_markdown().rstrip("\n") + "\n"
    rows = set(re.findall(r"^\| `([^`]+)` \|", listed, re.M))
    for name in shipped_rulesets():
        rules = get_rules(name)
        names = {*rules.contracts, *(i.name for i in rules.multiplier_items), *(w.name for w in rules.win_conditions),
                 *(r.name for r in rules.card_points), *(p for _, p in trick_rules(rules))}
        assert names <= rows, f"{name}: {sorted(names - rows)} not in docs/hooks.md"
    for name in ("black_jacks", "last_trick", "skat_to_last_trick", "trump_seven", "spitze", "schenken_schneider"):
        assert name in rows  # house rules no shipped ruleset plays
