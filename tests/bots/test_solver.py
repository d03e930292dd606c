"""The double-dummy solver against a plain minimax on small endings."""

import os
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcore.bots import solver_moves as moves_
from skatcore.bots.solver import Position, Solver
from skatcore.cards import mask_of, parse_card
from skatcore.engine.deal import deal_cards
from skatcore.rules import get_rules


def minimax(table, pos: Position, declarer: int, tricks_goal: bool = False, invert: bool = False) -> int:
    """What the declarer's side takes from ``pos``: every legal card tried, no pruning."""
    legal = pos.legal(table)
    if not legal:
        return 0
    maxing = pos.to_move == declarer
    best = None
    for c in range(36):
        if legal >> c & 1:
            nxt, winner = pos.play(c, table)
            got = 0
            if winner is not None and (winner == declarer) != invert:
                got = 1 if tricks_goal else sum(table.points[x] for x in (*pos.trick, c))
            v = got + minimax(table, nxt, declarer, tricks_goal, invert)
            if best is None or (v > best if maxing else v < best):
                best = v
    return best


def ending(rules, rng: random.Random, tricks: int):
    """A random position with ``tricks`` tricks left to play, perhaps mid-trick."""
    hands, _ = deal_cards(rng, rules.deck)
    hands = [rng.sample(h, tricks) for h in hands]
    leader = rng.randrange(3)
    pos = Position(tuple(mask_of(h) for h in hands), leader, ())
    return pos


def some_play(table, pos: Position, rng: random.Random, cards: int) -> Position:
    for _ in range(cards):
        legal = [c for c in range(36) if pos.legal(table) >> c & 1]
        pos, _ = pos.play(rng.choice(legal), table)
    return pos


def contract_of(ruleset: str, contract: str):
    """The case's rules and trick table (the ruleset's first contract where it lacks
    ``contract``), whether tricks count (null) and whether the count is inverted (Ramsch)."""
    rules = get_rules(ruleset)
    if contract not in rules.tricks:
        contract = next(iter(rules.tricks))
    family = rules.contracts[contract].family
    return rules, rules.tricks[contract], family == "null", family == "ramsch"


CASES = [("official", "grand"), ("official", "hearts"), ("official", "clubs"), ("official", "null"),
         ("ramsch", "ramsch"), ("danish", "grand")]


@pytest.mark.parametrize("ruleset,contract", CASES)
def test_exact_values_match_minimax(ruleset, contract):
    rules, table, tricks_goal, invert = contract_of(ruleset, contract)
    rng = random.Random(f"{ruleset}/{contract}")  # a str seed: the same cases in every process
    for i in range(15):
        pos = ending(rules, rng, 3 if i % 2 else 4)
        pos = some_play(table, pos, rng, rng.randrange(3))
        declarer = rng.randrange(3)
        s = Solver(table, declarer, "tricks" if tricks_goal else "points", invert=invert)
        want = minimax(table, pos, declarer, tricks_goal, invert)
        assert s.value(pos) == want, (pos, declarer)
        for need in {want, want + 1, 61 % 20, 1}:
            assert s.reaches(pos, need) == (want >= need)
        values = s.card_values(pos)
        legal = pos.legal(table)
        assert set(values) == {c for c in range(36) if legal >> c & 1}
        for c, v in values.items():
            nxt, winner = pos.play(c, table)
            got = 0
            if winner is not None and (winner == declarer) != invert:
                got = 1 if tricks_goal else sum(table.points[x] for x in (*pos.trick, c))
            assert v == got + minimax(table, nxt, declarer, tricks_goal, invert)
        assert max(values.values()) == want if pos.to_move == declarer else min(values.values()) == want


def test_threshold_card_values():
    rules = get_rules("official")
    table = rules.tricks["spades"]
    rng = random.Random(5)
    for _ in range(10):
        pos = ending(rules, rng, 4)
        s = Solver(table, 1)
        exact = s.card_values(pos)
        for need in (10, 25):
            assert s.card_values(pos, need) == {c: int(v >= need) for c, v in exact.items()}


