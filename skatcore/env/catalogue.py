"""Every decision of a deal as a number, and what a seat may see as numbers:
the one action catalogue and observation encoder the PettingZoo environment
(:mod:`skatcore.env.skat_v0`) and any other game interface share.

:class:`ActionCatalogue` fixes, per compiled ruleset, an action index for
everything a deal may ask (docs/env.md lists the sections):

* ``bid v`` for each value of the ruleset's ladder, ``yes``, ``pass``,
  ``pick up``, ``hand``;
* ``put away c`` for each card of the deck: a discard is chosen **card by
  card** (the skat's number of cards, in any order) and applied as one
  :class:`~skatcore.engine.actions.Discard` once complete, so the space
  stays small (32 entries, not 496 pairs); the same goes for what a step
  asks to be laid away (a push in Schieberamsch, a swap with the dummy);
* ``declare ...`` for each declaration the ruleset can make (every route's
  options and what the steps list, :meth:`Step.actions`);
* the steps' own actions (``push blind``, ``turn up``, ``keep`` ...);
* ``call k`` for each table call of the ruleset (Kontra, Re ...);
* ``play c`` for each card of the deck.

Conceding is left out: a player who concedes only shortens the deal.

:class:`Turns` drives a :class:`~skatcore.engine.deal.Deal` by those
indices and settles whose decision it is: the seat to move, played by its
person (a straw man by the defender), a discard gathered card by card, a
seat nobody plays moved for it (its one card), and table calls, which a
:class:`Deal` takes out of turn: a person may call at its own turn (the
calls are offered beside its cards), and a call that another person may
answer (Re after Kontra) gives that person a turn at once to answer or
``pass``.  :mod:`skatcore.env.encoding` gathers this module and the
observation encoder (:mod:`skatcore.env.observation`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from skatcore.cards import name
from skatcore.engine.actions import (
    HOLD,
    PASS,
    PICK_UP,
    PLAY_HAND,
    Bid,
    Call,
    Declare,
    Discard,
    Phase,
    Play,
)
from skatcore.engine.moves import Discards
from skatcore.model import SEATS, Declaration

_PLAY = Phase.PLAY


def declaration_key(d: Declaration) -> tuple:
    """A declaration as a hashable key (its ``declarations`` are a mapping)."""
    return (d.game, d.hand, d.schneider, d.schwarz, d.ouvert, tuple(sorted(d.declarations.items())))


def _describe_declaration(d: Declaration) -> str:
    extra = [f"{k} {v}" if v is not True else k for k, v in sorted(d.declarations.items())]
    return " ".join(["declare", d.game, *(["hand"] if d.hand else []), *sorted(d.announced), *extra])


class _CallSlot:
    """A table call in the catalogue: the seat that calls comes with the decision."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


