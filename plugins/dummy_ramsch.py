"""Schmegegge's Ramsch (docs/rules/house-rules.md#b13): if both players pass,
the half-dummy shows its next two cards for information and both may bid
again; they stay on top of its pile, so in a game bid now it still shows
five open cards (B13).  If both pass again, each player (forehand first) may
swap two cards for the dummy's two unseen face-down cards beneath the two
shown (the two given go under its pile, face down), and the two play a
Ramsch of two-card tricks, the dummy out of play.  Two flow steps at the
all-pass moment; the Ramsch itself and its scoring are the ruleset's
all-pass contract (plugin ``ramsch``).

A deal record lists both bidding rounds in ``bidding`` (``[pass, pass, pass,
pass]``) and the swaps in ``game.steps.dummy_swap``, forehand first: ``keep``
or the two cards given, e.g. ``[[C7, S8], keep]``.
"""

from __future__ import annotations

from dataclasses import dataclass

from skatcore.cards import mask_of, name, names, parse_card
from skatcore.engine.deal import Discard
from skatcore.engine.steps import Step
from skatcore.errors import InputError
from skatcore.model import SEATS

DUMMY = 1  # the half-dummy sits at middlehand
SHOWN, SWAPPED = "dummy_shown", "dummy_swapped"


@dataclass(frozen=True, slots=True)
class Keep:
    """Swap nothing with the dummy."""

    def __str__(self):
        return "keep"


KEEP = Keep()


def _face_down(deal) -> list[int]:
    """The dummy's pile (top first); its first two cards were shown after the
    first passes and stay on top, to be turned up in their turn."""
    return deal.piles.get(DUMMY, [])


class DummyShows(Step):
    """Both passed: the dummy shows two more cards and the bidding starts over."""

    name = "dummy_shows"
    at = "all_passed"
    description = "both passed: the dummy shows its next two cards (they stay on its pile), and both may bid again"

    def begins(self, deal) -> bool:
        return SHOWN not in deal.marks

    def enter(self, deal) -> None:
        # shown for information and left on top of the pile: the dummy still shows five (B13)
        deal.marks[SHOWN] = tuple(_face_down(deal)[:2])
        deal.bid_again()


class SwapWithDummy(Step):
    """Both passed again: each player may swap two cards with the dummy's
    face-down ones; then a Ramsch of two-card tricks without the dummy."""

    name = "dummy_swap"
    at = "all_passed"
    description = ("both passed twice: each may swap two cards for two face-down cards of the dummy; "
                   "then a Ramsch of two-card tricks, the dummy out of play")

    def begins(self, deal) -> bool:
        return SHOWN in deal.marks

    def enter(self, deal) -> None:
        self.take_turns(deal, [s for s in deal.in_play if s != DUMMY])  # forehand first
        deal.marks[SWAPPED] = ()

    def actions(self, rules):
        return [KEEP]

    def legal(self, deal):
        if len(_face_down(deal)) < 4:
            return [KEEP]
        return [KEEP, *deal.discard_options(deal.to_move)]

    def apply(self, deal, action) -> None:
        seat = deal.to_move
        if isinstance(action, Discard):
            given = action.cards
            pile = _face_down(deal)
            if len(pile) < 4:
                raise InputError("the dummy has fewer than two unseen face-down cards: keep")
            for c in given:
                if not deal.hands[seat] >> c & 1:
                    raise InputError(f"{SEATS[seat]} does not hold {name(c)}")
            if len(given) != 2 or len(set(given)) != 2:
                raise InputError("give exactly two different cards")
            taken = pile[2:4]  # the two beneath the ones shown
            del pile[2:4]
            pile += given  # under the pile, face down
            deal.hands[seat] = deal.hands[seat] & ~mask_of(given) | mask_of(taken)
            deal.marks[SWAPPED] = (*deal.marks[SWAPPED], SEATS[seat])  # that one swapped is public, the cards are not
        elif action != KEEP:
            raise InputError(f"{action} is not possible now ({SEATS[seat]} to swap two cards with the dummy or keep)")
        if self.next_turn(deal):
            return
        deal.play_only([s for s in deal.in_play if s != DUMMY])
        deal.start_play(deal.rules.all_pass)

    def hides(self, action) -> bool:
        return isinstance(action, Discard)

    def claims(self, record) -> bool:
        return self.name in ((record.get("game") or {}).get("steps") or {})

    def record(self, deal):
        """The reverse of :meth:`replay`: each player's choice, forehand first
        (no other discard is made in a deal that comes this far)."""
        if self.name not in deal.state:
            return {}
        done = ["keep" if a == KEEP else names(a.cards) for _, a in deal.history if a == KEEP or isinstance(a, Discard)]
        return {"game": {"steps": {self.name: done}}}

    def replay(self, deal, record):
        from skatcore.records.deal import apply_at

        entries = ((record.get("game") or {}).get("steps") or {}).get(self.name, [])
        for i, entry in enumerate(entries):
            where = f"game.steps.{self.name}[{i}]"
            if deal.step is not self:
                raise InputError("both players have chosen already", path=where)
            if entry == "keep":
                apply_at(deal, KEEP, where)
            elif isinstance(entry, list) and all(isinstance(c, str) for c in entry):
                try:
                    cards = tuple(parse_card(c) for c in entry)
                except (InputError, ValueError, KeyError):
                    raise InputError(f"expected keep or two cards, got {entry!r}", path=where) from None
                apply_at(deal, Discard(cards), where)
            else:
                raise InputError(f"expected keep or two cards, got {entry!r}", path=where)
        if deal.step is self:
            raise InputError(f"give each player's choice, keep or two cards ({len(entries)} of 2 given)",
                             path=f"game.steps.{self.name}")
        return None


STEPS = (DummyShows(), SwapWithDummy())

