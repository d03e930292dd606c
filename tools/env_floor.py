"""How fast could a PettingZoo environment of Skat be in Python at all?

``skat bench`` puts the environment (skatcore.env.skat_v0) beside OpenSpiel's
skat through its Python API and beside ``NullDeal``, PettingZoo's loop with
no game behind it.  This tool puts two cheaper games behind that loop, both
on plain ints, written for a plain ruleset alone (three seats, no steps, no
table calls, no house rules reading the play, all passed thrown in):

* ``card_play_floor`` (:class:`CardPlayOnly`): the card play alone - 30 decisions and the three closing
  steps, each card checked, played and its trick taken; no bidding, skat,
  declaration or score; the hands dealt before any timing.
* ``whole_deal_floor`` (:class:`WholeDeal`): the whole deal as the environment runs it - the bidding,
  picking up or playing hand, the discard card by card, the declaration,
  the ten tricks - scored by the ruleset (``GameFacts`` and ``rules.score``,
  as ``Deal`` scores); the seeded deals of ``skat simulate``.  The same
  agents, legal indices, rewards and infos as the environment, deal by deal
  (``tests/sim/test_env_speed.py``), without ``Deal``: what an environment
  costs that keeps its own state for one ruleset family.  Beside it
  ``whole_deal_unscored``, the same deals ending as if thrown in: what the
  scoring costs.

    python tools/env_floor.py --seconds 3 --turns 3

Prints, per CPU second: OpenSpiel's random deals, the null protocol's, the
two floors' and the environment's, each timed by turns in one run (the
median of the turns), and their ratios to OpenSpiel's.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections.abc import Callable

from skatcore.engine.actions import HOLD, PASS, PICK_UP, PLAY_HAND, Bid, Declare
from skatcore.engine.deal import PACKETS
from skatcore.engine.layout import layout
from skatcore.engine.scoring import make_facts, passed_result
from skatcore.env import skat_v0
from skatcore.env.rewards import deal_rewards
from skatcore.errors import InputError
from skatcore.model import STANDARD_DECK, Trick
from skatcore.rules import get_rules
from skatcore.sim.dealing import seeded_decks
from skatcore.sim.env_speed import NullDeal, agent_loop, env_deal_loop
from skatcore.sim.speed import openspiel_deal_loop, timed

NAMES = ("player_0", "player_1", "player_2")
BIDDING, SKAT, DISCARD, DECLARE, PLAY, DONE = range(6)
_new = object.__new__


def plain(rules) -> None:
    """InputError unless ``rules`` is a ruleset the floors play: see the module docs."""
    why = ("a deck other than the 32 cards" if rules.deck is not STANDARD_DECK and rules.deck != STANDARD_DECK
           else "seats not played from their own hand" if not rules.table.plain
           else "table calls" if rules.calls
           else "flow steps" if rules.steps
           else "a trick rule or card points of a house rule" if rules.trick_hook or rules.card_points
           else f"all passed plays {rules.all_pass}" if rules.all_pass != "throw_in" else None)
    if why:
        raise InputError(f"ruleset {rules.name}: the floors play plain rulesets only, not one with {why}")


def hand_masks(deck: list[int]) -> list[int]:
    """The three hands of a deck in dealing order, as masks."""
    return [sum(1 << deck[k] for k in packet) for packet in PACKETS]


class Tricks:
    """The card play both floors share: ``hands``, the trick's ``cards``, its
    ``leader``, ``to_move``, the contract's ``strength`` and ``points``, the
    ``tricks`` so far, ``trick_points`` and ``taken`` per seat."""

    def play_card(self, card: int) -> bool:
        """``to_move`` plays ``card`` (legal: the caller checked); True when the play is over."""
        seat = self.to_move
        self.hands[seat] ^= 1 << card
        cards = self.cards
        cards.append(card)
        if len(cards) < 3:
            self.to_move = (seat + 1) % 3
            self.agent_selection = NAMES[self.to_move]
            return False
        a, b, d = cards
        s = self.strength[a]
        x, y, z = s[a], s[b], s[d]
        w = (self.leader + (0 if x > y and x > z else 1 if y > z else 2)) % 3
        pts = self.points
        self.trick_points[w] += pts[a] + pts[b] + pts[d]
        self.taken[w] += 1
        trick = _new(Trick)  # as Deal makes its tricks, without the dataclass's __init__
        trick.leader, trick.cards, trick.winner = self.leader, cards, w
        self.tricks.append(trick)
        if len(self.tricks) == 10 or (self.no_trick and w == self.declarer):
            return True
        self.cards = []
        self.leader = self.to_move = w
        self.agent_selection = NAMES[w]
        return False


class CardPlayOnly(Tricks, NullDeal):
    """The card play of a deal behind PettingZoo's protocol (see the module
    docs): the null deal's agents, ``agent_iter``, ``last`` and closing
    steps; each deal one of the ruleset's contracts in turn, forehand leading."""

    def __init__(self, ruleset: str = "official", seed: int = 1) -> None:
        super().__init__()
        rules = get_rules(ruleset)
        plain(rules)
        self.games = list(layout(rules).games.values())
        self.deals = [hand_masks(deck) for deck in seeded_decks(seed, 0, 4096).tolist()]
        self.i = 0
        self.cards: list[int] = []
        self.no_trick, self.declarer = False, 0  # ten tricks whoever takes them

    def reset(self) -> None:
        super().reset()
        self.hands = self.deals[self.i % len(self.deals)][:]
        _, self.table, self.follow, self.strength, self.points, _ = self.games[self.i % len(self.games)]
        self.i += 1
        self.cards, self.tricks, self.leader, self.to_move = [], [], 0, 0
        self.trick_points, self.taken = [0, 0, 0], [0, 0, 0]
        self.agent_selection = NAMES[0]

    def legal_actions(self) -> tuple[int, ...]:
        hand = self.hands[self.to_move]
        if self.cards:
            hand = hand & self.follow[self.cards[0]] or hand
        self.legal = legal = _LOW[hand & 2047] + _MID[hand >> 11 & 2047] + _HIGH[hand >> 22]
        return legal

    def step(self, action: int | None) -> None:
        if action is None:
            super().step(None)  # a closing step
            return
        if action not in self.legal:
            raise ValueError(f"card {action} is not legal now")
        self.stepped = True
        if self.play_card(action):
            self.terminations = dict.fromkeys(self.agents, True)


