"""Rates of the players' own counters (``bot_counters``), for ``skat duel``
and ``skat simulate``: a player class names them in ``COUNTER_RATES``
(rate name -> (numerator counter, denominator counter)), e.g. the expert's
layouts per decision and the share of decisions inference changed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from skatcore.bots import resolve_player


def rate_specs(players: Iterable[str]) -> dict[str, tuple[str, str]]:
    """The ``COUNTER_RATES`` of the named players (a factory with options is a partial)."""
    specs: dict[str, tuple[str, str]] = {}
    for name in players:
        f = resolve_player(name)
        specs.update(getattr(getattr(f, "func", f), "COUNTER_RATES", {}))
    return specs


def counter_rates(counters: Mapping[str, int], specs: Mapping[str, tuple[str, str]]) -> dict[str, float]:
    """Each rate whose denominator counted anything, to four decimals."""
    return {name: round(counters.get(num, 0) / counters[den], 4)
            for name, (num, den) in specs.items() if counters.get(den)}


def rates_line(rates: Mapping[str, float]) -> str:
    """``layouts_per_decision 9.12, inference_changed 3.1%`` (a share as a percentage)."""
    return ", ".join(f"{k} {100 * v:.1f}%" if k.endswith(("share", "rate")) else f"{k} {v:.2f}" for k, v in rates.items())
