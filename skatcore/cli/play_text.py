"""What ``skat play`` shows: cards with suit symbols and colours, a hand
sorted as a player sorts it, and what each declaration would be worth."""

from __future__ import annotations

from skatcore.cards import CARD_NAMES, SUIT_NAMES, SUITS
from skatcore.engine.scoring import game_value
from skatcore.rules.compiler import TRUMP

SYMBOL = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
# the German four-colour deck: clubs black, spades green, hearts red, diamonds orange
COLOUR = {"C": "bold", "S": "green", "H": "red", "D": "yellow"}
RANK = {"T": "10"}
RED = {"H", "D"}


def can_show_symbols(stream) -> bool:
    """Suit symbols where ``stream`` can encode them (else ``SA``, as records write cards)."""
    try:
        "♣♠♥♦".encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class PlainStream:
    """An output stream that cannot show the suit symbols (an ASCII or
    Latin-1 locale): what the table writes with them in letters (``♠7`` as
    ``S7``, ``·`` as ``-``, ``→`` as ``->``), anything else it cannot encode
    as ``?``, so that no line stops the game."""

    PLAIN = str.maketrans({"♣": "C", "♠": "S", "♥": "H", "♦": "D", "·": "-", "→": "->", "…": "..."})

    def __init__(self, stream):
        self.stream = stream
        self.encoding = getattr(stream, "encoding", None) or "ascii"

    def write(self, text: str) -> int:
        plain = text.translate(self.PLAIN).encode(self.encoding, "replace").decode(self.encoding)
        return self.stream.write(plain)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()


def card_markup(c: int, symbols: bool = True) -> str:
    """A card as rich markup: ``[red]♥10[/red]`` (``HT`` without symbols)."""
    name = CARD_NAMES[c]
    suit, rank = name[0], name[1]
    text = f"{SYMBOL[suit]}{RANK.get(rank, rank)}" if symbols else name
    return f"[{COLOUR[suit]}]{text}[/{COLOUR[suit]}]"


def suit_markup(suit: str, symbols: bool = True) -> str:
    """A suit as rich markup: ``[red]♥[/red]`` (``hearts`` without symbols)."""
    return f"[{COLOUR[suit]}]{SYMBOL[suit] if symbols else SUIT_NAMES[suit]}[/{COLOUR[suit]}]"


def cards_markup(cards, symbols: bool = True) -> str:
    return " ".join(card_markup(c, symbols) for c in cards)


def suit_order(trump: str | None) -> list[str]:
    """The plain suits after the trumps, black and red taking turns where
    they can (trump hearts: clubs, diamonds, spades)."""
    rest = [s for s in SUITS if s != trump]
    red = trump in RED if trump else True  # the suit before the first plain suit
    order = []
    while rest:
        pick = next((s for s in rest if (s in RED) != red), rest[0])
        order.append(pick)
        rest.remove(pick)
        red = pick in RED
    return order


def sort_hand(cards, table=None) -> list[int]:
    """A hand as a player sorts it: trumps first, highest first (the jacks
    lead them), then the other suits, colours alternating, each highest
    first.  Without a contract yet (``table`` None) the jacks come first and
    the suits follow in grand order (A 10 K Q 9 8 7)."""
    if table is None:
        order = "ATKQ987"
        suits = suit_order(None)
        return sorted(cards, key=lambda c: (CARD_NAMES[c][1] != "J", suits.index(CARD_NAMES[c][0]) if CARD_NAMES[c][1] != "J"
                                            else SUITS.index(CARD_NAMES[c][0]), order.find(CARD_NAMES[c][1])))
    trump = next((CARD_NAMES[c][0] for c in range(len(table.follow)) if table.follow[c] == TRUMP
                  and CARD_NAMES[c][1] not in "J"), None)
    suits = suit_order(trump)

    def key(c):
        f = table.follow[c]
        if f == TRUMP:
            return (0, 0, -table.strength[f][c])
        return (1, suits.index(CARD_NAMES[c][0]), -table.strength[f][c])
    return sorted(cards, key=key)


HAND_NOTE = "the matadors of your hand; the skat counts too"


def declaration_values(rules, options, known: int, bid: int, hand_game: bool) -> list[str]:
    """Each declaration with what it is worth won simply, with the
    matadors of the ``known`` cards (a mask: the hand and the cards put
    away), and whether that reaches the bid.  (A hand game's note that the
    skat counts too is said once, above the list: :data:`HAND_NOTE`.)"""
    out = []
    for d in options:
        if not rules.contracts[d.game].declarer:  # all against all (a Ramsch declared): no game value to reach
            out.append(f"{d_text(d)}  [dim]each plays for himself: fewest card points[/dim]")
            continue
        table = rules.tricks[d.game]
        value, how = game_value(rules, d, table.matadors(known))
        verdict = ("" if not bid else  # no bidding (Offiziersskat): no bid to reach
                   "[green]reaches the bid[/green]" if value >= bid else f"[red]below the bid {bid}: overbid[/red]")
        out.append(f"{d_text(d)}  [dim]{how}[/dim]  {verdict}".rstrip())
    return out


def d_text(d) -> str:
    extras = [x for x in ("hand", "schneider", "schwarz", "ouvert") if getattr(d, x)]
    extras += [f"{k}" if v is True else f"{k}={v}" for k, v in sorted(d.declarations.items())]
    return " ".join([d.game, *extras])
