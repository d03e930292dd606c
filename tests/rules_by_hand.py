"""docs/rules/ restated from card names, for the plugin tests: trick winners and
scores of Ramsch (B3, B4) and of the Texas all-pass Ramsch (B9, B10), a random
legal player, and a deal record scored through the command line."""

from __future__ import annotations

import copy
import random

import yaml

from skatcore.cards import CARD_NAMES, parse_card
from skatcore.cli.main import main
from skatcore.engine.deal import PASS, Bid, Deal, Hold, Phase, deal_cards
from skatcore.model import SEATS

# -- docs/rules/, restated from card names ----------------------------------------

POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}   # A2
JACKS = ["CJ", "SJ", "HJ", "DJ"]
PLAIN = "ATKQ987"                                                               # grand order (B3: Ramsch)


def names(cards) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def cards(*text: str) -> list[int]:
    return [parse_card(t) for t in text]


def ramsch_winner(trick: list[str]) -> int:
    """Index in play order of the card that takes a Ramsch trick: jacks are
    the only trumps (CJ SJ HJ DJ), else the highest card of the led suit."""
    def power(card):
        if card[1] == "J":
            return (2, -JACKS.index(card))
        led = trick[0]
        if led[1] != "J" and card[0] == led[0]:
            return (1, -PLAIN.index(card[1]))
        return (0, 0)
    powers = [power(c) for c in trick]
    return powers.index(max(powers))


def augen_scores(points: list[int], tricks: list[int], blind: int) -> dict[str, int]:
    """B3/B4 with the ramsch/schieberamsch defaults: Durchmarsch +120; else
    the most points lose them (ties in full, three-way none), doubled per
    Jungfrau; each blind push doubles."""
    entries = {}
    if 10 in tricks:
        entries = {tricks.index(10): 120}
    else:
        top = max(points)
        losers = [s for s in range(3) if points[s] == top]
        if len(losers) < 3:
            loss = top * 2 ** tricks.count(0)
            entries = {s: -loss for s in losers}
    return {SEATS[s]: entries.get(s, 0) * 2 ** blind for s in range(3)}


def texas_scores(points: list[int], tricks: list[int], last: int) -> dict[str, int]:
    """B9/B10 all pass: two without a trick -> the third -30; one without a
    trick +20; else the fewest +10 (tie: the tied one without the last trick,
    the senior if neither took it; 40-40-40: forehand)."""
    virgins = [s for s in range(3) if tricks[s] == 0]
    if len(virgins) == 2:
        entries = {next(s for s in range(3) if s not in virgins): -30}
    elif len(virgins) == 1:
        entries = {virgins[0]: 20}
    else:
        low = min(points)
        tied = [s for s in range(3) if points[s] == low]
        if len(tied) == 3:
            entries = {0: 10}
        elif len(tied) == 2:
            entries = {next(s for s in tied if s != last): 10}
        else:
            entries = {tied[0]: 10}
    return {SEATS[s]: entries.get(s, 0) for s in range(3)}


# -- a random player -----------------------------------------------------------


def choose(deal: Deal, rng: random.Random):
    actions = deal.legal_actions()
    assert len(actions), f"no legal action in phase {deal.phase}"
    if deal.phase is Phase.BIDDING:
        actions = list(actions)
        if any(isinstance(a, Hold) for a in actions):
            wanted = Hold if rng.random() < 0.5 else type(PASS)
            return next(a for a in actions if isinstance(a, wanted))
        bids = [a for a in actions if isinstance(a, Bid)]
        if bids and rng.random() < 0.6:
            return rng.choice(bids[:3])
        return PASS
    return rng.choice(actions)


def play_random(rules, rng: random.Random) -> Deal:
    hands, skat = deal_cards(rng.randrange(2**32))
    deal = Deal(rules, hands, skat)
    for _ in range(400):
        if deal.done:
            return deal
        deal.apply(choose(deal, rng))
    raise AssertionError("the deal did not finish")


def check_ramsch_tricks(deal: Deal) -> tuple[list[int], list[int]]:
    """Trick winners and points recomputed from card names; all 32 cards
    are in the tricks or the skat and the card points add up to 120."""
    points, tricks = [0, 0, 0], [0, 0, 0]
    leader = 0
    for t in deal.tricks:
        trick = names(t.cards)
        assert t.leader == leader
        winner = (leader + ramsch_winner(trick)) % 3
        assert t.winner == winner, f"Ramsch trick {trick} goes to {SEATS[winner]}"
        points[winner] += sum(POINTS[c[1]] for c in trick)
        tricks[winner] += 1
        leader = winner
    skat = names(c for c in range(32) if deal.skat >> c & 1)
    assert len(deal.tricks) == 10 and len(skat) == 2
    assert len({*(c for t in deal.tricks for c in names(t.cards)), *skat}) == 32
    assert sum(points) + sum(POINTS[c[1]] for c in skat) == 120
    facts = deal.facts()
    assert list(facts.points) == points and list(facts.tricks) == tricks
    points[deal.tricks[-1].winner] += sum(POINTS[c[1]] for c in skat)  # skat to the last trick (default)
    return points, tricks


def score_cli(tmp_path, capsys, record: dict, *extra: str):
    path = tmp_path / "deal.yaml"
    path.write_text(yaml.safe_dump({"format": "skat-deal/1", **record}, sort_keys=False))
    rc = main(["score", *extra, str(path)])
    out, err = capsys.readouterr()
    return rc, out, err


def replace_keys(doc: dict, changes: dict) -> dict:
    """A deep copy of ``doc`` with top-level keys replaced (``None`` deletes a key)."""
    out = copy.deepcopy(doc)
    for k, v in changes.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = v
    return out