def test_hand_computed_ending():
    """Grand, forehand declarer leads CJ then HA; the defenders hold only low
    cards: he takes all three tricks, 2+11+10+... points as counted here."""
    table = get_rules("official").tricks["grand"]
    def cards(text):
        return mask_of(parse_card(t) for t in text.split())
    pos = Position((cards("CJ HA HT"), cards("H7 S7 S8"), cards("H8 D7 D8")), 0, ())
    s = Solver(table, 0)
    assert s.value(pos) == 2 + 11 + 10  # no defender card counts
    assert s.card_values(pos)[parse_card("CJ")] == 23
    null = Solver(get_rules("official").tricks["null"], 0, "tricks")
    # null: the declarer's H7 S7 S8 under the others' higher cards never takes a trick
    pos = Position((cards("H7 S7 S8"), cards("HA ST SK"), cards("HK SA D7")), 0, ())
    assert null.value(pos) == 0 and not null.reaches(pos, 1)


def test_compiled_search_matches_its_source():
    """numba's machine code walks the same tree as the Python source: same
    answers, same node counts (a miscompiled branch shows as a difference)."""
    import numpy as np

    from skatcore.bots import solver as mod
    from skatcore.bots import solver_kernel as kernel

    rules = get_rules("official")
    rng = random.Random(3)
    for i, contract in enumerate(["grand", "hearts", "null"] * 3):
        null = contract == "null"
        pos = ending(rules, rng, 4 + i % 2)
        s = Solver(rules.tricks[contract], rng.randrange(3), "tricks" if null else "points")
        need = 2 if null else 25
        runs = []
        for search in (kernel.search, kernel.search.py_func):
            stats = np.zeros(2, dtype=np.int64)
            s.new_deal()
            won = search(s.T, s.W, s.cfg, s.canon, *s._args(pos), need - 1, need, s.live(pos), mod._Shared.tt, s.moves, 0,
                         stats)
            runs.append((int(won), int(stats[0])))
        assert runs[0] == runs[1], (contract, pos)


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="inspects numba's machine code")
def test_the_search_counts_no_references_in_its_loops():
    """An array handed to a compiled helper inside the search's loop made
    numba count references to it there (atomic operations; 9.5% of the
    CPU): the search's LLVM code takes one reference to each of its eight
    arrays on entry (W: a plugin's trick winners) and none in its loops (compiled afresh: the cache keeps
    no LLVM code)."""
    import re

    import numba

    from skatcore.bots import solver as mod
    from skatcore.bots import solver_kernel as kernel

    rules = get_rules("official")
    pos = ending(rules, random.Random(1), 4)
    s = Solver(rules.tricks["grand"], 0)
    fresh = numba.njit(kernel.search.py_func)
    fresh(s.T, s.W, s.cfg, s.canon, *s._args(pos), 24, 25, s.live(pos), mod._Shared.tt, s.moves, 0, s.stats)
    llvm = fresh.inspect_llvm(fresh.signatures[0])
    body = re.search(r"define [^\n]*@_ZN8skatcore\w*solver_kernel6search[^\n]*\{(.*?)\n\}", llvm, re.S).group(1)
    assert body.count("call void @NRT_incref") == 8


def test_runs_without_jit():
    code = ("from skatcore.bots.solver import Solver, Position; from skatcore.rules import get_rules;"
            "from skatcore.cards import mask_of, parse_card as p;"
            "t = get_rules('official').tricks['grand'];"
            "m = lambda s: mask_of(p(x) for x in s.split());"
            "pos = Position((m('CJ HA HT'), m('H7 S7 S8'), m('H8 D7 D8')), 0, ());"
            "print(Solver(t, 0).value(pos), Solver(t, 1).value(pos))")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["23", "0"]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), case=st.sampled_from(CASES), tricks=st.integers(2, 4),
       played=st.integers(0, 2), need=st.integers(-5, 125))
def test_every_bound_the_search_answers_holds(seed, case, tricks, played, need):
    """Fail-soft: a search for ``need`` answers g; g >= need means the side
    takes at least g, else at most g (the quick-trick bounds, the table's
    bounds and the last-trick value all pass through it).  Against minimax."""
    import numpy as np

    from skatcore.bots import solver as mod
    from skatcore.bots import solver_kernel as kernel

    rules, table, tricks_goal, invert = contract_of(*case)
    rng = random.Random(seed)
    pos = some_play(table, ending(rules, rng, tricks), rng, played)
    declarer = rng.randrange(3)
    s = Solver(table, declarer, "tricks" if tricks_goal else "points", invert=invert)
    want = minimax(table, pos, declarer, tricks_goal, invert)
    stats = np.zeros(2, dtype=np.int64)
    g = int(kernel.search(s.T, s.W, s.cfg, s.canon, *s._args(pos), need - 1, need, s.live(pos), mod._Shared.tt, s.moves,
                          0, stats))
    assert (want >= g) if g >= need else (want <= g < need)
    assert s.value(pos) == want


