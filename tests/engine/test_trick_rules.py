"""Rules about trick play in Deal: skat_trick_winner asked per trick, steps
between tricks ("trick", "last_trick"), table calls open beyond trick 1
(TableCall.until_trick) - and the compiled engines refusing the last two,
and a trick-winner rule whose answers they cannot tabulate."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatcore.bots import HeuristicPlayer, RandomPlayer
from skatcore.engine.compiled import Unsupported, engine_tables
from skatcore.engine.deal import PLAYS, Call, Deal, Phase, deal_cards
from skatcore.engine.steps import Step
from skatcore.errors import InputError
from skatcore.hookspecs import hookimpl
from skatcore.records.deal import apply_at, score_record
from skatcore.records.writer import deal_record
from skatcore.rules.compiler import get_rules
from skatcore.sim.fastpath import MIN_DEALS
from skatcore.sim.play import play, seeded_deal
from skatcore.testing import compile_with, play_random

OFFICIAL = get_rules("official")


class Abstains:
    """Implements the hook and never answers: the card order decides, on Deal's slow path."""

    @hookimpl
    def skat_trick_winner(self, cards):
        return None


ABSTAINS = compile_with("official", plugins={"abstains": Abstains})
MOOD = {"sevens": False}  # a house rule's switch that can change between deals


class Moody:
    """Reads a global that can change: its answers cannot be tabulated (skatcore.engine.trick_probe)."""

    @hookimpl
    def skat_trick_winner(self, cards):
        return 0 if MOOD["sevens"] and all(c % 8 == 7 for c in cards) else None


MOODY = compile_with("official", plugins={"moody": Moody})


def random_deal(rules, seed: int) -> Deal:
    return play_random(rules, seed, deals=1)[0]


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_a_hook_that_never_answers_changes_no_trick(seed):
    ours, theirs = random_deal(ABSTAINS, seed), random_deal(OFFICIAL, seed)
    assert ABSTAINS.trick_hook and not ours._fast3 and theirs._fast3
    assert [(t.leader, t.cards, t.winner) for t in ours.tricks] == [(t.leader, t.cards, t.winner) for t in theirs.tricks]
    assert ours.result().scores == theirs.result().scores


@settings(deadline=None, max_examples=200)
@given(st.permutations(range(32)), st.sampled_from(sorted(OFFICIAL.contracts)), st.integers(1, 10))
def test_without_a_plugin_the_card_order_decides(deck, game, number):
    trick = deck[:3]
    assert OFFICIAL.trick_winner(game, trick, number, 0, 1) == OFFICIAL.tricks[game].winner_index(trick)


def test_the_hook_sees_every_trick_once():
    seen = []

    class Watch:
        @hookimpl
        def skat_trick_winner(self, contract, cards, number, last, leader, declarer, winner):
            seen.append((contract.name, tuple(cards), number, last, leader, declarer, winner))

    rules = compile_with("official", plugins={"watch": Watch})
    rng = random.Random(3)
    while True:
        seen.clear()
        deal = play_random(rules, rng)[0]
        if deal.declarer is not None and len(deal.tricks) == 10:
            break
    mine = seen
    assert [n for _, _, n, *_ in mine] == list(range(1, 11)) and [x[3] for x in mine] == [False] * 9 + [True]
    for t, (game, cards, _, _, leader, declarer, winner) in zip(deal.tricks, mine, strict=True):
        assert (game, cards, leader, declarer) == (deal.contract.name, tuple(t.cards), t.leader, deal.declarer)
        assert winner == deal.table.winner_index(t.cards)


# -- a step between tricks ---------------------------------------------------------


class Knock(Step):
    """Made up: before the last trick the declarer knocks or not (recorded, nothing else)."""

    name = "knock"
    at = "last_trick"
    description = "the declarer may knock before the last trick"

    def begins(self, deal):
        return deal.declarer is not None

    def enter(self, deal):
        deal.to_move = deal.declarer

    def legal(self, deal):
        return ("quiet", "knock")

    def apply(self, deal, action):
        if action not in ("quiet", "knock"):
            raise InputError(f"{action} is not possible now")
        deal.state[self.name] = action
        deal.end_step()

    def replay(self, deal, record):
        said = record["game"].get("steps", {}).get("knock")
        if said is None:
            raise InputError("give quiet or knock", path="game.steps.knock")
        apply_at(deal, said, "game.steps.knock")

    def record(self, deal):
        return {"game": {"steps": {"knock": deal.state[self.name]}}} if self.name in deal.state else {}


class Count(Step):
    """Made up: after every trick but the last, the trick's winner says "next" (counted)."""

    name = "count"
    at = "trick"

    def enter(self, deal):
        deal.to_move = deal.tricks[-1].winner
        deal.state.setdefault(self.name, []).append(len(deal.tricks))

    def legal(self, deal):
        return ("next",)

    def apply(self, deal, action):
        if action != "next":
            raise InputError(f"{action} is not possible now: say next")
        deal.end_step()

    def replay(self, deal, record):
        deal.apply("next")


class Between:
    @hookimpl
    def skat_register_steps(self):
        return [Knock(), Count()]

    @hookimpl
    def skat_register_declarations(self):
        return {}


STEPPED = compile_with("official", plugins={"between": Between})


