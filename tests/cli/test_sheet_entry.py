"""The deal entered from plain fields (skatcore/records/sheet_entry.py), as
the web app's form sends them (text) and the CLI's options give them (typed):
the same record, and refusals that name the fields."""

from __future__ import annotations

import json

import pytest

from skatcore.errors import InputError
from skatcore.records.session import Session, rules_for_session
from skatcore.records.sheet_entry import add_entry, deal_from_fields, flag


def session(ruleset="official", players=("Anna", "Bernd", "Clara")) -> Session:
    return Session(rules_for_session({"ruleset": ruleset}), players)


def test_form_text_and_typed_values_give_the_same_record():
    form = {"declarer": "Bernd", "bid": "18", "game": "clubs", "hand": "", "points": "74", "matadors": "with1",
            "call": "", "ramsch": ""}
    typed = {"declarer": "Bernd", "bid": 18, "game": "clubs", "hand": False, "points": 74, "matadors": "with1", "call": []}
    expected = {"declarer": "Bernd", "bid": 18, "game": {"type": "clubs"},
                "outcome": {"declarer_points": 74, "matadors": {"with": 1}}}
    assert deal_from_fields(form) == deal_from_fields(typed) == expected


def test_entered_on_a_session_with_names_resolved():
    # Anna deals at a 3-table: Bernd is forehand; with 1, game 2; 2 x 12 = 24
    deal, line = add_entry(session(), deal_from_fields({"declarer": "Bernd", "bid": "18", "game": "clubs",
                                                        "points": "74", "matadors": "with1"}))
    assert deal["declarer"] == "forehand"
    assert line.entries == {"Anna": 0, "Bernd": 24, "Clara": 0}


@pytest.mark.parametrize(("fields", "path", "message"), [
    ({"declarer": "Bernd", "game": "clubs"}, "bid", "give bid"),
    ({"declarer": "Bernd", "bid": "eighteen", "game": "clubs"}, "bid", "expected a whole number, got 'eighteen'"),
    ({"declarer": "Bernd", "bid": "18", "game": "clubs", "hand": "perhaps"}, "hand", "expected yes or no"),
    ({"colour": "red"}, "colour", "unknown field 'colour'"),
    ({"ramsch": "30,40", "ramsch_tricks": "2,3,5"}, "ramsch", "expected three numbers F,M,R, got '30,40'"),
    ({"declarer": "Bernd", "bid": "18", "game": "clubs", "points": "70", "matadors": "many"}, "matadors",
     "expected with2, without3"),
    ({"declarer": "x" * 201}, "declarer", "expected at most 200 characters"),
])
def test_a_bad_field_is_named(fields, path, message):
    with pytest.raises(InputError) as e:
        deal_from_fields(fields)
    assert e.value.path == path and message in e.value.message, str(e.value)


def test_a_refusal_of_the_rules_names_the_fields_in_the_callers_words():
    fields = {"declarer": "Bernd", "bid": "18", "game": "clubs", "points": "70"}
    for name, said in ((str, "matadors"), (flag, "--matadors")):
        with pytest.raises(InputError) as e:
            add_entry(session(), deal_from_fields(fields, name=name), fields, name=name)
        assert e.value.path == said and f"give {said} (with2, without3 ...)" in e.value.message, str(e.value)
        assert "outcome" not in str(e.value)


