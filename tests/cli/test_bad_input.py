"""Bad input: one line on stderr naming the file, the path inside it and what
was expected; exit status 2; no traceback; nothing on stdout (docs/formats.md#command-line).

The CLI runs in-process through ``skatcore.cli.main(argv)``.
"""

from __future__ import annotations

import json
import re

import pytest
import yaml
from rules_by_hand import replace_keys

from skatcore.cli.main import main

# A fully played deal (diamonds by forehand, bid 18, won +36).  Play order by
# seat: play[7] is middlehand answering HQ (holds HA), play[13] is
# middlehand answering DK (holds no diamond).
PLAYED = {
    "format": "skat-deal/1",
    "hands": {
        "forehand": ["SJ", "DJ", "DA", "DT", "DK", "DQ", "D9", "D8", "D7", "SK"],
        "middlehand": ["HJ", "CA", "CT", "CK", "C9", "C8", "C7", "SA", "ST", "HA"],
        "rearhand": ["CQ", "SQ", "S9", "S8", "S7", "HT", "HK", "H9", "H8", "H7"],
    },
    "skat": ["CJ", "HQ"],
    "bidding": [18, "yes", "pass", "pass"],
    "game": {"type": "diamonds", "discard": ["SK", "D7"]},
    "play": ["CJ", "HJ", "CQ", "SJ", "CA", "SQ", "HQ", "HA", "HK", "CK", "S9", "DA", "DK", "CT", "S8",
             "DQ", "C9", "S7", "DJ", "C8", "HT", "DT", "C7", "H9", "D9", "SA", "H8", "D8", "ST", "H7"],
}


def write(tmp_path, name, doc) -> str:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return str(path)


def variant(**changes) -> dict:
    """PLAYED with top-level keys replaced (None deletes a key)."""
    return replace_keys(PLAYED, changes)


def expect_error(capsys, argv, file: str | None, path: str | None, *expected: str) -> str:
    """Run the CLI; assert exit 2, one stderr line ``skat: error: FILE: PATH: ...``
    containing every ``expected`` text, and an empty stdout."""
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 2, (rc, err)
    assert out == "", f"stdout must stay empty on bad input, got {out!r}"
    assert err.endswith("\n") and err.count("\n") == 1, f"expected exactly one line on stderr, got {err!r}"
    line = err.rstrip("\n")
    assert line.startswith("skat: error: "), line
    assert "Traceback" not in line
    if file is not None:
        assert f"{file}: " in line, f"the error must name the file {file}: {line}"
    if path is not None:
        lead = f"{file}: {path}: " if file is not None else f"{path}: "
        assert lead in line, f"the error must name the path {path!r} right after the file: {line}"
    for text in expected:
        assert text in line, f"{text!r} missing from: {line}"
    return line


def test_the_base_record_is_valid(tmp_path, capsys):
    f = write(tmp_path, "ok.yaml", PLAYED)
    assert main(["score", "--json", f]) == 0
    assert '"score": 36' in capsys.readouterr().out


# ---------------------------------------------------------------------------
# Deal records
# ---------------------------------------------------------------------------


def test_malformed_yaml(tmp_path, capsys):
    f = write(tmp_path, "bad.yaml", "format: skat-deal/1\nhands: [CJ, SJ\n")
    expect_error(capsys, ["score", f], f, None, "malformed YAML", "line 3")


def test_malformed_json(tmp_path, capsys):
    f = write(tmp_path, "bad.json", '{"format": "skat-deal/1",')
    expect_error(capsys, ["score", f], f, None, "malformed JSON")


def test_card_not_following_suit(tmp_path, capsys):
    doc = variant()
    doc["play"][7] = "CK"  # middlehand must follow HQ with HA
    f = write(tmp_path, "d.yaml", doc)
    expect_error(capsys, ["score", f], f, "play[7]", "CK does not follow", "middlehand holds HA")


def test_card_not_held(tmp_path, capsys):
    doc = variant()
    doc["play"][13] = "DA"  # forehand holds DA, middlehand is to play
    f = write(tmp_path, "d.yaml", doc)
    expect_error(capsys, ["score", f], f, "play[13]", "middlehand does not hold DA")


def test_card_after_the_last_trick(tmp_path, capsys):
    # a null game ends at the declarer's first trick; a card after that is an error
    doc = variant(game={"type": "null", "discard": ["SK", "D7"]}, play=["DA", "CA", "CQ", "DK"])
    f = write(tmp_path, "d.yaml", doc)
    expect_error(capsys, ["score", f], f, "play[3]", "already over")


