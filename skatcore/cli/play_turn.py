"""Your turn at ``skat play``: bidding, the skat, putting cards away,
declaring and playing a card, each choice recorded so that an undo can
replay the deal up to before your last card (part of
:class:`~skatcore.cli.play.TerminalGame`)."""

from __future__ import annotations

from rich.markup import escape

from skatcore.cards import cards_in
from skatcore.cli.play_table import card_table, contract_title, hand_row, played, seats_in_order
from skatcore.cli.play_text import HAND_NOTE, declaration_values, sort_hand
from skatcore.cli.play_words import MAX_INPUT, NotUnderstood, pick_cards, why_not
from skatcore.engine.deal import Bid, Call, Discard, Hold, Pass, Phase, Play
from skatcore.errors import shorten
from skatcore.model import SEATS

MAX_BIDS_SHOWN = 8
QUIT = ("q", "quit", "exit")
HINT = ("?", "hint")
CARD_WAYS = "♣A, CA, club ace, Kreuz As"
COMMANDS = "? hint · last · undo · q stop"
HELP = f"a number or a card ({CARD_WAYS}) · {COMMANDS}"


class Quit(Exception):
    """The player stopped (``q`` or the end of the input)."""


class Undo(Exception):
    """Your last card was taken back: the deal is played again up to before it."""