class ActionCatalogue:
    """The fixed action indices of one compiled ruleset (see the module docs).

    ``size`` actions; ``index(action)`` and ``action(i)`` map between them
    and the engine's actions (a ``put away`` index has no action of its own:
    :meth:`action` gives ``None``; a call needs the calling ``seat``);
    ``legal_indices(deal)`` and ``mask(deal)`` say what the player to move
    may do; ``describe(i)`` names an index.  ``sections`` maps each section
    (``bid``, ``core``, ``put_away``, ``declare``, ``step``, ``call``,
    ``play``) to its ``range`` of indices.
    """

    def __init__(self, rules) -> None:
        self.rules = rules
        self.cards: tuple[int, ...] = tuple(rules.deck.cards)
        self.skat_size: int = rules.deck.skat
        names: list[str] = []
        actions: list[Any] = []
        keys: dict[Any, int] = {}
        self.sections: dict[str, range] = {}

        def section(label: str, entries) -> None:
            start = len(actions)
            for key, action, text in entries:
                if key in keys:
                    continue
                keys[key] = len(actions)
                actions.append(action)
                names.append(text)
            self.sections[label] = range(start, len(actions))

        section("bid", ((("bid", v), Bid(v), f"bid {v}") for v in rules.ladder))
        section("core", ((a, a, str(a)) for a in (HOLD, PASS, PICK_UP, PLAY_HAND)))
        section("put_away", ((("put away", c), None, f"put away {name(c)}") for c in self.cards))
        own = [a for step in rules.steps for a in step.actions(rules)]
        declarations = [*(d for route in rules.options.values() for d in route),
                        *(a.declaration for a in own if isinstance(a, Declare))]
        section("declare", ((("declare", declaration_key(d)), Declare(d), _describe_declaration(d)) for d in declarations))
        section("step", ((a, a, str(a)) for a in own if not isinstance(a, (Declare, Discard))))
        section("call", ((("call", c), _CallSlot(c), f"call {c}") for c in rules.calls))
        section("play", ((("play", c), Play(c), f"play {name(c)}") for c in self.cards))
        self.size = len(actions)
        self._actions, self._names, self._keys = actions, names, keys
        self.put_away_base = self.sections["put_away"].start
        self.play_base = self.sections["play"].start
        self.pass_index = keys[PASS]
        # card id -> its position in the deck, and a hand mask's play indices in three lookups (as Deal's PLAYS_A/B/C)
        self.position = {c: i for i, c in enumerate(self.cards)}
        self._card_of = {self.put_away_base + i: c for i, c in enumerate(self.cards)}
        self._kept: dict[int, tuple[Any, tuple[int, ...]]] = {}  # id(engine's tuple) -> (it, its indices)
        self._tables = [self._mask_table(lo, 11) for lo in range(0, max(self.cards) + 1, 11)]
        self._three = len(self._tables) <= 3
        self._tables += [[()] * 2048] * (3 - len(self._tables))

    def _mask_table(self, low: int, bits: int) -> list[tuple[int, ...]]:
        base, pos = self.play_base, self.position
        return [tuple(base + pos[low + b] for b in range(bits) if m >> b & 1 and low + b in pos) for m in range(1 << bits)]

    # -- indices and actions --------------------------------------------------
    def index(self, action: Any) -> int:
        """The index of an engine action (a :class:`Discard` has none: see ``put_away``)."""
        t = type(action)
        if t is Play:
            return self.play_base + self.position[action.card]
        if t is Declare:
            key: Any = ("declare", declaration_key(action.declaration))
        elif t is Bid:
            key = ("bid", action.value)
        elif t is Call:
            key = ("call", action.name)
        elif t is Discard:
            raise ValueError("a discard is chosen card by card: put_away(card) for each of its cards")
        else:
            key = action
        i = self._keys.get(key)
        if i is None:
            raise ValueError(f"{action} is not in the action catalogue of ruleset {self.rules.name!r} "
                             "(a step that offers it should list it in Step.actions)")
        return i

    def put_away(self, card: int) -> int:
        """The index of ``put away card``."""
        return self.put_away_base + self.position[card]

    def card_put_away(self, i: int) -> int | None:
        """The card a ``put away`` index names, else ``None``."""
        return self._card_of.get(i)

    def action(self, i: int, seat: int | None = None) -> Any:
        """The engine action of index ``i`` (``None`` for ``put away``; a call
        is made by ``seat``)."""
        a = self._actions[i]
        if type(a) is _CallSlot:
            return Call(seat if seat is not None else -1, a.name)
        return a

    def describe(self, i: int) -> str:
        """Index ``i`` as text (``bid 18``, ``put away CJ``, ``play HA`` ...)."""
        return self._names[i]

    def play_indices(self, mask: int) -> tuple[int, ...]:
        """The ``play`` indices of the cards in ``mask``."""
        t = self._tables
        if self._three:
            return t[0][mask & 2047] + t[1][mask >> 11 & 2047] + t[2][mask >> 22 & 2047]
        return sum((t[j][mask >> 11 * j & 2047] for j in range(len(t))), ())

    # -- what the player to move may do --------------------------------------
    def legal_indices(self, deal, chosen: Sequence[int] = ()) -> Sequence[int]:
        """The indices the player to move may choose (``chosen``: the cards
        of a discard already put away); calls and answers aside
        (:class:`Turns` adds them)."""
        legal = deal.legal_actions()
        if deal.phase is _PLAY and legal and type(legal[0]) is Play:
            return self.play_indices(deal.legal_mask)
        if type(legal) is Discards:  # every pair of the cards allowed
            base, pos = self.put_away_base, self.position
            return [base + pos[c] for c in legal.cards if c not in chosen]
        if chosen:
            cards: set[int] = set()
            for a in legal:
                if type(a) is Discard and all(c in a.cards for c in chosen):
                    cards.update(c for c in a.cards if c not in chosen)
            return sorted(self.put_away(c) for c in cards)
        kept = self._kept.get(id(legal))
        if kept is not None and kept[0] is legal:  # a sequence the engine keeps (the bids, the declarations)
            return kept[1]
        out: list[int] = []
        cards = set()
        for a in legal:
            if type(a) is Discard or type(a) is Discards:
                cards.update(a.cards)
            else:
                out.append(self.index(a))
        out += sorted(self.put_away(c) for c in cards)
        if type(legal) is tuple and len(self._kept) < 4096:
            self._kept[id(legal)] = (legal, tuple(out))
        return out

    def mask(self, deal, chosen: Sequence[int] = ()) -> np.ndarray:
        """:meth:`legal_indices` as a 0/1 array of ``size`` entries."""
        m = np.zeros(self.size, np.int8)
        m[list(self.legal_indices(deal, chosen))] = 1
        return m


