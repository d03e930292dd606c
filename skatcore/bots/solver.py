"""Double-dummy solver: best play with every hand open, compiled with numba.

Works from any contract's :class:`~skatcore.rules.TrickTable` (suit, grand,
null, Ramsch), flattened once per table into one int64 array (:class:`Flat`).  A position is
three hands (bitmasks of card ids), the cards of the trick in progress, its
leader and the declarer; the solver answers threshold questions ("does the
declarer take at least ``need`` more card points / tricks from here?") and,
by a series of them, the exact outcome.

The search is a fail-soft alpha-beta on a window of card points (or
tricks): the threshold questions are null windows, the exact value a
series of them from the top down, each one below the upper bound the last
found, until one succeeds (Kupferschmid & Helmert's null-window searches), with

* a transposition table at trick boundaries: the cards still out and the
  leader identify the position (each card stays with the hand it was dealt
  to), and the table keeps a lower and an upper bound of what the declarer
  takes from there and the lead that settled it (tried first next time), so
  every later question about the same deal reuses it (8 MB, four entries to
  a cache line, the biggest subtrees kept); its bounds narrow the window;
* equal cards share an entry: in a run of cards adjacent in strength
  within a follow class with the same card points (the 9-8-7 of a suit,
  the jacks), which of them are left does not matter, only which seats hold
  them in which order (:func:`solver_table.learn`);
* like positions (K&H's quasi-symmetry): positions whose follow classes
  hold the same number of cards for the same seats in the same order of
  strength are played alike and differ only in card points; each keeps its
  bounds under a key of that shape too, and a like position's bounds,
  widened by the points that differ, bound this one;
* equivalent cards: of a hand's cards adjacent in strength within one follow
  class, with no card between them still in play and (when points count) the
  same card points, only one is searched (bit operations on the solver's
  own card numbering, see :class:`Flat`);
* sure winners at a trick's start: the card points of the leader's cards
  nobody can beat (cashed while every player with a ruff must follow), and
  each side's trumps above every trump of the other side, bound the take;
* three tricks left, a position the table's bounds do not settle is solved
  directly (an alpha-beta over the first trick's plays, each ending of two
  tricks by another; no nodes below) and its bound kept in the table;
* move ordering: winners and points first for the side that can take the
  trick (cheapest winner first), low cards and smears otherwise.

``NUMBA_DISABLE_JIT=1`` runs the same code as plain Python (slowly).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import solver_kernel as kernel
from . import solver_table
from .solver_kernel import MAX_DEPTH
from .solver_moves import ABOVE, CLASS, ENDS, EQUAL, FOLLOW, OUTER, POWER, ROWS, RUFF, SAME, STRENGTH, TRUMPS, WROW
from .solver_rule import TrickRule, split_alike, trick_rule  # noqa: F401 (trick_rule: for the solver's callers)
from .solver_table import GROUP_CARDS, MAX_GROUPS, NC, POINTS, TT_BUCKETS


class Flat:
    """A :class:`TrickTable` as the solver sees it.

    The solver numbers the cards its own way: each follow class takes
    adjacent bits, weakest card lowest (class 0 highest, trumps below the
    suits, cards outside the deck at the bottom).  The cards of a class
    stronger than ``c`` are then the class's bits above ``c``, and the next
    one still in play is the lowest of them - equivalent cards and sure
    winners come from a few bit operations.  ``T`` is the int64 array of
    the row constants; ``inner``/``outer`` translate card ids."""

    def __init__(self, table):
        power = [table.strength[table.follow[c]][c] for c in range(NC)]
        in_class = [bool(table.class_mask[table.follow[c]] >> c & 1) for c in range(NC)]
        def rank(c):
            return (4 - table.follow[c] if in_class[c] else -1, power[c])
        self.outer = sorted(range(NC), key=rank)  # solver id -> card id
        self.inner = [0] * NC                     # card id -> solver id
        for i, c in enumerate(self.outer):
            self.inner[c] = i
        # mask() translates eight card ids at a time
        self._bytes = [[sum(1 << self.inner[8 * i + j] for j in range(8) if b >> j & 1 and 8 * i + j < NC)
                        for b in range(256)] for i in range(5)]
        t = np.full((ROWS, NC), -1, dtype=np.int64)
        for i, c in enumerate(self.outer):
            k = table.follow[c]
            t[FOLLOW, i], t[POINTS, i], t[POWER, i] = k, table.points[c], power[c]
            mates = [d for d in range(NC) if in_class[c] and in_class[d] and table.follow[d] == k]
            t[ABOVE, i] = sum(1 << self.inner[d] for d in mates if power[d] > power[c])
            t[SAME, i] = sum(1 << self.inner[d] for d in mates if table.points[d] == table.points[c])
            for led in range(5):
                t[STRENGTH + led, i] = table.strength[led][c]
        for k in range(5):
            t[CLASS, k] = self.mask(table.class_mask[k])
        ruffs = [self._ruff(table, k, in_class) for k in range(5)]
        if len({r for r in ruffs if r}) > 1:
            # the quick tricks assume one set of trumps; any other table: every void player may ruff
            ruffs = [self.mask(sum(1 << c for c in range(NC) if in_class[c])) & ~t[CLASS, k] for k in range(5)]
        t[RUFF, :5] = ruffs
        t[RUFF, TRUMPS] = self._trumps(table, ruffs)
        t[OUTER] = self.outer
        t[EQUAL] = t[ABOVE]
        t[ENDS] = 0
        self.T = t
        by_value: dict[int, int] = {}
        for c in range(NC):
            if table.points[c]:
                by_value[table.points[c]] = by_value.get(table.points[c], 0) | 1 << c
        self.by_value = tuple(by_value.items())  # (card points, the card ids worth them): live() by bit counts
        self.groups = {goal: self._groups(table, in_class, goal == "tricks") for goal in ("points", "tricks")}

    def _groups(self, table, in_class: list[bool], tricks: bool) -> list[tuple[int, int]]:
        """Runs of equal cards (solver ids, ``(lowest, size)``): adjacent in
        strength within a follow class and, unless only tricks count, of the
        same card points; at most ``GROUP_CARDS`` to a run."""
        runs: list[tuple[int, int]] = []
        lo = 0
        for i in range(1, NC + 1):
            c, prev = (self.outer[i] if i < NC else -1), self.outer[i - 1]
            same = (i < NC and in_class[c] and in_class[prev] and table.follow[c] == table.follow[prev]
                    and (tricks or table.points[c] == table.points[prev]) and i - lo < GROUP_CARDS)
            if not same:
                if i - lo > 1 and in_class[prev]:
                    runs.append((lo, i - lo))
                lo = i
        return runs

    def _trumps(self, table, ruffs: list[int]) -> int:
        """The trumps (solver ids) if they beat every other card in any trick
        and keep their order whatever is led, else 0 (no bound on them)."""
        sets = {r for r in ruffs if r}
        if len(sets) != 1:
            return 0
        trumps = [self.outer[i] for i in range(NC) if next(iter(sets)) >> i & 1]
        others = [c for c in range(NC) if c not in trumps and table.strength[table.follow[c]][c] >= 0]
        for led in range(5):
            s = [table.strength[led][c] for c in trumps]  # weakest first
            if s != sorted(s) or len(set(s)) < len(s) or any(table.strength[led][c] >= s[0] for c in others):
                return 0
        return next(iter(sets))

    def _ruff(self, table, k: int, in_class: list[bool]) -> int:
        """The cards outside class ``k`` that beat all of it in a trick it leads."""
        mates = [c for c in range(NC) if in_class[c] and table.follow[c] == k]
        if not mates:
            return 0
        top = max(table.strength[k][c] for c in mates)
        return self.mask(sum(1 << c for c in range(NC)
                             if in_class[c] and table.follow[c] != k and table.strength[k][c] > top))

    def mask(self, cards: int) -> int:
        """A mask of card ids as a mask of solver ids."""
        m = 0
        for by in self._bytes:
            m |= by[cards & 255]
            cards >>= 8
        return m

    def spread(self, pos: Position, legal: int, out: np.ndarray) -> dict[int, int]:
        """By card id, each legal card's answer in ``out`` (by solver id): a
        card not searched takes the answer of the equivalent card above it."""
        T = self.T
        live = self.mask(pos.cards)
        legal = self.mask(legal)
        got: dict[int, int] = {}
        for i in range(NC - 1, -1, -1):  # strongest first within each class
            if legal >> i & 1:
                above = live & int(T[ABOVE, i])
                got[i] = int(out[i]) if out[i] >= 0 else got[(above & -above).bit_length() - 1]
        return {self.outer[i]: v for i, v in got.items()}


_FLAT: dict[int, tuple[object, Flat]] = {}


def flat_table(table) -> Flat:
    """The solver's view of ``table``, built once per :class:`TrickTable`."""
    hit = _FLAT.get(id(table))
    if hit is None or hit[0] is not table:
        hit = _FLAT[id(table)] = (table, Flat(table))
    return hit[1]


