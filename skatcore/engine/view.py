"""What one seat may know of a deal: :class:`SeatView`.  The trick record,
:class:`~skatcore.model.Trick`, is part of the model (imported here as before)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from skatcore.engine.actions import UNSEEN, Discard, Phase, Play
from skatcore.model import Trick

__all__ = ["SeatView", "Trick"]

_NO_MARKS: MappingProxyType[str, Any] = MappingProxyType({})
_NO_OTHERS: dict[int, int] = {}


class SeatView:
    """The information one seat has at one moment (see :meth:`Deal.view`).
    Hands are bitmasks.

    ``hand`` is the seat's open cards when the person playing the seat may
    see them (else 0), ``others`` the open cards of other seats that person
    may see now, by seat (their own hand when they play a straw man, a hand
    shown face up; see :class:`~skatcore.model.SeatPlan`).

    A view is taken at every move of every simulated deal, so ``history``
    and ``tricks`` are built only when read, from the deal's prefix as it
    was when the view was taken (both only ever grow), and ``legal`` is the
    engine's own sequence.  Players must use the public attributes only:

    - ``seat``, ``to_move``, ``declarer``: seats (0 forehand, 1 middlehand,
      2 rearhand; ``declarer`` ``None`` until known); ``phase`` the deal's
      ``Phase``;
    - ``hand``: the seat's own cards; ``declarer_hand``: the declarer's
      cards in an ouvert game during play, else ``None``;
    - ``bid``: the highest bid so far; ``declaration``: the ``Declaration``
      once made;
    - ``trick``: the cards of the trick in progress, in play order;
    - ``discard``: the seat's own discards (declarer only);
    - ``step``: the name of the plugin step running (``None``: none);
      ``marks``: what the steps showed every seat (a turned-up trump card);
      ``declarable``: what the running step says the declarer will choose
      from after the decision it asks for now (:meth:`Step.declarable`);
    - ``legal``: what the seat may do now (actions below, or table calls).
    """

    __slots__ = (
        "_deal",
        "_history",
        "_n_history",
        "_n_tricks",
        "_tricks",
        "_turned",
        "bid",
        "declarable",
        "declaration",
        "declarer",
        "declarer_hand",
        "discard",
        "hand",
        "legal",
        "marks",
        "others",
        "phase",
        "seat",
        "step",
        "to_move",
        "trick",
    )

    def __init__(self, deal, seat: int, legal):  # deal: the Deal seen (it builds its views)
        self.seat, self.phase, self.to_move = seat, deal.phase, deal.to_move
        self.bid, self.declarer, self.declaration = deal.bid, deal.declarer, deal.declaration
        if deal.rules.table.plain:
            self.hand, self.others = deal.hands[seat], _NO_OTHERS
        else:  # seats played by another person, cards shown to some, cards not yet turned up
            self.hand = deal.hands[seat] if deal.sees(seat, seat) else 0
            self.others = {s: deal.hands[s] for s in range(3) if s != seat and deal.sees(seat, s) and deal.hands[s]}
        current = deal.tricks[-1] if deal.tricks else None
        self.trick = tuple(current.cards) if current is not None and current.winner is None else ()
        ouvert = deal.declaration is not None and deal.declaration.ouvert and deal.phase is Phase.PLAY
        self.declarer_hand = deal.hands[deal.declarer] if ouvert else None
        self.discard = deal.discard if seat == deal.declarer else ()
        step = deal.step
        self.step = step.name if step is not None else None  # the running step, by name
        self.declarable = step.declarable(deal) if step is not None else ()
        self.marks = MappingProxyType(dict(deal.marks)) if deal.marks else _NO_MARKS  # what the steps showed all
        self.legal = legal
        self._deal, self._n_history = deal, len(deal.history)
        self._n_tricks = len(deal.tricks) - (1 if current is not None and current.winner is None else 0)
        self._history: tuple[tuple[int, object], ...] | None = None
        self._tricks: tuple[tuple[int, tuple[int, ...], int | None], ...] | None = None
        self._turned: tuple[tuple[int, int], ...] | None = None

    @property
    def history(self) -> tuple[tuple[int, object], ...]:
        """Every move so far as ``(seat, action)``; others' discards (and what
        a step hides) show as ``UNSEEN``."""
        if self._history is None:
            seat, hidden = self.seat, self._deal.hidden
            self._history = tuple((who, UNSEEN if who != seat and (isinstance(a, Discard) or i in hidden) else a)
                                  for i, (who, a) in enumerate(self._deal.history[:self._n_history]))
        return self._history

    @property
    def tricks(self) -> tuple[tuple[int, tuple[int, ...], int | None], ...]:
        """The finished tricks as ``(leader, cards, winner)``."""
        if self._tricks is None:
            self._tricks = tuple((t.leader, tuple(t.cards), t.winner) for t in self._deal.tricks[:self._n_tricks])
        return self._tricks

    @property
    def turned_up(self) -> tuple[tuple[int, int], ...]:
        """The cards turned up in the stacks so far as ``(card played, the card
        that lay beneath it)``, in play order, of the seats whose open cards
        this seat sees (empty where no cards lie in stacks).  The person saw
        each come up: which card lay under which tells which open cards still
        cover a face-down card, what the hands held at every trick."""
        if self._turned is None:
            deal = self._deal
            beneath = deal.beneath
            self._turned = () if not beneath else tuple(
                (a.card, beneath[a.card]) for who, a in deal.history[:self._n_history]
                if type(a) is Play and a.card in beneath and deal.sees(self.seat, who))
        return self._turned

    def with_legal(self, legal) -> SeatView:
        """The same view offering other choices (e.g. the table calls)."""
        other = object.__new__(SeatView)
        for slot in SeatView.__slots__:
            object.__setattr__(other, slot, getattr(self, slot))
        other.legal = legal
        return other
