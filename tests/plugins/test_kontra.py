"""Kontra and Re in play (docs/rules/pub.md#b2): who may say them and until when, through
``Deal.legal_calls(seat)`` / ``Deal.apply(Call(seat, name))``; the score
doubles with each call."""

from __future__ import annotations

import pytest

from skatcore.engine.deal import HOLD, PASS, PLAY_HAND, PLAYS, Bid, Call, Deal, Declare, deal_cards
from skatcore.errors import InputError
from skatcore.model import Declaration
from skatcore.rules.compiler import get_rules
from skatcore_plugins.kontra import rule_18

F, M, R = 0, 1, 2


def rules_with(tmp_path, **params):
    text = ", ".join(f"{k}: {v}" for k, v in params.items())
    path = tmp_path / "house.yaml"
    path.write_text(f"name: house\nextends: official\nplugins:\n  kontra: {{{text}}}\n", encoding="utf-8")
    return get_rules(str(path))


def start(rules, calls, game="grand"):
    """A seeded deal, bid as ``calls``, the declarer plays ``game`` hand."""
    deal = Deal(rules, *deal_cards(11))
    for c in calls:
        deal.apply(c)
    deal.apply(PLAY_HAND)
    deal.apply(Declare(Declaration(game, hand=True)))
    return deal


def names(calls):
    return [c.name for c in calls]


def test_kontra_by_either_defender_then_re_at_once():
    rules = get_rules("pub")
    deal = start(rules, [Bid(18), PASS, PASS])  # middlehand 18, forehand passes, rearhand passes
    assert deal.declarer == M
    assert names(deal.legal_calls(F)) == ["kontra"] and names(deal.legal_calls(R)) == ["kontra"]
    assert deal.legal_calls(M) == []  # the declarer does not say Kontra
    deal.apply(Call(R, "kontra"))
    assert deal.legal_calls(F) == [] and names(deal.legal_calls(M)) == ["re"]
    deal.apply(Call(M, "re"))
    assert dict(deal.declaration.declarations) == {"kontra": True, "re": True}
    assert deal.legal_calls(M) == []  # no Supra in pub


def test_re_only_before_the_next_card():
    deal = start(get_rules("pub"), [Bid(18), PASS, PASS])
    deal.apply(Call(F, "kontra"))
    deal.apply(deal.legal_actions()[0])  # forehand leads
    assert deal.legal_calls(M) == []
    with pytest.raises(InputError, match="middlehand cannot call re: not possible now"):
        deal.apply(Call(M, "re"))


def test_default_window_before_the_defenders_own_first_card():
    deal = start(get_rules("pub"), [Bid(18), PASS, PASS])
    deal.apply(deal.legal_actions()[0])  # forehand (a defender) leads
    assert deal.legal_calls(F) == []      # played already
    assert names(deal.legal_calls(R)) == ["kontra"]  # rearhand has not played yet
    deal.apply(deal.legal_actions()[0])  # middlehand
    assert names(deal.legal_calls(R)) == ["kontra"]
    deal.apply(deal.legal_actions()[0])  # rearhand: trick 1 is over
    assert deal.legal_calls(R) == []


def test_window_first_lead(tmp_path):
    deal = start(rules_with(tmp_path, window="first_lead"), [Bid(18), PASS, PASS])
    assert names(deal.legal_calls(R)) == ["kontra"]
    deal.apply(deal.legal_actions()[0])
    assert deal.legal_calls(R) == []


def test_only_a_defender_who_bid_or_held(tmp_path):
    rules = rules_with(tmp_path, who="bid_or_held")
    # middlehand 18, forehand yes, middlehand 20, forehand pass; rearhand passes: middlehand plays
    deal = start(rules, [Bid(18), HOLD, Bid(20), PASS, PASS])
    assert deal.declarer == M
    assert names(deal.legal_calls(F)) == ["kontra"]  # held 18
    assert deal.legal_calls(R) == []                 # only passed


def test_the_18_rule(tmp_path):
    rules = rules_with(tmp_path, who="rule_18")
    # middlehand 18, forehand passes (could have said yes to 18: no Kontra);
    # rearhand, facing 18 already bid, passes: it never could bid 18, so it may
    deal = start(rules, [Bid(18), PASS, PASS])
    assert deal.legal_calls(F) == []
    assert names(deal.legal_calls(R)) == ["kontra"]
    with pytest.raises(InputError, match="forehand cannot call kontra"):
        deal.apply(Call(F, "kontra"))
    # middlehand passes at once (could have bid 18): no Kontra for it
    deal = start(rules, [PASS, Bid(18), HOLD, Bid(20), PASS])  # rearhand 18, forehand yes, rearhand 20, forehand pass
    assert deal.declarer == R
    assert deal.legal_calls(M) == [] and names(deal.legal_calls(F)) == ["kontra"]


@pytest.mark.parametrize(("bidding", "seat", "allowed"), [
    ([(M, Bid(18)), (F, PASS)], F, False),                       # asked 18, passed
    ([(M, PASS)], M, False),                                     # could have bid 18
    ([(M, Bid(18)), (F, HOLD), (M, PASS)], M, True),             # bid 18, passed at 20
    ([(M, Bid(20)), (F, PASS)], F, True),                        # asked 20 only
    ([(M, Bid(18)), (F, PASS), (R, PASS)], R, True),             # 18 already bid: could only bid 20
    ([(M, PASS), (R, PASS)], R, False),                          # nobody had bid: could have bid 18
])
def test_rule_18_cases(bidding, seat, allowed):
    assert rule_18(bidding, seat, declarer=None) is allowed


def test_called_kontra_and_re_double_the_score_twice():
    rules = get_rules("pub")
    plain = start(rules, [Bid(18), PASS, PASS])
    doubled = start(rules, [Bid(18), PASS, PASS])
    doubled.apply(Call(F, "kontra"))
    doubled.apply(Call(M, "re"))
    for deal in (plain, doubled):
        while not deal.done:
            deal.apply(deal.legal_actions()[0])
    assert plain.result().value == doubled.result().value
    assert doubled.result().score == 4 * plain.result().score
    assert doubled.result().extra["calls"] == ["kontra", "re"]


def test_no_calls_in_a_ramsch():
    rules = get_rules("pub")
    deal = Deal(rules, *deal_cards(3))
    for _ in range(3):
        deal.apply(PASS)
    while deal.step is not None:  # the push round
        deal.apply(deal.legal_actions()[0])
        if deal.phase.value == "discard":
            deal.apply(deal.legal_actions()[0])
    assert deal.declarer is None and all(deal.legal_calls(s) == [] for s in range(3))
    deal.apply(PLAYS[deal.legal_actions()[0].card])
