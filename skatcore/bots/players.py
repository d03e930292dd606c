"""Players: bots that take a seat at a :class:`~skatcore.engine.deal.Deal`.

A player sees only what its seat may know (a :class:`~skatcore.engine.deal.SeatView`,
from :meth:`Deal.view`) and answers with one of ``view.legal``::

    class Player(Protocol):
        def act(self, view: SeatView) -> Action: ...
        # optional: out-of-turn table calls (Kontra, Re ...).  ``view.legal``
        # then holds the calls this seat may make now; return those to make.
        def call(self, view: SeatView) -> list[Call]: ...

Built in: :class:`RandomPlayer` (uniform over the legal actions) and
:class:`HeuristicPlayer` (evaluates its hand against the compiled ruleset's
values, bids no higher than its best contract is worth with its matadors,
and plays by common Skat heuristics).

**Registering a player.**  Players are not part of a ruleset, so they are
found by name through their own plugin manager: the built-ins plus every
plugin published under the entry-point group ``skat.players`` that
implements :func:`skatcore.hookspecs.skat_register_players`::

    # pyproject.toml of your package
    [project.entry-points."skat.players"]
    mybot = "mybot.plugin"

    # mybot/plugin.py
    from skatcore import hookimpl

    @hookimpl
    def skat_register_players():
        return {"mybot": MyBot}        # name -> factory(rules=..., seed=...)

``skat simulate --players mybot`` then seats it.  A factory is called once per
deal and seat as ``factory(rules=compiled_rules, seed=int)``; a player whose
choices depend only on that seed and its views keeps results reproducible
(and identical for any ``--jobs``).  ``--players module:attr`` names a factory
directly, without registering it.
"""

from __future__ import annotations

import importlib
import math
from itertools import combinations
import random
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Protocol, runtime_checkable

import pluggy

from skatcore import hookspecs
from skatcore.cards import CARD_NAMES, SUITS
from skatcore.engine.deal import FIRST_CARD, PASS, PICK_UP, PLAY_HAND, Bid, Call, Declare, Discard, Hold, Phase, Play, SeatView, TurnChoice, TurnUp
from skatcore.errors import InputError
from skatcore.hookspecs import hookimpl
from skatcore.model import Declaration
from skatcore.rules.compiler import TRUMP, CompiledRules
from skatcore.engine.scoring import make_facts

PLAYER_ENTRY_POINT_GROUP = "skat.players"

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


@runtime_checkable
class Player(Protocol):
    """Anything with ``act(view) -> action`` (one of ``view.legal``)."""

    def act(self, view: SeatView): ...


Factory = Callable[..., Player]


# ---------------------------------------------------------------------------
# Random
# ---------------------------------------------------------------------------


class RandomPlayer:
    """Uniformly random among the legal actions (and table calls, rarely)."""

    def __init__(self, seed: int | None = None, rules: CompiledRules | None = None):
        self.rng = random.Random(seed)

    def act(self, view: SeatView):
        legal = view.legal
        return legal[int(self.rng.random() * len(legal))]

    def call(self, view: SeatView) -> list[Call]:
        return [c for c in view.legal if self.rng.random() < 0.1]


# ---------------------------------------------------------------------------
# Heuristic
# ---------------------------------------------------------------------------


class _Game:
    """Per-contract tables the heuristic player reads (built once per ruleset)."""

    __slots__ = ("name", "family", "table", "trump", "plain", "power", "higher", "lower", "points",
                 "follow", "class_mask", "strength", "trumps", "by_power", "trump_ace", "trump_ten", "std")

    def __init__(self, name: str, family: str, table):
        self.name, self.family, self.table = name, family, table
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
                if family == "suit" and table.trumps == (CJ, SJ, HJ, DJ) + tuple(8 * k + i for i in (0, 4, 1, 2, 5, 6, 7)):
                    self.std = k


def _low(g: _Game, mask: int) -> int:
    """The weakest card of ``mask`` (lowest power, fewest points)."""
    best, key = -1, None
    for c in cards_in(mask):
        k = (g.points[c], g.power[c] + (100 if g.follow[c] == TRUMP else 0))
        if key is None or k < key:
            best, key = c, k
    return best


def _high(g: _Game, mask: int) -> int:
    best, key = -1, None
    for c in cards_in(mask):
        k = g.power[c] + (1000 if g.follow[c] == TRUMP else 0)
        if key is None or k > key:
            best, key = c, k
    return best


class _RulesInfo:
    """What the heuristic derives once from compiled rules."""

    def __init__(self, rules: CompiledRules):
        self.rules = rules
        deck = getattr(rules, "deck", None)
        self.deck = deck.mask if deck is not None else (1 << 32) - 1
        self.skat = deck.skat if deck is not None else 2  # cards discarded
        self.games = {n: _Game(n, c.family, rules.tricks[n]) for n, c in rules.contracts.items()}
        self.values: dict = {}
        # plain (unannounced) declarations per skat route
        self.route_games = {route: tuple(dict.fromkeys(d.game for d in rules.options[route])) for route in ("pickup", "hand")}
        self.lost = dict(rules.lost_factor)
        self.cands = {route: self._route_cands(route) for route in ("pickup", "hand")}
        self.turn_cands: dict = {}
        self.rows: dict = {}  # (route, when) -> candidate rows with their coefficients

    def _route_cands(self, route: str) -> tuple["_Cand", ...]:
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
        key = (d.game, d.hand, d.schneider, d.schwarz, d.ouvert, tuple(sorted(d.declarations.items())), matadors)
        v = self.values.get(key)
        if v is None:
            rules = self.rules
            c = rules.contracts[d.game]
            if c.family == "null":
                v = c.fixed.get((d.hand, d.ouvert), 0)
            else:
                facts = make_facts(rules, c, d, bid=0, declarer=0, matadors=matadors, declarer_points=rules.thresholds.win,
                                   declarer_tricks=5, defender_tricks=5)
                m = 0
                for item in rules.multiplier_items:
                    n = item.count(facts)
                    if n:
                        m = m * n if item.factor else m + n
                v = rules.base_value(d) * m
            self.values[key] = v
        return v


