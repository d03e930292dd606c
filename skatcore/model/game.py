"""Plain data of a game that the hooks exchange with the core: contracts, card
orders, multiplier items, win conditions, card-point rules, thresholds, the
tricks, and the facts and result of a finished game."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

SEATS = ("forehand", "middlehand", "rearhand")
FOREHAND, MIDDLEHAND, REARHAND = 0, 1, 2
ANNOUNCEMENTS = ("schneider", "schwarz", "ouvert")
GOALS = ("card_points", "no_trick", "fewest_points")


def null_label(hand: bool, ouvert: bool) -> str:
    """``null``, ``null hand``, ``null ouvert``, ``null ouvert hand``."""
    return " ".join(["null", *(["ouvert"] if ouvert else []), *(["hand"] if hand else [])])


@dataclass(frozen=True)
class Contract:
    """A game type a declarer can choose (or, like Ramsch, is played without one).

    The core reads only its capabilities (``declarer``, ``goal``, ``base`` /
    ``fixed``); ``family`` is a name plugins share to recognise each other's
    contracts (a Spitze only in ``suit`` and ``grand`` games).

    :param name: the ``game.type`` of a deal record (``clubs``, ``grand``, ``null``).
    :param family: ``suit``, ``grand``, ``null``, ``ramsch`` or a plugin's own.
    :param trump: the trump suit letter of a suit game, else ``None``.
    :param base: base value (suit and grand).
    :param fixed: fixed values of a null-like contract keyed by
        ``(hand, ouvert)``; a missing key means that form does not exist.
    :param label: how the explanation line names it ("spades", "grand").
    :param declarer: whether one player declares it against the other two
        (``False``: all against all, scored by ``skat_ramsch_scores``).
    :param goal: how the declarer wins: ``"card_points"`` (the thresholds,
        valued base x multiplier) or ``"no_trick"`` (taking no trick, at a
        fixed value); without a declarer ``"fewest_points"``.  Default: by
        card points when there is a ``base``, else by taking no trick.
    """

    name: str
    family: str
    trump: str | None = None
    base: int | None = None
    fixed: Mapping[tuple[bool, bool], int] = field(default_factory=dict)
    label: str = ""
    declarer: bool = True
    goal: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "fixed", MappingProxyType(dict(self.fixed)))
        if not self.label:
            object.__setattr__(self, "label", self.name)
        if not self.goal:
            goal = "card_points" if self.base is not None else "no_trick" if self.declarer else "fewest_points"
            object.__setattr__(self, "goal", goal)
        if self.goal not in GOALS:
            raise ValueError(f"contract {self.name!r}: goal {self.goal!r}: expected one of {', '.join(GOALS)}")

    @property
    def no_trick(self) -> bool:
        """Won by taking no trick: the deal ends with the declarer's first trick."""
        return self.goal == "no_trick"

    @property
    def valued_by_multiplier(self) -> bool:
        return self.base is not None


@dataclass(frozen=True)
class CardOrder:
    """Trick-taking order of a contract.

    :param trumps: trump cards from highest to lowest (``("CJ", "SJ", ...)``),
        empty when there are no trumps.  Trumps form one suit to follow.
    :param plain: ranks of the non-trump cards of every suit, highest first
        (``"AT KQ987"`` as a string ``"ATKQ987"``).
    :param points: card points by rank where they differ from the usual ones
        (docs/rules/official.md#a2).
    """

    trumps: tuple[str, ...]
    plain: str
    points: Mapping[str, int] | None = None  # rank -> card points, if not the usual (Ramsch tens worth 1)


@dataclass(frozen=True)
class Thresholds:
    """Card-point limits of suit and grand games (official: 61 / 90 / 31),
    the lines the declarer's card points are judged by - after the house
    rules' card points (:class:`CardPointRule`).  A scoring function reads
    them from the facts (``facts.thresholds.win``), never restates them.

    :param win: declarer points needed to win.
    :param schneider: declarer points that make the defenders schneider.
    :param out_of_schneider: declarer points that keep the declarer out of schneider.
    """

    win: int = 61
    schneider: int = 90
    out_of_schneider: int = 31


@dataclass(frozen=True)
class Declaration:
    """A contract as declared: what the declarer said before the first card.

    :param game: the contract's name (``Contract.name``, a record's ``game.type``).
    :param hand: played without picking up the skat.
    :param schneider: schneider announced.
    :param schwarz: schwarz announced.
    :param ouvert: played open.
    :param declarations: what plugins registered (``skat_register_declarations``)
        and the deal carries: Kontra and Re, Spitze, the Tournée card, pushes ...
    """

    game: str
    hand: bool = False
    schneider: bool = False
    schwarz: bool = False
    ouvert: bool = False
    declarations: Mapping[str, Any] = field(default_factory=dict)  # values as the plugin's schema says

    def __post_init__(self) -> None:
        object.__setattr__(self, "declarations", MappingProxyType(dict(self.declarations)))

    @cached_property  # read by every score and its explanation; the fields are frozen
    def announced(self) -> frozenset[str]:
        return frozenset(a for a in ANNOUNCEMENTS if getattr(self, a))


