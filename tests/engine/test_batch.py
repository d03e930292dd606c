"""The numpy batch engine must agree with the Deal state machine, deal by deal:
every batch deal is replayed action by action through Deal (which rejects any
illegal action) and must give the same result."""

import pytest

from skatcore.engine.batch import Unsupported, play_random
from skatcore.engine.deal import HOLD, PASS, PICK_UP, PLAY_HAND, PLAYS, Bid, Deal, Declare, Discard
from skatcore.rules.compiler import get_rules


def replay(rules, k):
    deal = Deal(rules, k.hands, k.skat)
    for c in k.calls:
        deal.apply(Bid(c) if c > 0 else HOLD if c == -1 else PASS)
    if k.route == "pickup":
        deal.apply(PICK_UP)
        deal.apply(Discard(k.discard))
    elif k.route == "hand":
        deal.apply(PLAY_HAND)
    if k.route:
        deal.apply(Declare(k.declaration))
    for c in k.plays:
        deal.apply(PLAYS[c])
    assert deal.done
    return deal.result()


@pytest.mark.parametrize("ruleset", ["official", "texas", "danish", "pre1999", "danish-aarhus"])
def test_batch_deals_replay_identically_through_deal(ruleset):
    rules = get_rules(ruleset)
    results, kept = play_random(rules, 400, seed=11, keep=True)
    assert len(results) == 400
    for got, k in zip(results, kept):
        want = replay(rules, k)
        assert (got.game, got.declarer, got.score, got.value, got.scores) == \
               (want.game, want.declarer, want.score, want.value, want.scores), want.explanation


def test_batch_plays_ramsch_when_all_pass(tmp_path):
    """A Ramsch-on-all-pass ruleset with only three rungs on the ladder, so
    that random players often all pass: the batch must then play and score
    the Ramsch exactly as Deal does."""
    top = get_rules("texas").ladder[-3]
    (tmp_path / "short.yaml").write_text(f"extends: texas\nplugins:\n  official: {{min_bid: {top}}}\n")
    rules = get_rules(str(tmp_path / "short.yaml"))
    results, kept = play_random(rules, 400, seed=5, keep=True)
    ramsch = [(r, k) for r, k in zip(results, kept) if r.game == "ramsch"]
    assert len(ramsch) > 10
    for got, k in ramsch:
        assert got.scores == replay(rules, k).scores


def test_batch_is_deterministic_per_seed():
    rules = get_rules("official")
    a = [r.scores for r in play_random(rules, 200, seed=3)]
    b = [r.scores for r in play_random(rules, 200, seed=3)]
    c = [r.scores for r in play_random(rules, 200, seed=4)]
    assert a == b and a != c


@pytest.mark.parametrize("ruleset", ["tournee", "schieberamsch", "ramsch"])
def test_batch_refuses_steps_it_does_not_model(ruleset):
    with pytest.raises(Unsupported):
        play_random(get_rules(ruleset), 10, seed=1)
