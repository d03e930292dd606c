"""Other layouts a seat cannot tell from the deal it is in: what OpenSpiel's
``resample_from_infostate`` answers (:mod:`skatcore.env.openspiel`) and
what the IS-MCTS player builds its search on (:mod:`skatcore.bots.ismcts`).

A layout is a relabelling of the cards: the cards the seat has seen (its
own cards at any moment, the cards played, hands shown to it, cards steps
showed everyone) keep their places; the others are dealt afresh among the
places they lie now (another seat's hand, the skat, a face-down stack),
never into a hand that showed itself void in their class (it did not follow
suit).  The whole deal is then replayed with the new cards: a layout in
which some move is not legal, or after which the seat would see anything
else than it sees (``info_key``), is drawn again.  Being rule-blind, this
works under any ruleset: what the voids do not capture, the replay refuses.

A deal as OpenSpiel's states hold it (:class:`Play`: the cards dealt, the
decisions made) and what the states of one game share (:class:`Shared`) are
here too, free of OpenSpiel.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from skatcore.bots.unseen import place_unseen
from skatcore.cards import cards_in
from skatcore.engine.actions import Play as PlayCard
from skatcore.engine.deal import Deal
from skatcore.engine.table import people
from skatcore.engine.view import SeatView
from skatcore.env.encoding import ActionCatalogue, ObservationEncoder, Turns
from skatcore.env.observation import CARD_MARKS
from skatcore.env.rewards import REWARDS
from skatcore.errors import InputError
from skatcore.model import SEATS

RETURNS = REWARDS  # as skat_v0's rewards

SKAT, ELSEWHERE = 3, 4  # places beside the three hands: the skat; laid aside or face down


class Shared:
    """What every state of one game shares: the rules, the catalogue, the
    encoder, the persons' seats.  Never copied (a state's clone shares it)."""

    def __init__(self, rules, returns: str = "sheet", calls: bool = True) -> None:
        if returns not in RETURNS:
            raise ValueError(f"returns={returns!r}: expected one of {', '.join(RETURNS)}")
        self.rules = rules
        self.returns = returns
        self.calls = bool(calls) and bool(rules.calls)
        self.catalogue = ActionCatalogue(rules)
        self.encoder = ObservationEncoder(rules, self.catalogue)
        self.persons = people(rules)
        self.player_of = {seat: i for i, seat in enumerate(self.persons)}
        deck = rules.deck
        # dealing order: each seat's hand (seats the deck deals), the skat, the cards laid aside
        self.sizes = [deck.hand if s in deck.seats else 0 for s in range(3)] + [deck.skat, deck.aside]
        self.n_cards = sum(self.sizes)
        self.deck = tuple(deck.cards)
        self.kept = 0  # resamples that kept the cards as they were (no other layout found)

    def __deepcopy__(self, memo):
        return self

    def bound(self) -> float:
        """A bound on any return: the ladder's top (or the 120 card points of a Ramsch), lost twice, under
        Kontra, Re and Bock (x8), settled against the others (``classic``: x2), plus Seeger-Fabian's points."""
        return 32.0 * max(max(self.rules.ladder, default=0), 120) + 100.0

    def max_length(self) -> int:
        """More decisions than any deal takes: two biddings over the whole ladder, the steps, the skat,
        the declaration, every card, every call answered."""
        return 2 * (4 * len(self.rules.ladder) + 8) + 60 + 3 * self.rules.deck.hand + 4 * len(self.rules.calls)


