"""Skat under any ruleset as an OpenSpiel game (docs/openspiel.md).

``import skatcore.env.openspiel`` registers the Python game
``python_skatcore``::

    import pyspiel
    import skatcore.env.openspiel  # noqa: F401
    game = pyspiel.load_game("python_skatcore", {"ruleset": "texas"})

Chance deals the cards one at a time (a chance outcome is a card id, drawn
uniformly from those left), in the order the seats' hands, the skat and the
cards laid aside are filled: one outcome per deal would be some 10^15 of
them, more than OpenSpiel can list.  Every decision after that is an index
of the ruleset's :class:`~skatcore.env.encoding.ActionCatalogue` (the
PettingZoo environment's numbering), driven by its
:class:`~skatcore.env.encoding.Turns`: discards card by card, a straw man's
moves by the person who plays it, table calls at the caller's turn.  The
players are the seats a person plays (two in the two-player forms).

Observation and information-state tensors are the shared
:class:`~skatcore.env.encoding.ObservationEncoder`'s array; the observation
string names its non-zero entries, the information-state string adds every
move the seat saw, in order (perfect recall).  Returns are the persons' sheet entries (``returns=sheet``, the default),
their classic settlement against each other (``returns=classic``: persons x
own entry - the sum of all, zero-sum) or their Seeger-Fabian points
(``returns=seeger_fabian``), as the PettingZoo environment's rewards;
``calls=false`` leaves table calls out.

``resample_from_infostate`` draws the cards a player cannot see again
(:mod:`skatcore.env.worlds`), which OpenSpiel's IS-MCTS asks for at every
simulation.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from skatcore.cards import name
from skatcore.engine.deal import Deal
from skatcore.engine.table import people
from skatcore.engine.view import SeatView
from skatcore.env.encoding import ActionCatalogue, ObservationEncoder, Turns
from skatcore.env.worlds import Knowledge, info_key, relabelled
from skatcore.model import SEATS
from skatcore.rules.compiler import get_rules
from skatcore.sim.simulate import seat_points

GAME_NAME = "python_skatcore"
RETURNS = ("sheet", "classic", "seeger_fabian")  # as skat_v0's rewards
_PARAMS = {"ruleset": "official", "returns": "sheet", "calls": True}
RESAMPLE_TRIES = 200  # layouts drawn before a resample keeps the cards as they are (counted: Shared.kept)

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Skat under any skatcore ruleset",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=3,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS)


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
        """A bound on any sheet entry: the ladder's top (or the 120 card points of a Ramsch), lost twice,
        under every multiplier a table may stack (Kontra, Re, Bock: x16), plus Seeger-Fabian's 50."""
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
        sh, cards, at = self.shared, self.cards, 0
        parts = []
        for n in sh.sizes:
            parts.append(cards[at:at + n])
            at += n
        deal = Deal(sh.rules, parts[:3], parts[3], parts[4])
        self.turns = Turns(sh.catalogue, deal)
        if not sh.calls:
            self.turns._calls = False

    def apply(self, action: int) -> None:
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
                self.turns.deal.apply(cat.action(cat.sections["call"].start + code // 3, code % 3))
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
        return SeatView(self.turns.deal, seat, ())  # type: ignore[union-attr]


class SkatGame(pyspiel.Game):
    """``python_skatcore``: parameters ``ruleset`` (a shipped name or a YAML
    file, as ``skat`` takes them), ``returns`` and ``calls`` (module docs).
    ``rules=`` passes compiled rules directly (a player's own)."""

    def __init__(self, params: dict[str, Any] | None = None, rules=None) -> None:
        params = {**_PARAMS, **(params or {})}
        rules = rules if rules is not None else get_rules(str(params["ruleset"]))
        self.shared = sh = Shared(rules, str(params["returns"]), bool(params["calls"]))
        bound = sh.bound()
        info = pyspiel.GameInfo(num_distinct_actions=sh.catalogue.size, max_chance_outcomes=max(sh.deck) + 1,
                                num_players=len(sh.persons), min_utility=-bound, max_utility=bound,
                                max_game_length=sh.max_length())
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> SkatState:
        return SkatState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
        if params:
            raise ValueError(f"observer parameters are not supported: {params}")
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return Observer(self.shared, perfect_recall)


class SkatState(pyspiel.State):
    """A deal of ``python_skatcore``; OpenSpiel's state API."""

    def __init__(self, game: SkatGame) -> None:
        super().__init__(game)
        self._s = game.shared
        self._p = Play(game.shared)

    @property
    def deal(self) -> Deal | None:
        """The engine's :class:`Deal` (``None`` while the cards are dealt)."""
        t = self._p.turns
        return t.deal if t is not None else None

    def current_player(self) -> int:
        t = self._p.turns
        if t is None:
            return pyspiel.PlayerId.CHANCE
        person = t.person
        if person is None:
            return pyspiel.PlayerId.TERMINAL
        return self._s.player_of[person]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._p.turns.legal())  # type: ignore[union-attr]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = sorted(set(self._s.deck).difference(self._p.cards))
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        self._p.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {name(action)}"
        return self._s.catalogue.describe(action)

    def is_terminal(self) -> bool:
        t = self._p.turns
        return t is not None and t.deal.done

    def returns(self) -> list[float]:
        sh = self._s
        if not self.is_terminal():
            return [0.0] * len(sh.persons)
        result = self._p.turns.deal.result()  # type: ignore[union-attr]
        entry, sf = seat_points(result, sh.persons)
        if sh.returns == "seeger_fabian":
            entry = sf
        elif sh.returns == "classic":  # the settlement against the others: persons x own entry - the sum of all
            total = sum(entry[s] for s in sh.persons)
            entry = [len(sh.persons) * v - total for v in entry]
        return [float(entry[s]) for s in sh.persons]

    def resample_from_infostate(self, player_id: int, probability_sampler) -> SkatState:
        """A state the player cannot tell from this one: the cards it has not
        seen dealt again at random among the places they may be (the voids it
        saw kept), every move replayed.  If no such layout turns up in
        ``RESAMPLE_TRIES`` draws, the cards stay as they are (``Shared.kept``)."""
        sh, play = self._s, self._p
        seat = sh.persons[player_id]
        rng = random.Random(int(probability_sampler() * 2.0 ** 52))
        out = play
        if play.turns is not None:
            known = play.known.get(seat)
            if known is None:
                known = play.known[seat] = Knowledge.of(play, seat)
            key = info_key(play, seat)
            for _ in range(RESAMPLE_TRIES):
                new = relabelled(play, known.draw(rng))
                if new is not None and info_key(new, seat) == key:
                    out = new
                    break
            else:
                sh.kept += 1
        state = self.get_game().new_initial_state()
        for a in out.cards:
            state.apply_action(a)
        for a in out.decisions:
            state.apply_action(a)
        return state

    def __str__(self) -> str:
        p, cat = self._p, self._s.catalogue
        dealt = " ".join(map(name, p.cards))
        return f"dealt {dealt}" + "".join(f"\n{cat.describe(d)}" for d in p.decisions)


class Observer:
    """OpenSpiel's Python observer: the shared encoder's blocks (``dict``) in
    one array (``tensor``); strings as the module docs say."""

    def __init__(self, shared: Shared, perfect_recall: bool) -> None:
        self.shared = shared
        self.perfect_recall = perfect_recall
        enc = shared.encoder
        self.tensor = np.zeros(enc.size, np.float32)
        self.dict = {k: self.tensor[s].reshape(enc.shapes.get(k, (s.stop - s.start,))) for k, s in enc.offsets.items()}

    def set_from(self, state: SkatState, player: int) -> None:
        seat = self.shared.persons[player]
        t = state._p.turns
        if t is None:
            self.tensor[:] = 0
            self.tensor[self.shared.encoder.offsets["seat"].start + seat] = 1.0
            return
        self.shared.encoder.encode(t.deal, seat, t, out=self.tensor)

    def string_from(self, state: SkatState, player: int) -> str:
        seat = self.shared.persons[player]
        play = state._p
        if play.turns is None:
            return f"{SEATS[seat]} dealing {len(play.cards)}"
        if self.perfect_recall:
            return info_key(play, seat)
        self.set_from(state, player)
        return " ".join(f"{k}:{','.join(map(str, np.flatnonzero(v)))}" for k, v in self.dict.items() if v.any())


pyspiel.register_game(_GAME_TYPE, SkatGame)
