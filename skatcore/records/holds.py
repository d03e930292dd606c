"""What the record of a real game holds, and whether a ruleset can score it.

A record need not hold the whole play.  An ISS game may end by a claim (the
declarer lays the cards open, the defenders resign), by a concession, or
because a player left or timed out; a deal record may stop once the game is
decided (A8), or be a summary (what a score sheet notes: points, tricks,
matadors).  The official rules' scoring reads nothing of the play beyond
that; a house rule may read the last trick or every trick
(:data:`skatcore.engine.probe.PLAY_FIELDS`), and a ``skat_trick_winner``
plugin decides who takes each trick.  Such a ruleset cannot score a game
whose record lacks those tricks: the game is refused with what it lacks and
what the ruleset reads (:class:`NotHeld`), never scored on tricks it does
not have.  Which fields a ruleset's scoring reads is asked per game, of the
facts at hand (:func:`skatcore.engine.probe.play_read`): a rule may read the
last trick only for some contracts.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from skatcore.engine.probe import PLAY_FIELDS, describe, play_read
from skatcore.errors import InputError
from skatcore.model import SEATS


class Ending(Enum):
    """How the record of a game ends."""

    PLAYED = "played to the end"         # every trick, or a null the declarer lost by taking one
    CLAIM = "ended by a claim"           # the declarer laid the cards open, a defender resigned to it
    CONCEDED = "conceded"                # a side resigned (ISS ``RE``) without a claim
    LEFT = "a player left"               # ISS ``LE.n``
    TIMED_OUT = "a player timed out"     # ISS ``TI.n``
    DECIDED = "stopped once decided"     # A8: the outcome could no longer change
    SUMMARY = "a summary only"           # a deal record's outcome, without the play


@dataclass(frozen=True)
class Holds:
    """The facts a game's record holds: how it ends, after how many of its
    tricks, and who ended it (a seat that left, the side that conceded)."""

    ending: Ending
    tricks: int = 0     # tricks played to the end in the record
    of: int = 10        # tricks a deal has
    who: str = ""       # "rearhand" (left, timed out), "the defenders" (conceded)

    @property
    def whole(self) -> bool:
        """Whether the record holds the play to the end."""
        return self.ending is Ending.PLAYED

    @property
    def lacks(self) -> frozenset[str]:
        """The facts of :class:`~skatcore.model.GameFacts` the record does not
        hold (a game ended early still holds its skat, a summary not)."""
        if self.whole:
            return frozenset()
        return PLAY_FIELDS if self.ending is Ending.SUMMARY else PLAY_FIELDS - {"skat"}

    @property
    def kind(self) -> str:
        """How it ends, without the trick: what games are counted apart by."""
        if self.ending is Ending.CONCEDED:
            return f"{self.who or 'a player'} conceded"
        return self.ending.value

    def __str__(self) -> str:
        if self.ending is Ending.SUMMARY:
            return "a summary only (the outcome, not every card played)"
        after = f"after {self.tricks} of {self.of} tricks"
        if self.ending in (Ending.LEFT, Ending.TIMED_OUT) and self.who:
            return f"{self.who} {'left' if self.ending is Ending.LEFT else 'timed out'} {after}"
        return f"{self.kind} {after}"


def played_holds(deal, ending: Ending | None = None, who: str = "") -> Holds:
    """What a replayed, finished ``deal`` holds: played to the end unless a
    concession (or ``ending``) ended it before its last trick."""
    n = sum(1 for t in deal.tricks if t.winner is not None)
    if ending is None:
        if not deal.concession_by:
            ending = Ending.PLAYED
        else:
            ending, who = Ending.CONCEDED, "the declarer" if deal.concession_by == "declarer" else "the defenders"
    return Holds(ending, n, deal.rules.deck.hand, who)


class Refused(InputError):
    """A real game a ruleset cannot score: ``reason`` says why without the
    game's own details (what ``skat compare --games`` counts games by), the
    message with them."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


class NotHeld(Refused):
    """A game whose record lacks what a ruleset reads; ``holds``: what the record holds."""

    def __init__(self, message: str, reason: str, holds: Holds):
        super().__init__(message, reason)
        self.holds = holds


def check_held(rules, facts, holds: Holds, hint: str = ""):
    """:class:`NotHeld` where the record (``holds``) lacks what ``rules``
    read to score ``facts``: the tricks a ``skat_trick_winner`` plugin
    decides, or the play its scoring read; else the score of ``facts``
    (None for a game played to the end: nothing to check).  A summary's
    tricks and card points are as the players counted them, so a
    trick-winner rule takes a summary as it is (docs/rules/house-rules.md#b14).
    ``hint``: what to give instead, after the message."""
    if holds.whole:
        return None
    if rules.trick_hook and holds.ending is not Ending.SUMMARY:
        plugins = " and ".join(repr(p) for p in trick_plugins(rules))
        decides = f"{plugins} {'decides' if ' and ' not in plugins else 'decide'} who takes a trick"
        raise NotHeld(f"{holds}: in ruleset {rules.name!r} {decides}: who would take the tricks not played is not "
                      "known", f"{holds.kind}: {decides}", holds)
    result, read = play_read(rules, facts)
    if isinstance(result, Exception):  # the plugin's own words first
        raise result
    read = {n: w for n, w in read.items() if n in holds.lacks or n.endswith("*")}  # "*": read every field
    if read:
        raise NotHeld(f"{holds}: ruleset {rules.name!r} scores from the play ({describe(read)}), which the record "
                      f"does not hold{hint}", f"{holds.kind}: {describe(read)}", holds)
    return result


def trick_plugins(rules) -> list[str]:
    """The plugins that answer ``skat_trick_winner`` in ``rules``."""
    return [impl.plugin_name for impl in rules.pm.hook.skat_trick_winner.get_hookimpls()]


def other_trick_winner(deal, message: str) -> Refused | None:
    """Where a ``skat_trick_winner`` plugin gave a trick of a three-seat
    ``deal`` to another player than the card order (the server's rules)
    does: the error of the move that then comes out of turn (``message``),
    naming that trick, since the record's play after it is not this ruleset's."""
    if not deal.rules.trick_hook or deal.contract is None:
        return None
    order = deal.rules.tricks[deal.contract.name]
    for n, t in enumerate(deal.tricks, start=1):
        if t.winner is not None and t.winner != (by_order := (t.leader + order.winner_index(t.cards)) % 3):
            plugins = " and ".join(repr(p) for p in trick_plugins(deal.rules))
            why = "the play that followed is not this ruleset's"
            return Refused(f"{message}; in ruleset {deal.rules.name!r} {plugins} gave trick {n} to {SEATS[t.winner]}, "
                           f"the card order to {SEATS[by_order]}: {why}",
                           f"{plugins} gave a trick to another player than the card order: {why}")
    return None
