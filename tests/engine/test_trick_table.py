"""A trick-winner rule (skat_trick_winner) on the compiled paths: the table
of skatcore.engine.trick_table agrees with the hook key by key, the probe
(skatcore.engine.trick_probe) refuses a hook that reads more than its
arguments, and the compiled engine and the compiled heuristic play such a
ruleset exactly as Deal and the Python players do."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcore.bots.heuristic import HeuristicPlayer
from skatcore.bots.heuristic.compiled import play_heuristic
from skatcore.cards import parse_card
from skatcore.engine.compiled import Unsupported, engine_tables, play_random
from skatcore.engine.trick_table import MAX_CALLS, params_read, trick_wins
from skatcore.hookspecs import hookimpl
from skatcore.rules.compiler import get_rules
from skatcore.rules.trust import trusting
from skatcore.sim.dealing import seeded_deals
from skatcore.sim.play import play_seeded
from skatcore.testing import compile_with

ROOT = Path(__file__).resolve().parents[2]
SEVENLAST = ROOT / "examples" / "house-sevenlast" / "house-sevenlast.yaml"


def seven_of_trumps(order):
    return next((parse_card(t) for t in order.trumps if t[1] == "7"), None)


class DeclarersSeven:
    """The declarer's seven of trumps takes the last trick; three sevens in
    the first trick go to whoever led (reads number, leader and declarer)."""

    @hookimpl
    def skat_trick_winner(self, contract, order, cards, number, leader, declarer):
        if number == 1 and all(c % 8 == 7 for c in cards):  # the sevens: ids 7, 15, 23, 31
            return 0
        if number != 10 or declarer is None:
            return None
        seven = seven_of_trumps(order)
        if seven in cards and (leader + cards.index(seven)) % 3 == declarer:
            return cards.index(seven)
        return None


@pytest.fixture(scope="module")
def sevenlast():
    with trusting():
        return get_rules(str(SEVENLAST))


@pytest.fixture(scope="module")
def declarers_seven():
    return compile_with("official", plugins={"declarers_seven": DeclarersSeven})


def test_the_table_reads_what_the_hook_reads(sevenlast, declarers_seven):
    assert trick_wins(sevenlast).reads == ("last",)
    assert trick_wins(declarers_seven).reads == ("number", "leader", "declarer")
    impls = declarers_seven.pm.hook.skat_trick_winner.get_hookimpls()
    assert params_read(impls) == {"order", "cards", "number", "leader", "declarer"}  # contract: named, never read
    # the last-trick rule: per contract the card order's row and one for the last trick (suits only)
    wins = trick_wins(sevenlast)
    assert len(wins.wins) == 6 + 4 and wins.calls < 6 * 2 * 29760
    # the declarer's seven, asked per variant once on noting arguments (+1 call), the 29,760 tricks where it
    # looks at them: trick 1 looks at the cards alone (one row for every leader and declarer), tricks 2-9 at
    # nothing (one call each of 6 contracts), trick 10 at the leader and declarer where a suit's seven is in it
    # (4 suits x 9), the cards only in grand and null (None is no card: 2 x 1)
    assert trick_wins(declarers_seven).calls == (6 + 4 * 9 + 2) * (29760 + 1) + 6 * 8


@settings(deadline=None, max_examples=300)
@given(st.permutations(range(32)), st.integers(0, 5), st.integers(1, 10), st.integers(0, 2), st.integers(0, 2))
def test_the_table_answers_as_the_hook(deck, contract, number, leader, decl):
    rules = _DECLARERS_SEVEN
    wins = trick_wins(rules)
    game = wins.contracts[contract]
    for cards in (deck[:3], [7, 15, 23], [deck[0], 7, deck[1]] if 7 not in deck[:2] else deck[:3]):
        assert wins.index(contract, number - 1, leader, decl, cards) == \
            rules.trick_winner(game, cards, number, leader, decl)


_DECLARERS_SEVEN = compile_with("official", plugins={"declarers_seven": DeclarersSeven})


# -- the probe refuses a hook that reads more than its arguments -------------------------

HOOKS = '''
import random
import time
from random import random as draw
from skatcore.hookspecs import hookimpl

MODE = {"on": True}
LIMIT = 3


def raise_limit():
    global LIMIT
    LIMIT += 1


class Random:
    @hookimpl
    def skat_trick_winner(self, cards):
        if cards[0] == 5 and random.random() < 0.5:
            return 1


class _Bag:
    seen = []


class Hidden:
    """State where the code checks cannot see it: only asking again finds it."""

    @hookimpl
    def skat_trick_winner(self, cards):
        _Bag.seen.append(cards)
        return 0 if len(_Bag.seen) % 7 == 0 else None


class Drawn:
    @hookimpl
    def skat_trick_winner(self, cards):
        return 0 if draw() < 0.001 else None


class Clock:
    @hookimpl
    def skat_trick_winner(self, last):
        if last and time.time() < 0:
            return 0


class MutableGlobal:
    @hookimpl
    def skat_trick_winner(self, cards):
        if MODE["on"] and cards[2] == 31:
            return 2


class Rebound:
    @hookimpl
    def skat_trick_winner(self, number):
        return 0 if number > LIMIT else None


class Counter:
    def __init__(self):
        self.n = 0

    @hookimpl
    def skat_trick_winner(self, cards):
        self.n += 1


class SetElsewhere:
    def __init__(self):
        self.mode = 1

    @hookimpl
    def skat_session_start(self, state):
        self.mode = 2

    @hookimpl
    def skat_trick_winner(self, cards):
        return 0 if self.mode == 2 else None


class Everything:
    @hookimpl
    def skat_trick_winner(self, cards, number, leader, declarer):
        return 0 if cards[0] + number + leader + (declarer or 0) == 20 else None


class Raises:
    @hookimpl
    def skat_trick_winner(self, cards):
        if cards == (0, 1, 2):
            raise ValueError("no such trick")


class Constants:
    SEVEN = "7"

    @hookimpl
    def skat_trick_winner(self, contract, cards, last):
        return 0 if last and contract.family == "null" and max(cards) == 31 else None
'''


@pytest.mark.parametrize(("plugin", "reason"), [
    ("Random", r"calls random\.Random\.random \(hooks\.py:\d+\)"),
    ("Hidden", r"answers .* \(trick \d+ of \w+\) differently when asked again: it reads more than its arguments"),
    ("Drawn", r"calls random\.Random\.random \(hooks\.py:\d+\)"),
    ("Clock", r"calls time\.time \(hooks\.py:\d+\)"),
    ("MutableGlobal", r"reads the global MODE, a dict that can change \(hooks\.py:\d+\)"),
    ("Rebound", r"reads the global LIMIT \(hooks\.py:\d+\), which hooks\.py:\d+ rebinds"),
    ("Counter", r"reads the attribute n \(hooks\.py:\d+\), which skat_trick_winner"),
    ("SetElsewhere", r"reads the attribute mode \(hooks\.py:\d+\), which skat_session_start"),
    ("Everything", rf"reads the trick's number, leader, declarer: more than {MAX_CALLS:,} tricks to ask"),
    ("Raises", r"which raised ValueError for CA CK CQ \(trick 1 of clubs\)"),
])
def test_the_probe_refuses_what_reads_more(tmp_path, plugin, reason):
    (tmp_path / "hooks.py").write_text(HOOKS)
    (tmp_path / "r.yaml").write_text(f"extends: official\nplugins:\n  ./hooks.py:{plugin}: {{}}\n")
    with trusting():
        rules = get_rules(str(tmp_path / "r.yaml"))
    with pytest.raises(Unsupported, match=r"a plugin decides trick winners \(skat_trick_winner\).*" + reason):
        engine_tables(rules, hand_back=True)


def test_constants_and_functions_are_no_state(tmp_path):
    (tmp_path / "hooks.py").write_text(HOOKS)
    (tmp_path / "r.yaml").write_text("extends: official\nplugins:\n  ./hooks.py:Constants: {}\n")
    with trusting():
        rules = get_rules(str(tmp_path / "r.yaml"))
    wins = trick_wins(rules)
    assert not isinstance(wins, str), wins
    null = wins.contracts.index("null")
    trick = [parse_card(c) for c in ("C8", "C9", "D7")]
    assert rules.tricks["null"].winner_index(trick) == 1
    assert (wins.index(null, 9, 0, 1, trick), wins.index(null, 8, 0, 1, trick)) == (0, 1)  # the last trick only



# -- the compiled paths play such a ruleset as Deal and the Python players do ------------


def _rules(which, sevenlast, declarers_seven):
    return {"sevenlast": sevenlast, "declarers_seven": declarers_seven}[which]


def _moved(rules, deal) -> int:
    """The tricks of ``deal`` the plugin gave another seat than the card order would."""
    if deal.contract is None:  # thrown in
        return 0
    table = rules.tricks[deal.contract.name]
    return sum(t.winner != (t.leader + table.winner_index(t.cards)) % 3 for t in deal.tricks if t.winner is not None)


@pytest.mark.parametrize("which", ["sevenlast", "declarers_seven"])
def test_the_compiled_engine_plays_as_deal(which, sevenlast, declarers_seven):
    rules = _rules(which, sevenlast, declarers_seven)
    out = play_random(rules, 400, seed=7, keep=True)
    moved = 0
    for i in range(400):
        deal = out.replay(i)
        want = deal.result()
        assert (out.game(i), out.score[i], out.value[i], tuple(out.scores[i])) == \
            (want.game, want.score, want.value, tuple(want.scores.values())), want.explanation
        if deal.tricks and deal.tricks[-1].winner is not None:
            assert tuple(out.trick_points[i]) == tuple(deal.trick_points)
            assert out.last_winner[i] == deal.tricks[-1].winner
        moved += _moved(rules, deal)
    assert moved >= (5 if which == "sevenlast" else 2)  # the rule decided some tricks (the declarer's seven: rarer)


@pytest.mark.parametrize("which", ["sevenlast", "declarers_seven"])
def test_the_compiled_heuristic_takes_the_python_players_decisions(which, sevenlast, declarers_seven):
    rules = _rules(which, sevenlast, declarers_seven)
    n = 8000
    dealt = seeded_deals(21, 0, n)
    out = play_heuristic(rules, dealt, 21, 0, keep=True)
    plain = play_heuristic(get_rules("official"), dealt, 21, 0)
    # the deals the rule changed (a card played, a trick moved) and some others
    changed = np.nonzero((out.plays != plain.plays).any(axis=1) | (out.trick_points != plain.trick_points).any(axis=1))[0]
    assert len(changed) >= 3
    moved = 0
    for i in [*range(60), *changed[:40]]:
        want, _ = play_seeded(rules, [HeuristicPlayer] * 3, 21, i)
        got = out.replay(i)
        assert [a for _, a in got.history] == [a for _, a in want.history], f"deal {i}"
        assert tuple(out.scores[i]) == tuple(want.result().scores.values())
        moved += _moved(rules, want)
    assert moved >= 3


def test_the_guides_example_runs_as_written():
    """docs/writing-plugins.md, section 10: its code block, as a reader runs it."""
    import re

    text = (ROOT / "docs" / "writing-plugins.md").read_text(encoding="utf-8")
    section = text[text.index("## 10. Who takes a trick"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    exec(compile(code, "<docs/writing-plugins.md, section 10>", "exec"), {"__name__": "guide"})


def test_compare_verifies_the_compiled_rows_against_deal(capsys):
    from skatcore.cli.main import main

    assert main(["--trust", "compare", "official", str(SEVENLAST), "--deals", "400", "--verify", "300"]) == 0
    out = capsys.readouterr()
    text = out.out + out.err
    assert "house-sevenlast.yaml: 300 deals, same rows on the compiled path and through Deal" in text


def test_the_compiled_paths_run_without_jit(sevenlast):
    """NUMBA_DISABLE_JIT=1 runs the same kernels as plain Python: the same
    scores, and the solver's value under the rule."""
    import os
    import subprocess
    import sys

    code = ("from skatcore.rules.compiler import get_rules;"
            "from skatcore.bots.heuristic.compiled import play_heuristic; from skatcore.sim.dealing import seeded_deals;"
            "from skatcore.engine.compiled import play_random; from skatcore.bots.solver import Solver, Position, trick_rule;"
            "from skatcore.cards import mask_of, parse_card as c;"
            f"r = get_rules({str(SEVENLAST)!r});"
            "m = lambda s: mask_of(c(x) for x in s.split());"
            "pos = Position((m('CJ DA'), m('D7 S7'), m('DT SA')), 1, ());"
            "print(list(play_heuristic(r, seeded_deals(1, 0, 8), 1, 0).score), list(play_random(r, 8, 1).score),"
            " Solver(r.tricks['diamonds'], 0, rule=trick_rule(r, 'diamonds', 0)).value(pos))")
    runs = []
    for jit in ("0", "1"):
        env = {**os.environ, "NUMBA_DISABLE_JIT": jit, "SKAT_TRUSTED_PATHS": str(SEVENLAST.parent)}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stderr[-2000:]
        runs.append(out.stdout)
    assert runs[0] == runs[1]
    # middlehand leads S7 and keeps D7, which takes the last trick by the rule: forehand 22 (S7 SA DA), not 34
    assert runs[0].split()[-1] == "22"
