"""The expert keeps a card decision's layouts for its next decision in the
deal (issue 21): only layouts that fit what the seat knows then are used
again, and a decision over kept layouts is the decision over the same
layouts sampled afresh."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import skatcore.bots.expert as expert_module
from skatcore.bots import HeuristicPlayer
from skatcore.bots.expert import ExpertPlayer
from skatcore.bots.expert.reuse import DealMemory, Kept
from skatcore.bots.expert.worlds import Knowledge, consistent, sample
from skatcore.bots.solver import Position, Solver
from skatcore.cards import cards_in
from skatcore.engine.deal import Deal, Phase, deal_cards
from skatcore.rules import get_rules

RULES = get_rules("official")


def _fits(view, deal, dealt: tuple[int, int, int], skat: int) -> bool:
    """From first principles: every card a seat played is in its hand as
    dealt; what is left has no card of a class the seat did not follow;
    the mover's cards are his; the hands and the skat hold every card once."""
    table = deal.table
    played = [0, 0, 0]
    void = [0, 0, 0]
    tricks = [(leader, cards) for leader, cards, _ in view.tricks]
    tricks.append(((view.seat - len(view.trick)) % 3, view.trick))
    for leader, cards in tricks:
        for i, c in enumerate(cards):
            s = (leader + i) % 3
            played[s] |= 1 << c
            if table.follow[c] != table.follow[cards[0]]:
                void[s] |= table.class_mask[table.follow[cards[0]]]
    if dealt[0] & dealt[1] or dealt[0] & dealt[2] or dealt[1] & dealt[2] or (dealt[0] | dealt[1] | dealt[2]) & skat:
        return False
    if (dealt[0] | dealt[1] | dealt[2] | skat) != RULES.deck.mask:
        return False
    if view.seat == view.declarer and view.discard and skat != sum(1 << c for c in view.discard):
        return False
    for s in range(3):
        now = dealt[s] & ~played[s]
        if played[s] & ~dealt[s] or now & void[s] or now.bit_count() != deal.hands[s].bit_count():
            return False
    return dealt[view.seat] & ~played[view.seat] == view.hand


def _decisions(seed: int, seat: int):
    """(deal, view) at each of ``seat``'s card decisions in a heuristic deal."""
    rng = random.Random(seed)
    deal = Deal(RULES, *deal_cards(rng))
    players = [HeuristicPlayer(RULES, seed=s) for s in range(3)]
    while not deal.done:
        view = deal.view(deal.to_move)
        if deal.phase is Phase.PLAY and deal.to_move == seat:
            yield deal, view
        deal.apply(players[deal.to_move].act(view))


def _check_fits(seed: int, seat: int) -> tuple[int, int]:
    """Layouts sampled at one decision fit a later one exactly when they fit
    what the seat has seen since; the true deal and layouts sampled then
    always fit.  How many earlier layouts fitted, how many did not."""
    rng = random.Random(seed)
    earlier: list[tuple[tuple[int, int, int], int]] = []
    kept = rejected = 0
    for deal, view in _decisions(seed, seat):
        kn = Knowledge.of(view, deal.table, RULES.deck)
        truth = (deal.hands[0] | kn.played[0], deal.hands[1] | kn.played[1], deal.hands[2] | kn.played[2])
        truth_skat = deal.skat
        assert consistent(kn, truth, truth_skat)
        for dealt, skat in earlier:
            got = consistent(kn, dealt, skat)
            assert got == _fits(view, deal, dealt, skat)
            kept += got
            rejected += not got
        for _ in range(4):
            hands, skat = sample(kn, rng)
            dealt = (hands[0] | kn.played[0], hands[1] | kn.played[1], hands[2] | kn.played[2])
            assert consistent(kn, dealt, skat)
            earlier.append((dealt, skat))
    return kept, rejected


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 2))
def test_kept_layouts_are_those_that_fit_the_knowledge_now(seed, seat):
    _check_fits(seed, seat)


def test_some_kept_layouts_fit_and_some_do_not():
    kept, rejected = map(sum, zip(*(_check_fits(seed, seed % 3) for seed in range(4)), strict=True))
    assert kept > 20 and rejected > 20


