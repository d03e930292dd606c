"""``skat play``: deals in the terminal against heuristic players, scored
on a sheet under the ruleset's session rules.

Cards show with suit symbols, in colour on a terminal (rich).  At each
decision your hand is printed once, sorted as a player sorts it (trumps
together for the game being played); every choice is a numbered list: type
the number (a card may also be typed by name, ``CJ``), ``q`` to stop.
Discarding asks for two card numbers.  Declaring shows what each game
would be worth with your matadors, and whether it reaches the bid.  A card
you must play (the only one allowed) is played for you.  After each deal:
the skat and what was put away, the card points, the sheet line (a Bock
deal counts double) and the running totals, as ``skat sheet`` counts them.
Reads plain lines from standard input, so a script can drive it.
"""

from __future__ import annotations

import random
import sys

from rich.markup import escape

from skatcore.bots import HeuristicPlayer
from skatcore.cards import cards_in, parse_card
from skatcore.cli.play_text import cards_markup, d_text, declaration_values, sort_hand
from skatcore.engine.deal import Bid, Call, Deal, Declare, Discard, Hold, Pass, Phase, PickUp, Play, Unseen
from skatcore.engine.table import people, seating
from skatcore.errors import InputError, printable
from skatcore.model import SEATS
from skatcore.records.session import Session
from skatcore.rules.compiler import get_rules
from skatcore.sim.sheet import Passing, session_record
from skatcore.sim.simulate import seeded_deal

MAX_BIDS_SHOWN = 8
NAMES = ("you", "Ann (bot)", "Bob (bot)")


class Quit(Exception):
    pass


def _console(stdout):
    from rich.console import Console

    return Console(file=stdout, highlight=False, soft_wrap=True, emoji=False)


