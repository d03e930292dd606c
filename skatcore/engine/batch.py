"""Many random-player deals at once, with numpy.

The random player picks uniformly among :meth:`Deal.legal_actions`.  Doing
that deal by deal costs ~40 Python method calls per deal; here every step is
done for a whole batch of deals with array operations, reading the same
:class:`~skatcore.rules.compiler.CompiledRules` tables the :class:`~skatcore.engine.deal.Deal`
reads (ladder, declaration options, follow classes, trick strengths, card
points), and each finished deal is scored by the ruleset's own scoring.

It is not a second rule book: ``tests/engine/test_batch.py`` replays batch deals
action by action through ``Deal`` (the single source of legality) and demands
the same results.  Rulesets with steps the batch does not model (Tournée's
turn-up, Schieberamsch pushing, no bidding) raise :class:`Unsupported`;
callers then drive ``Deal`` one deal at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from skatcore.engine.deal import _PACKETS as DEAL_PACKETS
from skatcore.model import STANDARD_DECK, Declaration, RamschFacts
from skatcore.engine.scoring import make_facts, passed_result

_HOLD, _PASS = -1, -2
# deck positions of each seat's cards for the 3-skat-4-3 deal (as deal.deal_cards)
_PACKETS = np.array(DEAL_PACKETS)
_BIT = np.int64(1) << np.arange(32, dtype=np.int64)
_PAIRS = np.array([(a, b) for a in range(12) for b in range(a + 1, 12)])


class Unsupported(Exception):
    """The ruleset has a step the batch engine does not model."""


@dataclass
class BatchDeal:
    """One batch deal as actions, to replay through :class:`~skatcore.engine.deal.Deal`."""

    hands: list[list[int]]
    skat: list[int]
    calls: list[int]              # ladder values, -1 yes, -2 pass
    route: str | None             # "pickup" / "hand"; None when nobody declared
    discard: tuple[int, int] | None
    declaration: Declaration | None
    plays: list[int]


def _pick(rng, counts):
    """A uniform index below each count (counts > 0)."""
    return (rng.random(len(counts)) * counts).astype(np.int64)


def _nth_set_bit(masks, k):
    """The k-th lowest set bit (card id) of each mask."""
    bits = (masks[:, None] & _BIT) != 0
    return np.argmax(np.cumsum(bits, axis=1) > k[:, None], axis=1)


def play_random(rules, n: int, seed: int, keep: bool = False):
    """Play ``n`` deals with random players.

    :returns: the list of :class:`ScoreResult`, and with ``keep`` also the
        list of :class:`BatchDeal` action records.
    """
    if rules.turn_up or rules.push_rules or rules.skip_bidding or rules.soloist or rules.deck != STANDARD_DECK or not rules.table.plain:
        raise Unsupported(f"ruleset {rules.name!r}: turn-up, pushing, no bidding (or a soloist), another deck than 32 cards"
                          " or seats not played from their own hand")
    rng = np.random.default_rng(seed)
    rows = np.arange(n)

    # -- deal ------------------------------------------------------------------
    perm = rng.permuted(np.tile(np.arange(32), (n, 1)), axis=1)
    bits = _BIT[perm]
    hands = np.stack([bits[:, _PACKETS[s]].sum(axis=1) for s in range(3)], axis=1)
    dealt = hands.copy()
    skat = bits[:, 9] | bits[:, 10]

    # -- bidding (docs/rules/official.md#a4; the same steps as Deal._bid) -------------------------
    ladder = np.array(rules.ladder)
    if rules.ladder[0] != rules.min_bid:
        raise Unsupported("the minimum bid is not the first rung of the ladder")
    part = np.ones(n, np.int64)
    asker = np.full(n, 1)
    answerer = np.zeros(n, np.int64)
    awaiting = np.zeros(n, bool)
    bid_idx = np.full(n, -1)
    declarer = np.full(n, -1)
    active = np.ones(n, bool)
    calls = []
    while active.any():
        r = rng.random(n)
        call = np.zeros(n, np.int64)
        alone = active & (part == 3)
        answering = active & (part < 3) & awaiting
        asking = active & (part < 3) & ~awaiting
        # forehand alone: the minimum bid or pass
        fh_bids = alone & (r < 0.5)
        bid_idx[fh_bids] = 0
        declarer[fh_bids] = 0
        call[fh_bids] = ladder[0]
        call[alone & ~fh_bids] = _PASS
        active[alone] = False
        # answerer: yes or pass
        holds = answering & (r < 0.5)
        awaiting[holds] = False
        call[holds] = _HOLD
        ans_pass = answering & ~holds
        call[ans_pass] = _PASS
        # asker: any higher rung, or pass
        options = len(ladder) - (bid_idx + 1)
        k = (r * (options + 1)).astype(np.int64)
        ask_pass = asking & (k == options)
        raises = asking & ~ask_pass
        bid_idx[raises] += 1 + k[raises]
        awaiting[raises] = True
        call[raises] = ladder[bid_idx[raises]]
        call[ask_pass] = _PASS
        # a part ends with a pass: the other player survives
        over = ans_pass | ask_pass
        survivor = np.where(ans_pass, asker, answerer)
        awaiting[over] = False
        to_two = over & (part == 1)
        asker[to_two], answerer[to_two] = 2, survivor[to_two]
        done_two = over & (part == 2)
        won = done_two & (bid_idx >= 0)
        declarer[won] = survivor[won]
        active[won] = False
        part[done_two & ~won] = 3
        part[to_two] = 2
        calls.append(call)
    calls = np.stack(calls, axis=1) if calls else np.zeros((n, 0), np.int64)
    bid = np.where(bid_idx >= 0, ladder[np.maximum(bid_idx, 0)], 0)
    declared = declarer >= 0

    # -- skat and declaration ------------------------------------------------------
    pickup = declared & (rng.random(n) < 0.5)  # legal_actions: (PICK_UP, PLAY_HAND)
    discard = np.full((n, 2), -1)
    pr = rows[pickup]
    if len(pr):
        held = hands[pr, declarer[pr]] | skat[pr]
        positions = np.argsort(~((held[:, None] & _BIT) != 0), axis=1, kind="stable")[:, :12]
        pair = _PAIRS[_pick(rng, np.full(len(pr), len(_PAIRS)))]
        d0, d1 = positions[np.arange(len(pr)), pair[:, 0]], positions[np.arange(len(pr)), pair[:, 1]]
        discard[pr, 0], discard[pr, 1] = d0, d1
        skat[pr] = _BIT[d0] | _BIT[d1]
        hands[pr, declarer[pr]] = held & ~skat[pr]

    contracts = [c.name for c in rules.contracts.values()]
    cidx = np.full(n, -1)
    chosen: list[Declaration | None] = [None] * n
    for route, mask in (("pickup", pickup), ("hand", declared & ~pickup)):
        opts = rules.options[route]
        rr = rows[mask]
        if not len(rr) or not opts:
            continue
        fixed = np.array([rules.contracts[o.game].fixed.get((o.hand, o.ouvert), 0)
                          if rules.contracts[o.game].no_trick else 0 for o in opts])
        is_null = np.array([rules.contracts[o.game].no_trick for o in opts])
        valid = ~is_null[None, :] | (fixed[None, :] >= bid[rr][:, None])
        k = _pick(rng, valid.sum(axis=1))
        pick = np.argmax(np.cumsum(valid, axis=1) > k[:, None], axis=1)
        game_index = np.array([contracts.index(o.game) for o in opts])
        cidx[rr] = game_index[pick]
        for i, p in zip(rr.tolist(), pick.tolist()):
            chosen[i] = opts[p]
    ramsch = ~declared & (rules.all_pass != "throw_in")
    if rules.all_pass != "throw_in":
        cidx[ramsch] = contracts.index(rules.all_pass)

    # -- play ----------------------------------------------------------------------
    tables = [rules.tricks[c] for c in contracts]
    follow = np.array([t.follow for t in tables])
    class_mask = np.array([t.class_mask for t in tables], dtype=np.int64)
    strength = np.array([t.strength for t in tables])
    points = np.array([t.points for t in tables])
    is_null_game = np.array([rules.contracts[c].no_trick for c in contracts])

    playing = cidx >= 0
    leader = np.zeros(n, np.int64)
    to_move = np.zeros(n, np.int64)
    trick = np.zeros((n, 3), np.int64)
    trick_len = np.zeros(n, np.int64)
    trick_points = np.zeros((n, 3), np.int64)
    tricks_won = np.zeros((n, 3), np.int64)
    plays = np.full((n, 30), -1)
    last_trick = np.full((n, 3), -1)
    last_winner = np.full(n, -1)
    for step in range(30):
        pr = rows[playing]
        if not len(pr):
            break
        c = cidx[pr]
        seat = to_move[pr]
        hand = hands[pr, seat]
        tl = trick_len[pr]
        led_class = follow[c, trick[pr, 0]]
        follow_mask = hand & class_mask[c, led_class]
        legal = np.where((tl > 0) & (follow_mask != 0), follow_mask, hand)
        count = np.bitwise_count(legal.astype(np.uint64)).astype(np.int64)
        card = _nth_set_bit(legal, _pick(rng, count))
        hands[pr, seat] = hand & ~_BIT[card]
        trick[pr, tl] = card
        plays[pr, step] = card
        trick_len[pr] = tl + 1
        to_move[pr] = (seat + 1) % 3
        full = pr[tl == 2]
        if len(full):
            c = cidx[full]
            t = trick[full]
            s = strength[c, follow[c, t[:, 0]]]  # (m, 32)
            st = np.take_along_axis(s, t, axis=1)
            winner = (leader[full] + np.argmax(st, axis=1)) % 3
            pts = np.take_along_axis(points[c], t, axis=1).sum(axis=1)
            trick_points[full, winner] += pts
            tricks_won[full, winner] += 1
            last_trick[full], last_winner[full] = t, winner
            leader[full] = to_move[full] = winner
            trick_len[full] = 0
            null_lost = is_null_game[c] & (winner == declarer[full])
            playing[full[null_lost]] = False

    # -- score -----------------------------------------------------------------------
    results, kept = [], []
    pts_tables = {c: rules.tricks[c].points for c in contracts}
    for i in range(n):
        if cidx[i] < 0:
            results.append(passed_result(rules))
        else:
            contract = rules.contracts[contracts[cidx[i]]]
            tp = pts_tables[contract.name]
            skat_cards = [int(x) for x in np.nonzero(skat[i] & _BIT)[0]]
            skat_points = sum(tp[x] for x in skat_cards)
            if declarer[i] < 0:
                facts = RamschFacts(contract, tuple(int(x) for x in trick_points[i]), tuple(int(x) for x in tricks_won[i]),
                                    tuple(skat_cards), skat_points, int(last_winner[i]))
            else:
                d = int(declarer[i])
                dtricks = int(tricks_won[i, d])
                matadors = rules.tricks[contract.name].matadors(int(dealt[i, d] | bits[i, 9] | bits[i, 10]))
                facts = make_facts(
                    rules, contract, chosen[i], bid=int(bid[i]), declarer=d,
                    matadors=matadors, declarer_points=int(trick_points[i, d]) + skat_points, declarer_tricks=dtricks,
                    defender_tricks=int(tricks_won[i].sum()) - dtricks,
                    last_trick=tuple(int(x) for x in last_trick[i]), last_trick_winner=int(last_winner[i]),
                )
            results.append(rules.score(facts))
        if keep:
            kept.append(BatchDeal(
                hands=[sorted(int(x) for x in np.nonzero(dealt[i, s] & _BIT)[0]) for s in range(3)],
                skat=[int(perm[i, 9]), int(perm[i, 10])],
                calls=[int(x) for x in calls[i] if x != 0],
                route=None if not declared[i] else ("pickup" if pickup[i] else "hand"),
                discard=(int(discard[i, 0]), int(discard[i, 1])) if pickup[i] else None,
                declaration=chosen[i],
                plays=[int(x) for x in plays[i] if x >= 0],
            ))
    return (results, kept) if keep else results

