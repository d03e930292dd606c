"""Property tests of the official rules: random seeded deals driven through
:class:`skatcore.engine.deal.Deal` by random legal actions, and random summary
records.  The invariants are checked against facts computed here from card
names and docs/rules/official.md, not against the engine's own tables."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatcore.cards import CARD_NAMES
from skatcore.engine.deal import Bid, Deal, Hold, Pass, Phase, deal_cards
from skatcore.errors import InputError
from skatcore.records.deal import points_possible, score_record
from skatcore.rules.compiler import get_rules

RULES = get_rules("official")
SETTINGS = settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])

# -- docs/rules/official.md, restated independently of the engine --------------------

POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}          # A2
SUIT_BASE = {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12}                     # A6
TRUMP_LETTER = {"diamonds": "D", "hearts": "H", "spades": "S", "clubs": "C"}
GRAND_BASE = 24
NULL_VALUES = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}
JACK_ORDER = ["CJ", "SJ", "HJ", "DJ"]                                                    # A3
PLAIN_ORDER = "ATKQ987"       # suit and grand, non-trumps and the trump suit below the jacks
NULL_ORDER = "AKQJT987"
MAX_STEPS = 300               # bidding <= 2 x ladder + 3, skat/discard/declare 3, play 30


def reachable_values() -> set[int]:
    """Every value some official contract can reach (A6): suit base x 2..18
    (1..11 matadors + game + hand, schneider, announced, schwarz, announced,
    ouvert), grand 24 x 2..11 (1..4 matadors + game + the same 6), the four
    null values; bids start at 18."""
    values = {b * m for b in SUIT_BASE.values() for m in range(2, 19)}
    values |= {GRAND_BASE * m for m in range(2, 12)}
    values |= set(NULL_VALUES.values())
    return {v for v in values if v >= 18}


def follow_class(card: str, game: str) -> str:
    """What a card counts as when following suit (A3, A7): in suit and grand
    games the jacks (and the trump suit) are "trump"; in null a jack is a
    card of its printed suit."""
    suit, rank = card[0], card[1]
    if game == "null":
        return suit
    if rank == "J" or TRUMP_LETTER.get(game) == suit:
        return "trump"
    return suit


def trick_winner(cards: list[str], game: str) -> int:
    """Index (in play order) of the card that takes the trick (A7)."""
    led = follow_class(cards[0], game)

    def power(card: str) -> tuple[int, int]:
        cls = follow_class(card, game)
        if game == "null":
            return (1, -NULL_ORDER.index(card[1])) if cls == led else (0, 0)
        if cls == "trump":
            if card[1] == "J":
                return (3, -JACK_ORDER.index(card))
            return (2, -PLAIN_ORDER.index(card[1]))
        return (1, -PLAIN_ORDER.index(card[1])) if cls == led else (0, 0)

    powers = [power(c) for c in cards]
    return powers.index(max(powers))


# -- a random player ---------------------------------------------------------


def choose(deal: Deal, actions: list, rng: random.Random):
    """A random legal action, biased so that bidding ends at realistic
    values (and sometimes with all passing)."""
    if deal.phase is Phase.BIDDING:
        bids = [a for a in actions if isinstance(a, Bid)]
        if any(isinstance(a, Hold) for a in actions):
            wanted = Hold if rng.random() < 0.6 else Pass
            return next(a for a in actions if isinstance(a, wanted))
        if bids and rng.random() < 0.65:
            return rng.choice(bids[:3])
        return next(a for a in actions if isinstance(a, Pass))
    return rng.choice(actions)


def play_random(rng: random.Random) -> Deal:
    hands, skat = deal_cards(rng.randrange(2**32))
    deal = Deal(RULES, hands, skat)
    steps = 0
    while not deal.done:
        steps += 1
        assert steps <= MAX_STEPS, f"deal not finished after {MAX_STEPS} actions"
        actions = deal.legal_actions()
        assert actions, f"no legal action in phase {deal.phase}"
        deal.apply(choose(deal, actions, rng))
    return deal


def names(cards) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


# -- properties of played deals ------------------------------------------------


@SETTINGS
@given(st.randoms(use_true_random=False))
def test_random_legal_play_completes(rng):
    deal = play_random(rng)
    if deal.declarer is None:  # all passed: thrown in
        assert deal.tricks == [] and deal.result().score == 0
        return
    tricks = deal.tricks
    assert all(len(t.cards) == 3 and t.winner is not None for t in tricks)
    if deal.contract.family == "null" and tricks[-1].winner == deal.declarer:
        assert len(tricks) <= 10
        assert all(t.winner != deal.declarer for t in tricks[:-1]), "null went on after the declarer took a trick"
    else:
        assert len(tricks) == 10
        assert all(h == 0 for h in deal.hands)
    deal.result()


@SETTINGS
@given(st.randoms(use_true_random=False))
def test_follow_suit_and_trick_winners(rng):
    """Replay the tricks on hands tracked here; every card followed the led
    class whenever its player could, and each trick went to the card RULES
    A7 says (both judged from card names only)."""
    deal = play_random(rng)
    if deal.declarer is None:
        return
    game = deal.declaration.game
    held = [set(names(h)) for h in deal.dealt]
    if deal.picked_up:
        held[deal.declarer] |= set(names(deal.original_skat))
        held[deal.declarer] -= set(names(deal.discard))
    assert all(len(h) == 10 for h in held)
    leader = 0  # A7: forehand leads to the first trick
    for n, trick in enumerate(deal.tricks):
        assert trick.leader == leader, f"trick {n + 1} led by the wrong seat"
        cards = names(trick.cards)
        led = follow_class(cards[0], game)
        for i, card in enumerate(cards):
            seat = (leader + i) % 3
            assert card in held[seat], f"trick {n + 1}: seat {seat} played {card} it did not hold"
            could = {c for c in held[seat] if follow_class(c, game) == led}
            if i and could:
                assert follow_class(card, game) == led, (
                    f"{game} trick {n + 1}: {card} on {cards[0]} while holding {sorted(could)}")
            held[seat].discard(card)
        winner = (leader + trick_winner(cards, game)) % 3
        assert trick.winner == winner, f"{game} trick {cards}: docs/rules/official.md#a7 gives seat {winner}, engine {trick.winner}"
        leader = winner


@SETTINGS
@given(st.randoms(use_true_random=False))
def test_card_points_sum_to_120(rng):
    deal = play_random(rng)
    if deal.declarer is None or deal.contract.family == "null":
        return
    assert len(deal.tricks) == 10
    in_tricks = sum(POINTS[c[1]] for t in deal.tricks for c in names(t.cards))
    in_skat = sum(POINTS[c[1]] for c in names(c for c in range(32) if deal.skat >> c & 1))
    assert in_tricks + in_skat == 120
    assert sum(deal.trick_points) == in_tricks
    declarer_tricks = sum(POINTS[c[1]] for t in deal.tricks if t.winner == deal.declarer for c in names(t.cards))
    assert deal.result().declarer_points == declarer_tricks + in_skat


@SETTINGS
@given(st.randoms(use_true_random=False))
def test_scores_of_played_deals(rng):
    deal = play_random(rng)
    if deal.declarer is None:
        return
    check_score(deal.result(), deal.bid)


def check_score(result, bid):
    """A won game's value is never below 18 nor below the bid; a lost
    game's score is negative and even (A8: losses count double)."""
    if result.won:
        assert result.value >= 18
        assert result.value >= bid
        assert result.score == result.value
    else:
        assert result.score < 0
        assert result.score % 2 == 0
    assert result.value in reachable_values()


