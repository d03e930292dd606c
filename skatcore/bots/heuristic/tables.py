"""Tables the heuristic player reads: card bitmasks, per-contract trick
tables and values derived once per compiled ruleset."""

from __future__ import annotations

import math

from skatcore.cards import CARD_NAMES, SUITS
from skatcore.engine.scoring import fold_multiplier, make_facts
from skatcore.model import Declaration
from skatcore.rules.compiler import TRUMP, CompiledRules

NCARDS = len(CARD_NAMES)  # 32, plus the sixes (ids 32-35) of a 36-card deck
BIT = tuple(1 << c for c in range(NCARDS))
FULL = (1 << NCARDS) - 1  # masked by the ruleset's deck where it matters
JACK_MASK = sum(BIT[SUITS.index(s) * 8 + 3] for s in SUITS)  # rank index 3 = J in "AKQJT987"
CJ, SJ, HJ, DJ = 3, 11, 19, 27
SUIT_MASKS = tuple(0xFF << (8 * s) for s in range(4))
ACE = tuple(8 * s for s in range(4))
TEN = tuple(8 * s + 4 for s in range(4))

_BYTE_CARDS = tuple(tuple(tuple(b + 8 * k for b in range(8) if m >> b & 1) for m in range(256))
                    for k in range(4))


_SIXES = tuple(tuple(32 + b for b in range(4) if m >> b & 1) for m in range(16))


def cards_in(mask: int) -> tuple[int, ...]:
    """The cards of a bitmask, lowest first (table lookups, no generator)."""
    out = (_BYTE_CARDS[0][mask & 255] + _BYTE_CARDS[1][mask >> 8 & 255]
           + _BYTE_CARDS[2][mask >> 16 & 255] + _BYTE_CARDS[3][mask >> 24 & 255])
    return out + _SIXES[mask >> 32 & 15] if mask >> 32 else out



class GameTables:
    """Per-contract tables the heuristic player reads (built once per ruleset)."""

    __slots__ = (
        "by_power",
        "class_mask",
        "family",
        "follow",
        "goal",
        "higher",
        "lower",
        "name",
        "plain",
        "points",
        "power",
        "std",
        "strength",
        "table",
        "trump",
        "trump_ace",
        "trump_ten",
        "trumps",
    )

    def __init__(self, name: str, family: str, table, goal: str):
        self.name, self.family, self.goal, self.table = name, family, goal, table
        self.follow = table.follow
        self.class_mask = table.class_mask
        self.strength = table.strength
        self.points = table.points
        self.trumps = table.trumps
        self.trump = table.class_mask[TRUMP]
        self.plain = tuple(table.class_mask[k] for k in range(4))
        n = len(table.follow)
        self.power = tuple(table.strength[table.follow[c]][c] for c in range(n))
        self.higher = tuple(sum(BIT[d] for d in range(n) if table.follow[d] == table.follow[c] and self.power[d] > self.power[c])
                            for c in range(n))
        self.lower = tuple(table.class_mask[table.follow[c]] & ~self.higher[c] & ~BIT[c] for c in range(n))
        self.by_power = tuple(sorted(range(n), key=lambda c: (-(table.follow[c] == TRUMP), -self.power[c])))
        t = [c for c in table.trumps if CARD_NAMES[c][1] == "A"]
        self.trump_ace = BIT[t[0]] if t else 0
        t = [c for c in table.trumps if CARD_NAMES[c][1] == "T"]
        self.trump_ten = BIT[t[0]] if t else 0
        # the standard layouts have fast table-driven strengths: suit k -> k, grand -> 4
        self.std = None
        if table.order.plain == "ATKQ987":
            if table.trumps == (CJ, SJ, HJ, DJ) and family == "grand":
                self.std = 4
            for k in range(4):
                if family == "suit" and table.trumps == (CJ, SJ, HJ, DJ, *(8 * k + i for i in (0, 4, 1, 2, 5, 6, 7))):
                    self.std = k


def weakest(g: GameTables, mask: int) -> int:
    """The weakest card of ``mask``: fewest points, then lowest power (trumps above the rest)."""
    best, key = -1, None
    for c in cards_in(mask):
        k = (g.points[c], g.power[c] + (100 if g.follow[c] == TRUMP else 0))
        if key is None or k < key:
            best, key = c, k
    return best