def _table(low: int, offset: int = 0) -> list[tuple[int, ...]]:
    """11 bits of a mask from card ``low`` on -> their cards + ``offset`` (three lookups list a hand)."""
    return [tuple(offset + low + b for b in range(11) if m >> b & 1 and low + b < 32) for m in range(2048)]


_LOW, _MID, _HIGH = _table(0), _table(11), _table(22)


class WholeDeal(Tricks, skat_v0.raw_env):
    """The environment with its ``Deal`` replaced by ints for a plain ruleset
    (see the module docs): the same action indices, agents, rewards and
    infos; ``reset`` takes no options.  A measurement, not an environment:
    no observation, no rendering, an illegal action raises."""

    def __init__(self, ruleset: str = "official", scored: bool = True) -> None:
        super().__init__(ruleset=ruleset)
        rules, cat = self.rules, self.catalogue
        self.scored = scored  # False: every deal ends as if thrown in (what the scoring costs, by difference)
        plain(rules)
        lay = self.layout = layout(rules)
        self.hold, self.pass_, self.pick_up, self.play_hand = (cat.index(a) for a in (HOLD, PASS, PICK_UP, PLAY_HAND))
        self.bid_of = {cat.index(Bid(v)): v for v in rules.ladder}
        self.bids = {b: tuple(cat.index(a) for a in lay.bids.get(b) or ()) for b in (0, *rules.ladder)}
        self.alone = tuple(cat.index(a) for a in lay.alone)
        self.plays = [_table(lo, cat.play_base) for lo in (0, 11, 22)]
        self.put_aways = [_table(lo, cat.put_away_base) for lo in (0, 11, 22)]
        self.declarations: dict[tuple[str, int], tuple[int, ...]] = {}
        self.checked: dict[tuple[int, int], object] = {}

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self.seed_value is None:
            self.seed_value, self.deal_index = int(seed or 0), 0
        else:
            self.deal_index += 1
        deck = self.deck(self.seed_value, self.deal_index)
        self.hands = hand_masks(deck)
        self.skat = 1 << deck[9] | 1 << deck[10]
        self.phase, self.bid, self.part, self.awaiting = BIDDING, 0, 1, False
        self.asker, self.answerer, self.to_move, self.declarer = 1, 0, 1, 0
        self.chosen, self.route, self._legal = 0, "", None
        self.seat_agents()
        self.agent_selection = NAMES[1]

    def agent_iter(self, max_iter: int = 2**63):
        return skat_v0.agent_generator(self, max_iter)  # as skat_v0.env() iterates, a generator

    def legal_actions(self) -> tuple[int, ...]:
        legal = self._legal
        if legal is not None:
            return legal
        p = self.phase
        if p == PLAY:
            hand = self.hands[self.to_move]
            if self.cards:
                hand = hand & self.follow[self.cards[0]] or hand
            t = self.plays
            legal = t[0][hand & 2047] + t[1][hand >> 11 & 2047] + t[2][hand >> 22]
        elif p == BIDDING:
            legal = self.alone if self.part == 3 else (self.hold, self.pass_) if self.awaiting else self.bids[self.bid]
        elif p == SKAT:
            legal = (self.pick_up, self.play_hand)
        elif p == DISCARD:
            hand = self.hands[self.declarer] & ~self.chosen
            t = self.put_aways
            legal = t[0][hand & 2047] + t[1][hand >> 11 & 2047] + t[2][hand >> 22]
        elif p == DECLARE:
            legal = self.declarations.get((self.route, self.bid)) or self._declarations()
        else:
            legal = ()
        self._legal = legal
        return legal

    def _declarations(self) -> tuple[int, ...]:
        rules = self.rules
        got = self.declarations[self.route, self.bid] = tuple(
            self.catalogue.index(Declare(d)) for d in rules.options[self.route]
            if not rules.contracts[d.game].no_trick or rules.contracts[d.game].fixed[(d.hand, d.ouvert)] >= self.bid)
        return got

    def step(self, action) -> None:
        if self.phase == DONE:
            super().step(action)  # the closing steps
            return
        if action not in (self._legal or self.legal_actions()):
            raise ValueError(f"action {action} is not legal now")
        self.stepped, self._legal = True, None
        p = self.phase
        if p == PLAY:
            if self.play_card(action - self.catalogue.play_base):
                self._end_with(self._score() if self.scored else passed_result(self.rules))
        elif p == BIDDING:
            self._bid(action)
        elif p == SKAT:
            self.route = "pickup" if action == self.pick_up else "hand"
            if action == self.pick_up:
                self.hands[self.declarer] |= self.skat
                self.skat = 0
            self.phase = DISCARD if action == self.pick_up else DECLARE
        elif p == DISCARD:
            bit = 1 << action - self.catalogue.put_away_base
            if self.chosen:
                self.skat = self.chosen | bit
                self.hands[self.declarer] &= ~self.skat
                self.phase = DECLARE
            else:
                self.chosen = bit
        else:
            self._declare(action)

    def _bid(self, action: int) -> None:
        if self.part == 3:  # forehand alone
            if action == self.pass_:
                self._end_with(passed_result(self.rules))
                return
            self.bid = self.rules.min_bid
            self._won(0)
            return
        if self.awaiting:
            self.awaiting = False
            if action == self.pass_:
                self._part_over(self.asker)
                return
            self.to_move = self.asker
        elif action == self.pass_:
            self._part_over(self.answerer)
            return
        else:
            self.bid, self.awaiting, self.to_move = self.bid_of[action], True, self.answerer
        self.agent_selection = NAMES[self.to_move]

    def _part_over(self, survivor: int) -> None:
        if self.part == 1:
            self.part, self.asker, self.answerer, self.to_move = 2, 2, survivor, 2
        elif self.bid:
            self._won(survivor)
            return
        else:
            self.part, self.to_move = 3, 0
        self.agent_selection = NAMES[self.to_move]

    def _won(self, seat: int) -> None:
        self.declarer = self.to_move = seat
        self.phase = SKAT
        self.agent_selection = NAMES[seat]

    def _declare(self, action: int) -> None:
        key = (action, self.bid)
        d = self.checked.get(key)
        if d is None:
            d = self.checked[key] = self.rules.check_declaration(self.catalogue.action(action).declaration, self.bid)
        self.declaration = d
        self.contract, self.table, self.follow, self.strength, self.points, self.no_trick = self.layout.games[d.game]
        self.held = self.hands[self.declarer]  # what the matadors are counted from, with the skat
        self.phase, self.cards, self.tricks = PLAY, [], []
        self.trick_points, self.taken = [0, 0, 0], [0, 0, 0]
        self.leader = self.to_move = 0
        self.agent_selection = NAMES[0]

    def _score(self):
        """The result, from the facts ``Deal`` would hand to scoring."""
        decl, pts = self.declarer, self.table.points
        t = self.plays  # (play indices - play_base: the skat's cards, lowest first)
        skat = tuple(i - self.catalogue.play_base for i in t[0][self.skat & 2047] + t[1][self.skat >> 11 & 2047] + t[2][self.skat >> 22])
        last = self.tricks[-1]
        won = self.taken[decl]
        facts = make_facts(self.rules, self.contract, self.declaration, bid=self.bid, declarer=decl,
                           matadors=self.table.matadors(self.held | self.skat),
                           declarer_points=self.trick_points[decl] + sum(pts[c] for c in skat),
                           declarer_tricks=won, defender_tricks=sum(self.taken) - won, last_trick=tuple(last.cards),
                           last_trick_winner=last.winner, tricks=tuple(self.tricks), skat=skat)
        return self.rules.score(facts)

    def _end_with(self, r) -> None:
        self.phase = DONE
        names = self._names
        self.rewards = {names[s]: v for s, v in deal_rewards(r, self.persons, self.reward).items()}
        self.infos = {a: {"seat": seat, "result": r.explanation, "game": r.game} for a, seat in self._seat_names}
        self._end()