def test_non_ladder_value_in_bidding(tmp_path, capsys):
    f = write(tmp_path, "d.yaml", variant(bidding=[18, "yes", 19, "pass", "pass"]))
    expect_error(capsys, ["score", f], f, "bidding[2]", "19 is not a game value", "18 or 20")


def test_non_ladder_bid(tmp_path, capsys):
    f = write(tmp_path, "d.yaml", variant(bidding=None, declarer="forehand", bid=19))
    expect_error(capsys, ["score", f], f, "bid", "19 is not a game value", "18 or 20")


def test_bidding_call_that_is_no_call(tmp_path, capsys):
    # YAML reads a bare `no` as false, which is no bidding call
    f = write(tmp_path, "d.yaml", "format: skat-deal/1\nbidding: [18, no]\ngame: {type: grand}\n")
    expect_error(capsys, ["score", f], f, "bidding[1]", "expected an integer >= 1 or one of: yes, pass", "got false")


def test_bidding_contradicting_declarer(tmp_path, capsys):
    f = write(tmp_path, "d.yaml", variant(declarer="rearhand"))
    expect_error(capsys, ["score", f], f, "declarer", "contradicts the bidding", "forehand")


def test_eleven_card_hand(tmp_path, capsys):
    doc = variant()
    doc["hands"]["forehand"].append("HQ")
    f = write(tmp_path, "d.yaml", doc)
    expect_error(capsys, ["score", f], f, "hands.forehand", "expected exactly 10 items, got 11")


def test_duplicate_card_between_hand_and_skat(tmp_path, capsys):
    f = write(tmp_path, "d.yaml", variant(skat=["CJ", "SK"]))
    expect_error(capsys, ["score", f], f, "skat[1]", "SK is dealt twice", "hands.forehand[9]")


def test_duplicate_card_between_hands(tmp_path, capsys):
    doc = variant()
    doc["hands"]["middlehand"][0] = "SJ"  # HJ is then missing, SJ dealt twice
    f = write(tmp_path, "d.yaml", doc)
    expect_error(capsys, ["score", f], f, "hands.middlehand[0]", "SJ is dealt twice", "hands.forehand[0]")


def test_discard_of_a_card_not_held(tmp_path, capsys):
    doc = variant()
    doc["game"]["discard"] = ["SK", "CA"]
    f = write(tmp_path, "d.yaml", doc)
    expect_error(capsys, ["score", f], f, "game.discard", "cannot discard CA", "forehand does not hold it")


# A summary (no hands) is scored from its outcome: its card lists were once
# read for spelling only, so `play: [CJ, CJ]` or `skat: [CJ, CJ]` was a "valid deal record"
SUMMARY = {"format": "skat-deal/1", "declarer": "forehand", "bid": 18, "game": {"type": "grand"},
           "outcome": {"declarer_points": 70, "matadors": {"with": 1}}}


@pytest.mark.parametrize("command", ["validate", "score"])
@pytest.mark.parametrize(("changes", "path", "expected"), [
    ({"play": ["CJ"]}, "play", "need the hands"),
    ({"play": ["CJ", "SJ", "HJ", "DJ"]}, "play", "need the hands"),
    ({"skat": ["CJ", "CJ"]}, "skat[1]", "CJ is named twice (first at skat[0])"),
    ({"game": {"type": "grand", "discard": ["SA", "SA"]}}, "game.discard[1]", "SA is named twice"),
])
def test_a_summary_s_cards_are_checked_not_dropped(tmp_path, capsys, command, changes, path, expected):
    f = write(tmp_path, "d.yaml", {**SUMMARY, **changes})
    expect_error(capsys, [command, f], f, path, expected)


def test_unparseable_card_in_play(tmp_path, capsys):
    doc = variant()
    doc["play"][0] = "XZ"
    f = write(tmp_path, "d.yaml", doc)
    expect_error(capsys, ["score", f], f, "play[0]", "'XZ' is not a card", "expected suit C/S/H/D")


def test_unparseable_card_in_hand(tmp_path, capsys):
    doc = variant()
    doc["hands"]["middlehand"][2] = "XZ"
    f = write(tmp_path, "d.yaml", doc)
    expect_error(capsys, ["score", f], f, "hands.middlehand[2]", "'XZ' is not a card")


def test_overlong_card_text(tmp_path, capsys):
    doc = variant(skat=["CJ", "HQUEEN"])
    f = write(tmp_path, "d.yaml", doc)
    expect_error(capsys, ["score", f], f, "skat[1]", "expected a card such as CJ", '"HQUEEN"')


