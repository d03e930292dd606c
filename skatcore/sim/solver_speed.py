"""The double-dummy solver's speed on opening positions (``skat bench``'s
solver section and ``tools/solver_speed.py``).

Two kinds of positions, 30 cards after the discard, before the first card:

* ``declared`` - the games a table of heuristic players declared (suit and
  grand, run ``seed``, deals in order): the declarer's hand after his
  discard, the cards that count for him (skat or discard) known;
* ``random`` - random deals where forehand plays the suit (or grand, with two
  jacks or more, a third of the time) in which he holds the most trumps, the
  skat counted for him: the kind the bench timed before, mostly clear losses.

Each position is timed twice with a cold transposition table: the exact card
points (:meth:`Solver.value`) and "does the declarer reach 61"
(:meth:`Solver.reaches`).  CPU time of this process (``time.process_time``),
one core.  A measurement, never a test.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from skatcore.engine.deal import deal_cards
from skatcore.errors import InputError


@dataclass(frozen=True)
class Opening:
    """One opening position: the contract's trick table, the declarer's seat,
    the three hands (masks, forehand leads) and what the declarer still needs for a win."""

    table: object
    declarer: int
    hands: tuple[int, int, int]
    need: int


def declared_openings(rules, n: int, seed: int = 11) -> list[Opening]:
    """The first ``n`` suit and grand games a heuristic table declares in run
    ``seed`` (fewer if it declares none in ``40 n`` deals; none for a ruleset
    the compiled heuristic does not play)."""
    from skatcore.bots.heuristic.compiled import play_heuristic
    from skatcore.engine.compiled import Unsupported
    from skatcore.sim.dealing import seeded_deals

    out: list[Opening] = []
    start = 0
    while len(out) < n and start < 40 * n:
        dealt = seeded_deals(seed, start, 4 * n)
        try:
            played = play_heuristic(rules, dealt, seed=seed, start=start)
        except Unsupported:
            return []
        for i in range(len(played)):
            d = int(played.declarer[i])
            if d < 0 or rules.contracts[played.game(i)].family not in ("suit", "grand"):
                continue
            table = rules.tricks[played.game(i)]
            counted = int(played.skat_mask[i])
            hands = [int(h) for h in dealt[1][i]]
            hands[d] = (hands[d] | int(dealt[2][i])) & ~counted
            laid = sum(table.points[c] for c in range(32) if counted >> c & 1)
            out.append(Opening(table, d, (hands[0], hands[1], hands[2]), rules.thresholds.win - laid))
            if len(out) == n:
                break
        start += 4 * n
    return out


def random_openings(rules, n: int, seed: int = 1) -> list[Opening]:
    """``n`` random deals, forehand declaring his longest trump suit (see the module)."""
    games = [c for c in rules.contracts.values() if c.family in ("suit", "grand")]
    if not games:
        return []
    grand = next((c for c in games if c.family == "grand"), None)
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        hands, skat = deal_cards(rng, rules.deck)
        mine = set(hands[0]) | set(skat)
        best = max(games, key=lambda c: len(mine & set(rules.tricks[c.name].trumps)))
        if grand is not None and len(mine & {3, 11, 19, 27}) >= 2 and rng.random() < 0.35:
            best = grand
        table = rules.tricks[best.name]
        need = rules.thresholds.win - sum(table.points[c] for c in skat)
        out.append(Opening(table, 0, tuple(sum(1 << c for c in h) for h in hands), need))
    return out


def quantiles(values: Sequence[float], scale: float = 1000) -> dict[str, float]:
    """Median, p90, p99 and max of ``values`` times ``scale`` (seconds to ms),
    each the value at rank ``int(p * n)`` of the sorted values (from 0)."""
    s = sorted(values)
    def q(p):
        return scale * s[min(len(s) - 1, int(p * len(s)))]
    return {"median": q(0.5), "p90": q(0.9), "p99": q(0.99), "max": scale * s[-1]}


def time_openings(openings: list[Opening], tick: Callable[[], None] | None = None, repeat: int = 1) -> dict:
    """CPU times of the exact value and of the 61 question on each opening,
    cold transposition table each time; their quantiles (ms) and nodes per second.

    With ``repeat`` > 1 each position is solved that many times and its
    fastest time kept, the nodes of its first run: a steadier figure on a
    machine whose other work slows some runs.  (The nodes of a run differ
    from another's by a fraction of a percent: the table's buckets hash the
    solver's tag, a new one each run.)"""
    from skatcore.bots.solver import Position, Solver

    exact: list[float] = []
    question: list[float] = []
    exact_nodes: list[int] = []
    question_nodes: list[int] = []
    cpu = 0.0
    for o in openings:
        pos = Position(o.hands, 0, ())
        best_exact = best_question = float("inf")
        n_exact = n_question = -1
        for _ in range(max(1, repeat)):
            s = Solver(o.table, o.declarer)
            t0 = time.process_time()
            s.value(pos)
            t1 = time.process_time()
            if n_exact < 0:
                n_exact = s.nodes
            s.new_deal()
            s.reaches(pos, o.need)
            t2 = time.process_time()
            if n_question < 0:
                n_question = s.nodes - n_exact
            best_exact, best_question = min(best_exact, t1 - t0), min(best_question, t2 - t1)
        exact_nodes.append(n_exact)
        question_nodes.append(n_question)
        exact.append(best_exact)
        question.append(best_question)
        cpu += best_exact + best_question
        if tick:
            tick()
    nodes = sum(exact_nodes) + sum(question_nodes)
    return {"exact_ms": quantiles(exact), "question_ms": quantiles(question),
            "exact_nodes": quantiles(exact_nodes, 1), "question_nodes": quantiles(question_nodes, 1),
            "exact_nodes_sum": sum(exact_nodes), "question_nodes_sum": sum(question_nodes),
            "nodes_per_s": round(nodes / cpu) if cpu > 0 else 0, "positions": len(openings)}




def load_solver_from(checkout: str):
    """The solver of another checkout (its ``skatcore/bots/solver*.py``, however many modules it has) as
    a package of its own beside this one's, so that one process can time
    both: copied to a temporary directory (numba compiles it there afresh)."""
    import importlib
    import shutil
    import sys
    import tempfile
    from pathlib import Path

    src = Path(checkout) / "skatcore" / "bots"
    texts = {}
    names = sorted({"solver.py", *(p.name for p in src.glob("solver*.py"))})
    for name in names:  # all read before anything is written
        try:
            texts[name] = (src / name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise InputError(f"expected a skatcore checkout with {name} ({type(e).__name__})",
                             source=str(src / name)) from None
    root = Path(tempfile.mkdtemp(prefix="solver_against_"))
    pkg = root / "solver_against"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name, text in texts.items():
        (pkg / name).write_text(text.replace("from ..cards import", "from skatcore.cards import"), encoding="utf-8")
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module("solver_against.solver"), lambda: shutil.rmtree(root, ignore_errors=True)
    finally:
        sys.path.remove(str(root))


def pair_openings(openings: list[Opening], other, repeat: int = 3) -> dict:
    """The exact value of each opening by ``other`` (a solver module, see
    :func:`load_solver_from`) and by this solver, alternately, each the
    fastest of ``repeat`` runs: the other work on a busy machine then slows
    both alike.  Their quantiles (ms, nodes) and this one's time over the
    other's, position by position (median) and summed."""
    from skatcore.bots import solver as mine

    mods = (other, mine)
    times: tuple[list[float], list[float]] = ([], [])
    nodes: tuple[list[int], list[int]] = ([], [])
    for o in openings:
        best = [float("inf"), float("inf")]
        for r in range(max(1, repeat)):
            for k in ((0, 1) if r % 2 == 0 else (1, 0)):
                s = mods[k].Solver(o.table, o.declarer)
                pos = mods[k].Position(o.hands, 0, ())
                t0 = time.process_time()
                s.value(pos)
                best[k] = min(best[k], time.process_time() - t0)
                if r == 0:
                    nodes[k].append(s.nodes)
        for k in (0, 1):
            times[k].append(best[k])
    ratio = sorted(b / a for a, b in zip(times[0], times[1], strict=True) if a > 0)
    return {"other_ms": quantiles(times[0]), "this_ms": quantiles(times[1]),
            "other_nodes": quantiles(nodes[0], 1), "this_nodes": quantiles(nodes[1], 1),
            "ratio_median": ratio[len(ratio) // 2] if ratio else 0.0,
            "ratio_sum": sum(times[1]) / sum(times[0]) if sum(times[0]) > 0 else 0.0, "positions": len(openings)}
