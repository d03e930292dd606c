"""What a finished deal hands to scoring: :class:`~skatcore.model.GameFacts`
of a declarer game (concessions, cards laid aside and matadors counted), or
:class:`~skatcore.model.RamschFacts` of a deal without declarer."""

from __future__ import annotations

from types import MappingProxyType

from skatcore.cards import cards_in, mask_of, names
from skatcore.engine.scoring import make_facts
from skatcore.engine.state import DealState
from skatcore.errors import InputError
from skatcore.model import RamschFacts, ScoreResult

_NEXT3 = (1, 2, 0)  # who follows whom when all three seats play
_SIDE = {"declarer": "the declarer", "defenders": "the defenders", "nobody": "nobody"}


class DealFacts(DealState):
    """Part of :class:`~skatcore.engine.deal.Deal`: its facts and score."""

    __slots__ = ()

    def facts(self):
        """Facts of the finished deal: :class:`GameFacts` of a declarer game
        (cards not yet played go to the side that did not concede), or
        :class:`RamschFacts` of a deal without declarer; with the card points
        the ruleset's house rules give (``skat_card_points``)."""
        if not self.done or self.contract is None:
            raise InputError("the deal is not finished")
        pts = self.table.points
        if self.declarer is None:
            last = self.tricks[-1]
            return self.rules.adjusted(RamschFacts(
                self.contract, tuple(self.trick_points), tuple(self.tricks_won), tuple(cards_in(self.skat)),
                sum(pts[c] for c in cards_in(self.skat)), last.winner, marks=MappingProxyType(dict(self.marks)),
                seats=self.in_play, played=tuple(t for t in self.tricks if t.winner is not None)))
        decl = self.declarer
        all_cards = self.declarer_cards()
        if self.settled:  # nothing was played: the plugin that settled it says how it counts
            outcome = self.rules.call_hook("skat_settled_outcome", contract=self.contract,
                                           declaration=self.declaration, bid=self.bid) or {}
            return make_facts(self.rules, self.contract, self.declaration, bid=self.bid, declarer=decl,
                              matadors=self.table.matadors(all_cards),
                              declarer_points=outcome.get("declarer_points", 0),
                              declarer_tricks=outcome.get("declarer_tricks"), defender_tricks=None)
        points = self.trick_points[decl]
        skat, in_skat = self.skat, []
        while skat:  # the skat's cards, lowest first, and their points for the declarer
            low = skat & -skat
            c = low.bit_length() - 1
            in_skat.append(c)
            points += pts[c]
            skat ^= low
        dtricks = self.tricks_won[decl]
        ftricks = sum(self.tricks_won) - dtricks
        if self.concession_by and (unplayed := self.unplayed()):
            rest_points = sum(pts[c] for c in cards_in(unplayed))
            rest_points += sum(pts[c] for c in self.tricks[-1].cards if self.tricks[-1].winner is None)
            rest_tricks = self.rules.deck.hand - dtricks - ftricks
            if self.concession_by == "defenders" and self.contract.no_trick:
                # a null declarer wins by taking no trick: conceding defenders
                # keep the rest (crediting it to the declarer lost the null)
                ftricks += rest_tricks
            elif self.concession_by == "defenders":
                points, dtricks = points + rest_points, dtricks + rest_tricks
            else:
                ftricks += rest_tricks
                if self.contract.no_trick:
                    dtricks = max(dtricks, 1)  # a conceded null counts as lost
        self.aside_to = self._aside_side(points) if self.aside else None
        points += sum(pts[c] for c in self.aside) if self.aside_to == "declarer" else 0
        tricks = self.tricks  # finished but the last, which may be open
        if tricks and tricks[-1].winner is None:
            tricks = tricks[:-1]
        last_won = tricks[-1] if tricks else None
        facts = make_facts(
            self.rules, self.contract, self.declaration,
            bid=self.bid, declarer=decl, matadors=self.table.matadors(all_cards),
            declarer_points=points, declarer_tricks=dtricks, defender_tricks=ftricks,
            last_trick=tuple(last_won.cards) if last_won else (), last_trick_winner=last_won.winner if last_won else None,
            tricks=tuple(tricks), skat=tuple(in_skat),
        )
        return self.rules.adjusted(facts) if self.rules.card_points else facts

    def declarer_cards(self) -> int:
        """The cards matadors are counted from (A6, B4): the declarer's cards as
        held at the declaration (played since, or still held) plus the skat as
        it lies now.  Cards a push moved away no longer count, cards pushed to
        the declarer (into the skat) do."""
        decl: int = self.declarer  # type: ignore[assignment]  # asked of a declarer game
        held = self.hands[decl]
        if self._quick and self.tricks:  # only cards played left the hands since the first trick began
            held = self._held
        elif self._next == _NEXT3:  # three in play: the declarer's card is the one (decl - leader) % 3 after the lead
            for trick in self.tricks:
                cards = trick.cards
                i = (decl - trick.leader) % 3
                if i < len(cards):
                    held |= 1 << cards[i]
        else:
            for trick in self.tricks:
                seat = trick.leader
                for c in trick.cards:
                    if seat == decl:
                        held |= 1 << c
                    seat = self._next[seat]
        if self.beneath:
            under = [self.beneath[c] for c in cards_in(held) if c in self.beneath]
            while under:  # cards still lying beneath the declarer's open cards
                c = under.pop()
                held |= 1 << c
                under += [self.beneath[c]] if c in self.beneath else []
        return held | self.skat

    def unplayed(self) -> int:
        """Cards still held, open or not yet turned up (a mask)."""
        rest = self.hands[0] | self.hands[1] | self.hands[2]
        if self.beneath:
            played = {c for t in self.tricks for c in t.cards}
            rest |= mask_of(b for c, b in self.beneath.items() if b not in played)
        return rest | mask_of(c for pile in self.piles.values() for c in pile) if self.piles else rest

    def _aside_side(self, declarer_points: int) -> str | None:
        """Whom the laid-aside cards count for (``Deck.aside_to``) with the
        declarer's ``declarer_points`` without them: ``"declarer"``,
        ``"defenders"`` or ``"nobody"``; ``None`` when no card lies aside."""
        to = self.rules.deck.aside_to
        if not self.aside or to != "more_points":
            return to if self.aside else None
        pts = self.table.points
        in_play = sum(pts[c] for c in self.rules.deck.cards) - sum(pts[c] for c in self.aside)
        return "declarer" if declarer_points > in_play - declarer_points else "defenders"  # a tie: the defenders

    def result(self) -> ScoreResult:
        """The score of the finished deal (a thrown-in deal scores 0)."""
        if self._result is None:
            self._result = self.rules.score(self.facts())
            if self.aside_to:  # shown at the end with the side they went to (B13)
                points: tuple[int, ...] = self.table.points
                worth = sum(points[c] for c in self.aside)
                self._result.explanation += f"; laid aside {' '.join(names(self.aside))} ({worth}) for {_SIDE[self.aside_to]}"
        return self._result
