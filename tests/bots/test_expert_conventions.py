"""The expert's card conventions among level cards (issue 38): the features
checked by hand, the choice among the level cards only and the same under
a seed, the recorder of another bot's decisions (tools/bot_agreement.py)
and the fit (tools/fit_conventions.py)."""

from __future__ import annotations

import json
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcore.bots import HeuristicPlayer
from skatcore.bots.expert import ExpertPlayer, conventions
from skatcore.cards import mask_of, parse_card
from skatcore.engine.deal import Deal, Phase, deal_cards
from skatcore.rules import get_rules
from tests.tool_module import load_tool

RULES = get_rules("official")
GAMES = HeuristicPlayer(RULES).info.games


def _mask(text: str) -> int:
    return mask_of(parse_card(t) for t in text.split())


def _f(values: tuple[float, ...]) -> dict[str, float]:
    return dict(zip(conventions.FEATURES, values, strict=True))


def test_features_of_a_grand_hand_by_hand():
    """A grand, nothing played, CJ SJ HA HK H7 CA in the hand: the two jacks are
    both masters (CJ is the hand's own), a run from CJ down to SJ (HJ is out);
    hearts A T K Q 9 8 7: HA master, HK not (HT out), each alone between
    cards out; four hearts still out, CA blank."""
    g = GAMES["grand"]
    hand = _mask("CJ SJ HA HK H7 CA")
    out = RULES.deck.mask & ~hand
    heur = parse_card("HA")
    f = {c: _f(conventions.features(g, hand, out, (), parse_card(c), heur)) for c in ("CJ", "SJ", "HA", "HK", "H7", "CA")}
    assert f["HA"]["heuristic"] == 1 and f["HK"]["heuristic"] == 0
    assert (f["CJ"]["trump"], f["CJ"]["jack"], f["CJ"]["points"]) == (1, 1, 2 / 11)
    assert (f["CJ"]["master"], f["CJ"]["highest"], f["CJ"]["lowest"], f["CJ"]["run_top"], f["CJ"]["run_bottom"]) == (1, 1, 0, 1, 0)
    assert (f["SJ"]["master"], f["SJ"]["highest"], f["SJ"]["lowest"], f["SJ"]["run_top"], f["SJ"]["run_bottom"]) == (1, 0, 1, 0, 1)
    assert (f["HA"]["ace_or_ten"], f["HA"]["master"], f["HA"]["run_top"], f["HA"]["run_bottom"]) == (1, 1, 1, 1)
    assert (f["HK"]["ace_or_ten"], f["HK"]["master"], f["HK"]["run_top"], f["HK"]["run_bottom"]) == (0, 0, 1, 1)
    assert (f["H7"]["lowest"], f["H7"]["highest"], f["H7"]["suit_length"], f["H7"]["out"], f["H7"]["blank"]) == (1, 0, 0.3, 0.4, 0)
    assert (f["CA"]["blank"], f["CA"]["suit_length"], f["CA"]["trump"]) == (1, 0.1, 0)
    assert all(v["takes"] == 0 for v in f.values())  # nothing to take on a lead
    # HQ led: the king takes it, the seven does not
    out &= ~_mask("HQ")
    led = (parse_card("HQ"),)
    assert conventions.features(g, hand, out, led, parse_card("HK"), heur)[conventions.FEATURES.index("takes")] == 1
    assert conventions.features(g, hand, out, led, parse_card("H7"), heur)[conventions.FEATURES.index("takes")] == 0


def test_situations():
    assert conventions.situation(0, 0, (), None) == "declarer_lead"
    assert conventions.situation(1, 0, (5,), 0) == "defender_second_declarer"
    assert conventions.situation(1, 0, (5, 6), 2) == "defender_last_partner"
    assert conventions.situation(0, 0, (5, 6), 1) == "declarer_last"
    assert set(conventions.WEIGHTS) == set(conventions.SITUATIONS)
    assert all(len(w) == len(conventions.FEATURES) for w in conventions.WEIGHTS.values())


class Conventional(ExpertPlayer):
    """The conventions on every level card but a defender's lead (the declarer's not after the expected points)."""

    CONVENTIONS = 1
    DECLARER_CONVENTIONS = 1
    record_ties = True


def _play(seed: int) -> tuple[list, list]:
    """A deal of four expert seats with the conventions: its actions and each convention decision."""
    deal = Deal(RULES, *deal_cards(random.Random(seed)))
    players = [Conventional(RULES, seed=seed * 3 + s, worlds=4, bid_worlds=2) for s in range(3)]
    actions, chosen = [], []
    while not deal.done:
        view = deal.view(deal.to_move)
        p = players[deal.to_move]
        action = p.act(view)
        if deal.phase is Phase.PLAY and len(view.legal) > 1 and p.last is not None and p.last.how == "convention":
            chosen.append((view, action.card, p.last, p.last_ties))
        actions.append(action)
        deal.apply(action)
    return actions, chosen


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 10_000))
def test_conventions_choose_among_the_level_cards_by_their_weights_and_the_same_under_a_seed(seed):
    """Where the conventions decide, the card is one the votes left level, the
    one with the highest weighted sum (equal sums: the fewest points), and never
    a defender's lead (his lead rules stand); the same seed plays the same deal."""
    actions, chosen = _play(seed)
    for view, card, last, (where, described) in chosen:
        assert card in last.tied and set(described) == set(last.tied)
        assert not (not view.trick and view.seat != view.declarer)
        w = conventions.WEIGHTS[where]
        sums = {c: sum(a * b for a, b in zip(w, f, strict=True)) for c, f in described.items()}
        assert sums[card] >= max(sums.values()) - 1e-6
    assert _play(seed)[0] == actions


