"""A testing kit for plugin authors: pytest fixtures, and the plain functions
behind them.

Installed with skatcore as a pytest plugin (entry point group ``pytest11``),
so any test suite in an environment with skatcore gets the fixtures without
a ``conftest.py``::

    def test_grand_20(skat_rules, skat_score):
        rules = skat_rules("official", plugins={"grand20": Grand20})
        result = skat_score(GRAND_WITH_1, rules)
        assert result.value == 40

    from skatcore.testing import vector_tests

    # one test per vector (pytest -k selects one); a failure names the file and line
    test_house = vector_tests("tests/vectors/house.yaml", "house")

:func:`vector_tests` makes the tests of a vector file.  Fixtures (each returns a function):

``skat_rules(ruleset="official", plugins=None)``
    Compile a ruleset - a name, an installed name or a YAML file - with extra
    plugins appended after its own, so they override it (see
    :func:`compile_with`).
``skat_score(record, rules="official")``
    Score one deal record - a mapping, YAML text or a file - exactly as
    ``skat score`` does; :class:`~skatcore.model.ScoreResult`.
``skat_vectors(path, rules=None)``
    Run a whole vector file (:mod:`skatcore.records.vectors`) in one test; a
    failing case fails it with every mismatch and the multiplier breakdown
    ("with 2, game 3, hand 4; 4 x spades 11 = 44 ...").  ``rules`` defaults
    to the ruleset named by the file's stem.  :func:`vector_tests` gives one
    test per case instead.
``skat_play(rules, seed=0, deals=1)``
    Play random legal deals through :class:`~skatcore.engine.deal.Deal` (every
    bid, discard and card judged by the engine); the finished deals.

:func:`assert_same_rows` demands that a ruleset gives the same per-deal rows
on the compiled path ``skat simulate``/``compare`` take for heuristic players
as through ``Deal``, in one chunk or several.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pytest

from skatcore.rules.trust import trusting

if TYPE_CHECKING:
    from skatcore.engine.deal import Deal
    from skatcore.model import ScoreResult
    from skatcore.records.vectors import Case, Outcome
    from skatcore.rules.compiler import CompiledRules
    from skatcore.rules.ruleset import Ruleset

__all__ = ["VectorFailure", "assert_same_rows", "check_vectors", "compile_with", "play_random", "score", "vector_tests"]


class VectorFailure(AssertionError):
    """Some cases of a vector file failed; the message is their reports."""


# ---------------------------------------------------------------------------
# Plain functions (usable without pytest)
# ---------------------------------------------------------------------------


def compile_with(ruleset: Any = "official", plugins: Mapping[str, Any] | None = None) -> CompiledRules:
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


def _compile_with(ruleset: str | Path | Ruleset, plugins: Mapping[str, Any] | None) -> CompiledRules:
    from skatcore.errors import InputError
    from skatcore.rules.compiler import compile_rules
    from skatcore.rules.manager import PluginSpec
    from skatcore.rules.ruleset import Ruleset, load_ruleset, plugin_schema, resolve_plugin, validate

    rs = ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset)
    if not plugins:
        return compile_rules(rs)
    layer = max((p.layer for p in rs.plugins), default=0) + 1
    specs = list(rs.plugins)
    for key, plugin in plugins.items():
        params: dict[str, Any] = {}
        if isinstance(plugin, tuple):
            plugin, params = plugin
        if isinstance(plugin, str):
            spec = resolve_plugin(plugin, dict(params), source=rs.source, layer=layer)
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


def _rules(rules: Any) -> CompiledRules:
    from skatcore.rules.compiler import CompiledRules, get_rules

    if isinstance(rules, CompiledRules):
        return rules
    with trusting():  # a test names its own ruleset files: their plugins are the code under test
        return get_rules(rules)


def score(record: Any, rules: Any = "official") -> ScoreResult:
    """Score one deal record as ``skat score`` does: a mapping (``format`` may
    be left out), YAML text, or a ``.yaml``/``.json`` file."""
    from skatcore.records.deal import as_deal_record, read_record, score_record
    from skatcore.rules.reading import read_yaml

    source = "<record>"
    if isinstance(record, Path) or (isinstance(record, str) and "\n" not in record and Path(record).suffix in (".yaml", ".yml", ".json")):
        source = str(record)
        doc = read_record(record)
    else:
        doc = as_deal_record(read_yaml(source, text=record) if isinstance(record, str) else record, source)
    return score_record(doc, _rules(rules), source)


def _outcome(case: Case, path: str | Path, compiled: CompiledRules) -> Outcome:
    """One case of the vector file ``path`` scored; a case naming its own
    ruleset (a file beside the vector file) is scored under it."""
    from skatcore.records.vectors import evaluate, rules_for

    return evaluate(rules_for(case, path, compiled.source) if "ruleset" in case.record else compiled, case)


def check_vectors(path: str | Path, rules: Any = None) -> list[Outcome]:
    """Run every case of a vector file; raise :class:`VectorFailure` with the
    reports of the failing ones (mismatches and the multiplier breakdown).

    :returns: the :class:`~skatcore.records.vectors.Outcome` of every case.
    """
    from skatcore.records.vectors import load_vectors

    compiled = _rules(rules if rules is not None else Path(path).stem)
    outcomes = [_outcome(case, path, compiled) for case in load_vectors(path)]
    failed = [o for o in outcomes if not o.ok]
    if failed:
        head = f"{len(failed)} of {len(outcomes)} vectors failed under ruleset {compiled.name!r}"
        raise VectorFailure("\n\n".join([head, *(o.report() for o in failed)]))
    return outcomes


def vector_tests(path: str | Path, rules: Any = None) -> Callable[[Case | str], None]:
    """A pytest test with one test per case of a vector file: assign it to a
    name starting with ``test`` in a test module::

        test_house = vector_tests(HERE / "vectors" / "house.yaml", "house")

    Each case is its own test, named by the case (``test_house[grand with
    1: game 2, 2 x 20 = 40]``), so ``pytest -k "grand and 40"`` runs one.  A
    failing case fails with the file and line it starts on, its mismatches
    and the multiplier breakdown; a malformed vector file fails one test with
    the file, line and what was expected.  ``rules`` defaults to the ruleset
    named by the file's stem and is compiled once, when the first case runs.
    """
    from skatcore.errors import InputError
    from skatcore.records.vectors import load_vectors

    try:
        params = [pytest.param(case, id=case.name) for case in load_vectors(path)]
    except InputError as exc:  # reported by the test, not as an error collecting the module
        params = [pytest.param(str(exc), id=Path(path).name)]
    compiled: list[CompiledRules] = []

    @pytest.mark.parametrize("skat_case", params)
    def test(skat_case: Case | str) -> None:
        try:
            if isinstance(skat_case, str):
                raise VectorFailure(skat_case)
            if not compiled:
                compiled.append(_rules(rules if rules is not None else Path(path).stem))
            outcome = _outcome(skat_case, path, compiled[0])
            if outcome.ok:
                return
            failure = outcome.report()
        except (VectorFailure, InputError) as exc:
            failure = str(exc)
        pytest.fail(failure, pytrace=False)  # the report alone: no traceback into this module

    test.__doc__ = f"The vectors of {Path(path).name}, one test each."
    return cast("Callable[[Case | str], None]", test)  # the mark returns the function itself, typed Any


def play_random(rules: Any, seed: int | random.Random = 0, deals: int = 1, played: Iterable[str] = ()) -> list[Deal]:
    """Play ``deals`` random deals (random legal actions, also the table
    calls) under ``rules``; the finished :class:`~skatcore.engine.deal.Deal` objects."""
    from skatcore.engine.deal import Deal, deal_cards

    compiled = _rules(rules)
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    out = []
    for _ in range(deals):
        hands, skat, *aside = deal_cards(rng, compiled.deck)
        deal = Deal(compiled, hands, skat, aside[0] if aside else (), played=played)
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


def assert_same_rows(ruleset: Any = "official", deals: int = 300, seed: int = 1, players: Any = "heuristic",
                     chunks: int = 3) -> None:
    """Assert that ``ruleset`` gives the same per-deal rows (every field of
    :func:`~skatcore.sim.outcomes.deal_row`: game, declarer, won, value, the
    sheet entries ...) and statistics on every path a simulation may take:
    the compiled path (forced, whatever the chunk's size) in one chunk and in
    ``chunks`` chunks, and ``Deal`` in ``chunks`` chunks, each against
    ``Deal`` in one chunk, over deals ``0..deals-1`` of ``seed``.

    A scoring rule that reads the play (the last trick, the tricks) is where
    the compiled path and ``Deal`` could part; a ruleset the compiled
    heuristic does not play (other ``players``, a rule it refuses) is still
    checked for chunking.

    :param ruleset: a name, a YAML file or compiled rules (as :func:`compile_with` gives).
    :param players: ``"heuristic"``, three names comma-separated, or a sequence of three.
    :raises AssertionError: naming the ruleset, the deal, the field and both values
        (``house: deal 17 (seed 1): field 'won' is True on the compiled path, False through Deal``).
    """
    __tracebackhide__ = True  # pytest shows the caller's line and the message
    from skatcore.sim.simulate import parse_players
    from skatcore.sim.verify import COMPILED, Way, same_rows

    compiled = _rules(ruleset)
    slots = parse_players(players) if isinstance(players, str) else tuple(players)
    cuts = tuple(deals * k // chunks for k in range(1, chunks))  # not at sessions: a chunk may start inside one
    ways = [COMPILED]
    if cuts:
        ways += [Way("compiled", cuts, f"on the compiled path in {chunks} chunks"),
                 Way("exact", cuts, f"through Deal in {chunks} chunks")]
    name = ruleset if isinstance(ruleset, str) else str(ruleset) if isinstance(ruleset, Path) else compiled.name
    found = same_rows(compiled, deals, seed, slots, ways, name=name)
    if found:
        raise AssertionError(found)


# ---------------------------------------------------------------------------
# Fixtures
# ---------------------------------------------------------------------------


@pytest.fixture
def skat_rules() -> Callable[..., CompiledRules]:
    """``skat_rules(ruleset="official", plugins=None)``: compiled rules, with
    extra plugins overriding the ruleset's (see :func:`compile_with`)."""
    return compile_with


@pytest.fixture
def skat_score() -> Callable[..., ScoreResult]:
    """``skat_score(record, rules="official")``: the score of a deal record."""
    return score


@pytest.fixture
def skat_vectors() -> Callable[..., list[Outcome]]:
    """``skat_vectors(path, rules=None)``: run a vector file; a failing case
    fails the test with its mismatches and multiplier breakdown."""

    def run(path: str | Path, rules: Any = None) -> list[Outcome]:
        from skatcore.errors import InputError

        try:
            return check_vectors(path, rules)
        except (VectorFailure, InputError) as exc:  # a failing case, or a malformed vector file: its one line
            failure = str(exc)
        pytest.fail(failure, pytrace=False)  # outside the except: no "During handling of ..." second report

    return run


@pytest.fixture
def skat_play() -> Callable[..., list[Deal]]:
    """``skat_play(rules, seed=0, deals=1, played=())``: random legal deals, finished."""
    return play_random
