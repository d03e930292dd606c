"""Three :class:`~skatcore.bots.heuristic.HeuristicPlayer` at one table, compiled.

:func:`play_heuristic` plays given deals in
:func:`.kernel.play_deals` and gives the compiled engine's
:class:`~skatcore.engine.compiled.Outcomes`: the same bids, discards,
declarations, cards and scores as three Python players through ``Deal``.

The arrays come from the Python player's own tables, built once per compiled
ruleset: the strength tables of :mod:`.tables`, ``HeuristicPlayer.COEF`` and
``GAME_BONUS`` (a refit flows in with the next build), the candidate
declarations with their values and lost factors of
:class:`~skatcore.bots.heuristic.tables.RulesInfo`.  Rulesets the compiled
engine refuses, and layouts without the heuristic's fast strength tables,
raise :class:`~skatcore.engine.compiled.Unsupported`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from skatcore.bots.heuristic import HeuristicPlayer, kernel
from skatcore.bots.heuristic.tables import (
    _GRAND,
    _GRAND_JACKS,
    _LEN_BONUS,
    _NULL_RISK,
    _SIDE,
    _TRUMPX,
    DOUBLING_CALLS,
    GRAND_FORE,
    JACK_MASK,
    rules_info,
)
from skatcore.engine.compiled import Outcomes, Unsupported, engine_tables, fill_scores
from skatcore.engine.tricks import call_open

_FAMILY = {"suit": kernel.SUIT, "grand": kernel.GRAND, "null": kernel.NULLF}
_WHEN = {"pre": kernel.PRE, "post": kernel.POST, "hand": kernel.HAND}
_GOALS = ("card_points", "no_trick", "fewest_points")  # kernel.last_to_trick's goal codes


@dataclass(frozen=True)
class HeuristicTables:
    """The heuristic's arrays for :func:`.kernel.play_deals` (see there)."""

    H: tuple       # evaluation: families, strength tables, coefficients, candidate declarations
    D: tuple       # per declaration option: considered, announcement fallback, values, lost factor, base, hand, ouvert
    cards: tuple   # power, higher, lower per contract and card
    coef: tuple    # the coefficients the tables were built with


def heuristic_tables(rules, hand_back: bool = False) -> HeuristicTables:
    """The tables of ``rules`` (rebuilt when ``HeuristicPlayer.COEF`` or ``GAME_BONUS`` changed);
    ``hand_back``: also of a ruleset whose all-pass deals a step takes over (see ``engine_tables``).

    :raises Unsupported: where the compiled engine or the heuristic's fast tables do not apply.
    """
    engine_tables(rules, hand_back)
    coef = (tuple(sorted(HeuristicPlayer.COEF.items())), HeuristicPlayer.GAME_BONUS)
    got = rules.cache.get("compiled_heuristic")
    if got is None or got.coef != coef:
        got = rules.cache["compiled_heuristic"] = _build(rules, coef)
    return got


def _build(rules, coef) -> HeuristicTables:
    tables = engine_tables(rules, hand_back=True)
    info = rules_info(rules)
    contracts = tables.contracts
    games = [info.games[c] for c in contracts]
    for g in games:
        if g.family in ("suit", "grand") and g.std is None:
            raise Unsupported(f"ruleset {rules.name!r}: {g.name} has no standard trump layout, which the compiled "
                              "heuristic evaluates (play these deals one at a time through Deal)")
    hfam = np.array([_FAMILY.get(g.family, 3) for g in games], np.int64)
    hstd = np.array([g.std if g.std is not None else -1 for g in games], np.int64)
    coefs = np.zeros((3, 3, 2))
    for (fam, when), ab in HeuristicPlayer.COEF.items():
        coefs[_FAMILY[fam], _WHEN[when]] = ab
    mat_offset = tables.arrays[-1]
    width = 2 * mat_offset + 1
    cidx = {c: i for i, c in enumerate(contracts)}

    def values(d):
        g = info.games[d.game]
        n = len(g.trumps) if g.family != "null" else 0
        row = np.zeros(width, np.int64)
        for m in range(-n, n + 1) if g.family in _FAMILY else ():
            row[m + mat_offset] = info.value(d, m)
        return row

    cands = [c for route in ("pickup", "hand") for c in info.cands[route]]
    cand_end = np.array([len(info.cands["pickup"]), len(cands)], np.int64)
    H = (hfam, hstd, np.array(_SIDE), np.array(_GRAND), np.array(_TRUMPX), np.array(_NULL_RISK),
         np.array(_LEN_BONUS), coefs, int(HeuristicPlayer.GAME_BONUS), tables.arrays[9], tables.arrays[10], mat_offset,
         np.array([cidx[c.d.game] for c in cands], np.int64), np.array([c.d.ouvert for c in cands], np.bool_),
         np.array([c.lost for c in cands], np.int64), np.array([c.base or 0 for c in cands], np.int64),
         np.array([values(c.d) for c in cands], np.int64).reshape(len(cands), width), cand_end,
         np.array(_GRAND_JACKS), float(GRAND_FORE),
         np.array([_GOALS.index(rules.contracts[c].goal) for c in contracts], np.int64))
    opts = tables.options
    fam = [info.games[d.game].family for d in opts]
    D = (np.array([not (d.schneider or d.schwarz or (d.ouvert and f != "null")) and f in _FAMILY
                   for d, f in zip(opts, fam, strict=True)], np.bool_),
         np.array([f in ("suit", "grand") and d.schneider and not d.schwarz and not d.ouvert
                   for d, f in zip(opts, fam, strict=True)], np.bool_),
         np.array([values(d) for d in opts], np.int64).reshape(len(opts), width),
         np.array([info.lost_factor(d) for d in opts], np.int64),
         np.array([rules.contracts[d.game].base or 0 for d in opts], np.int64),
         np.array([d.hand for d in opts], np.bool_), np.array([d.ouvert for d in opts], np.bool_))
    cards = (np.array([g.power[:32] for g in games], np.int64), np.array([g.higher[:32] for g in games], np.int64),
             np.array([g.lower[:32] for g in games], np.int64))
    return HeuristicTables(H, D, cards, coef)


