"""A ruleset played before ``skat validate`` calls it valid.

Compiling checks each plugin's parameters and hooks one at a time; some
rulesets fail only when a deal reaches what their plugins make of each
other (a Schieberamsch when all pass, at a table whose straw man nobody
plays in a Ramsch).  So a few seeded deals are played through ``Deal`` and
the session rules: random players, and random players who pass whenever
they may (every deal all-pass).
"""

from __future__ import annotations

from skatcore.bots.random import RandomPlayer
from skatcore.sim.sheet import Passing, Sheet

PROBE_DEALS = 12


def probe(rules, deals: int = PROBE_DEALS, seed: int = 0) -> None:
    """Play ``deals`` seeded deals under ``rules`` twice: random players, then
    players who pass whenever they may.  A ruleset a deal cannot finish
    raises the :class:`~skatcore.errors.InputError` ``skat simulate`` would
    meet."""
    def passing(**kw) -> Passing:
        return Passing(RandomPlayer(**kw))

    for factory in (RandomPlayer, passing):
        sheet = Sheet(rules, [factory] * 3, seed)
        for i in range(deals):
            sheet.play(i)
