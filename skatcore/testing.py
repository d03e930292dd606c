"""A testing kit for plugin authors: pytest fixtures, and the plain functions
behind them.

Installed with skatcore as a pytest plugin (entry point group ``pytest11``),
so any test suite in an environment with skatcore gets the fixtures without
a ``conftest.py``::

    def test_grand_20(skat_rules, skat_score):
        rules = skat_rules("official", plugins={"grand20": Grand20})
        result = skat_score(GRAND_WITH_1, rules)
        assert result.value == 40

    def test_vectors(skat_vectors):
        skat_vectors("tests/vectors/house.yaml", "house")   # fails with the breakdown

Fixtures (each returns a function):

``skat_rules(ruleset="official", plugins=None)``
    Compile a ruleset - a name, an installed name or a YAML file - with extra
    plugins appended after its own, so they override it (see
    :func:`compile_with`).
``skat_score(record, rules="official")``
    Score one deal record - a mapping, YAML text or a file - exactly as
    ``skat score`` does; :class:`~skatcore.model.ScoreResult`.
``skat_vectors(path, rules=None)``
    Run a vector file (:mod:`skatcore.records.vectors`); a failing case fails the
    test with every mismatch and the multiplier breakdown ("with 2, game 3,
    hand 4; 4 x spades 11 = 44 ...").  ``rules`` defaults to the ruleset named
    by the file's stem.
``skat_play(rules, seed=0, deals=1)``
    Play random legal deals through :class:`~skatcore.engine.deal.Deal` (every
    bid, discard and card judged by the engine); the finished deals.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from skatcore.rules.trust import trusting

__all__ = ["compile_with", "score", "check_vectors", "play_random", "VectorFailure"]


class VectorFailure(AssertionError):
    """Some cases of a vector file failed; the message is their reports."""


# ---------------------------------------------------------------------------
# Plain functions (usable without pytest)
# ---------------------------------------------------------------------------


def compile_with(ruleset: Any = "official", plugins: Mapping[str, Any] | None = None):
    """Compile ``ruleset`` with ``plugins`` appended after its own plugins.

    :param ruleset: a shipped or installed ruleset name, a YAML file, a loaded
        :class:`~skatcore.rules.ruleset.Ruleset` or compiled rules (then their ruleset is
        re-read from their source).
    :param plugins: ``{key: plugin}`` where ``plugin`` is a class (or factory),
        ``(class, params)`` with the parameters to validate against its
        ``params_schema``, or a reference string as in a ruleset
        (``"module:Class"``, an entry point name, ``"./file.py:Class"``).  They
        form a new ``extends`` layer: they override the ruleset's plugins
        without a conflict error.
    :returns: :class:`~skatcore.rules.compiler.CompiledRules` (not cached).
    """
    from skatcore.rules.compiler import CompiledRules

    if isinstance(ruleset, CompiledRules):
        ruleset = ruleset.source
    with trusting():  # the caller names these rulesets and plugins: they are the code under test
        return _compile_with(ruleset, plugins)


def _compile_with(ruleset, plugins):
    from skatcore.errors import InputError
    from skatcore.rules.compiler import compile_rules
    from skatcore.rules.ruleset import PluginSpec, Ruleset, _resolve_plugin, load_ruleset, plugin_schema, validate

    rs = ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset)
    if not plugins:
        return compile_rules(rs)
    layer = max((p.layer for p in rs.plugins), default=0) + 1
    specs = list(rs.plugins)
    for key, plugin in plugins.items():
        params: dict = {}
        if isinstance(plugin, tuple):
            plugin, params = plugin
        if isinstance(plugin, str):
            spec = _resolve_plugin(plugin, dict(params), source=rs.source, layer=layer)
            specs.append(PluginSpec(key=key, origin=spec.origin, factory=spec.factory, params=spec.params, layer=layer))
            continue
        schema = plugin_schema(plugin)
        validate(params, schema, source="<test>", prefix=f"plugins.{key}")
        known = schema.get("properties", {})
        unknown = [k for k in params if k not in known]
        if unknown:
            raise InputError(f"unknown parameter {unknown[0]!r}", source="<test>", path=f"plugins.{key}.{unknown[0]}")
        defaults = {k: v["default"] for k, v in known.items() if isinstance(v, dict) and "default" in v}
        specs.append(PluginSpec(key=key, origin="test", factory=plugin, params={**defaults, **params}, layer=layer))
    return compile_rules(Ruleset(name=rs.name, description=rs.description, source=rs.source, plugins=tuple(specs)))


def _rules(rules):
    from skatcore.rules.compiler import CompiledRules, get_rules

    if isinstance(rules, CompiledRules):
        return rules
    with trusting():  # a test names its own ruleset files: their plugins are the code under test
        return get_rules(rules)


def score(record: Any, rules: Any = "official"):
    """Score one deal record as ``skat score`` does: a mapping (``format`` may
    be left out), YAML text, or a ``.yaml``/``.json`` file."""
    from skatcore.records.deal import as_deal_record, read_record, score_record
    from skatcore.rules.ruleset import read_yaml

    source = "<record>"
    if isinstance(record, Path) or isinstance(record, str) and "\n" not in record and Path(record).suffix in (".yaml", ".yml", ".json"):
        source = str(record)
        doc = read_record(record)
    else:
        doc = as_deal_record(read_yaml(source, text=record) if isinstance(record, str) else record, source)
    return score_record(doc, _rules(rules), source)


def check_vectors(path: str | Path, rules: Any = None) -> list:
    """Run every case of a vector file; raise :class:`VectorFailure` with the
    reports of the failing ones (mismatches and the multiplier breakdown).

    :returns: the :class:`~skatcore.records.vectors.Outcome` of every case.
    """
    from skatcore.records.vectors import evaluate, load_vectors, rules_for

    compiled = _rules(rules if rules is not None else Path(path).stem)
    # a case naming its own ruleset (a file beside the vector file) is scored under it
    outcomes = [evaluate(rules_for(case, path, compiled.source) if "ruleset" in case.record else compiled, case)
                for case in load_vectors(path)]
    failed = [o for o in outcomes if not o.ok]
    if failed:
        head = f"{len(failed)} of {len(outcomes)} vectors failed under ruleset {compiled.name!r}"
        raise VectorFailure("\n\n".join([head, *(o.report() for o in failed)]))
    return outcomes


def play_random(rules: Any, seed: int | random.Random = 0, deals: int = 1, played=()) -> list:
    """Play ``deals`` random deals (random legal actions, also the table
    calls) under ``rules``; the finished :class:`~skatcore.engine.deal.Deal` objects."""
    from skatcore.engine.deal import Deal, deal_cards

    compiled = _rules(rules)
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    out = []
    for _ in range(deals):
        deal = Deal(compiled, *deal_cards(rng, compiled.deck), played=played)
        while not deal.done:
            calls = [c for s in range(3) for c in deal.legal_calls(s)] if compiled.calls else []
            if calls and rng.random() < 0.1:
                deal.apply(rng.choice(calls))
                continue
            actions = deal.legal_actions()
            deal.apply(actions[rng.randrange(len(actions))])
        deal.result()
        out.append(deal)
    return out


# ---------------------------------------------------------------------------
# Fixtures
# ---------------------------------------------------------------------------


@pytest.fixture
def skat_rules():
    """``skat_rules(ruleset="official", plugins=None)``: compiled rules, with
    extra plugins overriding the ruleset's (see :func:`compile_with`)."""
    return compile_with


@pytest.fixture
def skat_score():
    """``skat_score(record, rules="official")``: the score of a deal record."""
    return score


@pytest.fixture
def skat_vectors():
    """``skat_vectors(path, rules=None)``: run a vector file; a failing case
    fails the test with its mismatches and multiplier breakdown."""

    def run(path: str | Path, rules: Any = None):
        from skatcore.errors import InputError

        try:
            return check_vectors(path, rules)
        except (VectorFailure, InputError) as exc:  # a failing case, or a malformed vector file: its one line
            failure = str(exc)
        pytest.fail(failure, pytrace=False)  # outside the except: no "During handling of ..." second report

    return run


@pytest.fixture
def skat_play():
    """``skat_play(rules, seed=0, deals=1, played=())``: random legal deals, finished."""
    return play_random
