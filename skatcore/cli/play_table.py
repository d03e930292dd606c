"""The card table ``skat play`` draws at each of your cards (rich): the
other seats with their card counts (and any hand shown face up), the trick
in the middle with who played what, the card points taken in tricks as a
player counts them (the skat hidden until the end), and your hand below,
the cards you may play numbered."""

from __future__ import annotations

from collections.abc import Callable

from rich.align import Align
from rich.console import Group, JustifyMethod
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from skatcore.cards import cards_in
from skatcore.cli.play_text import card_markup, cards_markup, d_text, sort_hand
from skatcore.errors import printable
from skatcore.model import SEATS

WIDTH = 78  # the table fits an 80-column terminal
LABEL_BESIDE = 10  # characters: "your hand" fits beside ten cards in 60 columns
WAIT_SHOWN = 0.1  # seconds: a bot's thinking time is shown where a person waits this long or longer


def seats_in_order(deal, leader: int) -> list[int]:
    """The seats that play to a trick (a dummy out of play does not), from ``leader`` clockwise."""
    seats = deal.in_play
    return [seats[(seats.index(leader) + i) % len(seats)] for i in range(len(seats))]


def played(cards, order, who: Callable[[int], str], symbols: bool, thought: dict | None = None) -> str:
    """``Ann ♠A · Bob ♠7``: who played which card of a trick; a thinking
    time a person waited for (``thought``: seat -> seconds) after the card."""
    out = []
    for seat, c in zip(order, cards, strict=False):
        secs = (thought or {}).get(seat, 0.0)
        wait = f" [dim]({secs:.1f} s)[/dim]" if secs >= WAIT_SHOWN else ""
        out.append(f"{escape(who(seat))} {card_markup(c, symbols)}{wait}")
    return " · ".join(out)


def cards_left(deal) -> dict[int, int]:
    """Each seat's cards not yet played, open or not (stacks, a pile)."""
    left = dict.fromkeys(deal.in_play, deal.rules.deck.hand)
    for t in deal.tricks:
        for s in seats_in_order(deal, t.leader)[:len(t.cards)]:
            left[s] -= 1
    return left


def card_points(deal, me: int, who: Callable[[int], str]) -> str:
    """The card points taken in tricks so far, by side as a player counts
    them: the declarer against the defenders, or each on his own (Ramsch)."""
    pts = deal.trick_points
    seats = deal.in_play
    if deal.declarer is None:
        return " · ".join(f"{escape(who(s))} {pts[s]}" for s in seats)
    d = deal.declarer
    defenders = [s for s in seats if s != d]
    side = " and ".join(escape(who(s)) for s in defenders)
    mine = "" if me == d else " (your side)"
    return f"{escape(who(d))} {pts[d]} · {side}{mine} {sum(pts[s] for s in defenders)}"


def hand_row(cards: list[int], numbered: list[int], symbols: bool, label: str = "your hand") -> Table | Group:
    """A hand in one row, each card of ``numbered`` with its number beneath
    (the others dimmed, without a number).  A long label (a straw man's
    cards) goes on a line of its own: beside ten cards it would leave no
    room for them on a narrow terminal."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    for _ in cards:
        grid.add_column(justify="center", no_wrap=True)
    number = {c: i for i, c in enumerate(numbered, 1)}
    head = f"{label}:" if len(label) <= LABEL_BESIDE else " "
    grid.add_row(head, *(card_markup(c, symbols) if c in number else f"[dim]{card_markup(c, symbols)}[/dim]"
                         for c in cards))
    grid.add_row("", *(f"[cyan]{number[c]}[/cyan]" if c in number else "" for c in cards))
    return grid if len(label) <= LABEL_BESIDE else Group(f"{escape(label)}:", grid)


def card_table(deal, me: int, who: Callable[[int], str], symbols: bool, title: str, thought: dict,
               width: int = WIDTH) -> Panel:
    """The table at your turn to play a card (``me``: the seat you play
    now): the other seats left and right, the trick in the middle, the
    card points below.  A title wider than the table (a ``width`` narrower
    than 80 columns) keeps its first part (``deal 3 (pub)``) and puts what
    follows ``·`` (the game and the bid) on the first line inside, where it
    wraps: the border would cut it off (``(bid 2`` for 24)."""
    view = deal.view(me)
    table = deal.table
    others = [s for s in seats_in_order(deal, me) if s != me]
    seats = Table.grid(expand=True)
    sides: tuple[JustifyMethod, ...] = ("left", "right")
    for side in sides[:len(others)]:
        seats.add_column(justify=side, ratio=1)
    left = cards_left(deal)
    seats.add_row(*(f"{escape(who(s))} ({SEATS[s]}) · {left[s]} card{'s' if left[s] != 1 else ''}" for s in others))
    shown = []
    for s in others:
        cards = view.others.get(s) or (view.declarer_hand if s == view.declarer else None)
        if cards:
            whose = "your hand:" if who(s) == "you" else f"{escape(who(s))} shows"  # you play a straw man's cards
            shown.append(f"{whose} {cards_markup(sort_hand(cards_in(cards), table), symbols)}")
    trick = deal.tricks[-1]
    order = seats_in_order(deal, trick.leader)
    on_table = played(trick.cards, order, who, symbols, thought) if trick.cards else f"{escape(who(me))} to lead"
    middle = Align.center(f"trick {len(deal.tricks)}:  {on_table}")
    points = f"[dim]card points in tricks:[/dim] {card_points(deal, me, who)}"
    title = printable(title)
    top: list = []
    if len(title) + 6 > min(WIDTH, width) and " · " in title:  # "╭─ " and " ─╮" around it
        title, _, game = title.partition(" · ")
        top = [escape(game)]
    return Panel(Group(*top, seats, *shown, "", middle, "", points), title=escape(title), title_align="left", width=WIDTH)


def contract_title(deal, who: Callable[[int], str]) -> str:
    """``Ann plays clubs hand (bid 24)``; a deal nobody declared: its game."""
    if deal.declarer is None:
        return f"{deal.rules.all_pass} (nobody declared)"
    bid = f" (bid {deal.bid})" if deal.bid else ""  # no bidding (Offiziersskat): no bid to name
    return f"{who(deal.declarer)} {'play' if who(deal.declarer) == 'you' else 'plays'} {d_text(deal.declaration)}{bid}"


__all__ = ["card_points", "card_table", "contract_title", "hand_row", "played", "seats_in_order"]