def test_wrong_format(tmp_path, capsys):
    f = write(tmp_path, "d.yaml", variant(format="skat-deal/2"))
    expect_error(capsys, ["score", f], f, "format", "expected 'skat-deal/1', got 'skat-deal/2'")


def test_format_may_be_left_out_but_not_wrong(tmp_path, capsys):
    """As in vector files: a record without `format` is a skat-deal/1 record."""
    f = write(tmp_path, "d.yaml", variant(format=None))
    assert main(["score", "--json", f]) == 0
    assert json.loads(capsys.readouterr().out)["value"] > 0
    assert main(["validate", f]) == 0 and "valid deal record" in capsys.readouterr().out
    f = write(tmp_path, "e.yaml", variant(format=None, plugins={}))
    expect_error(capsys, ["score", f], f, "plugins", "unknown key 'plugins'")


def test_record_not_a_mapping(tmp_path, capsys):
    f = write(tmp_path, "d.yaml", "- 1\n- 2\n")
    expect_error(capsys, ["score", f], f, None, "expected a mapping")


def test_unknown_record_key(tmp_path, capsys):
    f = write(tmp_path, "d.yaml", variant(colour="red"))
    expect_error(capsys, ["score", f], f, "colour", "unknown key 'colour'", "expected one of:", "hands")


def test_game_without_type(tmp_path, capsys):
    f = write(tmp_path, "d.yaml", variant(game={"discard": ["SK", "D7"]}))
    expect_error(capsys, ["score", f], f, "game", "missing key 'type'")


def test_unknown_game_type(tmp_path, capsys):
    f = write(tmp_path, "d.yaml", variant(game={"type": "bridge", "discard": ["SK", "D7"]}))
    expect_error(capsys, ["score", f], f, "game.type", "'bridge'", "expected one of:", "grand")


def test_null_declared_below_the_bid(tmp_path, capsys):
    doc = variant(bidding=[18, "yes", 20, "yes", 22, "yes", 23, "yes", 24, "yes", "pass", "pass"],
                  game={"type": "null", "discard": ["SK", "D7"]}, play=None,
                  outcome={"declarer_tricks": 0})
    f = write(tmp_path, "d.yaml", doc)
    expect_error(capsys, ["score", f], f, "game", "null is worth 23", "below the bid 24")


@pytest.mark.parametrize("announcement", ["schneider", "schwarz"])
def test_announcement_after_picking_up_the_skat(tmp_path, capsys, announcement):
    doc = variant()
    doc["game"][announcement] = True
    f = write(tmp_path, "d.yaml", doc)
    expect_error(capsys, ["score", f], f, "game", "may be announced only in hand games")


def test_announcement_in_a_skat_game_said_explicitly(tmp_path, capsys):
    doc = variant()
    doc["game"].update(hand=False, schneider=True)
    f = write(tmp_path, "d.yaml", doc)
    expect_error(capsys, ["score", f], f, "game", "may be announced only in hand games")


def test_unknown_ruleset_named_by_the_record(tmp_path, capsys):
    f = write(tmp_path, "d.yaml", variant(ruleset="nosuch"))
    expect_error(capsys, ["score", f], f, "ruleset", "unknown ruleset 'nosuch'", "official")
    expect_error(capsys, ["validate", f], f, "ruleset", "unknown ruleset 'nosuch'")


def test_unknown_ruleset_on_the_command_line(tmp_path, capsys):
    f = write(tmp_path, "d.yaml", PLAYED)
    expect_error(capsys, ["score", "--ruleset", "nosuch", f], None, "--ruleset", "unknown ruleset 'nosuch'", "official")
    expect_error(capsys, ["rules", "nosuch"], None, None, "unknown ruleset 'nosuch'", "expected a file or one of: ", "official")


def test_missing_file(tmp_path, capsys):
    f = str(tmp_path / "nowhere.yaml")
    expect_error(capsys, ["score", f], f, None, "cannot read file")
    expect_error(capsys, ["validate", f], f, None, "cannot read file")
    expect_error(capsys, ["score", str(tmp_path / "nowhere.json")], str(tmp_path / "nowhere.json"), None, "cannot read file")


def test_unfinished_deal_without_outcome(tmp_path, capsys):
    f = write(tmp_path, "d.yaml", variant(play=PLAYED["play"][:12]))
    expect_error(capsys, ["score", f], f, "play", "not finished after 12 cards")


