"""The expert player: worlds consistent with what a seat has seen, legal
play on every shipped ruleset, counters in the simulation statistics."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from skatcore.bots import HeuristicPlayer, resolve_player
from skatcore.bots.expert import ExpertPlayer
from skatcore.bots.expert.votes import settled
from skatcore.bots.expert.worlds import Knowledge, all_equivalent, bidding_levels, sample
from skatcore.cards import CARD_NAMES, mask_of, parse_card
from skatcore.engine.deal import PASS, PICK_UP, Deal, Phase, deal_cards
from skatcore.rules import get_rules
from skatcore.rules.ruleset import shipped_rulesets
from skatcore.sim.simulate import run


def views_during_play(rules, seed: int):
    """Every view a player to move gets during a heuristic deal's play."""
    rng = random.Random(seed)
    deal = Deal(rules, *deal_cards(rng, rules.deck))
    players = [HeuristicPlayer(rules, seed=s) for s in range(3)]
    while not deal.done:
        view = deal.view(deal.to_move)
        if deal.phase is Phase.PLAY:
            yield deal, view
        deal.apply(players[deal.to_move].act(view))


@pytest.mark.parametrize("ruleset", ["official", "ramsch", "danish"])
def test_worlds_agree_with_what_the_seat_has_seen(ruleset):
    rules = get_rules(ruleset)
    rng = random.Random(7)
    checked = 0
    for seed in range(12):
        for deal, view in views_during_play(rules, seed):
            table = deal.table
            kn = Knowledge.of(view, table, rules.deck)
            truth = deal.hands
            assert kn.sizes == tuple(h.bit_count() for h in truth)
            for _ in range(3):
                hands, skat = sample(kn, rng)
                assert hands[view.seat] == view.hand
                assert [h.bit_count() for h in hands] == list(kn.sizes)
                assert hands[0] & hands[1] == hands[0] & hands[2] == hands[1] & hands[2] == 0
                # the unplayed cards, skat included, are dealt out exactly once
                assert hands[0] | hands[1] | hands[2] | skat == truth[0] | truth[1] | truth[2] | deal.skat
                assert skat.bit_count() == rules.deck.skat
                for s in range(3):
                    assert hands[s] & kn.void[s] == 0  # no card of a class the seat showed void in
                    assert kn.void[s] & truth[s] == 0  # (and the voids are real)
                if view.seat == view.declarer and view.discard:
                    assert skat == deal.skat
                checked += 1
    assert checked > 300


def test_bidding_levels():
    rules = get_rules("official")
    deal = Deal(rules, *deal_cards(random.Random(3)))
    for v in (["18", "yes", "20", "pass"]):
        legal = deal.legal_actions()
        deal.apply(next(a for a in legal if str(a) == v))
    # middlehand bid 18 and 20, forehand held 18 then passed at 20; rearhand has not spoken
    high, passed = bidding_levels(deal.view(2))
    assert high == [18, 20, 0] and passed == [20, None, None]


@pytest.mark.parametrize("ruleset", sorted(shipped_rulesets()))
def test_expert_table_plays_every_shipped_ruleset(ruleset):
    """Two deals of three expert players (two layouts a move): every action is
    the engine's (a wrong one raises), every card decision counted."""
    stats = run([ruleset], 2, 1, ("expert:worlds=2:bid_worlds=2",) * 3)[0]
    assert stats.deals == 2
    counted = stats.bots["pimc_moves"] + stats.bots["fallback_moves"]
    assert counted > 0 or all(g == "passed" for g in stats.games)
    assert stats.summary().get("bot_counters", {}) == dict(sorted(stats.bots.items()))


def test_player_options():
    factory = resolve_player("expert:worlds=3:ms=2.5")
    p = factory(rules=get_rules("official"), seed=1)
    assert isinstance(p, ExpertPlayer) and p.worlds == 3 and p.ms == 2.5


def _mask(text: str) -> int:
    return mask_of(parse_card(t) for t in text.split())


