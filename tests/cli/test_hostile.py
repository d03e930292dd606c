"""Hostile input, every format and command (issue 25): generated documents
carrying what broke us once - numbers as keys, YAML tags, huge numbers,
lone surrogates, whole-number floats, duplicate keys, control and bidi
characters, paths out of the folder - must give exit 0 or 2, at most one
line on stderr, no raw control character in any output, and read no file
outside the input's folder (and Python's and skatcore's own).

Seeded and bounded (a few thousand inputs across the formats and commands,
well under a minute): ``SKAT_HOSTILE_EXAMPLES=20000`` hunts longer.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import skatcore
from skatcore.cli.main import main

#: what may never reach a terminal raw: C0 (but newline and tab), DEL, C1, bidi overrides and
#: isolates, marks, line and paragraph separators
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")

HOSTILE_STRINGS = ["\x1b[2J", "\x9b31m", "a\u202eb", "x\u2028y", "\u2066i\u2069", "\x85", "\x00", "tab\tx", "ok"]
HOSTILE_SCALARS = [
    "1.0", "1e-400", "-1", "99", "0x" + "f" * 5000, "!!bool x", "!!python/object/apply:os.getpid []", ".nan", ".inf",
    "9" * 5000, "null", "[]", "{}", "'../outside.yaml'", "/etc/passwd", "'\\ud800'", "18", "true",
]

DEAL_YAML = """format: skat-deal/1
ruleset: {ruleset}
players: [{p0}, Bernd, Clara]
dealer: {dealer}
declarer: middlehand
bid: {bid}
game: {{type: {game}}}
outcome: {{declarer_points: {points}, declarer_tricks: 7, matadors: {{with: {mats}}}}}
"""
SESSION_YAML = """format: skat-session/1
ruleset: {ruleset}
players: [{p0}, Bernd, Clara]
deals:
  - {{declarer: forehand, bid: {bid}, game: {{type: {game}}}, outcome: {{declarer_points: {points}, matadors: {{with: {mats}}}}}}}
"""
RULESET_YAML = """name: {p0}
description: {p0}
extends: {ruleset}
plugins:
  {plugin}: {{{param}}}