def strongest(g: GameTables, mask: int) -> int:
    """The strongest card of ``mask``: highest power, trumps above the rest."""
    best, key = -1, None
    for c in cards_in(mask):
        k = g.power[c] + (1000 if g.follow[c] == TRUMP else 0)
        if key is None or k > key:
            best, key = c, k
    return best


class RulesInfo:
    """What the heuristic derives once from compiled rules."""

    def __init__(self, rules: CompiledRules):
        self.rules = rules
        deck = getattr(rules, "deck", None)
        self.deck = deck.mask if deck is not None else (1 << 32) - 1
        self.skat = deck.skat if deck is not None else 2  # cards discarded
        self.games = {n: GameTables(n, c.family, rules.tricks[n], c.goal) for n, c in rules.contracts.items()}
        self.values: dict = {}
        # plain (unannounced) declarations per skat route
        self.route_games = {route: tuple(dict.fromkeys(d.game for d in rules.options[route])) for route in ("pickup", "hand")}
        self.lost = dict(rules.lost_factor)
        self.cands = {route: self._route_cands(route) for route in ("pickup", "hand")}
        self.step_cands: dict = {}  # the declarations a step offers after its discard -> their candidates
        self.rows: dict = {}  # (route, when) -> candidate rows with their coefficients

    def _route_cands(self, route: str) -> tuple[_Cand, ...]:
        """The plain declarations of a skat route (null also ouvert)."""
        rules, hand = self.rules, route == "hand"
        out = []
        for game in self.route_games[route]:
            c = rules.contracts[game]
            if c.family == "null":
                for ouvert in (False, True):
                    if (hand, ouvert) in c.fixed and any(o.game == game and o.ouvert == ouvert for o in rules.options[route]):
                        out.append(_Cand(self, Declaration(game, hand, ouvert=ouvert)))
            elif c.family in ("suit", "grand"):
                out.append(_Cand(self, Declaration(game, hand)))
        return tuple(out)

    def lost_factor(self, d: Declaration) -> int:
        f = self.lost[(d.game, d.hand)]
        return f(d) if callable(f) else f

    def value(self, d: Declaration, matadors: int) -> int:
        """Game value of ``d`` won simply (61+, nothing more) with ``matadors``."""
        key = (declaration_key(d), matadors)
        v = self.values.get(key)
        if v is None:
            rules = self.rules
            c = rules.contracts[d.game]
            if c.family == "null":
                v = c.fixed.get((d.hand, d.ouvert), 0)
            else:
                facts = make_facts(rules, c, d, bid=0, declarer=0, matadors=matadors, declarer_points=rules.thresholds.win,
                                   declarer_tricks=5, defender_tricks=5)
                v = rules.base_value(d) * fold_multiplier(rules.multiplier_items, facts)[0]
            self.values[key] = v
        return v


def declaration_key(d: Declaration) -> tuple:
    """A declaration as a dictionary key (its declarations are a mapping)."""
    return d.game, d.hand, d.schneider, d.schwarz, d.ouvert, tuple(sorted(d.declarations.items()))


class _Cand:
    """A declaration the heuristic considers, with its lost factor and values."""

    __slots__ = ("_values", "base", "d", "g", "info", "lost", "null")

    def __init__(self, info: RulesInfo, d: Declaration):
        self.d, self.info = d, info
        self.g = info.games[d.game]
        self.lost = info.lost_factor(d)
        self.base = info.rules.contracts[d.game].base
        self.null = self.g.family == "null"
        self._values: dict[int, int] = {}

    def value(self, matadors: int) -> int:
        v = self._values.get(matadors)
        if v is None:
            v = self._values[matadors] = self.info.value(self.d, matadors)
        return v


_INFO: dict[int, RulesInfo] = {}


def rules_info(rules: CompiledRules) -> RulesInfo:
    """What the heuristic derives from ``rules``, made once per compiled ruleset."""
    info = _INFO.get(id(rules))
    if info is None or info.rules is not rules:
        info = _INFO[id(rules)] = RulesInfo(rules)
    return info


