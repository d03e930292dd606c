"""The PettingZoo environment (skatcore/env/skat_v0.py): PettingZoo's own
API and seed tests under every shipped ruleset, the deals of ``skat
simulate`` for a seed, and random legal play through the environment scoring
what the same actions score through ``Deal`` directly."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from skatcore.bots import resolve_player
from skatcore.cards import name
from skatcore.engine.actions import PASS, Call, Discard, Phase
from skatcore.engine.deal import Deal
from skatcore.engine.table import people
from skatcore.env import skat_v0
from skatcore.model import SEATS
from skatcore.rules.compiler import get_rules
from skatcore.rules.ruleset import shipped_rulesets
from skatcore.sim.play import play_seeded
from skatcore.sim.simulate import seat_points

RULESETS = sorted(shipped_rulesets())


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo_api_and_seed_tests(ruleset):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the dict observation with its action mask: PettingZoo's classic games warn alike
        api_test(skat_v0.env(ruleset=ruleset), num_cycles=200, verbose_progress=False)
        seed_test(lambda: skat_v0.env(ruleset=ruleset), num_cycles=200)


@pytest.mark.parametrize("ruleset", ["official", "strohmann", "offiziersskat", "piloten-skat"])
def test_seeded_resets_deal_what_skat_simulate_deals(ruleset):
    rules = get_rules(ruleset)
    e = skat_v0.env(ruleset=ruleset)
    rand = resolve_player("random")
    for i, seed in enumerate([5, None, None]):
        e.reset(seed=seed)
        simulated, _ = play_seeded(rules, [rand] * 3, 5, i)  # skat simulate's deal i of seed 5
        assert e.unwrapped.deal.dealt == simulated.dealt and e.unwrapped.deal.original_skat == simulated.original_skat
    e.reset(options={"deal": 7})
    assert e.unwrapped.deal.dealt == play_seeded(rules, [rand] * 3, 5, 7)[0].dealt


def _direct(rules, dealt, moves):
    """The env's moves (agent's seat, action text) applied to a Deal directly:
    a discard's cards gathered, a pass in play (no call made) skipped, the
    seats nobody plays moved to their one card."""
    deal = Deal(rules, *dealt)
    cards: list = []
    k = rules.deck.skat
    for seat, text, action in moves:
        while deal.phase is Phase.PLAY and not deal.done and deal.controller(deal.to_move) is None:
            deal.apply(deal.legal_actions()[0])
        if text.startswith("put away "):
            cards.append(next(c for c in deal.hand_of(deal.to_move) if text == f"put away {name(c)}"))
            if len(cards) == k:
                deal.apply(Discard(tuple(sorted(cards))))
                cards = []
        elif text.startswith("call "):
            deal.apply(Call(seat, text[len("call "):]))
        elif text == "pass" and deal.phase is Phase.PLAY:
            continue  # no answer to a call
        else:
            deal.apply(action)
    while not deal.done and deal.phase is Phase.PLAY and deal.controller(deal.to_move) is None:
        deal.apply(deal.legal_actions()[0])
    return deal


@settings(max_examples=40, deadline=None)
@given(ruleset=st.sampled_from(RULESETS), seed=st.integers(0, 2**40), pick=st.integers(0, 2**32))
def test_random_play_scores_what_the_same_actions_score_through_deal(ruleset, seed, pick):
    rules = get_rules(ruleset)
    rng = random.Random(pick)
    envs = {r: skat_v0.env(ruleset=ruleset, reward=r) for r in skat_v0.REWARDS}
    for e in envs.values():
        e.reset(seed=seed)
    moves = []
    e = envs["sheet"]
    cat = e.unwrapped.catalogue
    while e.agents and not all(e.terminations.values()):
        agent = e.agent_selection
        obs, *_ = e.last()
        legal = list(np.flatnonzero(obs["action_mask"]))
        assert legal == sorted(e.unwrapped.legal_actions())
        a = int(rng.choice(legal))
        moves.append((int(agent.split("_")[1]), cat.describe(a), cat.action(a, int(agent.split("_")[1]))))
        for other in envs.values():
            other.step(a)
    deal = _direct(rules, e.unwrapped.dealt(seed, 0), moves)
    assert deal.done
    result = deal.result()
    persons = people(rules)
    sheet, sf = seat_points(result, persons)
    total = sum(sheet[s] for s in persons)
    expected = {"sheet": {s: sheet[s] for s in persons},
                "classic": {s: len(persons) * sheet[s] - total for s in persons},
                "seeger_fabian": {s: sf[s] for s in persons}}
    for kind, other in envs.items():
        got = {int(a.split("_")[1]): r for a, r in other._cumulative_rewards.items()}
        assert got == expected[kind], kind
    assert sum(expected["classic"].values()) == 0
    assert result.scores == e.unwrapped.deal.result().scores


def test_dict_observation_holds_the_flat_one_by_blocks():
    flat, blocks = skat_v0.env(ruleset="pub"), skat_v0.env(ruleset="pub", observation="dict")
    for e in (flat, blocks):
        e.reset(seed=11)
    for _ in range(30):
        a, b = flat.observe(flat.agent_selection), blocks.observe(blocks.agent_selection)
        assert np.array_equal(a["action_mask"], b["action_mask"])
        enc = flat.unwrapped.encoder
        for key, where in enc.offsets.items():
            assert np.array_equal(a["observation"][where].ravel(), b["observation"][key].ravel())
        assert blocks.observation_space(blocks.agent_selection).contains(b)
        move = int(np.flatnonzero(a["action_mask"])[0])
        flat.step(move)
        blocks.step(move)


def test_an_illegal_action_raises_or_ends_the_deal_as_asked():
    e = skat_v0.env(ruleset="official")
    e.reset(seed=1)
    illegal = e.unwrapped.catalogue.play_base  # a card, while the bidding runs
    with pytest.raises(ValueError, match="not possible now"):
        e.step(illegal)
    e = skat_v0.env(ruleset="official", illegal_reward=-1)
    e.reset(seed=1)
    mover = e.agent_selection
    e.step(illegal)
    assert all(e.terminations.values()) and e._cumulative_rewards[mover] == -1
    assert all(v == 0 for a, v in e._cumulative_rewards.items() if a != mover)


def test_a_step_needs_no_legal_actions_first_and_takes_numpy_integers():
    """The short path of step() works out what is legal itself: a pass without
    asking, as a numpy integer, moves the bidding on just as Deal does."""
    e = skat_v0.env(ruleset="official")
    e.reset(seed=3)
    raw = e.unwrapped
    deal = Deal(raw.rules, *raw.dealt(3, 0))
    for _ in range(2):  # middlehand passes, then rearhand
        e.step(np.int64(raw.catalogue.pass_index))
        deal.apply(PASS)
        assert e.agent_selection == f"player_{deal.to_move}"
    assert [a for _, a in raw.deal.history] == [a for _, a in deal.history]


def test_render_shows_the_hands_and_who_decides():
    e = skat_v0.env(ruleset="strohmann", render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    deal = e.unwrapped.deal
    assert f"to decide: {SEATS[int(e.agent_selection.split('_')[1])]}" in text
    for s in deal.rules.deck.seats:
        assert f"{SEATS[s]:<10} {' '.join(name(c) for c in deal.hand_of(s))}" in text
    assert " ".join(name(c) for c in deal.piles[1]) in text  # the straw man's face-down pile


@pytest.mark.parametrize("ruleset", RULESETS)
def test_passing_whenever_possible_reaches_the_all_pass_flows(ruleset):
    """Everybody passes when they may (a Ramsch, the pushes, the dummy's swap,
    a thrown-in deal), otherwise the lowest action: the deal ends, and its
    history replayed through Deal scores the rewards."""
    rules = get_rules(ruleset)
    e = skat_v0.env(ruleset=ruleset)
    for seed in range(3):
        e.reset(seed=seed)
        cat = e.unwrapped.catalogue
        said = set()
        for _agent in e.agent_iter():
            _, _, terminated, truncated, _ = e.last(observe=False)
            if terminated or truncated:
                e.step(None)
                continue
            legal = list(e.unwrapped.legal_actions())
            a = cat.pass_index if cat.pass_index in legal else min(legal)
            said.add(cat.describe(a).split()[0])
            e.step(a)
        deal = e.unwrapped.deal
        replay = Deal(rules, *e.unwrapped.dealt(seed, 0))
        for _seat, action in deal.history:
            replay.apply(action)
        assert replay.done and replay.result().scores == deal.result().scores
        if rules.steps_at["all_passed"] and "pass" in said:
            assert deal.step is None and (deal.state or deal.contract is not None)  # a step ran, the deal was played
