"""Deal's short paths (issue 39: a card of a plain trick inline, bids and the
declarer's moves without the general questions, the legal cards from
tables, checked declarations kept, GameFacts built at once) against its
general paths, move by move: random action sequences, legal and not, under
every shipped ruleset, a trick hook, a 36-card deck and card points by hook
must give the same states, legal actions, views, errors, facts and results.
The reference is
:class:`Straight`: the same Deal through the general path of every move,
the legal cards computed from the card order's tables directly and the
declarer's cards counted from the tricks, as before the short paths.  The
compiled engine (a separate implementation) must also leave the same
trick points and tricks as Deal replaying its deals."""

from __future__ import annotations

import importlib.util
import random
from dataclasses import fields
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatcore.cards import cards_in, mask_of
from skatcore.engine.compiled import play_random
from skatcore.engine.deal import (
    HOLD,
    PASS,
    PICK_UP,
    PLAY_HAND,
    PLAYS,
    Bid,
    Call,
    Concede,
    Deal,
    Declare,
    Discard,
    Phase,
    deal_cards,
)
from skatcore.engine.scoring import make_facts
from skatcore.errors import InputError
from skatcore.hookspecs import hookimpl
from skatcore.model import Declaration, GameFacts
from skatcore.rules.compiler import get_rules
from skatcore.rules.ruleset import shipped_rulesets
from skatcore.testing import compile_with

SIXES = Path(__file__).parents[2] / "examples" / "sechserskat" / "src" / "skat_sechserskat" / "__init__.py"


class Straight(Deal):
    """Deal through its general paths: every move by ``_apply_other``, the
    legal cards from the trick table, no trick inline, no checked
    declaration kept, the declarer's cards walked trick by trick."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._quick = self._fast3 = False

    def play_only(self, seats) -> None:
        super().play_only(seats)
        self._quick = self._fast3 = False

    def legal_actions(self):
        if self.phase is Phase.PLAY:
            return tuple(PLAYS[c] for c in cards_in(self._playable()))
        if self.phase is Phase.DECLARE and self.step is None:
            return tuple(Declare(d) for d in self._declarations())
        return super().legal_actions()

    def _playable(self) -> int:
        hand, cards, t = self.hands[self.to_move], self.tricks[-1].cards, self.table
        return hand & t.class_mask[t.follow[cards[0]]] or hand if cards else hand

    def apply(self, action) -> None:
        self._apply_other(action, self.phase, self.to_move)

    def declare(self, seat, d, route=None) -> None:
        self.declarer = seat
        self.declaration = self.rules.check_declaration(d, self.bid, route)
        self.start_play(self.declaration.game)

    def declarer_cards(self) -> int:
        held = self.hands[self.declarer]
        for trick in self.tricks:
            seat = trick.leader
            for c in trick.cards:
                held |= 1 << c if seat == self.declarer else 0
                seat = self._next[seat]
        for c in list(cards_in(held)):
            while c in self.beneath:
                c = self.beneath[c]
                held |= 1 << c
        return held | self.skat


class Abstains:
    """Implements skat_trick_winner and never answers: tricks go the hook's way."""

    @hookimpl
    def skat_trick_winner(self, cards):
        return None


def _sixes():
    spec = importlib.util.spec_from_file_location("skat_sechserskat_example", SIXES)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Sechserskat


RULES = {name: get_rules(name) for name in sorted(shipped_rulesets())}
RULES["trick hook"] = compile_with("official", plugins={"abstains": Abstains})
RULES["sechserskat"] = compile_with("official", plugins={"sechserskat": _sixes()})
RULES["card points"] = compile_with("pub", {"card_points": ("card_points", {"last_trick": 10, "skat": "last_trick"})})
SETTINGS = settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])