@dataclass(slots=True)  # read and written on every card a deal plays
class Trick:
    """One trick of a deal, as the facts list them (``GameFacts.tricks``,
    ``RamschFacts.played``) and a seat sees them.

    Words: the **winner** of a trick is a *seat* - the player who took it.
    Which *card* took it is an *index* into ``cards`` (``winner_index``),
    the way :func:`~skatcore.hookspecs.skat_trick_winner` speaks of cards:
    its argument ``winner`` and its answer are such an index, for a trick
    not yet given to anybody.  A seat and an index agree only when forehand
    led; ``leader`` converts one into the other.

    :param leader: the seat that led it (0 forehand, 1 middlehand, 2 rearhand).
    :param cards: its card ids in play order (``skatcore.cards.name`` gives ``"D7"``).
    :param winner: the seat that took it; ``None`` while it is played.
    """

    leader: int
    cards: list[int] = field(default_factory=list)
    winner: int | None = None

    @property
    def winner_index(self) -> int | None:
        """The index in ``cards`` of the card that took the trick (what
        ``skat_trick_winner`` calls ``winner``); ``None`` while it is played.
        The seats play in turn from the leader (of two seats in play, the
        other one follows)."""
        if self.winner is None:
            return None
        if self.winner == self.leader:
            return 0
        return 1 if len(self.cards) == 2 else (self.winner - self.leader) % 3

    @property
    def winning_card(self) -> int | None:
        """The card (id) that took the trick; ``None`` while it is played."""
        i = self.winner_index
        return None if i is None else self.cards[i]


@dataclass(frozen=True)
class GameFacts:
    """Everything known about a finished declarer game, for scoring.

    ``matadors`` is signed: +N "with N", -N "without N", 0 for null.
    Tricks are -1 when a summary record does not give them.  The schneider and
    schwarz flags are derived by the core from the ruleset's thresholds
    (``thresholds``: its win, schneider and out-of-schneider lines):
    ``defenders_schneider`` means the declarer reached the schneider line.
    ``last_trick`` is the last trick's cards in play order (empty for a
    summary record), ``last_trick_winner`` the seat that took it; ``tricks``
    every finished trick in order (:class:`Trick`: ``leader``, ``cards``,
    and ``winner``, the seat that took it; empty for a summary record).

    Card points: ``raw_points`` are the declarer's as the cards give them;
    the house rules' card points (:class:`CardPointRule`, hook
    ``skat_card_points``) are the ``card_points`` items, and
    ``declarer_points`` - what the lines are judged on, and what every
    multiplier item and win condition reads - is ``raw_points`` plus what
    the declarer was given less what the defenders were (``given``).
    Without such rules the two are equal.

    :param contract: the contract played.
    :param declaration: what the declarer declared, with the deal's declarations.
    :param bid: the winning bid.
    :param declarer: the declarer's seat (0 forehand, 1 middlehand, 2 rearhand).
    :param matadors: +N "with N", -N "without N", 0 for null.
    :param declarer_points: card points of the declarer, the skat included,
        with the house rules' card points (``given``).
    :param declarer_tricks: tricks the declarer took (-1: not known).
    :param defender_tricks: tricks the defenders took (-1: not known).
    :param made_points: the declarer reached the ruleset's winning line.
    :param defenders_schneider: the declarer reached the schneider line.
    :param declarer_schneider: the declarer stayed below the out-of-schneider line.
    :param defenders_schwarz: the defenders took no trick.
    :param declarer_schwarz: the declarer took no trick.
    :param last_trick: the last trick's cards in play order.
    :param last_trick_winner: the seat that took the last trick.
    :param tricks: every finished trick in order.
    :param seats: players at the table (3, or 4 when the dealer sits out).
    :param raw_points: the declarer's card points before the house rules'
        (``None``: as ``declarer_points``).
    :param card_points: the house rules' card points, every seat's (:class:`CardPointItem`).
    :param thresholds: the ruleset's lines (:class:`Thresholds`).
    :param skat: the cards of the skat at the end of the deal (counted for
        the declarer; empty for a summary record).
    """

    contract: Contract
    declaration: Declaration
    bid: int
    declarer: int
    matadors: int
    declarer_points: int
    declarer_tricks: int
    defender_tricks: int
    made_points: bool = False
    defenders_schneider: bool = False
    declarer_schneider: bool = False
    defenders_schwarz: bool = False
    declarer_schwarz: bool = False
    last_trick: tuple[int, ...] = ()
    last_trick_winner: int | None = None
    tricks: tuple[Trick, ...] = ()
    seats: int = 3
    raw_points: int | None = None
    card_points: tuple[CardPointItem, ...] = ()
    thresholds: Thresholds = Thresholds()
    skat: tuple[int, ...] = ()

    @property
    def given(self) -> int:
        """What the house rules' card points change of the declarer's count:
        given to the declarer, less given to the defenders."""
        return sum(i.points if i.seat == self.declarer else -i.points for i in self.card_points)


