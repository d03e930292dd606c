"""The bid ladder, derived when a ruleset is compiled.

A contract valued base x multiplier can reach every value
``base_value(declaration) x fold_multiplier(items, facts)`` over the
declarations the ruleset allows (each route, each set of announcements in
force, each combination of the declarer's own declarations) and the facts a
game can end with (matadors 1..trumps; nothing, schneider or schwarz made).
The items are every plugin's :func:`~skatcore.hookspecs.skat_multiplier_items`,
folded by :func:`~skatcore.engine.scoring.fold_multiplier` exactly as in
scoring, so a plugin that changes a base or adds an item changes the ladder
with it.  A fixed-valued contract (null) reaches its fixed values.  Only a
ladder that cannot be derived so is answered by ``skat_contract_values``.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product

from skatcore.engine.scoring import fold_multiplier, make_facts
from skatcore.errors import InputError
from skatcore.model import Contract, Declaration

_MAX_COMBINATIONS = 4096  # of declaration values: beyond that only each declaration alone is tried


def declaration_values(schema: Mapping) -> tuple[object, ...]:
    """The values a declaration's schema admits that may change a game's value
    (an enum, ``true``, integers within bounds); ``()`` for free text."""
    if "enum" in schema:
        return tuple(v for v in schema["enum"] if v not in (None, False, 0))
    if "const" in schema:
        return tuple(v for v in (schema["const"],) if v not in (None, False, 0))
    types = schema.get("type", ())
    types = (types,) if isinstance(types, str) else tuple(types)
    out: list[object] = []
    if "boolean" in types:
        out.append(True)
    if "integer" in types and "maximum" in schema:
        out += [n for n in range(max(1, schema.get("minimum", 1)), schema["maximum"] + 1) if n is not True]
    return tuple(dict.fromkeys(out))


def _declaration_sets(rules, contract: Contract, hand: bool) -> list[dict]:
    """Every combination of the declarer's declarations ``contract`` admits
    (table calls such as Kontra are said during play: not part of a game's value)."""
    called = {c.writes for c in rules.calls.values()}
    choices = []
    for key, schema in rules.declarations.items():
        if key in called or rules.declaration_refusals.get((contract.name, hand, key)):
            continue
        values = declaration_values(schema)
        if values:
            choices.append([(key, None), *((key, v) for v in values)])
    n = 1
    for c in choices:
        n *= len(c)
    if n <= _MAX_COMBINATIONS:
        return [{k: v for k, v in combo if v is not None} for combo in product(*choices)]
    return [{}, *({k: v} for c in choices for k, v in c[1:])]


def contract_values(rules, contract: Contract) -> set[int]:
    """Every game value ``contract`` can reach under the compiled ``rules``
    (whose ``ladder`` is not yet filled in)."""
    if contract.base is None:
        return set(contract.fixed.values())
    trumps = len(rules.tricks[contract.name].trumps)
    th = rules.thresholds
    ends = ((th.win, 5, 5), (th.schneider, 9, 1), (rules.deck.total_points, rules.deck.hand, 0))
    values: set[int] = set()
    seen = set()
    for (game, hand, _), in_force in rules.announcements.items():
        if game != contract.name or isinstance(in_force, str) or (hand, in_force) in seen:
            continue  # each set in force once (ouvert implying schwarz is one declaration)
        seen.add((hand, in_force))
        for extra in _declaration_sets(rules, contract, hand):
            d = Declaration(game, hand, "schneider" in in_force, "schwarz" in in_force, "ouvert" in in_force, extra)
            try:
                base = rules.base_value(d)
            except (KeyError, InputError):
                continue
            if not base:
                continue
            for matadors in range(1, max(trumps, 1) + 1):
                for points, won, lost in ends:
                    facts = make_facts(rules, contract, d, bid=0, declarer=0, matadors=matadors,
                                       declarer_points=points, declarer_tricks=won, defender_tricks=lost)
                    m = fold_multiplier(rules.multiplier_items, facts)[0]
                    if m > 0:
                        values.add(base * m)
    return values