def state(deal: Deal) -> tuple:
    """Everything a deal shows of itself."""
    return (deal.phase, deal.to_move, deal.done, deal.declarer, deal.bid, deal.bidding_part, deal.awaiting_answer,
            deal.declaration, deal.contract, deal.picked_up, deal.route, deal.discard, list(deal.hands), deal.skat,
            [(t.leader, list(t.cards), t.winner) for t in deal.tricks], list(deal.trick_points), list(deal.tricks_won),
            list(deal.history), sorted(deal.hidden), dict(deal.marks), repr(deal.state), deal.in_play, deal.settled,
            deal.concession_by, sorted(deal.conceded), {s: list(p) for s, p in deal.piles.items()}, dict(deal.beneath),
            deal.thrown_in, deal.decided, deal.unplayed(), [deal.legal_calls(s) for s in range(3)],
            deal.step.name if deal.step else None)


def seen(deal: Deal, seat: int) -> tuple:
    """What ``seat``'s view shows."""
    v = deal.view(seat)
    return (v.phase, v.to_move, v.bid, v.declarer, v.declaration, v.hand, v.others, v.trick, v.declarer_hand, v.discard,
            v.step, dict(v.marks), list(v.declarable), list(v.legal), v.history, v.tricks)


def outcome(deal: Deal, what, *args):
    """``what(deal, *args)``, or the error it raises."""
    try:
        return what(deal, *args)
    except InputError as exc:
        return f"InputError: {exc}"


def stray(rules, deal: Deal, rng: random.Random):
    """An action drawn from all kinds, most of them not possible now."""
    d = rules.options["hand" if rng.random() < 0.5 else "pickup"]
    return rng.choice([
        PLAYS[rng.choice(rules.deck.cards)], Bid(rng.choice([*rules.ladder[:4], deal.bid, 17, 19, 1000])), HOLD, PASS, PICK_UP,
        PLAY_HAND, Discard(tuple(rng.sample(rules.deck.cards, rules.deck.skat or 2))),
        Declare(rng.choice(d)) if d else PASS, Declare(Declaration("grand", hand=True, ouvert=True)),
        Call(rng.randrange(3), rng.choice([*rules.calls, "kontra"])), Concede(rng.randrange(3)), "quiet",
    ])


def pick(deal: Deal, legal, rng: random.Random):
    """A legal action, bids kept low so that games get played and all pass now and then."""
    bids = [a for a in legal if isinstance(a, Bid)]
    if deal.phase is Phase.BIDDING and bids and rng.random() < 0.8:
        return rng.choice([*bids[:3], PASS] if PASS in legal else bids[:3])
    return legal[rng.randrange(len(legal))]


@SETTINGS
@given(st.sampled_from(sorted(RULES)), st.integers(0, 2**32), st.floats(0, 0.3))
def test_short_paths_give_what_the_general_paths_give(name, seed, strays):
    rules = RULES[name]
    cards = deal_cards(random.Random(seed), rules.deck)
    fast, slow = Deal(rules, *cards), Straight(rules, *cards)
    rng = random.Random(seed)
    if rng.random() < 0.1 and not rules.skip_bidding:  # a record that names only declarer and bid
        seat, bid = rng.randrange(3), rng.choice(rules.ladder[:5])
        assert outcome(fast, Deal.set_declarer, seat, bid) == outcome(slow, Deal.set_declarer, seat, bid)
    for _ in range(400):
        assert state(fast) == state(slow)
        if fast.done:
            break
        legal = list(fast.legal_actions())
        assert legal == list(slow.legal_actions())
        assert [seen(fast, s) for s in range(3)] == [seen(slow, s) for s in range(3)]
        calls = [c for s in range(3) for c in fast.legal_calls(s)]
        if calls and rng.random() < 0.1:
            action = rng.choice(calls)
        elif fast.decided and rng.random() < 0.3:
            assert outcome(fast, Deal.end_decided) == outcome(slow, Deal.end_decided)
            continue
        else:
            action = stray(rules, fast, rng) if rng.random() < strays else pick(fast, legal, rng)
        assert outcome(fast, Deal.apply, action) == outcome(slow, Straight.apply, action), action
    assert fast.done, "the deal ran out of moves"
    assert outcome(fast, Deal.facts) == outcome(slow, Deal.facts)
    assert outcome(fast, Deal.result) == outcome(slow, Deal.result)
    assert state(fast) == state(slow)