def test_equivalent_cards_need_no_search():
    """Cards adjacent in strength, with nothing still in play between them,
    are one choice (with equal card points when points count)."""
    table = get_rules("official").tricks["grand"]
    everything = (1 << 32) - 1
    assert all_equivalent(table, _mask("C8 C7"), everything, points=True)
    # the eight of clubs, still out, lies between the nine and the seven
    assert not all_equivalent(table, _mask("C9 C7"), everything, points=True)
    assert all_equivalent(table, _mask("C9 C7"), everything & ~_mask("C8"), points=True)
    # king and queen are adjacent but not worth the same: equal only where tricks count (null)
    assert not all_equivalent(table, _mask("CK CQ"), everything, points=True)
    assert all_equivalent(table, _mask("CK CQ"), everything, points=False)
    # cards of two suits, or a jack and a plain card, are never one choice
    assert not all_equivalent(table, _mask("C7 S7"), everything, points=True)
    assert not all_equivalent(table, _mask("DJ CA"), everything, points=True)


def test_pimc_stops_when_more_layouts_cannot_change_the_card():
    assert settled(Counter({1: 4, 2: 0, 3: 1}), 4, 2)       # 4 against at most 1 + 2
    assert not settled(Counter({1: 4, 2: 0, 3: 2}), 4, 2)   # the third card can still tie
    assert settled(Counter({1: 3, 2: 3}), 3, 7)             # every card reaches the goal in every layout
    assert settled(Counter({1: 0, 2: 0}), 3, 7)             # or none does: schneider decides
    assert not settled(Counter({1: 2, 2: 2}), 3, 7)         # equal, but not decided


def _picked_up(rules, forehand: str, skat: str, declaration: bool = False):
    """The game (or ``declaration``) the expert declares after picking up
    ``skat`` as forehand (the other two pass at once)."""
    held = forehand.split() + skat.split()
    others = [c for c in CARD_NAMES[:32] if c not in held]
    deal = Deal(rules, [[parse_card(c) for c in cards] for cards in (forehand.split(), others[:10], others[10:])],
                [parse_card(c) for c in skat.split()])
    while deal.phase is Phase.BIDDING:
        legal = deal.legal_actions()
        deal.apply(PASS if deal.to_move != 0 else next(a for a in legal if a is not PASS))
    deal.apply(PICK_UP)
    me = ExpertPlayer(rules, seed=1)
    while deal.phase is not Phase.PLAY:
        deal.apply(me.act(deal.view(0)))
    return deal.declaration if declaration else deal.declaration.game


@pytest.mark.parametrize("forehand, skat, official, cheap, dear", [
    # with 1 (grand 48, clubs 24): grand; where grand with 1 is worth 16, clubs
    ("CJ HJ CA CT C9 C8 SA SK HA D7", "HK S8", "grand", "clubs", "grand"),
    # with 2, five clubs and two side aces: grand (72) against clubs (36); clubs where grand is worth 2 x 8 x 3 = 48
    ("CJ SJ CA CK C9 C8 C7 SA HA D8", "HK S8", "grand", "clubs", "grand"),
])
def test_contract_choice_follows_the_rulesets_values(tmp_path, forehand, skat, official, cheap, dear):
    """The same twelve cards, three grand values: the expert weighs each
    contract's chance against what the ruleset pays for it."""
    def ruleset(base: int):
        path = tmp_path / f"grand{base}.yaml"
        path.write_text(f"name: grand{base}\ndescription: official, grand {base}\nplugins:\n  official: {{grand_base: {base}}}\n")
        return get_rules(path)
    assert _picked_up(get_rules("official"), forehand, skat) == official
    assert _picked_up(ruleset(8), forehand, skat) == cheap
    assert _picked_up(ruleset(36), forehand, skat) == dear


