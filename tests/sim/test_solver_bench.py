"""``skat bench``'s solver section: the positions it times are what they
claim to be (checked against the deals), and its options.  Speed itself is
measured, never tested."""

from __future__ import annotations

import json

from skatcore.cli.main import main
from skatcore.rules import get_rules
from skatcore.sim.solver_speed import declared_openings, quantiles, random_openings


def test_declared_openings_are_the_games_the_table_declared():
    """Each opening is a suit or grand game the compiled heuristic table
    declared in run 11: the declarer's ten cards after his discard, the
    others' as dealt, the two cards that count for him outside all hands,
    and what he needs for 61 from the play."""
    from skatcore.bots.heuristic.compiled import play_heuristic
    from skatcore.sim.dealing import seeded_deals

    rules = get_rules("official")
    openings = declared_openings(rules, 30)
    assert len(openings) == 30
    dealt = seeded_deals(11, 0, 120)
    played = play_heuristic(rules, dealt, seed=11, keep=True)
    games = [i for i in range(120) if played.declarer[i] >= 0 and played.game(i) != "null"][:30]
    for o, i in zip(openings, games, strict=True):
        assert o.table is rules.tricks[played.game(i)] and o.declarer == played.declarer[i]
        hands = o.hands
        assert [h.bit_count() for h in hands] == [10, 10, 10]
        assert hands[0] & hands[1] == 0 and hands[1] & hands[2] == 0 and hands[0] & hands[2] == 0
        counted = int(played.skat_mask[i])
        assert (hands[0] | hands[1] | hands[2] | counted) == (1 << 32) - 1
        assert o.need == 61 - sum(o.table.points[c] for c in range(32) if counted >> c & 1)
        # the hands the Deal replay starts its first trick with
        deal = played.replay(i)
        first = [0, 0, 0]
        for seat, a in deal.history[-30:]:
            first[seat] |= 1 << a.card
        assert tuple(first) == hands


def test_random_openings_count_the_skat_for_forehand():
    rules = get_rules("official")
    for o in random_openings(rules, 20):
        assert o.declarer == 0 and [h.bit_count() for h in o.hands] == [10, 10, 10]
        skat = ((1 << 32) - 1) & ~(o.hands[0] | o.hands[1] | o.hands[2])
        assert o.need == 61 - sum(o.table.points[c] for c in range(32) if skat >> c & 1)


def test_quantiles_by_rank():
    q = quantiles(list(range(1, 101)), 1)
    assert q == {"median": 51, "p90": 91, "p99": 100, "max": 100}
    assert quantiles([0.003, 0.001, 0.002]) == {"median": 2.0, "p90": 3.0, "p99": 3.0, "max": 3.0}


def test_bench_solver_only_and_warm(capsys):
    assert main(["bench", "--solver-only", "--solver-positions", "3", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    for kind in ("declared", "random"):
        for q in ("exact", "61"):
            row = [figures[f"solver_{kind}_{q}_ms_{s}"] for s in ("median", "p90", "p99", "max")]
            assert 0 < row[0] <= row[1] <= row[2] <= row[3]
        assert figures[f"solver_{kind}_nodes_per_s"] > 0
    assert figures["solver_positions"] == 3 and "random_deals_per_s" not in figures
    assert main(["bench", "--solver-only", "--solver-positions", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1]) == {}
    assert main(["bench", "--warm", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(figures) == {"dealing", "compiled engine", "compiled heuristic", "double-dummy solver", "ISS replay", "bootstrap"}


def test_bench_refuses_a_bad_position_count(capsys):
    for bad in ("-1", "x", "1e9", "100001"):
        assert main(["bench", "--solver-positions", bad]) == 2
        err = capsys.readouterr().err
        assert "--solver-positions: expected a whole number of positions" in err
        assert len(err.strip().splitlines()) == 1
