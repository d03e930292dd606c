"""The bidding of a deal (docs/rules/official.md#a4): middlehand asks
forehand, rearhand asks the survivor, forehand alone may play at the lowest
bid; the ladder is the ruleset's (:attr:`CompiledRules.ladder`)."""

from __future__ import annotations

from functools import lru_cache

from skatcore.engine.actions import PASS, Bid, Hold, Pass, Phase
from skatcore.engine.scoring import passed_result
from skatcore.engine.state import DealState
from skatcore.errors import InputError
from skatcore.model import FOREHAND, REARHAND, SEATS

_SKAT = Phase.SKAT  # Phase.X asks the Enum class's __getattr__ hook each time


class Bidding(DealState):
    """Part of :class:`~skatcore.engine.deal.Deal`: bidding, up to the declarer's skat or all passed."""

    __slots__ = ()

    def set_declarer(self, seat: int, bid: int) -> None:
        """Skip the bidding (a record that gives only ``declarer`` and ``bid``)."""
        if self.phase is not Phase.BIDDING or self.history:
            raise InputError("the bidding has already started")
        if bid not in self.rules.ladder:
            raise InputError(f"{bid} is not a game value on the bid ladder of {self.rules.name} (next: {_next_on(self.rules.ladder, bid)})")
        if self._silent[seat]:
            raise InputError(f"{SEATS[seat]} does not bid in {self.rules.name}, so it cannot be the declarer")
        self.bid = bid
        self._bidding_won(seat)

    def _bid(self, action) -> None:
        seat = self.to_move
        if self.bidding_part == 3:  # forehand alone: play at the minimum bid or pass
            if isinstance(action, Bid):
                if action.value != self.rules.min_bid:
                    raise InputError(f"forehand alone can only bid {self.rules.min_bid}, not {action.value}")
                self.bid = action.value
                self._bidding_won(FOREHAND)
            elif isinstance(action, Pass):
                self._all_passed()
            else:
                raise InputError("nobody has bid: forehand says a bid or passes")
            return
        if self.awaiting_answer:
            if isinstance(action, Bid):
                raise InputError(f"{SEATS[seat]} must answer {self.bid} with yes or pass")
            self.awaiting_answer = False
            if isinstance(action, Pass):
                self._part_over(survivor=self.asker)
            else:
                self.to_move = self.asker
            return
        if isinstance(action, Hold):
            raise InputError(f"{SEATS[seat]} is asking: name a bid or pass")
        if isinstance(action, Pass):
            self._part_over(survivor=self.answerer)
            return
        v = action.value
        if v not in self._lay.ladder:
            raise InputError(f"{v} is not a game value on the bid ladder of {self.rules.name} (next: {_next_on(self.rules.ladder, v)})")
        if v <= self.bid:
            raise InputError(f"bid {v} must exceed {self.bid}")
        self.bid = v
        self.awaiting_answer = True
        self.to_move = self.answerer

    def _skip_silent(self) -> None:
        """Seats that do not bid pass without being asked (nothing recorded)."""
        while self.phase is Phase.BIDDING and self._silent[self.to_move]:
            self._bid(PASS)

    def _part_over(self, survivor: int) -> None:
        if self.bidding_part == 1:
            self.bidding_part = 2
            self.asker, self.answerer = REARHAND, survivor
            self.to_move = REARHAND
        elif self.bid:
            self._bidding_won(survivor)
        else:  # nobody named a value: forehand may play at the minimum bid
            self.bidding_part = 3
            self.to_move = FOREHAND

    def _bidding_won(self, seat: int) -> None:
        self.declarer = seat
        self.to_move = seat
        self.phase = _SKAT

    def _all_passed(self) -> None:
        if self.rules.all_pass == "throw_in":
            self.done = True
            self.phase = Phase.DONE
            self.to_move = None
            self._result = passed_result(self.rules)
        elif not self._run_steps("all_passed"):  # a contract without declarer, e.g. Ramsch
            self.start_play(self.rules.all_pass)


@lru_cache(maxsize=4096)
def bids_above(ladder: tuple[int, ...], bid: int) -> tuple:
    """The bids a player may name over ``bid``, then pass."""
    return (*(Bid(v) for v in ladder if v > bid), PASS)


def _next_on(ladder, v) -> str:
    higher = [x for x in ladder if x > v]
    lower = [x for x in ladder if x < v]
    near = [str(x) for x in (lower[-1:] + higher[:1])]
    return " or ".join(near) if near else "none"