def test_a_new_deal_forgets_the_layouts():
    """The memory keeps layouts within one deal, for the same seat, from an
    earlier trick only."""
    seen = []
    for seed in range(3):
        memory = DealMemory()
        for deal, view in _decisions(seed, 1):
            kn = Knowledge.of(view, deal.table, RULES.deck)
            got = memory.start(view, kn, "card_points")
            assert all(consistent(kn, k.dealt, k.skat) for k in got)
            if view.tricks:
                seen.append(len(got))
            layouts = []
            for _ in range(6):
                hands, skat = sample(kn, random.Random(len(view.tricks)))
                dealt = (hands[0] | kn.played[0], hands[1] | kn.played[1], hands[2] | kn.played[2])
                layouts.append(Kept(dealt, skat, memory.solver(deal.table, 0, "points", False, 0)))
            memory.keep(layouts)
            # asked again at the same decision (no trick since): nothing is reused
            assert memory.start(view, kn, "card_points") == []
            memory.keep(layouts)
        assert any(seen)
    # another deal: everything forgotten
    deal, view = next(_decisions(99, 1))
    kn = Knowledge.of(view, deal.table, RULES.deck)
    assert memory.start(view, kn, "card_points") == [] and not memory.priors and not memory.evidence


def test_without_keep_no_layout_comes_back_and_the_weights_stay():
    """``keep`` off (the expert's default): a later decision in the same deal
    gets no layouts, its solvers serve as spares, and the deal's weights are kept."""
    memory = DealMemory()
    decisions = _decisions(1, 1)
    deal, view = next(decisions)
    kn = Knowledge.of(view, deal.table, RULES.deck)
    assert memory.start(view, kn, "card_points", keep=False) == []
    # the true layout: it fits every later decision, and still does not come back
    dealt, skat = tuple(h | p for h, p in zip(deal.hands, kn.played, strict=True)), deal.skat
    *_, (deal2, view2) = decisions
    solver = memory.solver(deal.table, 0, "points", False, 0)
    memory.keep([Kept(dealt, skat, solver)])
    memory.priors[dealt] = 0.5
    kn2 = Knowledge.of(view2, deal2.table, RULES.deck)
    assert consistent(kn2, dealt, skat)
    assert memory.start(view2, kn2, "card_points", keep=False) == [] and memory.layouts == []
    assert memory.priors == {dealt: 0.5}
    assert memory.solver(deal.table, 0, "points", False, 0) is solver


def test_the_solver_counts_the_points_and_tricks_left():
    """``Solver.live`` (by bit counts, asked at every search of a layout): the
    card points of the hands and the trick, or the tricks left, counted card by card."""
    rng = random.Random(5)
    for _ in range(50):
        hands, _skat = deal_cards(rng)
        masks = [sum(1 << c for c in h) for h in hands]
        for game in ("grand", "clubs", "null"):
            table = RULES.tricks[game]
            trick = tuple(cards_in(masks[0] & 7))[:2]
            pos = Position((masks[0] & ~7, masks[1], masks[2]), 0, trick)
            cards = [c for m in pos.hands for c in cards_in(m)] + list(trick)
            assert Solver(table, 0, "points").live(pos) == sum(table.points[c] for c in cards)
            assert Solver(table, 0, "tricks").live(pos) == len(cards) // 3


class Replay(ExpertPlayer):
    """An expert without kept layouts (each decision samples afresh)."""

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self._memory.start = lambda view, kn, goal, keep=True: []  # type: ignore[method-assign]


def test_kept_layouts_decide_as_the_same_layouts_sampled_afresh(monkeypatch):
    """A decision over layouts kept from the last one (their solvers'
    transposition tables warm) gives the votes and the card that an expert
    without any memory gives over the same layouts (exact searches)."""
    compared = reused = 0
    for seed in range(8):
        a = ExpertPlayer(RULES, seed=seed, worlds=6, nodes=0, keep=1)
        for deal, view in _decisions(seed, 0):
            if view.hand.bit_count() > 5 or len(view.legal) < 2 or deal.declaration.game == "null":
                continue
            before = a.counters["reused_worlds"]
            card = a.act(view)
            if a.last.worlds == 0:
                continue
            reused += a.counters["reused_worlds"] - before
            kn = Knowledge.of(view, deal.table, RULES.deck)
            used = a._memory.layouts[:a.last.worlds]
            queue = [(k.hands(kn), k.skat) for k in used]
            monkeypatch.setattr(expert_module, "sample", lambda kn, rng, q=queue: q.pop(0))
            b = Replay(RULES, seed=seed, worlds=6, nodes=0)
            assert b.act(view) == card
            assert b.last.scores == a.last.scores and b.last.tied == a.last.tied and not queue
            monkeypatch.undo()
            compared += 1
    assert compared > 15 and reused > 5


def test_keep_0_samples_every_decision_afresh():
    """``keep=0`` (the default): no layout is used twice; with ``keep=1`` some are."""
    reused = {}
    for keep in (None, 1):
        p = ExpertPlayer(RULES, seed=2, worlds=4) if keep is None else ExpertPlayer(RULES, seed=2, worlds=4, keep=1)
        for _deal, view in _decisions(2, 0):
            p.act(view)
        reused[keep] = p.counters["reused_worlds"]
    assert reused[None] == 0 < reused[1]
