"""The expert's card play (issue 21, items 4 and 6): ties broken by each
card's exact double-dummy card points over the layouts, cards that can no
longer catch up searched no more, how each decision was made."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from skatcore.bots import HeuristicPlayer
from skatcore.bots.expert import ExpertPlayer
from skatcore.bots.expert.votes import Decision, Layout, most_points, reaches, schneider_votes
from skatcore.bots.expert.worlds import Knowledge, sample
from skatcore.bots.solver import Position, Solver
from skatcore.cards import mask_of, parse_card
from skatcore.engine.deal import Deal, Phase, deal_cards
from skatcore.rules import get_rules

RULES = get_rules("official")


def _late_positions(seed: int, cards_left: int):
    """(deal, view, layouts) at each card decision of a heuristic deal with at
    most ``cards_left`` cards in the mover's hand: three sampled layouts each."""
    rng = random.Random(seed)
    deal = Deal(RULES, *deal_cards(rng))
    players = [HeuristicPlayer(RULES, seed=s) for s in range(3)]
    while not deal.done:
        view = deal.view(deal.to_move)
        if deal.phase is Phase.PLAY and deal.declaration.game != "null" and len(view.legal) > 1 \
                and view.hand.bit_count() <= cards_left:
            kn = Knowledge.of(view, deal.table, RULES.deck)
            pos = []
            for _ in range(3):
                hands, _skat = sample(kn, rng)
                gone = kn.played
                pos.append(Position(tuple(hands[s] & ~gone[s] for s in range(3)), kn.leader, kn.trick))
            yield deal, view, pos
        deal.apply(players[deal.to_move].act(view))


def test_reaches_for_some_cards_answers_as_the_solver_for_all():
    """Searching a few cards one by one gives each the answer the solver's
    root search gives it, for points and for tricks (a null's declarer)."""
    checked = 0
    for seed in range(4):
        for deal, view, layouts in _late_positions(seed, 6):
            table, declarer = deal.table, view.declarer
            for pos in layouts:
                for goal, invert in (("points", False), ("tricks", True)):
                    solver = Solver(table, declarer, goal, invert=invert)
                    need = 30 if goal == "points" else 1
                    every = solver.card_values(pos, need)
                    some = sorted(every)[::2]
                    assert reaches(Solver(table, declarer, goal, invert=invert), pos, need, some) \
                        == {c: every[c] for c in some}
                    assert reaches(solver, pos, need, None) == every
                    checked += 1
    assert checked > 40


def test_ties_go_to_the_most_exact_card_points_over_the_layouts():
    """The tie-break adds up each card's exact double-dummy take over the
    layouts (weighted): the cards it keeps are those with the largest sum
    computed from scratch, from the mover's side; it stops early only where
    the layouts left cannot change them."""
    checked = stopped = 0
    for seed in range(6):
        for deal, view, positions in _late_positions(seed, 5):
            table, declarer = deal.table, view.declarer
            layouts = [Layout(pos, w, Solver(table, declarer, "points")) for pos, w in zip(positions, (1.0, 0.5, 0.25), strict=True)]
            tied = [a.card for a in view.legal]
            maximise = view.seat == declarer
            total: defaultdict[int, float] = defaultdict(float)
            for lay in layouts:
                exact = Solver(table, declarer, "points").card_values(lay.pos)  # declarer's points from here
                for c in tied:
                    total[c] += lay.weight * (exact[c] if maximise else -exact[c])
            best = max(total.values())
            live = sum(h for h in positions[0].hands) | sum(1 << c for c in positions[0].trick)
            assert sorted(most_points(table, layouts, tied, maximise, live, 0, 6)) == \
                sorted(c for c in tied if total[c] >= best - 1e-9)
            checked += 1
            stopped += layouts[-1].solver.nodes == 0  # the last layout never searched
    assert checked > 20 and stopped > 0


def test_a_layout_dearer_than_one_search_breaks_no_tie():
    """A layout whose exact searches together cost more than one search's
    node limit counts for none of the cards (as one that ran out): with a
    limit of one node no layout counts and every tied card stays level,
    where the exact take over the layouts would have chosen."""
    narrowed = 0
    for seed in range(3):
        for deal, view, positions in _late_positions(seed, 5):
            table, declarer = deal.table, view.declarer
            tied = [a.card for a in view.legal]
            live = sum(h for h in positions[0].hands) | sum(1 << c for c in positions[0].trick)
            fresh, again = ([Layout(pos, 1.0, Solver(table, declarer, "points")) for pos in positions] for _ in range(2))
            exact = most_points(table, fresh, tied, view.seat == declarer, live, 0, 6)
            assert most_points(table, again, tied, view.seat == declarer, live, 1, 6) == tied
            narrowed += len(exact) < len(tied)
    assert narrowed > 5


class Conventions(ExpertPlayer):
    """The conventions on the level cards (the declarer's after the expected card points), a lead by its rules alone."""

    CONVENTIONS = 1
    LEAD_POINTS = 0