def play_heuristic(rules, dealt, seed: int = 0, start: int = 0, keep: bool = False,
                   hand_back: bool = False) -> Outcomes:
    """The deals ``dealt`` = ``(deck, hands, skat)`` (n x 32 cards in dealing
    order, n x 3 and n masks; :func:`skatcore.sim.dealing.seeded_deals` deals
    them as ``skat simulate`` does) played by three heuristic players, as
    deals ``start ..`` of run ``seed``; ``keep`` keeps the bidding calls for
    :meth:`Outcomes.replay`; ``hand_back`` accepts a ruleset whose all-pass
    deals a step takes over (they are left :attr:`Outcomes.unfinished`).

    :raises Unsupported: for a ruleset the compiled heuristic does not play.
    """
    ht = heuristic_tables(rules, hand_back)
    tables = engine_tables(rules, hand_back)
    deck, hands, skat = dealt
    may = any(c.may for c in rules.calls.values())  # who may call reads the bidding
    out = Outcomes(rules, tables, seed, start, len(skat), keep or may)
    out.deck[:] = deck
    kernel.play_deals(hands, skat, ht.H, ht.D, *ht.cards, *tables.arrays, *out._kernel_outputs())
    if rules.calls:
        _table_calls(rules, out, hands, skat)
    fill_scores(rules, tables, out)
    return out


def _table_calls(rules, out: Outcomes, hands, skat) -> None:
    """The table calls of :meth:`Bidding.call <skatcore.bots.heuristic.bidding.Bidding.call>`
    into ``out.said``: a declarer holding 7 trumps, a defender 4 trumps with 2
    jacks, says each doubling call open to him.  The players are asked before
    every card of the first trick; a hand only loses trumps and the windows
    only close, so whatever they say they say before the first card, with the
    hands as the play starts: the offers there run as in
    :func:`skatcore.sim.play.play` (seat by seat, until nobody calls)."""
    info = rules_info(rules)
    rows = np.nonzero(out.declarer >= 0)[0]
    trump = np.array([info.games[c].trump if info.games[c].family != "null" else 0 for c in out.contracts] + [0],
                     np.int64)[out.contract[rows]]
    decl = out.declarer[rows].astype(np.int64)
    held = hands[rows].astype(np.int64)
    picked = out.discard[rows, 0] >= 0
    put = np.where(picked, (1 << out.discard[rows, 0].clip(0).astype(np.int64))
                   | (1 << out.discard[rows, 1].clip(0).astype(np.int64)), 0)
    k = np.arange(len(rows))
    held[k, decl] = np.where(picked, (held[k, decl] | skat[rows]) & ~put, held[k, decl])
    trumps = np.bitwise_count(held & trump[:, None])
    jacks = np.bitwise_count(held & JACK_MASK)
    is_decl = np.arange(3)[None, :] == decl[:, None]
    says = np.where(is_decl, trumps >= 7, (trumps >= 4) & (jacks >= 2)) & (trump[:, None] != 0)
    calls = list(rules.calls.values())
    for j in np.nonzero(says.any(axis=1))[0]:
        i = int(rows[j])
        said = _offers(rules, calls, tuple(bool(x) for x in says[j]), int(decl[j]), out.tables.options[out.option[i]],
                       lambda i=i: [(s, a) for s, a in out.bidding(i).history])
        if said:
            out.said[i] = said


def _offers(rules, calls, says, decl: int, d, bidding) -> tuple[tuple[int, str], ...]:
    """The calls made before the first card: ``says[seat]`` whether that
    seat's hand makes a doubling call open to it (Deal.legal_calls, before any card)."""
    made: dict[str, object] = dict(d.declarations)
    said: list[tuple[int, str]] = []

    def legal(c, s):
        if not call_open(rules, c, made, d, "declarer" if s == decl else "defender"):
            return False
        if c.window == "next_card" and not any(name == c.after for _, name in said):
            return False
        return not c.may or c.may(bidding(), s, decl)

    changed = True
    while changed:
        changed = False
        for s in range(3):
            for c in [c for c in calls if legal(c, s)] if says[s] else ():
                if c.name in DOUBLING_CALLS and legal(c, s):
                    made[c.writes] = c.value
                    said.append((s, c.name))
                    changed = True
    return tuple(said)