def test_the_recorder_replays_a_teachers_deals_and_a_bot_agrees_with_itself():
    """The heuristic as teacher (XSkat in use; no outside library here): every
    decision recorded is a card the teacher played, legal where it was played
    (the replay applies it), and the heuristic replaying its own deals plays the
    same card at every one of them; the expert recording its level cards
    names the teacher's card among them."""
    tool = load_tool("bot_agreement")
    recorded = list(tool.teacher_deals(RULES, HeuristicPlayer, 5, 4))
    out = tool.agreement(recorded, HeuristicPlayer, "heuristic", 5, RULES)
    assert out["all"]["decisions"] > 40 and out["all"]["agree"] == out["all"]["decisions"]
    ties: list = []
    expert = lambda rules, seed: ExpertPlayer(rules, seed=seed, worlds=4, bid_worlds=2)  # noqa: E731
    got = tool.agreement(recorded, expert, "expert", 5, RULES, None, ties)
    assert got["all"]["decisions"] == out["all"]["decisions"] and ties
    assert all(str(t["teacher"]) in {str(c) for c in t["cards"]} and t["where"] in conventions.SITUATIONS for t in ties)
    json.dumps(ties)  # the file's lines


def test_the_fit_finds_the_feature_the_teacher_plays_by(tmp_path):
    """A teacher who always plays the one master among random level cards (the
    other features random): the fitted weights pick its card in every case,
    where the heuristic's card (a random one) does not."""
    fit = load_tool("fit_conventions")
    rng = np.random.default_rng(1)
    lines = []
    for i in range(300):
        n = int(rng.integers(2, 5))
        x = rng.random((n, len(conventions.FEATURES))).round(3)
        master, teacher = conventions.FEATURES.index("master"), int(rng.integers(n))
        x[:, 0] = x[:, master] = 0
        x[int(rng.integers(n)), 0] = 1
        x[teacher, master] = 1
        lines.append(json.dumps({"where": conventions.SITUATIONS[i % 2], "teacher": teacher + 7,
                                 "cards": {str(j + 7): list(x[j]) for j in range(n)}}))
    path = tmp_path / "ties.jsonl"
    path.write_text("\n".join(lines) + "\n")
    data = fit.load([path])
    for where in conventions.SITUATIONS[:2]:
        w = fit.fit(data[where])
        assert fit.hits(data[where], fit.argbest(w)) == len(data[where])
        assert fit.hits(data[where], lambda x: int(np.argmax(x[:, 0]))) < len(data[where])


def test_the_conventions_decide_cards_in_play():
    """Not vacuous: in a few deals the conventions choose some cards, each a card the layouts left level."""
    chosen = [c for seed in (1, 2, 3) for c in _play(seed)[1]]
    assert chosen and all(card in last.tied for _, card, last, _ in chosen)


def test_the_tools_name_bad_input_in_one_line(tmp_path, capsys):
    """A variant that is no setting, a ties file that is not one: one line, exit 2."""
    assert load_tool("bot_agreement").main(["expert", "--variants", "NOPE", "--teacher", "heuristic", "--deals", "1"]) == 2
    assert "NOPE" in capsys.readouterr().err
    bad = tmp_path / "ties.jsonl"
    bad.write_text('{"where": "declarer_lead", "cards": {"1": [0.5]}, "teacher": 1}\n')
    assert load_tool("fit_conventions").main([str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and str(bad) in err and "line 1" in err


def test_the_agreement_command_prints_a_row_per_player(capsys):
    """The heuristic as teacher and player: every decision agrees (100.0%), the expert's row beside it."""
    assert load_tool("bot_agreement").main(["heuristic", "expert:worlds=3:bid_worlds=2", "--teacher", "heuristic",
                                        "--deals", "2", "--seed", "7"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("heuristic") and "100.0%" in out[1] and out[2].startswith("expert")


def test_the_declarers_level_cards_go_by_the_points_first():
    """With the conventions a declarer's level cards (a suit game or grand) go to the expected
    card points, and the cards those leave level to the conventions: no other step decides."""
    deal = Deal(RULES, *deal_cards(random.Random(11)))
    players = [ExpertPlayer(RULES, seed=s, worlds=4, bid_worlds=2) for s in range(3)]
    for p in players:
        p.CONVENTIONS = 1
    hows = set()
    while not deal.done:
        view = deal.view(deal.to_move)
        p = players[deal.to_move]
        action = p.act(view)
        if deal.phase is Phase.PLAY and len(view.legal) > 1 and view.seat == view.declarer and p.last.scores \
                and len(p.last.tied) > 1 and deal.declaration.game != "null":
            hows.add(p.last.how)
            assert p.last.how in ("points", "convention")
        deal.apply(action)
    assert hows


def test_the_agreement_command_breaks_the_agreement_down(capsys):
    """``--breakdown --json``: by role, place, how the bot chose and account, counting every decision once."""
    import json

    assert load_tool("bot_agreement").main(["heuristic", "--teacher", "heuristic", "--deals", "2", "--seed", "7",
                                        "--breakdown", "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)
    parts = result["breakdown"]
    assert set(parts) >= {"role", "place", "account"}
    n = result["all"]["decisions"]
    assert parts["account"]["teacher"] == f"{n}/{n}"  # the heuristic agrees with itself on every decision