def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per loop and turn (default 3)")
    ap.add_argument("--turns", type=int, default=3, help="turns of all loops (default 3)")
    args = ap.parse_args(argv)
    import pyspiel

    null, cards, whole, unscored = NullDeal(), CardPlayOnly(), WholeDeal(), WholeDeal(scored=False)
    whole.reset(seed=1)
    unscored.reset(seed=1)
    os_deal = openspiel_deal_loop(pyspiel.load_game("skat"), random.Random(1))

    def openspiel(n: int = 100) -> int:
        for _ in range(n):
            os_deal()
        return n

    loops: dict[str, Callable[..., int]] = {
        "openspiel_python_api": openspiel,
        "null_protocol": agent_loop(null, null, random.Random(1)),
        "card_play_floor": agent_loop(cards, cards, random.Random(1)),
        "whole_deal_floor": agent_loop(whole, whole, random.Random(1)),
        "whole_deal_unscored": agent_loop(unscored, unscored, random.Random(1)),
        "env": env_deal_loop("official", random.Random(1)),
    }
    rates: dict[str, list[float]] = {k: [] for k in loops}
    for _ in range(args.turns):
        for key, loop in loops.items():
            rates[key].append(timed(loop, args.seconds))
    out: dict[str, float] = {f"{k}_deals_per_s": round(statistics.median(v)) for k, v in rates.items()}
    for key in ("null_protocol", "card_play_floor", "whole_deal_floor", "whole_deal_unscored", "env"):
        out[f"{key}_vs_openspiel"] = round(statistics.median(
            a / b for a, b in zip(rates[key], rates["openspiel_python_api"], strict=True)), 2)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
