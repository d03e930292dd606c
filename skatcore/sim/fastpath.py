"""A table of three heuristic players under a ruleset the compiled engine
plays runs through the compiled heuristic
(:func:`skatcore.bots.heuristic.compiled.play_heuristic`): the same deals,
decisions and scores as the Python players, ~10x faster.  Everything else
(other players, flow steps, session rules such as Bock rounds) plays deal by
deal through ``Deal``, and so does a chunk of fewer than :data:`MIN_DEALS`
deals: the first compile (~15 s CPU, once per machine) would cost a small
run more than it saves."""

from __future__ import annotations

from collections.abc import Sequence

from skatcore.bots import HeuristicPlayer, resolve_player
from skatcore.engine.deal import _PACKETS
from skatcore.sim.play import seeded_deal
from skatcore.sim.sheet import Sheet


MIN_DEALS = 200


def compiled_outcomes(rules: Sequence, slots: Sequence[str], seed: int, start: int, stop: int) -> dict:
    """``{k: Outcomes}`` of deals ``start..stop-1`` for each ruleset ``rules[k]``
    the compiled heuristic plays; the others are left to the Python path."""
    if stop - start < MIN_DEALS or any(resolve_player(s) is not HeuristicPlayer for s in slots):
        return {}
    from skatcore.bots.heuristic.compiled import heuristic_tables, play_heuristic
    from skatcore.engine.compiled import Unsupported

    out, dealt = {}, None
    for k, r in enumerate(rules):
        if Sheet.needed(r):
            continue
        try:
            heuristic_tables(r)
        except Unsupported:
            continue
        dealt = dealt or seeded_deals(seed, start, stop - start)  # once for all rulesets
        out[k] = play_heuristic(r, dealt, seed, start)
    return out


def seeded_deals(seed: int, start: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Deals ``start .. start+n-1`` of run ``seed`` as ``skat simulate`` deals
    them (:func:`skatcore.sim.play.seeded_deal`): ``(deck, hands, skat)``, the
    deck in dealing order (n x 32), the hands (n x 3) and the skat (n) as masks."""
    import numpy as np

    deck = np.zeros((n, 32), np.int8)
    hands = np.zeros((n, 3), np.int64)
    skat = np.zeros(n, np.int64)
    for i in range(n):
        dealt, cards = seeded_deal(seed, start + i), deck[i]
        for s, h in enumerate(dealt[0]):
            cards[_PACKET_INDEX[s]] = h
            hands[i, s] = sum(1 << c for c in h)
        cards[9:11] = dealt[1]
        skat[i] = (1 << dealt[1][0]) | (1 << dealt[1][1])
    return deck, hands, skat


_PACKET_INDEX = [list(p) for p in _PACKETS]