def test_bad_file_after_a_good_one_is_one_error_line_and_the_good_one_is_scored(tmp_path, capsys):
    good = write(tmp_path, "a.yaml", PLAYED)
    doc = variant()
    doc["play"][13] = "DA"
    bad = write(tmp_path, "bad.yaml", doc)
    for flags in ([], ["--json"]):
        assert main(["score", *flags, good, bad]) == 2
        out, err = capsys.readouterr()
        assert "+36" in out or '"score": 36' in out  # results stream: the good record is scored
        assert err.count("\n") == 1 and f"{bad}: play[13]: " in err and "a.yaml" not in err


# ---------------------------------------------------------------------------
# Rulesets (through `skat validate` and `skat score --ruleset`)
# ---------------------------------------------------------------------------


def ruleset(tmp_path, text: str, name: str = "house.yaml") -> str:
    return write(tmp_path, name, text)


def test_ruleset_malformed_yaml(tmp_path, capsys):
    f = ruleset(tmp_path, "name: x\nplugins: {official: {\n")
    expect_error(capsys, ["validate", f], f, None, "malformed YAML", "line 3")


def test_ruleset_unknown_plugin(tmp_path, capsys):
    f = ruleset(tmp_path, "name: x\nplugins:\n  nosuch: {}\n")
    expect_error(capsys, ["validate", f], f, "plugins.nosuch", "unknown plugin 'nosuch'", "expected one of: ", "official")


def test_ruleset_unknown_top_level_key(tmp_path, capsys):
    f = ruleset(tmp_path, "name: x\nplugins:\n  official: {}\ncolour: red\n")
    expect_error(capsys, ["validate", f], f, "colour", "unknown key 'colour'",
                 "expected one of: description, extends, name, plugins")


def test_ruleset_unknown_plugin_parameter(tmp_path, capsys):
    f = ruleset(tmp_path, "name: x\nplugins:\n  official: {grand_bse: 20}\n")
    expect_error(capsys, ["validate", f], f, "plugins.official.grand_bse", "unknown key 'grand_bse'",
                 "expected one of: grand_base")


def test_ruleset_unknown_nested_parameter(tmp_path, capsys):
    f = ruleset(tmp_path, "name: x\nplugins:\n  official: {suit_bases: {cubs: 12}}\n")
    expect_error(capsys, ["validate", f], f, "plugins.official.suit_bases.cubs", "unknown key 'cubs'", "clubs")


def test_ruleset_bad_parameter_value(tmp_path, capsys):
    f = ruleset(tmp_path, 'name: x\nplugins:\n  official: {grand_base: "x"}\n')
    expect_error(capsys, ["validate", f], f, "plugins.official.grand_base", "expected an integer >= 1", 'got "x"')


@pytest.mark.parametrize(("plugins", "path", "got"), [
    ("official: {grand_base: 99999999999999999999999}", "plugins.official.grand_base", "got 99999999999999999999999"),
    ("official: {suit_bases: {clubs: 1000001}}", "plugins.official.suit_bases.clubs", "got 1000001"),
    ("official: {}\n  lost_factor: {skat: 4000000000, hand: 1}", "plugins.lost_factor.skat", "got 4000000000"),
    ("official: {}\n  pot: {ante: 1.0e+300}", "plugins.pot.ante", "got 1e+300"),
])
@pytest.mark.parametrize("command", [["validate"], ["rules"], ["simulate", "--deals", "2", "--ruleset"]])
def test_ruleset_numbers_beyond_any_rule_are_refused(tmp_path, capsys, plugins, path, got, command):
    """grand_base 10^23 was a valid ruleset, then skat simulate crashed (exit 1) putting it in a 64-bit array."""
    f = ruleset(tmp_path, f"name: x\nextends: official\nplugins:\n  {plugins}\n")
    expect_error(capsys, [*command, f], f, path, "expected a number from -1,000,000 to 1,000,000", got)


@pytest.mark.parametrize("min_bid", [265, 500000])
@pytest.mark.parametrize("command", [["validate", "F"], ["rules", "F"], ["simulate", "--deals", "3", "--ruleset", "F"],
                                     ["compare", "official", "F", "--deals", "3"]])
def test_a_lowest_bid_above_every_game_value_is_refused(tmp_path, capsys, min_bid, command):
    """min_bid above every value (the highest is 264, a grand ouvert schwarz with 4) left an empty ladder:
    `skat validate` said valid, `skat simulate` stopped with IndexError (exit 1)."""
    f = ruleset(tmp_path, f"name: x\nextends: official\nplugins:\n  official: {{min_bid: {min_bid}}}\n")
    expect_error(capsys, [f if a == "F" else a for a in command], f, "plugins.official",
                 f"the lowest bid {min_bid:,} is above every game value",
                 "the highest is 264")


