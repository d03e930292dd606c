"""``skat compare`` reads compiled outcomes in arrays and draws the bootstrap
in numba (issue 39, P2): the same statistics, intervals and rows, to the
last digit and byte, as the deal-by-deal chunk with NumPy's weights it
replaced, kept here as the reference (:func:`reference_chunk`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from skatcore.bots import resolve_player
from skatcore.engine.table import people
from skatcore.errors import json_text
from skatcore.rules.trust import trusting
from skatcore.sim import compare as compare_module
from skatcore.sim.compare import compare
from skatcore.sim.export import RowDigest
from skatcore.sim.fastpath import compiled_outcomes, declined, whole
from skatcore.sim.outcome_rows import OutcomeRows
from skatcore.sim.outcomes import Tally, deal_row, metrics_for, row_keys, row_matrix, settling
from skatcore.sim.sheet import Sheet
from skatcore.sim.simulate import Stats, rules_of, seeded_deal
from skatcore.sim.stats import poisson_weights

VECTORS = Path(__file__).parents[1] / "vectors" / "rulesets"


def reference_chunk(task, path: str = "auto"):
    """The chunk as it was before arrays: every deal of every ruleset a
    ``deal_row``, the Tally from the rows, the replicates ``values @ weights``
    of NumPy's generator per deal (:func:`poisson_weights`)."""
    refs, slots, seed, start, stop, want_rows = task
    rules = [rules_of(r) for r in refs]
    factories = [resolve_player(p) for p in slots]
    stats = [Stats(r.name, tuple(slots)) for r in rules]
    rows: list[list[dict]] = [[] for _ in rules]
    fast = compiled_outcomes(rules, slots, seed, start, stop, path)
    sheets = [Sheet.for_chunk(r, factories, seed, start) for r in rules]
    said = [settling([r]) for r in rules]
    persons = [people(r) for r in rules]
    shared = len(fast) < len(rules)
    summed = [k in fast and whole(rules[k], fast[k]) for k in range(len(rules))]
    for k in range(len(rules)):
        if summed[k]:
            stats[k].add_outcomes(fast[k], start, persons[k])
    why = {k: declined(rules[k], slots, stop - start, path) for k in range(len(rules)) if k not in fast}
    for i in range(start, stop):
        dealt = seeded_deal(seed, i) if shared else None
        seats = [slots[(s - i) % 3] for s in range(3)]
        for k in range(len(rules)):
            played = sheets[k].play(i, dealt, fast.get(k))
            if not summed[k]:
                stats[k].add_result(played.result, i, played.all_pass and not played.forced, persons[k])
                stats[k].played_as(played.path, played.why or why.get(k, ""))
            for p in played.players:
                stats[k].bots.update(getattr(p, "counters", None) or {})
            made = played.declarations if said[k] else {}
            rows[k].append(deal_row(played.result, seed=seed, deal=i, players=seats,
                                    said={key: made.get(key) for key in said[k]}, all_pass=played.all_pass,
                                    sheet_factor=played.factor, ramsch_round=played.forced, people=len(persons[k])))
    tally = Tally(metrics_for(rules), len(rules), seed)
    mats = [row_matrix(tally.metrics, side) for side in rows]
    w = poisson_weights(seed, start, stop, tally.replicates)
    for j, m in enumerate(tally.metrics):
        num = np.stack([mats[s][0][j] for s in range(len(rules))])
        if m.closed:
            tally.means[m.key].add(num)
        else:
            den = np.stack([mats[s][1][j] for s in range(len(rules))])
            tally.ratios[m.key].add_sums(num, den, num @ w, den @ w)
    tally.n += stop - start
    return stats, tally, rows if want_rows else None


def run(refs, deals, seed, monkeypatch, reference: bool, read: set | None = None, **kw):
    """``compare`` with the reference chunk or as it is (``read``: the rulesets read in arrays)."""
    rows: list[dict] = []

    class Spy(OutcomeRows):
        def columns(self):
            if read is not None:
                read.add(self.out.rules.name)
            return super().columns()

    with monkeypatch.context() as m:
        if reference:
            m.setattr(compare_module, "compare_chunk", reference_chunk)
        m.setattr(compare_module, "OutcomeRows", Spy)
        with trusting():
            result = compare(refs, deals, seed, on_rows=rows.extend, **kw)
    return result, rows


CASES = [  # (rulesets, deals, seed, the rulesets read in arrays, compare's options)
    (["official", "texas"], 1300, 5, {"official", "texas"}, {}),  # Texas' Ramsch: no declarer
    (["official", "pub"], 1000, 2, {"official"}, {}),  # Bock and Ramsch rounds, Kontra: pub deal by deal
    (["ramsch", str(VECTORS / "schenken.yaml")], 1000, 9, {"ramsch", "schenken"}, {}),  # Schenken settles deals
    (["texas", "schieberamsch"], 1800, 3, None, {"jobs": 2}),  # pushes through Deal; in two processes
]


@pytest.mark.parametrize("refs, deals, seed, arrays, kw", CASES, ids=["texas", "pub", "schenken", "schieberamsch"])
def test_compare_gives_the_reference_chunks_statistics_and_rows(refs, deals, seed, arrays, kw, monkeypatch):
    """Every statistic, interval, finding and per-deal row as the reference
    chunk gives them (the JSON compared as text, the rows as the export's bytes)."""
    old, old_rows = run(refs, deals, seed, monkeypatch, reference=True, **kw)
    read: set[str] = set()
    new, new_rows = run(refs, deals, seed, monkeypatch, reference=False, read=read, **kw)
    assert arrays is None or read == arrays
    assert json_text(new.to_json()) == json_text(old.to_json())
    assert [json_text(r) for r in new_rows] == [json_text(r) for r in old_rows]
    keys = row_keys([rules_of(r) for r in refs])
    digests = [RowDigest(keys), RowDigest(keys)]
    digests[0].write(old_rows)
    digests[1].write(new_rows)
    assert digests[0].hexdigest() == digests[1].hexdigest() and digests[0].rows == len(refs) * deals
    for key in new.tally.ratios:  # the replicate sums themselves, not only the percentiles read from them
        assert (new.tally.ratios[key].boot_num == old.tally.ratios[key].boot_num).all()
        assert (new.tally.ratios[key].boot_den == old.tally.ratios[key].boot_den).all()
    assert "compiled" in {p["path"] for s in new.stats for p in s.paths_json()}
