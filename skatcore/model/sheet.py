"""Plain data of a score sheet that the session hooks exchange with the core:
the state of a session being scored, its lines, extra columns and the
settlement (:mod:`skatcore.records.session` fills them in)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from skatcore.model.game import SEATS, ScoreResult


@dataclass
class SheetLine:
    """One deal on the sheet.

    :param index: the deal's number on the sheet, from 1.
    :param dealer: the dealer's player index.
    :param seating: seat name -> player index of the three who played.
    :param record: the deal record as scored (a copy; ``players`` and
        ``dealer`` filled in by the session).
    :param result: the deal's :class:`~skatcore.model.ScoreResult`.
    :param base: the deal's own entries by player name (the sitting-out
        dealer 0), before session rules.
    :param entries: the entries that go on the sheet (``base`` x ``factor``
        once every :func:`~skatcore.hookspecs.skat_session_deal` ran).
    :param factor: session multiplier of this deal (Bock rounds: 2, 4 ...).
    :param marks: short notes shown on the line ("Bock", "Ramsch round 1/3").
    :param counts: whether the deal is one of the table's deals (series
        length, rounds); a grand hand in a Ramsch round is not.
    :param redeal: the same dealer deals the next deal.
    :param void: a voided deal (``skat sheet void``): struck through, it
        enters nothing and no session rule sees it (see ``SessionState.voided``).
    :param history: what was done to the deal after it was entered (the
        session record's ``history``: edited, voided), oldest first.
    :param totals: the running totals after this deal (set by the core).
    """

    index: int
    dealer: int
    seating: dict[str, int]
    record: dict
    result: ScoreResult
    base: dict[str, int]
    entries: dict[str, int]
    factor: int = 1
    marks: list[str] = field(default_factory=list)
    counts: bool = True
    redeal: bool = False
    totals: dict[str, int] = field(default_factory=dict)
    void: bool = False
    history: list[dict] = field(default_factory=list)

    def player(self, seat: int | str | None) -> str | None:
        """The name of the player in ``seat`` (index or name) of this deal."""
        if seat is None:
            return None
        seat = SEATS[seat] if isinstance(seat, int) else seat
        return self.players[self.seating[seat]]

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.record["players"])

    @property
    def declarer(self) -> str | None:
        """The declarer's name, ``None`` for a Ramsch or a thrown-in deal."""
        return self.player(self.result.declarer)

    @property
    def active(self) -> list[str]:
        """The three players of this deal, forehand first."""
        return [self.player(s) for s in SEATS]

    @property
    def sitting_out(self) -> str | None:
        """The dealer at a 4-table, who takes no cards."""
        return self.players[self.dealer] if len(self.players) == 4 else None

    @property
    def ouvert(self) -> bool:
        """Whether the game was played open (null ouvert, grand ouvert ...)."""
        game = self.record.get("game")
        return isinstance(game, dict) and game.get("ouvert") is True

    @property
    def announced(self) -> list[str]:
        """What the declarer announced, as scored (``["schneider", "schwarz"]``):
        an ouvert suit or grand announces both, schwarz announces schneider."""
        items = {name for name, _ in self.result.items}
        return [a for a in ("schneider", "schwarz") if f"{a} announced" in items]

    @property
    def label(self) -> str:
        """The game as a player says it: ``clubs hand schneider announced``,
        ``grand ouvert hand``, ``null ouvert``."""
        r = self.result
        words = [r.game, *(["ouvert"] if self.ouvert and "ouvert" not in r.game else []),
                 *(["hand"] if r.hand and "hand" not in r.game else [])]
        if self.announced and not self.ouvert:  # ouvert says schwarz announced already
            words.append(f"{self.announced[-1]} announced")
        return " ".join(words)

    def to_json(self) -> dict:
        r = self.result
        return {
            "deal": self.index,
            "dealer": self.players[self.dealer],
            "declarer": self.declarer,
            "game": r.game,
            "hand": r.hand,
            "ouvert": self.ouvert,
            "announced": self.announced,
            "label": self.label,
            "bid": r.bid,
            "won": r.won,
            "value": r.value,
            "score": r.score,
            "factor": self.factor,
            "entries": dict(self.entries),
            "totals": dict(self.totals),
            "marks": list(self.marks),
            "counts": self.counts,
            "void": self.void,
            "explanation": r.explanation,
            **({"id": self.record["id"]} if "id" in self.record else {}),
            **({"history": list(self.history)} if self.history else {}),
        }


@dataclass
class Column:
    """A column added at the end of the session (see
    :func:`~skatcore.hookspecs.skat_session_extra`).

    :param key: a short unique name (``seeger_fabian``).
    :param label: the heading printed on the sheet.
    :param values: by player name.
    :param money: amounts of money (settled with the rest) rather than
        points (added to the final totals).
    """

    key: str
    label: str
    values: dict[str, Any]
    money: bool = False


@dataclass
class Outlook:
    """What a session rule says of the deals to come (see
    :func:`~skatcore.hookspecs.skat_session_outlook`).

    :param next: the next deal in words, empty when it is an ordinary one
        (``"Bock"``, ``"Ramsch round 2 (1/4): a Ramsch, or a grand hand
        instead of pushing"``).
    :param bidding: whether the next deal is bid (a Ramsch round: no).
    :param factor: the session multiplier the next deal will have.
    :param owed: deals still to play by kind, as the rule foresees them now
        (``{"Bock": 8, "Ramsch round": 12}``); kinds with none left out.
    """

    next: str = ""
    bidding: bool = True
    factor: int = 1
    owed: dict[str, int] = field(default_factory=dict)


@dataclass
class Settlement:
    """Who pays whom at the end (see :func:`~skatcore.hookspecs.skat_session_settlement`).

    :param net: money by player name (positive: receives); sums to 0 for a
        pairwise settlement.
    :param transfers: ``(payer, payee, amount)`` for each pair that settles.
    :param method: how it was computed (``pairwise``, ``direct``);
        ``none`` settles nothing (and stops the core's default).
    """

    net: dict[str, Decimal] = field(default_factory=dict)
    transfers: list[tuple[str, str, Decimal]] = field(default_factory=list)
    method: str = "none"


@dataclass
class SessionState:
    """A session as it is being scored; every session hook gets it.

    ``data`` is scratch space for plugins, one key per plugin by convention
    (``state.data["bock"]``); ``notes`` are lines printed under the sheet
    (pending Bock rounds, the Bierlachs loser); ``closed`` names why no more
    deals may follow (a Bierlachs game is over), ``None`` while open.
    ``voided`` holds the struck-through deals: on the printed sheet, but not
    in ``lines``, so no session rule ever sees them (as if not dealt).
    """

    rules: Any
    players: tuple[str, ...]
    stake: Decimal | None = None
    first_dealer: int = 0
    dealer: int = 0
    lines: list[SheetLine] = field(default_factory=list)
    voided: list[SheetLine] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    closed: str | None = None

    @property
    def sheet_lines(self) -> list[SheetLine]:
        """Every line of the printed sheet in order, voided deals included."""
        return sorted(self.lines + self.voided, key=lambda line: line.index)

    @property
    def table_size(self) -> int:
        return len(self.players)

    def hook(self, name: str, **kwargs):
        """Call a session hook.  A plugin's :class:`InputError` is about the
        session (its source is set by the caller); any other exception is a
        bug of the plugin and becomes a one-line error naming it."""
        return self.rules.pm.call(name, state=self, **kwargs)