def _symbols(stdout) -> bool:
    """Suit symbols where the output can encode them."""
    try:
        "♣♠♥♦".encode(getattr(stdout, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class TerminalGame:
    def __init__(self, rules, seed: int, stdin=None, stdout=None):
        self.rules = rules
        self.seed = seed
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.console = _console(self.stdout)
        self.symbols = _symbols(self.stdout)
        self.people = list(people(rules))  # a straw man's seat is nobody's
        self.names = list(NAMES[:len(self.people)])  # you, then the bots clockwise
        # the sheet, under the session rules; you are forehand in the first deal: the player before you deals
        self.session = Session(rules, self.names, dealer=len(self.names) - 1)

    # -- io ----------------------------------------------------------------------
    def say(self, text: str = "") -> None:  # markup; its texts (explanations, labels) may come from a local ruleset
        self.console.print(printable(text))
        self.stdout.flush()

    def cards(self, cards) -> str:
        return cards_markup(cards, self.symbols)

    def ask(self, prompt: str) -> str:
        self.console.print(printable(prompt), end=" ")
        self.stdout.flush()
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
            while not self.session.state.closed:
                self.play_deal(k)
                k += 1
                if deals and k >= deals:
                    break
                if deals == 0 and not self.session.state.closed:
                    again = self.ask("another deal? [Y/n]")
                    if again.lower().startswith("n"):
                        break
            if self.session.state.closed:
                self.say(f"the session is over: {self.session.state.closed}")
        except Quit:
            self.say("")
            self.say("stopped.")
            if k:
                self.show_sheet()
        return 0

    def slot(self, seat: int) -> int:
        """The player (0 you, then clockwise) at a seat in this deal."""
        return self.seats[SEATS[seat]]

    def name(self, seat: int) -> str:
        if seat not in self.people:
            return f"{SEATS[seat]} (the third hand)"
        return f"{self.names[self.slot(seat)]} ({SEATS[seat]})"

    def play_deal(self, k: int) -> None:
        rules, st = self.rules, self.session.state
        self.seats = seating(len(self.names), st.dealer, tuple(self.people))
        me = next(s for s in self.people if self.slot(s) == 0)
        hands, skat, seeds, *aside = seeded_deal(self.seed, k, rules.deck)
        deal = Deal(rules, hands, skat, *aside)
        ahead = self.session.next_deal()  # None: the session rules say nobody bids (a Ramsch round)
        self.no_bidding = ahead is None
        self._marks_said: dict = {}  # what the steps showed, said once
        bots = {s: HeuristicPlayer(rules, seeds[s]) for s in self.people if s != me}
        if self.no_bidding:
            bots = {s: Passing(b) for s, b in bots.items()}
        marks = "" if ahead is None or not ahead.marks else escape(f" [{', '.join(ahead.marks)}]")
        self.say("")
        self.say(f"=== deal {len(st.lines) + 1} ({rules.name}): you are {SEATS[me]}{marks} ===")
        if self.no_bidding:
            self.say("a round without bidding (the session rules): everyone passes")
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
                takes = "take" if t.winner in self.people and self.slot(t.winner) == 0 else "takes"
                self.say(f"  trick {shown_tricks + 1}: {self.cards(t.cards)} -> {self.name(t.winner)} {takes} {pts}")
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
                        self.say(f"  {self.name(s)} calls {c.name}!")

    # -- what happened ----------------------------------------------------------------
    def narrate(self, deal: Deal, seat: int, action, me: int, before: Phase) -> None:
        who = self.name(seat)
        if isinstance(action, Play):
            return  # shown with the trick
        if isinstance(action, (Bid, Hold, Pass)):
            self.say(f"  {who}: {escape(str(action))}")
            if deal.phase is not Phase.BIDDING and before is Phase.BIDDING:
                if deal.declarer is not None:
                    self.say(f"  {self.name(deal.declarer)} wins the bidding at {deal.bid}")
                elif deal.done:
                    self.say("  all passed")
                else:
                    self.say(f"  all passed: {escape(rules_all_pass(deal))}")
            return
        if isinstance(action, PickUp) and deal.controller(seat) == me:
            self.say(f"  you pick up the skat: {self.cards(sort_hand(deal.original_skat))}")
            return
        if isinstance(action, Discard):
            if deal.controller(seat) == me:
                self.say(f"  you put away {self.cards(action.cards)}")
            else:
                self.say(f"  {who} puts {len(action.cards)} cards away")
            return
        if isinstance(action, Declare):
            self.say(f"  {who} declares {d_text(action.declaration)}")
            return
        shown = "".join(f"; {escape(k)} {self.cards([v]) if isinstance(v, int) else escape(v)}" for k, v in deal.marks.items()
                        if k not in self._marks_said and isinstance(v, (int, str)))
        self._marks_said.update(deal.marks)
        self.say(f"  {who}: {escape(str(action))}{shown}")

    def show_hand(self, deal: Deal, seat: int) -> None:
        """The cards the person playing ``seat`` may see (SeatView): the
        seat's own, others shown to them (a straw man, an ouvert game)."""
        view = deal.view(seat)
        person = deal.controller(seat)
        table = deal.table if deal.contract is not None else None
        own = "your hand" if person == seat else f"{SEATS[seat]}'s cards (you play them)"
        self.say(f"{own}: {self.cards(sort_hand(cards_in(view.hand), table))}")
        for s, mask in view.others.items():
            label = "your hand" if s == person else f"{SEATS[s]} shows"
            self.say(f"  {label}: {self.cards(sort_hand(cards_in(mask), table))}")
        if view.declarer_hand is not None and view.declarer != seat and view.declarer not in view.others:
            self.say(f"  {self.name(view.declarer)} plays open: {self.cards(sort_hand(cards_in(view.declarer_hand), table))}")

    def show_result(self, deal: Deal, me: int) -> None:
        r = deal.result()
        self.say(f"result: {escape(r.explanation)}{self.card_points(deal, r)}")
        if deal.contract is not None and deal.original_skat:
            put = f"; put away {self.cards(deal.discard)}" if deal.discard else ""
            self.say(f"  the skat: {self.cards(deal.original_skat)}{put}")
        try:
            line = self.session.enter(session_record(deal), r)
        except InputError as exc:  # the session rules refuse the deal: shown, not counted
            self.say(f"  not on the sheet: {escape(str(exc))}")
            return
        for s in self.people:
            player = self.names[self.slot(s)]
            if line.entries.get(player):
                times = f"{line.base[player]:+d} x {line.factor} = " if line.factor != 1 else ""
                self.say(f"  {self.name(s)}: {times}{line.entries[player]:+d}")
        if line.marks:
            self.say(f"  sheet: {escape(', '.join(line.marks))}")
        self.show_sheet()

    @staticmethod
    def card_points(deal: Deal, r) -> str:
        """The card points of a declarer's game, for the result line (a
        Ramsch's explanation has them per seat)."""
        if deal.declarer is None or deal.contract is None:
            return ""
        points = deal.facts().declarer_points
        total = sum(deal.table.points[c] for c in deal.rules.deck.cards)
        return f"  (card points: declarer {points}, defenders {total - points})"

    def show_sheet(self) -> None:
        totals = self.session.state.totals
        self.say("score sheet: " + ", ".join(f"{n} {totals[n]:+d}" for n in self.names))

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
        self.show_hand(deal, me)
        if phase is Phase.DECLARE:
            self.say(f"declare (bid {deal.bid}):")
            known = view.hand | sum(1 << c for c in view.discard)
            options = declaration_values(self.rules, [a.declaration for a in legal], known, deal.bid, deal.route == "hand")
            return legal[self.choose(options)]
        if phase is Phase.SKAT:
            self.say(f"you play for {deal.bid}: pick up the skat or play hand?")
        elif phase is Phase.STEP:
            self.say(f"{escape(str(view.step))}:")
        return legal[self.choose([escape(str(a)) for a in legal])]

    def human_bid(self, deal: Deal, me: int, legal):
        if self.no_bidding and Pass() in legal:
            return Pass()
        self.show_hand(deal, me)
        first = legal[0]
        if isinstance(first, Hold):
            self.say(f"{self.name(deal.asker)} bids {deal.bid}: do you hold it?")
            return legal[self.choose(["yes", "pass"])]
        bids = [a for a in legal if isinstance(a, Bid)][:MAX_BIDS_SHOWN]
        self.say(f"your bid (now {deal.bid or 'nothing'}):")
        options = [*bids, Pass()]
        return options[self.choose([str(a) for a in options])]

    def human_discard(self, deal: Deal, me: int, legal) -> Discard:
        allowed = sorted({c for a in legal for c in a.cards})
        cards = sort_hand(allowed)
        self.say(f"put {len(deal.original_skat)} cards away (your hand with the skat):")
        for i, c in enumerate(cards, 1):
            self.say(f"  {i:>2}) {self.cards([c])}")
        k = len(deal.original_skat)
        while True:
            parts = self.ask("two numbers:" if k == 2 else f"{k} numbers:").replace(",", " ").split()
            picks = sorted({cards[int(p) - 1] for p in parts if p.isdigit() and 1 <= int(p) <= len(cards)})
            if len(parts) == k and len(picks) == k and Discard(tuple(picks)) in legal:
                return Discard(tuple(picks))
            self.say(f"  type {k} different numbers from 1 to {len(cards)}, e.g. 3 7")

    def human_card(self, deal: Deal, me: int, legal):
        trick = deal.tricks[-1]
        cards = sort_hand([a.card for a in legal], deal.table)
        calls = deal.legal_calls(me) if self.rules.calls else []
        order = self.trick_order(deal, trick.leader)  # every seat; the trick has the cards played so far: fewer
        lead = "you lead" if not trick.cards else ", ".join(
            f"{SEATS[s]} {self.cards([c])}" for s, c in zip(order, trick.cards, strict=False))
        if len(cards) == 1 and not calls:
            whose = "" if deal.controller(me) == me else f" for {SEATS[me]}"  # a straw man's card
            self.say(f"trick {len(deal.tricks)}: {lead}; you play {self.cards(cards)}{whose} (the only card you may play)")
            return Play(cards[0])
        self.show_hand(deal, me)
        self.say(f"trick {len(deal.tricks)}: {lead}")
        options = [*(self.cards([c]) for c in cards), *(f"call {c.name}" for c in calls)]
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

    @staticmethod
    def trick_order(deal: Deal, leader: int) -> list[int]:
        seats = deal.rules.deck.seats
        return [seats[(seats.index(leader) + i) % len(seats)] for i in range(len(seats))]


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


__all__ = ["Call", "TerminalGame", "Unseen", "cmd_play", "sort_hand"]
