"""No raw control character reaches the terminal (issue 25, item 4): every
string from a file, a name or an argument is escaped (``\\x1b``, ``\\u202e``)
by :func:`skatcore.errors.printable`, and JSON and YAML output escape the
same characters inside their strings (``json_text``, ``yaml_text``).

One test per place found printing raw, then a hypothesis test that puts
every kind of control, bidi and separator character into a record's id and
players, a ruleset's description and plugin parameters, a local plugin's
file name, a file name and a player spec, and runs the commands on them.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import types
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from skatcore.bots.random import RandomPlayer
from skatcore.cli.main import main
from skatcore.errors import json_text, printable, yaml_text

# what the terminal must never get raw (its own list, not skatcore's): C0 but \n, DEL, C1, bidi marks,
# embeddings, overrides and isolates, the line and paragraph separators, lone surrogates
DANGER = ([chr(c) for c in range(0x20) if c != 0x0A] + [chr(c) for c in range(0x7F, 0xA0)]
          + ["\u061c", "\u200e", "\u200f", "\u2028", "\u2029"] + [chr(c) for c in range(0x202A, 0x202F)]
          + [chr(c) for c in range(0x2066, 0x206A)])
RAW = re.compile("[" + "".join(DANGER) + "\ud800-\udfff]")
HOSTILE = "X\x1b[2J\u202e\x9b\u2028\u2029\x85\x0b\x0c\x1c\u2066\u200eY"
LOCAL = ("from skatcore.hookspecs import hookimpl\n\n\nclass P:\n"
         "    params_schema = {'type': 'object', 'properties': {'note': {'type': 'string'}}}\n\n"
         "    def __init__(self, note=''):\n        self.note = note\n\n"
         "    @hookimpl\n    def skat_register_declarations(self):\n        return {}\n")
# danish-aarhus B11: hearts with music (Spitze), the last trick won with H7: the label is in the explanation
MUSIC = {"format": "skat-deal/1", "ruleset": "house.yaml",
         "hands": {"forehand": ["HJ", "DJ", "HA", "HT", "HK", "HQ", "H9", "H8", "H7", "CA"],
                   "middlehand": ["CJ", "SJ", "CT", "CK", "CQ", "C9", "C8", "C7", "SA", "ST"],
                   "rearhand": ["SK", "SQ", "S9", "S8", "DA", "DT", "DK", "DQ", "D9", "D8"]},
         "skat": ["S7", "D7"], "declarer": "forehand", "bid": 18,
         "game": {"type": "hearts", "discard": ["S7", "D7"], "declarations": {"spitze": True}},
         "play": ["HK", "CJ", "DA", "C8", "DK", "CA", "DJ", "SJ", "DT", "C9", "S8", "HA", "HJ", "SA", "DQ", "HT", "CT", "SK", "HQ", "CK", "SQ", "H8", "ST", "D8", "H9", "CQ", "D9", "H7", "C7", "S9"]}


def clean(text: str) -> None:
    """No raw control character, and no line break but ``\\n`` (str.splitlines agrees)."""
    assert not RAW.search(text), sorted({hex(ord(c)) for c in RAW.findall(text)})
    assert "".join(text.splitlines()) == text.replace("\n", "")


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    clean(out)
    clean(err)
    assert rc in (0, 2) and err.count("\n") <= 1, (argv, rc, err)
    return rc, out, err


def files(folder: Path, text: str, name: str | None = None) -> dict[str, str]:
    """A ruleset (description, spitze.label), a local-plugin ruleset (its file name, a string
    parameter) and a deal record (id, players) holding ``text``; the record file named ``name``."""
    (folder / "house.yaml").write_text(yaml.safe_dump(
        {"name": "house", "description": f"d{text}", "extends": "danish-aarhus",
         "plugins": {"spitze": {"label": f"m{text}"}}}, allow_unicode=True), "utf-8")
    plugin = f"p{text}.py" if name else "p.py"
    (folder / plugin).write_text(LOCAL, "utf-8")
    (folder / "local.yaml").write_text(yaml.safe_dump(
        {"name": "local", "extends": "official", "plugins": {f"./{plugin}:P": {"note": f"n{text}"}}},
        allow_unicode=True), "utf-8")
    record = folder / (name or "deal.yaml")
    record.write_text(yaml.safe_dump({**MUSIC, "id": f"i{text}", "players": [f"A{text}", "B", "C"]},
                                     allow_unicode=True), "utf-8")
    return {"house": str(folder / "house.yaml"), "local": str(folder / "local.yaml"), "record": str(record)}


@pytest.fixture
def bot(monkeypatch):
    """``bot<text>:Bot`` names a player (a module put in place, so any name imports)."""
    def named(text: str) -> str:
        monkeypatch.setitem(sys.modules, f"bot{text}", types.SimpleNamespace(Bot=RandomPlayer))
        return f"bot{text}:Bot"
    return named


# ---------------------------------------------------------------------------
# the helpers


def test_printable_escapes_every_kind_and_keeps_ordinary_text():
    for ch in [*DANGER, "\ud800"]:
        assert not RAW.search(printable(f"a{ch}b")) and len(printable(f"a{ch}b").splitlines()) == 1, hex(ord(ch))
    assert printable("Anna ä € 😀 [x] \\n") == "Anna ä € 😀 [x] \\n"
    assert printable("a\u202eb\u2028c\x85") == "a\\u202eb\\u2028c\\x85"


def test_json_and_yaml_text_escape_inside_strings_and_read_back():
    doc = {f"k{HOSTILE}": [HOSTILE, "ä€😀", 1.5, None]}
    for text, back in ((json_text(doc), json.loads), (json_text(doc, indent=2), json.loads), (yaml_text(doc), yaml.safe_load)):
        clean(text)
        assert back(text) == doc
    assert json_text({"a": "ä\u202e"}) == '{"a": "ä\\u202e"}'  # UTF-8 stays as it is
    assert yaml_text({"a": ["ä"]}) == "a: [ä]\n" and yaml_text({"a": "x\ny"}) == 'a: "x\\ny"\n'  # a line break of the data stays escaped


# ---------------------------------------------------------------------------
# one test per finding


def test_solve_escapes_the_record_id(tmp_path, capsys):
    f = files(tmp_path, HOSTILE)
    assert "iX\\x1b[2J\\u202e\\x9b\\u2028" in run(capsys, "solve", f["record"])[1]
    out = run(capsys, "solve", "--json", f["record"])[1]
    assert '"iX\\u001b[2J\\u202e\\u009b\\u2028' in out and json.loads(out)["id"] == f"i{HOSTILE}"


def test_validate_escapes_the_file_name(tmp_path, capsys):
    f = files(tmp_path, "", name=f"r{HOSTILE}.yaml")
    assert "rX\\x1b[2J\\u202e" in run(capsys, "validate", f["record"])[1]


def test_duel_escapes_the_player_spec(capsys, bot):
    spec = bot(HOSTILE)
    out = run(capsys, "duel", spec, "random", "--deals", 1, "--seed", 1, "--trust")[1]
    assert out.startswith("botX\\x1b[2J\\u202e") and "A = botX\\x1b" in out
    out = run(capsys, "duel", spec, "random", "--deals", 1, "--seed", 1, "--trust", "--json")[1]
    assert json.loads(out)["players"][0] == spec


def test_rules_and_compare_escape_plugin_parameters(tmp_path, capsys):
    f = files(tmp_path, HOSTILE)
    out = run(capsys, "rules", f["house"])[1]
    assert "dX\\x1b[2J" in out and "label                  mX\\x1b[2J\\u202e" in out
    assert "spitze.label: music -> mX\\x1b[2J\\u202e" in out  # the differences from the parent
    out = run(capsys, "compare", "danish-aarhus", f["house"], "--deals", 2, "--seed", 1)[1]
    assert "mX\\x1b[2J\\u202e" in out


def test_explanation_lines_from_plugin_labels_are_escaped(tmp_path, capsys):
    f = files(tmp_path, HOSTILE)
    assert "game 3, mX\\x1b[2J\\u202e" in run(capsys, "score", f["record"])[1]
    assert "game 3, mX\\x1b[2J\\u202e" in run(capsys, "compare", "danish-aarhus", f["house"], "--deal", f["record"])[1]


def test_local_plugin_file_names_are_escaped(tmp_path, capsys):
    f = files(tmp_path, HOSTILE, name="deal.yaml")
    assert "./pX\\x1b[2J\\u202e" in run(capsys, "rules", "--trust", f["local"])[1]
    assert "./pX\\x1b[2J\\u202e" in run(capsys, "plugins", "--ruleset", f["local"], "--trust")[1]


def test_json_and_yaml_output_escape_bidi_and_c1(tmp_path, capsys):
    f = files(tmp_path, HOSTILE)
    out = run(capsys, "score", "--json", f["record"])[1]
    assert "\\u202e\\u009b" in out and json.loads(out)["id"] == f"i{HOSTILE}"
    sheet = tmp_path / "s.sqlite"
    run(capsys, "sheet", "new", sheet, "--ruleset", "official", "--players", f"A{HOSTILE},B,C")
    assert "\\u202e\\u009b" in run(capsys, "sheet", "export", sheet, "--json")[1]
    out = run(capsys, "sheet", "export", sheet)[1]
    assert yaml.safe_load(out)["players"][0] == f"A{HOSTILE}"


def test_error_lines_hold_no_line_separator(tmp_path, capsys):
    rc, _, err = run(capsys, "score", tmp_path / "no\u2028such\u2029file.yaml")
    assert rc == 2 and "no\\u2028such\\u2029file" in err
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump({**MUSIC, "bid": f"x{HOSTILE}"}), "utf-8")
    assert run(capsys, "score", tmp_path / "bad.yaml")[0] == 2


def test_warnings_are_escaped(tmp_path, capsys):
    (tmp_path / f"p{HOSTILE}.py").write_text("class P:\n    pass\n", "utf-8")  # no hook: a warning names it
    (tmp_path / "l.yaml").write_text(yaml.safe_dump({"name": "l", "extends": "official",
                                                     "plugins": {f"./p{HOSTILE}.py:P": {}}}), "utf-8")
    assert "implements no hook" in run(capsys, "rules", "--trust", tmp_path / "l.yaml")[2]


def test_the_html_report_escapes_names_for_the_page(tmp_path, capsys):
    f = files(tmp_path, f"<b>{HOSTILE}")
    report = tmp_path / "r.html"
    run(capsys, "compare", "danish-aarhus", f["house"], "--deals", 2, "--seed", 1, "--html", report)
    page = report.read_text("utf-8")
    assert not RAW.search(page) and "m&lt;b&gt;X\\x1b[2J\\u202e" in page


# ---------------------------------------------------------------------------
# generated: every kind of character in every place

SAFE = list("aZ0 ä€😀[]'\"\\")
text = st.text(st.sampled_from(DANGER) | st.sampled_from(SAFE), min_size=1, max_size=10)
in_names = text.map(lambda t: t.replace("\x00", "")).filter(bool)  # a file name holds no NUL ("/" is not in SAFE)


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(value=text, name=in_names, spec=in_names.filter(lambda t: not {",", ":", "."} & set(t)))
@example(value="".join(DANGER), name="".join(DANGER[1:]), spec="".join(DANGER[1:]))  # every kind at once
def test_generated_strings_never_reach_the_terminal_raw(capsys, bot, value, name, spec):
    with tempfile.TemporaryDirectory() as folder:
        d = Path(folder)
        f = files(d, value)
        (d / "named").mkdir()
        named = files(d / "named", name, name=f"r{name}.yaml")
        player = bot(spec)
        sheet = d / "s.sqlite"
        for argv in (["score", f["record"]], ["score", "--json", f["record"]], ["validate", named["record"]],
                     ["validate", f["house"]], ["solve", f["record"]], ["solve", "--json", named["record"]],
                     ["rules", f["house"]], ["rules", "--trust", named["local"]],
                     ["plugins", "--ruleset", named["local"], "--trust"],
                     ["plugins", "--ruleset", f["local"], "--json", "--trust"],
                     ["compare", "danish-aarhus", f["house"], "--deal", f["record"]],
                     ["compare", "danish-aarhus", f["house"], "--deal", f["record"], "--json"],
                     ["duel", player, "random", "--deals", "1", "--seed", "1", "--trust"],
                     ["duel", player, "random", "--deals", "1", "--seed", "1", "--trust", "--json"],
                     ["sheet", "new", sheet, "--ruleset", f["house"], "--players", f"A{spec},B,C"],
                     ["sheet", "show", sheet], ["sheet", "export", sheet]):
            run(capsys, *argv)