def test_steps_run_between_tricks_and_the_winner_leads_on():
    deal = next(d for d in play_random(STEPPED, 5, deals=30) if d.declarer is not None and len(d.tricks) == 10)
    assert deal.state["count"] == list(range(1, 10)) and deal.state["knock"] in ("quiet", "knock")
    for before, after in pairwise(deal.tricks):
        assert after.leader == before.winner
    # a step between tricks: play is paused, the trick just taken is the last one listed
    hands, skat, *_ = seeded_deal(1, 0)
    d = Deal(STEPPED, hands, skat)
    while d.phase is not Phase.STEP or d.step.name != "count":
        d.apply(d.legal_actions()[0])
    assert d.tricks[-1].winner == d.to_move and len(d.tricks) == 1 and d.legal_actions() == ("next",)
    assert d.view(d.to_move).trick == () and len(d.view(d.to_move).tricks) == 1
    with pytest.raises(InputError):
        d.apply(PLAYS[next(iter(d.hand_of(0)))])


def test_steps_between_tricks_round_trip_through_records():
    for i in range(15):
        hands, skat, seeds = seeded_deal(2, i)
        deal = play(STEPPED, hands, skat, [HeuristicPlayer(STEPPED, s) for s in seeds])
        record = deal_record(deal)
        if deal.declarer is not None and len(deal.tricks) == 10:
            assert record["game"]["steps"]["knock"] == deal.state["knock"]
        assert score_record(record, STEPPED).scores == deal.result().scores


def test_a_record_that_leaves_the_step_out_is_refused():
    deal = next(d for d in play_random(STEPPED, 6, deals=30) if d.declarer is not None and len(d.tricks) == 10)
    record = deal_record(deal)
    del record["game"]["steps"]
    with pytest.raises(InputError, match=r"game\.steps"):
        score_record(record, STEPPED)


# -- table calls beyond the first trick ----------------------------------------------


@pytest.fixture(scope="module")
def late_kontra(tmp_path_factory):
    path = tmp_path_factory.mktemp("late") / "late-kontra.yaml"
    path.write_text("extends: official\nplugins:\n  kontra: {until_trick: 2}\n")
    return get_rules(str(path))


def test_kontra_until_the_second_trick(late_kontra):
    for seed in range(40):
        hands, skat = deal_cards(seed)
        deal = Deal(late_kontra, hands, skat)
        while deal.phase is not Phase.PLAY:
            deal.apply(deal.legal_actions()[0])
        if deal.declarer is None:
            continue
        defender = next(s for s in range(3) if s != deal.declarer)
        assert Call(defender, "kontra") in deal.legal_calls(defender)
        while len(deal.tricks) < 2:  # the whole first trick: still open
            deal.apply(deal.legal_actions()[0])
            assert Call(defender, "kontra") in deal.legal_calls(defender) or (len(deal.tricks) == 2 and \
                deal.tricks[-1].leader == defender and deal.tricks[-1].cards)
        while not deal.done and len(deal.tricks) == 2 and (defender - deal.tricks[-1].leader) % 3 > len(deal.tricks[-1].cards):
            assert Call(defender, "kontra") in deal.legal_calls(defender)
            deal.apply(deal.legal_actions()[0])
        if deal.done:  # a null lost in trick 1
            continue
        deal.apply(Call(defender, "kontra"))  # the defender's turn in trick 2: the last moment
        assert Call(deal.declarer, "re") in deal.legal_calls(deal.declarer)  # Re answers at once, in trick 2 too
        deal.apply(deal.legal_actions()[0])
        assert not deal.legal_calls(defender) and not deal.legal_calls(deal.declarer)  # a card later: all closed
        assert deal.declaration.declarations == {"kontra": True}
        return
    pytest.fail("no declarer game in 40 deals")


def test_late_kontra_is_said_in_simulations(late_kontra):
    said_late = 0
    for i in range(60):
        hands, skat, seeds = seeded_deal(3, i)
        deal = play(late_kontra, hands, skat, [RandomPlayer(s) for s in seeds])
        calls = [n for n, (_, a) in enumerate(deal.history) if isinstance(a, Call)]
        plays = [n for n, (_, a) in enumerate(deal.history) if type(a).__name__ == "Play"]
        said_late += any(len([p for p in plays if p < n]) >= 3 for n in calls)
    assert said_late  # some call came after the first trick


def test_until_trick_is_checked(tmp_path):
    (tmp_path / "k.yaml").write_text("extends: official\nplugins:\n  kontra: {until_trick: 11}\n")
    with pytest.raises(InputError, match=r"table call 'kontra': until_trick 11, expected a trick number 1 to 10"):
        get_rules(str(tmp_path / "k.yaml"))


# -- the compiled engines step aside ------------------------------------------------


@pytest.mark.parametrize(("which", "reason"), [
    ("moody", r"a plugin decides trick winners \(skat_trick_winner\), and its code reads the global MOOD, a dict "
              r"that can change \(test_trick_rules.py:\d+\)"),
    ("stepped", r"flow steps during the play \(knock, count\)"),
    ("late", r"table calls beyond the first trick \(kontra until trick 2\)"),
])
def test_engine_tables_refuse_with_the_reason(which, reason, late_kontra):
    rules = {"moody": MOODY, "stepped": STEPPED, "late": late_kontra}[which]
    with pytest.raises(Unsupported, match=reason):
        engine_tables(rules, hand_back=True)


def test_simulate_falls_back_to_deal(late_kontra, tmp_path):
    from skatcore.sim.fastpath import compiled
    from skatcore.sim.simulate import run

    assert compiled([OFFICIAL, ABSTAINS, MOODY, STEPPED, late_kontra], ("heuristic",) * 3) == [0, 1]
    (tmp_path / "seven.yaml").write_text("extends: official\nplugins:\n  trump_seven: {}\n")
    stats = run([str(tmp_path / "seven.yaml"), "official"], deals=MIN_DEALS, seed=1)  # big enough for the compiled path
    assert [s.deals for s in stats] == [MIN_DEALS, MIN_DEALS]
