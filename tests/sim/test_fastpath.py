"""Tables of three heuristic players run through the compiled heuristic
(skatcore.sim.fastpath) and must give the very statistics and per-deal rows
of the Python players through Deal."""

from skatcore.sim import compare as compare_mod
from skatcore.sim.compare import compare_chunk
from skatcore.sim.dealing import seeded_deals
from skatcore.sim.fastpath import compiled_outcomes
from skatcore.sim.play import seeded_deal
from skatcore.sim.simulate import run_chunk
from skatcore.rules import get_rules

REFS = ("official", "texas", "ramsch", "tournament", "pub")  # tournament (session rules) and pub (steps): Python


def test_only_supported_rulesets_without_session_rules_go_compiled():
    rules = [get_rules(r) for r in REFS]
    assert set(compiled_outcomes(rules, ("heuristic",) * 3, 1, 0, 200)) == {0, 1, 2}
    assert compiled_outcomes(rules, ("heuristic", "random", "heuristic"), 1, 0, 200) == {}
    assert compiled_outcomes(rules, ("heuristic",) * 3, 1, 0, 199) == {}  # a small chunk: not worth a first compile


def test_simulate_chunk_gives_the_python_statistics():
    task = (REFS, ("heuristic",) * 3, 5, 100, 400)
    fast, slow = run_chunk(task), run_chunk(task, compiled=False)
    assert fast == slow
    assert fast[0].deals == 300 and len(fast[0].games) >= 5 and fast[1].games["ramsch"] > 0


def test_compare_chunk_gives_the_python_rows(monkeypatch):
    task = (REFS[:3], ("heuristic",) * 3, 8, 0, 250, True)
    fast = compare_chunk(task)
    monkeypatch.setattr(compare_mod, "compiled_outcomes", lambda *a: {})
    slow = compare_chunk(task)
    assert fast[2] == slow[2]
    assert fast[0] == slow[0]  # the paired tally is built from these rows


def test_seeded_deals_are_the_cards_of_seeded_deal():
    """The compiled Mersenne Twister deals what random.Random("skatcore/S/i") deals."""
    for seed, start in ((1, 0), (2**62 + 12345, 10**6), (-7, 3)):
        deck, hands, skat = seeded_deals(seed, start, 150)
        for j in range(150):
            want_hands, want_skat, _ = seeded_deal(seed, start + j)
            assert [hands[j, s] for s in range(3)] == [sum(1 << c for c in h) for h in want_hands]
            assert skat[j] == (1 << want_skat[0]) | (1 << want_skat[1])
            assert deck[j, 9:11].tolist() == want_skat and deck[j, :3].tolist() == want_hands[0][:3]
