"""Double-dummy solver: best play with every hand open, compiled with numba.

Works from any contract's :class:`~skatcore.rules.TrickTable` (suit, grand,
null, Ramsch), flattened once per table into one int64 array (:class:`Flat`).  A position is
three hands (bitmasks of card ids), the cards of the trick in progress, its
leader and the declarer; the solver answers threshold questions ("does the
declarer take at least ``need`` more card points / tricks from here?") and,
by bisection over them, the exact outcome.

The search is an alpha-beta over the boolean question (a null-window search
in Kupferschmid & Helmert's sense) with

* a transposition table at trick boundaries: the cards still out and the
  leader identify the position (each card stays with the hand it was dealt
  to), and the table keeps a lower and an upper bound of what the declarer
  takes from there, so every later question about the same deal reuses it
  (2 MB, four entries to a cache line, the biggest subtrees kept);
* equivalent cards: of a hand's cards adjacent in strength within one follow
  class, with no card between them still in play and (when points count) the
  same card points, only one is searched (bit operations on the solver's
  own card numbering, see :class:`Flat`);
* the last trick is settled directly;
* move ordering: winners and points first for the side that can take the
  trick, low cards and smears otherwise;
* point bounds: the question is settled as soon as ``need`` is 0 or exceeds
  what is still in play.

``NUMBA_DISABLE_JIT=1`` runs the same code as plain Python (slowly).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..cards import CARD_NAMES, cards_in

NC = len(CARD_NAMES)  # card ids 0..35 (the sixes of a 36-card deck included)
TRUMP = 4

# rows of the flattened trick table, indexed by the solver's own card ids (see flatten)
_FOLLOW, _POINTS, _POWER = 0, 1, 2
_ABOVE = 3             # the cards of the same class that beat it
_SAME = 4              # the cards of the same class with as many card points
_STRENGTH = 5          # 5 rows: strength of each card in a trick led with class k
_CLASS = 10            # cols 0..4: the mask of class k
_ROWS = 11

TT_BUCKETS = 1 << 15   # buckets of the transposition table: 2 MB, one cache line each
_WAYS = 4              # entries of 16 bytes in a bucket
_CARDS = (1 << 36) - 1
_TAG_SHIFT = 38        # key = cards out (36 bits) | leader << 36 | tag << 38
MAX_DEPTH = 40

POINTS_GOAL, TRICKS_GOAL = 0, 1

# the card of a one-card mask b is _BIT[b % 37] (2 is a primitive root mod 37)
_BIT = np.zeros(37, dtype=np.int64)
for _c in range(NC):
    _BIT[(1 << _c) % 37] = _c
_MOD3 = np.array([0, 1, 2, 0, 1, 2], dtype=np.int64)


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
        rank = lambda c: (4 - table.follow[c] if in_class[c] else -1, power[c])
        self.outer = sorted(range(NC), key=rank)  # solver id -> card id
        self.inner = [0] * NC                     # card id -> solver id
        for i, c in enumerate(self.outer):
            self.inner[c] = i
        # mask() translates eight card ids at a time
        self._bytes = [[sum(1 << self.inner[8 * i + j] for j in range(8) if b >> j & 1 and 8 * i + j < NC)
                        for b in range(256)] for i in range(5)]
        t = np.full((_ROWS, NC), -1, dtype=np.int64)
        for i, c in enumerate(self.outer):
            k = table.follow[c]
            t[_FOLLOW, i], t[_POINTS, i], t[_POWER, i] = k, table.points[c], power[c]
            mates = [d for d in range(NC) if in_class[c] and in_class[d] and table.follow[d] == k]
            t[_ABOVE, i] = sum(1 << self.inner[d] for d in mates if power[d] > power[c])
            t[_SAME, i] = sum(1 << self.inner[d] for d in mates if table.points[d] == table.points[c])
            for led in range(5):
                t[_STRENGTH + led, i] = table.strength[led][c]
        for k in range(5):
            t[_CLASS, k] = self.mask(table.class_mask[k])
        self.T = t


    def mask(self, cards: int) -> int:
        """A mask of card ids as a mask of solver ids."""
        m = 0
        for by in self._bytes:
            m |= by[cards & 255]
            cards >>= 8
        return m

    def spread(self, pos: "Position", legal: int, out: np.ndarray) -> dict[int, int]:
        """By card id, each legal card's answer in ``out`` (by solver id): a
        card not searched takes the answer of the equivalent card above it."""
        T = self.T
        live = self.mask(pos.hands[0] | pos.hands[1] | pos.hands[2] | sum(1 << c for c in pos.trick))
        legal = self.mask(legal)
        got: dict[int, int] = {}
        for i in range(NC - 1, -1, -1):  # strongest first within each class
            if legal >> i & 1:
                above = live & int(T[_ABOVE, i])
                got[i] = int(out[i]) if out[i] >= 0 else got[(above & -above).bit_length() - 1]
        return {self.outer[i]: v for i, v in got.items()}


_FLAT: dict[int, tuple[object, Flat]] = {}


def flat_table(table) -> Flat:
    """The solver's view of ``table``, built once per :class:`TrickTable`."""
    hit = _FLAT.get(id(table))
    if hit is None or hit[0] is not table:
        hit = _FLAT[id(table)] = (table, Flat(table))
    return hit[1]


