"""Bad session files (skat-session/1): one line on stderr naming the file, the
path inside it (``deals[3].game.type``) and what was expected; exit status 2;
nothing on stdout."""

from __future__ import annotations

import json

import pytest
import yaml
from rules_by_hand import replace_keys

from skatcore.cli.main import main


@pytest.fixture(autouse=True)
def trust_tmp_path(tmp_path, monkeypatch):
    """The house rules these tests write into tmp_path are trusted code (SKAT_TRUSTED_PATHS)."""
    monkeypatch.setenv("SKAT_TRUSTED_PATHS", str(tmp_path))

CLUBS = {"declarer": "forehand", "bid": 18, "game": {"type": "clubs"}, "outcome": {"declarer_points": 75, "matadors": {"with": 1}}}
SPLIT = {"declarer": "forehand", "bid": 18, "game": {"type": "clubs"}, "outcome": {"declarer_points": 60, "matadors": {"with": 1}}}


def session(**changes) -> dict:
    return replace_keys({"format": "skat-session/1", "ruleset": "official", "players": ["A", "B", "C"], "deals": [CLUBS, CLUBS]},
                        changes)


CASES = [
    ("not a mapping", "- a\n- b\n", "expected a mapping (a skat-session/1 record)"),
    ("malformed YAML", "format: skat-session/1\nplayers: [A, B\n", "malformed YAML: line"),
    ("no format", session(format=None), "format: expected 'skat-session/1', missing"),
    ("a deal record", session(format="skat-deal/1"), "format: expected 'skat-session/1', got 'skat-deal/1'"),
    ("two players", session(players=["A", "B"]), "players: a table has 3 or 4 players, not 2"),
    ("five players", session(players=list("ABCDE")), "players: expected at most 4 items, got 5"),
    ("no players", session(players=None), "missing key 'players' (required)"),
    ("a name twice", session(players=["A", "B", "A"]), "players: player 'A' is named twice"),
    ("dealer out of range", session(dealer=3), "dealer: expected a player index 0..2, got 3"),
    ("stake as text", session(stake="five"), "stake: expected a number >= 0, got \"five\""),
    ("negative stake", session(stake=-1), "stake: expected a number >= 0, got -1"),
    ("unknown key", session(deal=[]), "deal: unknown key 'deal'"),
    ("deals not a list", session(deals={"a": 1}), "deals: expected a list"),
    ("a deal not a mapping", session(deals=[CLUBS, "clubs"]), "deals[1]: expected a mapping, got \"clubs\""),
    ("unknown contract", session(deals=[CLUBS, {**CLUBS, "game": {"type": "clover"}}]),
     "deals[1].game.type: contract 'clover' does not exist"),
    ("bad deal key", session(deals=[{**CLUBS, "outcome": {"declarer_points": 75, "matadors": {"with": 1}, "pts": 3}}]),
     "deals[0].outcome.pts: unknown key 'pts'"),
    ("illegal card", session(deals=[{"hands": {"forehand": ["CJ"] * 10, "middlehand": ["SJ"] * 10, "rearhand": ["HJ"] * 10},
                                      "skat": ["DJ", "CA"], "declarer": "forehand", "bid": 18, "game": {"type": "clubs"}}]),
     "deals[0].hands.forehand[1]: CJ is dealt twice"),
    ("dealer contradicts the rotation", session(deals=[CLUBS, {**CLUBS, "dealer": 0}]),
     "deals[1].dealer: expected 1 (B deals) as in the session, got 0"),
    ("void not a boolean", session(deals=[{**CLUBS, "void": "yes"}]), "deals[0].void: expected true or false, got \"yes\""),
    ("unknown history action", session(deals=[{**CLUBS, "history": [{"action": "deleted"}]}]),
     "deals[0].history[0].action: expected one of"),
    ("after a void: neither the same nor the next dealer", session(deals=[CLUBS, {**CLUBS, "void": True}, {**CLUBS, "dealer": 0}]),
     "deals[2].dealer: expected 1 (B deals) as in the session, got 0"),
    ("players contradict the session", session(deals=[{**CLUBS, "players": ["A", "C", "B"]}]),
     "deals[0].players: expected A, B, C as in the session"),
    ("another ruleset", session(deals=[{**CLUBS, "ruleset": "texas"}]),
     "deals[0].ruleset: the session is played under 'official', not 'texas'"),
    ("unknown ruleset", session(ruleset="nosuch"), "ruleset: unknown ruleset 'nosuch'"),
    ("a Ramsch round needs a Ramsch", session(ruleset="pub", deals=[SPLIT, CLUBS, CLUBS, CLUBS, CLUBS]),
     "deals[4].declarer: Ramsch round 1 (deal 1 of 3): there is no bidding, every deal is a Ramsch"),
    ("a Ramsch round has no bidding", session(ruleset="pub", deals=[SPLIT, CLUBS, CLUBS, CLUBS, {**CLUBS, "declarer": "middlehand", "bidding": [18, "pass", "pass"]}]),
     "deals[4].bidding: Ramsch round 1 (deal 1 of 3): there is no bidding"),
    ("a tournament series is 36 deals", session(ruleset="tournament", deals=[CLUBS] * 37),
     "deals[36]: a series at a 3-table has 36 deals: this is deal 37"),
    ("Kontra without the plugin", session(deals=[{**CLUBS, "game": {"type": "clubs", "declarations": {"kontra": True}}}]),
     "deals[0].game.declarations.kontra: unknown declaration 'kontra'"),
]


