"""Complete random-player deals in a numba-compiled loop.

The random player picks uniformly among the legal actions.  Deal by deal
through :class:`~skatcore.engine.deal.Deal` that costs ~40 Python method calls;
here :func:`play_random` runs the whole deal (bidding, skat, declaration,
tricks, the null declarer's early end, scoring) in
:func:`~skatcore.engine.kernel.play_deals`, reading the same
:class:`~skatcore.rules.CompiledRules` tables the ``Deal`` reads, flattened
into arrays once per compiled ruleset (:func:`engine_tables`).

Scoring stays the ruleset's: the multiplier, value and win of every
(declaration, matadors, card-point class, schwarz class) are asked from
``rules.score`` when the tables are built - the card-point classes are those
of the ruleset's thresholds, judged on the card points with the house
rules' (:mod:`.card_table`, added by the kernel).  Sheet entries of a ruleset with its own
``skat_sheet_entries`` and deals without declarer (Ramsch) are scored by
``rules.score`` once per distinct outcome.  Each of these answers is asked
on recording facts (:mod:`skatcore.engine.probe`): where a plugin's scoring
read anything outside the key (the last trick, the exact card points, the
bid where the key has none) or raised, that key is not tabulated, and its deals are replayed through ``Deal`` and scored on
their own facts (:attr:`Outcomes.own_facts`).  Explanations are built only
when read (:meth:`Outcomes.result` replays the deal through ``Deal``).

``tests/test_compiled.py`` replays the deals action by action through
``Deal`` (the single source of legality) and demands the same results.
Rulesets with steps the engine does not model raise :class:`Unsupported`;
steps that wait for all to pass (a push round) leave those deals unfinished
for a caller that asks for it (``engine_tables(rules, hand_back=True)``:
:attr:`Outcomes.unfinished`), which plays them through ``Deal``.

Table calls (Kontra ...) the players make are given as :attr:`Outcomes.said`
(deal -> ``(seat, call)`` in the order made, before the first card): those
deals are scored by the ruleset's scoring of the declaration with the calls,
once per distinct outcome.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np

from skatcore.engine.deal import HOLD, PACKETS, PASS, PICK_UP, PLAY_HAND, PLAYS, Bid, Call, Deal, Declare, Discard
from skatcore.engine.probe import SHEET_KEY, VALUE_KEY, Reads, describe, recording
from skatcore.engine.scoring import make_facts
from skatcore.model import SEATS, STANDARD_DECK, Declaration, RamschFacts, ScoreResult

from . import card_table, kernel, trick_table
from .trick_table import trick_wins

_ROUTES = ("pickup", "hand")
#: where the trick-winner table's arrays sit in :attr:`EngineTables.arrays` (:mod:`.trick_table`)
TRICK_ARRAYS = slice(11, 16)
CARD_ARRAYS = slice(16, 19)  # and the card-point tables' (:mod:`.card_table`)


class Unsupported(Exception):
    """The ruleset has a rule the compiled engine does not model (a step, skat_trick_winner ...)."""


@dataclass(frozen=True)
class EngineTables:
    """A :class:`CompiledRules` flattened into the kernel's arrays."""

    contracts: tuple[str, ...]
    options: tuple[Declaration, ...]     # pickup options, then hand options
    arrays: tuple                        # the kernel's table arguments, in order
    sheet: bool                          # sheet entries come from a plugin
    classes: tuple                       # (schwarz class, point class, a sample (points, declarer tricks))
    hands_back: bool = False             # deals where all pass are left to Deal (a step takes over)
    own_facts: np.ndarray | None = None  # (option, matadors, point class, schwarz class) not tabulated
    why: str | None = None               # why a key is not tabulated (the first found)
    replays: bool = False                # deals without declarer are scored on their own facts (card points)

    @property
    def keep(self) -> bool:
        """Whether the bidding must be kept: some deals may be replayed to be scored on their own facts."""
        return self.sheet or bool(self.why) or self.replays

    @property
    def own_why(self) -> str:
        """Why deals are scored on their own facts ("": none are)."""
        return self.why or ("card points by house rules in a deal without declarer" if self.replays else "")


