"""A made-up flow step, added by a plugin with zero core edits: before the
first trick each defender in turn may swap one card with the skat, taking
the skat card at a position unseen ("swap").  It must work live (legal
actions, what each seat sees), from a deal record (replay), and in random
play of many deals."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from skatcore.cards import cards_in, name, parse_card
from skatcore.engine.deal import PICK_UP, PLAY_HAND, UNSEEN, Deal, Declare, Phase, deal_cards
from skatcore.engine.steps import Step
from skatcore.errors import InputError
from skatcore.hookspecs import hookimpl
from skatcore.model import SEATS, Declaration
from skatcore.records.deal import score_record
from skatcore.records.writer import deal_record
from skatcore.testing import compile_with, play_random


@dataclass(frozen=True, slots=True)
class Swap:
    give: int  # the card put into the skat
    take: int  # the position (0, 1) of the skat card taken, unseen

    def __str__(self):
        return f"swap {name(self.give)} for skat card {self.take + 1}"


@dataclass(frozen=True, slots=True)
class Keep:
    def __str__(self):
        return "keep"


KEEP = Keep()


class SkatSwap(Step):
    name = "swap"
    at = "first_card"
    description = "before the first trick each defender may swap one card with the skat"

    def begins(self, deal) -> bool:
        return deal.declarer is not None and bool(deal.skat)

    def enter(self, deal) -> None:
        self.take_turns(deal, [s for s in range(3) if s != deal.declarer])  # defenders still to choose
        deal.marks["swapped"] = ()

    def legal(self, deal):
        return [KEEP, *(Swap(c, i) for c in cards_in(deal.hands[deal.to_move]) for i in (0, 1))]

    def actions(self, rules):  # every action legal may offer (skatcore.env numbers them)
        return [KEEP, *(Swap(c, i) for c in rules.deck.cards for i in (0, 1))]

    def apply(self, deal, action) -> None:
        seat = deal.to_move
        if isinstance(action, Swap):
            if not deal.hands[seat] >> action.give & 1 or action.take not in (0, 1):
                raise InputError(f"{SEATS[seat]} cannot {action}")
            took = list(cards_in(deal.skat))[action.take]
            moved = 1 << action.give | 1 << took
            deal.hands[seat] ^= moved
            deal.skat ^= moved
            deal.marks["swapped"] = (*deal.marks["swapped"], seat)  # that one swapped is public, the cards are not
        elif action != KEEP:
            raise InputError(f"{action} is not possible now ({SEATS[seat]} to swap or keep)")
        if not self.next_turn(deal):
            deal.end_step()

    def hides(self, action) -> bool:
        return isinstance(action, Swap)

    def replay(self, deal, record):
        from skatcore.records.deal import apply_at

        entries = (record["game"].get("steps") or {}).get(self.name, [])
        for i, entry in enumerate(entries):
            where = f"game.steps.{self.name}[{i}]"
            if deal.step is not self:
                raise InputError("both defenders have chosen already", path=where)
            apply_at(deal, KEEP if entry == "keep" else Swap(parse_card(entry[0]), entry[1]), where)
        if deal.step is self:
            raise InputError(f"give each defender's choice ({len(entries)} of 2 given)", path=f"game.steps.{self.name}")
        return None

    def record(self, deal):
        """The reverse of :meth:`replay`: each defender's choice, in turn."""
        done = ["keep" if a == KEEP else [name(a.give), a.take] for _, a in deal.history if isinstance(a, (Swap, Keep))]
        return {"game": {"steps": {self.name: done}}} if done else {}


class SwapPlugin:
    @hookimpl
    def skat_register_steps(self):
        return [SkatSwap()]


@pytest.fixture(scope="module")
def rules():
    return compile_with("official", plugins={"swap": SwapPlugin})


def declared(rules, seed=3) -> Deal:
    """Forehand plays a hand grand: the swap comes next."""
    deal = Deal(rules, *deal_cards(seed))
    deal.set_declarer(0, 18)
    deal.apply(PLAY_HAND)
    deal.apply(Declare(Declaration("grand", hand=True)))
    return deal


