"""OpenSpiel's IS-MCTS as a player (``skat duel expert ismcts``; docs/openspiel.md).

At each decision the player holds an OpenSpiel state of ``python_skatcore``
(:mod:`skatcore.env.openspiel`) that its seat cannot tell from the real
deal: the moves it saw are the real ones, the cards it has not seen one
layout they may have.  It keeps that state from one decision to the next,
adding the moves made since: another seat's hidden move (a discard, a push)
is drawn among the legal ones that stay hidden; a card played that this
layout gave another hand is swapped in (:func:`~skatcore.env.worlds.relabelled`
replays the deal with the two cards exchanged), and so are the cards the
view shows where the layout has others.  Then OpenSpiel's IS-MCTS
(``open_spiel.python.algorithms.ismcts``) searches from it, drawing a new
layout at every simulation through ``resample_from_infostate``.

Settings (``ismcts:simulations=200:uct_c=2``): ``simulations`` per decision
(1,000), ``uct_c`` (2), ``rollouts`` per leaf of OpenSpiel's random-rollout
evaluator (1), and ``returns``, what a deal is worth to a seat in the search
(the game's parameter): ``classic`` (the default: the settlement of the sheet
entries, so that a defender gains what the declarer loses; a defender's own
sheet entry is 0 whatever it plays), ``sheet`` or ``seeger_fabian``.  The
final choice is OpenSpiel's default, the most visited action; a discard is
chosen card by card, each card a search (where it may be declined, keeping
one's cards is one of the first search's choices).  The player makes no
table calls (Kontra, Re); those of others are part of what it sees.
Where no consistent layout turns up, it plays a random legal action
(``counters["fallback_moves"]``).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar

import numpy as np

from skatcore.cards import cards_in
from skatcore.engine.actions import UNSEEN, Call, Discard, Phase, Play
from skatcore.engine.deal import SeatView
from skatcore.env.observation import CARD_MARKS
from skatcore.env.worlds import Play as Layout
from skatcore.env.worlds import marked_cards, relabelled, stacks_seen, view_key
from skatcore.errors import InputError

REBUILDS = 8  # fresh layouts tried before a decision falls back
SWAPS = 30  # card exchanges tried for one move


def _openspiel():
    """OpenSpiel's modules, or an InputError saying how to get them."""
    try:
        from open_spiel.python.algorithms import ismcts, mcts

        import skatcore.env.openspiel as game
    except ImportError:
        raise InputError("player 'ismcts' needs OpenSpiel, which is not installed: pip install 'skatcore[openspiel]'") from None
    return game, ismcts, mcts


_GAMES: dict[tuple[int, str], Any] = {}


def game_for(rules, returns: str = "classic"):
    """The ``python_skatcore`` game of ``rules`` without table calls (made once per ruleset)."""
    g = _GAMES.get((id(rules), returns))
    if g is None or g.shared.rules is not rules:
        game, _, _ = _openspiel()
        try:
            g = game.SkatGame({"ruleset": rules.name, "calls": False, "returns": returns}, rules=rules)
        except ValueError as e:
            raise InputError(f"player 'ismcts': {e}") from None
        _GAMES[(id(rules), returns)] = g
    return g


