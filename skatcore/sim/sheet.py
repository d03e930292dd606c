"""Session rules in a simulation: Bock rounds, Ramsch rounds and series
act on the deals played (hooks ``skat_session_*``, as on a score sheet).

Deal ``i`` belongs to session ``i // 36`` (a tournament series), so any
chunking gives the same sheets: a chunk that starts inside a session plays
the session's earlier deals first.  A deal the session rules refuse as bid
(a Ramsch round: no bidding) is played again with everyone passing.
"""

from __future__ import annotations

from skatcore.engine.deal import PASS, Deal, Phase
from skatcore.errors import InputError
from skatcore.records.session import Session
from skatcore.records.writer import deal_record
from skatcore.sim.play import play_seeded, seeded_deal

SESSION_DEALS = 36


class Passing:
    """A player who passes in the bidding (a Ramsch round: nobody bids)."""

    def __init__(self, player):
        self.player = player

    def act(self, view):
        return PASS if view.phase is Phase.BIDDING and PASS in view.legal else self.player.act(view)

    def __getattr__(self, name):  # call(view) and anything else the player has
        return getattr(self.player, name)


class Sheet:
    """A ruleset's session rules (Bock rounds, Ramsch rounds, series) over
    sessions of :data:`SESSION_DEALS` deals: deal ``i`` belongs to session
    ``i // 36``, so any chunking gives the same sheets.  A deal the session
    refuses as bid (a Ramsch round) is played again with everyone passing."""

    @staticmethod
    def needed(rules) -> bool:
        return any(getattr(rules.pm.hook, h).get_hookimpls() for h in ("skat_session_deal", "skat_session_after_deal"))

    @classmethod
    def for_chunk(cls, rules, factories, seed: int, start: int) -> "Sheet":
        """The sheet of a chunk starting at deal ``start``: the session's deals before it played already."""
        sheet = cls(rules, factories, seed)
        if sheet.active:
            for i in range(start - start % SESSION_DEALS, start):
                sheet.play(i, seeded_deal(seed, i))
        return sheet

    def __init__(self, rules, factories, seed: int):
        self.rules, self.factories, self.seed = rules, factories, seed
        self.passing = [lambda f=f, **kw: Passing(f(**kw)) for f in factories]
        self.session: Session | None = None
        self.block = -1
        self.active = self.needed(rules)

    def play(self, i: int, dealt) -> tuple[Deal, list, int, bool]:
        """Deal ``i`` played under the session: ``(deal, players, sheet factor, Ramsch round)``."""
        if not self.active:
            return (*play_seeded(self.rules, self.factories, self.seed, i, dealt), 1, False)
        if i // SESSION_DEALS != self.block or (self.session and self.session.state.closed):
            self.block = i // SESSION_DEALS
            try:
                self.session = Session(self.rules, ("1", "2", "3"))
            except InputError:  # session rules this ruleset cannot run (Ramsch rounds where all pass throws in)
                self.session = None
        deal, players = play_seeded(self.rules, self.factories, self.seed, i, dealt)
        if self.session is None:
            return deal, players, 1, False
        for forced in (False, True):
            if forced:
                deal, players = play_seeded(self.rules, self.passing, self.seed, i, dealt)
            try:
                return deal, players, self.session.enter(session_record(deal), deal.result()).factor, forced
            except InputError:
                continue
        return deal, players, 1, False


def session_record(deal: Deal) -> dict:
    """What the session rules read of a played deal's record: its summary,
    the steps' parts included (the pushes before a grand hand)."""
    return deal_record(deal, summary=True)