class Play:
    """One deal as OpenSpiel sees it: the cards dealt so far, the decisions
    made (catalogue indices) and, once dealt, the :class:`Turns` driving it.
    A copy replays the decisions on a new deal (``copy.deepcopy``, which
    OpenSpiel's ``clone`` calls)."""

    __slots__ = ("cards", "decisions", "known", "shared", "turns")

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.cards: list[int] = []
        self.decisions: list[int] = []
        self.turns: Turns | None = None
        self.known: dict[int, Knowledge] = {}  # per seat, for resampling; not copied

    def deal_now(self) -> None:
        """Start the deal: every card is dealt (``cards``, in the order of ``Shared.sizes``)."""
        sh, cards, at = self.shared, self.cards, 0
        parts = []
        for n in sh.sizes:
            parts.append(cards[at:at + n])
            at += n
        self.turns = Turns(sh.catalogue, Deal(sh.rules, parts[:3], parts[3], parts[4]), calls=sh.calls)

    def apply(self, action: int) -> None:
        """Deal card ``action`` while the cards are dealt, else make decision
        ``action`` (a catalogue index, or a table call made out of turn:
        ``size + 3 * call + seat``)."""
        if self.known:
            self.known = {}
        if self.turns is None:
            self.cards.append(action)
            if len(self.cards) == self.shared.n_cards:
                self.deal_now()
        else:
            cat = self.shared.catalogue
            if action < cat.size:
                self.turns.apply(action)
            else:  # a table call made out of turn, as a real deal had it (the IS-MCTS player): size + 3 * call + seat
                code = action - cat.size
                self.turns.apply_action(cat.action(cat.sections["call"].start + code // 3, code % 3))
            self.decisions.append(action)

    def replayed(self, cards=None, decisions=None) -> Play:
        """A new Play of ``cards`` and ``decisions`` (these by default); raises
        InputError or ValueError where one is not legal."""
        out = Play(self.shared)
        out.cards = list(self.cards if cards is None else cards)
        if len(out.cards) == self.shared.n_cards:
            out.deal_now()
            for d in self.decisions if decisions is None else decisions:
                out.apply(d)
        return out

    def __deepcopy__(self, memo) -> Play:
        return self.replayed()

    def view(self, seat: int) -> SeatView:
        """What ``seat`` sees of the deal now."""
        return SeatView(self.turns.deal, seat, ())  # type: ignore[union-attr]


def view_key(view: SeatView) -> str:
    """A :class:`SeatView` as one string: the seat's cards, the hands shown
    to it, the steps' marks, who is to move, every move of the deal as the
    seat saw it (another's discard as ``discards``) and, where cards lie in
    stacks, which card each card played turned up (two deals alike in all
    else differ there: in which cards still cover a face-down card)."""
    shown = " ".join(f"{s}:{m:x}" for s, m in sorted(view.others.items()))
    moves = "|".join(f"{who}{a}" for who, a in view.history)
    key = (f"{SEATS[view.seat]} {view.phase.value} {view.to_move} hand:{view.hand:x} shown:{shown} "
           f"ouvert:{view.declarer_hand or 0:x} marks:{sorted(view.marks.items())} {moves}")
    turned = view.turned_up
    return f"{key} turned:{' '.join(f'{x}>{y}' for x, y in turned)}" if turned else key


def info_key(play: Play, seat: int) -> str:
    """What ``seat``'s person knows now (:func:`view_key`, whose decision it
    is and the cards of a discard it is choosing): the information state of
    OpenSpiel (perfect recall: every move it saw is in it)."""
    t = play.turns
    if t is None:
        return f"{SEATS[seat]} dealing {len(play.cards)}"
    own = " ".join(map(str, t.chosen)) if t.actor == seat else ""
    return f"{view_key(SeatView(t.deal, seat, ()))} to:{t.actor} chosen:{own}"


def seen_by(play: Play, seat: int) -> int:
    """The cards ``seat``'s person has seen at any moment of the deal so far
    (replayed move by move: a skat it picked up and put away again counts)."""
    fresh = Play(play.shared)
    fresh.cards = list(play.cards)
    fresh.deal_now()
    deal = fresh.turns.deal  # type: ignore[union-attr]

    def look() -> int:
        v = SeatView(deal, seat, ())
        m = v.hand | (v.declarer_hand or 0)
        for hand in v.others.values():
            m |= hand
        return m

    seen = look()
    for d in play.decisions:
        fresh.apply(d)
        seen |= look()
    for _, a in deal.history:
        if type(a) is PlayCard:
            seen |= 1 << a.card
    for key in CARD_MARKS:
        for card in marked_cards(deal.marks.get(key)):
            seen |= 1 << card
    return seen


def marked_cards(mark) -> tuple[int, ...]:
    """The cards of a mark of :data:`~skatcore.env.observation.CARD_MARKS` (a card, some cards, or none)."""
    return (mark,) if isinstance(mark, int) else tuple(mark or ())


def voids(deal) -> list[int]:
    """Per seat, the cards it cannot hold: the classes of the leads it did not
    follow (a seat whose cards lie in stacks or a pile turns up more: none)."""
    out = [0, 0, 0]
    if not deal.tricks:
        return out
    plans = deal.rules.table.seats
    table = deal.table
    plays = [who for who, a in deal.history if type(a) is PlayCard]
    k = 0
    for trick in deal.tricks:
        led = table.class_mask[table.follow[trick.cards[0]]] if trick.cards else 0
        for j, c in enumerate(trick.cards):
            who = plays[k]
            k += 1
            if j and not led >> c & 1 and plans[who].arrangement == "hand":
                out[who] |= led
    return out


def stacks_seen(view: SeatView, rules) -> dict[int, list[int | None]]:
    """Per seat whose cards lie in stacks (:class:`~skatcore.model.SeatPlan`)
    and whose open cards ``view`` shows: its cards in the order dealt, as
    :meth:`~skatcore.engine.seating.Seating._arrange` lays them out (layer by
    layer, the top layer last; stack ``i`` is the ``i``-th card of each
    layer), as far as the person knows them: each stack is an open or played
    top card, then the cards turned up from under it (``view.turned_up``),
    ``None`` for a face-down card nobody has seen.  A layout dealing these
    places (any unseen card for a ``None``) gave every hand at every trick the
    open cards the real one had, so the moves seen replay in it; cards dealt
    at random to the seat's cards instead put a turned-up card on top or under
    another card, and a hand then holds other cards than it did."""
    plans, deck = rules.table.seats, rules.deck
    under = dict(view.turned_up)
    played = [0, 0, 0]
    for who, a in view.history:
        if type(a) is PlayCard:
            played[who] |= 1 << a.card
    shown = {view.seat: view.hand, **view.others}
    out: dict[int, list[int | None]] = {}
    for s in deck.seats:
        plan = plans[s]
        if plan.arrangement != "stacks" or not (shown.get(s) or played[s].bit_count() == deck.hand):
            continue
        k = plan.open
        layers = deck.hand // k
        seen = played[s] | shown.get(s, 0)
        covered = set(under.values())
        stacks: list[list[int | None]] = []
        for top in cards_in(seen):
            if top in covered:
                continue
            stack: list[int | None] = [top]
            while stack[-1] in under:
                stack.append(under[stack[-1]])
            stacks.append(stack + [None] * (layers - len(stack)))
        if len(stacks) != k or any(len(st) != layers for st in stacks):
            continue  # not what the seat sees of stacks (not all of them shown to it): laid out at random
        out[s] = [stacks[i][layers - 1 - j] for j in range(layers) for i in range(k)]
    return out


@dataclass
class Knowledge:
    """Where the cards a seat has not seen lie now (``homes``: place -> cards)
    and which of them each place may take (``allowed``: card -> places)."""

    homes: dict[int, list[int]]
    allowed: dict[int, list[int]]

    @classmethod
    def of(cls, play: Play, seat: int) -> Knowledge:
        """What ``seat``'s person has not seen of ``play`` (:func:`seen_by`), where it lies, where it may go."""
        deal = play.turns.deal  # type: ignore[union-attr]
        mask = 0
        for c in play.shared.deck:
            mask |= 1 << c
        unseen = mask & ~seen_by(play, seat)
        homes: dict[int, list[int]] = {}
        for c in cards_in(unseen):
            h = next((s for s in range(3) if deal.hands[s] >> c & 1), SKAT if deal.skat >> c & 1 else ELSEWHERE)
            homes.setdefault(h, []).append(c)
        void = voids(deal)
        allowed = {c: [h for h in homes if h >= SKAT or not void[h] >> c & 1] for c in cards_in(unseen)}
        return cls(homes, allowed)

    def draw(self, rng: random.Random, tries: int = 20) -> dict[int, int]:
        """A relabelling: card now at a place -> the card it becomes (places
        keep their number of cards; a hand gets no card of a class it showed
        void in), drawn by :func:`~skatcore.bots.unseen.place_unseen`; after
        ``tries`` dead ends, any relabelling (the replay then judges it)."""
        got = place_unseen(self.allowed, {h: len(cs) for h, cs in self.homes.items()}, rng, tries)
        out: dict[int, int] = {}
        for h, now in self.homes.items():
            new = got[h]  # type: ignore[index]  # (the room is the homes' own: it adds up)
            rng.shuffle(new)
            out.update(zip(now, new, strict=True))
        return out


def relabelled(play: Play, mapping: dict[int, int]) -> Play | None:
    """``play`` with every card renamed by ``mapping`` (dealt, put away,
    played), or ``None`` if some move is then not legal."""
    cat = play.shared.catalogue
    get = mapping.get
    plays = cat.sections["play"]

    def rename(i: int) -> int:
        c = cat.card_put_away(i)
        if c is not None:
            return cat.put_away(get(c, c))
        if i in plays:
            c = cat.cards[i - cat.play_base]
            return cat.play_base + cat.position[get(c, c)]
        return i

    try:
        return play.replayed([get(c, c) for c in play.cards], [rename(d) for d in play.decisions])
    except (InputError, ValueError):
        return None