_NO_RULE = np.zeros((0, 0), dtype=np.int8)


@dataclass(frozen=True)
class Position:
    """Cards still to be played: ``hands`` (three bitmasks, by seat), the
    ``trick`` in progress (cards in play order) and its ``leader``."""

    hands: tuple[int, int, int]
    leader: int = 0
    trick: tuple[int, ...] = ()

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 3

    @property
    def cards(self) -> int:
        """The cards still in play: the hands' and the trick's."""
        cards = self.hands[0] | self.hands[1] | self.hands[2]
        for c in self.trick:
            cards |= 1 << c
        return cards

    def legal(self, table) -> int:
        hand = self.hands[self.to_move]
        if not self.trick:
            return hand
        f = hand & table.class_mask[table.follow[self.trick[0]]]
        return f or hand

    def play(self, card: int, table, rule: TrickRule | None = None) -> tuple[Position, int | None]:
        """The position after ``card``, and the seat that won the trick it
        completed (or None): by the card order, or by a plugin's ``rule``."""
        hands = list(self.hands)
        hands[self.to_move] &= ~(1 << card)
        left = (hands[0], hands[1], hands[2])
        trick = (*self.trick, card)
        if len(trick) < 3:
            return Position(left, self.leader, trick), None
        i = table.winner_index(trick) if rule is None else \
            rule.index(trick, sum(h.bit_count() for h in left), self.leader)
        winner = (self.leader + i) % 3
        return Position(left, winner, ()), winner