@pytest.mark.parametrize(("doc", "message"), [pytest.param(d, m, id=name) for name, d, m in CASES])
def test_bad_session_file(tmp_path, capsys, doc, message):
    path = tmp_path / "evening.yaml"
    path.write_text(doc if isinstance(doc, str) else yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    rc = main(["sheet", str(path)])
    out, err = capsys.readouterr()
    assert rc == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(f"skat: error: {path}: "), err
    assert message in err, err


def test_bad_json_session(tmp_path, capsys):
    path = tmp_path / "evening.json"
    path.write_text('{"format": "skat-session/1", "players": ["A", "B", "C"],', encoding="utf-8")
    assert main(["sheet", "--json", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "malformed JSON" in err


def test_ramsch_rounds_need_a_ramsch_ruleset(tmp_path, capsys):
    rs = tmp_path / "house.yaml"
    rs.write_text("name: house\nextends: official\nplugins:\n  bock: {ramsch_after: 1}\n", encoding="utf-8")
    path = tmp_path / "evening.json"
    path.write_text(json.dumps(session(ruleset="house.yaml")), encoding="utf-8")
    assert main(["sheet", str(path)]) == 2
    _out, err = capsys.readouterr()
    assert "Ramsch rounds need a Ramsch when all pass, but ruleset 'house' throws in" in err and err.count("\n") == 1


# -- a ruleset with a series (hook skat_series): the session ends it, and each
#    player declares each family of `once_each` once per series

SERIES_PLUGIN = '''
from skatcore.hookspecs import hookimpl
from skatcore.model import Series


class Plugin:
    @hookimpl
    def skat_series(self, players):
        return Series(deals=2 * players, once_each=("grand", "null"))
'''


def grand(seat):
    return {"declarer": seat, "bid": 18, "game": {"type": "grand"}, "outcome": {"declarer_points": 70, "matadors": {"with": 1}}}


def null(seat):
    return {"declarer": seat, "bid": 23, "game": {"type": "null"}, "outcome": {"declarer_tricks": 0}}


def series_session(tmp_path, deals):
    (tmp_path / "house.py").write_text(SERIES_PLUGIN, encoding="utf-8")
    (tmp_path / "series.yaml").write_text("name: series\nextends: official\nplugins:\n  ./house.py: {}\n", encoding="utf-8")
    path = tmp_path / "evening.yaml"
    path.write_text(yaml.safe_dump(session(ruleset="series.yaml", deals=deals)), encoding="utf-8")
    return path


def test_a_series_ends_the_sheet(tmp_path, capsys):
    # A deals: B forehand, C middlehand, A rearhand; the deal passes on
    deals = [grand("rearhand"), grand("rearhand"), grand("rearhand"), null("forehand"), null("forehand"), null("forehand")]
    path = series_session(tmp_path, deals)
    assert main(["sheet", "--json", str(path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["closed"] == "the series is over after 6 deals"
    assert doc["totals"] == {"A": 48 + 23, "B": 48 + 23, "C": 48 + 23}
    path = series_session(tmp_path, [*deals, grand("forehand")])
    assert main(["sheet", str(path)]) == 2
    assert "deals[6]: no more deals: the series is over after 6 deals" in capsys.readouterr().err


def test_a_family_once_per_player_and_series(tmp_path, capsys):
    # deal 1: A (rearhand) grand; deal 4: A deals again, rearhand is A: a second grand
    path = series_session(tmp_path, [grand("rearhand"), null("forehand"), null("forehand"), grand("rearhand")])
    assert main(["sheet", str(path)]) == 2
    err = capsys.readouterr().err
    assert "deals[3].game.type: A has declared a grand game already in this series (once each: grand, null)" in err