@pytest.mark.parametrize("player", [ExpertPlayer, Conventions])
def test_each_decision_says_how_it_was_made(player):
    """The expert's ``last``: the step that chose, the votes, the cards they
    left level (the chosen card among them), the layouts solved; the
    solver's nodes are counted (those of the expected card points, which the
    tie-break before the conventions always counts, among them)."""
    rng = random.Random(3)
    deal = Deal(RULES, *deal_cards(rng))
    players = [player(RULES, seed=s, worlds=4, bid_worlds=2) for s in range(3)]
    seen = set()
    while not deal.done:
        view = deal.view(deal.to_move)
        p = players[deal.to_move]
        action = p.act(view)
        if deal.phase is Phase.PLAY and len(view.legal) > 1:
            last = p.last
            assert isinstance(last, Decision)
            seen.add(last.how)
            if last.scores:
                assert action.card in last.tied and set(last.tied) <= set(last.scores)
                assert 1 <= last.worlds <= 4 and last.mass > 0
                assert set(last.scores) <= {a.card for a in view.legal}
            else:
                assert last.how in ("equivalent", "fallback")
        deal.apply(action)
    assert seen <= {"vote", "lead_rule", "points", "lead_key", "discard", "second_low", "heuristic", "smear", "cheapest", "equivalent",
                    "fallback", "convention"}
    assert len(seen) >= 2 and ("convention" in seen) == (player is Conventions)
    counters = sum((p.counters for p in players), start=type(players[0].counters)())
    assert counters["solver_nodes"] > 0
    assert counters["solver_nodes"] >= counters["point_nodes"] and (counters["point_nodes"] > 0 or player is Conventions)


class Unweighted(ExpertPlayer):
    """Every layout weighs 1 (no bids or cards to weigh them by)."""

    def _weights(self, view, kn, table):
        return None


class EveryCard(Unweighted):
    """... searching every legal card in every layout."""

    @staticmethod
    def _reaches(solver, pos, need, cards):
        return ExpertPlayer._reaches(solver, pos, need, None)


def test_cards_that_cannot_catch_up_are_searched_no_more():
    """Dropping the cards that trail the best by more than the layouts left
    changes nothing: the same card, the same cards level, the same votes
    for them as searching every card in every layout (exact searches)."""
    dropped = checked = 0
    for seed in range(5):
        for _deal, view, _ in _late_positions(seed, 7):
            a = Unweighted(RULES, seed=seed, worlds=12, nodes=0)
            b = EveryCard(RULES, seed=seed, worlds=12, nodes=0)
            assert a.act(view) == b.act(view)
            assert a.last.tied == b.last.tied and a.last.worlds == b.last.worlds
            assert all(a.last.scores[c] == b.last.scores[c] for c in a.last.tied)
            dropped += a.last.scores != b.last.scores
            checked += 1
    assert checked > 30 and dropped > 0


def _cards(text: str) -> int:
    return mask_of(parse_card(t) for t in text.split())


def test_a_game_won_or_lost_in_every_layout_is_played_on_for_schneider():
    """Two tricks of a grand left, the declarer to lead CA or C7 (CT and CK
    out on his left and right): CA takes 25, C7 gives 14 away and takes
    nothing.  With 70 points home both win the game, and only CA makes
    schneider (90); with 10 both lose it, and only CA gets out of schneider
    (31).  The votes of cards that do not all win (or lose) stay as they are."""
    table = RULES.tricks["grand"]
    player = ExpertPlayer(RULES, seed=1)
    ca, c7 = parse_card("CA"), parse_card("C7")
    pos = Position((_cards("CA C7"), _cards("CT H7"), _cards("CK D7")), 0, ())
    layouts = [Layout(pos, 1.0, player._solver(table, 0, "card_points"))]
    for have in (70, 10):  # won (90 to go for), lost (31 to stay out of schneider)
        level = defaultdict(float, {ca: 1.0 if have > 60 else 0.0, c7: 1.0 if have > 60 else 0.0})
        assert schneider_votes(level, 1.0, layouts, [have], True, RULES.thresholds, player._reaches) == {ca: 1.0, c7: 0.0}
        # a defender's side of the same layouts (his votes are the declarer's failures): schneider counts against
        theirs = defaultdict(float, {c: 1.0 - v for c, v in level.items()})
        assert schneider_votes(theirs, 1.0, layouts, [have], False, RULES.thresholds, player._reaches) == {ca: 0.0, c7: 1.0}
    # schneider already made (95 home) or beyond reach (none home, 25 at most to take): the two cards stay level
    won, lost = defaultdict(float, {ca: 1.0, c7: 1.0}), defaultdict(float, {ca: 0.0, c7: 0.0})
    assert schneider_votes(won, 1.0, layouts, [95], True, RULES.thresholds, player._reaches) == {ca: 1.0, c7: 1.0}
    assert schneider_votes(lost, 1.0, layouts, [0], True, RULES.thresholds, player._reaches) == {ca: 0.0, c7: 0.0}
    apart = defaultdict(float, {ca: 1.0, c7: 0.5})
    assert schneider_votes(apart, 1.0, layouts, [70], True, RULES.thresholds, player._reaches) is apart


class HeuristicFirst(ExpertPlayer):
    """The heuristic's card before the expected card points (no conventions); remembers that card."""

    HEURISTIC_FIRST = 1
    CONVENTIONS = 0

    def _play(self, view):
        self.heuristic_card = super()._play(view)
        return self.heuristic_card


def test_heuristic_first_plays_the_heuristics_card_where_the_votes_leave_it_level():
    """With ``HEURISTIC_FIRST`` (a variant tools/iss_logo.py compares), wherever the
    votes leave the heuristic's card level (a defender's lead aside: his rules
    come first) it is played, by that step, before any points are counted."""
    checked = 0
    for seed in (3, 4):
        deal = Deal(RULES, *deal_cards(random.Random(seed)))
        players = [HeuristicFirst(RULES, seed=s, worlds=4, bid_worlds=2) for s in range(3)]
        while not deal.done:
            view = deal.view(deal.to_move)
            p = players[deal.to_move]
            action = p.act(view)
            last = p.last
            lead = not view.trick and view.declarer is not None and view.seat != view.declarer
            if deal.phase is Phase.PLAY and len(view.legal) > 1 and last.scores and len(last.tied) > 1 and not lead \
                    and deal.declaration.game != "null" and p.heuristic_card in last.tied:
                assert (action.card, last.how) == (p.heuristic_card, "heuristic")
                checked += 1
            deal.apply(action)
    assert checked > 0