class _Shared:
    """One transposition table per process, reused by every solver (a new
    solver takes a new tag, so old entries never match)."""

    tt = None  # rows: key, bounds (see store); buckets of WAYS rows on 64-byte lines
    tag = 0

    @classmethod
    def take(cls):
        if cls.tt is None:
            raw = np.zeros(TT_BUCKETS * solver_table.WAYS * 2 + 8, dtype=np.int64)
            start = (-raw.ctypes.data % 64) // 8
            cls.tt = raw[start:start + TT_BUCKETS * solver_table.WAYS * 2].reshape(TT_BUCKETS * solver_table.WAYS, 2)
        # 24 bits of the key (solver_table._TAG_SHIFT): above them the like positions' flag
        cls.tag = cls.tag + 1 if cls.tag < solver_table.TAG_MASK else 1
        if cls.tag == 1:
            cls.tt[:, 0] = -1
        return cls.tag


class Solver:
    """Double-dummy questions about one deal (one ownership of the cards).

    :param table: the contract's :class:`~skatcore.rules.TrickTable`.
    :param hands: the three hands as dealt (or as they are now): the
        transposition table assumes every card stays with this seat.
    :param declarer: the seat whose take is counted (Ramsch: any seat).
    :param goal: ``"points"`` (card points) or ``"tricks"`` (null, schwarz).
    :param invert: count what the *other two* take (Ramsch: the seat to
        count wants the others to take the points).
    :param node_limit: give up a search after this many nodes (0: never):
        :meth:`reaches` then answers False and :attr:`aborted` counts it,
        :meth:`card_values` answers 2 (unknown) for that card.
    :param rule: who takes a trick where a plugin decides it
        (:func:`trick_rule`).  Cards adjacent in the card order are then no
        longer equal (the seven of trumps may take the last trick), nor is a
        card nobody can beat a sure winner: the search drops equal cards,
        like positions and sure-winner bounds, and tries every card.  The
        rule also holds the card points house rules add to a trick (its
        values are then the declarer's count with them).
    :param skat: the skat (a mask), where house rules count it at the end
        (the skat to whoever takes the last trick).
    """

    def __init__(self, table, declarer: int, goal: str = "points", invert: bool = False, node_limit: int = 0,
                 rule: TrickRule | None = None, skat: int | None = None):
        if goal not in ("points", "tricks"):
            raise ValueError(f"goal {goal!r}: expected 'points' or 'tricks'")
        self.table = table
        self.flat = flat_table(table)
        self.T = self.flat.T
        self.rule = rule
        self.W = _NO_RULE
        self.off = rule.offset if rule is not None else 0  # what the values count over the declarer's points
        self.declarer, self.goal, self.invert = declarer, goal, invert
        groups = self.flat.groups[goal][:MAX_GROUPS]
        # like positions (see solver_table.like_bounds): only where card points count; a run left out of
        # either key keeps its cards' own bits there (a finer key, as sound)
        like = self.flat.groups["tricks"][:MAX_GROUPS - len(groups)] if goal == "points" else []
        if rule is not None:  # equal cards only where the rule treats them alike; no like positions
            self.W, like = rule.wins, []
            self.T = t = self.T.copy()
            alike_of = [sum(1 << j for j in range(NC) if rule.alike[self.flat.outer[i], self.flat.outer[j]])
                        for i in range(NC)]
            t[SAME] = [int(t[SAME, i]) & alike_of[i] for i in range(NC)]
            t[EQUAL] = [int(t[ABOVE, i]) & alike_of[i] for i in range(NC)]
            t[WROW, :30] = rule.rows.ravel()
            t[ENDS, :3] = rule.last(declarer, skat)
            groups = [run for lo, size in groups for run in split_alike(lo, size, alike_of)]
        self.cfg = np.array([declarer, int(invert), int(goal == "tricks"), 0, node_limit, len(groups), len(like),
                             int(rule is not None)], dtype=np.int64)
        # the equal cards' canonical subsets (see solver_table.learn), by the seats the cards were seen with
        self.canon = np.zeros((MAX_GROUPS, 2 + (1 << GROUP_CARDS)), dtype=np.int64)
        if groups or like:
            self.canon[:len(groups) + len(like), :2] = groups + like
        self.owner = np.full(NC, -1, dtype=np.int64)
        self.new_deal(skat)
        self.moves = np.zeros((MAX_DEPTH, 32), dtype=np.int64)
        self.stats = np.zeros(64, dtype=np.int64)

    def new_deal(self, skat: int | None = None) -> None:
        """Forget the transposition table (call when the cards change hands;
        ``skat``: the new deal's, where house rules count it at the end)."""
        self.cfg[3] = _Shared.take()
        self.owner[:] = -1
        if self.rule is not None and self.rule.ends is not None:
            self.T[ENDS, :3] = self.rule.last(self.declarer, skat)

    @property
    def nodes(self) -> int:
        return int(self.stats[0])

    @property
    def aborted(self) -> int:
        """Searches given up at the node limit."""
        return int(self.stats[1])

    def _args(self, pos: Position) -> tuple[np.ndarray, int, int, int, int]:
        """The position as the compiled functions take it: hands, t0, t1, ntr, leader."""
        f = self.flat
        t = [f.inner[c] for c in pos.trick] + [0, 0]
        hands = np.array([f.mask(h) for h in pos.hands], dtype=np.int64)
        solver_table.learn(self.canon, self.cfg[5] + self.cfg[6], self.owner, hands)
        return hands, t[0], t[1], len(pos.trick), pos.leader

    def live(self, pos: Position) -> int:
        """What is still to be taken: card points, or tricks (the current one included)."""
        if self.goal == "tricks":
            return (sum(h.bit_count() for h in pos.hands) + len(pos.trick)) // 3
        cards = pos.cards
        return sum(v * (cards & m).bit_count() for v, m in self.flat.by_value)

    def _live(self, pos: Position) -> int:
        """The most the search counts from ``pos``: with house rules' card points, the offset twice over."""
        return self.live(pos) + 2 * self.off

    def reaches(self, pos: Position, need: int) -> bool:
        """Whether the declarer's side takes at least ``need`` more from ``pos``."""
        need += self.off
        return bool(kernel.search(self.T, self.W, self.cfg, self.canon, *self._args(pos), need - 1, need, self._live(pos),
                                  _Shared.tt, self.moves, 0, self.stats) >= need)

    def value(self, pos: Position) -> int:
        """What the declarer's side takes from ``pos`` under best play by all."""
        return int(kernel.value(self.T, self.W, self.cfg, self.canon, *self._args(pos), self._live(pos),
                                _Shared.tt, self.moves, 0, self.stats)) - self.off

    def play(self, pos: Position, card: int) -> tuple[Position, int | None]:
        """``pos.play`` by this solver's trick winners."""
        return pos.play(card, self.table, self.rule)

    def card_values(self, pos: Position, need: int | None = None) -> dict[int, int]:
        """For every legal card of the player to move: with ``need``, 1 if the
        declarer's side then still takes ``need`` more (else 0, or 2 when the
        node limit cut the search short); without, the exact amount it takes."""
        out = np.full(NC, -1, dtype=np.int64)
        kernel.root(self.T, self.W, self.cfg, self.canon, *self._args(pos), (0 if need is None else need) + self.off,
                    self._live(pos), need is None, _Shared.tt, self.moves, self.stats, out)
        got = self.flat.spread(pos, pos.legal(self.table), out)
        return {c: v - self.off for c, v in got.items()} if need is None and self.off else got
