"""The bid ladder is derived from the contracts' base values and every
plugin's multiplier items (skatcore.rules.ladder), never written by hand."""

import re
import types
from pathlib import Path

from skatcore.rules import get_rules
from skatcore.testing import compile_with

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _guide_plugin(name: str):
    text = (DOCS / "writing-plugins.md").read_text(encoding="utf-8")
    code = re.search(r"<!-- file: house.py -->\n```\w*\n(.*?)```", text, re.S).group(1)
    module = types.ModuleType("house")
    exec(compile(code, "house.py", "exec"), module.__dict__)
    return getattr(module, name)


def test_the_guides_grand_20_bids_40_60_80(tmp_path):
    rules = compile_with("official", plugins={"grand20": (_guide_plugin("Grand20"), {"base": 20})})
    # grand: matadors 1..4, game, hand, schneider (announced), schwarz (announced), ouvert: 2..11 x 20
    assert rules.values["grand"] == tuple(20 * m for m in range(2, 12))
    assert rules.values["grand"][:3] == (40, 60, 80)
    assert 264 not in rules.ladder and 220 in rules.ladder  # grand ouvert with 4: 11 x 20, no longer 11 x 24
    # the same ladder as official's own parameter
    param = tmp_path / "grand20.yaml"
    param.write_text("name: grand20\ndescription: official, grand 20\nplugins:\n  official: {grand_base: 20}\n")
    assert rules.ladder == get_rules(param).ladder


def test_official_ladder_from_the_rules():
    rules = get_rules("official")
    # docs/rules/official.md#a3: suit base x 2..18 (11 trumps: with 11, game, hand, schneider, announced, schwarz, announced, ouvert)
    assert rules.values["clubs"] == tuple(12 * m for m in range(2, 19))
    assert rules.values["grand"] == tuple(24 * m for m in range(2, 12))
    assert rules.values["null"] == (23, 35, 46, 59)
    assert rules.ladder[:12] == (18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44)
    assert rules.ladder[-1] == 264


def test_a_multiplier_item_raises_the_ladder():
    # rum (+1, skat picked up) lets a pickup grand reach with 4, game, schneider, schwarz, rum: 8 x 24
    plain = get_rules("official")
    with_rum = compile_with("official", plugins={"rum": _guide_plugin("Rum")})
    assert with_rum.values["grand"] == plain.values["grand"]  # 8 x 24 is reached by a hand game already
    four = compile_with("official", plugins={"four_jacks": _guide_plugin("FourJacks")})
    assert 12 * 24 in four.values["grand"] and 12 * 24 not in plain.values["grand"]  # with 4 ... ouvert, four jacks


def test_tournee_ladder_is_derived():
    rules = get_rules("tournee")
    # a turned diamond (base 5) with 1, game: 10 is the minimum bid; Grand Guckser 16 x 2 = 32
    assert rules.min_bid == 10 and 10 in rules.ladder and 32 in rules.values["grand"]
