"""The OpenSpiel game (skatcore/env/openspiel.py): OpenSpiel's own random
simulation test under every shipped ruleset, the cards dealt as the chance
outcomes said, the returns as the engine scores the deal, and
``resample_from_infostate``: a layout the player cannot tell apart, in which
every card it saw is where it saw it and the others move."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import skatcore.env.openspiel  # noqa: F401  (registers python_skatcore)
from skatcore.engine.actions import Phase
from skatcore.env.worlds import seen_by, voids
from skatcore.model import SEATS
from skatcore.rules.ruleset import shipped_rulesets

RULESETS = sorted(shipped_rulesets())


def load(ruleset: str, **params) -> pyspiel.Game:
    return pyspiel.load_game("python_skatcore", {"ruleset": ruleset, **params})


def random_state(game, rng: random.Random, stop=lambda s: False):
    """A state reached by random chance outcomes and random legal decisions, up to ``stop`` or the end."""
    state = game.new_initial_state()
    while not state.is_terminal() and not (not state.is_chance_node() and stop(state)):
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("ruleset", RULESETS)
def test_openspiel_random_simulation(ruleset):
    game = load(ruleset)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    assert game.num_players() == len(game.shared.persons)  # two at a table of two


def test_parameters():
    game = load("texas", returns="seeger_fabian", calls=False)
    assert game.shared.rules.name == "texas" and game.shared.returns == "seeger_fabian"
    with pytest.raises(ValueError, match="returns='money'"):
        load("official", returns="money")


@pytest.mark.parametrize("ruleset", ["official", "strohmann", "ramsch"])
def test_cards_dealt_as_the_chance_outcomes_said(ruleset):
    game = load(ruleset)
    rng = random.Random(7)
    state = game.new_initial_state()
    drawn = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        drawn.append(rng.choice([a for a, _ in outcomes]))
        state.apply_action(drawn[-1])
    deck = game.shared.rules.deck
    deal = state.deal
    assert sorted(drawn) == sorted(deck.cards)
    at = 0
    for seat in range(3):  # the seats' hands in seat order, then the skat
        n = deck.hand if seat in deck.seats else 0
        assert deal.dealt[seat] == tuple(drawn[at:at + n])
        at += n
    assert deal.original_skat == tuple(drawn[at:at + deck.skat])


@pytest.mark.parametrize("ruleset", ["official", "pub", "skat-en-deux", "ramsch"])
@pytest.mark.parametrize("returns", ["sheet", "classic", "seeger_fabian"])
def test_returns_are_the_deals_entries(ruleset, returns):
    game = load(ruleset, returns=returns)
    persons = game.shared.persons
    for seed in range(6):
        state = random_state(game, random.Random(seed))
        r = state.deal.result()
        entry = {s: r.scores.get(SEATS[s], 0) for s in persons}
        if returns == "classic":
            total = sum(entry.values())
            entry = {s: len(persons) * v - total for s, v in entry.items()}
            assert sum(state.returns()) == 0
        elif returns == "seeger_fabian" and r.declarer is not None and r.won is not None:
            entry[r.declarer] += 50 if r.won else -50
            for s in persons:
                if s != r.declarer and not r.won:
                    entry[s] += 40
        assert state.returns() == [float(entry[s]) for s in persons]


def test_information_state_and_observation():
    game = load("official")
    state = random_state(game, random.Random(3), stop=lambda s: s.deal.phase is Phase.PLAY and len(s.deal.tricks) == 3)
    enc = game.shared.encoder
    strings = {p: state.information_state_string(p) for p in range(3)}
    assert len(set(strings.values())) == 3
    for p in range(3):
        t = state.observation_tensor(p)
        assert len(t) == enc.size == game.observation_tensor_size()
        assert np.array_equal(np.asarray(t, np.float32), enc.encode(state.deal, p, state._p.turns))
        assert state.information_state_tensor(p) == t
        assert f"{state.deal.hands[p]:x}" in strings[p]  # its own cards
        # another seat's cards are in no string of this seat
        for other in range(3):
            if other != p:
                assert f"hand:{state.deal.hands[other]:x}" not in strings[p]


def _hands(state):
    deal = state.deal
    return tuple(deal.hands), deal.skat


@settings(max_examples=40, deadline=None)
@given(ruleset=st.sampled_from(RULESETS),
       seed=st.integers(0, 10**6), depth=st.integers(0, 60))
def test_resample_keeps_what_the_player_knows(ruleset, seed, depth):
    game = load(ruleset)
    rng = random.Random(seed)
    moves = [0]

    def stop(state):
        moves[0] += 1
        return moves[0] > depth

    state = random_state(game, rng, stop)
    if state.is_terminal():
        return
    for player in range(game.num_players()):
        seat = game.shared.persons[player]
        key = state.information_state_string(player)
        seen = seen_by(state._p, seat)
        before = _hands(state)
        void = voids(state.deal)
        moved = False
        for _ in range(8):
            kept = game.shared.kept
            new = state.resample_from_infostate(player, rng.random)
            assert new.information_state_string(player) == key
            assert len(new.history()) == len(state.history())
            hands, skat = _hands(new)
            for s in range(3):
                assert hands[s] & seen == before[0][s] & seen  # every card seen is where it was
                assert not hands[s] & void[s]  # no card of a class the seat showed void in
            if player == state.current_player():
                assert new.legal_actions() == state.legal_actions() or not game.shared.rules.table.plain
            moved |= (hands, skat) != before
            assert game.shared.kept == kept
        unseen = sum(bin(h & ~seen).count("1") for h in before[0]) + bin(before[1] & ~seen).count("1")
        places = sum(1 for s in range(3) if before[0][s] & ~seen) + bool(before[1] & ~seen)
        if places >= 2 and unseen >= 6 and not any(void):
            assert moved  # eight layouts, every one as dealt: the unseen cards did not move
