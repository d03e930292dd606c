"""Tables of three heuristic players run through the compiled heuristic
(skatcore.sim.fastpath) and must give the very statistics and per-deal rows
of the Python players through Deal: under table calls, steps when all pass
and session rules too (those deals the compiled engine leaves go through Deal)."""

import numpy as np
import pytest

from skatcore.rules import get_rules
from skatcore.sim import compare as compare_mod
from skatcore.sim.compare import compare_chunk
from skatcore.sim.dealing import seeded_deals
from skatcore.sim.fastpath import compiled_outcomes
from skatcore.sim.play import seeded_deal
from skatcore.sim.sheet import outcome_record, session_record
from skatcore.sim.simulate import run_chunk

# tournament: session rules (a series); pub: Kontra/Re, pushes when all pass, Bock and Ramsch rounds;
# danish-petersen: pushes when all pass
REFS = ("official", "texas", "ramsch", "tournament", "pub", "danish-petersen")


def test_rulesets_the_engine_plays_go_compiled():
    rules = [get_rules(r) for r in (*REFS, "tournee", "schieberamsch")]  # a step at the skat; every deal pushed
    assert set(compiled_outcomes(rules, ("heuristic",) * 3, 1, 0, 200)) == set(range(len(REFS)))
    assert compiled_outcomes(rules, ("heuristic", "random", "heuristic"), 1, 0, 200) == {}
    assert compiled_outcomes(rules, ("heuristic",) * 3, 1, 0, 199) == {}  # a small chunk: not worth a first compile


def test_simulate_chunk_gives_the_python_statistics():
    task = (REFS, ("heuristic",) * 3, 5, 100, 400)
    fast, slow = run_chunk(task), run_chunk(task, path="exact")
    assert fast == slow
    assert fast[0].deals == 300 and len(fast[0].games) >= 5 and fast[1].games["ramsch"] > 0


@pytest.mark.parametrize("seed, start, stop", [(8, 0, 250), (3, 36 * 40, 36 * 40 + 400)])
def test_compare_chunk_gives_the_python_rows(monkeypatch, seed, start, stop):
    """Deal by deal, the rows (every column: calls, the sheet factor of Bock
    deals, Ramsch-round deals) and the statistics of the Python players."""
    task = (REFS, ("heuristic",) * 3, seed, start, stop, True)
    fast = compare_chunk(task)
    monkeypatch.setattr(compare_mod, "compiled_outcomes", lambda *a: {})
    slow = compare_chunk(task)
    for k, ruleset in enumerate(REFS):
        assert fast[2][k] == slow[2][k], ruleset
    assert fast[0] == slow[0]  # the paired tally is built from these rows
    pub = fast[2][REFS.index("pub")]
    assert "kontra" in {r["calls"] for r in pub}
    assert any(r["sheet_factor"] > 1 for r in pub) and any(r["ramsch_round"] for r in pub)
    assert any(r["game"] == "ramsch" for r in fast[2][REFS.index("danish-petersen")])


def test_deals_left_to_deal_and_the_record_the_session_reads():
    """pub: the deals where all pass are left to Deal (the push); a bid deal's
    record as the session rules read it is the one of the deal replayed."""
    rules = get_rules("pub")
    out = compiled_outcomes([rules], ("heuristic",) * 3, 4, 0, 300)[0]
    assert (out.unfinished == (out.bid == 0)).all() and 10 < out.unfinished.sum() < 100
    assert (out.contract[out.unfinished] == -1).all()
    from skatcore.bots.heuristic.compiled import play_heuristic

    kept = play_heuristic(rules, seeded_deals(4, 0, 300), 4, 0, keep=True, hand_back=True)
    for j in np.nonzero(~kept.unfinished)[0]:
        assert outcome_record(kept, j) == session_record(kept.replay(j)), j


def test_seeded_deals_are_the_cards_of_seeded_deal():
    """The compiled Mersenne Twister deals what random.Random("skatcore/S/i") deals."""
    for seed, start in ((1, 0), (2**62 + 12345, 10**6), (-7, 3)):
        deck, hands, skat = seeded_deals(seed, start, 150)
        for j in range(150):
            want_hands, want_skat, _ = seeded_deal(seed, start + j)
            assert [hands[j, s] for s in range(3)] == [sum(1 << c for c in h) for h in want_hands]
            assert skat[j] == (1 << want_skat[0]) | (1 << want_skat[1])
            assert deck[j, 9:11].tolist() == want_skat and deck[j, :3].tolist() == want_hands[0][:3]


def test_compare_chunks_are_large_enough_for_the_compiled_heuristic():
    """The chunk size is measured on a chunk the compiled heuristic plays
    (a probe of a few Python deals, the first in the process, had made every
    chunk of a large run too small for it); without it, a few deals do."""
    from skatcore.sim.compare import _chunk_size
    from skatcore.sim.fastpath import MIN_DEALS

    assert MIN_DEALS <= _chunk_size(("official", "pub"), ("heuristic",) * 3, 1, 0, 4000, 1) <= 1000
    assert _chunk_size(("official", "pub"), ("heuristic",) * 3, 1, 0, 300, 1) <= 75  # four chunks: Python