class ISMCTSPlayer:
    """OpenSpiel's IS-MCTS bot over ``python_skatcore`` (module docs)."""

    COUNTER_RATES: ClassVar[dict[str, tuple[str, str]]] = {
        "fallback_share": ("fallback_moves", "decisions"),
        "rebuilds_per_decision": ("rebuilds", "decisions"),
    }
    # the most a count may be (skatcore.bots.registry checks the options before any deal): simulations=1e12 never ends
    OPTION_LIMITS: ClassVar[dict[str, int]] = {"simulations": 1_000_000, "rollouts": 1_000}

    def __init__(self, rules, seed: int | None = None, simulations: int = 1000, uct_c: float = 2.0,
                 rollouts: int = 1, returns: str = "classic") -> None:
        _, ismcts, mcts = _openspiel()
        if int(simulations) < 1 or int(rollouts) < 1:
            raise InputError("player 'ismcts': simulations and rollouts must be at least 1")
        self.rules = rules
        self.game = game_for(rules, returns)
        self.shared = self.game.shared
        self.rng = random.Random(seed)
        state = np.random.RandomState(self.rng.getrandbits(32))
        # OpenSpiel's defaults but for the simulations: most visited action, a new layout every simulation;
        # a person moving a straw man it cannot see yet has choices the layouts do not agree on
        self.bot = ismcts.ISMCTSBot(self.game, mcts.RandomRolloutEvaluator(int(rollouts), state), float(uct_c),
                                    int(simulations), random_state=state,
                                    allow_inconsistent_action_sets=not rules.table.plain)
        self.bot.set_resampler(lambda s, player: s.resample_from_infostate(player, self.rng.random))
        self.play: Layout | None = None  # the deal as this player lays it out, kept consistent with what the seat saw
        self.counters: Counter = Counter()

    # -- deciding -------------------------------------------------------------
    def act(self, view: SeatView):
        self.counters["decisions"] += 1
        play = self._sync(view)
        if play is None:
            self.counters["fallback_moves"] += 1
            self.play = None
            return view.legal[int(self.rng.random() * len(view.legal))]
        state = self.game.state_of(play)
        if any(type(a) is Discard for a in view.legal):
            action = self._discard(state, view.seat)
        else:
            action = self.shared.catalogue.action(self.bot.step(state), view.seat)
        if action not in view.legal:  # a straw man's card it could not see: the layouts disagreed
            self.counters["unseen_choices"] += 1
            action = view.legal[int(self.rng.random() * len(view.legal))]
        return action

    def _discard(self, state, seat: int) -> Any:
        """A discard chosen card by card, each card a search from ``state``; or
        the choice that puts no card away where the search prefers it (keeping
        one's cards at a swap with the dummy)."""
        cat = self.shared.catalogue
        chosen: list[int] = []
        for _ in range(self.shared.rules.deck.skat):
            i = self.bot.step(state)
            card = cat.card_put_away(i)
            if card is None:  # offered only before the first card is put away
                return cat.action(i, seat)
            chosen.append(card)
            state.apply_action(i)
        return Discard(tuple(sorted(chosen)))

    # -- keeping a layout consistent with the view ------------------------------
    def _sync(self, view: SeatView):
        """The kept Play brought up to ``view``, or a fresh one; ``None`` if none fits."""
        key = view_key(view)
        for attempt in range(REBUILDS):
            play = self.play if attempt == 0 and self.play is not None else self._fresh(view)
            if attempt:
                self.counters["rebuilds"] += 1
            play = self._extend(play, view)
            if play is not None:
                play = self._place(play, view)
            if play is not None and view_key(SeatView(play.turns.deal, view.seat, ())) == key:
                self.play = play
                return play
        return None

    def _fresh(self, view: SeatView):
        """A new layout: a seat's stacks as the person saw them (:func:`~skatcore.env.worlds.stacks_seen`:
        the face-down cards at random), the cards ``view`` shows in another hand dealt to that hand (where
        they fit), the others at random."""
        sh = self.shared
        cards = list(sh.deck)
        self.rng.shuffle(cards)
        stacks = stacks_seen(view, sh.rules)
        places: list[list[int]] = [[] for _ in sh.sizes]
        for seat, mask in _shown(view).items():
            if seat in stacks:
                continue
            for c in cards:
                if mask >> c & 1 and len(places[seat]) < sh.sizes[seat]:
                    places[seat].append(c)
        taken = {c for p in places for c in p} | {c for st in stacks.values() for c in st if c is not None}
        rest = iter(c for c in cards if c not in taken)
        play = Layout(sh)
        for seat, (place, n) in enumerate(zip(places, sh.sizes, strict=True)):
            if seat in stacks:  # dealt in this order: which card lies under which is what the seat saw
                place = [next(rest) if c is None else c for c in stacks[seat]]
            else:
                place += [next(rest) for _ in range(n - len(place))]
                self.rng.shuffle(place)
            for c in place:
                play.apply(c)
        return play

    def _extend(self, play, view: SeatView):
        """Apply the moves of ``view.history`` the Play has not made yet."""
        history, seat = view.history, view.seat
        # the cards the seat knows where they are: its own, the hands shown to it, and its own discard
        avoid = view.hand | (view.declarer_hand or 0) | sum(view.others.values()) | sum(1 << c for c in view.discard)
        while play is not None and len(play.turns.deal.history) < len(history):
            n = len(play.turns.deal.history)
            who, a = history[n]
            if not _answers(play, a):
                continue
            if a is UNSEEN:
                later = [0, 0, 0]
                for who2, b in history[n:]:
                    if type(b) is Play:
                        later[who2] |= 1 << b.card
                play = self._hidden(play, seat, later)
            else:
                play = self._visible(play, who, a, avoid)
            for _ in range(SWAPS):  # a seat nobody plays turned up another card than it did: exchange the two
                if play is None:
                    return None
                marked = _mismatch(view, play.turns.deal)
                if marked:  # a step showed another card than it did (a Tournee's turned-up card)
                    play = relabelled(play, {marked[0]: marked[1], marked[1]: marked[0]})
                    continue
                mine = SeatView(play.turns.deal, seat, ()).history
                wrong = next((k for k in range(n, min(len(mine), len(history))) if mine[k] != history[k]), None)
                if wrong is None:
                    break
                x, y = history[wrong][1], mine[wrong][1]
                if type(x) is not Play or type(y) is not Play:
                    return None
                play = relabelled(play, {x.card: y.card, y.card: x.card})
            else:
                return None
        while play is not None and play.turns.answering is not None:  # nobody answered the last call
            play.apply(self.shared.catalogue.pass_index)
        return play

    def _hidden(self, play, seat: int, later: list[int]):
        """A move ``seat`` did not see (a discard, a push): a random legal one
        that stays hidden, putting away none of the cards the mover is seen to
        play later (``later``: by seat) where it can."""
        cat = self.shared.catalogue
        for _ in range(SWAPS):
            trial = play.replayed()
            n = len(trial.turns.deal.history)
            mover = trial.turns.actor
            keep = later[mover] if mover is not None else 0
            while len(trial.turns.deal.history) == n and not trial.turns.deal.done:
                legal = [i for i in trial.turns.legal() if i not in cat.sections["call"]]
                legal = [i for i in legal if _keeps(cat, i, keep)] or legal
                trial.apply(legal[int(self.rng.random() * len(legal))])
            if SeatView(trial.turns.deal, seat, ()).history[n][1] is UNSEEN:
                return trial
        return None

    def _visible(self, play, who: int, a, avoid: int):
        """Make move ``a``; a card the layout gave elsewhere is exchanged into
        ``who``'s hand first, and cards that would have made a card played not
        legal (it did not follow suit) out of it (never a card of ``avoid``:
        those the view shows)."""
        cat = self.shared.catalogue
        if type(a) is Call:
            indices = [cat.size + 3 * (cat.index(a) - cat.sections["call"].start) + a.seat]  # out of turn (Play.apply)
        elif type(a) is Discard:
            indices = [cat.put_away(c) for c in a.cards]
        else:
            indices = [cat.index(a)]
        cards = [a.card] if type(a) is Play else list(a.cards) if type(a) is Discard else []
        for _ in range(SWAPS):
            try:
                trial = play.replayed()
                for i in indices:
                    trial.apply(i)
                return trial
            except (InputError, ValueError):
                pass
            deal = play.turns.deal
            hand = deal.hands[who]
            missing = [c for c in cards if not hand >> c & 1]
            led = _led(deal) if type(a) is Play else 0
            x: int | None
            if missing:  # the card comes from elsewhere, a card of this hand goes there
                spare = _cards(hand & ~avoid & ~sum(1 << c for c in cards)) or _cards(hand & ~sum(1 << c for c in cards))
                x, y = missing[0], self._pick(spare)  # (a card the view shows there now: put right by _place)
            elif led:  # held, but a card of the suit led is held too
                offenders = _cards(hand & led & ~(1 << a.card))  # (one the view shows elsewhere: put right by _place)
                elsewhere = sum(deal.hands[s] for s in range(3) if s != who) + deal.skat + sum(1 << c for c in deal.aside)
                others = _cards(elsewhere & ~led & ~avoid)  # (the cards laid aside too: Strohmann's three)
                x, y = self._pick(offenders), self._pick(others)
            else:
                return None
            if x is None or y is None:
                return None
            play = relabelled(play, {x: y, y: x}) or play
        return None

    def _pick(self, cards: list[int]) -> int | None:
        return cards[int(self.rng.random() * len(cards))] if cards else None

    def _place(self, play, view: SeatView):
        """Exchange cards until the hands ``view`` shows hold what it shows,
        and the cards steps showed (``marks``) are those it shows."""
        shown = _shown(view)
        for _ in range(SWAPS):
            deal = play.turns.deal
            marked = _mismatch(view, deal)
            if marked:  # a card a step showed everyone (a turned-up trump card): the one the view shows
                x, y = marked
                play = relabelled(play, {x: y, y: x}) or play
                continue
            wrong = [(s, c) for s, m in shown.items() for c in _cards(m & ~deal.hands[s])]
            if not wrong:
                return play
            s, c = wrong[0]
            spare = _cards(deal.hands[s] & ~shown[s])
            if not spare:
                return None
            d = spare[int(self.rng.random() * len(spare))]
            play = relabelled(play, {c: d, d: c}) or play
        return None