@dataclass(frozen=True)
class RamschFacts:
    """A finished deal without declarer (e.g. Ramsch), by seat index.

    ``points`` are card points from tricks only; the skat's cards are in
    ``skat`` and the plugin that scores it decides who gets them.  ``marks``
    holds what the deal's steps recorded (e.g. how the skat went round).
    ``seats`` are the seats that played to the tricks (a hand out of play,
    a dummy, took none and is nobody).  ``played`` lists the tricks
    (:class:`Trick`; empty for a summary record: ``tricks`` counts them).

    Where house rules give card points (:class:`CardPointRule`),
    ``points`` holds each seat's with them, ``raw_points`` as the tricks
    gave them and ``card_points`` the items; the plugin that scores the
    deal reads ``points``.
    """

    contract: Contract
    points: tuple[int, int, int]
    tricks: tuple[int, int, int]
    skat: tuple[int, ...]
    skat_points: int
    last_trick_winner: int
    marks: Mapping[str, Any] = field(default_factory=dict)
    seats: tuple[int, ...] = (0, 1, 2)
    played: tuple[Trick, ...] = ()
    raw_points: tuple[int, int, int] | None = None
    card_points: tuple[CardPointItem, ...] = ()


@dataclass(frozen=True)
class Series:
    """A series of deals (a "list"), hook ``skat_series``.

    :param deals: deals in a series.
    :param once_each: contract families (``suit``, ``grand``, ``null``,
        ``ramsch``) every player must declare exactly once per series (Raeuberskat).
        A session passes the families a player has declared to
        :class:`~skatcore.engine.deal.Deal` (``played=``), which then no longer offers them.
    """

    deals: int
    once_each: tuple[str, ...] = ()


@dataclass(frozen=True)
class TableCall:
    """A call a player may make out of turn during play (Kontra, Re,
    Schenken ...).

    It is recorded as ``declarations[key] = value`` on the deal's
    declaration, which is where scoring plugins read it.

    :param name: the call (and, unless ``key`` is given, the declaration key,
        registered via :func:`~skatcore.hookspecs.skat_register_declarations`).
    :param by: ``"defender"`` or ``"declarer"``.
    :param after: a call that must have been made first (``re`` after ``kontra``).
    :param window: until when it may be said: ``"own_first_card"`` (before
        the caller plays to trick 1), ``"first_lead"`` (before any card), or
        ``"next_card"`` (right after ``after``, before another card is played).
    :param until_trick: the trick those first two windows close in: 2 lets
        Kontra be said until the caller's own card of trick 2
        (``own_first_card``) or until trick 2 is led (``first_lead``).  A
        ruleset with a call open beyond trick 1 plays through ``Deal`` only
        (the compiled engines refuse it).
    :param may: optional ``(bidding, seat, declarer) -> bool`` for who may
        call, where ``bidding`` is the list of ``(seat, action)`` of the
        auction (the "18 rule").
    :param key: the declaration the call writes, when several calls write
        one declaration (Schenken offered / accepted / refused).
    :param value: what it writes (default ``True``).
    :param requires: declarations that must hold these values first
        (``None``: not yet said), e.g. ``{"schenken": "offered"}``.
    :param settles: the deal ends with this call, before the first card; it
        is scored from :func:`~skatcore.hookspecs.skat_settled_outcome`.
    """

    name: str
    by: str
    after: str | None = None
    window: str = "own_first_card"
    may: Callable[..., bool] | None = None
    key: str | None = None
    value: object = True
    requires: Mapping[str, object] | None = None
    settles: bool = False
    until_trick: int = 1

    @property
    def writes(self) -> str:
        return self.key or self.name


