"""Session rules in a simulation: Bock rounds, Ramsch rounds and series
act on the deals played (hooks ``skat_session_*``, as on a score sheet).

Deal ``i`` belongs to session ``i // 36`` (a tournament series), so any
chunking gives the same sheets: a chunk that starts inside a session plays
the session's earlier deals first.  A deal the session rules refuse as bid
(a Ramsch round: no bidding) is played again with everyone passing.

A deal comes from the compiled heuristic's outcomes where they have it
(:mod:`skatcore.sim.fastpath`) and is played through ``Deal`` where they do
not: all passed into a step, a Ramsch round's deal played with everyone
passing, a chunk's replay of its session's earlier deals.  The session
rules read the compiled outcome as they read a played deal (its result and
:func:`outcome_record`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from skatcore.cards import names
from skatcore.engine.deal import PASS, Deal, Phase
from skatcore.errors import InputError
from skatcore.model import SEATS
from skatcore.records.session import Session
from skatcore.records.writer import FORMAT, deal_record
from skatcore.sim.play import all_passed, play_seeded, seeded_deal

SESSION_DEALS = 36


class Passing:
    """A player who passes in the bidding (a Ramsch round: nobody bids)."""

    def __init__(self, player):
        self.player = player

    def act(self, view):
        return PASS if view.phase is Phase.BIDDING and PASS in view.legal else self.player.act(view)

    def __getattr__(self, name):  # call(view) and anything else the player has
        return getattr(self.player, name)


@dataclass
class Played:
    """One deal as statistics read it: played through ``deal`` with
    ``players``, or deal ``row`` of the compiled ``outcomes``."""

    result: object                    # a ScoreResult, or the compiled outcome's Brief
    all_pass: bool
    deal: Deal | None = None
    players: list = field(default_factory=list)
    outcomes: object = None
    row: int = -1
    factor: int = 1                   # the sheet's factor (a Bock deal: 2)
    forced: bool = False              # played with everyone passing (a Ramsch round)
    path: str = "exact"               # how it was played and scored (skatcore.sim.fastpath.PLAYED)
    why: str = ""                     # why not on the compiled tables, where it is not

    @classmethod
    def of_deal(cls, deal: Deal, players) -> Played:
        return cls(deal.result(), all_passed(deal), deal, players)

    @classmethod
    def of_outcome(cls, out, j: int) -> Played:
        own = bool(out.own_facts[j])
        return cls(out.brief(j), bool(out.bid[j] == 0), outcomes=out, row=j, path="own_facts" if own else "compiled",
                   why=out.tables.own_why if own else "")

    @property
    def declarations(self) -> dict:
        """The declarations as made (the table calls' included)."""
        if self.deal is None:
            return self.outcomes.declarations(self.row)
        return self.deal.declaration.declarations if self.deal.declaration else {}

    def record(self) -> dict:
        return session_record(self.deal) if self.deal else outcome_record(self.outcomes, self.row)


class Sheet:
    """A ruleset's session rules (Bock rounds, Ramsch rounds, series) over
    sessions of :data:`SESSION_DEALS` deals: deal ``i`` belongs to session
    ``i // 36``, so any chunking gives the same sheets.  A deal the session
    refuses as bid (a Ramsch round) is played again with everyone passing."""

    @staticmethod
    def needed(rules) -> bool:
        return any(getattr(rules.pm.hook, h).get_hookimpls() for h in ("skat_session_deal", "skat_session_after_deal"))

    @classmethod
    def for_chunk(cls, rules, factories, seed: int, start: int) -> Sheet:
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

    def play(self, i: int, dealt=None, outcomes=None) -> Played:
        """Deal ``i`` under the session: from ``outcomes`` (the compiled
        outcomes of the chunk) where they finished it and it was bid, else
        played through ``Deal`` (``dealt``: its :func:`seeded_deal`, or None)."""
        j = -1 if outcomes is None else i - outcomes.start
        if j >= 0 and not outcomes.unfinished[j] and not (self.active and outcomes.bid[j] == 0):
            first = Played.of_outcome(outcomes, j)
        else:
            first = Played.of_deal(*play_seeded(self.rules, self.factories, self.seed, i, dealt))
            if j >= 0:
                first.why = "all passed into a flow step" if outcomes.unfinished[j] else "all passed in a session"
        if not self.active:
            return first
        if i // SESSION_DEALS != self.block or (self.session and self.session.state.closed):
            self.block = i // SESSION_DEALS
            try:
                self.session = Session(self.rules, ("1", "2", "3"))
            except InputError:  # session rules this ruleset cannot run (Ramsch rounds where all pass throws in)
                self.session = None
        if self.session is None:
            return first
        for forced in (False, True):
            played = Played.of_deal(*play_seeded(self.rules, self.passing, self.seed, i, dealt)) if forced else first
            try:
                played.factor = self.session.enter(played.record(), played.result).factor
            except InputError:
                continue
            played.forced = forced
            if forced:
                played.why = "a Ramsch round of the session"
            return played
        return first


def session_record(deal: Deal) -> dict:
    """What the session rules read of a played deal's record: its summary,
    the steps' parts included (the pushes before a grand hand)."""
    return deal_record(deal, summary=True)


def outcome_record(out, j: int) -> dict:
    """:func:`session_record` of deal ``j`` of compiled outcomes, a declarer
    game (the compiled engine plays no step, so no step adds to it)."""
    d = out.tables.options[out.option[j]]
    game: dict = {"type": d.game, **{a: True for a in ("hand", "schneider", "schwarz", "ouvert") if getattr(d, a)}}
    if out.discard[j, 0] >= 0:
        game["discard"] = names([int(c) for c in out.discard[j]])
    said = out.declarations(j)
    if said:
        game["declarations"] = said
    return {"format": FORMAT, "ruleset": out.rules.name, "game": game, "declarer": SEATS[out.declarer[j]],
            "bid": int(out.bid[j])}