def engine_tables(rules, hand_back: bool = False) -> EngineTables:
    """The tables of ``rules`` (built once per compiled ruleset); with
    ``hand_back`` also of a ruleset whose steps wait for all to pass (its
    all-pass deals are left unfinished, :attr:`Outcomes.unfinished`).

    :raises Unsupported: for a step the kernel does not model.
    """
    tables = rules.cache.get("compiled_engine")
    if tables is None:
        tables = rules.cache["compiled_engine"] = _build(rules)
    if isinstance(tables, Unsupported):
        raise tables
    if tables.hands_back and not hand_back:
        raise Unsupported(f"ruleset {rules.name!r}: flow steps ({', '.join(s.name for s in rules.steps)}) when all "
                          "pass, which the compiled engine leaves to Deal (play these deals one at a time through Deal)")
    return tables


def _build(rules) -> EngineTables | Unsupported:
    why = _unsupported(rules)
    if why:
        return Unsupported(f"ruleset {rules.name!r}: {why}; the compiled engine plays 32 cards with bidding "
                           "(play these deals one at a time through Deal)")
    contracts = tuple(rules.contracts)
    cidx = {c: i for i, c in enumerate(contracts)}
    n_c = len(contracts)
    kind = np.array([_kind(rules.contracts[c]) for c in contracts], np.int64)
    tt = [rules.tricks[c] for c in contracts]
    follow = np.array([t.follow[:32] for t in tt], np.int64)
    class_mask = np.array([t.class_mask for t in tt], np.int64)
    strength = np.array([[row[:32] for row in t.strength] for t in tt], np.int64)
    points = np.array([t.points[:32] for t in tt], np.int64)
    n_trumps = np.array([len(t.trumps) for t in tt], np.int64)
    trumps = np.full((n_c, max(1, n_trumps.max())), -1, np.int64)
    for i, t in enumerate(tt):
        trumps[i, :len(t.trumps)] = t.trumps

    options = tuple(o for r in _ROUTES for o in rules.options[r])
    route_start = np.array([0, len(rules.options["pickup"])], np.int64)
    route_end = np.array([len(rules.options["pickup"]), len(options)], np.int64)
    opt_contract = np.array([cidx[o.game] for o in options] or [0], np.int64)
    null_value = np.array([rules.contracts[o.game].fixed[(o.hand, o.ouvert)] if kind[cidx[o.game]] == kernel.NULL else 0
                           for o in options], np.int64)
    base = np.array([rules.base_value(o) if kind[cidx[o.game]] == kernel.VALUED else 1 for o in options], np.int64)
    factor = np.array([rules.lost_factor_of(o) for o in options], np.int64)
    cards = card_table.card_tables(rules) if rules.card_points else None
    point_class, reps = card_table.point_classes(rules.thresholds, every=isinstance(cards, card_table.CardTables))
    mat_offset = int(n_trumps.max())
    shape = (max(1, len(options)), 2 * mat_offset + 1, 8, 3)
    value, mult, won = np.zeros(shape, np.int64), np.zeros(shape, np.int64), np.zeros(shape, np.bool_)
    own_facts, why = np.zeros(shape, np.bool_), None
    for o, d in enumerate(options):
        c = cidx[d.game]
        if kind[c] != kernel.VALUED:
            continue
        for m in range(-int(n_trumps[c]), int(n_trumps[c]) + 1):
            for sc, pc, sample in reps:
                cell = (o, m + mat_offset, pc, sc)
                got = _tabulated(rules, d, sample, VALUE_KEY, matadors=m, bid=0, declarer=0)
                if isinstance(got, str):
                    own_facts[cell] = True
                    why = why or f"the score of {d.game} {got}"
                    continue
                value[cell], mult[cell], won[cell] = got.value, got.multiplier, bool(got.won)
    why = cards if isinstance(cards, str) else why  # the deals' own facts then, also without declarer (fill_scores)
    hands_back = bool(rules.steps)  # all at "all_passed" (_unsupported): those deals stop as if thrown in
    all_pass = cidx[rules.all_pass] if rules.all_pass != "throw_in" and not hands_back else -1
    arrays = (np.array(PACKETS, np.int64), np.array(rules.ladder, np.int64), bool(rules.skip_bidding), all_pass,
              kind, follow, class_mask, strength, points, trumps, n_trumps, *trick_table.kernel_arrays(rules, contracts),
              *card_table.kernel_arrays(rules, contracts), route_start, route_end, opt_contract, null_value, base, factor,
              value, mult, won, point_class, mat_offset)
    return EngineTables(contracts, options, arrays, rules.custom_sheet, tuple(reps), hands_back, own_facts, why,
                        bool(rules.card_points) and all_pass >= 0)