@dataclass(frozen=True)
class MultiplierItem:
    """One line of the multiplier ("with 2", "game", "hand", "schneider" ...).

    :param name: unique key; a wrapper may replace an item by name.
    :param count: ``facts -> int``, how much this item adds (0 = absent).
        For matadors it is the number of matadors.
    :param label: text for the explanation line, which adds the running
        multiplier ("game 3"); a callable label gets the facts ("with"/"without").
    :param factor: when true the item multiplies the running multiplier by
        ``count`` instead of adding (Texas ouvert doubles).

    The items fold in the order of ``CompiledRules.multiplier_items``: the
    running multiplier starts at 0, and each item whose ``count`` is not 0
    adds it (or, with ``factor``, multiplies by it) and shows as
    "label N" in the explanation ("with 2, game 3, hand 4").  That order is
    the order of ``skat_multiplier_items``' answers (the plugin listed last
    in the ruleset first); a wrapper reorders or replaces items by name, so
    a doubling item placed last doubles everything before it.
    """

    name: str
    count: Callable[[GameFacts], int]
    label: str | Callable[[GameFacts], str]
    factor: bool = False


@dataclass(frozen=True)
class WinCondition:
    """A condition a suit or grand declarer must meet to win.

    :param name: unique key; a wrapper may replace a condition by name.
    :param check: ``facts -> bool``.
    :param reason: short text for the explanation when it fails, formatted
        with ``facts`` (``"only {facts.declarer_points} card points"``).
    :param description: the rule in words, for ``skat rules`` and ``skat
        compare`` ("the declarer must take the last trick"), formatted with
        the ruleset's ``thresholds``; default: from ``reason``.
    """

    name: str
    check: Callable[[GameFacts], bool]
    reason: str
    description: str = ""


@dataclass(frozen=True)
class CardPointRule:
    """A house rule that gives card points (hook ``skat_card_points``):
    per trick, at the end of the deal, or both.  The core adds them to the
    seats' card points before the win, schneider and schwarz lines are
    judged, and shows them in the explanation ("card points 55 + 10 for the
    black jacks = 65").

    :param name: unique key; a wrapper may replace a rule by name.
    :param label: how the explanation names the points ("for the black jacks").
    :param trick: ``(trick, facts) -> points`` for each trick played
        (:class:`Trick`): an int goes to the trick's ``winner`` (the seat
        that took it), or a mapping ``{seat: points}``; 0 or ``{}``: nothing.
    :param end: ``facts -> {seat: points}`` once, at the end of the deal.
    :param description: the rule in words, for ``skat rules`` and ``skat
        compare`` ("+10 to whoever takes both black jacks in one trick").

    ``facts`` are the deal's :class:`GameFacts` (a declarer game) or
    :class:`RamschFacts` (no declarer; its tricks are ``played``), as the
    cards gave them.  The lines divide the deck's card points between the
    declarer and the defenders, so in a declarer game what one side is
    given counts against the other: the declarer's card points, which the
    lines judge, are the cards' count plus what the declarer was given,
    less what the defenders were.  To move points (the skat to a defender
    who takes the last trick) give them to the seat that gets them, and
    take them from nobody.  In a deal without declarer each seat counts
    its own.  A negative number takes points away.  Null games count no
    card points: the rules are not asked.
    """

    name: str
    label: str
    trick: Callable[[Trick, Any], int | Mapping[int, int]] | None = None
    end: Callable[[Any], Mapping[int, int]] | None = None
    description: str = ""


@dataclass(frozen=True)
class CardPointItem:
    """Card points a :class:`CardPointRule` gave one seat in one deal.

    :param name: the rule's name.
    :param label: the rule's label ("for the black jacks").
    :param seat: the seat given them (0 forehand, 1 middlehand, 2 rearhand).
    :param points: how many (negative: taken).
    """

    name: str
    label: str
    seat: int
    points: int


@dataclass
class ScoreResult:
    """The score of one deal; ``to_json()`` is what ``skat score --json``
    prints (docs/formats.md#score-result).  ``score`` is the declarer's sheet
    entry; ``scores`` maps every seat name to its entry."""

    ruleset: str
    game: str
    declarer: int | None
    bid: int | None
    hand: bool
    won: bool | None
    overbid: bool
    matadors: int | None
    multiplier: int | None
    value: int
    score: int
    scores: dict[str, int]
    declarer_points: int | None
    explanation: str
    items: list[tuple[str, int]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        mats = None
        if self.matadors:
            mats = {"with": self.matadors} if self.matadors > 0 else {"without": -self.matadors}
        out: dict[str, object] = {
            "ruleset": self.ruleset,
            "declarer": SEATS[self.declarer] if self.declarer is not None else None,
            "game": self.game,
            "hand": self.hand,
            "bid": self.bid,
            "won": self.won,
            "overbid": self.overbid,
            "matadors": mats,
            "multiplier": self.multiplier,
            "value": self.value,
            "score": self.score,
            "scores": dict(self.scores),
            "declarer_points": self.declarer_points,
            "explanation": self.explanation,
        }
        out.update(self.extra)
        return out
