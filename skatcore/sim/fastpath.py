"""A table of three heuristic players under a ruleset the compiled engine
plays runs through the compiled heuristic
(:func:`skatcore.bots.heuristic.compiled.play_heuristic`): the same deals,
decisions, table calls and scores as the Python players, ~10x faster.
Deals it leaves unfinished (all passed into a step such as a push round)
and deals the session rules force (a Ramsch round: :mod:`skatcore.sim.sheet`)
play through ``Deal``, and so does everything else (other players, steps the
engine does not model) and a chunk of fewer than :data:`MIN_DEALS` deals:
the first compile (~15 s CPU, once per machine) would cost a small run more
than it saves.  ``path="compiled"`` takes the compiled heuristic whatever the
chunk's size and ``path="exact"`` never (``--verify``: :mod:`skatcore.sim.verify`)."""

from __future__ import annotations

from collections.abc import Sequence

from skatcore.bots import HeuristicPlayer, resolve_player
from skatcore.sim.sheet import Sheet

MIN_DEALS = 200
#: which path a chunk's deals take: ``auto`` the compiled heuristic from
#: :data:`MIN_DEALS` deals on, ``compiled`` it whatever the size, ``exact`` every deal through ``Deal``
PATHS = ("auto", "compiled", "exact")
#: how a deal was played and scored (what ``skat simulate``/``compare`` report): on the
#: compiled tables, in compiled play but scored on its own facts (a house rule the
#: tables cannot hold, :mod:`skatcore.engine.probe`), or card by card through ``Deal``
PLAYED = ("compiled", "own_facts", "exact")


def compiled_outcomes(rules: Sequence, slots: Sequence[str], seed: int, start: int, stop: int,
                      path: str = "auto") -> dict:
    """``{k: Outcomes}`` of deals ``start..stop-1`` for each ruleset ``rules[k]``
    the compiled heuristic plays on ``path`` (:data:`PATHS`); the others are
    left to the Python path."""
    if path not in PATHS:
        raise ValueError(f"path must be one of {', '.join(PATHS)}, not {path!r}")
    if path == "exact" or (path == "auto" and stop - start < MIN_DEALS):
        return {}
    from skatcore.bots.heuristic.compiled import play_heuristic
    from skatcore.sim.dealing import seeded_deals

    out, dealt = {}, None
    for k in compiled(rules, slots):
        dealt = dealt or seeded_deals(seed, start, stop - start)  # once for all rulesets
        out[k] = play_heuristic(rules[k], dealt, seed, start, hand_back=True)
    return out


def compiled(rules: Sequence, slots: Sequence[str]) -> list[int]:
    """The rulesets ``rules[k]`` the compiled heuristic plays at a table of
    ``slots`` (their tables built here, once per compiled ruleset)."""
    return [k for k, r in enumerate(rules) if not _refused(r, slots)]


def declined(rules, slots: Sequence[str], n: int, path: str = "auto") -> str:
    """Why a chunk of ``n`` deals under ``rules`` at a table of ``slots`` on
    ``path`` goes through ``Deal`` ("" where the compiled heuristic plays it)."""
    if path == "exact":
        return "the exact path was asked for"
    why = _refused(rules, slots)
    if not why and path == "auto" and n < MIN_DEALS:
        why = f"chunks of fewer than {MIN_DEALS} deals play through Deal"
    return why


def _refused(rules, slots: Sequence[str]) -> str:
    """Why the compiled heuristic never plays ``rules`` at a table of ``slots`` ("" where it does)."""
    if any(resolve_player(s) is not HeuristicPlayer for s in slots):
        return "players other than the heuristic play through Deal"
    from skatcore.bots.heuristic.compiled import heuristic_tables
    from skatcore.engine.compiled import Unsupported

    try:
        heuristic_tables(rules, hand_back=True)
    except Unsupported as exc:
        return str(exc)
    return ""


def whole(rules, out) -> bool:
    """Whether compiled outcomes ``out`` are every deal as played: no deal left
    to ``Deal`` and no session rules (which read the deals one by one)."""
    return not out.unfinished.any() and not Sheet.needed(rules)
