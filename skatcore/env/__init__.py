"""Skat for game-AI research under any ruleset (docs/env.md).

``skatcore.env.encoding`` numbers every decision of a deal and encodes what a
seat may see (numpy only); ``skatcore.env.skat_v0`` is a PettingZoo AEC
environment and ``SkatSingleAgent`` a Gymnasium one against skatcore's
players, both needing the ``env`` extra (``pip install skatcore[env]``),
imported only when used.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "SkatSingleAgent":
        from skatcore.env.single import SkatSingleAgent

        return SkatSingleAgent
    raise AttributeError(f"module 'skatcore.env' has no attribute {name!r}")
