"""Card play by rules of thumb: declarer, defenders, taking no trick (null)
and fewest points (all against all, Ramsch)."""

from __future__ import annotations

from skatcore.bots.heuristic.tables import BIT, JACK_MASK, NCARDS, GameTables, cards_in, strongest, weakest
from skatcore.cards import CARD_NAMES
from skatcore.engine.deal import Play, SeatView
from skatcore.rules.compiler import TRUMP


class CardPlay:
    """Part of :class:`~skatcore.bots.heuristic.HeuristicPlayer`."""

    # -- card play ---------------------------------------------------------------
    def _play(self, view: SeatView) -> int:
        g = self._g
        if g is None or view.declaration is not self._decl:  # the contract is fixed once play starts
            d = self._decl = view.declaration
            g = self._g = self.info.games[d.game if d is not None else self.rules.all_pass]
        hand = view.hand
        trick = view.trick
        # the engine's follow rule on the same compiled table; checked against view.legal by count
        legal = (hand & g.class_mask[g.follow[trick[0]]]) or hand if trick else hand
        if legal.bit_count() != len(view.legal):
            legal = 0
            for a in view.legal:
                legal |= BIT[a.card]
        tricks = view.tricks
        n, played = self._played
        if len(tricks) < n:
            n = played = 0
        for k in range(n, len(tricks)):
            cards = tricks[k][1]
            for c in cards:
                played |= BIT[c]
        self._played = (len(tricks), played)
        for c in trick:
            played |= BIT[c]
        unseen = self.info.deck & ~played & ~hand
        if view.seat == view.declarer and view.discard:
            for c in view.discard:
                unseen &= ~BIT[c]
        if view.others and view.declarer is not None and view.seat != view.declarer:
            for s, cards in view.others.items():  # a defender's partner shown (the straw man he plays): no threat
                if s != view.declarer:
                    unseen &= ~cards
        goal = g.goal
        if self.rules.trick_hook and len(trick) == len(self.rules.deck.seats) - 1:
            card = self._last_to_trick(view, g, legal, trick)
            if card is not None:
                return card
        if goal == "no_trick":
            return self._play_null(view, g, legal, unseen, trick)
        if goal == "fewest_points":
            return self._play_fewest_points(view, g, legal, unseen, trick)
        if view.seat == view.declarer:
            return self._play_declarer(view, g, legal, hand, unseen, trick)
        return self._play_defender(view, g, legal, hand, unseen, trick)

    def _last_to_trick(self, view, g: GameTables, legal: int, trick) -> int | None:
        """The last card to a trick where a plugin decides who takes it
        (``skat_trick_winner``): asked of the rules for every legal card, as
        the deal will ask; the card that serves the seat's goal best in this
        trick, or ``None`` where the plugin agrees with the card order."""
        rules, me, decl = self.rules, view.seat, view.declarer
        game = view.declaration.game if view.declaration is not None else rules.all_pass
        leader, number = self._after(me, -len(trick)), len(view.tricks) + 1
        order, differs = {}, False
        for c in cards_in(legal):
            full = (*trick, c)
            i = rules.trick_winner(game, full, number, leader, decl)
            differs = differs or i != g.table.winner_index(full)
            order[c] = self._after(leader, i)
        if not differs:
            return None
        pts = sum(g.points[c] for c in trick)

        def key(c):
            w = order[c]
            if g.goal == "no_trick":
                good = (w == decl) != (me == decl)  # the declarer ducks, the defenders make him take it
            elif g.goal == "fewest_points" or decl is None:
                good = w != me
            else:
                good = (w == decl) == (me == decl)
            taken = pts + g.points[c] if g.goal == "card_points" else 0
            return good, taken if good else -taken, -g.power[c]
        return max(order, key=key)

    def _after(self, seat: int, n: int) -> int:
        """The seat ``n`` places after ``seat`` in play order (negative: before)."""
        seats = self.rules.deck.seats
        return seats[(seats.index(seat) + n) % len(seats)]

    @staticmethod
    def winning(g: GameTables, trick) -> tuple[int, int, tuple[int, ...]]:
        """(index of the winning card, its strength, strength row of the led class)."""
        s = g.strength[g.follow[trick[0]]]
        wi = 0
        for i in range(1, len(trick)):
            if s[trick[i]] > s[trick[wi]]:
                wi = i
        return wi, s[trick[wi]], s

    def _play_declarer(self, view, g: GameTables, legal: int, hand: int, unseen: int, trick) -> int:
        pts = g.points
        if not trick:
            mine_t = legal & g.trump
            opp_t = unseen & g.trump
            if mine_t and opp_t:
                top = strongest(g, mine_t)
                if not (g.higher[top] & unseen):
                    return top
                jacks = mine_t & JACK_MASK
                if jacks and (mine_t.bit_count() > opp_t.bit_count() or mine_t.bit_count() >= 4):
                    return strongest(g, jacks)
                if mine_t.bit_count() >= 3:
                    return weakest(g, mine_t)
            # cash masters of the side suits
            side = legal & ~g.trump
            best, bk = -1, -1
            for c in cards_in(side):
                if not (g.higher[c] & unseen) and pts[c] + 1 > bk:
                    best, bk = c, pts[c] + 1
            if best >= 0:
                return best
            if side:
                # low card of the longest side suit (trumps nobody else holds are kept to come back in)
                bestk, bl = 0, -1
                for k in range(4):
                    n = (side & g.plain[k]).bit_count()
                    if n > bl:
                        bestk, bl = k, n
                return weakest(g, side & g.plain[bestk])
            if mine_t and not opp_t:
                return weakest(g, mine_t)
            return strongest(g, legal)
        _wi, ws, s = self.winning(g, trick)
        tpts = sum(pts[c] for c in trick)
        winners = [c for c in cards_in(legal) if s[c] > ws]
        if len(trick) == 2:
            if winners and (tpts > 0 or g.follow[winners[0]] != TRUMP):
                return min(winners, key=lambda c: (g.follow[c] == TRUMP, g.power[c]))
            return weakest(g, legal)
        # second to play: a defender follows; one whose cards are shown can play only those
        behind = view.others.get(self._after(view.seat, 1))
        if behind is not None:
            can = behind & g.class_mask[g.follow[trick[0]]] or behind
            masters = [c for c in winners if not any(s[x] > s[c] for x in cards_in(can))]
        else:
            masters = [c for c in winners if not (g.higher[c] & unseen)]
        if masters:
            return max(masters, key=lambda c: (pts[c], -g.power[c]))
        if winners and tpts >= 10:
            return max(winners, key=lambda c: g.power[c])
        return weakest(g, legal)

    def _play_defender(self, view, g: GameTables, legal: int, hand: int, unseen: int, trick) -> int:
        pts = g.points
        seat, decl = view.seat, view.declarer
        partner = 3 - seat - decl
        # ouvert: the declarer's cards are known
        unseen_decl = view.declarer_hand if view.declarer_hand is not None else unseen
        if not trick:
            side = legal & ~g.trump
            for c in cards_in(side):
                if CARD_NAMES[c][1] == "A" and not (g.higher[c] & unseen):
                    return c
            if side:
                lengths = [(side & g.plain[k]).bit_count() for k in range(4)]
                ks = [k for k in range(4) if lengths[k]]
                if self._after(seat, 1) == decl:  # short way: long suit
                    k = max(ks, key=lambda k: lengths[k])
                else:  # long way: short suit
                    k = min(ks, key=lambda k: lengths[k])
                sm = side & g.plain[k]
                low = weakest(g, sm)
                return low
            return weakest(g, legal)
        leader = self._after(seat, -len(trick))
        wi, ws, s = self.winning(g, trick)
        winner = self._after(leader, wi)
        tpts = sum(pts[c] for c in trick)
        winners = [c for c in cards_in(legal) if s[c] > ws]
        if winner == partner:
            wc = trick[wi]
            safe = len(trick) == 2 or not (g.higher[wc] & unseen_decl & g.class_mask[g.follow[wc]])
            if len(trick) == 1 and g.follow[wc] != TRUMP and g.follow[trick[0]] != TRUMP:
                # the declarer may be void and trump: safe only if he has shown the suit before
                safe = safe and self._declarer_followed(view, g, g.follow[trick[0]])
            if safe:
                # smear: the most points, from a side suit rather than trumps
                return max(cards_in(legal), key=lambda c: (g.follow[c] != TRUMP, pts[c], -g.power[c]))
            if winners and len(trick) == 1:
                masters = [c for c in winners if not (g.higher[c] & unseen)]
                if masters:
                    return max(masters, key=lambda c: pts[c])
            return weakest(g, legal)
        # the declarer is winning
        behind = view.others.get(self._after(seat, 1)) if len(trick) == 1 else None
        if behind is not None and self._after(seat, 1) == partner:  # the partner plays last, his cards shown
            can = behind & g.class_mask[g.follow[trick[0]]] or behind
            if any(s[x] > ws for x in cards_in(can)):  # he takes the trick: smear
                return max(cards_in(legal), key=lambda c: (g.follow[c] != TRUMP, pts[c], -g.power[c]))
        if winners:
            if len(trick) == 2:
                return min(winners, key=lambda c: (g.follow[c] == TRUMP, g.power[c] - pts[c] * 0.01))
            masters = [c for c in winners if not (g.higher[c] & unseen)]
            if masters:
                return max(masters, key=lambda c: (pts[c], -g.power[c]))
            if tpts >= 10:
                return max(winners, key=lambda c: g.power[c])
        return weakest(g, legal)

    def _declarer_followed(self, view, g: GameTables, k: int) -> bool:
        seats = self.rules.deck.seats
        for leader, cards, _ in view.tricks:
            if g.follow[cards[0]] == k:
                i = (seats.index(view.declarer) - seats.index(leader)) % len(seats)
                return g.follow[cards[i]] == k
        return True

    def _play_null(self, view, g: GameTables, legal: int, unseen: int, trick) -> int:
        declarer = view.seat == view.declarer
        if not trick:
            if declarer:
                # lead a card that must lose: nothing lower is still out
                best, bk = -1, None
                for c in cards_in(legal):
                    if g.higher[c] & unseen and not (g.lower[c] & unseen):
                        k = g.power[c]
                        if bk is None or k < bk:
                            best, bk = c, k
                if best >= 0:
                    return best
            return min(cards_in(legal), key=lambda c: (g.power[c], c))
        wi, ws, s = self.winning(g, trick)
        winner = self._after(view.seat, wi - len(trick))
        under = [c for c in cards_in(legal) if s[c] < ws]
        follows = g.follow[trick[0]]
        if declarer:
            if under:
                return max(under, key=lambda c: (s[c], g.power[c]))
            if s[min(cards_in(legal), key=lambda c: s[c])] < 0 or not legal & g.class_mask[follows]:
                return max(cards_in(legal), key=lambda c: g.power[c])
            return min(cards_in(legal), key=lambda c: s[c])
        # defender
        if winner == view.declarer:
            if under:
                return max(under, key=lambda c: s[c])
            return max(cards_in(legal), key=lambda c: g.power[c])
        decl_to_play = len(trick) == 1 and self._after(view.seat, 1) == view.declarer
        if decl_to_play:
            if legal & g.class_mask[follows]:
                return min(cards_in(legal & g.class_mask[follows]), key=lambda c: g.power[c])
            return max(cards_in(legal), key=lambda c: g.power[c])
        # the declarer has already ducked: get rid of a high card
        return max(cards_in(legal), key=lambda c: g.power[c])

    def _play_fewest_points(self, view, g: GameTables, legal: int, unseen: int, trick) -> int:
        pts = g.points
        if not trick:
            side = legal & ~g.trump
            pool = side or legal
            best, bk = -1, None
            for c in cards_in(pool):
                sure = bool(g.higher[c] & unseen)
                k = (not sure, pts[c], g.power[c], (pool & g.class_mask[g.follow[c]]).bit_count())
                if bk is None or k < bk:
                    best, bk = c, k
            return best
        _wi, ws, s = self.winning(g, trick)
        follows = g.follow[trick[0]]
        cards = list(cards_in(legal))
        under = [c for c in cards if s[c] < ws]
        if not legal & g.class_mask[follows] and under and len(under) == len(cards):
            # void and not trumping: dump points
            return max(under, key=lambda c: (pts[c], g.power[c]))
        if under:
            return max(under, key=lambda c: (s[c], -pts[c]) if s[c] >= 0 else (-1, pts[c]))
        # every card wins: take with the fewest points, shedding a high card
        if len(trick) == 2:
            return min(cards, key=lambda c: (pts[c], -g.power[c]))
        return max(cards, key=lambda c: (g.power[c] - 3 * pts[c]))




PLAY_CARD = tuple(Play(c) for c in range(NCARDS))
