"""The state all parts of a :class:`~skatcore.engine.deal.Deal` share.

``Deal`` is built from one class per job (seating, bidding, tricks, facts);
each reads attributes ``Deal.__init__`` sets and methods another part
defines.  They are declared here once, for the type checker and as the
deal's slots (a deal reads them on every move; a ``__dict__`` of its ~60
attributes costs more to fill and to read).  Other attributes may still be
set on a deal: they go to its ``__dict__``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from skatcore.engine.actions import Action, Call, Phase
    from skatcore.engine.layout import Layout
    from skatcore.engine.steps import Step
    from skatcore.engine.view import Trick
    from skatcore.model import Contract, Declaration, ScoreResult
    from skatcore.rules.compiler import CompiledRules, TrickTable


class DealState:
    """Attributes of a deal, as ``Deal.__init__`` documents them."""

    rules: CompiledRules
    _lay: Layout  # what every deal of the ruleset shares
    dealt: tuple[tuple[int, ...], ...]
    aside: tuple[int, ...]
    hands: list[int]  # card masks by seat
    skat: int  # card mask
    original_skat: tuple[int, ...]
    beneath: dict[int, int]
    piles: dict[int, list[int]]
    phase: Phase
    done: bool
    history: list[tuple[int, Action]]
    hidden: set[int]
    # bidding
    bid: int
    bidding_part: int
    asker: int
    answerer: int
    awaiting_answer: bool
    _silent: tuple[bool, ...]
    persons: tuple[int, ...]  # the seats a person plays (not a straw man): who calls and concedes
    # skat and declaration: None until there is a declarer / a game
    declarer: int | None
    declaration: Declaration | None
    contract: Contract | None
    table: TrickTable | None
    picked_up: bool
    route: str
    discard: tuple[int, ...]
    to_move: int | None  # None once the deal is over
    # play
    in_play: tuple[int, ...]
    _k: int
    _next: tuple[int, ...]
    _fast3: bool
    _quick: bool
    _held: int  # the declarer's cards when the first trick began
    _cards: list[int]
    _trick: Trick | None
    _follow: tuple[int, ...]
    _strength: tuple[tuple[int, ...], ...]
    _points: tuple[int, ...]
    _no_trick: bool
    _silent_bidders: bool
    legal_mask: int | None  # the cards the player to move may play, set by legal_actions() in play (None: not yet)
    tricks: list[Trick]
    trick_points: list[int]
    tricks_won: list[int]
    conceded: set[int]
    concession_by: str | None
    settled: bool
    _result: ScoreResult | None
    aside_to: str | None  # the side the cards laid aside went to, once scored
    played: frozenset[str]
    # plugins' steps: what they keep and show is theirs to type
    step: Step | None
    state: dict[str, Any]
    marks: dict[str, Any]
    _pending: list[Step] | None

    __slots__ = (*__annotations__, "__dict__", "__weakref__")

    if TYPE_CHECKING:  # what one part calls on another
        def start_play(self, game: str) -> None: ...
        def controller(self, seat: int) -> int | None: ...
        def mover(self, seat: int) -> int | None: ...
        def legal_actions(self) -> Sequence[Action]: ...
        def unplayed(self) -> int: ...
        def declarer_cards(self) -> int: ...
        def _enter(self, step: Step) -> None: ...
        def _run_steps(self, moment: str) -> bool: ...
        def _begin_tricks(self) -> None: ...
        def _finish(self) -> None: ...
        def _skip_silent(self) -> None: ...
        def _all_passed(self) -> None: ...
        def _bid(self, action: Action) -> None: ...
        def _part_over(self, survivor: int) -> None: ...
        def _play(self, c: int) -> None: ...
        def _call(self, action: Call) -> None: ...
        def _concede(self, seat: int) -> None: ...
        def declare(self, seat: int, d: Declaration, route: str | None = None) -> None: ...
        def _expected(self) -> str: ...
        def take_skat(self, seat: int) -> None: ...
        def put_away(self, seat: int, cards: Iterable[int]) -> None: ...
