"""Players: bots that take a seat at a :class:`~skatcore.engine.deal.Deal`.

A player sees only what its seat may know (a :class:`~skatcore.engine.deal.SeatView`,
from :meth:`Deal.view`) and answers with one of ``view.legal``::

    class Player(Protocol):
        def act(self, view: SeatView) -> Action: ...
        # optional: out-of-turn table calls (Kontra, Re ...).  ``view.legal``
        # then holds the calls this seat may make now; return those to make.
        def call(self, view: SeatView) -> list[Call]: ...

Built in: :class:`RandomPlayer` (uniform over the legal actions) and
:class:`HeuristicPlayer` (evaluates its hand against the compiled ruleset's
values, bids no higher than its best contract is worth with its matadors,
and plays by common Skat heuristics).

**Registering a player.**  Players are not part of a ruleset, so they are
found by name through their own plugin manager: the built-ins plus every
plugin published under the entry-point group ``skat.players`` that
implements :func:`skatcore.hookspecs.skat_register_players`::

    # pyproject.toml of your package
    [project.entry-points."skat.players"]
    mybot = "mybot.plugin"

    # mybot/plugin.py
    from skatcore import hookimpl

    @hookimpl
    def skat_register_players():
        return {"mybot": MyBot}        # name -> factory(rules=..., seed=...)

``skat simulate --players mybot`` then seats it.  A factory is called once per
deal and seat as ``factory(rules=compiled_rules, seed=int)``; a player whose
choices depend only on that seed and its views keeps results reproducible
(and identical for any ``--jobs``).  ``--players module:attr`` names a factory
directly, without registering it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from functools import lru_cache, partial
from typing import Protocol, runtime_checkable

from skatcore.bots.heuristic import HeuristicPlayer
from skatcore.bots.random import RandomPlayer
from skatcore.engine.deal import SeatView
from skatcore.errors import InputError
from skatcore.hookspecs import hookimpl
from skatcore.rules.compiler import CompiledRules
from skatcore.rules.manager import SkatPluginManager, import_attr

PLAYER_ENTRY_POINT_GROUP = "skat.players"


@runtime_checkable
class Player(Protocol):
    """Anything with ``act(view) -> action`` (one of ``view.legal``)."""

    def act(self, view: SeatView): ...


Factory = Callable[..., Player]


class BuiltinPlayers:
    """The built-in players, registered like any third-party ones."""

    @hookimpl
    def skat_register_players(self):
        from skatcore.bots.expert import ExpertPlayer  # numba compiles the solver: only when asked for
        from skatcore.bots.ismcts import ISMCTSPlayer  # OpenSpiel itself is imported by the player, when seated

        return {"random": RandomPlayer, "heuristic": HeuristicPlayer, "expert": ExpertPlayer, "ismcts": ISMCTSPlayer}


@lru_cache(maxsize=1)
def player_factories() -> Mapping[str, Factory]:
    """Every registered player: the built-ins and the entry points of group
    ``skat.players`` (name -> factory).  A name given twice is an error."""
    pm = SkatPluginManager()
    pm.register(BuiltinPlayers(), name="builtin")
    pm.load_entrypoints(PLAYER_ENTRY_POINT_GROUP)
    return pm.collect("skat_register_players", "player")


def resolve_player(name: str) -> Factory:
    """A registered player's factory, or ``module:attr``; ``name:key=value``
    (more options after further colons, e.g. ``expert:worlds=20:ms=50``)
    passes options to a registered player's factory.  Checked before any
    deal is played: the factory takes ``rules=`` and ``seed=`` (and the
    options given), a class has ``act``; option numbers are finite and >= 0."""
    factories = player_factories()
    if name in factories:
        return factories[name]
    head, _, rest = name.partition(":")
    if head in factories and rest and all("=" in part for part in rest.split(":")):
        options = dict(_option(part, name) for part in rest.split(":"))
        _check_factory(factories[head], name, options)
        limits = getattr(factories[head], "OPTION_LIMITS", None) or {}
        for key, value in options.items():
            if key in limits and isinstance(value, (int, float)) and value > limits[key]:
                raise InputError(f"player {name!r}: option {key}: expected a number from 0 to {limits[key]:,}, not {value!r}")
        return partial(factories[head], **options)
    if ":" in name:
        obj = import_attr(name, "player")
        _check_factory(obj, name, {})
        return obj
    raise InputError(f"unknown player {name!r} (expected one of: {', '.join(sorted(factories))}, or module:attr)")


_NOT_A_FACTORY = "expected a player factory: a callable taking rules= and seed= that returns an object with act(view)"


def _check_factory(obj, spec: str, options: dict) -> None:
    """A factory that cannot take ``rules=``, ``seed=`` and the options would fail at the first deal, as exit 1."""
    import inspect

    if not callable(obj) or (isinstance(obj, type) and not callable(getattr(obj, "act", None))):
        raise InputError(f"player {spec!r}: {_NOT_A_FACTORY}")
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):  # a builtin without a signature (os:getpid)
        raise InputError(f"player {spec!r}: {_NOT_A_FACTORY}") from None
    try:
        signature.bind(rules=None, seed=None, **options)
        for key, value in options.items():
            if isinstance(value, str) and key in signature.parameters and _numeric(signature.parameters[key]):
                raise InputError(f"player {spec!r}: option {key}: expected a finite number >= 0, not {value!r}")
    except TypeError:
        if options and not any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values()):
            known = [k for k, p in signature.parameters.items() if k not in ("rules", "seed", "self")
                     and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)]
            unknown = [k for k in options if k not in known]
            if unknown:
                hint = f"expected one of: {', '.join(known)}" if known else "it takes no options"
                raise InputError(f"player {spec!r}: unknown option {unknown[0]!r} ({hint})") from None
        raise InputError(f"player {spec!r}: {_NOT_A_FACTORY}") from None


_NUMBER = re.compile(r"[0-9]{1,18}(\.[0-9]{1,18})?([eE][-+]?[0-9]{1,3})?\Z")  # plain ASCII, bounded


def _option(text: str, spec: str) -> tuple[str, object]:
    """``key=value``: a plain decimal number (finite, >= 0: no count or
    budget means worlds=nan or ms=-1) or, for an option that is not a
    number, the text."""
    key, _, value = text.partition("=")
    if not key.isidentifier():
        raise InputError(f"player {spec!r}: option {text!r}: expected key=value")
    if _NUMBER.match(value):
        number = int(value) if value.isdigit() else float(value)
        if math.isfinite(number):
            return key, number
    elif not any(c.isdigit() for c in value) and value.lower().lstrip("+-") not in ("nan", "inf", "infinity"):
        return key, value
    raise InputError(f"player {spec!r}: option {key}: expected a finite number >= 0, not {value!r}")


def _numeric(parameter) -> bool:
    """Whether a factory's parameter takes a number (by its default or its annotation)."""
    default = parameter.default
    if isinstance(default, (int, float)) and not isinstance(default, bool):
        return True
    return any(t in str(parameter.annotation) for t in ("int", "float"))


def make_player(name_or_factory, rules: CompiledRules, seed: int | None = None) -> Player:
    factory = resolve_player(name_or_factory) if isinstance(name_or_factory, str) else name_or_factory
    return factory(rules=rules, seed=seed)


def call_view(view: SeatView, calls) -> SeatView:
    """``view`` with ``legal`` set to the table calls the seat may make."""
    return view.with_legal(tuple(calls))