class _Cand:
    """A declaration the heuristic considers, with its lost factor and values."""

    __slots__ = ("d", "g", "info", "lost", "base", "null", "_values")

    def __init__(self, info: _RulesInfo, d: Declaration):
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


_INFO: dict[int, _RulesInfo] = {}


def _info(rules: CompiledRules) -> _RulesInfo:
    info = _INFO.get(id(rules))
    if info is None or info.rules is not rules:
        info = _INFO[id(rules)] = _RulesInfo(rules)
    return info


def _suit_null_risk(sm: int) -> float:
    """Risk of one suit in null (``sm``: bit 0 = A ... bit 7 = 7)."""
    i = bad = 0
    for r in range(8):  # r = 0 is the 7 (bit 7)
        if sm >> (7 - r) & 1:
            if r > 2 * i:
                bad = max(bad, r - 2 * i)
            i += 1
    return 0.7 + 0.25 * bad if bad else 0.0


_NULL_RISK = tuple(_suit_null_risk(sm) for sm in range(256))

# Per-suit byte tables of the strength formulas for the standard layouts
# (jacks trump; bit 0 A, 1 K, 2 Q, 3 J (cleared), 4 T, 5 9, 6 8, 7 7).


def _side_suit(b: int) -> float:  # a non-trump suit in a suit game (not void)
    n, a, ten = b.bit_count(), b & 1, b >> 4 & 1
    if a:
        return 1.1 + 0.7 * ten - 0.15 * max(0, n - 3)
    if ten:
        return -0.4 if n == 1 else 0.1
    return 0.1 if n == 1 else 0.0


def _grand_suit(b: int) -> float:
    n, a, ten = b.bit_count(), b & 1, b >> 4 & 1
    if n == 0:
        return 0.25
    if a:
        return 1.2 + 0.9 * ten + ((0.5 * max(0, n - 3) + 0.3 * (b >> 1 & 1)) if ten else 0.0)
    if ten:
        return -0.5 if n == 1 else (0.0 if n == 2 else 0.2)
    return 0.0


_RANK = tuple(n[1] for n in CARD_NAMES)
_LEN_BONUS = (0.0, 3.0, 1.5, 0.3, -0.5, -1.0, -1.5, -2.0, -2.5, -3.0, -3.5, -4.0, -4.5)
_SIDE = tuple(_side_suit(b) if b else 0.0 for b in range(256))
_GRAND = tuple(_grand_suit(b) for b in range(256))
_TRUMPX = tuple(b.bit_count() + 0.3 * (b & 1) + 0.15 * (b >> 4 & 1) for b in range(256))