def test_quick_tricks_by_hand():
    """Hearts; forehand leads with CJ SJ HA and a low club; the others hold a
    trump each (HJ, DJ) and clubs.  CJ and SJ stand (2 + 2 points); HA does
    only once the jacks are drawn, which the bound does not look ahead to,
    and the club is beaten: 4 sure points."""

    table = get_rules("official").tricks["hearts"]
    def cards(text):
        return mask_of(parse_card(t) for t in text.split())
    s = Solver(table, 0)
    pos = Position((cards("CJ SJ HA C7"), cards("HJ CA CT S7"), cards("DJ CK CQ S8")), 0, ())
    hands, *_ = s._args(pos)
    assert moves_.quick_points(s.T, *hands, 0) == 2 + 2
    assert s.value(pos) >= 4 + 11
    # SA and ST stand while rearhand (with a trump) still follows spades: once, the ace cashed; middlehand
    # has neither spades nor trumps
    pos = Position((cards("SA ST D7"), cards("C7 C8 C9"), cards("S7 HT DA")), 0, ())
    hands, *_ = s._args(pos)
    assert moves_.quick_points(s.T, *hands, 0) == 11


def test_equal_cards_share_a_key():
    """Grand, forehand holds S9 and S7, middlehand S8: the spade 9-8-7 are
    a run of equal cards, so forehand's one low spade left is the same
    position whichever it is (both stand for S9, the strongest he was
    dealt), but not middlehand's S8.  The four jacks: forehand CJ HJ,
    middlehand SJ DJ; a jack of each, forehand's above, is one position."""
    from skatcore.bots import solver_table

    table = get_rules("official").tricks["grand"]
    def cards(text):
        return mask_of(parse_card(t) for t in text.split())
    s = Solver(table, 0)
    s._args(Position((cards("S9 S7 CJ HJ"), cards("S8 SJ DJ HA"), cards("CT DA DT HT")), 0, ()))
    rest = cards("HA CT DA DT HT")
    def key(text):
        return solver_table.canonical(s.canon, 0, s.cfg[5], s.flat.mask(cards(text) | rest))
    assert key("S9") == key("S7") != key("S8")
    assert len({key("S9 S8"), key("S8 S7"), key("S9 S7")}) == 3  # owners in another order: other positions
    assert key("CJ SJ") == key("HJ DJ") == key("CJ DJ") != key("SJ HJ")
    assert key("S9 S8 S7 CJ SJ HJ DJ") == s.flat.mask(cards("S9 S8 S7 CJ SJ HJ DJ") | rest)


def test_like_positions_and_sure_trumps_by_hand():
    """Like positions pair their cards by strength: SK HT against SQ HA is
    1 point more and 1 less; grand, the declarer's CJ and SJ above the
    defenders' HJ are his for sure (4 points), his DJ under HJ is not."""
    import numpy as np

    from skatcore.bots import solver_table

    table = get_rules("official").tricks["grand"]
    def cards(text):
        return mask_of(parse_card(t) for t in text.split())
    s = Solver(table, 0)
    m = s.flat.mask
    assert solver_table.like_bounds(s.T, m(cards("SK HT")), m(cards("SQ HA"))) == (1, 1)
    assert solver_table.like_bounds(s.T, m(cards("S7 D8")), m(cards("S8 D7"))) == (0, 0)
    hands = np.array([m(cards("CJ SJ DJ")), m(cards("HJ C7 C8")), m(cards("S7 S8 S9"))], dtype=np.int64)
    assert moves_.sure_trumps(s.T, *hands, 1) == 4
    assert moves_.sure_trumps(s.T, *hands, 6) == 0
    hands[0] = m(cards("CJ HA HT"))
    hands[1] = m(cards("SJ HJ C8"))
    assert moves_.sure_trumps(s.T, *hands, 1) == 2 and moves_.sure_trumps(s.T, *hands, 6) == 0


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), case=st.sampled_from(CASES))
def test_one_solver_along_a_deal_matches_minimax(seed, case):
    """One solver (one transposition table) asked about many positions of a
    deal, reached by different cards: entries shared between positions that
    differ in which equal cards are left, and like positions' bounds, never
    change an answer."""
    rules, table, tricks_goal, invert = contract_of(*case)
    rng = random.Random(seed)
    start = ending(rules, rng, 4)
    declarer = rng.randrange(3)
    s = Solver(table, declarer, "tricks" if tricks_goal else "points", invert=invert)
    for _ in range(4):
        pos = some_play(table, start, rng, rng.randrange(3, 7))
        want = minimax(table, pos, declarer, tricks_goal, invert)
        assert s.value(pos) == want
        assert s.reaches(pos, want) and not s.reaches(pos, want + 1)


