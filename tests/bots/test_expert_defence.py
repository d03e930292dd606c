"""The expert's defence and inference (issue 21): the leads a strong
defender plays, layouts weighted by the others' cards under the heuristic's
policy, the counters' rates in `skat duel` and `skat simulate`, and the ISS
agreement tool."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcore.bots import HeuristicPlayer
from skatcore.bots.expert import ExpertPlayer
from skatcore.bots.expert.defence import (
    BAD,
    FORCE,
    MASTER,
    PARTNER_RUFFS,
    PARTNER_SUIT,
    SIDE,
    THROUGH,
    TRUMP_LEAD,
    Table,
    cheapest_key,
    discard_key,
    follow_rule,
    lead_class,
    lead_key,
    smear_key,
)
from skatcore.bots.expert.inference import PlayModel, evidence
from skatcore.bots.expert.worlds import Knowledge
from skatcore.cards import mask_of, parse_card
from skatcore.engine.deal import Deal, Phase, deal_cards
from skatcore.rules import get_rules
from skatcore.rules.compiler import TRUMP
from skatcore.sim.counters import counter_rates, rate_specs, rates_line
from skatcore.sim.duel import duel
from tests.tool_module import load_tool

RULES = get_rules("official")
GAMES = HeuristicPlayer(RULES).info.games


def _m(text: str) -> int:
    return mask_of(parse_card(t) for t in text.split())


def _c(name: str) -> int:
    return parse_card(name)


def _table(hand: str, unseen: str, me=0, declarer=1, declarer_void="", partner_void="", partner_led=()) -> Table:
    return Table(me, declarer, 3 - me - declarer, _m(hand), _m(unseen), _m(declarer_void), _m(partner_void),
                 frozenset(partner_led))


# the cards out in a clubs game where forehand holds the hand below (everything else unseen)
HAND = "SA S9 S8 HT H7 DK D7 C8 C7 DA"
ALL = "CJ SJ HJ DJ CA CT CK CQ C9 C8 C7 SA ST SK SQ S9 S8 S7 HA HT HK HQ H9 H8 H7 DA DT DK DQ D9 D8 D7"
OUT = " ".join(c for c in ALL.split() if c not in HAND.split())


def test_a_defender_cashes_a_master_and_never_leads_a_ten_into_the_ace():
    g = GAMES["clubs"]
    t = _table(HAND, OUT)
    assert lead_class(g, t, _c("SA")) == MASTER
    assert lead_class(g, t, _c("DA")) == MASTER
    assert lead_class(g, t, _c("HT")) == BAD      # the heart ace is still out
    assert lead_class(g, t, _c("C7")) == TRUMP_LEAD
    # the declarer (middlehand, second to play) has shown void in spades and trumps are out: the ace is no master
    # lead, but a spade forces him to trump, a lead before any but a master or the partner's ruff
    t = _table(HAND, OUT, declarer_void="SA ST SK SQ S9 S8 S7")
    assert lead_class(g, t, _c("SA")) == lead_class(g, t, _c("S8")) == FORCE
    assert lead_class(g, t, _c("DA")) < FORCE < lead_class(g, t, _c("D7"))
    # with no trump out he cannot be forced: the spade ace is a master again
    assert lead_class(g, _table(HAND, " ".join(c for c in OUT.split() if not (c[1] == "J" or c[0] == "C")),
                                declarer_void="SA ST SK SQ S9 S8 S7"), _c("SA")) == MASTER
    # of two masters the one with more points first: the ten of a suit whose ace is gone before a king
    t = _table(HAND, OUT.replace("DT ", ""), declarer_void="")
    assert lead_class(g, t, _c("DK")) == MASTER and lead_key(g, t, _c("DA")) < lead_key(g, t, _c("DK"))


def test_a_defender_leads_through_the_declarer_and_to_the_partner():
    g = GAMES["clubs"]
    hand = "S9 S8 S7 H7 DK D7 C8 C7 HK HQ"
    out = " ".join(c for c in ALL.split() if c not in hand.split())
    # declarer plays second (middlehand): short way, long suit - spades, hearts (three each) over diamonds (two)
    t = _table(hand, out, me=0, declarer=1)
    assert lead_class(g, t, _c("S7")) == THROUGH and lead_class(g, t, _c("D7")) == SIDE
    # partner plays second (declarer rearhand): long way, short suit - diamonds
    t = _table(hand, out, me=0, declarer=2)
    assert lead_class(g, t, _c("D7")) == THROUGH and lead_class(g, t, _c("S7")) == SIDE
    # the partner showed void in hearts (trumps still out): he trumps a heart
    t = _table(hand, out, declarer=1, partner_void="HA HT HK HQ H9 H8 H7")
    assert lead_class(g, t, _c("H7")) == PARTNER_RUFFS
    # not in a grand, where the partner's trumps are the jacks only
    assert lead_class(GAMES["grand"], t, _c("H7")) != PARTNER_RUFFS
    # the partner led diamonds: they come back
    t = _table(hand, out, declarer=1, partner_led=(g.follow[_c("D7")],))
    assert lead_class(g, t, _c("D7")) == PARTNER_SUIT
    # low cards of a suit before high ones
    assert lead_key(g, t, _c("S7")) < lead_key(g, t, _c("S9"))


def test_the_cheapest_card_gives_the_fewest_points_and_keeps_trumps():
    g = GAMES["clubs"]
    cards = [_c(c) for c in ("HT", "C7", "S7", "SK")]
    assert min(cards, key=lambda c: cheapest_key(g, c)) == _c("S7")
    assert sorted(cards, key=lambda c: cheapest_key(g, c)) == [_c(c) for c in ("S7", "C7", "SK", "HT")]


def _played_views(seed: int):
    """Views of each seat to move in the play of a heuristic deal."""
    rng = random.Random(seed)
    deal = Deal(RULES, *deal_cards(rng))
    players = [HeuristicPlayer(RULES, seed=s) for s in range(3)]
    while not deal.done:
        view = deal.view(deal.to_move)
        if deal.phase is Phase.PLAY and deal.declaration.game != "null":
            yield deal, view
        deal.apply(players[deal.to_move].act(view))


def test_evidence_lists_the_others_cards_with_the_hand_each_held():
    checked = 0
    for seed in range(6):
        for deal, view in _played_views(seed):
            kn = Knowledge.of(view, deal.table, RULES.deck)
            found = evidence(view, kn, view.seat, 100)
            others = sum((kn.played[s]).bit_count() for s in range(3) if s != view.seat)
            assert len(found) == others  # no hand is shown in these games
            for e in found:
                assert e.seat != view.seat and e.later >> e.card & 1
                assert e.later & ~kn.played[e.seat] == 0  # what it played then and later
                assert e.tricks <= len(view.tricks)
            assert evidence(view, kn, view.seat, 3) == found[:3]
            checked += 1
    assert checked > 50


def test_a_layout_is_likelier_where_the_model_plays_the_cards_seen():
    """With the true hands, the heuristic's own cards are what the model
    plays: every piece of evidence agrees, so the true layout gets the
    largest weight there is, AGREE to the number of real choices."""
    model = PlayModel(RULES)
    checked = 0
    for seed in range(4):
        for deal, view in _played_views(seed):
            kn = Knowledge.of(view, deal.table, RULES.deck)
            found = evidence(view, kn, view.seat, 100)
            if len(found) < 4:
                continue
            truth = tuple(deal.hands)
            w = model.weight(view, deal.table, found, truth, deal.skat)
            table = deal.table
            choices = 0
            for e in found:
                hand = truth[e.seat] | e.later
                legal = (hand & table.class_mask[table.follow[e.trick[0]]]) or hand if e.trick else hand
                choices += legal.bit_count() > 1
            assert w == pytest.approx(PlayModel.AGREE ** choices)
            checked += 1
    assert checked > 20


def test_expert_counters_rates_in_duel_and_simulate():
    specs = rate_specs(["expert:worlds=2:bid_worlds=2"])
    assert specs == ExpertPlayer.COUNTER_RATES
    assert rate_specs(["heuristic"]) == {}
    rates = counter_rates(Counter(worlds=30, pimc_moves=10, inference_changed=1, card_decisions=12, fallback_moves=2,
                                  solver_nodes=12345), specs)
    assert rates == {"layouts_per_decision": 3.0, "inference_changed_share": 0.1, "fallback_share": round(2 / 12, 4),
                     "nodes_per_decision": 1234.5}
    assert rates_line(rates) == ("layouts_per_decision 3.00, inference_changed_share 10.0%, fallback_share 16.7%, "
                                 "nodes_per_decision 1234.50")
    out = duel("official", "expert:worlds=2:bid_worlds=2", "heuristic", 2, 5).to_json()
    counters, got = out["bot_counters"]["A"], out["bot_rates"]["A"]
    assert got["layouts_per_decision"] == round(counters["worlds"] / counters["pimc_moves"], 4) <= 2
    assert out["bot_rates"]["B"] == {}


def _tool():
    return load_tool("iss_agreement")


# two ISS games (the first two records of data/iss/iss-sample-25.sgf)
GAME_1 = ("(;GM[Skat]PC[International Skat Server]CO[]SE[24072]ID[541932]DT[2010-12-06/18:59:24/UTC]P0[zoot]"
          "P1[kermit]P2[foo]R0[]R1[]R2[0.0]MV[w HA.SK.SJ.SA.CQ.S8.C9.H7.H9.DQ.CJ.S9.DJ.S7.D9.SQ.C8.HQ.DK.CA.D8.D7.DT."
          "CT.ST.C7.HK.DA.HT.HJ.H8.CK 1 p 2 18 0 p 2 s w H8.CK 2 D.ST.H8 0 SA 1 S7 2 DA 2 HJ 0 SJ 1 D9 0 DQ 1 DJ 2 D7 "
          "1 CJ 2 D8 0 CQ 1 CA 2 C7 0 C9 1 S9 2 DT 0 S8 2 CT 0 H7 1 C8 2 CK 0 H9 1 HQ 2 HK 0 HA 1 SQ 0 SK 1 DK 2 HT ]"
          "R[d:2 loss v:-54 m:-2 bidok p:59 t:4 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1 r:0] ;)")


def test_iss_agreement_counts_the_decisions_with_a_choice(tmp_path):
    """A player that plays the record's own cards agrees on every decision;
    one that plays the first legal card agrees on fewer."""
    tool = _tool()
    path = tmp_path / "one.sgf"
    path.write_text(GAME_1 + "\n", encoding="utf-8")
    out = tool.agreement([path], "tests.bots.test_expert_defence:Recorded", 1)
    assert out["skipped_games"] == 0
    assert out["opening_lead"] == {"decisions": 1, "agree": 1, "share": 1.0}  # zoot's spade ace
    # eight tricks were played out before the last two cards; a defender led tricks 2-9 only where he had won the trick before
    assert out["all"]["agree"] == out["all"]["decisions"] > 15
    assert out["all"]["decisions"] == out["declarer"]["decisions"] + out["defenders"]["decisions"]
    assert out["defender_leads"]["decisions"] >= 3
    first = tool.agreement([path], "tests.bots.test_expert_defence:FirstCard", 1)
    assert first["all"]["decisions"] == out["all"]["decisions"] and first["all"]["agree"] < out["all"]["agree"]


class Recorded:
    """Plays the cards GAME_1 shows for its seat, in order."""

    def __init__(self, rules, seed=None):
        from skatcore.records.iss import ISS_CARDS, parse_sgf
        self.cards = [[ISS_CARDS[m.token] for m in parse_sgf(GAME_1).moves if m.who == s and m.token in ISS_CARDS]
                      for s in range(3)]

    def act(self, view):
        if view.phase is Phase.PLAY:  # its next card not yet played (the tool asks only where there is a choice)
            played = {c for _, cards, _ in view.tricks for c in cards} | set(view.trick)
            card = next(c for c in self.cards[view.seat] if c not in played)
            return next(a for a in view.legal if a.card == card)
        return view.legal[0]


class FirstCard:
    """Plays the first legal action."""

    def __init__(self, rules, seed=None):
        pass

    def act(self, view):
        return view.legal[0]


def test_iss_agreement_command_prints_a_table(capsys, tmp_path):
    path = tmp_path / "one.sgf"
    path.write_text(GAME_1 + "\n", encoding="utf-8")
    assert _tool().main(["heuristic", "--files", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out[0]["player"] == "heuristic" and out[0]["all"]["decisions"] > 10


def test_a_defender_discards_from_his_shortest_suit_and_smears_onto_the_partners_trick():
    g = GAMES["clubs"]
    hand = _m("ST SQ S8 HT HK HQ H7 DT DK DQ")
    discards = [_c(c) for c in ("S8", "H7", "DQ", "HK", "DT")]
    # spades and diamonds are the shortest suits (three cards), hearts four; the fewest points first, a ten last
    assert sorted(discards, key=lambda c: discard_key(g, hand, c)) == [_c(c) for c in ("S8", "DQ", "H7", "HK", "DT")]
    assert min([_c("C7"), _c("H7")], key=lambda c: discard_key(g, hand, c)) == _c("H7")  # a trump last
    # onto the partner's trick the most points, a side card before a trump of as many
    assert sorted([_c(c) for c in ("S8", "CT", "ST", "HK")], key=lambda c: smear_key(g, c)) \
        == [_c(c) for c in ("ST", "CT", "HK", "S8")]


def _clubs_hand_game_middlehand_declares() -> Deal:
    """Middlehand declares a clubs hand game; forehand and rearhand defend."""
    hands = [[_c(c) for c in s.split()] for s in ("SA SK S9 HA H9 H8 DA D9 D8 C9",
                                                   "CJ SJ HJ DJ CA CT CK CQ S7 D7",
                                                   "ST SQ S8 HT HK HQ H7 DT DK DQ")]
    deal = Deal(RULES, hands, [_c("C8"), _c("C7")])
    deal.set_declarer(1, 18)
    deal.apply(next(a for a in deal.legal_actions() if type(a).__name__ == "PlayHand"))
    deal.apply(next(a for a in deal.legal_actions() if a.declaration.game == "clubs" and not a.declaration.schneider))
    return deal


def test_a_defender_knows_when_to_smear_to_play_low_and_to_discard():
    deal = _clubs_hand_game_middlehand_declares()
    g = GAMES["clubs"]

    def follows(seat: int) -> str | None:
        view = deal.view(seat)
        return follow_rule(view, Knowledge.of(view, deal.table, RULES.deck), g)

    def play(*cards: str) -> None:
        for name in cards:
            deal.apply(next(a for a in deal.legal_actions() if a.card == _c(name)))

    play("SA")
    assert follows(1) is None            # the declarer
    play("S7")
    assert follows(2) == "smear"         # last to the partner's ace
    play("ST", "D8", "D7")
    assert follows(2) == "smear"         # the partner's eight beats the declarer's seven
    play("DK", "H7")                     # rearhand takes the trick and leads
    assert follows(0) == "second"        # forehand follows the partner's lead, the declarer still to play
    play("H8", "CQ", "CJ")               # the declarer trumps and leads a trump
    assert follows(2) == "discard"       # void in trumps, the declarer winning
    play("HK")
    assert follows(0) is None            # forehand can follow with his trump


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["clubs", "hearts", "grand"]), st.lists(st.integers(0, 31), min_size=1, max_size=10, unique=True))
def test_discards_and_smears_keep_to_their_rules(game, cards):
    """Whichever cards are level: the discard is no ace or ten while another
    card will do, a side card while there is one, from the shortest suit of
    those; the smear has the most points."""
    g = GAMES[game]
    hand = sum(1 << c for c in cards)
    d = min(cards, key=lambda c: discard_key(g, hand, c))
    cheap = [c for c in cards if g.points[c] < 10] or cards
    assert d in cheap
    side = [c for c in cheap if g.follow[c] != TRUMP] or cheap
    assert d in side
    length = {c: (hand & g.class_mask[g.follow[c]]).bit_count() for c in side}
    assert length[d] == min(length.values())
    assert g.points[min(cards, key=lambda c: smear_key(g, c))] == max(g.points[c] for c in cards)


def test_iss_agreement_breakdown_by_account(tmp_path):
    """``--breakdown`` counts each account's decisions: the three of GAME_1 add up to all of them."""
    path = tmp_path / "one.sgf"
    path.write_text(GAME_1 + "\n", encoding="utf-8")
    tool = _tool()
    rows: list = []
    out = tool.agreement([path], "tests.bots.test_expert_defence:Recorded", 1, detail=rows)
    by = tool.breakdown(rows)["account"]
    assert set(by) == {"zoot", "kermit", "foo"}
    assert sum(int(v.split("/")[1]) for v in by.values()) == out["all"]["decisions"]
    assert all(v.split("/")[0] == v.split("/")[1] for v in by.values())  # the record's own cards agree everywhere