"""
FIELDS = ("ruleset", "p0", "dealer", "bid", "game", "points", "mats", "plugin", "param")
GOOD = {"ruleset": "official", "p0": "Anna", "dealer": "0", "bid": "18", "game": "clubs", "points": "74", "mats": "1",
        "plugin": "spitze", "param": "label: music"}


def _quoted(s: str) -> str:
    return json.dumps(s)  # a YAML double-quoted scalar (JSON's escapes are YAML's)


ISS = (Path(__file__).parent.parent / "records" / "iss-13577.sgf").read_text("utf-8").strip()


@st.composite
def documents(draw) -> tuple[str, str]:
    """``(suffix, text)``: a deal record, a session record, a ruleset or an ISS game, with some fields hostile."""
    kind = draw(st.sampled_from(["deal", "session", "ruleset", "iss"]))
    if kind == "iss":  # a tag's value hostile: the id, a player, the result, a move
        tag = draw(st.sampled_from(["ID[13577]", "P0[bert]", "R[d:1", "1 18 0", "DT[2008"]))
        hostile = draw(st.sampled_from(HOSTILE_STRINGS + HOSTILE_SCALARS)).replace("]", "")
        return ".sgf", ISS.replace(tag, tag[:3] + hostile + tag[3:] if draw(st.booleans()) else hostile, 1) + "\n"
    fields = dict(GOOD)
    for name in draw(st.lists(st.sampled_from(FIELDS), min_size=1, max_size=3, unique=True)):
        if draw(st.booleans()):
            fields[name] = _quoted(draw(st.sampled_from(HOSTILE_STRINGS)) + draw(st.text(max_size=3)))
        else:
            fields[name] = draw(st.sampled_from(HOSTILE_SCALARS))
    if kind == "ruleset" and fields["plugin"] == GOOD["plugin"] and draw(st.booleans()):
        fields["param"] = f"label: {_quoted(draw(st.sampled_from(HOSTILE_STRINGS)))}"
    text = {"deal": DEAL_YAML, "session": SESSION_YAML, "ruleset": RULESET_YAML}[kind].format(**fields)
    if draw(st.booleans()):  # a key given twice
        text = text.replace("bid: ", "bid: 18\nbid: ", 1) if "bid: " in text else text + "name: twice\n"
    if kind == "deal" and draw(st.booleans()):  # the same record as JSON, and as one line of JSON Lines
        try:
            import yaml

            doc = yaml.safe_load(text)
            as_json = json.dumps(doc, ensure_ascii=False)
        except Exception:
            return ".yaml", text
        if draw(st.booleans()):
            as_json = as_json.replace('"bid": 18', '"bid": 18, "bid": 20').replace('"Anna"', '"\\ud800"')
        return draw(st.sampled_from([".json", ".jsonl"])), as_json + ("\n" if draw(st.booleans()) else "")
    return ".yaml", text


# what finding the installed plugins reads of a distribution installed elsewhere (an editable install)
METADATA = {"METADATA", "PKG-INFO", "entry_points.txt", "top_level.txt", "RECORD", "direct_url.json", "pyproject.toml"}


class Opened:
    """Files opened for reading while armed, outside the allowed roots."""

    def __init__(self):
        self.armed, self.allowed, self.outside = False, (), []
        sys.addaudithook(self)

    def __call__(self, event, args):
        if not self.armed or event != "open" or not isinstance(args[0], (str, Path)):
            return
        path = os.path.realpath(args[0])
        if not path.startswith(self.allowed) and os.path.basename(path) not in METADATA:
            self.outside.append(path)


OPENED = Opened()
ROOTS = tuple({os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, os.path.dirname(os.__file__),
                                            os.path.dirname(skatcore.__file__),
                                            os.path.dirname(os.path.dirname(skatcore.__file__)))})


def commands(f: Path, suffix: str) -> list[list[str]]:
    cmds = [["score", str(f)], ["validate", str(f)]]
    if suffix == ".sgf":
        cmds += [["score", "--json", str(f)], ["solve", str(f)]]
    if suffix == ".yaml":
        cmds += [["sheet", str(f)], ["rules", str(f)], ["compare", "official", "--deal", str(f)]]
    return cmds


_EXAMPLE = iter(range(10 ** 9))


def assert_hostile_ok(capsys, folder: Path, suffix: str, text: str) -> None:
    f = folder / f"input{next(_EXAMPLE)}{suffix}"  # a new name: compiled rulesets are cached by path in a process
    f.write_text(text, encoding="utf-8", errors="surrogatepass")
    for argv in commands(f, suffix):
        OPENED.outside.clear()
        OPENED.allowed = (*ROOTS, os.path.realpath(folder), "/dev/", "/proc/", "/sys/", "/etc/localtime")
        OPENED.armed = True
        try:
            rc = main(argv)
        finally:
            OPENED.armed = False
        out, err = capsys.readouterr()
        assert rc in (0, 2), (argv, text, err)
        assert err.count("\n") <= 1, (argv, text, err)
        for stream in (out, err):
            raw = RAW.search(stream)
            assert raw is None, (argv, text, repr(raw.group()), stream[max(0, raw.start() - 60):raw.end() + 20])
        assert not OPENED.outside, (argv, text, OPENED.outside)


EXAMPLES = int(os.environ.get("SKAT_HOSTILE_EXAMPLES", 0))


@settings(max_examples=EXAMPLES or 1000, deadline=None, derandomize=not EXAMPLES,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(documents())
def test_hostile_documents(tmp_path, capsys, doc):
    suffix, text = doc
    assert_hostile_ok(capsys, tmp_path, suffix, text)


@pytest.mark.parametrize("argv", [
    ["compare", "official", "texas", "--seed", "-1", "--deals", "5"],
    ["duel", "heuristic", "random", "--seed", "-1", "--deals", "2"],
    ["simulate", "--players", "os:getpid", "--deals", "2"],
    ["simulate", "--players", "expert:worlds=nan", "--deals", "2"],
    ["bench", "--seconds", "nan"],
    ["compare", "official", "texas", "--until-ci", "nan", "--deals", "5"],
    ["duel", "heu\x1bristic", "random", "--deals", "2"],
    ["simulate", "--players", "expert:worlds=1\\x1c", "--deals", "1"],
    ["simulate", "--players", "expert:worlds=abc", "--deals", "1"],
    ["simulate", "--players", "expert:worlds=1_0", "--deals", "1"],
    ["simulate", "--players", "expert:worlds=1e999", "--deals", "1"],
    ["simulate", "--players", "expert:worlds=" + "9" * 5000, "--deals", "1"],
    ["simulate", "--players", "random:x=1", "--deals", "1"],
])
def test_hostile_arguments(capsys, argv):
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 2 and err.count("\n") == 1 and not RAW.search(out + err), (argv, err)


def test_an_iss_bid_of_thousands_of_digits(tmp_path, capsys):
    """Found by the hunt: Python refuses to read an int of over 4,300 digits."""
    f = tmp_path / "bid.sgf"
    f.write_text(ISS.replace(" 1 18 0", " 1 1" + "9" * 5000 + " 0") + "\n", encoding="utf-8")
    for argv in (["score", str(f)], ["validate", str(f)], ["solve", str(f)]):
        rc = main(argv)
        _out, err = capsys.readouterr()
        assert rc == 2 and err.count("\n") == 1 and "a bid of 5,001 digits (expected a value of the bid ladder)" in err
