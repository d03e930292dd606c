"""One truth: a house rule's scoring gives the same per-deal rows on the
compiled path and through Deal, whatever of the finished game it reads.

Hypothesis writes house rules - multiplier items (``skat_multiplier_items``)
and win conditions (``skat_win_conditions``) that compare fields of the
:class:`~skatcore.model.GameFacts` (bid, matadors, card points, tricks, the
schneider and schwarz flags, the last trick, every trick, the declaration)
with thresholds - adds them to ``official`` and demands the same rows both
ways (:func:`skatcore.testing.assert_same_rows`)."""

from __future__ import annotations

import operator

import pytest
from hypothesis import HealthCheck, Phase, event, example, given, note, settings
from hypothesis import strategies as st

from skatcore.hookspecs import hookimpl
from skatcore.model import MultiplierItem, WinCondition
from skatcore.sim.fastpath import compiled
from skatcore.testing import assert_same_rows, compile_with


def _winner(f):
    return -1 if f.last_trick_winner is None else f.last_trick_winner


# what a house rule may read of the facts: (name, facts -> int, thresholds worth trying)
FEATURES = {
    "bid": (lambda f: f.bid, (18, 60)),
    "declarer": (lambda f: f.declarer, (0, 2)),
    "matadors": (lambda f: f.matadors, (-4, 4)),
    "abs_matadors": (lambda f: abs(f.matadors), (1, 4)),
    "declarer_points": (lambda f: f.declarer_points, (0, 120)),
    "declarer_tricks": (lambda f: f.declarer_tricks, (0, 10)),
    "defender_tricks": (lambda f: f.defender_tricks, (0, 10)),
    "made_points": (lambda f: int(f.made_points), (0, 1)),
    "defenders_schneider": (lambda f: int(f.defenders_schneider), (0, 1)),
    "declarer_schneider": (lambda f: int(f.declarer_schneider), (0, 1)),
    "defenders_schwarz": (lambda f: int(f.defenders_schwarz), (0, 1)),
    "declarer_schwarz": (lambda f: int(f.declarer_schwarz), (0, 1)),
    "last_trick_winner": (_winner, (-1, 2)),
    "last_trick_declarer": (lambda f: int(_winner(f) == f.declarer), (0, 1)),
    "last_trick_cards": (lambda f: sum(f.last_trick), (0, 93)),
    "tricks": (lambda f: len(f.tricks), (0, 10)),
    "first_tricks_declarer": (lambda f: sum(t.winner == f.declarer for t in f.tricks[:3]), (0, 3)),
    "hand": (lambda f: int(f.declaration.hand), (0, 1)),
    "schneider_announced": (lambda f: int(f.declaration.schneider), (0, 1)),
    "grand": (lambda f: int(f.contract.name == "grand"), (0, 1)),
}
COMPARE = {"<": operator.lt, "<=": operator.le, "==": operator.eq, "!=": operator.ne, ">=": operator.ge, ">": operator.gt}


# the features only the play tells (a summary record has none of them): drawn as often as all the others
PLAY = ("last_trick_winner", "last_trick_declarer", "last_trick_cards", "tricks", "first_tricks_declarer")


@st.composite
def atoms(draw):
    """``(text, facts -> bool)``: a feature compared with a threshold."""
    name = draw(st.sampled_from(PLAY) | st.sampled_from(sorted(set(FEATURES) - set(PLAY))))
    read, (low, high) = FEATURES[name]
    op = draw(st.sampled_from(sorted(COMPARE)))
    t = draw(st.integers(low, high))
    return f"{name} {op} {t}", (lambda f, read=read, cmp=COMPARE[op], t=t: cmp(read(f), t))