def _kind(contract) -> int:
    return kernel.NO_DECLARER if not contract.declarer else kernel.NULL if contract.no_trick else kernel.VALUED


def _unsupported(rules) -> str | None:
    why = _not_modelled(rules)
    if why is None and rules.trick_hook:  # the kernel reads the hook's answers from a table, where one can be built
        wins = trick_wins(rules)
        return wins if isinstance(wins, str) else None
    return why


def _not_modelled(rules) -> str | None:
    if rules.deck != STANDARD_DECK:
        return f"a {len(rules.deck.cards)}-card deck"
    if not rules.table.plain:
        return "seats not played from their own hand"
    during = [s.name for s in rules.steps if s.at in ("trick", "last_trick")]
    if during:
        return f"flow steps during the play ({', '.join(during)})"
    late = [f"{c.name} until trick {c.until_trick}" for c in rules.calls.values() if c.until_trick > 1]
    if late:  # the kernel's players call before the first card only
        return f"table calls beyond the first trick ({', '.join(late)})"
    waits = [s for s in rules.steps if s.at != "all_passed" or rules.skip_bidding]
    if waits:  # plugin steps run in Deal only (skatcore.engine.steps); those after all passed: see hands_back
        return f"flow steps ({', '.join(s.name for s in waits)})"
    if rules.skip_bidding:
        return None
    if rules.ladder[0] != rules.min_bid:
        return f"the minimum bid {rules.min_bid} is not the first rung of the ladder"
    for route in _ROUTES:
        if all(rules.contracts[o.game].no_trick for o in rules.options[route]):
            return f"no suit or grand game on the {route} route"
    return None


def _tabulated(rules, d: Declaration, sample: tuple[int, int], key, **given) -> ScoreResult | str:
    """The result of ``d`` scored on recording facts at ``sample`` (points,
    declarer tricks) of a card-point class, or why it cannot be tabulated
    under ``key``: a read outside it (:mod:`skatcore.engine.probe`: a
    function that reads only the key answers alike for every deal of it),
    or an error on a summary."""
    p, dt = sample
    reads = Reads(tabled=card_table.tabled(rules))
    facts = make_facts(rules, rules.contracts[d.game], d, declarer_points=p, declarer_tricks=dt,
                       defender_tricks=10 - dt, **given)
    try:
        r = rules.score(recording(facts, reads))
    except Exception as exc:
        return f"cannot be scored from a summary ({type(exc).__name__})"
    outside = reads.outside(key, key is SHEET_KEY)
    return describe(outside) if outside else r


# ---------------------------------------------------------------------------