def test_the_deal_tag_wraps_below_the_like_flag():
    """A solver's tag takes 24 bits of the key; above them sits the like
    positions' flag, so the tag wraps to 1 (and the table is cleared) before
    it would reach it - answers stay exact across the wrap."""
    from skatcore.bots import solver as mod
    from skatcore.bots import solver_table

    table = get_rules("official").tricks["grand"]
    def cards(text):
        return mask_of(parse_card(t) for t in text.split())
    pos = Position((cards("CJ HA HT"), cards("H7 S7 S8"), cards("H8 D7 D8")), 0, ())
    saved = mod._Shared.tag
    try:
        mod._Shared.tag = solver_table.TAG_MASK - 1
        s = Solver(table, 0)
        assert s.cfg[3] == solver_table.TAG_MASK and s.value(pos) == 23
        s.new_deal()
        assert s.cfg[3] == 1 and s.value(pos) == 23
    finally:
        mod._Shared.tag = max(saved, 1)


def _ending_case(seed: int, case, tricks: int):
    """A random ending of ``tricks`` tricks under ``case``: its minimax take, the
    arguments of the direct solutions (``two_tricks``, ``three_tricks``) but
    the window, and the generator that made it."""
    rules, table, tricks_goal, invert = contract_of(*case)
    rng = random.Random(seed)
    pos = ending(rules, rng, tricks)
    declarer = rng.randrange(3)
    s = Solver(table, declarer, "tricks" if tricks_goal else "points", invert=invert)
    hands, _, _, _, leader = s._args(pos)
    want = minimax(table, pos, declarer, tricks_goal, invert)
    return want, (s.T, s.W, *hands, leader, declarer, int(invert), int(tricks_goal)), rng


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), case=st.sampled_from(CASES))
def test_the_last_two_tricks_solved_directly(seed, case):
    """The last two tricks are an alpha-beta over the first trick's plays
    (``two_tricks``, no table), fail-soft: every leader and declarer, against minimax."""
    want, args, rng = _ending_case(seed, case, 2)
    assert moves_.two_tricks(*args, -1, 1000) == want
    for need in (want, want + 1, rng.randrange(0, 50)):  # fail-soft on a null window
        g = moves_.two_tricks(*args, need - 1, need)
        assert (want >= g) if g >= need else (want <= g < need)


def test_lead_order_by_hand():
    """Grand, declarer middlehand.  Forehand (a defender) first leads low to
    his partner's master (S7 to the SA behind the declarer's SK), then his
    CA, a master the declarer would ruff (void in clubs, holding a jack: it
    is not cashed first), then a plain low card.  With a club in the
    declarer's hand the CA goes first.  The order only speeds the search:
    the value stays the minimax's."""
    import numpy as np

    from skatcore.bots import solver_kernel as kernel

    table = get_rules("official").tricks["grand"]
    def cards(text):
        return mask_of(parse_card(t) for t in text.split())
    s = Solver(table, 1)
    moves = np.zeros((kernel.MAX_DEPTH, 32), dtype=np.int64)
    for declarer, want in [("SK DJ H9", "S7 CA H7"), ("SK CT H9", "CA S7 H7")]:
        pos = Position((cards("S7 CA H7"), cards(declarer), cards("SA C7 H8")), 0, ())
        s.new_deal()
        hands, *_ = s._args(pos)
        n = moves_.search_moves(s.T, *hands, 0, 0, 0, 0, 1, 0, 0, moves, 0)
        assert [int(moves[0, i]) for i in range(n)] == [s.flat.inner[parse_card(t)] for t in want.split()]
        assert s.value(pos) == minimax(table, pos, 1)