def test_expert_bids_at_least_what_the_heuristic_bids():
    """The heuristic's estimates, judged by the expert's rule (the ruleset's
    score), are the floor (its hand games, Tournee); the solver raises it
    where the sampled layouts say a pickup game pays."""
    rules = get_rules("official")
    rng = random.Random(11)
    raised = 0
    for i in range(60):
        hand = mask_of(rng.sample(range(32), 10))
        me = ExpertPlayer(rules, seed=i)
        expert, heuristic = me._expert_limit(hand, i % 3), me._limit(hand)
        assert expert >= heuristic
        assert expert == 0 or expert in rules.ladder
        raised += expert > heuristic
    assert raised >= 3


def test_null_chance_follows_the_unsafe_suits_not_only_double_dummy():
    """A null's chance: double-dummy defenders always find a weak suit, the
    expert's own defenders mostly do not - fitted on forced nulls of its play
    (tools/fit_expert_null.py): every suit safe, it is a good null even where
    double-dummy makes it in half the layouts; each unsafe suit costs, one
    unsafe by more than a rank the most."""
    me = ExpertPlayer(get_rules("official"), seed=1)
    null, ouvert = (next(c for c in me.info.cands["pickup"] if c.null and c.d.ouvert == o) for o in (False, True))
    safe = _mask("C7 C8 C9 S7 S8 S9 H7 H8 H9 D7")
    one_mild = _mask("C7 C8 C9 S7 S8 S9 H7 H8 H9 D8")    # a singleton eight
    one_bad = _mask("C7 C8 C9 S7 S8 S9 H7 H8 H9 DJ")     # a singleton jack
    assert me._chance(null, 0.0, 3, 6, (safe,)) > 0.85
    assert me._chance(null, 0.0, 3, 6, (safe,)) > me._chance(null, 0.0, 3, 6, (one_mild,)) \
        > me._chance(null, 0.0, 3, 6, (one_bad,))
    assert me._chance(null, 0.0, 4, 6, (one_mild,)) > me._chance(null, 0.0, 2, 6, (one_mild,))
    # in the open, an unsafe suit is found more often
    assert me._chance(ouvert, 0.0, 3, 6, (one_mild,)) < me._chance(null, 0.0, 3, 6, (one_mild,))


def test_clear_null_hands_are_declared_and_bid_as_null():
    """Low cards in every suit: null ouvert after discarding the skat's two
    aces (worth 46, every suit safe); a ten above only the seven makes it
    a plain null; three jacks and clubs, no null (clubs or grand)."""
    rules = get_rules("official")
    d = _picked_up(rules, "C7 C8 C9 S7 S8 S9 H7 H8 H9 D7", "CA SA", declaration=True)
    assert (d.game, d.ouvert) == ("null", True)
    d = _picked_up(rules, "C7 C8 C9 S7 S8 S9 H7 H8 DT D7", "CA SA", declaration=True)
    assert (d.game, d.ouvert) == ("null", False)
    assert _picked_up(rules, "CJ SJ HJ CA CT C9 C8 S7 S8 H7", "D7 D8") in ("clubs", "grand")
    me = ExpertPlayer(rules, seed=1)
    assert me._expert_limit(_mask("C7 C8 C9 S7 S8 S9 H7 H8 H9 D8"), 0) >= 23


def test_grand_chance_is_the_layouts_share_suits_blend_the_heuristic():
    """The heuristic's grand estimate is fitted double-dummy (61 against
    defenders who see every card), the pessimism DEFENCE corrects in the
    layouts: it is no prior for a grand; a suit game's is worth two layouts."""
    me = ExpertPlayer(get_rules("official"), seed=1)
    grand = next(c for c in me.info.cands["pickup"] if c.g.family == "grand" and not c.d.ouvert)
    clubs = next(c for c in me.info.cands["pickup"] if c.d.game == "clubs" and not c.d.ouvert)
    assert me._chance(grand, 0.1, 4, 6, (), raw=True) == pytest.approx(4 / 6)
    assert me._chance(clubs, 0.1, 4, 6, (), raw=True) == pytest.approx((2 * 0.1 + 4) / 8)
    # two jacks, aces and tens in long suits: grand
    assert _picked_up(get_rules("official"), "SJ HJ CA CT C9 SA ST S8 HA D7", "H8 D8") == "grand"