class Outcomes:
    """The outcome of ``n`` random deals as arrays (row ``i``: deal ``start+i``).

    ``contract`` indexes ``contracts`` (-1: thrown in), ``option`` the
    declaration options (-1: none), ``declarer`` is -1 without declarer,
    ``won`` -1 without declarer, ``multiplier`` -1 for a null game, ``scores``
    the three sheet entries.  :meth:`result` builds a deal's full
    :class:`ScoreResult` (explanation included) on demand.
    """

    def __init__(self, rules, tables: EngineTables, seed: int, start: int, n: int, keep: bool):
        self.rules, self.tables, self.seed, self.start, self.n = rules, tables, seed, start, n
        self.contracts = tables.contracts
        i8, i16, i32 = np.int8, np.int16, np.int32
        self.deck = np.zeros((n, 32), i8)
        self.calls = np.zeros((n if keep or tables.keep else 0, 2 * len(rules.ladder) + 4), i16)
        self.discard = np.zeros((n, 2), i8)
        self.plays = np.zeros((n, 30), i8)
        self.contract, self.option = np.zeros(n, i8), np.zeros(n, i16)
        self.declarer, self.bid = np.zeros(n, i8), np.zeros(n, i16)
        self.won, self.overbid = np.full(n, -1, i8), np.zeros(n, np.bool_)
        self.value, self.score, self.multiplier, self.matadors = (np.zeros(n, i32), np.zeros(n, i32),
                                                                  np.full(n, -1, i16), np.zeros(n, i8))
        self.declarer_points, self.declarer_tricks = np.zeros(n, i16), np.zeros(n, i8)
        self.trick_points, self.tricks_won = np.zeros((n, 3), i16), np.zeros((n, 3), i8)
        self.skat_mask, self.last_winner = np.zeros(n, np.int64), np.zeros(n, i8)
        self.scores = np.zeros((n, 3), i32)
        self.said: dict[int, tuple[tuple[int, str], ...]] = {}  # deal -> table calls (seat, name), as made
        self.extra: dict[int, dict] = {}  # deal -> ScoreResult.extra of a deal scored with its calls
        self.own_facts = np.zeros(n, np.bool_)  # deals replayed through Deal and scored on their own facts

    def _kernel_outputs(self):
        return (self.deck, self.calls, self.discard, self.plays, self.contract, self.option, self.declarer, self.bid,
                self.won, self.overbid, self.value, self.score, self.multiplier, self.matadors, self.declarer_points,
                self.declarer_tricks, self.trick_points, self.tricks_won, self.skat_mask, self.last_winner)

    def __len__(self) -> int:
        return self.n

    @cached_property
    def unfinished(self) -> np.ndarray:
        """Deals left to ``Deal``: all passed where a step takes over (``hand_back``)."""
        return (self.contract < 0) & (self.bid == 0) if self.tables.hands_back else np.zeros(self.n, np.bool_)

    def game(self, i: int) -> str:
        c = self.contract[i]
        return self.contracts[c] if c >= 0 else "passed"

    def declarations(self, i: int) -> dict:
        """Deal ``i``'s declarations as made: the declared option's and the table calls'."""
        if self.option[i] < 0:
            return {}
        return with_calls(self.rules, self.tables.options[self.option[i]], [n for _, n in self.said.get(i, ())]).declarations

    def bidding(self, i: int) -> Deal:
        """Deal ``i`` replayed through :class:`Deal` to the end of the bidding (needs ``keep=True``)."""
        if not len(self.calls):
            raise ValueError("the bidding was not kept: play_random(..., keep=True)")
        deck = [int(c) for c in self.deck[i]]
        deal = Deal(self.rules, [[deck[j] for j in packet] for packet in PACKETS], deck[9:11])
        for c in self.calls[i]:
            if c == 0:
                break
            deal.apply(Bid(int(c)) if c > 0 else HOLD if c == kernel.HOLD else PASS)
        return deal

    def replay(self, i: int) -> Deal:
        """Deal ``i`` replayed action by action through :class:`Deal` (needs ``keep=True``)."""
        deal = self.bidding(i)
        if self.declarer[i] >= 0:
            pickup = self.discard[i, 0] >= 0
            deal.apply(PICK_UP if pickup else PLAY_HAND)
            if pickup:
                deal.apply(Discard((int(self.discard[i, 0]), int(self.discard[i, 1]))))
            deal.apply(Declare(self.tables.options[self.option[i]]))
        for seat, name in self.said.get(i, ()):
            deal.apply(Call(seat, name))
        for c in self.plays[i]:
            if c < 0:
                break
            deal.apply(PLAYS[c])
        return deal

    def result(self, i: int) -> ScoreResult:
        """Deal ``i``'s full result by the ruleset's scoring, explanation included."""
        return self.replay(i).result()

    def brief(self, i: int) -> Brief:
        """Deal ``i``'s result as the statistics read it, without a replay."""
        d = int(self.declarer[i])
        scores = dict(zip(SEATS, self.scores[i].tolist(), strict=True))
        if d < 0:
            return Brief(self.rules.name, self.game(i), None, None, False, None, False, 0, 0, scores, None)
        option = self.tables.options[self.option[i]]
        points = None if self.multiplier[i] < 0 else int(self.declarer_points[i])  # a null game counts no points
        return Brief(self.rules.name, self.game(i), d, int(self.bid[i]), option.hand, bool(self.won[i]),
                     bool(self.overbid[i]), int(self.value[i]), int(self.score[i]), scores, points,
                     self.extra.get(i, {}))


