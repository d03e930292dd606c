"""``skat play``: a game in the terminal against two heuristic players.

Your hand is shown sorted for the contract (trumps first), every choice as a
numbered list; type the number (a card may also be typed by name, ``CJ``),
``q`` to stop.  Discarding asks for two card numbers.  After each deal the
score sheet of the session is shown.  Reads plain lines from standard input,
so a script can drive it.
"""

from __future__ import annotations

import random
import sys

from skatcore.cards import CARD_NAMES, SUITS, cards_in, parse_card
from skatcore.engine.deal import Bid, Call, Deal, Declare, Discard, Hold, Pass, Phase, Play, Unseen
from skatcore.engine.table import people
from skatcore.errors import InputError
from skatcore.model import SEATS
from skatcore.bots import HeuristicPlayer
from skatcore.rules.compiler import TRUMP, get_rules
from skatcore.sim.simulate import seeded_deal

SYMBOL = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
MAX_BIDS_SHOWN = 8


class Quit(Exception):
    pass


def card_text(c: int) -> str:
    return CARD_NAMES[c]


def sort_hand(cards, table=None) -> list[int]:
    """Trumps first (highest first), then the suits C S H D, highest first.
    Without a contract yet: jacks first, then the suits A T K Q 9 8 7."""
    if table is None:
        order = "ATKQ987"
        return sorted(cards, key=lambda c: (CARD_NAMES[c][1] != "J", SUITS.index(CARD_NAMES[c][0]),
                                             -order.index(CARD_NAMES[c][1]) if CARD_NAMES[c][1] != "J" else 0,
                                             c))
    return sorted(cards, key=lambda c: (table.follow[c] != TRUMP, table.follow[c], -table.strength[table.follow[c]][c]))