def _p(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


DOUBLING_CALLS = frozenset({"kontra", "re", "supra", "resupra"})  # the calls the heuristic player makes


class HeuristicPlayer:
    """A reasonable club player by rules of thumb.

    * **Bidding**: estimates for every contract the ruleset allows how likely
      it is won (trumps, jacks, aces, tens, voids; null: safe suits) and bids
      while some contract it expects to win is worth at least the bid *with
      the matadors in its hand* - never higher - and only where the expected
      score is positive given the ruleset's lost factor.
    * **Skat**: plays hand when that is clearly better, else picks up; the
      discard shortens side suits, keeps trumps and aces, and buries tens.
    * **Declaring**: the contract with the best expected score that reaches
      the bid.
    * **Play**: declarer draws trumps and cashes aces; defenders smear points
      to a partner who wins, trump in when the declarer is winning, and lead
      the long suit when the declarer sits behind them; in null the declarer
      stays low and the defenders play low in front of him; in Ramsch
      everybody ducks and dumps points.
    """

    # win probability = sigmoid(a * x + b) by (family, when): x is the hand's
    # strength (null: minus its risk); "pre" = before picking up the skat,
    # "post" = after the discard, "hand" = a hand game.  Fitted on 2,000
    # seeded deals x 3 contracts x 2 routes of heuristic play (official).
    COEF = {
        ("suit", "pre"): (0.80, 0.89), ("suit", "post"): (0.97, -0.13), ("suit", "hand"): (1.07, 0.02),
        ("grand", "pre"): (0.67, 1.15), ("grand", "post"): (0.80, 0.46), ("grand", "hand"): (0.80, 0.73),
        ("null", "pre"): (0.65, 1.55), ("null", "post"): (1.20, 1.43), ("null", "hand"): (1.33, 2.32),
    }
    GAME_BONUS = 50       # a won game is worth this much more than its value (Seeger-Fabian), a lost one less

    def __init__(self, rules: CompiledRules, seed: int | None = None):
        self.rules = rules
        self.info = _info(rules)  # any deck: Sechserskat's sixes are low cards of their suits
        self.seed = seed  # decisions are deterministic; kept for the factory signature
        self._plan: tuple[int, str] | None = None
        self._cache: dict = {}
        self._strengths: dict = {}
        self._mats: dict = {}
        self._played = (0, 0)  # (tricks seen, their cards): a player lives for one deal
        self._g: _Game | None = None
        self._decl = None

    # -- dispatch --------------------------------------------------------------
    def act(self, view: SeatView):
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase is Phase.PLAY:
            return PLAY_CARD[self._play(view)]
        if phase is Phase.BIDDING:
            return self._bid(view)
        if phase is Phase.SKAT:
            return self._skat(view)
        if phase is Phase.TURN:
            return FIRST_CARD if FIRST_CARD in legal else legal[0]
        if phase is Phase.DISCARD:
            return self._discard(view)
        if phase is Phase.DECLARE:
            return self._declare(view)
        if phase is Phase.PUSH:
            return self._push(view)
        return legal[0]

    def call(self, view: SeatView) -> list[Call]:
        """Kontra as a defender holding several trumps and aces; Re as a declarer with a strong game."""
        out = []
        d = view.declaration
        if d is None:
            return out
        g = self.info.games[d.game]
        hand = view.hand
        for c in view.legal:
            if c.name not in DOUBLING_CALLS:
                continue  # other calls (Schenken ...) it does not judge
            if view.seat == view.declarer:
                if g.family != "null" and (hand & g.trump).bit_count() >= 7:
                    out.append(c)
            elif g.family != "null" and (hand & g.trump).bit_count() >= 4 and (hand & JACK_MASK).bit_count() >= 2:
                out.append(c)
        return out

    # -- hand evaluation ---------------------------------------------------------
    def strength(self, hand: int, g: _Game) -> float:
        """Log-odds-like strength of ``hand`` (10 cards) as declarer of ``g``."""
        key = (hand, g.name)
        v = self._strengths.get(key)
        if v is None:
            v = self._strengths[key] = self._strength(hand, g)
        return v

    @staticmethod
    def _strength(hand: int, g: _Game) -> float:
        fam = g.family
        std = g.std
        if std is not None:
            b = (hand & 0xF7, hand >> 8 & 0xF7, hand >> 16 & 0xF7, hand >> 24 & 0xF7)
            nj = (hand & JACK_MASK).bit_count()
            if std == 4:
                return (1.3 * nj + (hand >> CJ & 1) * 0.7 + (hand >> SJ & 1) * 0.3
                        + _GRAND[b[0]] + _GRAND[b[1]] + _GRAND[b[2]] + _GRAND[b[3]] - 7.6)
            t = nj + b[std].bit_count()
            v = nj + (hand >> CJ & 1) * 1.0 + (hand >> SJ & 1) * 0.6 + (hand >> HJ & 1) * 0.3 + _TRUMPX[b[std]] - 7.8
            void = 0.5 if t >= 5 else 0.2
            for k in range(4):
                if k != std:
                    v += _SIDE[b[k]] if b[k] else void
            return v
        if fam == "suit":
            t = (hand & g.trump).bit_count()
            s = t * 1.0 + (hand >> CJ & 1) * 1.0 + (hand >> SJ & 1) * 0.6 + (hand >> HJ & 1) * 0.3
            s += 0.3 * bool(hand & g.trump_ace) + 0.15 * bool(hand & g.trump_ten)
            for k in range(4):
                m = g.plain[k]
                if not m:
                    continue
                sm = hand & m
                n = sm.bit_count()
                if n == 0:
                    s += 0.5 if t >= 5 else 0.2
                    continue
                a, ten = sm >> ACE[k] & 1, sm >> TEN[k] & 1
                if a:
                    s += 1.1 + 0.7 * ten - 0.15 * max(0, n - 3)
                elif ten:
                    s += -0.4 if n == 1 else 0.1
                elif n == 1:
                    s += 0.1
            return s - 7.8
        if fam == "grand":
            j = (hand & JACK_MASK).bit_count()
            s = 1.3 * j + (hand >> CJ & 1) * 0.7 + (hand >> SJ & 1) * 0.3
            for k in range(4):
                sm = hand & g.plain[k]
                n = sm.bit_count()
                if n == 0:
                    s += 0.25
                    continue
                a, ten = sm >> ACE[k] & 1, sm >> TEN[k] & 1
                if a:
                    s += 1.2 + 0.9 * ten
                    if ten:
                        s += 0.5 * max(0, n - 3) + 0.3 * (sm >> (ACE[k] + 1) & 1)
                elif ten:
                    s += -0.5 if n == 1 else (0.0 if n == 2 else 0.2)
            return s - 7.6
        if fam == "null":
            return -HeuristicPlayer.null_risk(hand)
        return -99.0

    @staticmethod
    def null_risk(hand: int) -> float:
        """Unsafe suits of a null hand (rank i-th from the bottom must be <= 2i)."""
        return _NULL_RISK[hand & 0xFF] + _NULL_RISK[hand >> 8 & 0xFF] + _NULL_RISK[hand >> 16 & 0xFF] + _NULL_RISK[hand >> 24 & 0xFF]

    def _x(self, hand: int, d: Declaration) -> float:
        g = self.info.games[d.game]
        if g.family == "null":
            r = self.null_risk(hand)
            return -(r * 2.0 + 0.3) if d.ouvert else -r
        return self.strength(hand, g)

    def _win_p(self, hand: int, d: Declaration, when: str | None = None) -> float:
        """Estimated win probability of ``d`` with ``hand`` (10 cards, or 11
        with a turned card); ``when``: pre / post / hand (default: hand for a
        hand game, else post)."""
        fam = self.info.games[d.game].family
        if fam not in ("suit", "grand", "null"):
            return 0.0
        a, b = self.COEF[(fam, when or ("hand" if d.hand else "post"))]
        return _p(a * self._x(hand, d) + b)

    def _expected(self, p: float, value: int, lost: int, bid: int, base: int | None) -> float:
        if value < bid:  # overbid: lost at the bid rounded up to the base
            lv = -(-bid // base) * base if base else bid
            return -lost * lv - self.GAME_BONUS
        return p * (value + self.GAME_BONUS) - (1 - p) * (lost * value + self.GAME_BONUS)

    def _need(self, value: int, lost: int) -> float:
        """Break-even win probability of a game worth ``value``."""
        return (lost * value + self.GAME_BONUS) / ((1 + lost) * value + 2 * self.GAME_BONUS)

    def _candidates(self, hand: int, route: str, known: int | None = None):
        """``(p, value, cand)`` for each plain declaration of ``route``;
        ``known`` = the 12 cards incl. the skat (matadors then known).
        The same estimate as :meth:`_win_p`, inlined: bidding asks it often."""
        when = "hand" if route == "hand" else ("pre" if known is None else "post")
        rows = self.info.rows.get((route, when))
        if rows is None:
            rows = self.info.rows[(route, when)] = tuple(
                (c, c.g, c.null, c.d.ouvert, *self.COEF[(c.g.family, when)]) for c in self.info.cands[route])
        mcards = known if known is not None else hand
        mats = self._mats
        res = []
        risk = None
        exp = math.exp
        strength = self.strength
        for cand, g, null, ouvert, a, b in rows:
            if null:
                if risk is None:
                    risk = self.null_risk(hand)
                x = -(risk * 2.0 + 0.3) if ouvert else -risk
                v = cand.value(0)
            else:
                x = strength(hand, g)
                key = (mcards, g.name)
                m = mats.get(key)
                if m is None:
                    m = mats[key] = g.table.matadors(mcards)
                v = cand.value(m)
            res.append((1.0 / (1.0 + exp(-(a * x + b))), v, cand))
        return res

    def _evaluate(self, hand: int):
        key = ("eval", hand)
        ev = self._cache.get(key)
        if ev is None:
            ev = self._cache[key] = (self._candidates(hand, "pickup"), self._candidates(hand, "hand"))
        return ev

    def _may_bid(self, hand: int) -> bool:
        """Quick test: some plain contract has a win probability of 1/2 or
        more (the break-even point never lies below 1/2 when a lost game
        costs at least its value), so the full evaluation is worth it."""
        info = self.info
        rows = info.rows.get("quick")
        if rows is None:
            rows = info.rows["quick"] = tuple(
                (c.g, c.null, c.d.ouvert, c.lost, *self.COEF[(c.g.family, "hand" if c.d.hand else "pre")])
                for route in ("pickup", "hand") for c in info.cands[route])
        risk = None
        for g, null, ouvert, lost, a, b in rows:
            if lost < 1:
                return True
            if null:
                if risk is None:
                    risk = self.null_risk(hand)
                x = -(risk * 2.0 + 0.3) if ouvert else -risk
            else:
                x = self.strength(hand, g)
            if a * x + b >= 0.0:
                return True
        return False

    def _limit(self, hand: int) -> int:
        """The highest bid this hand will hold: the best value among contracts
        whose expected score is positive, with the hand's own matadors."""
        cached = self._cache.get(("limit", hand))
        if cached is not None:
            return cached
        best = 0
        if self._may_bid(hand):
            for cands in self._evaluate(hand):
                for p, v, cand in cands:
                    if v > best and p >= self._need(v, cand.lost):
                        best = v
        if self.rules.turn_up:
            best = max(best, self._turn_up_limit(hand))
        self._cache[("limit", hand)] = best
        return best

    def _turn_up_limit(self, hand: int) -> int:
        return self._turn_up(hand)[0]

    def _turn_up(self, hand: int) -> tuple[int, float]:
        """Tournée: ``(limit, expected score)`` of turning up a skat card.
        The card is any unseen one; it adds a trump (a jack: grand too)."""
        key = ("turn", hand)
        out = self._cache.get(key)
        if out is None:
            out = self._cache[key] = self._turn_up_eval(hand)
        return out

    def _turn_up_eval(self, hand: int) -> tuple[int, float]:
        rules, info = self.rules, self.info
        tu = rules.turn_up
        unknown = self.info.deck & ~hand
        n = unknown.bit_count()
        by_game: dict[str, tuple[float, int, float]] = {}
        expected, lowest, ok = 0.0, None, True
        for c in cards_in(unknown):
            best = None
            for game in tu.contracts.get(CARD_NAMES[c], ()):
                r = by_game.get(game)
                if r is None:
                    g = info.games[game]
                    if g.family not in ("suit", "grand"):
                        continue
                    d = Declaration(game, False, declarations={tu.key: "first"})
                    a, b = self.COEF[(g.family, "pre")]
                    p = _p(a * (self.strength(hand, g) + (1.3 if g.family == "grand" else 1.0)) + b)
                    v = info.value(d, g.table.matadors(hand))
                    r = by_game[game] = (p, v, self._expected(p, v, info.lost_factor(d), 0, None))
                if best is None or r[2] > best[2]:
                    best = r
            if best is None:
                ok = False
                continue
            expected += best[2] / n
            if lowest is None or best[1] < lowest:
                lowest = best[1]
        # bid only what the worst turned card is still worth, and only if turning pays on average
        return ((lowest or 0) if ok and expected > 0 else 0), expected

    # -- bidding, skat, discard, declaration -------------------------------------
    def _bid(self, view: SeatView):
        limit = self._limit(view.hand)
        legal = view.legal
        first = legal[0]
        if isinstance(first, Hold):
            return first if view.bid <= limit else PASS
        if isinstance(first, Bid) and first.value <= limit:
            return first
        return PASS

    def _skat(self, view: SeatView):
        legal = view.legal
        hand, bid = view.hand, view.bid
        pickup, hand_games = self._evaluate(hand)
        options = []
        if PLAY_HAND in legal:
            best = self._best(hand_games, bid)
            if best:
                options.append((best[0], PLAY_HAND))
        if PICK_UP in legal:
            best = self._best(pickup, bid)
            if best:
                options.append((best[0], PICK_UP))
        turn = next((a for a in legal if isinstance(a, TurnUp)), None)
        if turn is not None:
            limit, expected = self._turn_up(hand)
            options.append((expected if limit >= bid else expected - 100.0, turn))
        if not options:
            return legal[0]
        return max(options, key=lambda o: o[0])[1]

    def _best(self, cands, bid):
        """(expected, cand) of the best candidate (no null below the bid)."""
        best = None
        for p, v, cand in cands:
            if cand.null and v < bid:
                continue
            e = self._expected(p, v, cand.lost, bid, cand.base)
            if best is None or e > best[0]:
                best = (e, cand)
        return best

    def _discard(self, view: SeatView):
        legal = view.legal
        hand, bid = view.hand, view.bid
        if view.declarer is None:  # a Schieberamsch push: pass on the most dangerous cards
            return self._best_pair(legal, self._ramsch_discard_scores(hand))
        best = None
        pairs: dict[str, Discard] = {}
        cands = self._pickup_cands(view)
        # of the suit games only the two with the most trumps are worth a look
        suits = sorted((c for c in cands if c.g.family == "suit"), key=lambda c: -(hand & c.g.trump).bit_count())[:2]
        for cand in cands:
            g = cand.g
            if cand.null and cand.value(0) < bid or g.family == "suit" and cand not in suits:
                continue
            pair = pairs.get(g.name)
            if pair is None:
                pair = pairs[g.name] = (self._null_discard(hand, legal, self.info.skat) if cand.null
                                        else self._top_pair(hand, self._trump_discard_scores(hand, g), self.info.skat))
            rest = hand
            for c in pair.cards:
                rest &= ~BIT[c]
            v = cand.value(0 if cand.null else g.table.matadors(hand))
            e = self._expected(self._win_p(rest, cand.d), v, cand.lost, bid, cand.base)
            if best is None or e > best[0]:
                best = (e, pair, g.name)
        if best is None:
            return legal[0]
        self._plan = (best[1].cards, best[2])
        return best[1]

    def _pickup_cands(self, view: SeatView):
        """The declarations open after picking up (or after the Tournée turn-up)."""
        info = self.info
        if view.turned_up is None or not self.rules.turn_up:
            return info.cands["pickup"]
        tu = self.rules.turn_up
        route = next((str(a.card) for s, a in view.history if isinstance(a, TurnChoice)), "first")
        key = (CARD_NAMES[view.turned_up], route)
        cands = info.turn_cands.get(key)
        if cands is None:
            cands = info.turn_cands[key] = tuple(
                _Cand(info, Declaration(game, False, declarations={tu.key: route})) for game in tu.contracts.get(key[0], ())
                if info.games[game].family in ("suit", "grand"))
        return cands

    @staticmethod
    def _top_pair(hand: int, score, k: int = 2) -> Discard:
        """The ``k`` cards of ``hand`` that most want to go (a declarer may discard any)."""
        if k != 2:
            return Discard(tuple(sorted(sorted(cards_in(hand), key=lambda c: -score[c])[:k])))
        a = b = -1
        for c in cards_in(hand):
            if a < 0 or score[c] > score[a]:
                a, b = c, a
            elif b < 0 or score[c] > score[b]:
                b = c
        return Discard((a, b) if a < b else (b, a))

    def _best_pair(self, legal, score) -> Discard:
        best, key = legal[0], None
        for a in legal:
            k = sum(score[c] for c in a.cards)
            if key is None or k > key:
                best, key = a, k
        return best

    def _trump_discard_scores(self, hand: int, g: _Game) -> list[float]:
        """How much each card wants to go into the skat (suit/grand)."""
        score = [-100.0] * NCARDS
        for k in range(4):
            sm = hand & g.plain[k]
            n = sm.bit_count()
            if not n:
                continue
            has_a = sm >> ACE[k] & 1
            bonus = _LEN_BONUS[n] - (2.0 if has_a and n >= 4 else 0.0)  # a long suit with the ace: keep it whole
            for c in cards_in(sm):
                r = _RANK[c]
                if r == "A":
                    s = -8.0 + (2.0 if n == 1 and g.family == "suit" else 0.0)
                elif r == "T":
                    s = -3.0 if has_a else (6.0 if n <= 2 else 3.0)
                else:
                    s = 2.0 + g.points[c] * 0.1
                score[c] = s + bonus
        # trumps go only if nothing else can (more than 10 trumps)
        for c in cards_in(hand & g.trump):
            score[c] = -50.0 - g.power[c]
        return score

    def _null_discard(self, hand: int, legal, k: int = 2) -> Discard:
        """The ``k`` cards whose removal leaves the safest null hand, among
        the highest cards of each suit (a declarer may discard any)."""
        top = []
        for suit in range(4):
            top += cards_in(hand & SUIT_MASKS[suit])[:k]  # lowest ids = highest in null order
        best, key = None, None
        risk = self.null_risk
        for combo in combinations(top, k):
            rest = hand
            for c in combo:
                rest &= ~BIT[c]
            r = risk(rest)
            if key is None or r < key:
                best, key = combo, r
        if best is None:
            return legal[0]
        return Discard(tuple(sorted(best)))

    def _ramsch_discard_scores(self, hand: int) -> list[float]:
        g = self.info.games[self.rules.all_pass] if self.rules.all_pass in self.info.games else None
        score = [0.0] * NCARDS
        for c in cards_in(hand):
            pts = g.points[c] if g else 0
            power = g.power[c] if g else 0
            score[c] = pts + 0.3 * power + (8 if g and g.follow[c] == TRUMP else 0)
        return score

    def _declare(self, view: SeatView):
        legal = view.legal
        hand, bid = view.hand, view.bid
        info = self.info
        known = hand | sum(BIT[c] for c in view.discard)
        plan = self._plan
        self._plan = None
        best, key = legal[0], None
        for a in legal:
            d = a.declaration
            g = info.games[d.game]
            if d.schneider or d.schwarz or (d.ouvert and g.family != "null"):
                continue  # no announcements in suit and grand
            if g.family == "ramsch":
                continue  # a soloist's Ramsch (Raeuberskat): only when nothing else is left (legal[0])
            mat = g.table.matadors(known if view.discard else hand)
            v = info.value(d, mat)
            p = self._win_p(hand, d)
            if plan is not None and plan[1] == d.game:
                p = min(1.0, p + 0.05)
            e = self._expected(p, v, info.lost_factor(d), bid, self.rules.contracts[d.game].base)
            if key is None or e > key:
                best, key = a, e
        if key is None or key < 0:
            # reach the bid if the best plain game cannot: an announcement may
            for a in legal:
                d = a.declaration
                g = info.games[d.game]
                if g.family in ("null", "ramsch"):
                    continue
                v = info.value(d, g.table.matadors(known if view.discard else hand))
                if v >= bid and d.schneider and not d.schwarz and not d.ouvert and self._win_p(hand, d) > 0.9:
                    return a
        return best

    def _push(self, view: SeatView):
        legal = view.legal
        for a in legal:
            if isinstance(a, Declare):
                d = a.declaration
                p = self._win_p(view.hand, d)
                lf = self.info.lost_factor(d)
                if p >= lf / (1.0 + lf) + 0.1:
                    return a
        return PICK_UP if PICK_UP in legal else legal[0]

    # -- card play ---------------------------------------------------------------
    def _play(self, view: SeatView) -> int:
        g = self._g
        if g is None or view.declaration is not self._decl:  # the contract is fixed once play starts
            d = self._decl = view.declaration
            g = self._g = self.info.games[d.game if d is not None else self.rules.all_pass]
        hand = view.hand
        trick = view.trick
        # the engine's follow rule on the same compiled table; checked against view.legal by count
        legal = (hand & g.class_mask[g.follow[trick[0]]]) or hand if trick else hand
        if legal.bit_count() != len(view.legal):
            legal = 0
            for a in view.legal:
                legal |= BIT[a.card]
        tricks = view.tricks
        n, played = self._played
        if len(tricks) < n:
            n = played = 0
        for k in range(n, len(tricks)):
            cards = tricks[k][1]
            played |= BIT[cards[0]] | BIT[cards[1]] | BIT[cards[2]]
        self._played = (len(tricks), played)
        for c in trick:
            played |= BIT[c]
        unseen = self.info.deck & ~played & ~hand
        if view.seat == view.declarer and view.discard:
            for c in view.discard:
                unseen &= ~BIT[c]
        fam = g.family
        if fam == "null":
            return self._play_null(view, g, legal, unseen, trick)
        if view.declarer is None:
            return self._play_ramsch(view, g, legal, unseen, trick)
        if view.seat == view.declarer:
            return self._play_declarer(view, g, legal, hand, unseen, trick)
        return self._play_defender(view, g, legal, hand, unseen, trick)

    @staticmethod
    def _winning(g: _Game, trick) -> tuple[int, int, tuple[int, ...]]:
        """(index of the winning card, its strength, strength row of the led class)."""
        s = g.strength[g.follow[trick[0]]]
        wi = 0
        for i in range(1, len(trick)):
            if s[trick[i]] > s[trick[wi]]:
                wi = i
        return wi, s[trick[wi]], s

    def _play_declarer(self, view, g: _Game, legal: int, hand: int, unseen: int, trick) -> int:
        pts = g.points
        if not trick:
            mine_t = legal & g.trump
            opp_t = unseen & g.trump
            if mine_t and opp_t:
                top = _high(g, mine_t)
                if not (g.higher[top] & unseen):
                    return top
                jacks = mine_t & JACK_MASK
                if jacks and (mine_t.bit_count() > opp_t.bit_count() or mine_t.bit_count() >= 4):
                    return _high(g, jacks)
                if mine_t.bit_count() >= 3:
                    return _low(g, mine_t)
            # cash masters of the side suits
            side = legal & ~g.trump
            best, bk = -1, -1
            for c in cards_in(side):
                if not (g.higher[c] & unseen) and pts[c] + 1 > bk:
                    best, bk = c, pts[c] + 1
            if best >= 0:
                return best
            if mine_t and not opp_t:
                return _low(g, mine_t)
            if side:
                # low card of the longest side suit
                bestk, bl = 0, -1
                for k in range(4):
                    n = (side & g.plain[k]).bit_count()
                    if n > bl:
                        bestk, bl = k, n
                return _low(g, side & g.plain[bestk])
            return _high(g, legal)
        wi, ws, s = self._winning(g, trick)
        tpts = sum(pts[c] for c in trick)
        winners = [c for c in cards_in(legal) if s[c] > ws]
        if len(trick) == 2:
            if winners and (tpts > 0 or g.follow[winners[0]] != TRUMP):
                return min(winners, key=lambda c: (g.follow[c] == TRUMP, g.power[c]))
            return _low(g, legal)
        # second to play: a defender follows
        masters = [c for c in winners if not (g.higher[c] & unseen)]
        if masters:
            return max(masters, key=lambda c: (pts[c], -g.power[c]))
        if winners and tpts >= 10:
            return max(winners, key=lambda c: g.power[c])
        return _low(g, legal)

    def _play_defender(self, view, g: _Game, legal: int, hand: int, unseen: int, trick) -> int:
        pts = g.points
        seat, decl = view.seat, view.declarer
        partner = 3 - seat - decl
        if view.declarer_hand is not None:  # ouvert: the declarer's cards are known
            unseen_decl = view.declarer_hand
        else:
            unseen_decl = unseen
        if not trick:
            side = legal & ~g.trump
            for c in cards_in(side):
                if CARD_NAMES[c][1] == "A" and not (g.higher[c] & unseen):
                    return c
            if side:
                lengths = [(side & g.plain[k]).bit_count() for k in range(4)]
                ks = [k for k in range(4) if lengths[k]]
                if (seat + 1) % 3 == decl:  # short way: long suit
                    k = max(ks, key=lambda k: lengths[k])
                else:  # long way: short suit
                    k = min(ks, key=lambda k: lengths[k])
                sm = side & g.plain[k]
                low = _low(g, sm)
                return low
            return _low(g, legal)
        leader = (seat - len(trick)) % 3
        wi, ws, s = self._winning(g, trick)
        winner = (leader + wi) % 3
        tpts = sum(pts[c] for c in trick)
        winners = [c for c in cards_in(legal) if s[c] > ws]
        if winner == partner:
            wc = trick[wi]
            safe = len(trick) == 2 or not (g.higher[wc] & unseen_decl & g.class_mask[g.follow[wc]])
            if len(trick) == 1 and g.follow[wc] != TRUMP and g.follow[trick[0]] != TRUMP:
                # the declarer may be void and trump: safe only if he has shown the suit before
                safe = safe and self._declarer_followed(view, g, g.follow[trick[0]])
            if safe:
                # smear: the most points, from a side suit rather than trumps
                return max(cards_in(legal), key=lambda c: (g.follow[c] != TRUMP, pts[c], -g.power[c]))
            if winners and len(trick) == 1:
                masters = [c for c in winners if not (g.higher[c] & unseen)]
                if masters:
                    return max(masters, key=lambda c: pts[c])
            return _low(g, legal)
        # the declarer is winning
        if winners:
            if len(trick) == 2:
                return min(winners, key=lambda c: (g.follow[c] == TRUMP, g.power[c] - pts[c] * 0.01))
            masters = [c for c in winners if not (g.higher[c] & unseen)]
            if masters:
                return max(masters, key=lambda c: (pts[c], -g.power[c]))
            if tpts >= 10:
                return max(winners, key=lambda c: g.power[c])
        return _low(g, legal)

    @staticmethod
    def _declarer_followed(view, g: _Game, k: int) -> bool:
        for leader, cards, _ in view.tricks:
            if g.follow[cards[0]] == k:
                i = (view.declarer - leader) % 3
                return g.follow[cards[i]] == k
        return True

    def _play_null(self, view, g: _Game, legal: int, unseen: int, trick) -> int:
        declarer = view.seat == view.declarer
        if not trick:
            if declarer:
                # lead a card that must lose: nothing lower is still out
                best, bk = -1, None
                for c in cards_in(legal):
                    if g.higher[c] & unseen and not (g.lower[c] & unseen):
                        k = g.power[c]
                        if bk is None or k < bk:
                            best, bk = c, k
                if best >= 0:
                    return best
            return min(cards_in(legal), key=lambda c: (g.power[c], c))
        wi, ws, s = self._winning(g, trick)
        leader = (view.seat - len(trick)) % 3
        winner = (leader + wi) % 3
        under = [c for c in cards_in(legal) if s[c] < ws]
        follows = g.follow[trick[0]]
        if declarer:
            if under:
                return max(under, key=lambda c: (s[c], g.power[c]))
            if s[min(cards_in(legal), key=lambda c: s[c])] < 0 or not legal & g.class_mask[follows]:
                return max(cards_in(legal), key=lambda c: g.power[c])
            return min(cards_in(legal), key=lambda c: s[c])
        # defender
        if winner == view.declarer:
            if under:
                return max(under, key=lambda c: s[c])
            return max(cards_in(legal), key=lambda c: g.power[c])
        decl_to_play = len(trick) == 1 and (view.seat + 1) % 3 == view.declarer
        if decl_to_play:
            if legal & g.class_mask[follows]:
                return min(cards_in(legal & g.class_mask[follows]), key=lambda c: g.power[c])
            return max(cards_in(legal), key=lambda c: g.power[c])
        # the declarer has already ducked: get rid of a high card
        return max(cards_in(legal), key=lambda c: g.power[c])

    def _play_ramsch(self, view, g: _Game, legal: int, unseen: int, trick) -> int:
        pts = g.points
        if not trick:
            side = legal & ~g.trump
            pool = side or legal
            best, bk = -1, None
            for c in cards_in(pool):
                sure = bool(g.higher[c] & unseen)
                k = (not sure, pts[c], g.power[c], (pool & g.class_mask[g.follow[c]]).bit_count())
                if bk is None or k < bk:
                    best, bk = c, k
            return best
        wi, ws, s = self._winning(g, trick)
        follows = g.follow[trick[0]]
        cards = list(cards_in(legal))
        under = [c for c in cards if s[c] < ws]
        if not legal & g.class_mask[follows] and under and len(under) == len(cards):
            # void and not trumping: dump points
            return max(under, key=lambda c: (pts[c], g.power[c]))
        if under:
            return max(under, key=lambda c: (s[c], -pts[c]) if s[c] >= 0 else (-1, pts[c]))
        # every card wins: take with the fewest points, shedding a high card
        if len(trick) == 2:
            return min(cards, key=lambda c: (pts[c], -g.power[c]))
        return max(cards, key=lambda c: (g.power[c] - 3 * pts[c]))


PLAY_CARD = tuple(Play(c) for c in range(NCARDS))


# ---------------------------------------------------------------------------
# Registry
# ---------------------------------------------------------------------------


class BuiltinPlayers:
    """The built-in players, registered like any third-party ones."""

    @hookimpl
    def skat_register_players(self):
        return {"random": RandomPlayer, "heuristic": HeuristicPlayer}


@lru_cache(maxsize=1)
def player_factories() -> Mapping[str, Factory]:
    """Every registered player: the built-ins and the entry points of group
    ``skat.players`` (name -> factory).  A name given twice is an error."""
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(_PlayerSpecs)
    pm.register(BuiltinPlayers(), name="builtin")
    try:
        pm.load_setuptools_entrypoints(PLAYER_ENTRY_POINT_GROUP)
    except Exception as exc:
        raise InputError(f"a {PLAYER_ENTRY_POINT_GROUP} entry point failed to load: {type(exc).__name__}: {exc}") from None
    out: dict[str, Factory] = {}
    try:
        answers = pm.hook.skat_register_players()
    except Exception as exc:
        raise InputError(f"a player plugin failed in skat_register_players: {type(exc).__name__}: {exc}") from None
    for chunk in reversed(answers):  # registration order: the built-ins first
        for name, factory in (chunk or {}).items():
            if name in out:
                raise InputError(f"player {name!r} is registered twice (group {PLAYER_ENTRY_POINT_GROUP})")
            out[name] = factory
    return out


class _PlayerSpecs:
    skat_register_players = staticmethod(hookspecs.skat_register_players)


def resolve_player(name: str) -> Factory:
    """A registered player's factory, or ``module:attr``."""
    factories = player_factories()
    if name in factories:
        return factories[name]
    if ":" in name:
        mod, _, attr = name.partition(":")
        try:
            obj = importlib.import_module(mod)
            for part in attr.split("."):
                obj = getattr(obj, part)
        except (ImportError, AttributeError) as exc:
            raise InputError(f"player {name!r} cannot be loaded: {exc}") from None
        if not callable(obj):
            raise InputError(f"player {name!r} is not a factory")
        return obj
    raise InputError(f"unknown player {name!r} (expected one of: {', '.join(sorted(factories))}, or module:attr)")


def make_player(name_or_factory, rules: CompiledRules, seed: int | None = None) -> Player:
    factory = resolve_player(name_or_factory) if isinstance(name_or_factory, str) else name_or_factory
    return factory(rules=rules, seed=seed)


def call_view(view: SeatView, calls) -> SeatView:
    """``view`` with ``legal`` set to the table calls the seat may make."""
    return view.with_legal(tuple(calls))
