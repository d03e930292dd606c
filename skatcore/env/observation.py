"""What one seat may see of a deal, as named blocks and as one flat float32
array: :class:`ObservationEncoder`, shared by every game interface of
:mod:`skatcore.env`.  ``layout()`` lists the blocks in their order in the
array with their sizes; docs/env.md shows them (a test keeps the page true).

Cards are one slot per card of the ruleset's deck, lowest card id first
(``rules.deck.cards``); seats are forehand, middlehand, rearhand.  Only what
the seat's person may know goes in: its own cards, the hands the ruleset
shows it (a straw man it plays, an ouvert declarer, a hand turned face up),
the cards it put away itself, the skat if it picked it up as declarer,
public calls and cards played, and the cards steps showed everyone.
"""

from __future__ import annotations

import numpy as np

from skatcore.cards import cards_in
from skatcore.engine.actions import Bid, Call, Declare, Discard, Hold, Pass, Phase, Play
from skatcore.env.catalogue import ActionCatalogue

PHASES = tuple(Phase)
#: the marks (``deal.marks``) that hold cards steps showed every seat: a
#: Tournée's turned trump card, the dummy's two shown cards (Schmegegge)
CARD_MARKS = ("turned", "dummy_shown")

_WORDS = {
    "seat": "the observing seat (the person's own seat), one-hot",
    "to_move": "the seat whose decision it is (a straw man's too), one-hot; zeros when the deal is over",
    "acting": "1 if this person decides now",
    "phase": "the deal's phase, one-hot: " + ", ".join(p.value for p in PHASES),
    "hand": "the seat's own cards",
    "others": "per seat, the cards of other seats this person may see now (a straw man it plays, a hand shown)",
    "put_away": "cards this seat put away itself (its discard, its pushes, cards given to a dummy)",
    "choosing": "the cards of a discard being chosen, put away so far",
    "skat": "the skat as dealt, if this seat picked it up as declarer",
    "shown": "cards a step showed every seat (a turned trump card, a dummy's shown cards)",
    "bid": "the highest bid so far / the ladder's top",
    "bid_by": "per seat, the highest value it bid or held / the ladder's top",
    "passed": "per seat, 1 once it said pass",
    "moves": "per seat, which public actions of the core and steps it made (pick up, hand, push blind, turn up ...)",
    "declarer": "the declarer's seat, one-hot",
    "game": "the declared contract, one-hot over the ruleset's contracts",
    "game_flags": "hand, schneider, schwarz, ouvert announced",
    "calls": "per table call of the ruleset, 1 once said (Kontra, Re ...)",
    "step": "the plugin step running, one-hot over the ruleset's steps",
    "tricks": "per trick (in order, in progress included): the leader one-hot (3), then the cards in play order (3 x cards)",
    "trick": "the trick in progress: its cards in play order (3 x cards)",
    "points": "per seat, the card points of the tricks it took / the deck's card points",
}