def _suit_null_gap(sm: int) -> int:
    """How far one suit's i-th card from the bottom lies above the 2i-th
    rank at most (``sm``: bit 0 = A ... bit 7 = 7; 0: a safe suit: 7, 8-7,
    9-7, T-8-7 ...)."""
    i = bad = 0
    for r in range(8):  # r = 0 is the 7 (bit 7)
        if sm >> (7 - r) & 1:
            if r > 2 * i:
                bad = max(bad, r - 2 * i)
            i += 1
    return bad


NULL_GAP = tuple(_suit_null_gap(sm) for sm in range(256))
# Risk of one suit in null by its gap, weighted by log-odds of heuristic play
# (a suit one rank too high rarely costs the game, two ranks half the time).
_NULL_BAD = (0.0, 0.25, 1.6, 2.3, 2.8)
_NULL_RISK = tuple(_NULL_BAD[min(gap, 4)] for gap in NULL_GAP)

# Per-suit byte tables of the strength formulas for the standard layouts
# (jacks trump; bit 0 A, 1 K, 2 Q, 3 J (cleared), 4 T, 5 9, 6 8, 7 7).


def _side_suit(b: int) -> float:  # a non-trump suit in a suit game (not void)
    n, a, ten = b.bit_count(), b & 1, b >> 4 & 1
    if a:
        return 1.1 + 0.7 * ten - 0.15 * max(0, n - 3)
    if ten:
        return -0.4 if n == 1 else 0.1
    return 0.1 if n == 1 else 0.0


# Grand: a Skat player's judgement - the jacks and which (the club jack; two
# jacks, three), the Stehkarten (aces, a ten with its ace), a guarded ten,
# a long suit behind its ace, voids, and the forehand's first lead.  The
# weights are the log-odds of winning after the discard, fitted on
# double-dummy outcomes (`python tools/refit_heuristic.py --deals 3000 --seed 7
# --grand-features`)
# and rounded: a strength of 0 is an even chance.


def jack_bits(hand: int) -> int:
    """The jacks of ``hand`` as bits 0-3: club, spade, heart, diamond jack."""
    return (hand >> CJ & 1) | (hand >> (SJ - 1) & 2) | (hand >> (HJ - 2) & 4) | (hand >> (DJ - 3) & 8)


def _grand_jacks(nib: int) -> float:
    """The jacks of a grand (``nib``: bit 0 club jack ... bit 3 diamond jack)."""
    n = nib.bit_count()
    return (3.1 * (nib & 1) + 1.4 * (nib >> 1 & 1) + 1.0 * (nib >> 2 & 1) + 1.0 * (nib >> 3 & 1)
            + 2.8 * (n >= 2) + 1.8 * (n >= 3) - 15.7)


def _grand_suit(b: int) -> float:
    """One side suit of a grand (``b``: bit 0 A, 1 K, 2 Q, 4 T, 5 9, 6 8, 7 7)."""
    return _grand_side(b.bit_count(), b & 1, b >> 4 & 1)


def _grand_side(n: int, a: int, ten: int) -> float:
    """A side suit of ``n`` cards in a grand, ``a``/``ten``: with its ace/ten."""
    if n == 0:
        return 0.6
    if a:
        return 3.1 + 1.5 * ten + 0.3 * max(0, n - 3)
    return 0.6 if ten and n >= 2 else 0.0


_RANK = tuple(n[1] for n in CARD_NAMES)
_LEN_BONUS = (0.0, 3.0, 1.5, 0.3, -0.5, -1.0, -1.5, -2.0, -2.5, -3.0, -3.5, -4.0, -4.5)
_SIDE = tuple(_side_suit(b) if b else 0.0 for b in range(256))
_GRAND = tuple(_grand_suit(b) for b in range(256))
_GRAND_JACKS = tuple(_grand_jacks(nib) for nib in range(16))
GRAND_FORE = 1.4  # the forehand leads the first trick: a grand's jacks come out at once
_TRUMPX = tuple(b.bit_count() + 0.3 * (b & 1) + 0.15 * (b >> 4 & 1) for b in range(256))


def logistic(x: float) -> float:
    """The logistic function: a log-odds score as a chance."""
    return 1.0 / (1.0 + math.exp(-x))


DOUBLING_CALLS = frozenset({"kontra", "re", "supra", "resupra"})  # the calls the heuristic player makes