class TerminalGame:
    def __init__(self, rules, seed: int, stdin=None, stdout=None):
        self.rules = rules
        self.seed = seed
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.people = list(people(rules))  # a straw man's seat is nobody's
        self.names = ["you", "Ann (bot)", "Bob (bot)"][:len(self.people)]  # you, then the bots clockwise
        self.sheet = [0] * len(self.people)

    # -- io ----------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def ask(self, prompt: str) -> str:
        print(prompt, end=" ", file=self.stdout, flush=True)
        line = self.stdin.readline()
        if not line:
            raise Quit
        line = line.strip()
        if line.lower() in ("q", "quit", "exit"):
            raise Quit
        return line

    def choose(self, options: list[str], prompt: str = "your choice:") -> int:
        for i, o in enumerate(options, 1):
            self.say(f"  {i:>2}) {o}")
        while True:
            text = self.ask(prompt)
            if text.isdigit() and 1 <= int(text) <= len(options):
                return int(text) - 1
            self.say(f"  type a number from 1 to {len(options)} (q to stop)")

    # -- the session ---------------------------------------------------------------
    def run(self, deals: int = 0) -> int:
        k = 0
        try:
            while True:
                self.play_deal(k)
                k += 1
                self.show_sheet()
                if deals and k >= deals:
                    break
                if deals == 0:
                    again = self.ask("another deal? [Y/n]")
                    if again.lower().startswith("n"):
                        break
        except Quit:
            self.say("")
            self.say("stopped.")
            if k:
                self.show_sheet()
        return 0

    def slot(self, seat: int, me: int) -> int:
        """Whose column of the sheet a seat's entry goes to: you 0, then clockwise."""
        return (self.people.index(seat) - self.people.index(me)) % len(self.people)

    def name(self, seat: int, me: int) -> str:
        if seat not in self.people:
            return f"{SEATS[seat]} (the third hand)"
        return f"{self.names[self.slot(seat, me)]} ({SEATS[seat]})"

    def play_deal(self, k: int) -> None:
        rules = self.rules
        hands, skat, seeds, *aside = seeded_deal(self.seed, k, rules.deck)
        people = self.people
        me = people[k % len(people)]  # the deal passes round the table: you are forehand, then middlehand, ...
        deal = Deal(rules, hands, skat, *aside)
        self._marks_said: dict = {}  # what the steps showed, said once
        bots = {s: HeuristicPlayer(rules, seeds[s]) for s in people if s != me}
        self.say("")
        self.say(f"=== deal {k + 1} ({rules.name}): you are {SEATS[me]} ===")
        self.show_hand(deal, me)
        shown_tricks = 0
        while not deal.done:
            seat = deal.to_move
            who = deal.controller(seat)  # you play a straw man too, where the rules say so
            if who is None:  # a seat nobody plays: its one move is forced
                action = deal.legal_actions()[0]
            elif who == me:
                action = self.human(deal, seat)
                if action is None:  # a call of yours ended the deal
                    continue
            else:
                action = bots[who].act(deal.view(seat))
            before = deal.phase
            deal.apply(action)
            self.narrate(deal, seat, action, me, before)
            if rules.calls and deal.phase is Phase.PLAY:
                self.bot_calls(deal, bots, me)
            while shown_tricks < len(deal.tricks) and deal.tricks[shown_tricks].winner is not None:
                t = deal.tricks[shown_tricks]
                pts = sum(deal.table.points[c] for c in t.cards)
                self.say(f"  trick {shown_tricks + 1}: {' '.join(card_text(c) for c in t.cards)} "
                         f"-> {self.name(t.winner, me)} takes {pts}")
                shown_tricks += 1
        self.show_result(deal, me)

    def bot_calls(self, deal: Deal, bots, me: int) -> None:
        from skatcore.bots import call_view

        for s, bot in bots.items():
            opts = deal.legal_calls(s)
            if opts:
                for c in bot.call(call_view(deal.view(s), opts)):
                    if c in deal.legal_calls(s):
                        deal.apply(c)
                        self.say(f"  {self.name(s, me)} calls {c.name}!")

    # -- what happened ----------------------------------------------------------------
    def narrate(self, deal: Deal, seat: int, action, me: int, before: Phase) -> None:
        who = self.name(seat, me)
        if isinstance(action, Play):
            return  # shown with the trick
        if isinstance(action, (Bid, Hold, Pass)):
            self.say(f"  {who}: {action}")
            if deal.phase is not Phase.BIDDING and before is Phase.BIDDING:
                if deal.declarer is not None:
                    self.say(f"  {self.name(deal.declarer, me)} wins the bidding at {deal.bid}")
                elif deal.done:
                    self.say("  all passed")
                else:
                    self.say(f"  all passed: {rules_all_pass(deal)}")
            return
        if isinstance(action, Discard):
            if seat == me:
                self.say(f"  you put away {' '.join(card_text(c) for c in action.cards)}")
            else:
                self.say(f"  {who} puts two cards away")
            return
        if isinstance(action, Declare):
            d = action.declaration
            extras = [x for x in ("hand", "schneider", "schwarz", "ouvert") if getattr(d, x)]
            self.say(f"  {who} declares {' '.join([d.game, *extras])}")
            if deal.phase is Phase.PLAY:
                self.show_hand(deal, me)
            return
        shown = "".join(f"; {k} {card_text(v) if isinstance(v, int) else v}" for k, v in deal.marks.items()
                        if k not in self._marks_said and isinstance(v, (int, str)))
        self._marks_said.update(deal.marks)
        self.say(f"  {who}: {action}{shown}")

    def show_hand(self, deal: Deal, me: int) -> None:
        """The cards the person at ``me`` may see: the seat's own, and others
        shown to them (a straw man, cards face up) - never more."""
        view = deal.view(me)
        person = deal.controller(me)
        cards = sort_hand(list(cards_in(view.hand)), deal.table)
        own = "your hand" if person == me else f"{SEATS[me]}'s cards (you play them)"
        self.say(f"{own}: {' '.join(card_text(c) for c in cards)}")
        for s, mask in view.others.items():
            label = "your hand" if s == person else f"{SEATS[s]} shows"
            self.say(f"  {label}: {' '.join(card_text(c) for c in sort_hand(list(cards_in(mask)), deal.table))}")

    def show_result(self, deal: Deal, me: int) -> None:
        r = deal.result()
        self.say(f"result: {r.explanation}")
        for s in self.people:
            entry = r.scores.get(SEATS[s], 0)
            self.sheet[self.slot(s, me)] += entry
            if entry:
                self.say(f"  {self.name(s, me)}: {entry:+d}")

    def show_sheet(self) -> None:
        self.say("score sheet: " + ", ".join(f"{n} {v:+d}" for n, v in zip(self.names, self.sheet)))

    # -- your turn -------------------------------------------------------------------
    def human(self, deal: Deal, me: int):
        view = deal.view(me)
        legal = list(view.legal)
        phase = view.phase
        if phase is Phase.PLAY:
            return self.human_card(deal, me, legal)
        if phase is Phase.DISCARD:
            return self.human_discard(deal, me, legal)
        if phase is Phase.BIDDING:
            return self.human_bid(deal, me, legal)
        if phase is Phase.DECLARE:
            self.show_hand(deal, me)
            self.say(f"declare (bid {deal.bid}):")
        elif phase is Phase.SKAT:
            self.say(f"you play for {deal.bid}: pick up the skat or play hand?")
        elif phase is Phase.STEP:
            self.show_hand(deal, me)
            self.say(f"{view.step}:")
        return legal[self.choose([str(a) for a in legal])]

    def human_bid(self, deal: Deal, me: int, legal):
        self.show_hand(deal, me)
        first = legal[0]
        if isinstance(first, Hold):
            self.say(f"{self.name(deal.asker, me)} bids {deal.bid}: do you hold it?")
            return legal[self.choose(["yes", "pass"])]
        bids = [a for a in legal if isinstance(a, Bid)][:MAX_BIDS_SHOWN]
        self.say(f"your bid (now {deal.bid or 'nothing'}):")
        options = [*bids, Pass()]
        return options[self.choose([str(a) for a in options])]

    def human_discard(self, deal: Deal, me: int, legal) -> Discard:
        allowed = sorted({c for a in legal for c in a.cards})
        cards = sort_hand(allowed)
        self.say("you have picked up the skat; put two cards away:")
        for i, c in enumerate(cards, 1):
            self.say(f"  {i:>2}) {card_text(c)}")
        while True:
            parts = self.ask("two numbers:").replace(",", " ").split()
            try:
                picks = sorted(cards[int(p) - 1] for p in parts if p.isdigit() and 1 <= int(p) <= len(cards))
            except (ValueError, IndexError):
                picks = []
            if len(parts) == 2 and len(picks) == 2 and picks[0] != picks[1]:
                return Discard((picks[0], picks[1]))
            self.say(f"  type two different numbers from 1 to {len(cards)}, e.g. 3 7")

    def human_card(self, deal: Deal, me: int, legal):
        trick = deal.tricks[-1]
        self.show_hand(deal, me)
        if trick.cards:
            seats = deal.rules.deck.seats
            shown = ", ".join(f"{SEATS[seats[(seats.index(trick.leader) + i) % len(seats)]]} {card_text(c)}"
                              for i, c in enumerate(trick.cards))
            self.say(f"trick {len(deal.tricks)}: {shown}")
        else:
            self.say(f"trick {len(deal.tricks)}: you lead")
        cards = sort_hand([a.card for a in legal], deal.table)
        calls = deal.legal_calls(me) if self.rules.calls else []
        options = [*(card_text(c) for c in cards), *(f"call {c.name}" for c in calls)]
        for i, o in enumerate(options, 1):
            self.say(f"  {i:>2}) {o}")
        while True:
            text = self.ask("play:")
            if text.isdigit() and 1 <= int(text) <= len(options):
                i = int(text) - 1
                if i >= len(cards):
                    deal.apply(calls[i - len(cards)])
                    self.say(f"  you call {calls[i - len(cards)].name}!")
                    if deal.done:  # the call settled the deal (Schenken accepted)
                        return None
                    return self.human_card(deal, me, list(deal.view(me).legal))
                return Play(cards[i])
            try:
                c = parse_card(text)
            except InputError:
                c = None
            if c in cards:
                return Play(c)
            self.say(f"  type a number from 1 to {len(options)} or a card you may play")


def rules_all_pass(deal: Deal) -> str:
    if deal.phase is Phase.STEP:
        return f"{deal.step.description or deal.step.name}"
    return f"{deal.rules.all_pass} is played"


def cmd_play(args) -> int:
    rules = get_rules(args.ruleset)
    seed = args.seed if args.seed is not None else random.randrange(1, 10**6)
    game = TerminalGame(rules, seed)
    game.say(f"skat play: ruleset {rules.name}, seed {seed} (q to stop)")
    return game.run(args.deals)


__all__ = ["TerminalGame", "cmd_play", "sort_hand", "Call", "Unseen"]
