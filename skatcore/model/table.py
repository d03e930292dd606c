"""Plain data of the cards and the table that the hooks exchange with the
core: the deck and how it is dealt (hook ``skat_deck``), and how each seat is
played and who sees its cards (hook ``skat_table``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import random
from functools import cached_property

ASIDE_TO = ("nobody", "declarer", "defenders", "more_points")


# what Deck.deal returns: the three hands and the skat, then the cards aside if the deck has any
Dealt = tuple[list[list[int]], list[int]] | tuple[list[list[int]], list[int], list[int]]


@dataclass(frozen=True)
class Deck:
    """The cards a ruleset deals, and how (hook ``skat_deck``).

    :param ranks: the ranks of every suit, in null order: ``"AKQJT987"`` (32
        cards) or ``"AKQJT9876"`` (36, Sechserskat).  Where a rank ranks in a
        contract is its :class:`CardOrder`'s business.
    :param hand: cards per seat dealt.
    :param skat: cards in the skat (the declarer discards as many; may be 0).
    :param packets: the dealing: in each round every seat dealt gets that
        many cards, ``"skat"`` lays the skat down, ``"aside"`` the cards laid
        aside.  The numbers add up to ``hand``.
    :param seats: the seats dealt cards, which play to every trick (a trick
        has one card of each): ``(0, 1, 2)``, or two of them at a table of two
        (seats left out get no cards and never move).
    :param aside: cards laid aside face down, never played (0: none).
    :param aside_to: whose card points the laid-aside cards count for at the
        end of a declarer game: ``"nobody"``, ``"declarer"``, ``"defenders"``
        or ``"more_points"`` (the side that took more card points; a tie
        leaves them with the defenders).
    """

    ranks: str = "AKQJT987"
    hand: int = 10
    skat: int = 2
    packets: tuple[int | str, ...] = (3, "skat", 4, 3)
    seats: tuple[int, ...] = (0, 1, 2)
    aside: int = 0
    aside_to: str = "nobody"

    @cached_property
    def cards(self) -> tuple[int, ...]:
        """The card ids of the deck, lowest first."""
        from skatcore.cards import CARD_NAMES

        return tuple(c for c, n in enumerate(CARD_NAMES) if n[1] in self.ranks)

    @cached_property
    def mask(self) -> int:
        return sum(1 << c for c in self.cards)

    @cached_property
    def total_points(self) -> int:
        from skatcore.cards import POINTS

        return sum(POINTS[c] for c in self.cards)

    def problems(self) -> str | None:
        """Why this deck cannot be dealt, or ``None``."""
        from skatcore.cards import ALL_RANKS

        bad = [r for r in self.ranks if r not in ALL_RANKS]
        if bad or len(set(self.ranks)) != len(self.ranks):
            return f"ranks {self.ranks!r}: expected distinct ranks out of {ALL_RANKS}"
        packets = list(self.packets)
        if sum(p for p in packets if not isinstance(p, str)) != self.hand or packets.count("skat") != 1 \
                or packets.count("aside") != (1 if self.aside else 0) or set(filter(lambda p: isinstance(p, str), packets)) - {"skat", "aside"}:
            return f"packets {packets} do not deal {self.hand} cards each, the skat once" + (" and the cards aside once" if self.aside else "")
        if len(self.seats) not in (2, 3) or len(set(self.seats)) != len(self.seats) or not set(self.seats) <= {0, 1, 2}:
            return f"seats {list(self.seats)}: expected 2 or 3 different seats out of 0, 1, 2"
        if self.aside_to not in ASIDE_TO:
            return f"aside_to {self.aside_to!r}: expected one of {', '.join(ASIDE_TO)}"
        if len(self.seats) * self.hand + self.skat + self.aside != 4 * len(self.ranks):
            return (f"{len(self.ranks) * 4} cards do not make {len(self.seats)} hands of {self.hand}"
                    + (f", a skat of {self.skat} and {self.aside} aside" if self.aside else f" and a skat of {self.skat}"))
        return None

    def deal(self, rng: random.Random) -> Dealt:
        """Shuffle with ``rng`` (a :class:`random.Random`) and deal by ``packets``:
        three hand lists (forehand first, in the order dealt; a seat not dealt
        gets none) and the skat, then the cards laid aside if the deck has any
        (so ``Deal(rules, *deck.deal(rng))`` works for every deck)."""
        deck = list(self.cards)
        rng.shuffle(deck)
        hands: list[list[int]] = [[], [], []]
        skat: list[int] = []
        aside: list[int] = []
        pos = 0
        for packet in self.packets:
            if packet == "skat":
                skat, pos = deck[pos:pos + self.skat], pos + self.skat
            elif packet == "aside":
                aside, pos = deck[pos:pos + self.aside], pos + self.aside
            elif isinstance(packet, int):
                for seat in self.seats:
                    hands[seat] += deck[pos:pos + packet]
                    pos += packet
        return (hands, skat, aside) if self.aside else (hands, skat)


STANDARD_DECK = Deck()


MOMENTS = ("deal", "declared", "first_card", "first_trick")
SHOWN_TO = ("controller", "declarer", "all")
CONTROLLERS = ("own", "defender", "nobody")
ARRANGEMENTS = ("hand", "stacks", "pile")


@dataclass(frozen=True)
class SeatPlan:
    """How one seat is played, and who sees its cards (hook ``skat_table``).

    :param controller: who makes the seat's moves: ``"own"`` (the person
        sitting there), ``"defender"`` (the person on the defending side: a
        straw man played by the defender) or ``"nobody"`` (every move is
        forced: a face-down pile whose top card is played).
    :param bids: whether the seat takes part in the bidding; a seat that
        does not passes without being asked (nothing is recorded for it).
    :param shown: when the seat's open cards are shown, and to whom, as
        ``(moment, to)`` pairs: moment ``"deal"``, ``"declared"`` (the game
        is announced), ``"first_card"`` (a card is led) or ``"first_trick"``
        (the first trick is complete); to ``"controller"`` (who plays the
        seat), ``"declarer"`` or ``"all"``.  A seat played by its own person
        is always seen by that person.
    :param arrangement: how its dealt cards lie: ``"hand"`` (all open to
        play), ``"stacks"`` (``open`` stacks, the cards dealt last face up on
        top; playing the top card turns up the one beneath) or ``"pile"``
        (the first ``open`` cards dealt face up, the rest a face-down pile
        that refills the open cards after every trick).  Only open cards may
        be played; cards not yet turned up are seen by nobody.
    :param open: open cards of a ``stacks`` or ``pile`` arrangement.
    :param name: what the players call a seat nobody sits at (``Oma``, the
        ``half-dummy``); empty: the straw man.
    """

    controller: str = "own"
    bids: bool = True
    shown: tuple[tuple[str, str], ...] = ()
    arrangement: str = "hand"
    open: int = 0
    name: str = ""

    def problems(self, hand: int) -> str | None:
        """Why this plan cannot be played with ``hand`` cards, or ``None``."""
        if self.controller not in CONTROLLERS:
            return f"controller {self.controller!r}: expected one of {', '.join(CONTROLLERS)}"
        if self.arrangement not in ARRANGEMENTS:
            return f"arrangement {self.arrangement!r}: expected one of {', '.join(ARRANGEMENTS)}"
        for moment, to in self.shown:
            if moment not in MOMENTS or to not in SHOWN_TO:
                return f"shown ({moment!r}, {to!r}): expected a moment out of {', '.join(MOMENTS)} and one of {', '.join(SHOWN_TO)}"
        if self.arrangement != "hand" and not (0 < self.open <= hand and (self.arrangement == "pile" or hand % self.open == 0)):
            return f"{self.arrangement} of {self.open} open cards: expected 1 to {hand}" + \
                (f", dividing the {hand} cards" if self.arrangement == "stacks" else "")
        return None


@dataclass(frozen=True)
class Table:
    """The seats of a table and how each is played (hook ``skat_table``):
    three plans, forehand first.  The default: everyone plays their own hand."""

    seats: tuple[SeatPlan, SeatPlan, SeatPlan] = (SeatPlan(), SeatPlan(), SeatPlan())

    @cached_property  # read by every SeatView
    def plain(self) -> bool:
        """Every seat played by its own person from an ordinary hand."""
        return all(p == SeatPlan() for p in self.seats)


PLAIN_TABLE = Table()