def test_ouvert_is_entered_as_the_hand_game_it_is_and_shown(capsys, tmp_path):
    """F3: a suit or grand ouvert is always a hand game with schwarz announced
    (docs/rules/official.md#a5): ``--ouvert`` without ``--hand`` enters it so
    and says so; the sheet and its JSON keep ouvert, hand and announcements."""
    from skatcore.cli.main import main
    path = str(tmp_path / "t.sqlite")
    assert main(["sheet", "new", path, "--ruleset", "official", "--players", "A,B,C"]) == 0
    capsys.readouterr()
    deals = [["--game", "clubs", "--ouvert", "--points", "120", "--tricks", "10", "--matadors", "with1"],
             ["--game", "null", "--ouvert", "--tricks", "0"],
             ["--game", "spades", "--hand", "--schneider", "--points", "95", "--matadors", "with2"]]
    for deal in deals:
        assert main(["sheet", "add", path, "--declarer", "forehand", "--bid", "18", *deal]) == 0
    out = capsys.readouterr().out.splitlines()
    # clubs with 1: game 2, hand 3, schneider 4, announced 5, schwarz 6, announced 7, ouvert 8; 8 x 12 = 96
    assert out[0].startswith("deal 1: clubs ouvert hand: with 1, game 2, hand 3, ") and out[0].endswith("= 96: won +96")
    assert out[3] == "deal 2: null ouvert: null ouvert 46: won +46"
    # spades with 2: game 3, hand 4, schneider 5, schneider announced 6; 6 x 11 = 66
    assert out[6].startswith("deal 3: spades hand schneider announced: with 2") and out[6].endswith("won +66")
    assert main(["sheet", "show", path]) == 0
    sheet = capsys.readouterr().out
    for game in ("clubs ouvert hand won", "null ouvert won", "spades hand schneider announced won"):
        assert f"  {game}  " in sheet, sheet
    assert main(["sheet", "show", path, "--json"]) == 0
    lines = json.loads(capsys.readouterr().out)["deals"]
    assert [(x["game"], x["hand"], x["ouvert"], x["announced"], x["label"]) for x in lines] == [
        ("clubs", True, True, ["schneider", "schwarz"], "clubs ouvert hand"),
        ("null", False, True, [], "null ouvert"),
        ("spades", True, False, ["schneider"], "spades hand schneider announced")]


@pytest.mark.parametrize(("typed", "game", "matadors"), [
    ({"game": "Kreuz", "matadors": "mit 1"}, {"type": "clubs"}, {"with": 1}),
    ({"game": "PIK", "matadors": "Ohne 2"}, {"type": "spades"}, {"without": 2}),
    ({"game": "herz", "matadors": "mit2"}, {"type": "hearts"}, {"with": 2}),
    ({"game": "Karo", "matadors": "with 1"}, {"type": "diamonds"}, {"with": 1}),
    ({"game": "Eichel"}, {"type": "clubs"}, None),
    ({"game": "Grün"}, {"type": "spades"}, None),
    ({"game": "Rot"}, {"type": "hearts"}, None),
    ({"game": "Schellen"}, {"type": "diamonds"}, None),
    ({"game": "Clubs"}, {"type": "clubs"}, None),
    ({"game": "Grand Hand"}, {"type": "grand", "hand": True}, None),
    ({"game": "Kreuz Hand Schneider angesagt"}, {"type": "clubs", "hand": True, "schneider": True}, None),
    ({"game": "Null ouvert"}, {"type": "null", "ouvert": True}, None),
    ({"game": "null offen", "hand": "on"}, {"type": "null", "hand": True, "ouvert": True}, None),
])
def test_german_and_english_names_in_any_case(typed, game, matadors):
    """F4: what a German table types (docs/session-format.md)."""
    deal = deal_from_fields({"declarer": "Bernd", "bid": "18", **typed})
    assert deal["game"] == game
    assert deal.get("outcome", {}).get("matadors") == matadors


def test_names_and_seats_in_any_case_and_german_seats():
    # Anna deals: Bernd forehand, Clara middlehand, Anna rearhand; Kontra said: with 1, game 2 x 12 = 24, Kontra doubles: 48 (pub)
    for who in ("bernd", "BERND", "Vorhand", "Forehand"):
        deal, line = add_entry(session("pub"), deal_from_fields({"declarer": who, "bid": "18", "game": "Kreuz",
                                                                 "points": "74", "matadors": "mit 1", "call": "Kontra"}))
        assert deal["declarer"] == "forehand" and line.entries["Bernd"] == 48, who


def test_a_german_sheet_from_the_command_line(capsys, tmp_path):
    from skatcore.cli.main import main
    path = str(tmp_path / "t.sqlite")
    assert main(["sheet", "new", path, "--ruleset", "pub", "--players", "Anna,Bernd,Clara"]) == 0
    assert main(["sheet", "add", path, "--declarer", "bernd", "--bid", "18", "--game", "Kreuz", "--points", "74",
                 "--matadors", "mit 1"]) == 0
    assert capsys.readouterr().out.splitlines()[-3] == "deal 1: with 1, game 2; 2 x clubs 12 = 24: won +24"
    assert main(["sheet", "add", path, "--declarer", "Anna", "--bid", "18", "--game", "Kreuz Blatt"]) == 2
    assert capsys.readouterr().err.strip() == ("skat: error: --game: expected a game and hand, ouvert, schneider "
                                               "or schwarz, got 'blatt'")
