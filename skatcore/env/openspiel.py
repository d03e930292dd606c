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
move the seat saw, in order (perfect recall).  Returns are the persons'
sheet entries (``returns=sheet``, the default), their classic settlement
against each other (``returns=classic``: persons x own entry - the sum of
all, zero-sum) or their Seeger-Fabian points (``returns=seeger_fabian``),
as the PettingZoo environment's rewards (:mod:`skatcore.env.rewards`);
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
from skatcore.env.rewards import deal_rewards
from skatcore.env.worlds import RETURNS, Knowledge, Play, Shared, info_key, relabelled
from skatcore.model import SEATS
from skatcore.rules.compiler import get_rules

GAME_NAME = "python_skatcore"
_PARAMS = {"ruleset": "official", "returns": "sheet", "calls": True}
__all__ = ["GAME_NAME", "RETURNS", "Observer", "Play", "Shared", "SkatGame", "SkatState"]
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

    def state_of(self, play: Play) -> SkatState:
        """The state that has made ``play``'s moves (its cards dealt, its decisions)."""
        state = SkatState(self)
        for a in (*play.cards, *play.decisions):
            state.apply_action(a)
        return state

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
        entry = deal_rewards(self._p.turns.deal.result(), sh.persons, sh.returns)  # type: ignore[union-attr]
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
        return self.get_game().state_of(out)

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
        """Fill ``tensor`` with what ``player`` sees of ``state`` (while the cards are dealt: only its seat)."""
        seat = self.shared.persons[player]
        t = state._p.turns
        if t is None:
            self.tensor[:] = 0
            self.tensor[self.shared.encoder.offsets["seat"].start + seat] = 1.0
            return
        self.shared.encoder.encode(t.deal, seat, t, out=self.tensor)

    def string_from(self, state: SkatState, player: int) -> str:
        """What ``player`` knows of ``state`` as text: every move it saw (perfect recall), else the tensor's entries."""
        seat = self.shared.persons[player]
        play = state._p
        if play.turns is None:
            return f"{SEATS[seat]} dealing {len(play.cards)}"
        if self.perfect_recall:
            return info_key(play, seat)
        self.set_from(state, player)
        return " ".join(f"{k}:{','.join(map(str, np.flatnonzero(v)))}" for k, v in self.dict.items() if v.any())


pyspiel.register_game(_GAME_TYPE, SkatGame)