@st.composite
def conditions(draw):
    """One comparison, or two joined by ``and`` / ``or``."""
    text, check = draw(atoms())
    join = draw(st.sampled_from(("", "and", "or")))
    if not join:
        return text, check
    text2, check2 = draw(atoms())
    if join == "and":
        return f"({text} and {text2})", (lambda f, a=check, b=check2: a(f) and b(f))
    return f"({text} or {text2})", (lambda f, a=check, b=check2: a(f) or b(f))


@st.composite
def house_rules(draw):
    """``(description, plugin class)``: up to two multiplier items and up to two win conditions."""
    items, wins, said = [], [], []
    for i in range(draw(st.integers(0, 2))):
        text, check = draw(conditions())
        factor = draw(st.booleans())
        n = 2 if factor else draw(st.integers(1, 3))
        items.append(MultiplierItem(f"house{i}", lambda f, c=check, n=n: n if c(f) else 0, f"house{i}", factor))
        said.append(f"{'x' if factor else '+'}{n} if {text}")
    for i in range(draw(st.integers(0 if items else 1, 2))):
        text, check = draw(conditions())
        wins.append(WinCondition(f"house_win{i}", lambda f, c=check: bool(c(f)), f"not {text}"))
        said.append(f"win only if {text}")

    return "; ".join(said), house(items, wins)


def house(items, wins) -> type:
    """A plugin class giving these multiplier items and win conditions."""

    class House:
        params_schema = {"type": "object", "additionalProperties": False, "properties": {}}

        @hookimpl
        def skat_multiplier_items(self):
            return list(items)

        @hookimpl
        def skat_win_conditions(self):
            return list(wins)

    return House


# issue 20's house rule (docs/hooks.md): the declarer must take the last trick
LAST_TRICK = ("win only if the declarer takes the last trick",
              house([], [WinCondition("last_trick", lambda f: f.last_trick_winner == f.declarer, "lost the last trick")]))


@settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.generate])  # no shrinking: each example plays 200 deals twice
@given(rule=house_rules(), seed=st.integers(1, 10_000))
@example(rule=LAST_TRICK, seed=1)
def test_house_rules_give_the_same_rows_on_every_path(rule, seed):
    said, plugin = rule
    note(f"house rule: {said}")
    rules = compile_with("official", {"house": plugin})
    # a rule the compiled engine refuses plays through Deal only (still checked): --hypothesis-show-statistics
    event("compiled path" if compiled([rules], ("heuristic",) * 3) else "refused by the compiled engine: Deal only")
    assert_same_rows(rules, deals=200, seed=seed, chunks=1)


def _doc_example(hook: str) -> str:
    """The code of a hookspec docstring's example (docs/hooks.md shows the same)."""
    import inspect
    import textwrap

    from skatcore import hookspecs

    doc = inspect.getdoc(getattr(hookspecs, hook))
    block = doc.split("::\n", 1)[1]
    return textwrap.dedent("\n".join(line for line in block.splitlines() if line.startswith("    ") or not line))


@pytest.mark.parametrize(("hook", "base"), [("skat_multiplier_items", "official"), ("skat_win_conditions", "official"),
                                            ("skat_sheet_entries", "official"), ("skat_ramsch_scores", "ramsch")])
def test_the_hooks_examples_give_the_same_rows_on_every_path(hook, base):
    """docs/hooks.md's examples of the hooks that score, as plugins: one truth."""
    import skatcore.model as model
    from skatcore.hookspecs import hookimpl as impl

    namespace = {"hookimpl": impl, **{n: getattr(model, n) for n in dir(model) if not n.startswith("_")}}
    body = "class Example:\n    params_schema = {'type': 'object'}\n" + "\n".join(
        f"    {line}" for line in _doc_example(hook).splitlines())
    exec(compile(body, f"<docs/hooks.md {hook}>", "exec"), namespace)
    rules = compile_with(base, {"example": namespace["Example"]})
    assert compiled([rules], ("heuristic",) * 3)  # the compiled path is taken and checked, not refused
    assert_same_rows(rules, deals=200, seed=3, chunks=2)
