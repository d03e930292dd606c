"""Whose code failed: the functions plugins hand back (multiplier items, win
conditions, card-point rules) by plugin and name, so that an exception raised
in one, or a bad answer, is one line naming it; and the checks of a table
plan a ruleset compiles."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from skatcore.model import CardPointRule, Deck, MultiplierItem, Table, WinCondition

_PARTS = (("skat_multiplier_items", "multiplier item", ("count", "label")),
          ("skat_win_conditions", "win condition", ("check",)),
          ("skat_card_points", "card-point rule", ("trick", "end")))


def function_owners(pm, items: Sequence[MultiplierItem], conditions: Sequence[WinCondition],
                    card_rules: Sequence[CardPointRule] = ()) -> dict[object, str]:
    """The code of each multiplier item's, win condition's and card-point
    rule's functions, by what to call it in an error (its plugin and its name)."""
    owners: dict[object, str] = {}
    groups: tuple[Sequence[Any], ...] = (items, conditions, card_rules)
    for (hook, what, parts), objects in zip(_PARTS, groups, strict=True):
        for obj in objects:
            plugins = pm.owners(hook, obj.name)
            who = f"plugin {plugins[0]!r}: " if plugins else ""
            for part in parts:
                fn = getattr(obj, part)
                code = getattr(getattr(fn, "__func__", fn), "__code__", None)
                if code is not None:
                    owners.setdefault(code, f"{who}{what} {obj.name!r} ({hook})")
    return owners


def raiser(exc: BaseException, owners: Mapping[object, str]) -> str | None:
    """The item, condition or rule in whose code ``exc`` was raised (innermost)."""
    found, tb = None, exc.__traceback__
    while tb is not None:
        found = owners.get(tb.tb_frame.f_code, found)
        tb = tb.tb_next
    return found


def table_problems(table: Table, deck: Deck) -> str | None:
    """What is wrong with the seats' plans of ``table`` for ``deck`` (``None``: nothing)."""
    if len(table.seats) != 3:
        return f"expected plans for 3 seats, got {len(table.seats)}"
    for seat, plan in enumerate(table.seats):
        if seat not in deck.seats:
            continue
        if problem := plan.problems(deck.hand):
            return f"seat {seat}: {problem}"
    if not any(table.seats[s].controller == "own" and table.seats[s].bids for s in deck.seats):
        return "no seat dealt cards is played by its own person and bids"
    return None