@njit(cache=True, inline="always")
def _card(b):
    """The card of the one-card mask ``b``."""
    return _BIT[np.uint64(b) % np.uint64(37)]


@njit(cache=True, inline="always")
def _trick_winner(T, c0, c1, c2):
    k = T[_FOLLOW, c0]
    a, b, d = T[_STRENGTH + k, c0], T[_STRENGTH + k, c1], T[_STRENGTH + k, c2]
    if a > b and a > d:
        return 0
    if b > d:
        return 1
    return 2


@njit(cache=True, inline="always")
def _moves(T, hands, t0, t1, ntr, leader, declarer, invert, tricks_goal, out, d):
    """Fill ``out[d, :n]`` with the cards worth searching for the player to
    move, best first (``out[d, 16:16 + n]`` holds their ordering scores);
    return n."""
    p = leader + ntr
    if p >= 3:
        p -= 3
    hand = hands[p]
    live = hands[0] | hands[1] | hands[2]
    legal = hand
    lead_k = 0
    best_s = -1
    friendly = False
    if ntr > 0:
        live |= np.int64(1) << t0
        lead_k = T[_FOLLOW, t0]
        f = hand & T[_CLASS, lead_k]
        if f != 0:
            legal = f
        best_seat = leader
        best_s = T[_STRENGTH + lead_k, t0]
        if ntr > 1:
            live |= np.int64(1) << t1
            if T[_STRENGTH + lead_k, t1] > best_s:
                best_s = T[_STRENGTH + lead_k, t1]
                best_seat = leader + 1 if leader < 2 else 0
        # the trick now goes where the player to move wants it
        friendly = ((best_seat == declarer) == (p == declarer)) != (invert == 1)
    same = _ABOVE if tricks_goal == 1 else _SAME  # (in tricks, points do not matter)
    n = 0
    rest = legal
    while rest != 0:  # weakest first; ties end up strongest first
        b = rest & -rest
        rest ^= b
        c = _card(b)
        above = live & T[_ABOVE, c]
        if above & -above & hand & T[same, c] != 0:
            continue  # equivalent to the next stronger card still in play
        pts = T[_POINTS, c]
        if tricks_goal == 1:
            pts = 0
        if ntr == 0:  # lead a sure winner with points, else something low
            if above & ~hand == 0:
                sc = 100 + pts
            else:
                sc = -pts - (T[_POWER, c] >> 2)
        elif friendly:
            sc = pts  # smear
        elif T[_STRENGTH + lead_k, c] > best_s:
            sc = 200 + pts - (T[_POWER, c] if ntr == 2 else 0)  # take it, cheaply when last
        else:
            sc = -pts - (T[_POWER, c] >> 2)
        # insertion, highest score first
        j = n
        while j > 0 and out[d, 16 + j - 1] <= sc:
            out[d, j] = out[d, j - 1]
            out[d, 16 + j] = out[d, 16 + j - 1]
            j -= 1
        out[d, j] = c
        out[d, 16 + j] = sc
        n += 1
    return n