class Turns:
    """Part of :class:`~skatcore.cli.play.TerminalGame`: your decisions."""

    def ask(self, prompt: str) -> str:
        self.console.print(prompt, end=" ")
        self.stdout.flush()
        line = self.stdin.readline(MAX_INPUT)
        if not line:
            raise Quit
        rest = line
        while rest and not rest.endswith("\n"):  # the rest of an overlong line is not read as the next answers
            rest = self.stdin.readline(MAX_INPUT)
        line = line.strip()
        if line.lower() in QUIT:
            raise Quit
        return line

    def choose(self, options: list[str], prompt: str = "your choice:") -> int:
        for i, o in enumerate(options, 1):
            self.say(f"  {i:>2}) {o}")
        while True:
            text = self.ask(prompt)
            if text.isdecimal() and 1 <= int(text) <= len(options):
                return int(text) - 1
            self.say(f"  type a number from 1 to {len(options)} (q to stop)")

    def recorded(self, decide):
        """Your choice: the next one of the script while replaying, else
        asked (``decide()``) and added to the script."""
        if self.replay:
            return self.replay.pop(0)
        self.quiet = False
        action = decide()
        self.script.append(action)
        return action

    def human(self, deal, me: int):
        view = deal.view(me)
        legal = list(view.legal)
        phase = view.phase
        if phase is Phase.PLAY:
            return self.human_card(deal, me, legal)
        if phase is Phase.BIDDING and self.no_bidding and Pass() in legal:
            return Pass()
        return self.recorded(lambda: self.ask_other(deal, me, view, legal))

    def ask_other(self, deal, me: int, view, legal):
        phase = view.phase
        if phase is Phase.DISCARD:
            return self.ask_discard(deal, me, legal)
        self.show_hand(deal, me)
        if phase is Phase.BIDDING:
            if isinstance(legal[0], Hold):
                self.say(f"{self.name(deal.asker)} bids {deal.bid}: do you hold it?")
                return legal[self.choose(["yes", "pass"])]
            options = [*[a for a in legal if isinstance(a, Bid)][:MAX_BIDS_SHOWN], Pass()]
            self.say(f"your bid (now {deal.bid or 'nothing'}):")
            return options[self.choose([str(a) for a in options])]
        if phase is Phase.DECLARE:
            note = f" [dim]({HAND_NOTE})[/dim]" if deal.route == "hand" and deal.original_skat else ""
            self.say((f"declare (bid {deal.bid}):" if deal.bid else "declare:") + note)  # no bidding (Offiziersskat): no bid
            known = view.hand | sum(1 << c for c in view.discard)
            options = declaration_values(self.rules, [a.declaration for a in legal], known, deal.bid,
                                         deal.route == "hand" and bool(deal.original_skat))  # a skat unseen
            return legal[self.choose(options)]
        if phase is Phase.SKAT:
            self.say(f"you play for {deal.bid}: pick up the skat or play hand?")
        elif phase is Phase.STEP:
            self.say(f"{escape(str(view.step))}:")
        return legal[self.choose([escape(str(a)) for a in legal])]

    def show_hand(self, deal, seat: int) -> None:
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

    # -- putting cards away --------------------------------------------------------------
    def ask_discard(self, deal, me: int, legal) -> Discard:
        cards = sort_hand(sorted({c for a in legal for c in a.cards}))
        k = len(deal.original_skat)
        self.say(f"put {k} cards away (your hand with the skat):")
        self.say(hand_row(cards, cards, self.symbols, "cards"))
        while True:
            text = self.ask("put away:")
            if text.lower() in HINT:
                self.say(f"  the expert would put away {self.cards(sort_hand(self.hint(deal, me).cards))}")
                continue
            try:
                picks = sorted(set(pick_cards(text, cards)))
            except NotUnderstood as exc:
                self.say(f"  {escape(repr(shorten(str(exc), 24)))} is not one of your cards: type {k} numbers or cards, e.g. 3 7 or ♠7 ♦8")
                continue
            if len(picks) == k and Discard(tuple(picks)) in legal:
                return Discard(tuple(picks))
            if any(c not in cards for c in picks):
                self.say(f"  you do not hold {self.cards([c for c in picks if c not in cards])}")
            elif len(picks) == k:
                self.say(f"  {self.cards(picks)} may not be put away together (the rules)")
            else:
                self.say(f"  put away {k} different cards, e.g. 3 7 or ♠7 ♦8 (? for a hint)")

    # -- playing a card --------------------------------------------------------------------
    def human_card(self, deal, me: int, legal):
        cards = sort_hand([a.card for a in legal], deal.table)
        calls = deal.legal_calls(me) if self.rules.calls else []
        if len(cards) == 1 and not calls:
            trick = deal.tricks[-1]
            lead = "you lead" if not trick.cards else played(trick.cards, seats_in_order(deal, trick.leader), self.who,
                                                              self.symbols, self.thought.get(len(deal.tricks) - 1))
            whose = "" if deal.controller(me) == me else f" for {SEATS[me]}"  # a straw man's card
            self.say(f"trick {len(deal.tricks)}: {lead}; you play {self.cards(cards)}{whose} (the only card you may play)")
            return Play(cards[0])
        action = self.recorded(lambda: self.ask_card(deal, me, cards, calls))
        if isinstance(action, Call):
            deal.apply(action)
            self.say(f"  you call {action.name}!")
            if deal.done:  # the call settled the deal (Schenken accepted)
                return None
            return self.human_card(deal, me, list(deal.view(me).legal))
        return action

    def ask_card(self, deal, me: int, cards: list[int], calls):
        """Your card (or a table call) at the drawn table."""
        hand = deal.hands[me]
        title = f"{self.title} · {contract_title(deal, self.who)}"
        self.say(card_table(deal, me, self.who, self.symbols, title, self.thought.get(len(deal.tricks) - 1, {}),
                            self.console.width))
        label = "your hand" if deal.controller(me) == me else f"{SEATS[me]}'s cards (you play them)"
        self.say(hand_row(sort_hand(cards_in(hand), deal.table), cards, self.symbols, label))
        for i, c in enumerate(calls, len(cards) + 1):
            self.say(f"  {i:>2}) call {c.name}")
        if not self.helped:
            self.helped = True
            self.say(f"[dim]{HELP}[/dim]")
        while True:
            text = self.ask("play:")
            low = text.lower()
            if low in HINT:
                card = self.hint(deal, me).card
                self.say(f"  the expert would play {self.cards([card])} ({cards.index(card) + 1})")
                continue
            if low == "last":
                done = [i for i, t in enumerate(deal.tricks) if t.winner is not None]
                self.say(self.trick_line(deal, done[-1]) if done else "  no trick is finished yet")
                continue
            if low == "undo":
                plays = [i for i, a in enumerate(self.script) if isinstance(a, Play)]
                if not plays:
                    self.say("  no card of yours to take back in this deal")
                    continue
                self.say(f"  you take back {self.cards([self.script[plays[-1]].card])}")
                del self.script[plays[-1]:]
                raise Undo
            if text.isdecimal() and len(cards) < int(text) <= len(cards) + len(calls):
                return calls[int(text) - len(cards) - 1]
            said = low.removeprefix("call ").strip()
            if called := next((c for c in calls if c.name.lower() == said), None):  # "kontra", "call re"
                return called
            try:
                picks = pick_cards(text, cards)
            except NotUnderstood as exc:
                self.say(f"  {escape(repr(shorten(str(exc), 24)))}: type a number from 1 to {len(cards) + len(calls)} or a card "
                         f"({CARD_WAYS}); {COMMANDS}")
                continue
            if len(picks) != 1:
                self.say("  one card, please")
            elif picks[0] in cards:
                return Play(picks[0])
            else:
                trick = deal.tricks[-1].cards
                self.say(f"  {why_not(picks[0], hand, cards, trick, deal.table, self.symbols)}")


__all__ = ["Quit", "Turns", "Undo"]
