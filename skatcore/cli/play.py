"""``skat play``: deals at a card table in the terminal against bots
(heuristic, expert or random, per seat), scored on a sheet under the
ruleset's session rules.

Cards show with suit symbols, in colour on a terminal (rich).  At each of
your cards the table is drawn (:mod:`skatcore.cli.play_table`): the other
seats with their card counts, the trick in the middle, the card points taken
in tricks, your hand sorted as a player sorts it with the cards you may play
numbered.  A card is typed by number or by name (``♣A``, ``CA``, ``club
ace``, ``Kreuz As``: :mod:`skatcore.cli.play_words`), when playing and when
putting cards away; ``?`` or ``hint`` asks the expert, ``last`` shows the
last trick, ``undo`` takes your last card back (the deal is replayed up to
before it: the bots decide the same from the same seed), ``q`` stops.
Bidding and declaring are numbered lists; declaring shows what each game
would be worth with your matadors.  A card you must play is played for you.
After each deal: the skat and what was put away, the cards laid aside and
whose they became, the result and its explanation, the sheet line (a Bock
deal counts double) and the running totals, as ``skat sheet`` counts them.
Reads plain lines from standard input, so a script can drive it.
"""

from __future__ import annotations

import random
import sys
import time

from rich.markup import escape

from skatcore.bots.registry import make_player, resolve_player
from skatcore.cards import POINTS, cards_in
from skatcore.cli.play_table import WAIT_SHOWN, played, seats_in_order
from skatcore.cli.play_text import PlainStream, can_show_symbols, cards_markup, d_text, sort_hand
from skatcore.cli.play_turn import Quit, Turns, Undo
from skatcore.engine.deal import Bid, Deal, Declare, Discard, Hold, Pass, Phase, PickUp, Play
from skatcore.engine.table import people, seating
from skatcore.errors import InputError, printable
from skatcore.model import SEATS
from skatcore.records.session import Session
from skatcore.rules.compiler import get_rules
from skatcore.sim.sheet import Passing, session_record
from skatcore.sim.simulate import seeded_deal

BOTS = ("Ann", "Bob")


def _console(stdout):
    from rich.console import Console

    return Console(file=stdout, highlight=False, soft_wrap=True, emoji=False)


def opponents(spec: str, rules) -> list[str]:
    """``--opponents``: one player for every bot, or one per bot clockwise
    from you (``expert,heuristic``); each a registered player."""
    n = len(people(rules)) - 1
    names = [x.strip() for x in spec.split(",")]
    if len(names) == 1:
        names *= n
    if len(names) != n:
        raise InputError(f"--opponents {spec!r}: expected one player or {n} ({', '.join(BOTS[:n])}), not {len(names)}")
    for name in names:
        resolve_player(name)  # an unknown name stops here, before any deal
    return names