def test_the_step_runs_before_the_first_trick_with_its_legal_actions(rules):
    assert [s.name for s in rules.steps_at["first_card"]] == ["swap"]
    deal = declared(rules)
    assert deal.phase is Phase.STEP and deal.step.name == "swap" and deal.to_move == 1
    legal = deal.legal_actions()
    assert legal[0] == KEEP and len(legal) == 1 + 2 * 10  # keep, or any card for either skat card
    skat_before = deal.skat
    give = next(cards_in(deal.hands[1]))
    deal.apply(Swap(give, 1))
    took = list(cards_in(skat_before))[1]
    assert deal.hands[1] >> took & 1 and not deal.hands[1] >> give & 1 and deal.skat >> give & 1
    assert deal.to_move == 2 and deal.phase is Phase.STEP
    with pytest.raises(InputError, match="to swap or keep"):
        deal.apply(PICK_UP)
    deal.apply(KEEP)
    assert deal.phase is Phase.PLAY and deal.step is None and deal.to_move == 0
    assert deal.marks["swapped"] == (1,)


def test_seat_views_show_the_step_and_hide_the_swapped_cards(rules):
    deal = declared(rules)
    view = deal.view(1)
    assert view.step == "swap" and view.phase is Phase.STEP and view.legal[0] == KEEP
    deal.apply(Swap(next(cards_in(deal.hands[1])), 0))
    mine, theirs = deal.view(1), deal.view(2)
    assert isinstance(mine.history[-1][1], Swap)  # the swapper sees their own swap
    assert theirs.history[-1] == (1, UNSEEN)  # the others see that a card went, not which
    assert theirs.marks["swapped"] == (1,) and theirs.legal[0] == KEEP


def test_no_swap_without_a_declarer_or_where_the_ruleset_lacks_the_plugin():
    plain = Deal(compile_with("official"), *deal_cards(3))
    plain.set_declarer(0, 18)
    plain.apply(PLAY_HAND)
    plain.apply(Declare(Declaration("grand", hand=True)))
    assert plain.phase is Phase.PLAY and plain.step is None


def random_declarer_deal(rules, rng) -> Deal:
    deal = Deal(rules, *deal_cards(rng))
    deal.set_declarer(rng.randrange(3), 18)
    while not deal.done:
        actions = deal.legal_actions()
        if deal.phase is Phase.DECLARE:  # a game that is not lost at once by its value
            actions = [a for a in actions if not a.declaration.ouvert] or actions
        deal.apply(actions[rng.randrange(len(actions))])
    return deal


def test_a_record_replays_through_the_same_step(rules):
    rng = random.Random(5)
    swapped = 0
    for _ in range(60):
        deal = random_declarer_deal(rules, rng)
        rec = deal_record(deal)
        swapped += sum(1 for e in rec["game"].get("steps", {}).get("swap", []) if e != "keep")
        assert score_record(rec, rules).to_json() == deal.result().to_json()
    assert swapped > 30


def test_a_record_that_skips_a_defender_or_swaps_a_card_not_held(rules):
    deal = random_declarer_deal(rules, random.Random(9))
    rec = deal_record(deal)
    rec["game"]["steps"] = {"swap": ["keep"]}
    with pytest.raises(InputError, match="give each defender's choice") as err:
        score_record(rec, rules)
    assert err.value.path == "game.steps.swap"
    held = {name(c) for c in deal.dealt[deal.declarer]}
    rec["game"]["steps"] = {"swap": [[sorted(held)[0], 0], "keep"]}  # the declarer's card: no defender holds it
    with pytest.raises(InputError, match="cannot swap") as err:
        score_record(rec, rules)
    assert err.value.path == "game.steps.swap[0]"


def test_random_play_of_many_deals(rules):
    deals = play_random(rules, seed=11, deals=300)
    assert all(d.done for d in deals)
    played = [d for d in deals if d.declarer is not None]
    assert played and all(any(isinstance(a, (Swap, Keep)) for _, a in d.history) for d in played if d.tricks)
    assert sum(len(d.marks.get("swapped", ())) for d in deals) > 100
    for d in deals:  # every card is still in exactly one place
        tricks = sum(1 << c for t in d.tricks for c in t.cards)
        assert (tricks | d.skat | d.hands[0] | d.hands[1] | d.hands[2]).bit_count() == 32