# -- the bid ladder ------------------------------------------------------------


def test_ladder_is_exactly_the_reachable_values():
    expected = reachable_values()
    ladder = set(RULES.ladder)
    assert ladder == expected, (f"missing from the ladder: {sorted(expected - ladder)}; "
                                f"not reachable: {sorted(ladder - expected)}")
    assert list(RULES.ladder) == sorted(RULES.ladder)
    assert RULES.ladder[:12] == (18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44)  # A4's ladder


GAMES = ["diamonds", "hearts", "spades", "clubs", "grand", "null"]


@st.composite
def summary_records(draw):
    """A score-sheet summary of any official contract with any outcome."""
    game = draw(st.sampled_from(GAMES))
    hand = draw(st.booleans())
    record = {"format": "skat-deal/1", "declarer": draw(st.sampled_from(["forehand", "middlehand", "rearhand"])),
              "bid": draw(st.sampled_from(RULES.ladder[:30])), "game": {"type": game, "hand": hand}}
    if game == "null":
        record["game"]["ouvert"] = draw(st.booleans())
        record["outcome"] = {"declarer_tricks": draw(st.integers(0, 10))}
        return record
    if hand:
        announce = draw(st.sampled_from([(), ("schneider",), ("schneider", "schwarz"), ("ouvert",)]))
        record["game"].update({a: True for a in announce})
    top = 4 if game == "grand" else 11
    mats = draw(st.integers(1, top))
    tricks = draw(st.integers(0, 10))
    # points the tricks and the skat can hold: 0-22 for none, 120 for all (feasibility from the deck)
    points = draw(st.integers(*points_possible(RULES, RULES.contracts[game], 3 * tricks + 2)))
    record["outcome"] = {"declarer_points": points, "declarer_tricks": tricks,
                         "matadors": {draw(st.sampled_from(["with", "without"])): mats}}
    return record


@SETTINGS
@given(summary_records())
def test_every_value_any_contract_reaches_is_on_the_ladder(record):
    try:
        result = score_record(record, RULES)
    except InputError as exc:  # only a null below the bid may be refused (A5)
        assert record["game"]["type"] == "null" and "below the bid" in str(exc)
        return
    assert result.value in RULES.ladder
    assert result.value in reachable_values()
    check_score(result, record["bid"])