class Brief(NamedTuple):
    """The fields of a deal's :class:`ScoreResult` that statistics and the
    per-deal export read (:meth:`Outcomes.result` gives the full one)."""

    ruleset: str
    game: str
    declarer: int | None
    bid: int | None
    hand: bool
    won: bool | None
    overbid: bool
    value: int
    score: int
    scores: dict[str, int]
    declarer_points: int | None
    extra: dict = {}  # noqa: RUF012 - a NamedTuple field's default, not a class attribute; never changed in place


def play_random(rules, n: int, seed: int, start: int = 0, keep: bool = False) -> Outcomes:
    """Play deals ``start .. start+n-1`` of run ``seed`` with random players.

    Deal ``i`` depends on ``(seed, i)`` only, so runs split into chunks give
    the same deals.  ``keep`` keeps the bidding calls for :meth:`Outcomes.replay`.

    :raises Unsupported: for a ruleset with a step the engine does not model.
    """
    tables = engine_tables(rules)
    out = Outcomes(rules, tables, seed, start, n, keep)
    kernel.play_deals(seed, start, n, *tables.arrays, *out._kernel_outputs())
    fill_scores(rules, tables, out)
    return out


def fill_scores(rules, tables: EngineTables, out: Outcomes) -> None:
    """Fill ``out.scores``: the declarer's entry, or the plugins' sheet
    entries and Ramsch scores, asked once per distinct outcome; deals whose
    outcome cannot be tabulated are scored on their own facts."""
    rows = np.nonzero(out.declarer >= 0)[0]
    own = np.zeros(out.n, np.bool_)  # deals to score on their own facts
    pc = tables.arrays[-2][np.clip(out.declarer_points[rows], 0, 120)]  # house rules' card points: as score_deal clamps
    dt = out.declarer_tricks[rows].astype(np.int64)
    sc = np.where(dt == 0, 1, np.where(out.tricks_won[rows].sum(axis=1) == dt, 2, 0))
    if tables.why:
        cells = (out.option[rows], out.matadors[rows] + tables.arrays[-1], pc, sc)
        own[rows] = tables.own_facts[cells]
    if out.said:
        _said_entries(rules, tables, out, own)
        unsaid = ~np.isin(rows, list(out.said))
        rows, sc, pc = rows[unsaid], sc[unsaid], pc[unsaid]
    if not tables.sheet:
        out.scores[rows, out.declarer[rows]] = out.score[rows]
    elif len(rows):
        # one code per (option, matadors, point class, schwarz class, bid, declarer)
        code = out.option[rows].astype(np.int64)
        for digit, size in ((out.matadors[rows] + 64, 128), (pc, 8), (sc, 3),
                            (out.bid[rows], 1 << 15), (out.declarer[rows], 3)):
            code = code * size + digit
        unique, where = np.unique(code, return_inverse=True)
        memo = rules.cache.setdefault("compiled_engine_sheet", {})
        got = [_declarer_entries(rules, tables, memo, int(k)) for k in unique]
        untabulated = np.array([g is None for g in got], np.bool_)
        entries = np.array([g or (0, 0, 0) for g in got], np.int32)
        out.scores[rows] = entries[where]
        out.score[rows] = out.scores[rows, out.declarer[rows]]  # the declarer's line, as the sheet has it
        own[rows[untabulated[where]]] = True
    without = np.nonzero((out.declarer < 0) & (out.contract >= 0))[0]
    if len(without) and rules.card_points:  # house card points read the tricks: no outcome key holds them
        own[without] = True
    elif len(without):
        memo = rules.cache.setdefault("compiled_engine_no_declarer", {})
        for i in without:
            out.scores[i] = _no_declarer_entries(rules, out, memo, int(i))
    for i in np.nonzero(own)[0]:
        _score_own_facts(out, int(i))
    out.own_facts = own


def _score_own_facts(out: Outcomes, i: int) -> None:
    """Deal ``i`` replayed through ``Deal`` and scored on its own facts."""
    r = out.replay(i).result()
    out.value[i], out.won[i], out.overbid[i] = r.value, int(bool(r.won)), r.overbid
    out.multiplier[i] = -1 if r.multiplier is None else r.multiplier
    out.scores[i] = [r.scores[s] for s in SEATS]
    out.score[i] = r.score
    if r.declarer_points is not None:  # with the house rules' card points (skat_card_points)
        out.declarer_points[i] = r.declarer_points
    if r.extra or i in out.said:
        out.extra[i] = r.extra