def test_the_declarer_draws_trumps_by_hand():
    """Grand, declarer forehand with CA DJ H7 S8, the defenders holding the
    CJ and SJ (and clubs to follow): the CA, a master no one ruffs, first,
    then the DJ to draw trumps, then the low side cards.  The value stays
    the minimax's."""
    import numpy as np

    from skatcore.bots import solver_kernel as kernel

    table = get_rules("official").tricks["grand"]
    def cards(text):
        return mask_of(parse_card(t) for t in text.split())
    s = Solver(table, 0)
    moves = np.zeros((kernel.MAX_DEPTH, 32), dtype=np.int64)
    pos = Position((cards("CA DJ H7 S8"), cards("CJ C7 HA S7"), cards("SJ CT HK SA")), 0, ())
    hands, *_ = s._args(pos)
    n = moves_.search_moves(s.T, *hands, 0, 0, 0, 0, 0, 0, 0, moves, 0)
    inner = s.flat.inner
    order = [int(moves[0, i]) for i in range(n)]
    assert order[:2] == [inner[parse_card("CA")], inner[parse_card("DJ")]]
    assert sorted(order[2:]) == sorted(inner[parse_card(t)] for t in ("H7", "S8"))
    assert s.value(pos) == minimax(table, pos, 0)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), contract=st.sampled_from(["grand", "hearts", "clubs"]))
def test_like_bounds_pair_the_cards_by_strength(seed, contract):
    """``like_bounds`` (which skips the pairs below and above the cards
    that differ) against pairing every card of two like card sets, weakest
    with weakest, by hand."""
    from skatcore.bots import solver_table

    table = get_rules("official").tricks[contract]
    s = Solver(table, 0)
    T = s.T
    rng = random.Random(seed)
    rem = rem0 = 0
    for k in range(5):
        cls = [i for i in range(36) if int(T[moves_.CLASS, k]) >> i & 1]
        n = rng.randint(0, len(cls))
        rem |= sum(1 << i for i in rng.sample(cls, n))
        rem0 |= sum(1 << i for i in rng.sample(cls, n))
    up = down = 0
    for a, b in zip([i for i in range(36) if rem >> i & 1], [i for i in range(36) if rem0 >> i & 1], strict=True):
        diff = int(T[solver_table.POINTS, a] - T[solver_table.POINTS, b])
        up, down = up + max(diff, 0), down + max(-diff, 0)
    assert solver_table.like_bounds(T, rem, rem0) == (up, down)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), case=st.sampled_from(CASES), need=st.integers(-5, 60))
def test_the_last_three_tricks_solved_directly(seed, case, need):
    """The last three tricks are an alpha-beta over the first trick's plays
    (``three_tricks``, no table), fail-soft on a null window: the answer g
    is at most the take if g >= need, else at least it (and below need);
    in the full window, the take itself.  Against minimax."""
    want, args, _ = _ending_case(seed, case, 3)
    assert moves_.three_tricks(*args, -1, 1000) == want
    g = moves_.three_tricks(*args, need - 1, need)
    assert (want >= g) if g >= need else (want <= g < need)


def test_value_stops_at_the_node_limit():
    """Over the node limit the exact value has no answer: it gives up at
    the first probe that ran out (one abort counted, not one per probe) and
    answers a lower bound of the take."""
    rules = get_rules("official")
    rng = random.Random(7)
    table = rules.tricks["grand"]
    for _ in range(3):
        hands, _ = deal_cards(rng, rules.deck)
        pos = Position(tuple(mask_of(h) for h in hands), 0, ())
        want = Solver(table, 0).value(pos)
        s = Solver(table, 0, node_limit=40)
        got = s.value(pos)
        assert s.aborted == 1 and got <= want


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), contract=st.sampled_from(["grand", "hearts", "null"]))
def test_canonical_subsets_match_the_greedy_matching(seed, contract):
    """``learn`` fills the canonical subsets weakest card last, each from the
    subset without it; against matching every subset's cards strongest
    first, each to the strongest card of the group under the last match
    that the same seat was dealt (some cards not yet seen)."""
    import numpy as np

    from skatcore.bots import solver_table

    rng = random.Random(seed)
    s = Solver(get_rules("official").tricks[contract], 0)
    owner = np.full(36, -1, dtype=np.int64)
    hands = np.zeros(3, dtype=np.int64)
    for c in range(36):
        if rng.random() < 0.8:
            hands[rng.randrange(3)] |= 1 << c
    groups = int(s.cfg[5] + s.cfg[6])
    solver_table.learn(s.canon, groups, owner, hands)
    for g in range(groups):
        lo, size = int(s.canon[g, 0]), int(s.canon[g, 1])
        known = [j for j in range(size) if owner[lo + j] >= 0]
        for k in range(1 << len(known)):
            sub = [known[i] for i in range(len(known)) if k >> i & 1]
            want, at = 0, size - 1
            for j in sorted(sub, reverse=True):
                while owner[lo + at] != owner[lo + j]:
                    at -= 1
                want |= 1 << (lo + at)
                at -= 1
            assert s.canon[g, 2 + sum(1 << j for j in sub)] == want
