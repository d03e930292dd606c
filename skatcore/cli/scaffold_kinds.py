"""The kinds of rule ``skat plugin new --kind`` starts a package with: the
plugin class, its imports, the ruleset's parameters, the vectors and a test
of a parameter, each a template formatted with the package's names
(:func:`skatcore.cli.scaffold.scaffold_names`).  Their vectors are real
deals counted by hand (docs/rules/house-rules.md#b15)."""

from __future__ import annotations

KINDS: dict[str, dict[str, str]] = {
    # a value: grand at 20
    "value": {
        "imports": "from skatcore.hookspecs import hookimpl\n",
        "rule": "grand 20",
        "params": "{{grand_base: 20}}",
        "plugin_class": '''class {cls}:
    """Grand is worth ``grand_base`` (change it, or the hook, to your rule)."""

    # JSON Schema of the parameters; every key a ruleset gives must be here
    params_schema = {{
        "type": "object",
        "additionalProperties": False,
        "properties": {{
            "grand_base": {{"type": "integer", "minimum": 1, "default": 24,
                           "description": "base value of grand"}},
        }},
    }}

    def __init__(self, grand_base: int = 24):
        self.grand_base = grand_base

    # An example hook.  skat_base_value is asked at compile time for every
    # contract, hand or not, and every set of announcements; return None
    # where this rule has nothing to say, and another plugin answers.  The
    # ruleset lists this plugin after `official`, so its answer wins.
    @hookimpl
    def skat_base_value(self, contract, hand, announced):
        if contract.family == "grand":
            return self.grand_base
        return None
''',
        "vectors": '''- name: "grand with 1: game 2, 2 x 20 = 40"
  declarer: forehand
  bid: 18
  game: {{type: grand}}
  outcome: {{declarer_points: 70, matadors: {{with: 1}}}}
  expect: {{multiplier: 2, value: 40, score: 40, won: true}}

- name: "suit games are unchanged: clubs with 2, game 3, 3 x 12 = 36"
  declarer: forehand
  bid: 18
  game: {{type: clubs}}
  outcome: {{declarer_points: 70, matadors: {{with: 2}}}}
  expect: {{value: 36}}

- name: "a lost grand: 2 x 40 = -80"
  declarer: forehand
  bid: 18
  game: {{type: grand}}
  outcome: {{declarer_points: 50, matadors: {{with: 1}}}}
  expect: {{won: false, score: -80}}
''',
        "parameter_test": '''def test_parameter(skat_rules, skat_score):
    rules = skat_rules("official", plugins={{"{snake}": ({cls}, {{"grand_base": 16}})}})
    record = {{"declarer": "forehand", "bid": 18, "game": {{"type": "grand"}},
              "outcome": {{"declarer_points": 70, "matadors": {{"with": 1}}}}}}
    assert skat_score(record, rules).value == 32


''',
    },
    # card points: the black jacks (skat_card_points)
    "card-points": {
        "imports": "from skatcore.cards import parse_card\nfrom skatcore.hookspecs import hookimpl\nfrom skatcore.model import CardPointRule\n\n"
                   "BLACK_JACKS = {{parse_card(\"CJ\"), parse_card(\"SJ\")}}\n",
        "rule": "10 card points for the black jacks",
        "params": "{{points: 10}}",
        "plugin_class": '''class {cls}:
    """+``points`` card points to whoever takes both black jacks (CJ, SJ) in
    one trick (change it, or the rule, to yours).

    A card-point rule's ``trick`` is asked for every trick played, with the
    trick (``trick.cards``; ``trick.winner``, the seat that took it) and the
    game's facts: a number goes to whoever took the trick.  ``end`` (not
    used here) is asked once, at the end, for ``{{seat: points}}``.  The core
    counts the points before the win and schneider lines are judged; what a
    defender is given counts against the declarer.
    """

    params_schema = {{
        "type": "object",
        "additionalProperties": False,
        "properties": {{
            "points": {{"type": "integer", "minimum": 0, "default": 10,
                       "description": "card points to whoever takes both black jacks in one trick"}},
        }},
    }}

    def __init__(self, points: int = 10):
        self.points = points

    @hookimpl
    def skat_card_points(self):
        return [CardPointRule("black_jacks", "for the black jacks", trick=self.black_jacks,
                              description=f"+{{self.points}} to whoever takes both black jacks in one trick")]

    def black_jacks(self, trick, facts) -> int:
        return self.points if BLACK_JACKS.issubset(trick.cards) else 0
''',
        "vectors": '''# Forehand plays spades with 1 and takes CJ SJ S7 in the first trick: 58 card points in
# its tricks and the skat, lost by the card points alone (2 x 22 = -44).
- name: "58 + 10 for the black jacks = 68: spades with 1 won +22"
  hands:
    forehand: [CJ, SK, C7, DA, C8, HJ, S8, D7, HQ, CT]
    middlehand: [SA, CK, CQ, D9, H8, HK, SJ, H7, HA, DK]
    rearhand: [S7, H9, S9, DJ, HT, DQ, C9, SQ, CA, DT]
  skat: [D8, ST]
  bidding: [pass, pass, 18]
  game: {{type: spades, discard: [CT, HQ]}}
  play: [CJ, SJ, S7, HJ, SA, S9, S8, H7, SQ, CA, C7, CK, H9, D7, HA, CQ, C9, C8, H8, HT, SK, DA, D9, DQ, D8, DK,
         DT, DJ, ST, HK]
  expect:
    declarer_points: 68
    score: 22
    explanation: "card points 58 + 10 for the black jacks = 68; with 1, game 2; 2 x spades 11 = 22: won +22"

# Rearhand plays clubs without 1 with 67 card points; middlehand takes SJ DJ CJ.
- name: "a defender's black jacks count against the declarer: 67 - 10 = 57, lost 2 x 24 = -48"
  hands:
    forehand: [S8, D8, DK, HA, D9, SA, S7, HQ, DJ, HK]
    middlehand: [SK, CQ, H8, C9, S9, C8, H7, D7, DA, CJ]
    rearhand: [C7, SJ, CK, DT, HJ, SQ, H9, ST, CT, CA]
  skat: [DQ, HT]
  bidding: [pass, 18, pass]
  game: {{type: clubs, discard: [ST, HT]}}
  play: [SA, SK, SQ, HA, H7, H9, S7, S9, C7, SJ, DJ, CJ, DA, DQ, DK, H8, CA, HQ, HJ, S8, C8, CT, D8, C9, CK, D9,
         CQ, DT, HK, D7]
  expect: {{declarer_points: 57, won: false, score: -48}}

- name: "a summary cannot say who took the black jacks: refused"
  declarer: forehand
  bid: 18
  game: {{type: spades}}
  outcome: {{declarer_points: 58, matadors: {{with: 1}}}}
  expect: {{error: "which the record does not hold"}}
''',
        "parameter_test": '''def test_parameter(skat_rules, skat_score):
    rules = skat_rules("official", plugins={{"{snake}": ({cls}, {{"points": 2}})}})
    record = """\\
hands:
  forehand: [CJ, SK, C7, DA, C8, HJ, S8, D7, HQ, CT]
  middlehand: [SA, CK, CQ, D9, H8, HK, SJ, H7, HA, DK]
  rearhand: [S7, H9, S9, DJ, HT, DQ, C9, SQ, CA, DT]
skat: [D8, ST]
bidding: [pass, pass, 18]
game: {{type: spades, discard: [CT, HQ]}}
play: [CJ, SJ, S7, HJ, SA, S9, S8, H7, SQ, CA, C7, CK, H9, D7, HA, CQ, C9, C8, H8, HT, SK, DA, D9, DQ, D8, DK,
       DT, DJ, ST, HK]
"""
    assert skat_score(record, rules).explanation.startswith("card points 58 + 2 for the black jacks = 60; ")
    assert skat_score(record, rules).won is False  # 60: one short


''',
    },
    # a win condition: the declarer must take the last trick (skat_win_conditions)
    "win-condition": {
        "imports": "from skatcore.hookspecs import hookimpl\nfrom skatcore.model import WinCondition\n",
        "rule": "the declarer must take the last trick",
        "params": "{{}}",
        "plugin_class": '''class {cls}:
    """The declarer must also take the last trick (change it, or the
    condition, to yours).

    A win condition's ``check`` gets the game's facts (``f.last_trick_winner``,
    ``f.declarer``, ``f.declarer_points``, the lines ``f.thresholds`` ...)
    after the house rules' card points; its ``reason`` is what a lost game's
    explanation says, its ``description`` what ``skat rules`` says.
    """

    params_schema = {{
        "type": "object",
        "additionalProperties": False,
        "properties": {{
            "unless_schneider": {{"type": "boolean", "default": False,
                                 "description": "a game that makes the defenders schneider needs no last trick"}},
        }},
    }}

    def __init__(self, unless_schneider: bool = False):
        self.unless_schneider = unless_schneider

    @hookimpl
    def skat_win_conditions(self):
        return [WinCondition("last_trick", self.check, "lost the last trick", "the declarer must take the last trick")]

    def check(self, f) -> bool:
        return f.last_trick_winner == f.declarer or (self.unless_schneider and f.defenders_schneider)
''',
        "vectors": '''# Forehand plays hearts with 2 and takes 67 card points; middlehand takes the last trick (HQ HT CK).
- name: "67 card points, the last trick to middlehand: hearts with 2 lost 2 x 30 = -60"
  hands:
    forehand: [D8, SK, CJ, CQ, SJ, HA, ST, H7, DQ, SA]
    middlehand: [HT, CT, DA, H9, D7, S7, S9, S8, HJ, HK]
    rearhand: [DJ, DT, D9, DK, C8, SQ, CK, C9, CA, H8]
  skat: [HQ, C7]
  bidding: [pass, pass, 18]
  game: {{type: hearts, discard: [CQ, DQ]}}
  play: [CJ, H9, H8, SJ, HJ, DJ, HA, HK, C8, SA, S7, SQ, ST, S8, C9, SK, S9, D9, C7, CT, CA, DK, D8, DA, D7, DT,
         H7, HQ, HT, CK]
  expect:
    won: false
    score: -60
    explanation: "with 2, game 3; 3 x hearts 10 = 30: lost the last trick, lost 2 x 30 = -60"

# Rearhand plays diamonds with 1 and takes the last trick (DK HT CT).
- name: "the last trick taken: diamonds with 1 won +18"
  hands:
    forehand: [C9, C8, SA, HK, SJ, H7, HT, DT, H9, S9]
    middlehand: [D9, S8, HA, D7, CA, H8, ST, DJ, C7, CT]
    rearhand: [DK, HJ, CQ, D8, DA, HQ, CJ, S7, DQ, SK]
  skat: [SQ, CK]
  bidding: [pass, 18, pass]
  game: {{type: diamonds, discard: [CK, HQ]}}
  play: [SA, ST, S7, S9, S8, SQ, CJ, SJ, D7, HJ, DT, D9, D8, H7, DJ, CA, CQ, C8, HA, DA, H9, SK, C9, C7, DQ, HK,
         H8, DK, HT, CT]
  expect: {{won: true, score: 18}}

- name: "a summary cannot say who took the last trick: refused"
  declarer: forehand
  bid: 18
  game: {{type: hearts}}
  outcome: {{declarer_points: 67, matadors: {{with: 2}}}}
  expect: {{error: "reads last_trick_winner"}}
''',
        "parameter_test": '''def test_parameter(skat_rules, skat_score):
    record = """\\
hands:
  forehand: [D8, SK, CJ, CQ, SJ, HA, ST, H7, DQ, SA]
  middlehand: [HT, CT, DA, H9, D7, S7, S9, S8, HJ, HK]
  rearhand: [DJ, DT, D9, DK, C8, SQ, CK, C9, CA, H8]
skat: [HQ, C7]
bidding: [pass, pass, 18]
game: {{type: hearts, discard: [CQ, DQ]}}
play: [CJ, H9, H8, SJ, HJ, DJ, HA, HK, C8, SA, S7, SQ, ST, S8, C9, SK, S9, D9, C7, CT, CA, DK, D8, DA, D7, DT,
       H7, HQ, HT, CK]
"""
    assert skat_score(record, "official").won is True  # 67 card points
    assert skat_score(record, skat_rules("official", plugins={{"{snake}": {cls}}})).won is False
    # unless_schneider changes nothing here: 67 card points are no schneider
    assert skat_score(record, skat_rules("official", plugins={{"{snake}": ({cls}, {{"unless_schneider": True}})}})).won is False


''',
    },
}