def _declarer_entries(rules, tables, memo, code: int) -> tuple[int, int, int] | None:
    """The sheet entries of one code, by the ruleset's scoring of a sample
    of its point class (None: they cannot be tabulated, :func:`_tabulated`)."""
    if code not in memo:
        rest, decl = divmod(code, 3)
        rest, bid = divmod(rest, 1 << 15)
        rest, sc = divmod(rest, 3)
        rest, pc = divmod(rest, 8)
        o, m = divmod(rest, 128)
        d = tables.options[o]
        got = _tabulated(rules, d, _sample(tables, rules.contracts[d.game], sc, pc), SHEET_KEY,
                         matadors=m - 64, bid=bid, declarer=decl)
        memo[code] = None if isinstance(got, str) else tuple(got.scores[s] for s in SEATS)
    return memo[code]


def _sample(tables, contract, sc: int, pc: int) -> tuple[int, int]:
    """(declarer points, declarer tricks) of a schwarz and point class."""
    if contract.no_trick:  # a null game counts only whether the declarer took a trick
        return (0, 0) if sc == 1 else (0, 1)
    return next(s for c, p, s in tables.classes if (c, p) == (sc, pc))


def _said_entries(rules, tables, out: Outcomes, own: np.ndarray) -> None:
    """The deals with table calls: scored by the ruleset's scoring of the
    declaration with the calls, once per distinct outcome (a call may change
    the value as well as the entries); ``own`` marks those to score on their own facts."""
    point_class = tables.arrays[-2]
    memo = rules.cache.setdefault("compiled_engine_said", {})
    for i, said in out.said.items():
        dt = int(out.declarer_tricks[i])
        sc = 1 if dt == 0 else 2 if int(out.tricks_won[i].sum()) == dt else 0
        pc = int(point_class[min(max(int(out.declarer_points[i]), 0), 120)])  # as score_deal clamps
        key = (int(out.option[i]), int(out.matadors[i]), pc, sc, int(out.bid[i]),
               int(out.declarer[i]), tuple(name for _, name in said))
        if key not in memo:
            memo[key] = _said_result(rules, tables, key)
        got = memo[key]
        if got is None:
            own[i] = True
            continue
        scores, out.value[i], out.multiplier[i], out.won[i], out.overbid[i], out.extra[i] = got
        out.scores[i] = scores
        out.score[i] = scores[out.declarer[i]]


def with_calls(rules, d: Declaration, names) -> Declaration:
    """``d`` with what the table calls ``names`` write (as ``Deal`` records a call)."""
    if not names:
        return d
    calls = [rules.calls[n] for n in names]
    return Declaration(d.game, d.hand, d.schneider, d.schwarz, d.ouvert,
                       {**d.declarations, **{c.writes: c.value for c in calls}})


def _said_result(rules, tables, key) -> tuple | None:
    o, m, pc, sc, bid, decl, names = key
    d = with_calls(rules, tables.options[o], names)
    r = _tabulated(rules, d, _sample(tables, rules.contracts[d.game], sc, pc), SHEET_KEY,
                   matadors=m, bid=bid, declarer=decl)
    if isinstance(r, str):
        return None
    return (tuple(r.scores[s] for s in SEATS), r.value, -1 if r.multiplier is None else r.multiplier,
            int(r.won), r.overbid, r.extra)


def _no_declarer_entries(rules, out: Outcomes, memo, i: int) -> tuple[int, int, int]:
    contract = rules.contracts[out.contracts[out.contract[i]]]
    skat = tuple(c for c in range(32) if int(out.skat_mask[i]) >> c & 1)
    pts = rules.tricks[contract.name].points
    key = (contract.name, tuple(out.trick_points[i].tolist()), tuple(out.tricks_won[i].tolist()), skat,
           int(out.last_winner[i]))
    got = memo.get(key)
    if got is None:
        facts = RamschFacts(contract, key[1], key[2], skat, sum(pts[c] for c in skat), key[4])
        scores = rules.score(facts).scores
        got = memo[key] = tuple(scores[s] for s in ("forehand", "middlehand", "rearhand"))
    return got
