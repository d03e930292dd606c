"""tools/fit_expert_null.py: the fit recovers known coefficients, and a
forced null is the expert's own discard, share and outcome."""

import random

import numpy as np

from skatcore.bots.expert.bidding import null_features
from skatcore.cards import mask_of, parse_card
from skatcore.rules import get_rules
from tests.tool_module import load_tool

tool = load_tool("fit_expert_null")


def test_fit_recovers_known_weights():
    rng = np.random.default_rng(1)
    X = np.column_stack([rng.random(20000), rng.integers(0, 3, 20000)])
    y = rng.random(20000) < 1 / (1 + np.exp(-(0.5 + 2.0 * X[:, 0] - 1.5 * X[:, 1])))
    w = tool.fit(X, y.astype(float))
    assert np.allclose(w, [0.5, 2.0, -1.5], atol=0.15)


def test_null_features_count_the_unsafe_suits():
    def feats(text):
        return null_features(mask_of(parse_card(c) for c in text.split()))
    assert feats("C7 C8 C9 S7 S8 S9 H7 H8 H9 D7") == (0, 0, 0)   # every suit safe
    assert feats("C7 C8 C9 S7 S8 S9 H7 H8 H9 D8") == (1, 1, 0)   # a singleton eight
    assert feats("C7 C8 C9 S7 S8 S9 H7 H8 D8 DJ") == (1, 0, 1)   # the jack above the eight: two ranks too high


def test_a_forced_null_is_played_out():
    rules = get_rules("official")
    share, *features, won = tool.forced_null(rules, 1, 0, 0, False)
    assert 0.0 <= share <= 1.0 and len(features) == 3 and isinstance(won, bool)
    rows = tool._deal_rows(("official", 1, random.Random(3).randrange(50)))
    assert all(r[0] in (False, True) and r[3] + r[4] <= 2 and r[4] <= 1 for r in rows)
