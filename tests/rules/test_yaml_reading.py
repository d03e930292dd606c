"""``read_yaml`` builds plain documents itself (``reading._construct``, for
speed); PyYAML's constructor stays the reference: the same values for every
document, aliases shared as PyYAML shares them, other tags handed to PyYAML."""

from __future__ import annotations

import math

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcore.errors import InputError
from skatcore.rules.reading import _check_nodes, _Loader, read_yaml, whole


def by_pyyaml(text: str):
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_nodes(node, "x.yaml")
        return wholes(loader.construct_document(node))
    finally:
        loader.dispose()


def wholes(doc):
    """PyYAML's values with whole floats as integers (JSON Schema's integers, as read_yaml reads them)."""
    if isinstance(doc, float):
        return whole(doc)
    if isinstance(doc, list):
        doc[:] = [wholes(x) for x in doc]
    elif isinstance(doc, dict):
        doc.update({k: wholes(v) for k, v in doc.items()})
    return doc


def same(a, b) -> bool:
    """Equal, with the same types (True is not 1) and NaN equal to NaN."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8),
                    st.sampled_from(["yes", "No", "on", "~", "null", "0x1f", "0o17", "1_000", "1:30", ".inf", "-.NaN",
                                     "2026-11-27", "CJ", "10♥", "<<", "=", "1e3", "+12", "0b101"]))
documents = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.one_of(st.text(max_size=6), st.integers(-5, 5)), inner, max_size=4)), max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(documents, st.sampled_from([None, True, False]))
def test_the_same_values_as_pyyaml(doc, flow):
    text = yaml.safe_dump(doc, default_flow_style=flow, allow_unicode=True)
    assert same(read_yaml("x.yaml", text), by_pyyaml(text))


@pytest.mark.parametrize("text", [
    "a: &x [1, 2]\nb: *x\n",                       # an alias: one shared list
    "a: &m {k: v}\nb: *m\nc: [*m, *m]\n",
    "<<: {a: 1}\nb: 2\n",                           # no merge keys: `<<` is a key as written
    "yes: 1\nnull: 2\n1.5: 3\n7: 4\n",              # keys as written, integers stay integers
    "a: !!set {x, y}\n",                            # other tags: PyYAML's constructor
    "a: !!binary aGVsbG8=\n",
    "a: !!str 12\nb: !!int '7'\nc: !!float '1'\n",
    "- !!omap [{a: 1}, {b: 2}]\n",
    "when: 2026-11-27\n",                           # no timestamps: the text as written
    "plain text\n",
    "",
])
def test_examples(text):
    got, want = read_yaml("x.yaml", text), by_pyyaml(text)
    assert same(got, want) or (got == want and type(got) is type(want))


def test_an_alias_is_one_object_as_in_pyyaml():
    doc = read_yaml("x.yaml", "a: &x [1, 2]\nb: *x\n")
    assert doc["a"] is doc["b"]


@pytest.mark.parametrize("text", ["a: !!python/name:os.system x\n", "a: !custom 1\n", "a: !!float x\n"])
def test_unknown_or_bad_tags_are_refused_as_before(text):
    with pytest.raises(InputError, match=r"x\.yaml"):
        read_yaml("x.yaml", text)
