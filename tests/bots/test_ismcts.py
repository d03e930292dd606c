"""The ismcts player (skatcore/bots/ismcts.py): OpenSpiel's IS-MCTS plays
whole deals under every shipped ruleset, each decision searched from a
layout its seat cannot tell from the real deal; its settings; and the one
line it stops with where OpenSpiel is not installed."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter

import pytest

from skatcore.bots import resolve_player
from skatcore.bots.ismcts import ISMCTSPlayer
from skatcore.engine.actions import PASS, Call, Discard
from skatcore.engine.deal import Deal, deal_cards
from skatcore.engine.view import SeatView
from skatcore.env.worlds import view_key
from skatcore.errors import InputError
from skatcore.rules.compiler import get_rules
from skatcore.rules.ruleset import shipped_rulesets
from skatcore.sim.play import play_seeded

RULESETS = sorted(shipped_rulesets())


class Checked(ISMCTSPlayer):
    """The player, checking after every decision that the layout it searched
    from shows its seat exactly what the real deal shows."""

    def act(self, view):
        action = super().act(view)
        if self.play is not None:
            assert view_key(SeatView(self.play.turns.deal, view.seat, ())) == view_key(view)
            self.counters["checked"] += 1
        assert action in view.legal
        return action


def checked(**options):
    return lambda rules, seed: Checked(rules, seed, simulations=4, **options)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_plays_whole_deals(ruleset):
    rules = get_rules(ruleset)
    counters: Counter = Counter()
    for i in range(2):
        deal, players = play_seeded(rules, [checked(), resolve_player("heuristic"), resolve_player("random")], 38, i)
        assert deal.done and deal.result() is not None
        for p in players:
            if isinstance(p, Checked):
                counters.update(p.counters)
    assert counters["decisions"] >= 1
    assert counters["checked"] + counters["fallback_moves"] == counters["decisions"]
    assert counters["fallback_moves"] == 0  # a layout consistent with the view is always found


def test_follows_table_calls_made_out_of_turn():
    rules = get_rules("pub")
    calls = 0
    for i in range(12):
        deal, players = play_seeded(rules, [checked(), resolve_player("random"), resolve_player("random")], 5, i)
        calls += sum(type(a) is Call for _, a in deal.history)
        assert not any(p.counters["fallback_moves"] for p in players if isinstance(p, Checked))
    assert calls  # the random players called (Kontra, Re) and the player went on from the calls


def test_same_seed_same_choices():
    rules = get_rules("official")
    runs = [play_seeded(rules, [checked(), checked(), resolve_player("heuristic")], 7, 1)[0].history for _ in range(2)]
    assert runs[0] == runs[1]


def test_settings():
    f = resolve_player("ismcts:simulations=3:uct_c=1.5:returns=sheet")
    p = f(rules=get_rules("texas"), seed=1)
    assert p.bot._max_simulations == 3 and p.bot._uct_c == 1.5 and p.shared.returns == "sheet"
    d = resolve_player("ismcts")(rules=get_rules("official"), seed=1)
    assert d.bot._max_simulations == 1000 and d.bot._uct_c == 2.0 and d.shared.returns == "classic"
    with pytest.raises(InputError, match="unknown option 'sims'"):
        resolve_player("ismcts:sims=5")
    with pytest.raises(InputError, match="returns='money'"):
        resolve_player("ismcts:returns=money")(rules=get_rules("official"), seed=1)
    with pytest.raises(InputError, match="at least 1"):
        resolve_player("ismcts:simulations=0")(rules=get_rules("official"), seed=1)


def test_without_openspiel_one_line_and_exit_2():
    code = ("import sys; sys.modules['open_spiel'] = None; sys.modules['pyspiel'] = None\n"
            "from skatcore.cli import main; sys.exit(main())")
    r = subprocess.run([sys.executable, "-c", code, "duel", "expert", "ismcts", "--deals", "1", "--seed", "1"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "skat: error: player 'ismcts' needs OpenSpiel, which is not installed: pip install 'skatcore[openspiel]'"]


def test_a_layout_built_afresh_goes_through_a_hidden_swap_with_the_dummy():
    """Schmegegge, both passed twice: a seat swapped cards with the dummy
    face down (keeping one's cards is the other choice there), then played.
    A player seated now builds its layout from the start, drawing that swap
    among those that keep the cards the seat is seen to play."""
    rules = get_rules("schmegegge")
    rng = random.Random(5)
    built = 0
    for _ in range(40):
        deal = Deal(rules, *deal_cards(rng, rules.deck))
        swapped = None
        while not deal.done and not (swapped is not None and len(deal.tricks) >= 3):
            legal = deal.legal_actions()
            a = PASS if PASS in legal else legal[int(rng.random() * len(legal))]
            if type(a) is Discard and deal.step is not None:
                swapped = deal.to_move
            deal.apply(a)
        if deal.done or swapped is None or deal.to_move == swapped:
            continue
        seat = deal.to_move
        player = ISMCTSPlayer(rules, seed=1, simulations=2)
        assert player.act(deal.view(seat)) in deal.legal_actions()
        built += player.counters["decisions"] - player.counters["fallback_moves"]
    assert built


def test_at_the_swap_with_the_dummy_keeps_its_cards_or_swaps_two():
    """Schmegegge, both passed twice: a person may swap two cards with the
    dummy or keep its own. The search weighs both (the discard card by
    card), and either is what the player answers."""
    rules = get_rules("schmegegge")
    rng = random.Random(3)
    chosen: Counter = Counter()
    for k in range(60):
        deal = Deal(rules, *deal_cards(rng, rules.deck))
        while not deal.done and not (deal.step is not None and any(type(a) is Discard for a in deal.legal_actions())):
            legal = deal.legal_actions()
            deal.apply(PASS if PASS in legal else legal[int(rng.random() * len(legal))])
        if deal.done:
            continue
        action = ISMCTSPlayer(rules, seed=k, simulations=20).act(deal.view(deal.to_move))
        assert action in deal.legal_actions()
        chosen[type(action) is Discard] += 1
        if len(chosen) == 2:
            break
    assert chosen[True] and chosen[False]  # swapped two cards, and kept them


def test_offiziersskat_never_falls_back():
    """Offiziersskat: the layouts deal the stacks as the seat saw them (which
    card came up under which), so every decision finds one."""
    rules = get_rules("offiziersskat")
    counters: Counter = Counter()
    for i in range(3):
        _, players = play_seeded(rules, [checked(), resolve_player("random"), resolve_player("random")], 5, i)
        for p in players:
            if isinstance(p, Checked):
                counters.update(p.counters)
    assert counters["decisions"] >= 20
    assert counters["fallback_moves"] == 0


@pytest.mark.parametrize(("seed", "deal", "at"), [(7, 5, 0), (38, 11, 0), (5, 7, 2), (7, 4, 1), (7, 11, 0)])
def test_strohmann_layouts_never_fall_back(seed, deal, at):
    """Strohmann: a swap that makes a card played legal in a layout leaves the
    seat's own discard alone and may put a card among the three laid aside
    (a defender out of clubs while the clubs unseen lie aside). Each of these
    deals fell back before."""
    rules = get_rules("strohmann")
    players = [resolve_player("heuristic")] * 3
    players[at] = checked()
    _, seated = play_seeded(rules, players, seed, deal)
    counters = next(p.counters for p in seated if isinstance(p, Checked))
    assert counters["decisions"] >= 8
    assert counters["fallback_moves"] == 0


def test_offiziersskat_a_layout_built_afresh_in_the_middle_of_a_deal():
    """A player seated in the middle of an Offiziersskat deal lays the stacks
    out afresh from what its seat sees, cards turned up included."""
    rules = get_rules("offiziersskat")
    rng = random.Random(11)
    for k in range(8):
        deal = Deal(rules, *deal_cards(rng, rules.deck))
        for _ in range(rng.randrange(6, 28)):
            legal = deal.legal_actions()
            deal.apply(legal[int(rng.random() * len(legal))])
        player = ISMCTSPlayer(rules, seed=k, simulations=2)
        assert player.act(deal.view(deal.to_move)) in deal.legal_actions()
        assert player.counters["fallback_moves"] == 0 and player.counters["rebuilds"] == 0
