"""What a seat can do in a deal: the actions :meth:`Deal.legal_actions`
lists and :meth:`Deal.apply` takes, and the phases a deal passes through."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from skatcore.cards import CARD_NAMES, name, names
from skatcore.model import SEATS, Declaration


class Phase(Enum):
    BIDDING = "bidding"
    STEP = "step"          # a plugin's step asks for its own actions (Deal.step says what is legal)
    SKAT = "skat"          # declarer: pick up the skat, play hand (or what a step offers)
    DISCARD = "discard"    # declarer: put two cards away
    DECLARE = "declare"    # declarer: name the contract and announcements
    PLAY = "play"
    DONE = "done"


# -- actions -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bid:
    value: int

    def __str__(self):
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Hold:
    """"Yes": the answering player holds the value named."""

    def __str__(self):
        return "yes"


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self):
        return "pass"


@dataclass(frozen=True, slots=True)
class PickUp:
    """The declarer takes the skat."""

    def __str__(self):
        return "pick up"


@dataclass(frozen=True, slots=True)
class PlayHand:
    """The declarer leaves the skat untouched: a hand game."""

    def __str__(self):
        return "hand"


@dataclass(frozen=True, slots=True)
class Discard:
    cards: tuple[int, ...]  # the skat's number of cards (two; three in Sechserskat)

    def __str__(self):
        return "discard " + " ".join(names(self.cards))


@dataclass(frozen=True, slots=True)
class Declare:
    declaration: Declaration

    def __str__(self):
        d = self.declaration
        return " ".join([d.game, *(["hand"] if d.hand else []), *sorted(d.announced)])


@dataclass(frozen=True, slots=True)
class Play:
    card: int

    def __str__(self):
        return name(self.card)


@dataclass(frozen=True, slots=True)
class Concede:
    """A player gives up (docs/rules/official.md#a7).  The deal ends when both defenders have
    conceded (declarer takes the rest), or when the declarer concedes holding
    9+ cards or with a defender's agreement (defenders take the rest)."""

    seat: int

    def __str__(self):
        return f"{SEATS[self.seat]} concedes"


@dataclass(frozen=True, slots=True)
class Call:
    """A table call made out of turn during play (Kontra, Re ...); see
    :class:`~skatcore.model.TableCall` and :meth:`Deal.legal_calls`."""

    seat: int
    name: str

    def __str__(self):
        return f"{SEATS[self.seat]}: {self.name}"


Action = Bid | Hold | Pass | PickUp | PlayHand | Discard | Declare | Play | Concede | Call  # and the steps' own

HOLD, PASS, PICK_UP, PLAY_HAND = Hold(), Pass(), PickUp(), PlayHand()
PLAYS = tuple(Play(c) for c in range(len(CARD_NAMES)))  # shared instances: no allocation per card


@dataclass(frozen=True, slots=True)
class Unseen:
    """Stands for a Discard (or a step's hidden action) in another seat's
    view: cards went away face down."""

    def __str__(self):
        return "discards"


UNSEEN = Unseen()