@pytest.mark.parametrize("extra", ["", "  piloten_skat: {}\n", "  bierlachs: {}\n"])
@pytest.mark.parametrize("command", [["validate", "F"], ["simulate", "--deals", "3", "--ruleset", "F"],
                                     ["compare", "ramsch", "F", "--deals", "3"]])
def test_bidding_without_a_declarer_game_is_refused(tmp_path, capsys, extra, command):
    """`ramsch` (no declarer games) with every_deal: false, as the builder makes it: the deal is bid for, the
    declarer has nothing to declare; `skat validate` stopped with IndexError (exit 1), simulate and compare too."""
    f = ruleset(tmp_path, f"name: x\nextends: ramsch\nplugins:\n  ramsch: {{every_deal: false}}\n{extra}")
    expect_error(capsys, [f if a == "F" else a for a in command], f, None,
                 "the deal is bid for, but no plugin registers a game a declarer can play (only ramsch)")
    g = ruleset(tmp_path, "name: y\nextends: ramsch\nplugins:\n  official: {}\n  ramsch: {every_deal: false}\n", "y.yaml")
    assert main(["validate", g]) == 0 and "valid ruleset 'y'" in capsys.readouterr().out


@pytest.mark.parametrize("command", [["validate", "F"], ["simulate", "--deals", "40", "--players", "random", "--ruleset", "F"],
                                     ["compare", "schmegegge", "F", "--deals", "40", "--players", "random"]])
def test_a_declarer_with_nothing_to_declare_is_the_ruleset_s_error(tmp_path, capsys, command):
    """Revolution (92, ouvert hand) is the only declarer game once official is dropped, and without the announcements
    no ouvert can be declared: a random bidder who reached 92 had nothing legal (IndexError, exit 1)."""
    f = ruleset(tmp_path, "name: x\nextends: schmegegge\nplugins:\n  official: false\n  revolution: {}\n")
    expect_error(capsys, [f if a == "F" else a for a in command], None, None, "ruleset 'x': ",
                 "is to move (declare) and the rules leave nothing it may do")


def test_a_lowest_bid_of_the_highest_value_is_a_ladder_of_one(tmp_path, capsys):
    f = ruleset(tmp_path, "name: x\nextends: official\nplugins:\n  official: {min_bid: 264}\n")
    assert main(["rules", f]) == 0 and "bid ladder (first 40 of 1)" in capsys.readouterr().out


def test_ruleset_bad_parameter_value_in_any_of(tmp_path, capsys):
    # jsonschema alone says "... is not valid under any of the given schemas"
    f = ruleset(tmp_path, 'name: x\nplugins:\n  official: {null_values: {"null": "x"}}\n')
    line = expect_error(capsys, ["validate", f], f, 'plugins.official.null_values.null',
                        "expected an integer >= 1 or null", 'got "x"')
    assert "any of the given schemas" not in line


def test_ruleset_plugin_parameters_not_a_mapping(tmp_path, capsys):
    f = ruleset(tmp_path, "name: x\nplugins:\n  official: 3\n")
    line = expect_error(capsys, ["validate", f], f, "plugins.official", "expected a mapping, null or false", "got 3")
    assert "any of the given schemas" not in line


def test_ruleset_bare_null_key(tmp_path, capsys):
    # YAML 1.1 reads an unquoted `null:` key as None (and `yes:` as True); skatcore reads keys as written
    f = ruleset(tmp_path, "name: x\nplugins:\n  official: {null_values: {null: 20}}\n")
    assert main(["rules", f]) == 0
    assert re.search(r"^  null +fixed 20 ", capsys.readouterr().out, re.M)


def test_ruleset_not_a_mapping(tmp_path, capsys):
    f = ruleset(tmp_path, "[]\n")
    expect_error(capsys, ["validate", f], f, None, "expected a mapping, got a list")


def test_bad_ruleset_given_to_score(tmp_path, capsys):
    rs = ruleset(tmp_path, "name: x\nplugins:\n  official: {grand_bse: 20}\n")
    rec = write(tmp_path, "d.yaml", PLAYED)
    expect_error(capsys, ["score", "--ruleset", rs, rec], rs, "plugins.official.grand_bse", "unknown key")


def test_command_line_misuse(capsys):
    expect_error(capsys, [], None, None, "expected a command")
    expect_error(capsys, ["frobnicate"], None, None, "invalid choice")
    expect_error(capsys, ["score"], None, None, "required")