def _keeps(cat, i: int, keep: int) -> bool:
    """Whether decision ``i`` puts away none of the cards ``keep`` (one that
    puts no card away, such as keeping one's cards at a swap, keeps them all)."""
    c = cat.card_put_away(i)
    return c is None or not keep >> c & 1


def _answers(play, a) -> bool:
    """Whether ``a`` is the move the Play waits for: a person the catalogue
    asks to answer a call (Re after Kontra) who did not (the real deal asks
    only players that make calls) passes, and ``False`` says so."""
    t = play.turns
    if t.answering is not None and not (type(a) is Call and a.seat == t.answering):
        play.apply(play.shared.catalogue.pass_index)
        return False
    return True


def _shown(view: SeatView) -> dict[int, int]:
    """The hands ``view`` shows, by seat (its own, a straw man's, an ouvert declarer's)."""
    shown = {view.seat: view.hand, **view.others}
    if view.declarer_hand is not None and view.declarer is not None:
        shown[view.declarer] = view.declarer_hand
    return shown


def _mismatch(view: SeatView, deal) -> tuple[int, int] | None:
    """A card a step showed in ``view`` (``marks``), or a card turned up in
    a stack (``turned_up``), and the card ``deal`` shows in its place instead."""
    for key in CARD_MARKS:
        if key in deal.marks and key in view.marks:
            for x, y in zip(marked_cards(view.marks[key]), marked_cards(deal.marks[key]), strict=False):
                if x != y:
                    return x, y
    if deal.beneath:  # the hands may hold the right cards, turned up under each other's cards
        for (played, x), (also, y) in zip(view.turned_up, SeatView(deal, view.seat, ()).turned_up, strict=False):
            if played != also:  # the moves differ from here (the history's exchange puts them right first)
                break
            if x != y:
                return x, y
    return None


def _led(deal) -> int:
    """The cards that follow the card led to the trick in progress (0: none led yet)."""
    if deal.phase is not Phase.PLAY or not deal.tricks or not deal.tricks[-1].cards:
        return 0
    table = deal.table
    return table.class_mask[table.follow[deal.tricks[-1].cards[0]]]


def _cards(mask: int) -> list[int]:
    return list(cards_in(mask))
