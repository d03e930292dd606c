"""The heuristic player judges flow steps through the steps' own answers
(``Step.outlooks``, ``Step.declarable``), never by a step's or a variant's
name: a copy of Tournée's turn-up under another name and with another offer
is played card for card the same, and a made-up step it knows nothing of
gets its first listed action."""

from __future__ import annotations

from dataclasses import dataclass, replace

from skatcore.bots.heuristic import HeuristicPlayer
from skatcore.cards import CARD_NAMES, cards_in, parse_card
from skatcore.engine.deal import Deal, Phase
from skatcore.engine.steps import Outlook, Step
from skatcore.errors import InputError
from skatcore.hookspecs import hookimpl
from skatcore.model import Declaration
from skatcore.rules.compiler import compile_rules, get_rules
from skatcore.rules.ruleset import load_ruleset
from skatcore.sim.play import play, seeded_deal
from skatcore.testing import compile_with
from skatcore_plugins.tournee import FIRST_CARD, KEY, TURN_UP, Tournee, TurnUpStep


@dataclass(frozen=True, slots=True)
class Peek:
    def __str__(self):
        return "peek"


PEEK = Peek()


class PeekStep(TurnUpStep):
    """Tournée's turn-up under another name, offered as another action."""

    name = "peek"

    def offers(self, deal):
        return (PEEK,)

    def outlooks(self, rules, hand):
        return {PEEK: super().outlooks(rules, hand)[TURN_UP]}

    def apply(self, deal, action) -> None:
        super().apply(deal, TURN_UP if action == PEEK else action)


class PeekTournee(Tournee):
    @hookimpl
    def skat_register_steps(self):
        return [PeekStep(step.contracts) for step in super().skat_register_steps()]


@dataclass(frozen=True, slots=True)
class Knock:
    loud: bool

    def __str__(self):
        return "knock" if self.loud else "keep quiet"


class KnockStep(Step):
    """Made up: before the first card each defender knocks or keeps quiet (listed first)."""

    name, at = "knock", "first_card"

    def begins(self, deal) -> bool:
        return deal.declarer is not None

    def enter(self, deal) -> None:
        self.take_turns(deal, [s for s in range(3) if s != deal.declarer])

    def legal(self, deal):
        return (Knock(False), Knock(True))

    def apply(self, deal, action) -> None:
        if not isinstance(action, Knock):
            raise InputError(f"{action} is not possible now")
        if not self.next_turn(deal):
            deal.end_step()


class KnockPlugin:
    @hookimpl
    def skat_register_steps(self):
        return [KnockStep()]


def decisions(rules, deals: int, seed: int) -> list:
    out = []
    for i in range(deals):
        hands, skat, seeds = seeded_deal(seed, i)
        deal = play(rules, hands, skat, [HeuristicPlayer(rules, s) for s in seeds])
        out.append([(s, "turn up" if a == PEEK else str(a)) for s, a in deal.history])
    return out


def test_a_renamed_turn_up_step_is_played_the_same():
    ruleset = load_ruleset("tournee")
    specs = tuple(replace(p, factory=PeekTournee, origin="test") if p.key == "tournee" else p for p in ruleset.plugins)
    renamed = compile_rules(replace(ruleset, plugins=specs))
    assert renamed.step("turn-up") is None and renamed.step("peek") is not None
    original = decisions(get_rules("tournee"), 150, seed=5)
    assert decisions(renamed, 150, seed=5) == original
    assert sum(("turn up" in str(moves)) for moves in original) >= 10  # the offer is taken, not only refused


def test_turn_up_outlooks_are_every_unseen_card_kept_as_trump():
    rules = get_rules("tournee")
    step = rules.step("turn-up")
    hand = sum(1 << parse_card(c) for c in ("CJ", "SJ", "HA", "HT", "HK", "HQ", "H9", "SA", "D7", "C8"))
    (offer, outlooks), = step.outlooks(rules, hand).items()
    assert offer == TURN_UP
    assert [o.card for o in outlooks] == list(cards_in(rules.deck.mask & ~hand))  # the 22 cards it cannot see
    by_card = {CARD_NAMES[o.card]: o for o in outlooks}
    assert by_card["HJ"] == Outlook(parse_card("HJ"), (Declaration("hearts", declarations={KEY: "first"}),
                                                       Declaration("grand", declarations={KEY: "first"})))
    assert [d.game for d in by_card["D9"].declarations] == ["diamonds"]


def test_the_turned_cards_contracts_are_declarable_while_discarding():
    rules = get_rules("tournee")
    rest = [c for c in CARD_NAMES if c not in ("HA", "SJ")]
    deal = Deal(rules, [[parse_card(c) for c in rest[k:k + 10]] for k in (0, 10, 20)], [parse_card("HA"), parse_card("SJ")])
    deal.set_declarer(0, 10)
    deal.apply(TURN_UP)
    assert deal.view(0).declarable == ()  # which card is not known yet
    deal.apply(FIRST_CARD)
    assert deal.phase is Phase.DISCARD
    assert deal.view(0).declarable == (Declaration("hearts", declarations={KEY: "first"}),)


def test_a_step_the_player_cannot_judge_gets_its_first_action():
    rules = compile_with("official", plugins={"knock": KnockPlugin})
    knocks = [a for moves in decisions(rules, 60, seed=7) for _, a in moves if "knock" in a or "quiet" in a]
    assert knocks and set(knocks) == {"keep quiet"}


def test_after_all_pushed_a_grand_is_declared_only_when_judged_worth_it():
    # Petersen's Ramse: after the pushes each player may declare a grand hand or pass;
    # a declaration is never the heuristic's default (it used to declare in every all-passed deal)
    rules = get_rules("danish-petersen")
    after_pushes = []
    for i in range(150):
        hands, skat, seeds = seeded_deal(3, i)
        deal = play(rules, hands, skat, [HeuristicPlayer(rules, s) for s in seeds])
        if deal.bid == 0:
            after_pushes.append(deal.contract.declarer)
    assert after_pushes.count(False) > len(after_pushes) // 2  # mostly played as the Ramse