@njit(cache=True)
def _popcount(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x += x >> 8
    x += x >> 16
    return (x + (x >> 32)) & 0x7F


@njit(cache=True, inline="always")
def _store(tt, base, key, tag, need, live, r):
    """Record in the bucket at ``base`` that the declarer's side does (``r``)
    or does not take ``need`` more from the position ``key``.  An entry's second word packs the bounds: lower | upper << 8 |
    cards remaining << 16; a full bucket gives up its entry of this deal with
    the fewest cards left (the cheapest to search again) or one of an old deal."""
    slot = -1
    worst = 1 << 30
    for j in range(base, base + _WAYS):
        k = tt[j, 0]
        if k == key:
            slot = j
            break
        size = -1 if (k >> _TAG_SHIFT) != tag else (tt[j, 1] >> 16)
        if size < worst:
            worst = size
            slot = j
    if tt[slot, 0] == key:
        lo, hi = tt[slot, 1] & 0xFF, (tt[slot, 1] >> 8) & 0xFF
    else:
        tt[slot, 0] = key
        lo, hi = 0, live
    if r:
        lo = max(lo, need)
    else:
        hi = min(hi, need - 1)
    tt[slot, 1] = lo | (hi << 8) | (_popcount(key & _CARDS) << 16)


# stack frame fields of the iterative search
_F_NTR, _F_LEADER, _F_T0, _F_T1, _F_NEED, _F_LIVE, _F_N, _F_I, _F_KEY, _F_SLOT, _F_RESULT = range(11)


@njit(cache=True)
def _search(T, cfg, hands, t0, t1, ntr, leader, need, live, tt, moves, depth, stats):
    """Whether the declarer's side takes ``need`` more (points or tricks)
    from this position: ``ntr`` cards ``t0``, ``t1`` of the trick led by
    ``leader`` are down; ``live`` is what is still to be taken.

    An alpha-beta over the boolean question, iterative (an explicit stack in
    ``moves``' rows from ``depth`` on) so that a node costs no function call."""
    declarer, invert, tricks_goal, tag, limit = cfg[0], cfg[1], cfg[2], cfg[3], cfg[4]
    F = np.empty((MAX_DEPTH, 11), dtype=np.int64)
    d = depth
    F[d, _F_NTR], F[d, _F_LEADER], F[d, _F_T0], F[d, _F_T1], F[d, _F_NEED], F[d, _F_LIVE] = ntr, leader, t0, t1, need, live
    nodes = 0
    r = False
    entering = True
    while True:
        if entering:
            # a new node at depth d: settle it at once, or set up its moves
            nodes += 1
            if limit > 0 and nodes > limit:
                # over budget: take back the cards on the stack and give up
                for e in range(d - 1, depth - 1, -1):
                    q = _MOD3[F[e, _F_LEADER] + F[e, _F_NTR]]
                    hands[q] ^= np.int64(1) << moves[e, F[e, _F_I]]
                stats[0] += nodes
                stats[1] += 1
                return False
            ntr, leader, need, live = F[d, _F_NTR], F[d, _F_LEADER], F[d, _F_NEED], F[d, _F_LIVE]
            settled = True
            if need <= 0:
                r = True
            elif need > live:
                r = False
            else:
                settled = False
                if ntr == 0:
                    rem = hands[0] | hands[1] | hands[2]
                    ncards = _popcount(rem)
                    if ncards == 3:
                        # the last trick: one card each, no choice left
                        w = _MOD3[leader + _trick_winner(T, _card(hands[leader]), _card(hands[_MOD3[leader + 1]]),
                                                         _card(hands[_MOD3[leader + 2]]))]
                        r = (w == declarer) != (invert == 1)
                        settled = True
                    else:
                        key = rem | (leader << 36) | (tag << _TAG_SHIFT)
                        base = ((((key & 0xFFFFFFFF) * 0x5BD1E995 + (key >> 32) * 0x2545F491) >> 16)
                                & (TT_BUCKETS - 1)) * _WAYS
                        F[d, _F_KEY], F[d, _F_SLOT] = key, base
                        for j in range(base, base + _WAYS):
                            if tt[j, 0] == key:
                                lo, hi = tt[j, 1] & 0xFF, (tt[j, 1] >> 8) & 0xFF
                                if lo >= need:
                                    r = True
                                    settled = True
                                elif hi < need:
                                    r = False
                                    settled = True
                                break
            if not settled:
                p = _MOD3[leader + ntr]
                F[d, _F_N] = _moves(T, hands, F[d, _F_T0], F[d, _F_T1], ntr, leader, declarer, invert, tricks_goal, moves, d)
                F[d, _F_I] = 0
                F[d, _F_RESULT] = 0 if p == declarer else 1
            entering = False
        else:
            # back from a child with answer r: undo its card, cut off or go on
            settled = False
            i = F[d, _F_I]
            ntr, leader = F[d, _F_NTR], F[d, _F_LEADER]
            p = _MOD3[leader + ntr]
            hands[p] ^= np.int64(1) << moves[d, i]
            maxing = p == declarer
            F[d, _F_I] = i + 1
            if r == maxing:
                F[d, _F_RESULT] = 1 if r else 0
                settled = True
            elif i + 1 >= F[d, _F_N]:
                settled = True
            if settled:
                r = F[d, _F_RESULT] == 1
                if ntr == 0:
                    _store(tt, F[d, _F_SLOT], F[d, _F_KEY], tag, F[d, _F_NEED], F[d, _F_LIVE], r)
        if settled:
            if d == depth:
                stats[0] += nodes
                return r
            d -= 1
            continue
        # play the next move of node d into a child at d + 1
        i = F[d, _F_I]
        ntr, leader = F[d, _F_NTR], F[d, _F_LEADER]
        p = _MOD3[leader + ntr]
        c = moves[d, i]
        hands[p] ^= np.int64(1) << c
        e = d + 1
        F[e, _F_T0], F[e, _F_T1], F[e, _F_NEED], F[e, _F_LIVE] = F[d, _F_T0], F[d, _F_T1], F[d, _F_NEED], F[d, _F_LIVE]
        F[e, _F_LEADER] = leader
        F[e, _F_NTR] = ntr + 1
        if ntr == 0:
            F[e, _F_T0] = c
        elif ntr == 1:
            F[e, _F_T1] = c
        else:
            t0, t1 = F[d, _F_T0], F[d, _F_T1]
            w = _MOD3[leader + _trick_winner(T, t0, t1, c)]
            weight = 1
            if tricks_goal == 0:
                weight = T[_POINTS, t0] + T[_POINTS, t1] + T[_POINTS, c]
            F[e, _F_NTR] = 0
            F[e, _F_LEADER] = w
            F[e, _F_LIVE] -= weight
            if (w == declarer) != (invert == 1):
                F[e, _F_NEED] -= weight
        d = e
        entering = True


@njit(cache=True)
def _value(T, cfg, hands, t0, t1, ntr, leader, lo, hi, live, tt, moves, depth, stats):
    """The exact amount the declarer's side takes, known to lie in [lo, hi]."""
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _search(T, cfg, hands, t0, t1, ntr, leader, mid, live, tt, moves, depth, stats):
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit(cache=True)
def _root(T, cfg, hands, t0, t1, ntr, leader, need, live, exact, tt, moves, stats, out):
    """For each card the player to move may play, ``out[card]`` = whether the
    declarer's side then takes ``need`` more (0/1), or with ``exact`` how much
    it takes; cards equivalent to a searched one get no entry."""
    p = _MOD3[leader + ntr]
    n = _moves(T, hands, t0, t1, ntr, leader, cfg[0], cfg[1], cfg[2], moves, 0)
    one = np.int64(1)
    for i in range(n):
        c = moves[0, i]
        b = np.int64(1) << c
        hands[p] ^= b
        credit = 0
        a0, a1, nt, nl, nlive = t0, t1, ntr + 1, leader, live
        if ntr == 0:
            a0 = c
        elif ntr == 1:
            a1 = c
        else:
            w = _MOD3[leader + _trick_winner(T, t0, t1, c)]
            weight = 1
            if cfg[2] == 0:
                weight = T[_POINTS, t0] + T[_POINTS, t1] + T[_POINTS, c]
            credit = weight if (w == cfg[0]) != (cfg[1] == 1) else 0
            nt, nl, nlive = np.int64(0), w, live - weight
        if exact:
            out[c] = credit + _value(T, cfg, hands, a0, a1, nt, nl, np.int64(0), nlive, nlive, tt, moves,
                                     one, stats)
        else:
            aborted = stats[1]
            out[c] = 1 if _search(T, cfg, hands, a0, a1, nt, nl, need - credit, nlive, tt, moves, one,
                                  stats) else 0
            if stats[1] != aborted:
                out[c] = 2  # unknown: the node budget ran out
        hands[p] ^= b
    return n


# ---------------------------------------------------------------------------
# Python side
# ---------------------------------------------------------------------------


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

    def legal(self, table) -> int:
        hand = self.hands[self.to_move]
        if not self.trick:
            return hand
        f = hand & table.class_mask[table.follow[self.trick[0]]]
        return f or hand

    def play(self, card: int, table) -> tuple["Position", int | None]:
        """The position after ``card``, and the seat that won the trick it completed (or None)."""
        hands = list(self.hands)
        hands[self.to_move] &= ~(1 << card)
        trick = self.trick + (card,)
        if len(trick) < 3:
            return Position(tuple(hands), self.leader, trick), None
        winner = (self.leader + table.winner_index(trick)) % 3
        return Position(tuple(hands), winner, ()), winner


class _Shared:
    """One transposition table per process, reused by every solver (a new
    solver takes a new tag, so old entries never match)."""

    tt = None  # rows: key, bounds (see _store); buckets of _WAYS rows on 64-byte lines
    tag = 0

    @classmethod
    def take(cls):
        if cls.tt is None:
            raw = np.zeros(TT_BUCKETS * _WAYS * 2 + 8, dtype=np.int64)
            start = (-raw.ctypes.data % 64) // 8
            cls.tt = raw[start:start + TT_BUCKETS * _WAYS * 2].reshape(TT_BUCKETS * _WAYS, 2)
        cls.tag = cls.tag + 1 if cls.tag < (1 << 24) else 1
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
    """

    def __init__(self, table, declarer: int, goal: str = "points", invert: bool = False, node_limit: int = 0):
        if goal not in ("points", "tricks"):
            raise ValueError(f"goal {goal!r}: expected 'points' or 'tricks'")
        self.table = table
        self.flat = flat_table(table)
        self.T = self.flat.T
        self.declarer, self.goal, self.invert = declarer, goal, invert
        self.cfg = np.array([declarer, int(invert), int(goal == "tricks"), 0, node_limit], dtype=np.int64)
        self.new_deal()
        self.moves = np.zeros((MAX_DEPTH, 32), dtype=np.int64)
        self.stats = np.zeros(2, dtype=np.int64)

    def new_deal(self) -> None:
        """Forget the transposition table (call when the cards change hands)."""
        self.cfg[3] = _Shared.take()

    @property
    def nodes(self) -> int:
        return int(self.stats[0])

    @property
    def aborted(self) -> int:
        """Searches given up at the node limit."""
        return int(self.stats[1])

    def _args(self, pos: Position):
        """The position as the compiled functions take it: hands, t0, t1, ntr, leader."""
        f = self.flat
        t = [f.inner[c] for c in pos.trick] + [0, 0]
        return np.array([f.mask(h) for h in pos.hands], dtype=np.int64), t[0], t[1], len(pos.trick), pos.leader

    def live(self, pos: Position) -> int:
        """What is still to be taken: card points, or tricks (the current one included)."""
        if self.goal == "tricks":
            return (sum(h.bit_count() for h in pos.hands) + len(pos.trick)) // 3
        pts = self.table.points
        return sum(pts[c] for h in pos.hands for c in cards_in(h)) + sum(pts[c] for c in pos.trick)

    def reaches(self, pos: Position, need: int) -> bool:
        """Whether the declarer's side takes at least ``need`` more from ``pos``."""
        return bool(_search(self.T, self.cfg, *self._args(pos), need, self.live(pos),
                            _Shared.tt, self.moves, 0, self.stats))

    def value(self, pos: Position) -> int:
        """What the declarer's side takes from ``pos`` under best play by all."""
        live = self.live(pos)
        return int(_value(self.T, self.cfg, *self._args(pos), 0, live, live,
                          _Shared.tt, self.moves, 0, self.stats))

    def card_values(self, pos: Position, need: int | None = None) -> dict[int, int]:
        """For every legal card of the player to move: with ``need``, 1 if the
        declarer's side then still takes ``need`` more (else 0, or 2 when the
        node limit cut the search short); without, the exact amount it takes."""
        out = np.full(NC, -1, dtype=np.int64)
        _root(self.T, self.cfg, *self._args(pos), 0 if need is None else need, self.live(pos),
              need is None, _Shared.tt, self.moves, self.stats, out)
        return self.flat.spread(pos, pos.legal(self.table), out)
