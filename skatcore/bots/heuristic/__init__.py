"""The heuristic player: a reasonable club player by rules of thumb, fast
enough for simulations.  Its parts live in :mod:`.evaluation`, :mod:`.bidding`,
:mod:`.discard` and :mod:`.play`."""

from __future__ import annotations

from typing import ClassVar  # loaded already: the engine's dataclasses import it

from skatcore.bots.heuristic.bidding import Bidding
from skatcore.bots.heuristic.discard import Discarding
from skatcore.bots.heuristic.evaluation import Evaluation
from skatcore.bots.heuristic.play import PLAY_CARD, CardPlay
from skatcore.bots.heuristic.tables import GameTables, rules_info
from skatcore.engine.deal import Phase, SeatView
from skatcore.rules.compiler import CompiledRules


class HeuristicPlayer(Evaluation, Bidding, Discarding, CardPlay):
    """A reasonable club player by rules of thumb.

    * **Bidding**: estimates for every contract the ruleset allows how likely
      it is won (trumps, jacks, aces, tens, voids; null: safe suits) and bids
      while some contract it expects to win is worth at least the bid *with
      the matadors in its hand* - never higher - and only where the expected
      score is positive given the ruleset's lost factor.
    * **Skat**: plays hand when that is clearly better, else picks up; the
      discard shortens side suits, keeps trumps and aces, and buries tens.
    * **Declaring**: the contract with the best expected score that reaches
      the bid.
    * **Play**: declarer draws trumps and cashes aces; defenders smear points
      to a partner who wins, trump in when the declarer is winning, and lead
      the long suit when the declarer sits behind them; in null the declarer
      stays low and the defenders play low in front of him; in a game of
      fewest points (Ramsch) everybody ducks and dumps points.
    * **Flow steps**: an offer at the skat is judged by the step's outlooks
      like any other route; in a step's own actions it declares a game it
      expects to win, else picks up the skat if it may, else takes the first
      action offered.
    """

    # win probability = sigmoid(a * x + b) by (family, when): x is the hand's
    # strength (null: minus its risk); "pre" = before picking up the skat,
    # "post" = after the discard, "hand" = a hand game.  Suit: fitted on 2,000
    # seeded deals x 3 contracts x 2 routes of heuristic play (official).  Null:
    # refitted on heuristic play, 2,000 seeded deals x 3 seats x 2 routes
    # (`python tools/refit_heuristic.py --deals 2000 --seed 1 --families null
    # --play heuristic`).  Grand: its strength is a log-odds fitted on double-dummy
    # outcomes (tables._grand_jacks), the coefficients refitted on them, 1,000
    # seeded deals x 3 seats x 2 routes (`python tools/refit_heuristic.py
    # --deals 1000 --seed 1 --families grand`).
    COEF: ClassVar[dict[tuple[str, str], tuple[float, float]]] = {
        ("suit", "pre"): (0.80, 0.89), ("suit", "post"): (0.97, -0.13), ("suit", "hand"): (1.07, 0.02),
        ("grand", "pre"): (0.58, 1.08), ("grand", "post"): (0.91, 0.06), ("grand", "hand"): (0.79, 0.08),
        ("null", "pre"): (0.41, 1.33), ("null", "post"): (1.11, 1.59), ("null", "hand"): (0.83, 1.39),
    }
    TRUMP_GAIN: ClassVar[dict[str, float]] = {"suit": 1.0, "grand": 1.3}  # strength one more trump adds (a jack in grand)
    GAME_BONUS = 50       # a won game is worth this much more than its value (Seeger-Fabian), a lost one less

    def __init__(self, rules: CompiledRules, seed: int | None = None):
        self.rules = rules
        self.info = rules_info(rules)  # any deck: Sechserskat's sixes are low cards of their suits
        self.seed = seed  # decisions are deterministic; kept for the factory signature
        self._plan: tuple[tuple[int, ...], str] | None = None  # the discard and the game chosen with it
        self._cache: dict = {}
        self._strengths: dict = {}
        self._mats: dict = {}
        self._played = (0, 0)  # (tricks seen, their cards): a player lives for one deal
        self._g: GameTables | None = None
        self._decl = None

    # -- dispatch --------------------------------------------------------------
    def act(self, view: SeatView):
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase is Phase.PLAY:
            return PLAY_CARD[self._play(view)]
        if phase is Phase.BIDDING:
            return self._bid(view)
        if phase is Phase.SKAT:
            return self._skat(view)
        if phase is Phase.DISCARD:
            return self._discard(view)
        if phase is Phase.DECLARE:
            return self._declare(view)
        if phase is Phase.STEP:  # a step's own actions
            return self._step_action(view)
        return legal[0]

