"""The happy path's yes/no schema check (jsonschema-rs) must give
jsonschema's verdict on every document: valid records, and records with one
part replaced, removed or added (hypothesis).  jsonschema then says what is
wrong, so a verdict that differed would let a bad document through silently."""

import copy

import jsonschema
import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatcore.errors import InputError
from skatcore.rules import get_rules
from skatcore.rules.ruleset import _check_of, load_schema, read_yaml, validate

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.sampled_from([1.0, 2.5, -0.0]) |
    st.sampled_from(["", "CJ", "H10", "10♥", "forehand", "rearhand", "skat-deal/1", "clubs", "null", "xxxxx"]),
    lambda inner: st.lists(inner, max_size=12) | st.dictionaries(
        st.sampled_from(["type", "hand", "forehand", "points", "with", "x"]), inner, max_size=4),
    max_leaves=20)

RECORD = read_yaml("examples/overbid-clubs-hand.yaml")
FULL = {**RECORD, "game": {"type": "clubs", "discard": ["SK", "D7"]}, "play": ["SJ", "HJ", "CQ"],
        "players": ["A", "B", "C"], "id": 3, "outcome": {"declarer_points": 70, "matadors": {"with": 2}}}


def paths(doc, here=()):
    yield here
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths(v, (*here, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from paths(v, (*here, i))


def agree(schema, doc):
    assert _check_of(schema)(doc) == jsonschema.Draft202012Validator(schema).is_valid(doc), doc


@pytest.mark.parametrize("name", ["deal.schema.json", "session.schema.json", "ruleset.schema.json", "score.schema.json"])
def test_every_shipped_schema_compiles(name):
    assert jsonschema_rs.validator_for(load_schema(name), validate_formats=False, offline=True).is_valid(None) is False


def test_a_mapping_with_integer_keys_is_judged_by_jsonschema():
    """jsonschema-rs takes only text keys; YAML may give integers: no crash, jsonschema's verdict and message."""
    schema = {"type": "object", "additionalProperties": {"type": "integer"}}
    agree(schema, {1: 2})
    agree(schema, {1: "x"})
    with pytest.raises(InputError) as err:
        validate({1: "x"}, schema, source="f.yaml")
    assert str(err.value) == 'f.yaml: [1]: expected an integer, got "x"'
    validate({1: 2}, schema, source="f.yaml")


def test_a_remote_reference_is_never_fetched():
    """A plugin's params_schema with a remote $ref: jsonschema-rs refuses it offline, jsonschema takes over."""
    schema = {"$ref": "https://example.invalid/schema.json"}
    with pytest.raises(ValueError, match=r"example\.invalid"):
        jsonschema_rs.validator_for(schema, validate_formats=False, offline=True)


def test_plugin_parameter_schemas_agree_on_their_defaults():
    for ruleset in ("official", "pub", "texas", "danish-petersen", "tournee"):
        for spec in get_rules(ruleset).plugins:
            schema = getattr(spec.factory, "params_schema", None)
            if isinstance(schema, dict):
                for doc in (spec.params, {}, {"x": 1}, {k: True for k in schema.get("properties", ())}):
                    assert _check_of(schema)(doc) == jsonschema.Draft202012Validator(schema).is_valid(doc), \
                        (ruleset, spec.key, doc)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_deal_records_with_one_part_changed(data):
    doc = copy.deepcopy(data.draw(st.sampled_from([RECORD, FULL])))
    path = data.draw(st.sampled_from(list(paths(doc))))
    how = data.draw(st.sampled_from(["replace", "remove", "add"]))
    parent = doc
    for p in path[:-1]:
        parent = parent[p]
    if not path:
        doc = data.draw(JSON)
    elif how == "replace":
        parent[path[-1]] = data.draw(JSON)
    elif how == "remove":
        del parent[path[-1]]
    elif isinstance(parent, dict):
        parent[data.draw(st.sampled_from(["x", "hand", "forehand", "tricks", "declarations"]))] = data.draw(JSON)
    else:
        parent.append(data.draw(JSON))
    agree(load_schema("deal.schema.json"), doc)


def test_json_equality_of_enum_and_const():
    schema = {"enum": [1, "a", [True]], "properties": {"k": {"const": 0}}}
    for doc, valid in ((1, True), (True, False), (1.0, True), ([1], False), ([True], True), ({"k": False}, False)):
        assert _check_of(schema)(doc) is valid
        agree(schema, doc)


@pytest.mark.parametrize("doc", [[], ["CJ"], ["CJ", "HT", "D10"], ["CJ", 7], ["C"], ["CJJJJ"], "CJ", None, [["CJ"]],
                                 ["CJ"] * 3, [True], {"a": "CJ"}])
def test_a_list_of_cards_in_one_loop(doc):
    """The loop for a list of short strings (a hand: type, items by $ref, minItems, maxItems)."""
    card = {"type": "string", "minLength": 2, "maxLength": 4, "description": "a card"}
    for hand in ({"type": "array", "items": {"$ref": "#/$defs/card"}, "minItems": 1, "maxItems": 2},
                 {"type": "array", "items": card}, {"type": "array", "items": {"$ref": "#/$defs/card"}, "maxItems": 3}):
        agree({"$defs": {"card": card}, "type": "object", "properties": {"hand": hand}}, {"hand": doc})