class ObservationEncoder:
    """Encodes what ``seat`` may see of a deal under one compiled ruleset:
    ``dict(deal, seat)`` (block name -> float32 array) and
    ``encode(deal, seat)`` (the blocks one after the other, ``size`` floats)."""

    def __init__(self, rules, catalogue=None) -> None:
        self.rules = rules
        self.catalogue = cat = catalogue or ActionCatalogue(rules)
        self.cards = cards = tuple(rules.deck.cards)
        self.slot = {c: i for i, c in enumerate(cards)}
        self.contracts = tuple(rules.contracts)
        self.calls = tuple(rules.calls)
        self.steps = tuple(s.name for s in rules.steps)
        self.moves = tuple((*cat.sections["core"], *cat.sections["step"]))
        self.move_slot = {i: k for k, i in enumerate(self.moves)}
        self.top = float(max(rules.ladder, default=1) or 1)
        self.total = float(rules.deck.total_points or 1)
        self.n_tricks = rules.deck.hand
        self._phase = {id(p): i for i, p in enumerate(PHASES)}  # by id: an Enum member hashes in Python
        self._contract = {g: i for i, g in enumerate(self.contracts)}
        self._memo: dict[int, list] = {}  # seat -> [deal, history read, trick, its cards written, bid, the blocks kept]
        c = len(cards)
        sizes = {"seat": 3, "to_move": 3, "acting": 1, "phase": len(PHASES), "hand": c, "others": 3 * c,
                 "put_away": c, "choosing": c, "skat": c, "shown": c, "bid": 1, "bid_by": 3, "passed": 3,
                 "moves": 3 * len(self.moves), "declarer": 3, "game": len(self.contracts), "game_flags": 4,
                 "calls": len(self.calls), "step": len(self.steps), "tricks": self.n_tricks * (3 + 3 * c),
                 "trick": 3 * c, "points": 3}
        self.shapes = {"others": (3, c), "bid_by": (3,), "passed": (3,), "moves": (3, len(self.moves)),
                       "tricks": (self.n_tricks, 3 + 3 * c), "trick": (3, c)}
        self.offsets: dict[str, slice] = {}
        at = 0
        for key, n in sizes.items():
            self.offsets[key] = slice(at, at + n)
            at += n
        self.size = at
        self._at = {k: s.start for k, s in self.offsets.items()}
        # where the cards of a hand (a mask) go in the hand block: per 11 bits of the mask, as Deal's PLAYS_A/B/C
        hand, slot = self._at["hand"], self.slot
        self._hand_at = [[tuple(hand + slot[low + b] for b in range(11) if m >> b & 1 and low + b in slot)
                          for m in range(2048)] for low in range(0, 33, 11)]  # card ids below 33, as for Deal's tables

    def layout(self) -> list[tuple[str, int, int, str]]:
        """The blocks of the flat array: ``(name, start, size, what it holds)``."""
        return [(k, s.start, s.stop - s.start, _WORDS[k]) for k, s in self.offsets.items()]

    def dict(self, deal, seat: int, turns=None) -> dict[str, np.ndarray]:
        """The blocks by name, each shaped (``others``: seats x cards ...)."""
        flat = self.encode(deal, seat, turns)
        return {k: flat[s].reshape(self.shapes.get(k, (s.stop - s.start,))) for k, s in self.offsets.items()}

    def encode(self, deal, seat: int, turns=None, out: np.ndarray | None = None) -> np.ndarray:
        """The flat observation of ``seat``; ``turns``: the
        :class:`~skatcore.env.encoding.Turns` driving the deal, which knows
        whose decision it is (a call answered) and the discard's cards chosen so far."""
        kept = self._kept(deal, seat)
        if out is None:
            v = kept.copy()
        else:
            v = out
            v[:] = kept
        slot = self.slot
        c = len(self.cards)
        at = self._at
        v[at["seat"] + seat] = 1.0
        if turns is not None:
            to_move, who, chosen = turns.actor, turns.person, turns.chosen
        else:
            to_move = None if deal.done else deal.to_move
            who, chosen = (None if to_move is None else deal.controller(to_move)), ()
        if to_move is not None:
            v[at["to_move"] + to_move] = 1.0
            if who == seat:
                v[at["acting"]] = 1.0
        v[at["phase"] + self._phase[id(deal.phase)]] = 1.0
        plain = deal.rules.table.plain
        if plain or deal.sees(seat, seat):
            for i in self._hand(deal.hands[seat]):
                v[i] = 1.0
        ouvert = deal.declaration is not None and deal.declaration.ouvert and deal.phase is Phase.PLAY
        if ouvert or not plain:
            for s in range(3):
                if s != seat and ((not plain and deal.sees(seat, s)) or (ouvert and s == deal.declarer)):
                    base = at["others"] + s * c
                    for card in cards_in(deal.hands[s]):
                        v[base + slot[card]] = 1.0
        for card in chosen if who == seat else ():
            v[at["choosing"] + slot[card]] = 1.0
        if deal.picked_up and seat == deal.declarer:
            for card in deal.original_skat:
                v[at["skat"] + slot[card]] = 1.0
        if deal.marks:
            for key in CARD_MARKS:
                mark = deal.marks.get(key)
                for card in (mark,) if isinstance(mark, int) else mark or ():
                    v[at["shown"] + slot[card]] = 1.0
        v[at["bid"]] = deal.bid / self.top
        if deal.declarer is not None:
            v[at["declarer"] + deal.declarer] = 1.0
        d = deal.declaration
        if d is not None:
            v[at["game"] + self._contract[d.game]] = 1.0
            flags = at["game_flags"]
            v[flags:flags + 4] = (d.hand, d.schneider, d.schwarz, d.ouvert)
            for k, call in enumerate(self.calls):
                if d.declarations.get(call):
                    v[at["calls"] + k] = 1.0
        if deal.step is not None and deal.step.name in self.steps:
            v[at["step"] + self.steps.index(deal.step.name)] = 1.0
        if deal.tricks and deal.tricks[-1].winner is None:
            base = at["trick"]
            for j, card in enumerate(deal.tricks[-1].cards):
                v[base + j * c + slot[card]] = 1.0
        p, total, points = at["points"], self.total, deal.trick_points
        v[p], v[p + 1], v[p + 2] = points[0] / total, points[1] / total, points[2] / total
        return v

    def _hand(self, mask: int) -> tuple[int, ...]:
        """The positions of a hand's cards (a mask) in the flat array's hand block."""
        a, b, c = self._hand_at
        return a[mask & 2047] + b[mask >> 11 & 2047] + c[mask >> 22 & 2047]

    def _kept(self, deal, seat: int) -> np.ndarray:
        """The blocks that only ever grow - the bidding, the public moves, the
        seat's own discards, the tricks - as far as ``deal`` has come, carried
        on from where the last observation of ``seat`` in this deal left them."""
        memo = self._memo.get(seat)
        if memo is None or memo[0] is not deal:
            memo = self._memo[seat] = [deal, 0, 0, 0, 0, np.zeros(self.size, np.float32)]
        _, n, t, j, current, v = memo
        at, cat, hidden, slot, top = self._at, self.catalogue, deal.hidden, self.slot, self.top
        bid_by, passed, moves = at["bid_by"], at["passed"], at["moves"]
        width = len(self.moves)
        history = deal.history
        for i in range(n, len(history)):
            who, a = history[i]
            kind = type(a)
            if kind is Play or kind is Call or kind is Declare:
                continue
            if kind is Bid:
                current = a.value
                v[bid_by + who] = max(v[bid_by + who], current / top)
            elif kind is Hold:
                v[bid_by + who] = max(v[bid_by + who], current / top)
            elif kind is Pass:
                v[passed + who] = 1.0
            elif kind is Discard:
                if who == seat:
                    for card in a.cards:
                        v[at["put_away"] + slot[card]] = 1.0
            elif who == seat or i not in hidden:
                k = self.move_slot.get(cat.index(a))
                if k is not None:
                    v[moves + who * width + k] = 1.0
        c = len(self.cards)
        w = 3 + 3 * c
        tricks = deal.tricks
        for t in range(t, min(len(tricks), self.n_tricks)):  # noqa: B020 (t carries on from where it was)
            base = at["tricks"] + t * w
            if j == 0:
                v[base + tricks[t].leader] = 1.0
            cards = tricks[t].cards
            for j in range(j, len(cards)):  # noqa: B020
                v[base + 3 + j * c + slot[cards[j]]] = 1.0
            j = len(cards)
            if t < len(tricks) - 1:
                j = 0
        memo[1:5] = len(history), t, j, current
        return v


def layout_table(encoder: ObservationEncoder) -> str:
    """The flat array's blocks as a Markdown table (docs/env.md shows the official ruleset's)."""
    rows = ["| block | offset | size | holds |", "|---|---|---|---|"]
    rows += [f"| `{key}` | {start} | {size} | {what} |" for key, start, size, what in encoder.layout()]
    return "\n".join(rows) + "\n"
