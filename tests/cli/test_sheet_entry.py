"""The deal entered from plain fields (skatcore/records/sheet_entry.py), as
the web app's form sends them (text) and the CLI's options give them (typed):
the same record, and refusals that name the fields."""

from __future__ import annotations

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
