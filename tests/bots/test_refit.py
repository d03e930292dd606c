"""tools/refit_heuristic.py: the fit recovers known coefficients, and its
samples are the heuristic's own hand features with solver outcomes."""

import importlib.util
import math
import random
from pathlib import Path

_SPEC = importlib.util.spec_from_file_location("refit_heuristic", Path(__file__).parents[2] / "tools" / "refit_heuristic.py")
refit = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(refit)


def test_fit_recovers_a_known_sigmoid():
    rng = random.Random(1)
    pairs = []
    for _ in range(20000):
        x = rng.uniform(-4, 4)
        pairs.append((x, rng.random() < 1 / (1 + math.exp(-(1.5 * x - 0.5)))))
    a, b = refit.fit(pairs)
    assert abs(a - 1.5) < 0.1 and abs(b + 0.5) < 0.1
    assert "predicted" in refit.calibration(pairs, a, b)


def test_samples_cover_both_routes():
    data = refit.samples("official", 2, 1, ("grand",))
    assert set(data) == {("grand", "pre"), ("grand", "post"), ("grand", "hand")}
    assert len(data[("grand", "pre")]) == len(data[("grand", "post")]) == 6  # 2 deals x 3 seats
    assert all(isinstance(won, bool) for _, won in data[("grand", "hand")])