class Turns:
    """A :class:`~skatcore.engine.deal.Deal` driven by catalogue indices:
    whose decision it is (``actor``: a seat; ``person``: the seat of the
    person who decides for it), ``legal()`` indices and ``apply(i)``.  See
    the module docs for discards, seats nobody plays and table calls
    (``calls=False``: none are offered)."""

    __slots__ = ("_calls", "_k", "_legal", "answering", "asked", "catalogue", "chosen", "deal", "plain")

    def __init__(self, catalogue: ActionCatalogue, deal, calls: bool = True) -> None:
        self.catalogue, self.deal = catalogue, deal
        self.chosen: tuple[int, ...] = ()   # a discard's cards put away so far
        self.answering: int | None = None   # a person answering a table call
        self.asked: set[int] = set()        # who was asked since the last call
        self._calls = calls and bool(deal.rules.calls)
        self._k = catalogue.skat_size
        self.plain = deal.rules.table.plain
        self._legal: Sequence[int] | None = None  # legal(), until the next apply
        self._forced()

    @property
    def actor(self) -> int | None:
        """The seat whose decision it is (``None`` when the deal is over)."""
        if self.answering is not None:
            return self.answering
        return None if self.deal.done else self.deal.to_move

    @property
    def person(self) -> int | None:
        """The seat of the person who decides now (a straw man's: its controller)."""
        seat = self.actor
        if seat is None or self.plain or self.answering is not None:
            return seat
        return self.deal.controller(seat)

    def legal(self) -> Sequence[int]:
        """The indices the actor may choose now (the same sequence until the next :meth:`apply`)."""
        out = self._legal
        if out is not None:
            return out
        deal, cat = self.deal, self.catalogue
        if deal.done and self.answering is None:
            out = []
        elif self.answering is not None:
            out = [*(cat.index(c) for c in deal.legal_calls(self.answering)), cat.pass_index]
        else:
            out = cat.legal_indices(deal, self.chosen)
            if self._calls and deal.phase is _PLAY:
                out = [*out, *(cat.index(c) for c in deal.legal_calls(deal.to_move))]
        self._legal = out
        return out

    def apply(self, i: int) -> None:
        """Make decision ``i`` for the actor; ValueError if it is not legal now."""
        if i not in (self._legal if self._legal is not None else self.legal()):
            raise ValueError(self.illegal(i))
        self.make(i)

    def make(self, i: int) -> None:
        """Decision ``i``, already known to be legal now (:meth:`apply` without its check)."""
        self._legal = None
        deal, cat = self.deal, self.catalogue
        if self.answering is not None:
            seat = self.answering
            if i == cat.pass_index:
                self.asked.add(seat)
            else:
                deal.apply(cat.action(i, seat))
                self.asked = {seat}
            self.answering = self._answerer()
            return
        card = cat.card_put_away(i)
        if card is not None:
            chosen = (*self.chosen, card)
            if len(chosen) < self._k:
                self.chosen = chosen
                return
            self.chosen = ()
            deal.apply(Discard(tuple(sorted(chosen))))
        else:
            a = cat.action(i, deal.to_move)
            deal.apply(a)
            if type(a) is Call:
                self.asked = {a.seat}
                self.answering = self._answerer()
                return
        self._forced()

    def apply_action(self, action: Any) -> None:
        """Make the engine's ``action`` for the actor (a player's whole
        :class:`Discard`, a :class:`Call` by its seat); ``PASS`` while
        answering a call says nothing.  InputError if the deal refuses it."""
        if self.chosen:
            raise ValueError(f"put away {self._k - len(self.chosen)} more card(s) first, not {action}")
        self._legal = None
        deal = self.deal
        if self.answering is not None and type(action) is not Call:
            self.asked.add(self.answering)
        else:
            deal.apply(action)
            if type(action) is Call:
                self.asked = {action.seat}
            elif self.answering is None:
                self._forced()
                return
        self.answering = self._answerer()

    def illegal(self, i) -> str:
        """Why ``i`` is not a legal decision now, in one line."""
        cat = self.catalogue
        what = cat.describe(i) if isinstance(i, int) and 0 <= i < cat.size else f"action {i!r} (expected 0..{cat.size - 1})"
        if self.actor is None:
            return f"{what}: the deal is over"
        if self.chosen:
            return f"{what} is not possible now: put away {self._k - len(self.chosen)} more card(s)"
        return f"{what} is not possible now ({SEATS[self.actor]} to decide)"

    def _answerer(self) -> int | None:
        """The next person who may answer the last call and was not asked yet."""
        deal = self.deal
        if deal.done:
            return None
        for s in deal.persons:
            if s not in self.asked and deal.legal_calls(s):
                return s
        return None

    def _forced(self) -> None:
        """Move the seats nobody plays (their one legal card)."""
        deal = self.deal
        if self.plain:
            return
        while not deal.done and deal.phase is _PLAY and deal.controller(deal.to_move) is None:
            deal.apply(deal.legal_actions()[0])


def sections_table(catalogue: ActionCatalogue) -> str:
    """The catalogue's sections as a Markdown table (docs/env.md shows the official ruleset's)."""
    rows = ["| section | indices | e.g. |", "|---|---|---|"]
    for key, where in catalogue.sections.items():
        span = f"{where.start}-{where.stop - 1}" if len(where) else "none"
        example = f"`{catalogue.describe(where.start)}`" if len(where) else ""
        rows.append(f"| `{key}` | {span} | {example} |")
    return "\n".join(rows) + "\n"


__all__ = ["ActionCatalogue", "Turns", "declaration_key", "sections_table"]