class TerminalGame(Turns):
    """A session at the table: you and ``kinds`` (one player name per bot)."""

    def __init__(self, rules, seed: int, stdin=None, stdout=None, kinds: list[str] | None = None):
        self.rules = rules
        self.seed = seed
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.symbols = can_show_symbols(self.stdout)
        if not self.symbols:  # the help and the table's marks in letters, not an encoding error
            self.stdout = PlainStream(self.stdout)
        self.console = _console(self.stdout)
        self.people = list(people(rules))  # a straw man's seat is nobody's
        self.kinds = list(kinds or ["heuristic"])
        if len(self.kinds) == 1:  # one player for every bot
            self.kinds *= len(self.people) - 1
        self.names = ["you", *BOTS[:len(self.people) - 1]]  # you, then the bots clockwise
        # the sheet, under the session rules; you are forehand in the first deal: the player before you deals
        self.session = Session(rules, self.names, dealer=len(self.names) - 1)
        self.quiet = False  # replaying a deal after an undo: nothing is said
        self.waits: list[tuple[str, str, float]] = []  # (player kind, phase, seconds): each bot decision a person waited for
        self.helped = False  # the help line is shown once
        self.skat_before = 0  # the skat before the last action (a mask)

    # -- io ----------------------------------------------------------------------
    def say(self, text="") -> None:  # markup; its texts (explanations, labels) may come from a local ruleset
        if not self.quiet:  # a table or panel is fitted to the width, not cut off; a line is broken between words on a
            # terminal (the terminal would break it anywhere: "3 x spades 1" over "1 = 33"), whole into a file or pipe
            text_line = isinstance(text, str)
            self.console.print(printable(text) if text_line else text, soft_wrap=text_line and not self.console.is_terminal)
            self.stdout.flush()

    def cards(self, cards) -> str:
        return cards_markup(cards, self.symbols)

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
        except (Quit, KeyboardInterrupt):  # q, the end of the input, Ctrl-C: the same stop, with the sheet so far
            self.quiet = False
            self.say("")
            self.say("stopped.")
            if k:
                self.show_sheet()
        if self.session.state.lines:
            self.show_final()
        return 0

    def show_final(self) -> None:
        """What the session rules add at its end (Seeger-Fabian's extra
        points at a tournament: B1), and the final totals with them."""
        try:
            res = self.session.finish()
        except InputError as exc:
            self.say(f"  no final totals: {escape(str(exc))}")
            return
        for c in res.extra:
            self.say(f"  {escape(c.label)}: " + ", ".join(f"{n} {c.values.get(n, 0):+d}" for n in self.names))
        if res.extra:
            self.say("final: " + ", ".join(f"{n} {res.final[n]:+d}" for n in self.names))

    def slot(self, seat: int) -> int:
        """The player (0 you, then clockwise) at a seat in this deal."""
        return self.seats[SEATS[seat]]

    def who(self, seat: int) -> str:
        """``you``, ``Ann``, or the seat nobody sits at as the form calls it (``Oma``; the straw man)."""
        return self.names[self.slot(seat)] if seat in self.people else self.rules.table.seats[seat].name or "straw man"

    def does(self, seat: int, verb: str) -> str:
        """``verb`` as :meth:`who` of ``seat`` does it: ``you take``, ``Ann takes``."""
        return verb if self.who(seat) == "you" else f"{verb}s"

    def name(self, seat: int) -> str:
        return f"{self.who(seat)} ({SEATS[seat]})" if seat in self.people else self.who(seat)

    def play_deal(self, k: int) -> None:
        rules, st = self.rules, self.session.state
        self.seats = seating(len(self.names), st.dealer, tuple(self.people))
        self.me = next(s for s in self.people if self.slot(s) == 0)
        self.dealt = seeded_deal(self.seed, k, rules.deck)
        ahead = self.session.next_deal()  # None: the session rules say nobody bids (a Ramsch round)
        self.no_bidding = ahead is None
        self.advisers: dict = {}  # seat -> the expert who gives hints, made when first asked
        marks = "" if ahead is None or not ahead.marks else escape(f" [{', '.join(ahead.marks)}]")
        self.title = f"deal {len(st.lines) + 1} ({rules.name})"
        self.say("")
        self.say(f"=== {self.title}: you are {SEATS[self.me]}{marks} ===")
        self.say("opponents: " + ", ".join(f"{n} {escape(self.kinds[i])}" for i, n in enumerate(self.names[1:])))
        if self.no_bidding:
            self.say("a round without bidding (the session rules): everyone passes")
        self.script: list = []  # your choices in this deal, in order: an undo replays them
        while True:
            try:
                deal = self.deal_out()
                break
            except Undo:
                continue
        self.show_result(deal)

    def deal_out(self) -> Deal:
        """The deal from the first bid, your choices from ``script`` while
        it lasts (quietly: a replay after an undo), then asked."""
        rules, me = self.rules, self.me
        hands, skat, seeds, *aside = self.dealt
        self.seeds = seeds
        deal = Deal(rules, hands, skat, *aside)
        self.replay = list(self.script)
        self.quiet = bool(self.replay)
        bots = {}
        for s in self.people:
            if s != me:
                kind = self.kinds[self.slot(s) - 1]
                bot = make_player(kind, rules, seeds[s])
                bots[s] = (kind, Passing(bot) if self.no_bidding else bot)
        self._marks_said: dict = {}  # what the steps showed, said once
        self.thought: dict[int, dict[int, float]] = {}  # trick index -> seat -> seconds a person waited
        shown_tricks = 0
        while not deal.done and (seat := deal.to_move) is not None:
            who = deal.mover(seat)  # you play a straw man too, where the rules say so
            secs = 0.0
            if who is None:  # a seat nobody plays: its one move is forced
                action = deal.legal_actions()[0]
            elif who == me:
                action = self.human(deal, seat)
                if action is None:  # a call of yours ended the deal
                    continue
            else:
                kind, bot = bots[who]
                start = time.perf_counter()
                action = bot.act(deal.view(seat))
                secs = time.perf_counter() - start
                if not self.quiet:
                    self.waits.append((kind, deal.phase.name.lower(), secs))
                if isinstance(action, Play):
                    self.thought.setdefault(len(deal.tricks) - 1, {})[seat] = secs
            before, self.skat_before = deal.phase, deal.skat  # a skat pushed on is not the one dealt
            deal.apply(action)
            self.narrate(deal, seat, action, before, secs)
            if rules.calls and deal.phase is Phase.PLAY:
                self.bot_calls(deal, bots)
            while shown_tricks < len(deal.tricks) and deal.tricks[shown_tricks].winner is not None:
                self.say(self.trick_line(deal, shown_tricks))
                shown_tricks += 1
        self.quiet = False
        return deal

    def trick_line(self, deal: Deal, i: int) -> str:
        t = deal.tricks[i]
        if deal.table is None or t.winner is None:  # no trick is played, or this one is not done
            return ""
        pts = sum(deal.table.points[c] for c in t.cards)
        takes = self.does(t.winner, "take")
        cards = played(t.cards, seats_in_order(deal, t.leader), self.who, self.symbols, self.thought.get(i))
        return f"  trick {i + 1}: {cards} → {escape(self.who(t.winner))} {takes} {pts}"

    def bot_calls(self, deal: Deal, bots) -> None:
        from skatcore.bots import call_view

        for s, (_kind, bot) in bots.items():
            opts = deal.legal_calls(s)
            if opts and hasattr(bot, "call"):
                for c in bot.call(call_view(deal.view(s), opts)):
                    if c in deal.legal_calls(s):
                        deal.apply(c)
                        self.say(f"  {self.name(s)} calls {c.name}!")

    # -- what happened ----------------------------------------------------------------
    def narrate(self, deal: Deal, seat: int, action, before: Phase, secs: float) -> None:
        who = self.name(seat)
        if isinstance(action, Play):
            return  # shown with the trick
        if secs >= WAIT_SHOWN:
            who += f" [dim]({secs:.1f} s)[/dim]"
        if isinstance(action, (Bid, Hold, Pass)):
            self.say(f"  {who}: {escape(str(action))}")
            if deal.phase is not Phase.BIDDING and before is Phase.BIDDING:
                if deal.declarer is not None:
                    self.say(f"  {self.name(deal.declarer)} {self.does(deal.declarer, 'win')} the bidding at {deal.bid}")
                elif deal.done:
                    self.say("  all passed")
                else:
                    self.say(f"  all passed: {escape(rules_all_pass(deal))}")
            return
        if isinstance(action, PickUp) and deal.controller(seat) == self.me:
            self.say(f"  you pick up the skat: {self.cards(sort_hand(cards_in(self.skat_before)))}")
            return
        if isinstance(action, Discard):
            if deal.controller(seat) == self.me:
                self.say(f"  you put away {self.cards(action.cards)}")
            else:
                self.say(f"  {who} puts {len(action.cards)} cards away")
            return
        if isinstance(action, Declare):
            self.say(f"  {who} {self.does(seat, 'declare')} {d_text(action.declaration)}")
            return
        shown = "".join(f"; {escape(k)} {self.cards([v]) if isinstance(v, int) else escape(v)}" for k, v in deal.marks.items()
                        if k not in self._marks_said and isinstance(v, (int, str)))
        self._marks_said.update(deal.marks)
        self.say(f"  {who}: {escape(str(action))}{shown}")

    def show_result(self, deal: Deal) -> None:
        r = deal.result()
        self.say(f"result: {escape(r.explanation)}{self.card_points(deal)}")
        if deal.contract is not None and deal.original_skat:
            put = f"; put away {self.cards(deal.discard)}" if deal.discard else ""
            end = list(cards_in(deal.skat))
            if not deal.discard and end and set(end) != set(deal.original_skat):  # pushed on (Schieberamsch): what counted
                put = f"; at the end: {self.cards(sort_hand(end))}"
            self.say(f"  the skat: {self.cards(deal.original_skat)}{put}")
        if deal.aside:
            self.say(self.aside_line(deal))
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

    def aside_line(self, deal: Deal) -> str:
        """The cards laid aside and whose card points they became (the
        engine's ``Deal.aside_to``, set when the deal is scored)."""
        pts = deal.table.points if deal.table is not None else POINTS
        deal.result()
        to = deal.aside_to
        if deal.declarer is None or to in (None, "nobody"):
            went = "they count for nobody"
        else:
            why = " (more card points)" if deal.rules.deck.aside_to == "more_points" else ""
            side = [deal.declarer] if to == "declarer" else [s for s in deal.rules.deck.seats if s != deal.declarer]
            went = f"to the {to}{why}: {' and '.join(escape(self.who(s)) for s in side)}"
        return f"  laid aside: {self.cards(sort_hand(deal.aside))} ({sum(pts[c] for c in deal.aside)} points), {went}"

    @staticmethod
    def card_points(deal: Deal) -> str:
        """The card points of a declarer's game, for the result line (a
        Ramsch's explanation has them per seat; a null has none)."""
        if deal.declarer is None or deal.contract is None or deal.table is None or deal.contract.no_trick:
            return ""  # a null is won by taking no trick: card points decide nothing (and the deal may end early)
        points = deal.facts().declarer_points
        total = sum(deal.table.points[c] for c in deal.rules.deck.cards)
        return f"  (card points: declarer {points}, defenders {total - points})"

    def show_sheet(self) -> None:
        totals = self.session.state.totals
        self.say("score sheet: " + ", ".join(f"{n} {totals[n]:+d}" for n in self.names))

    # -- hints -------------------------------------------------------------------------
    def hint(self, deal: Deal, seat: int):
        """The expert's choice for ``seat`` now (made once per deal, from the seat's seed)."""
        if seat not in self.advisers:
            self.advisers[seat] = make_player("expert", self.rules, self.seeds[seat])
        return self.advisers[seat].act(deal.view(seat))


def rules_all_pass(deal: Deal) -> str:
    if deal.phase is Phase.STEP and deal.step is not None:
        return f"{deal.step.description or deal.step.name}"
    return f"{deal.rules.all_pass} is played"


def cmd_play(args) -> int:
    rules = get_rules(args.ruleset)
    kinds = opponents(args.opponents, rules)
    seed = args.seed if args.seed is not None else random.randrange(1, 10**6)
    game = TerminalGame(rules, seed, kinds=kinds)
    game.say(f"skat play: ruleset {rules.name}, seed {seed} (q to stop)")
    return game.run(args.deals)


__all__ = ["TerminalGame", "cmd_play", "opponents", "sort_hand"]
