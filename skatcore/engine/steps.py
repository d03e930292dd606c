"""Flow steps: stages a plugin adds to how a deal runs.

The core runs bidding, the skat, the declaration and the tricks.  Anything
else that changes the course of a deal is a :class:`Step` a plugin returns
from :func:`~skatcore.hookspecs.skat_register_steps`; the ruleset compiles
them into ``CompiledRules.steps``.  A step waits at one moment of the deal
(``at``):

* ``"start"``: instead of the bidding (the step decides who declares what);
* ``"all_passed"``: all passed and the all-pass contract would be played;
* ``"skat"``: the declarer's skat decision: the step's :meth:`Step.offers`
  are listed beside *pick up* and *hand*; choosing one runs the step;
* ``"first_card"``: the game is declared, no card played yet;
* ``"trick"``: between tricks: a trick is over (``deal.tricks[-1]``, its
  ``winner`` set; its number is ``len(deal.tricks)``), the next not yet led;
  after every trick but the last;
* ``"last_trick"``: the same, before the last trick only (after the
  ``"trick"`` steps).  Steps of these two moments run one after the other;
  when the last ends (``end_step()``) the winner leads the next trick.  A
  record replays them as its cards reach them (:meth:`Step.replay` is called
  each time the step begins; ``len(deal.tricks)`` says which time).

While a step runs, ``deal.step`` is the step and
:class:`~skatcore.engine.deal.Deal` asks it for the legal actions
(:meth:`Step.legal`) and lets it apply them (:meth:`Step.apply`).
``deal.phase`` says what kind of decision it asks for: ``Phase.STEP`` for
its own actions, or ``Phase.DISCARD`` / ``Phase.DECLARE`` when it asks for a
discard or a declaration (players then judge them as they always do).  The step
moves the deal on through the deal's step API (``take_skat``,
``discard_options``, ``put_away``, ``declare``, ``start_play``,
``end_step``; ``bid_again`` to let the players bid once more after all
passed, ``play_only`` to take a hand out of the tricks), keeps what it needs per deal in ``deal.state[step.name]`` and
writes what every seat may know or scoring needs into ``deal.marks`` (shown
in :attr:`SeatView.marks`, passed to scoring in the facts).  A deal record is
replayed through the same object (:meth:`Step.replay`) and written by it
(:meth:`Step.record`, its reverse), so live play, the record reader, the
records a simulation writes and every player see one set of rules.

Players judge a step through two answers of its own, so a new step works
with the shipped bots without bot edits: :meth:`Step.outlooks` says what an
offer at the skat may lead to (as the cards it brings and the declarations
then open, which a bot values with its ordinary hand evaluation), and
:meth:`Step.declarable` says which declarations a discard the step asks for
is made for (:attr:`SeatView.declarable`).  For the step's own actions a bot
declares what it judges worth it and otherwise picks up the skat if it may,
else takes the first action offered: list the sensible default first.

A step is shared by every deal of its ruleset: keep per-deal state in
``deal.state``, never on the step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skatcore.engine.deal import Deal
    from skatcore.model import Declaration

MOMENTS = ("start", "all_passed", "skat", "first_card", "trick", "last_trick")


@dataclass(frozen=True, slots=True)
class Outlook:
    """One equally likely way an offer at the skat turns out for the declarer.

    :param card: the card the offer brings into the declarer's hand and shows
        (a turned-up trump card), ``-1`` if none.
    :param declarations: what the declarer may then declare.
    """

    card: int
    declarations: tuple[Declaration, ...]


class Step:
    """A stage of a deal owned by a plugin (see the module docs).

    Subclass it and override what the step needs; the defaults make a step
    that never runs.

    :cvar name: what the step is called in errors and in ``SeatView.step``
        (``"push"``); unique within a ruleset.
    :cvar at: the moment it waits at, one of :data:`MOMENTS`.
    :cvar description: one line for ``skat rules``.
    :cvar declarations: see below.
    """

    name: str = ""
    at: str = ""
    description: str = ""
    #: declaration keys only this step may write (a declaration through the
    #: skat that carries one is refused, see ``CompiledRules.check_declaration``)
    declarations: tuple[str, ...] = ()

    #: the seat that chooses every deal's contract, where this step replaces
    #: the bidding (a session's series counts that seat's choices)
    chooser: int | None = None

    def prepare(self, rules) -> str | None:
        """Called once when the ruleset is compiled: what is wrong with this
        step under ``rules`` (a contract it names that no plugin registers
        ...), or ``None``.  A step may also build its tables here."""
        return None

    def begins(self, deal: Deal) -> bool:
        """Whether the step runs in this deal when its moment comes (not asked
        for ``"skat"`` steps, which run when an offer is chosen)."""
        return True

    def enter(self, deal: Deal) -> None:
        """Set up the step's state (``deal.state[self.name]``) and whose turn
        it is (``deal.to_move``)."""

    def offers(self, deal: Deal) -> Sequence[Any]:
        """``"skat"`` steps: actions offered to the declarer beside *pick up*
        and *hand*; choosing one enters the step and applies it."""
        return ()

    def outlooks(self, rules, hand: int) -> Mapping[Any, Sequence[Outlook]]:
        """``"skat"`` steps, for players: by offer, the equally likely ways
        choosing it turns out for a declarer holding ``hand`` (a bitmask; the
        unseen cards are the deck's others).  An offer missing here is one
        players cannot judge: the shipped bots leave it alone."""
        return {}

    def declarable(self, deal: Deal) -> Sequence[Declaration]:
        """For players: the declarations the declarer will choose from once
        the decision the step asks for now is made (a discard is judged by
        them; :attr:`SeatView.declarable`).  Empty: not known, or the usual
        ones after picking up the skat."""
        return ()

    def legal(self, deal: Deal) -> Sequence[Any]:
        """What the player to move may do in this step now."""
        return ()

    def actions(self, rules) -> Sequence[Any]:
        """Every action of its own this step may ever offer or list under
        ``rules`` (beyond bids, yes, pass, pick up, hand, discards and the
        ruleset's declarations), e.g. for a fixed action numbering
        (:mod:`skatcore.env.encoding`).  A :class:`Declare` it may list is
        given here too when the ruleset's options do not hold it."""
        return ()

    def apply(self, deal: Deal, action: Any) -> None:
        """Do ``action`` for ``deal.to_move``, or raise
        :class:`~skatcore.errors.InputError` saying why it is not possible.
        When the step is over it moves the deal on (``end_step``,
        ``declare``, ``start_play`` ...)."""
        raise NotImplementedError

    def replay(self, deal: Deal, record: Mapping) -> Declaration | None:
        """Drive ``deal`` through this step from a deal record (docs/formats.md#deal-record).

        With ``hands`` in the record the step applies the record's actions to
        ``deal``, leaving it at the first card (or over) or at the
        declaration, and returns ``None``.  A summary record (no hands: the
        deal's cards are a stand-in) may instead return the declaration to
        score it by, already checked.  Errors name the record's path
        (``InputError(..., path="game.pushes[1]")``)."""
        raise NotImplementedError(f"step {self.name!r} cannot replay a record")

    def record(self, deal: Deal) -> Mapping[str, Any]:
        """The reverse of :meth:`replay`: this step's part of the deal record
        of a played ``deal``, as record fields; a ``game`` mapping is merged
        into the game the core writes (``{"game": {"pushes": [...]}}``).
        Empty when the step did not run in ``deal`` or the core's fields
        (the declaration, its ``declarations``, the discard) say it all.
        Keep what it needs in ``deal.state[self.name]`` while it runs."""
        return {}

    def card_fields(self, record: Mapping) -> Sequence[tuple[str, Any]]:
        """The fields of a deal record this step reads that name cards, as
        ``(path, card list)``: checked against the ruleset's deck even in a
        summary record, which the step may not replay card by card."""
        return ()

    def claims(self, record: Mapping) -> bool:
        """``"skat"`` steps: whether a deal record's game went through this
        step (e.g. names the step's declaration)."""
        return False

    def forms(self, rules, contract) -> Sequence[tuple[str, Declaration]]:
        """Ways ``contract`` is declared through this step, as ``(label,
        declaration)``, for the contract table of ``skat rules``."""
        return ()

    def hides(self, action: Any) -> bool:
        """Whether the other seats see ``action`` only as
        :data:`~skatcore.engine.deal.UNSEEN` (cards that went away face down)."""
        return False

    def take_turns(self, deal: Deal, seats: Sequence[int]) -> None:
        """For a step where ``seats`` act one after another (in this order):
        keep them in ``deal.state[self.name]``; the first is to move."""
        deal.state[self.name] = list(seats)
        deal.to_move = deal.state[self.name][0]

    def next_turn(self, deal: Deal) -> bool:
        """The seat to move has acted (see :meth:`take_turns`): the next one
        in turn is to move; ``False`` when every seat has acted."""
        waiting = deal.state[self.name]
        waiting.pop(0)
        if waiting:
            deal.to_move = waiting[0]
        return bool(waiting)


def check_steps(steps: Sequence[Step]) -> str | None:
    """What is wrong with a ruleset's steps, or ``None``."""
    names: set[str] = set()
    for s in steps:
        if not isinstance(s, Step):
            return f"expected Step objects, got {type(s).__name__}"
        if not s.name or s.at not in MOMENTS:
            return f"step {s.name or type(s).__name__!r}: give a name and `at`, one of {', '.join(MOMENTS)}"
        if s.name in names:
            return f"two steps are called {s.name!r}"
        names.add(s.name)
    return None
