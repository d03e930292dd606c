"""The expert's bidding judged in full, for calibration (``tools/calibrate_expert.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from skatcore.bots.expert.bidding import Outlook

if TYPE_CHECKING:
    from skatcore.bots.expert import ExpertPlayer


def bid_outlooks(player: ExpertPlayer, hand: int, seat: int, bid: int | None = None) -> list[Outlook]:
    """Every plain contract as the bidding of the expert ``player`` judges ``hand`` (for
    calibration, ``tools/calibrate_expert.py``): the pickup contracts
    worth solving by their chance over all the layouts ``_expert_limit``
    samples (``_bid_layouts``; it stops early), a layout whose skat leaves
    the contract worth less than ``bid`` (by default its value) lost; the
    others by the heuristic's estimate."""
    layouts = player._bid_layouts(hand)
    pickup, hand_games = player._evaluate(hand)
    solve = player._worth_solving(pickup, hand)
    out = []
    for route, cands in (("pickup", pickup), ("hand", hand_games)):
        for p, v, cand in cands:
            if cand.d.ouvert and not cand.null:
                continue
            source, raw = "heuristic", p
            if any(x[2] is cand for x in solve):
                kept = player._kept(cand, hand, layouts)
                if kept is not None:
                    short = player._overbid(cand, hand, layouts, v if bid is None else bid)
                    wins = sum(player._dd_won(cand, g, amount, mine, opp, seat)
                               for (g, amount, mine, opp), lost in zip(kept, short, strict=True) if not lost)
                    tens = tuple(k[2] for k in kept)
                    p, raw = player._chance(cand, p, wins, len(kept), tens, "bid"), player._chance(cand, p, wins, len(kept), tens, raw=True)
                    source = "solver"
            out.append(Outlook("bid", cand.d.game, cand.g.family, route == "hand", bool(cand.d.ouvert), v, p,
                               raw, source))
    return out
