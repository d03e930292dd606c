"""Issue 25, documents, numbers and bounds: every input gives exit 0 or 2
with one line naming the file, the path inside it and what was expected."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
import yaml
from cli_checks import refused

from skatcore.cli.main import main


@pytest.mark.parametrize("spec, expected", [
    ("os:getpid", "player 'os:getpid': expected a player factory: a callable taking rules= and seed="),
    ("os:system", "player 'os:system': expected a player factory"),
    ("builtins:dict", "player 'builtins:dict': expected a player factory"),
    ("expert:worlds=nan", "player 'expert:worlds=nan': option worlds: expected a finite number >= 0, not 'nan'"),
    ("expert:ms=inf", "option ms: expected a finite number >= 0, not 'inf'"),
    ("expert:worlds=-1", "option worlds: expected a finite number >= 0, not '-1'"),
    ("expert:foo=1", "player 'expert:foo=1': unknown option 'foo' (expected one of: worlds, ms, bid_worlds, nodes, evidence, keep)"),
    ("random:x=1", "player 'random:x=1': unknown option 'x' (it takes no options)"),
    # a finite count that never ends: worlds=1e12 layouts a card once ran (and hung) without a word
    ("expert:worlds=1e12", "player 'expert:worlds=1e12': option worlds: expected a number from 0 to 1,000, not 1000000000000.0"),
    ("expert:bid_worlds=1001", "option bid_worlds: expected a number from 0 to 1,000, not 1001"),
    ("ismcts:simulations=1e12", "option simulations: expected a number from 0 to 1,000,000, not 1000000000000.0"),
    ("ismcts:rollouts=100000", "option rollouts: expected a number from 0 to 1,000, not 100000"),
])
def test_a_player_spec_is_checked_before_any_deal(capsys, spec, expected):
    refused(capsys, ["simulate", "--deals", "3", "--players", spec], expected)
    refused(capsys, ["duel", spec, "random", "--deals", "2"], expected)


# -- documents: each a one-line error, exit 2 ---------------------------------------------------------------

RECORD = {"format": "skat-deal/1", "dealer": 0, "declarer": "forehand", "bid": 18, "game": {"type": "clubs"},
          "outcome": {"declarer_points": 70, "matadors": {"with": 1}}}


def _json(doc) -> str:
    return json.dumps(doc)


@pytest.mark.parametrize("name, text, expected", [
    ("plugins.yaml", "plugins: {1: {}}\n", "plugins.yaml: plugins[1]: expected a plugin name, got the number 1"),
    ("bool.yaml", "format: skat-deal/1\nbid: !!bool x\n",
     "bool.yaml: malformed YAML: line 2, column 6: expected a value of tag !!bool, got 'x'"),
    ("hex.yaml", "format: skat-deal/1\ndealer: 0x" + "f" * 4400 + "\n",
     "hex.yaml: malformed YAML: line 2, column 9: a number of 4,402 characters (expected an integer of at most 40)"),
    ("lone.json", _json(RECORD)[:-1] + ', "id": "\\ud800"}',
     "lone.json: id: malformed JSON: a lone surrogate escape such as \\ud800 (expected a character, or a UTF-16 pair)"),
    ("dup.yaml", "format: skat-deal/1\nbid: 18\nbid: 20\n",
     "dup.yaml: malformed YAML: line 3, column 1: duplicate key 'bid' (expected each key once in a mapping)"),
    ("dup.json", '{"format": "skat-deal/1", "bid": 18, "bid": 20}',
     "dup.json: malformed JSON: duplicate key 'bid' (expected each key once in a mapping)"),
    ("ints.yaml", "format: skat-deal/1\n1: a\n0x1: b\n", "ints.yaml: malformed YAML: line 3, column 1: duplicate key '1'"),
])
@pytest.mark.parametrize("command", ["validate", "score"])
def test_documents_refused_in_one_line(tmp_path, capsys, command, name, text, expected):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    if command == "score" and name == "plugins.yaml":
        return  # a ruleset is no deal record
    refused(capsys, [command, str(path)], expected)


@pytest.mark.parametrize("fields", [{"dealer": 1.0}, {"outcome": {"declarer_points": 70, "matadors": {"with": 1.0}}},
                                    {"bid": 18.0}])
def test_whole_decimals_are_integers_as_json_schema_says(tmp_path, capsys, fields):
    """docs/formats.md: 1.0 is read as 1 (JSON Schema's integer), in JSON and YAML alike."""
    want = None
    for suffix, dump in ((".json", json.dumps), (".yaml", lambda d: yaml.safe_dump(d, sort_keys=False))):
        for doc in (RECORD, {**RECORD, **fields}):
            path = tmp_path / f"r{suffix}"
            path.write_text(dump(doc), encoding="utf-8")
            assert main(["score", "--json", str(path)]) == 0
            got = json.loads(capsys.readouterr().out)
            got.pop("id")
            want = want or got
            assert got == want


def test_a_tiny_decimal_is_zero(tmp_path, capsys):
    text = _json({**RECORD, "outcome": {"declarer_points": 0, "declarer_tricks": 7, "matadors": {"with": 1}}})
    path = tmp_path / "t.json"
    path.write_text(text.replace('"declarer_tricks": 7', '"declarer_tricks": 1e-400'), encoding="utf-8")
    assert main(["score", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["score"] < 0  # 0 card points, 0 tricks: schwarz lost


def test_each_json_line_is_judged_alone(tmp_path, capsys):
    good = _json(RECORD)
    path = tmp_path / "three.jsonl"
    path.write_bytes((good + "\n" + good[:-1] + ', "id": "\\ud800"}\n').encode() + b'{"bad": "\xff"}\n'
                     + (good + "\n").encode())
    assert main(["score", "--json", str(path)]) == 2
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 2  # lines 1 and 4 scored
    assert err.splitlines() == [
        f"skat: error: {path}: line 2, id: malformed JSON: a lone surrogate escape such as \\ud800 (expected a "
        "character, or a UTF-16 pair)",
        f"skat: error: {path}: line 3: not UTF-8 text (invalid start byte)"]
    refused(capsys, ["validate", str(path)], "three.jsonl: line 2, id: malformed JSON: a lone surrogate")


def test_validate_reads_json_and_lines_with_their_own_reader(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "skat-deal/1",', encoding="utf-8")
    refused(capsys, ["validate", str(path)], "bad.json: malformed JSON: ")
    lines = tmp_path / "two.jsonl"
    lines.write_text(_json(RECORD) + "\n\n" + _json(RECORD) + "\n", encoding="utf-8")
    assert main(["validate", str(lines)]) == 0
    assert capsys.readouterr().out == f"{lines}: 2 valid deal records\n"


def test_an_extends_chain_is_bounded(tmp_path, capsys):
    for i in range(1000):
        parent = f"r{i + 1}.yaml" if i < 999 else "official"
        (tmp_path / f"r{i}.yaml").write_text(f"extends: {parent}\nplugins: {{}}\n", encoding="utf-8")
    refused(capsys, ["validate", str(tmp_path / "r0.yaml")],
            "r19.yaml: extends: extends chain longer than 20 rulesets (expected at most 20)")
    assert main(["validate", str(tmp_path / "r981.yaml")]) == 0


# -- bombs: refused before the memory is spent ----------------------------------------------------------------


def _peak(fn) -> int:
    tracemalloc.start()
    try:
        fn()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


@pytest.mark.parametrize("suffix", [".json", ".yaml", ".jsonl", ".sgf"])
def test_a_file_over_the_size_limit_is_refused_unread(tmp_path, capsys, suffix):
    """A 200 MB list of 40 million items: refused by its size (a sparse file: no disk spent), nothing read."""
    path = tmp_path / f"big{suffix}"
    with open(path, "wb") as f:
        f.write(b"[0" + b",0" * 1000)
        f.truncate(200_000_000)
    peak = _peak(lambda: refused(capsys, ["score", str(path)], "larger than 8,388,608 bytes"))
    assert peak < 20_000_000  # a line is read a bounded piece at a time
    if suffix in (".json", ".yaml"):
        assert _peak(lambda: refused(capsys, ["validate", str(path)], "larger than 8,388,608 bytes")) < 1_000_000


@pytest.mark.parametrize("text", ["[" + "0," * 150_000 + "0]", "- []\n" * 150_000, "[" + "{}," * 150_000 + "{}]"])
@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_a_document_of_too_many_items_is_refused_before_it_is_built(tmp_path, capsys, text, suffix):
    if suffix == ".json" and text.startswith("-"):
        return
    path = tmp_path / f"many{suffix}"
    path.write_text(text, encoding="utf-8")
    peak = _peak(lambda: refused(capsys, ["score", str(path)], "more than 100,000 items"))
    assert peak < 30_000_000  # building them would take 50-150 MB


def test_the_limits_are_configurable(tmp_path, capsys, monkeypatch):
    path = tmp_path / "r.json"
    path.write_text(_json(RECORD), encoding="utf-8")
    monkeypatch.setenv("SKAT_MAX_DOCUMENT_BYTES", "100")
    refused(capsys, ["score", str(path)], "r.json: larger than 100 bytes (expected a document within SKAT_MAX_DOCUMENT_BYTES)")
    monkeypatch.setenv("SKAT_MAX_DOCUMENT_BYTES", "lots")
    refused(capsys, ["score", str(path)], "SKAT_MAX_DOCUMENT_BYTES: expected a whole number >= 1, got 'lots'")
    monkeypatch.delenv("SKAT_MAX_DOCUMENT_BYTES")
    monkeypatch.setenv("SKAT_MAX_DOCUMENT_ITEMS", "1000")
    big = tmp_path / "big.json"
    big.write_text(_json({**RECORD, "id": "x" * 70_000, "play": ["CJ"] * 2000}), encoding="utf-8")
    refused(capsys, ["score", str(big)], "big.json: more than 1,000 items")


@pytest.mark.parametrize("table", ["skat_en_deux", "piloten_skat", "oma_skat", "strohmann"])
@pytest.mark.parametrize("command", [["simulate", "--deals", "60", "--seed", "3", "--ruleset", "F"],
                                     ["compare", "official", "F", "--deals", "60", "--seed", "3"]])
def test_a_straw_man_in_a_ramsch_nobody_can_play_is_the_ruleset_s_error(tmp_path, capsys, table, command):
    """pub (a Schieberamsch when all pass) with a two-player table: the straw man had no player in the Ramsch,
    and skat simulate stopped at the first all-pass deal with TypeError (exit 1)."""
    f = tmp_path / "two.yaml"
    f.write_text(f"name: two\nextends: pub\nplugins:\n  {table}: {{}}\n", encoding="utf-8")
    refused(capsys, [str(f) if a == "F" else a for a in command], "ruleset 'two': middlehand has a choice to make",
            "nobody can play its cards")


@pytest.mark.parametrize("table", ["skat_en_deux", "strohmann"])
def test_validate_plays_a_ruleset_before_it_calls_it_valid(tmp_path, capsys, table):
    """Each plugin alone compiles; a deal where all pass reaches the straw man nobody plays (skat validate said
    "valid", skat simulate then refused it)."""
    f = tmp_path / "two.yaml"
    f.write_text(f"name: two\nextends: pub\nplugins:\n  {table}: {{}}\n", encoding="utf-8")
    refused(capsys, ["validate", str(f)], "two.yaml: ruleset 'two': middlehand has a choice to make",
            "nobody can play its cards")
    f.write_text(f"name: two\nextends: official\nplugins:\n  {table}: {{}}\n", encoding="utf-8")  # all pass: thrown in
    assert main(["validate", str(f)]) == 0
    assert capsys.readouterr().out.strip() == f"{f}: valid ruleset 'two' (2 plugins, 6 contracts)"


@pytest.mark.parametrize("mode", [[], ["--games", str(Path(__file__).parents[1] / "data/iss/heldout.sgf")]])
def test_two_rulesets_of_one_name_are_refused_by_compare(tmp_path, capsys, mode):
    """A house file that says ``name: texas``: the table, the JSON's intervals (keyed by name: one ruleset's were
    lost), the report and every per-deal row named both 'texas'."""
    f = tmp_path / "house.yaml"
    f.write_text("name: texas\nextends: texas\nplugins:\n  official: {grand_base: 20}\n", encoding="utf-8")
    refused(capsys, ["compare", "texas", str(f), "--deals", "2", "--players", "random", *mode],
            f"texas and {f} are both named 'texas': expected each ruleset under a name of its own")
    f = tmp_path / "ours.yaml"  # (rulesets are cached by their file)
    f.write_text("name: house\nextends: texas\nplugins:\n  official: {grand_base: 20}\n", encoding="utf-8")
    assert main(["compare", "texas", str(f), "--deals", "2", "--players", "random", "--json", *mode]) == 0
    assert set(json.loads(capsys.readouterr().out)["intervals"]) == {"texas", "house"}
