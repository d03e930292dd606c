"""The action catalogue and the observation encoder (skatcore/env/encoding.py,
observation.py) under every shipped ruleset: indices and actions map both
ways, every decision of random deals has an index, a discard chosen card by
card reaches exactly the legal discards, and no observation shows a card
its seat may not see."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcore.cards import cards_in
from skatcore.engine.actions import Discard, Phase, Play
from skatcore.engine.deal import Deal, deal_cards
from skatcore.env.encoding import ActionCatalogue, ObservationEncoder, Turns
from skatcore.rules.compiler import get_rules
from skatcore.rules.ruleset import shipped_rulesets

RULESETS = sorted(shipped_rulesets())
CARD_BLOCKS = ("hand", "others", "put_away", "choosing", "skat", "shown", "tricks", "trick")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_indices_and_actions_map_both_ways(ruleset):
    cat = ActionCatalogue(get_rules(ruleset))
    names = [cat.describe(i) for i in range(cat.size)]
    assert len(set(names)) == cat.size  # every index named once
    covered = sorted(i for r in cat.sections.values() for i in r)
    assert covered == list(range(cat.size))
    for i in range(cat.size):
        a = cat.action(i, seat=0)
        if i in cat.sections["put_away"]:
            assert a is None and cat.put_away(cat.card_put_away(i)) == i
        else:
            assert cat.index(a) == i
    assert len(cat.sections["play"]) == len(cat.rules.deck.cards)


def _legal_discards(deal) -> set[frozenset[int]]:
    return {frozenset(a.cards) for a in deal.legal_actions() if isinstance(a, Discard)}


def _reachable(turns: Turns) -> set[frozenset[int]]:
    """The discards choosing card by card reaches: every path of put-away indices."""
    cat, out = turns.catalogue, set()

    def walk(chosen):
        if len(chosen) == cat.skat_size:
            out.add(frozenset(chosen))
            return
        for i in cat.legal_indices(turns.deal, chosen):
            card = cat.card_put_away(i)
            if card is not None:
                walk((*chosen, card))
    walk(())
    return out


def _hidden_from(deal, seat: int, own_discards: set[int]) -> set[int]:
    """Cards ``seat`` may not know: the hands of the seats it may not see, and
    the skat unless it picked it up as declarer - but the cards it put away
    itself it knows wherever they went (a push picked up by the next player)."""
    hidden: set[int] = set()
    ouvert = deal.declaration is not None and deal.declaration.ouvert and deal.phase is Phase.PLAY
    for s in range(3):
        if s == seat or deal.sees(seat, s) or (ouvert and s == deal.declarer):
            continue
        hidden |= set(cards_in(deal.hands[s]))
        hidden |= set(deal.piles.get(s, ()))
    if not (deal.picked_up and seat == deal.declarer):
        hidden |= set(cards_in(deal.skat))
    hidden -= own_discards
    marks = deal.marks
    hidden -= {marks["turned"]} if "turned" in marks else set()
    hidden -= set(marks.get("dummy_shown", ()))
    return hidden


def _shown_cards(enc: ObservationEncoder, obs: dict) -> set[int]:
    out = set()
    for block in CARD_BLOCKS:
        x = obs[block]
        if block == "tricks":
            x = x[:, 3:]
        x = np.asarray(x).reshape(-1, len(enc.cards))
        out |= {enc.cards[k] for k in np.nonzero(x.any(axis=0))[0]}
    return out


@settings(max_examples=60, deadline=None)
@given(ruleset=st.sampled_from(RULESETS), seed=st.integers(0, 2**32))
def test_random_play_indexes_every_decision_and_hides_what_it_should(ruleset, seed):
    rules = get_rules(ruleset)
    cat, enc = ActionCatalogue(rules), ObservationEncoder(rules)
    cold = ObservationEncoder(rules, cat)  # encodes every observation from the start of the deal
    rng = random.Random(seed)
    hands, skat, *aside = deal_cards(rng, rules.deck)
    deal = Deal(rules, hands, skat, *aside)
    turns = Turns(cat, deal)
    persons = [s for s in rules.deck.seats if rules.table.seats[s].controller == "own"]
    while turns.actor is not None:
        legal = turns.legal()
        assert legal and len(set(legal)) == len(legal)
        if not turns.chosen and turns.answering is None:
            engine = [a for a in deal.legal_actions() if not isinstance(a, Discard)]
            assert {cat.index(a) for a in engine} <= set(legal)  # every engine action has its index
            if any(isinstance(a, Discard) for a in deal.legal_actions()):
                assert _reachable(turns) == _legal_discards(deal)
        assert cat.mask(deal, turns.chosen).sum() == len(cat.legal_indices(deal, turns.chosen))
        for p in persons:
            own = {c for who, a in deal.history if who == p and isinstance(a, Discard) for c in a.cards}
            obs = enc.dict(deal, p, turns)
            cold._memo.clear()
            assert np.array_equal(enc.encode(deal, p, turns), cold.encode(deal, p, turns))  # carried on = from scratch
            leaked = _shown_cards(enc, obs) & _hidden_from(deal, p, own)
            assert not leaked, (p, sorted(leaked))
            assert obs["acting"][0] == (p == turns.person)
            if rules.table.plain or deal.sees(p, p):  # its own cards, exactly
                assert {enc.cards[k] for k in np.flatnonzero(obs["hand"])} == set(cards_in(deal.hands[p]))
        turns.apply(rng.choice(legal))
    assert deal.done
    played = [a.card for _, a in deal.history if isinstance(a, Play)]
    assert len(played) == len(set(played))


def test_a_plugin_step_with_its_own_actions_plays_through_the_catalogue():
    """The swap step of tests/engine/test_steps.py (and docs/writing-plugins.md)
    lists its actions: random deals through Turns reach it and finish; a
    step that does not list them is named in the error."""
    from engine.test_steps import KEEP, SwapPlugin

    from skatcore.testing import compile_with

    rules = compile_with("official", plugins={"swap": SwapPlugin})
    cat = ActionCatalogue(rules)
    assert cat.describe(cat.index(KEEP)) == "keep" and len(cat.sections["step"]) == 1 + 2 * 32
    rng, swapped = random.Random(5), 0
    for _ in range(30):
        turns = Turns(cat, Deal(rules, *deal_cards(rng)))
        while turns.actor is not None:
            turns.apply(rng.choice(turns.legal()))
        swapped += "swapped" in turns.deal.marks
        assert turns.deal.done
    assert swapped
    step = rules.steps_at["first_card"][0]
    step.actions = lambda rules: []  # a step that offers actions it does not list
    try:
        with pytest.raises(ValueError, match=r"Step\.actions"):
            c = ActionCatalogue(rules)
            for _ in range(30):
                turns = Turns(c, Deal(rules, *deal_cards(rng)))
                while turns.actor is not None:
                    turns.apply(rng.choice(turns.legal()))
    finally:
        del step.actions
