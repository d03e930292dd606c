"""The expert's bidding, discard and contract choice: each candidate contract
is judged by double-dummy outcomes over sampled skats and opponent hands,
valued by the ruleset's own game values and lost factors (so the player
reacts to a variant's incentives).

A contract's chance is the share of sampled layouts in which the
declarer reaches the win double-dummy, blended with the heuristic's
estimate.  Double-dummy defenders see each other's cards; real ones do
not, and give a good part of the card points away.  Measured with the
expert's own card play (official rules, 350 grands and suit games of
hands with two jacks or more, 12 random layouts each): the declarer won
74% of the grands and 81% of the suit games that double-dummy reached
61 in only 50% and 59% of the layouts, but 36 card points in 77% and
79%.  So a card-point contract counts as won in a layout where the
declarer takes the win threshold less ``DEFENCE`` of all card points.
The heuristic's grand estimate is itself fitted on double-dummy
outcomes (61 against defenders who see every card) and lay far below
what the expert wins (277 forced grands of hands with two jacks or
more: those it gave 20-35% before the skat were won 62% of the time),
so it is no prior for a grand: a grand's chance is its layouts' share,
which matched (shares of 57% and 78% before the skat: won 59%, 80%).

A null is different: double-dummy defenders always find a weak suit,
real ones (the expert's own) mostly do not.  Of 1,000 deals' forced
nulls of its own play (``tools/fit_expert_null.py``) those whose kept
ten cards had every suit safe were won 93% of the time though
double-dummy made them in only half the layouts; a suit unsafe by one
rank (a singleton eight) cost a little, one unsafe by more (a singleton
jack) a lot.  So a null's chance is a logistic function of its
double-dummy share and of its unsafe suits (``NULL_FIT``,
:func:`null_features`; null ouvert, whose cards the defenders see, has
its own), not the blend.

Calibrated on its own games (``tools/calibrate_expert.py``, 400 deals
against XSkat): at the node budget card play uses (20,000) most of the
bidding's searches of suit games gave up and counted half a layout, so
the share said little; the bidding has its own budget (``BID_NODES``).
The chances before the skat are then still overconfident where they are
high (suit games the bidding gave 0.67-0.75 were won 64%, grands it gave
0.95 and more 89%): ``CALIBRATION`` fits, per family and step (before
the skat, after the discard), the outcome on the chance and lowers a
chance to the fit (never raises it).  A contract is worth bidding on where
its expected score (the heuristic's rule: the ruleset's value and lost
factor, and ``GAME_BONUS``) beats passing; a bid asks only whether some
contract worth that much holds, so a hand stops at the first that does;
a layout whose skat leaves the contract worth less than the bid counts as
lost (a hand "without" whose skat holds a higher trump: the layouts where
the skat strengthens the hand most are those where the bid is overbid;
4.4% of self-play deals ended overbid).
At the declaration a grand must beat the others by ``GRAND_MARGIN``, and
a contract's layouts stop once it cannot beat the best so far.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import ClassVar  # loaded already: the engine's dataclasses import it

from skatcore.bots.heuristic.tables import BIT, NULL_GAP, cards_in, logistic
from skatcore.bots.solver import Position, Solver, trick_rule
from skatcore.engine.deal import PASS, PICK_UP, PLAY_HAND, Bid, Declare, Discard, Hold, SeatView
from skatcore.engine.scoring import fold_multiplier, make_facts


def logit(chance: float) -> float:
    """The log-odds of ``chance``, kept within 2% of 0 and 1 (a share of a few layouts is often 0 or 1)."""
    q = min(0.98, max(0.02, chance))
    return math.log(q / (1 - q))


def null_features(ten: int) -> tuple[int, int, int]:
    """A null hand's unsafe suits (the heuristic's rank rule, ``NULL_GAP``):
    whether any is unsafe, how many by one rank (a singleton eight), how
    many by more (a singleton jack)."""
    gaps = [NULL_GAP[ten >> shift & 0xFF] for shift in (0, 8, 16, 24)]
    return int(any(gaps)), gaps.count(1), sum(g > 1 for g in gaps)


@dataclass(frozen=True)
class Outlook:
    """One contract as the expert judges it at the bidding (10 cards) or at
    its declaration (``step``): the chance it acts on and where it comes from
    (``solver``: the sampled layouts, ``heuristic``: the heuristic's estimate)."""

    step: str      # "bid" (before the skat), "declare" (after the discard), "hand" (a hand game)
    game: str
    family: str    # grand / suit / null
    hand: bool
    ouvert: bool
    value: int     # with the matadors the cards show
    chance: float  # as the expert acts on it (corrected by CALIBRATION)
    raw: float     # before the correction
    source: str


class ContractJudge:
    """How often a contract is won from a hand: the layouts, the double-dummy
    questions and the chances (the module's docstring) that the bidding and the
    declaration share."""

    _plan: tuple[tuple[int, ...], str] | None  # the heuristic player's discard plan (see HeuristicPlayer)

    # the heuristic's win probability counts as this many layouts; its grand estimate is fitted on
    # double-dummy outcomes (61 against defenders who see every card, what DEFENCE corrects): none
    PRIOR: ClassVar[dict[str, float]] = {"suit": 2.0, "grand": 0.0}
    DEFENCE = 17 / 120  # share of all card points real defenders give away against double-dummy ones
    # the solver's node budget per question of the bidding, by goal (a layout it cannot settle counts 1/2); NULL_FIT was
    # fitted on nulls judged at 20,000
    BID_NODES: ClassVar[dict[str, int]] = {"card_points": 200_000, "no_trick": 20_000}
    # won ~ sigmoid(a + b * logit(chance)) of a suit game's or a grand's chance by step: before the skat ("bid"), after
    # the discard ("declare"; a hand game, "hand", none); fitted on the expert's own games against XSkat
    # (`python tools/calibrate_expert.py --opponent xskat_player:factory --deals 400 --seed 7 --jobs 2 --fit`)
    CALIBRATION: ClassVar[dict[tuple[str, str], tuple[float, float]]] = {
        ("grand", "bid"): (1.37, 0.15), ("suit", "bid"): (-0.17, 0.83),
        ("grand", "declare"): (1.65, 0.28), ("suit", "declare"): (-0.6, 1.02),
    }
    FLOOR = 0.2        # contracts the heuristic gives less than this chance are not solved
    # at the declaration a grand must beat the other contracts' expected score by this much: people declare the suit
    # game where the grand is marginal (self-play, 400 deals of seed 3: 41% grands at 0, 39% at 10, 37% at 15, 34% at
    # 20, people 32%; against the heuristic 15 scored +0.9 per deal over 20, 0 +2.5 over 20)
    GRAND_MARGIN = 15.0
    # a null's chance = sigmoid(a + b * double-dummy share + the weights of null_features), by ouvert
    NULL_FIT: ClassVar[dict[bool, tuple[float, ...]]] = {False: (1.09, 3.44, -1.09, -0.15, -1.71), True: (0.45, 4.11, -1.93, -0.35, -1.76)}

    # -- shared: how often a contract is won from a 12-card hand ----------------------
    def _pair(self, cand, hand12: int) -> Discard:
        """The heuristic's discard for ``cand`` from 12 cards."""
        k = self.info.skat
        if cand.null:
            return self._null_discard(hand12, (), k)
        return self._top_pair(hand12, self._trump_discard_scores(hand12, cand.g), k)

    def _dd_goal(self, cand, pair: Discard):
        """The solver and the amount the declarer must take double-dummy for
        ``cand`` to count as won, after discarding ``pair`` (None: not solvable)."""
        goal = self.rules.contracts[cand.d.game].goal
        if goal == "card_points":
            pts = cand.g.points
            need = self.rules.thresholds.win - round(self.DEFENCE * sum(pts[c] for c in cards_in(self.rules.deck.mask)))
            return goal, need - sum(pts[c] for c in pair.cards)
        if goal == "no_trick":
            return goal, self.rules.deck.hand
        return None, 0

    def _dd_won(self, cand, goal: str, need: int, mine: int, opponents: tuple[int, int], seat: int,
                more: int = 0) -> float:
        """1 if ``cand`` is won in this layout, 0 if not, 1/2 when the node
        budget ran out; with ``more``, whether the declarer also takes that
        much more (schneider) is added as a further 1.  Remembered for the
        deal: a null and a null ouvert ask the same question."""
        key = ("dd", id(cand.g.table), goal, need, more, mine, opponents, seat)
        got = self._cache.get(key)
        if got is not None:
            return got
        solver = self._bid_solver(cand.g.table, seat, goal, cand.g.name)
        hands = [0, 0, 0]
        hands[seat] = mine
        hands[(seat + 1) % 3], hands[(seat + 2) % 3] = opponents
        pos = Position(tuple(hands), 0, ())
        solver.new_deal()
        aborted = solver.aborted
        won = solver.reaches(pos, need)
        if solver.aborted != aborted:
            got = 0.5
        else:
            got = float(won) + (more > 0 and won and solver.reaches(pos, need + more) and solver.aborted == aborted)
        self._cache[key] = got
        return got

    def _bid_solver(self, table, seat: int, goal: str, game: str) -> Solver:
        """The solver of the bidding's questions, with its own node budget (``BID_NODES``), playing
        ``game``'s trick winners (a plugin's where it decides them and a table holds them) and
        counting the card points house rules add to a trick (not those of the end: the skat is a guess here)."""
        key = ("bid-solver", id(table), seat, goal)
        s = self._cache.get(key)
        if s is None:
            rule = trick_rule(self.rules, game, seat) if self.rules.trick_hook or self.rules.card_points else None
            s = self._cache[key] = Solver(table, seat, "points" if goal == "card_points" else "tricks",
                                          invert=goal == "no_trick", node_limit=self.BID_NODES[goal],
                                          rule=None if isinstance(rule, str) else rule)
        return s

    def _schneider_gain(self, cand, matadors: int) -> int:
        """What winning ``cand`` schneider adds to its value under the ruleset."""
        key = ("schneider-gain", cand.d.game, matadors)
        gain = self._cache.get(key)
        if gain is None:
            rules = self.rules
            facts = make_facts(rules, rules.contracts[cand.d.game], cand.d, bid=0, declarer=0, matadors=matadors,
                               declarer_points=rules.thresholds.schneider, declarer_tricks=5, defender_tricks=5)
            gain = self._cache[key] = rules.base_value(cand.d) * fold_multiplier(rules.multiplier_items, facts)[0] \
                - cand.value(matadors)
        return gain

    def _layouts(self, unseen: int, sizes: tuple[int, ...], n: int, rng: random.Random) -> list[tuple[int, ...]]:
        """``n`` random splits of ``unseen`` into parts of ``sizes`` cards."""
        cards = list(cards_in(unseen))
        out = []
        for _ in range(n):
            rng.shuffle(cards)
            parts, i = [], 0
            for size in sizes:
                parts.append(sum(BIT[c] for c in cards[i:i + size]))
                i += size
            out.append(tuple(parts))
        return out

    def _chance(self, cand, p_heuristic: float, wins: float, n: int, kept: tuple[int, ...], step: str = "declare",
                raw: bool = False) -> float:
        """``cand``'s chance from ``wins`` of ``n`` layouts won double-dummy:
        blended with the heuristic's estimate and corrected by ``CALIBRATION``
        of ``step`` (``raw``: uncorrected), or for a null by ``NULL_FIT``
        from the share and the suits unsafe in the ten cards ``kept`` (one
        hand per layout, or one for all), on average."""
        if cand.null:
            a, b, *w = self.NULL_FIT[bool(cand.d.ouvert)]
            x = [sum(f) / len(kept) for f in zip(*map(null_features, kept), strict=True)]
            return logistic(a + b * wins / n + sum(wi * xi for wi, xi in zip(w, x, strict=True)))
        prior = self.PRIOR.get(cand.g.family, 2.0)
        chance = (prior * p_heuristic + wins) / (prior + n)
        fix = None if raw else self.CALIBRATION.get((cand.g.family, step))
        # only ever lowered: where the fit lies above the estimate, it extrapolates to hands the expert seldom declares
        return chance if fix is None else min(chance, logistic(fix[0] + fix[1] * logit(chance)))

    def _worth_solving(self, cands, hand: int):
        """The plain pickup candidates worth solving: grand, null, the two
        suits with the most trumps; none the heuristic gives under ``FLOOR``
        (a null: none under it even if won in every layout)."""
        suits = sorted((x for x in cands if x[2].g.family == "suit"), key=lambda x: -(hand & x[2].g.trump).bit_count())[:2]
        return [x for x in cands if (x[2].null or not x[2].d.ouvert)
                and (self._chance(x[2], 0.0, 1, 1, (hand,)) if x[2].null else x[0]) >= self.FLOOR
                and (x[2].g.family in ("grand", "null") or any(x is s for s in suits))]


class SolverDeclaration(ContractJudge):
    """Hand game or pickup, the discard and the contract, judged over sampled layouts."""

    # -- hand game or pickup ------------------------------------------------------------
    def _skat(self, view: SeatView):
        """Where the heuristic would play a hand game, compare it with picking
        up on the solver's estimates: each route's best contract by expected
        score over the same sampled skats and opponent hands."""
        choice = super()._skat(view)
        if choice is not PLAY_HAND or PICK_UP not in view.legal or view.step is not None or not self.rules.table.plain:
            return choice
        hand, bid, deck = view.hand, view.bid, self.rules.deck
        layouts = self._layouts(deck.mask & ~hand, (deck.skat, deck.hand, deck.hand), self.bid_worlds,
                                random.Random((self.seed or 0) ^ hand ^ 1))
        pickup, hand_games = self._evaluate(hand)
        return PLAY_HAND if self._route_value(hand_games, hand, bid, layouts, view.seat, True) > \
            self._route_value(pickup, hand, bid, layouts, view.seat, False) else PICK_UP

    def _route_value(self, cands, hand: int, bid: int, layouts, seat: int, hand_game: bool) -> float:
        """The best expected score among ``cands`` (``(p, value, cand)``) over ``layouts``."""
        best = None
        for p, v, cand in self._worth_solving(cands, hand):
            if v < bid:
                continue
            wins = 0.0
            tens = []
            short = self._overbid(cand, hand, layouts, bid)
            for i, (skat, a, b) in enumerate(layouts):
                if hand_game:  # the skat counts for the declarer
                    mine, pair = hand, Discard(tuple(cards_in(skat)))
                else:
                    pair = self._pair(cand, hand | skat)
                    mine = (hand | skat) & ~sum(BIT[c] for c in pair.cards)
                goal, amount = self._dd_goal(cand, pair)
                if goal is None:
                    break
                if not short[i]:
                    wins += self._dd_won(cand, goal, amount, mine, (a, b), seat)
                tens.append(mine)
            else:
                e = self._expected(self._chance(cand, p, wins, len(layouts), tens, "hand" if hand_game else "bid"),
                                   v, cand.lost, bid, cand.base)
                best = e if best is None else max(best, e)
        return -1e9 if best is None else best

    # -- discard and declaration -------------------------------------------------------
    def _discard(self, view: SeatView):
        if view.declarer is None or view.step is not None or not self.rules.table.plain:
            # a discard inside a step (the skat passed round, a turned card), hidden or straw-man hands
            return super()._discard(view)
        hand, bid = view.hand, view.bid
        deck = self.rules.deck
        rng = random.Random((self.seed or 0) ^ hand)
        layouts = self._layouts(deck.mask & ~hand, (deck.hand, deck.hand), self.bid_worlds, rng)
        best = None
        rows = []
        self.declare_outlooks: list[tuple[Outlook, float]] = []  # every contract weighed, with its expected score
        for cand in self.info.cands["pickup"]:
            if (cand.d.ouvert and not cand.null) or cand.g.family not in ("suit", "grand", "null") \
                    or (cand.null and cand.value(0) < bid):
                continue
            pair = self._pair(cand, hand)
            rest = hand
            for c in pair.cards:
                rest &= ~BIT[c]
            rows.append((self._win_p(rest, cand.d), pair, cand, rest))
        solve = self._worth_solving(rows, hand)
        # the contracts the heuristic's estimates judge first, the solved ones from the best such estimate down, so
        # that a solved contract is dropped once even winning (schneider) every layout left cannot beat the best
        first = sorted(range(len(rows)), key=lambda i: (any(rows[i] is x for x in solve),
                                                        -self._expected(rows[i][0], *self._row_terms(rows[i], hand, bid))))
        scores: dict[int, float] = {}  # expected scores, a grand's less GRAND_MARGIN
        for i in first:
            row = rows[i]
            margin = self.GRAND_MARGIN if row[2].g.family == "grand" else 0.0
            seen, e = self._declare_outlook(row, hand, bid, layouts, view.seat, any(row is x for x in solve),
                                            max(scores.values(), default=-math.inf) + margin)
            self.declare_outlooks.append((seen, e))
            if seen.source != "cut":
                scores[i] = e - margin
        for i, row in enumerate(rows):  # the first of the best, in the candidates' order
            if i in scores and (best is None or scores[i] > best[0]):
                best = (scores[i], row[1], row[2].d)
                self.declared = next(o for o, _ in self.declare_outlooks if o.game == row[2].d.game
                                     and o.ouvert == bool(row[2].d.ouvert))
        if best is None or best[1] not in view.legal:
            return super()._discard(view)
        self._expert_plan = best[2]
        return best[1]

    def _row_terms(self, row, hand: int, bid: int) -> tuple[int, int, int, int | None]:
        """The value, lost factor, bid and base of a contract row, as :meth:`_expected` takes them."""
        cand = row[2]
        return cand.value(0 if cand.null else cand.g.table.matadors(hand)), cand.lost, bid, cand.base

    def _declare_outlook(self, row, hand: int, bid: int, layouts, seat: int, solve: bool,
                         beat: float) -> tuple[Outlook, float]:
        """A contract row (heuristic chance, discard, contract, the ten cards
        kept) as the declaration judges it, with its expected score (schneider
        included): by the solver over ``layouts`` where ``solve``, until even
        winning every layout left could not reach ``beat`` (then its source is
        "cut" and the score that bound)."""
        p, pair, cand, rest = row
        v, lost, _, base = self._row_terms(row, hand, bid)
        gain = 0 if cand.null else self._schneider_gain(cand, cand.g.table.matadors(hand))
        goal, amount = self._dd_goal(cand, pair)
        schneider, raw, source = 0.0, p, "heuristic"
        if goal is not None and solve:
            th = self.rules.thresholds
            more = th.schneider - th.win if goal == "card_points" and gain > 0 else 0
            n, won, high = len(layouts), 0.0, 0
            for i, ab in enumerate(layouts):
                g = self._dd_won(cand, goal, amount, rest, ab, seat, more)
                won += min(1.0, g)
                high += g > 1
                left = n - i - 1
                bound = self._chance(cand, p, won + left, n, (rest,))
                ub = self._expected(bound, v, lost, bid, base) + (high + left) / n * gain
                if left and ub < beat:
                    return Outlook("declare", cand.d.game, cand.g.family, False, bool(cand.d.ouvert), v, bound,
                                   bound, "cut"), ub
            p, raw = self._chance(cand, p, won, n, (rest,)), self._chance(cand, p, won, n, (rest,), raw=True)
            schneider, source = high / n, "solver"
        e = self._expected(p, v, lost, bid, base) + schneider * gain
        return Outlook("declare", cand.d.game, cand.g.family, False, bool(cand.d.ouvert), v, p, raw, source), e

    def _declare(self, view: SeatView):
        plan = getattr(self, "_expert_plan", None)
        self._expert_plan = None
        if plan is not None:
            for a in view.legal:
                d = a.declaration
                if isinstance(a, Declare) and d.game == plan.game and d.ouvert == plan.ouvert \
                        and not (d.hand or d.schneider or d.schwarz):
                    self._plan = None
                    return a
        return super()._declare(view)


class SolverBidding(SolverDeclaration):
    """Part of :class:`~skatcore.bots.expert.ExpertPlayer` (mixed in before
    the heuristic player, whose estimates serve as priors).

    How the chances are judged and calibrated: the module's docstring.
    """

    # -- bidding -------------------------------------------------------------------
    def _bid(self, view: SeatView):
        if not self.rules.table.plain:
            return super()._bid(view)
        first = view.legal[0]
        if isinstance(first, Hold):
            return first if self._bids_to(view.hand, view.seat, view.bid) else PASS
        if isinstance(first, Bid) and self._bids_to(view.hand, view.seat, first.value):
            return first
        return PASS

    def _bids_to(self, hand: int, seat: int, value: int) -> bool:
        """Whether the limit (:meth:`_expert_limit`) reaches ``value``, asking
        only that: the heuristic's floor, else the contracts worth ``value``
        or more from the cheapest up until one holds (each contract's answer
        is kept for the deal, so the next bid asks only the ones not settled)."""
        if self._limit(hand) >= value:
            return True
        cands = sorted(((p, v, c) for p, v, c in self._bid_candidates(hand) if v >= value), key=lambda x: x[1])
        return any(self._holds_at_bid(cand, p, v, hand, seat, value) for p, v, cand in cands)

    def _expert_limit(self, hand: int, seat: int) -> int:
        """The highest bid at which some contract's expected score is positive
        (the ruleset's game value with the hand's matadors, its lost factor).
        Picking up, a contract's chance is its double-dummy win share over
        sampled skats and opponent hands (the heuristic's discard for it),
        blended with the heuristic's estimate, a layout whose skat leaves it
        worth less than the bid counting as lost; the contracts are tried from
        the highest value down, each at the bids from its value down until one
        holds.  Hand games and the skat steps' offers keep the heuristic's
        estimate."""
        best = self._limit(hand)  # hand games, the skat steps' offers: the heuristic's view
        for p, v, cand in sorted(self._bid_candidates(hand), key=lambda x: -x[1]):
            if v <= best:
                break
            for bid in sorted((b for b in self.rules.ladder if best < b <= v), reverse=True):
                if self._holds_at_bid(cand, p, v, hand, seat, bid):
                    best = bid
                    break
        return best

    def _bid_candidates(self, hand: int):
        """The pickup contracts the bidding solves: worth more than the heuristic's limit, worth solving."""
        best = self._limit(hand)
        return [(p, v, c) for p, v, c in self._worth_solving(self._evaluate(hand)[0], hand) if v > best]

    def _holds_at_bid(self, cand, p: float, v: int, hand: int, seat: int, bid: int) -> bool:
        """:meth:`_holds` for ``cand`` worth ``v`` over the bidding's layouts of
        ``hand`` at ``bid`` (kept for the deal, by the layouts it overbids)."""
        layouts = self._bid_layouts(hand)
        short = self._overbid(cand, hand, layouts, bid)
        key = ("holds", id(cand), hand, seat, short)
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = self._holds(cand, p, self._need(v, cand.lost), hand, layouts, seat, short)
        return got

    def _bid_layouts(self, hand: int) -> list[tuple[int, ...]]:
        """The bidding's sampled layouts of ``hand`` (skat, the two other hands), kept for the deal."""
        key = ("bid-layouts", hand)
        layouts = self._cache.get(key)
        if layouts is None:
            deck = self.rules.deck
            layouts = self._cache[key] = self._layouts(deck.mask & ~hand, (deck.skat, deck.hand, deck.hand),
                                                       self.bid_worlds, random.Random(hand ^ (self.seed or 0)))
        return layouts

    def _overbid(self, cand, hand: int, layouts, bid: int) -> tuple[bool, ...]:
        """Per layout, whether its skat leaves ``cand`` worth less than ``bid``:
        a hand "without" loses matadors where the skat holds the top trump, and
        the hand bid on its ten cards' value is overbid there."""
        if cand.null:
            return (False,) * len(layouts)
        table = cand.g.table
        return tuple(cand.value(table.matadors(hand | skat)) < bid for skat, _, _ in layouts)

    def _holds(self, cand, p: float, need: float, hand: int, layouts, seat: int,
               short: tuple[bool, ...] = ()) -> bool:
        """Whether ``cand``'s chance over ``layouts`` (skat, two opponent
        hands) reaches ``need``, a layout ``short`` of the bid counting as
        lost; stops once the rest cannot change it."""
        n = len(layouts)
        kept = self._kept(cand, hand, layouts)
        if kept is None:
            return False
        tens = tuple(k[2] for k in kept)
        wins = 0.0
        for i, (goal, amount, mine, opponents) in enumerate(kept):
            if not (short and short[i]):
                wins += self._dd_won(cand, goal, amount, mine, opponents, seat)
            left = n - i - 1
            if self._chance(cand, p, wins, n, tens, "bid") >= need:
                return True
            if self._chance(cand, p, wins + left, n, tens, "bid") < need:
                return False
        return False

    def _kept(self, cand, hand: int, layouts):
        """Per layout (skat, two opponent hands): the solver's goal and amount
        for ``cand``, the ten cards kept after its discard and the opponents'
        hands (None: not solvable)."""
        kept = []
        for skat, a, b in layouts:
            hand12 = hand | skat
            pair = self._pair(cand, hand12)
            goal, amount = self._dd_goal(cand, pair)
            if goal is None:
                return None
            kept.append((goal, amount, hand12 & ~sum(BIT[c] for c in pair.cards), (a, b)))
        return kept