@settings(deadline=None, max_examples=10)
@given(st.sampled_from(["official", "texas", "ramsch"]), st.integers(0, 2**31))
def test_deal_replays_the_compiled_engines_tricks(name, seed):
    """The compiled engine plays its random deals; Deal replaying them (through
    its short paths) takes the same tricks with the same points."""
    rules = RULES[name]
    out = play_random(rules, 40, seed, keep=True)
    for i in range(len(out)):
        deal = out.replay(i)
        assert deal.done
        assert (deal.trick_points, deal.tricks_won) == (out.trick_points[i].tolist(), out.tricks_won[i].tolist())
        if deal.declarer is not None:
            assert deal.declarer_cards() == Straight.declarer_cards(deal)
            assert deal.result().score == out.score[i]


@SETTINGS
@given(st.integers(0, 2**32))
def test_the_deal_is_dealt_as_before(seed):
    """deal_cards shuffles by random keys as it always did: the same seed, the same deal."""
    rng, r = random.Random(seed), random.Random(seed).random
    cards = sorted(range(32), key=lambda _: r())
    packets = [[*cards[3 * s:3 * s + 3], *cards[11 + 4 * s:15 + 4 * s], *cards[23 + 3 * s:26 + 3 * s]] for s in range(3)]
    assert deal_cards(rng) == (packets, cards[9:11])
    assert rng.random() == r()  # and leaves the generator where it was left


@SETTINGS
@given(st.integers(0, 120), st.integers(-1, 10), st.integers(-1, 10), st.integers(-11, 11), st.integers(18, 264))
def test_game_facts_are_built_as_their_constructor_builds_them(points, dtricks, ftricks, matadors, bid):
    rules = RULES["texas"]
    contract, d = rules.contracts["grand"], Declaration("grand", hand=True)
    facts = make_facts(rules, contract, d, bid=bid, declarer=1, matadors=matadors, declarer_points=points,
                       declarer_tricks=None if dtricks < 0 else dtricks, defender_tricks=None if ftricks < 0 else ftricks,
                       last_trick=(1, 2, 3), last_trick_winner=2, skat=(4, 5))
    th = rules.thresholds
    assert facts == GameFacts(contract, d, bid, 1, matadors, points, dtricks, ftricks, made_points=points >= th.win,
                              defenders_schneider=points >= th.schneider, declarer_schneider=points < th.out_of_schneider,
                              defenders_schwarz=ftricks == 0, declarer_schwarz=dtricks == 0, last_trick=(1, 2, 3),
                              last_trick_winner=2, raw_points=points, thresholds=th, skat=(4, 5))
    assert list(vars(facts)) == [f.name for f in fields(GameFacts)]


@pytest.mark.parametrize("name", ["official", "sechserskat"])
def test_legal_cards_are_the_hands_cards_that_may_be_played(name):
    """The legal plays from the tables, against the hand's cards filtered by hand."""
    rules = RULES[name]
    rng = random.Random(5)
    for _ in range(50):
        deal = Deal(rules, *deal_cards(rng, rules.deck))
        while not deal.done:
            legal = deal.legal_actions()
            if deal.phase is Phase.PLAY:
                hand, cards = deal.hands[deal.to_move], deal.tricks[-1].cards
                follow = [c for c in cards_in(hand) if cards and deal.table.follow[c] == deal.table.follow[cards[0]]]
                assert mask_of(a.card for a in legal) == (mask_of(follow) or hand)
            deal.apply(pick(deal, list(legal), rng))


def test_a_declaration_checked_once_is_checked_again_at_another_bid():
    """A null offered at 18 is kept as checked for 18 only: declared over a
    bid above its value (a record may say so) it is refused, as ever."""
    rules = RULES["official"]
    hands, skat = deal_cards(7)
    low = Deal(rules, hands, skat)
    low.set_declarer(0, 18)
    low.apply(PLAY_HAND)
    null = next(a for a in low.legal_actions() if a.declaration.game == "null")
    low.apply(null)
    for deal in (Deal(rules, hands, skat), Straight(rules, hands, skat)):
        deal.set_declarer(0, 48)
        deal.apply(PLAY_HAND)
        with pytest.raises(InputError, match="below the bid 48"):
            deal.apply(null)
