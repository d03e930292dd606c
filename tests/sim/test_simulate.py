"""Bots, simulation and side-by-side comparison (issue 5): players only ever
make legal moves under every shipped ruleset, results are identical for any
``--jobs``, ``compare`` agrees with ``simulate``, the HTML report is
self-contained, ``skat play`` plays a full deal from scripted input, and bad
arguments are one-line errors.

The 10,000-deals-per-ruleset legality run is ``@pytest.mark.slow``: run it
with ``python -m pytest -m slow``; the plain run plays fewer deals of every
ruleset."""

from __future__ import annotations

import io
import json
import re
from itertools import pairwise

import pytest

from skatcore.bots import HeuristicPlayer, RandomPlayer, call_view, make_player, player_factories
from skatcore.cli.main import main
from skatcore.engine.deal import Deal, Phase
from skatcore.rules.compiler import get_rules
from skatcore.rules.ruleset import shipped_rulesets
from skatcore.sim.sheet import SESSION_DEALS
from skatcore.sim.simulate import Stats, play, run, seeded_deal, spans

# three people each playing their own ten cards; the forms of Skat for two are played seat by seat, each
# move by the person controlling it, in tests/plugins/test_twohand_forms.py
RULESETS = sorted(r for r in shipped_rulesets() if get_rules(r).table.plain)


def cli(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


class Checked:
    """Wraps a player: every answer must be one of ``view.legal``; counts decisions by phase."""

    def __init__(self, player, phases):
        self.player, self.phases = player, phases

    def act(self, view):
        assert view.legal, "asked to act with nothing legal"
        action = self.player.act(view)
        assert action in view.legal, f"{action} not in legal {view.legal[:5]}..."
        key = view.step if view.phase is Phase.STEP else view.phase  # a step by its name
        self.phases[key] = self.phases.get(key, 0) + 1
        return action

    def call(self, view):
        calls = self.player.call(view) if hasattr(self.player, "call") else []
        for c in calls:
            assert c in view.legal
        return calls


def legal_run(ruleset: str, deals: int, seed: int = 11) -> dict:
    rules = get_rules(ruleset)
    phases: dict = {}
    games = set()
    for i in range(deals):
        hands, skat, seeds = seeded_deal(seed, i)
        players = [Checked(HeuristicPlayer(rules, seeds[s]), phases) for s in range(3)]
        deal = play(rules, hands, skat, players)
        assert deal.done
        games.add(deal.result().game)
    return {"phases": phases, "games": games}


# -- players ------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_heuristic_player_only_plays_legal_moves(ruleset):
    """Every shipped ruleset, every phase it has: 400 deals (10,000 in the slow run)."""
    seen = legal_run(ruleset, 400)
    assert Phase.PLAY in seen["phases"]
    rules = get_rules(ruleset)
    if not rules.skip_bidding:
        assert Phase.BIDDING in seen["phases"] and Phase.DECLARE in seen["phases"]
    for step in rules.steps_at["all_passed"]:  # the push round of Schieberamsch
        assert step.name in seen["phases"]


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_heuristic_player_never_illegal_over_10000_deals(ruleset):
    legal_run(ruleset, 10_000, seed=2024)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_random_player_legal_and_reaches_every_phase(ruleset):
    rules = get_rules(ruleset)
    phases: dict = {}
    for i in range(60):
        hands, skat, seeds = seeded_deal(3, i)
        play(rules, hands, skat, [Checked(RandomPlayer(seeds[s]), phases) for s in range(3)])
    for step in rules.steps_at["skat"]:  # Tournée's turn-up
        assert step.name in phases


def test_tournee_heuristic_uses_the_turn_up_route():
    rules = get_rules("tournee")
    routes = set()
    for i in range(300):
        hands, skat, seeds = seeded_deal(5, i)
        deal = play(rules, hands, skat, [HeuristicPlayer(rules, s) for s in seeds])
        if deal.declarer is not None and deal.declaration is not None:
            routes.add(deal.route)
    assert {"first", "hand"} <= routes


def test_heuristic_never_bids_above_its_best_contract_with_its_matadors():
    rules = get_rules("official")
    for i in range(300):
        hands, skat, seeds = seeded_deal(9, i)
        players = [HeuristicPlayer(rules, s) for s in seeds]
        deal = play(rules, hands, skat, players)
        for seat, action in deal.history:
            if action.__class__.__name__ in ("Bid", "Hold"):
                limit = players[seat]._limit(deal.hands[seat] if False else _dealt(deal, seat))
                value = action.value if hasattr(action, "value") else None
                assert (value or 0) <= limit


def _dealt(deal: Deal, seat: int) -> int:
    m = 0
    for c in deal.dealt[seat]:
        m |= 1 << c
    return m


def test_heuristic_table_beats_random_table():
    """A heuristic player among random ones scores far more; heuristic
    declarers win far more often than random ones."""
    mixed = run(["official"], 400, 1, ("heuristic", "random", "random"))[0].summary()
    by = mixed["by_player"]
    assert by["heuristic"]["classic_per_36"] > by["random"]["classic_per_36"] + 200
    h = run(["official"], 300, 1, ("heuristic",) * 3)[0].summary()
    r = run(["official"], 300, 1, ("random",) * 3)[0].summary()
    assert h["win_rate"] > 0.65 > 0.3 > r["win_rate"]
    assert h["overbid_rate"] < 0.05


def test_player_registry_and_module_attr():
    f = player_factories()
    assert f["random"] is RandomPlayer and f["heuristic"] is HeuristicPlayer
    rules = get_rules("official")
    p = make_player("skatcore.bots:RandomPlayer", rules, 1)
    assert isinstance(p, RandomPlayer)
    stats = run(["official"], 20, 1, ("skatcore.bots:RandomPlayer", "heuristic", "heuristic"))[0]
    assert stats.deals == 20


def test_entry_point_players_are_found(monkeypatch):
    """A third-party plugin under the ``skat.players`` group registers a player."""
    import pluggy

    import skatcore.bots.registry as players_mod
    from skatcore.hookspecs import hookimpl

    class ThirdParty:
        @hookimpl
        def skat_register_players(self):
            return {"first-legal": lambda rules, seed: FirstLegal()}

    class FirstLegal:
        def act(self, view):
            return view.legal[0]

    real = pluggy.PluginManager.load_setuptools_entrypoints

    def fake_load(self, group, name=None):
        assert group == "skat.players"
        self.register(ThirdParty(), name="third-party")
        return 1

    players_mod.player_factories.cache_clear()
    monkeypatch.setattr(pluggy.PluginManager, "load_setuptools_entrypoints", fake_load)
    try:
        assert "first-legal" in players_mod.player_factories()
        assert run(["official"], 10, 1, ("first-legal", "heuristic", "random"))[0].deals == 10
    finally:
        monkeypatch.setattr(pluggy.PluginManager, "load_setuptools_entrypoints", real)
        players_mod.player_factories.cache_clear()


def test_call_view_offers_calls_as_legal():
    rules = get_rules("official")
    hands, skat, _ = seeded_deal(1, 0)
    v = call_view(Deal(rules, hands, skat).view(0), ["x"])
    assert v.legal == ("x",)


# -- determinism ----------------------------------------------------------------


def test_same_seed_same_table_for_any_jobs(capsys):
    outs = []
    for jobs in (1, 2, 3):
        rc, out, err = cli(capsys, "simulate", "--ruleset", "official", "--deals", 240, "--seed", 7, "--jobs", jobs, "--json")
        assert rc == 0, err
        outs.append(out)
    assert outs[0] == outs[1] == outs[2]
    # chunking never changes a digit either
    a = run(["texas"], 150, 3, chunk_size=7)[0].to_json()
    b = run(["texas"], 150, 3, chunk_size=150)[0].to_json()
    assert a == b


@pytest.mark.parametrize(("start", "stop", "size"), [(0, 100_000, 1000), (0, 50, 10), (500, 1000, 100), (37, 38, 5000)])
def test_chunks_start_where_a_session_starts(start, stop, size):
    """No chunk but the first begins inside a 36-deal session (Sheet.for_chunk
    would replay the session's earlier deals), and the chunks cover every deal once."""
    got = spans(start, stop, size)
    assert got[0][0] == start and got[-1][1] == stop
    assert all(a < b and b == c for (a, b), (c, _) in pairwise(got))
    assert all(a % SESSION_DEALS == 0 for a, _ in got[1:])
    assert all(b - a <= max(size, SESSION_DEALS) for a, b in got)
    assert len(got) <= (stop - start) // max(SESSION_DEALS, size - size % SESSION_DEALS) + 2


def test_different_seeds_differ():
    a = run(["official"], 100, 1)[0].to_json()
    b = run(["official"], 100, 2)[0].to_json()
    assert a != b


def test_deal_i_does_not_depend_on_the_run():
    assert seeded_deal(5, 17) == seeded_deal(5, 17)
    assert seeded_deal(5, 17)[0] != seeded_deal(5, 18)[0]


# -- simulate / compare ------------------------------------------------------------


def test_simulate_table_and_json(capsys):
    rc, out, err = cli(capsys, "simulate", "--ruleset", "official", "--deals", 120, "--seed", 2)
    assert rc == 0 and err == ""
    for label in ("declarer win rate", "mean game value", "all-pass rate", "overbid rate",
                  "classic points / 36 deals", "Seeger-Fabian / 36 deals", "mix: grand"):
        assert label in out
    rc, out, err = cli(capsys, "simulate", "--ruleset", "official", "--deals", 120, "--seed", 2, "--json")
    s = json.loads(out)
    assert s["deals"] == 120 and abs(sum(s["contract_mix"].values()) - 1) < 1e-3
    assert set(s) >= {"contract_mix", "win_rate", "win_rate_by_contract", "mean_value", "mean_abs_entry",
                      "all_pass_rate", "overbid_rate", "classic_per_36", "seeger_fabian_per_36"}


@pytest.mark.parametrize("pair", [("official", "texas"), ("official", "ramsch", "tournee")])
def test_compare_columns_agree_with_simulate(capsys, pair):
    rc, out, err = cli(capsys, "compare", *pair, "--deals", 90, "--seed", 4, "--json", "--jobs", 2)
    assert rc == 0, err
    cmp = json.loads(out)
    for i, name in enumerate(pair):
        rc, out, err = cli(capsys, "simulate", "--ruleset", name, "--deals", 90, "--seed", 4, "--json")
        alone = json.loads(out)
        alone.pop("seed")
        assert cmp["rulesets"][i] == alone
    first = cmp["rulesets"][0]
    for other in cmp["rulesets"][1:]:
        diff = cmp["differences"][other["ruleset"]]  # the same keys as each ruleset's statistics
        if None in (other["mean_value"], first["mean_value"]):
            assert diff["mean_value"]["estimate"] is None
        else:
            assert diff["mean_value"]["estimate"] == pytest.approx(other["mean_value"] - first["mean_value"], abs=1e-3)
        assert diff["all_pass_rate"]["estimate"] == pytest.approx(other["all_pass_rate"] - first["all_pass_rate"], abs=1e-3)
        for game, share in other["contract_mix"].items():
            assert cmp["intervals"][other["ruleset"]][f"contract_mix.{game}"]["estimate"] == pytest.approx(share, abs=1e-4)


def test_compare_terminal_table_has_difference_column(capsys):
    rc, out, err = cli(capsys, "compare", "official", "texas", "--deals", 60)
    assert rc == 0 and err == ""
    assert "Δ texas" in out and "mix: ramsch" in out


def test_compare_html_report_is_self_contained(capsys, tmp_path):
    path = tmp_path / "report.html"
    rc, _out, err = cli(capsys, "compare", "official", "texas", "--deals", 80, "--seed", 1, "--html", path)
    assert rc == 0, err
    page = path.read_text("utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") >= 3
    assert "Contract mix" in page and "sheet entry" in page and "Δ texas" in page
    # nothing fetched from the network: the only URL is the SVG namespace
    urls = set(re.findall(r"https?://[^\s\"')]+", page))
    assert urls <= {"http://www.w3.org/2000/svg"}
    assert "<script" not in page and "<link" not in page


def test_compare_one_recorded_deal(capsys):
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "overbid-clubs-hand.yaml"
    rc, out, err = cli(capsys, "compare", "official", "pre1999", "--deal", example)
    assert rc == 0, err
    assert out.count("\n  ") >= 4
    assert "official: clubs" in out and "pre1999: clubs" in out
    assert "overbid, lost 2 x 48 = -96" in out      # official: lost hand game double
    assert "overbid, lost" in out.split("pre1999:")[1]  # pre-1999: hand games lost single
    rc, out, err = cli(capsys, "compare", "official", "pre1999", "--deal", example, "--json")
    results = json.loads(out)
    assert [r["ruleset"] for r in results] == ["official", "pre1999"]
    assert results[0]["score"] == -96 and results[1]["score"] != -96


def test_stats_merge_is_order_independent():
    a = run(["official"], 60, 9, chunk_size=13)[0]
    parts = [Stats("official", ("heuristic",) * 3) for _ in range(2)]
    from skatcore.sim.simulate import run_chunk

    first = run_chunk((("official",), ("heuristic",) * 3, 9, 0, 30))[0]
    second = run_chunk((("official",), ("heuristic",) * 3, 9, 30, 60))[0]
    merged = parts[0].merge(second).merge(first)
    assert merged.to_json() == a.to_json()


# -- dask -------------------------------------------------------------------------------


def test_dask_local_cluster_gives_the_same_table(capsys):
    distributed = pytest.importorskip("distributed", reason="the cluster extra (dask[distributed]) is not installed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        rc, out, err = cli(capsys, "simulate", "--ruleset", "official", "--deals", 120, "--seed", 3, "--json",
                           "--dask", cluster.scheduler_address)
    assert rc == 0, err
    rc, local, _ = cli(capsys, "simulate", "--ruleset", "official", "--deals", 120, "--seed", 3, "--json")
    assert out == local


# -- bench ------------------------------------------------------------------------------


def test_bench_json_last_line_has_the_figures(capsys):
    """Checks the output's shape only: speed is measured, never tested."""
    rc, out, err = cli(capsys, "bench", "--seconds", "0.01", "--json", "--compare-openspiel", "--solver-positions", "2")
    assert rc == 0, err
    figures = json.loads(out.strip().splitlines()[-1])
    assert figures["random_deals_per_s"] > 0 and figures["heuristic_deals_per_s"] > 0
    assert figures["random_compiled_deals_per_s"] > figures["random_deal_loop_deals_per_s"] > 0
    assert figures["numba_compile_s"] > 0 and figures["help_cpu_s"] > 0 and figures["compare_vs_simulate_cpu"] > 0
    assert figures["score_json_records_per_s"] > 0 and figures["score_yaml_records_per_s"] > 0
    assert figures["score_iss_games_per_s"] > 0
    assert figures["solver_declared_exact_ms_max"] > 0 and figures["solver_random_61_ms_median"] > 0
    # OpenSpiel is measured when importable (and Deal's loop by turns beside it), else the bench says it is not installed
    assert figures.get("openspiel_cpp_rollouts_per_s", 0) > 0 or "not installed" in figures["openspiel"]
    if "openspiel_cpp_rollouts_per_s" in figures:
        assert figures["random_deal_loop_vs_openspiel_python_api"] > 0 and figures["random_deal_loop_turns_deals_per_s"] > 0
        assert figures["env_vs_openspiel_python_api"] > 0 and figures["env_observed_vs_openspiel_python_api"] > 0
    assert figures["env_deals_per_s"] > 0 and figures["env_observed_deals_per_s"] > 0 and figures["env_vs_deal_loop"] > 0
    assert figures["env_null_protocol_deals_per_s"] > 0


def test_bench_deal_records_score_like_the_deals():
    """The records ``skat score`` is timed on are the deals themselves."""
    from skatcore.engine.compiled import play_random
    from skatcore.records.deal import score_record
    from skatcore.rules import get_rules
    from skatcore.sim.speed import deal_record

    rules = get_rules("official")
    out = play_random(rules, 60, seed=2, keep=True)
    rows = [i for i in range(60) if out.declarer[i] >= 0]
    assert len(rows) > 40
    for i in rows:
        deal = out.replay(i)
        assert score_record(deal_record(deal), rules).scores == deal.result().scores


def test_bench_iss_games_read_back_as_the_deals():
    """The ISS records ``skat score`` is timed on replay to the deals they were
    written from, with the server's R[] as the replay scores it."""
    from skatcore.engine.deal import Declare
    from skatcore.records.iss import parse_sgf, replay, score_record
    from skatcore.rules import get_rules
    from skatcore.sim.speed import declarer_deals, iss_line

    def moves(deal):  # the declaration as checked is compared apart (ISS writes O, not OSZ)
        return [(s, a) for s, a in deal.history if not isinstance(a, Declare)]

    rules = get_rules("official")
    deals = declarer_deals(rules, 60)
    assert {d.declaration.hand for d in deals} == {True, False} and len({d.declaration.game for d in deals}) >= 5
    for k, deal in enumerate(deals):
        record = parse_sgf(iss_line(deal, k))
        again = replay(record, rules)
        assert moves(again) == moves(deal) and again.declaration == deal.declaration
        out, _ = score_record(record, rules)
        assert "server_mismatch" not in out and out["scores"] == deal.result().scores
        assert (record.v, record.won) == (out["score"], out["won"])


# -- play ---------------------------------------------------------------------------------


class Script(io.StringIO):
    """Standard input that answers each prompt of ``skat play`` as it comes:
    the first option, and two cards to put away."""

    def __init__(self, out: io.StringIO):
        super().__init__()
        self.out, self.asked = out, 0

    def readline(self, *a):
        self.asked += 1
        if self.asked > 2000:
            return ""
        last = self.out.getvalue().rstrip().splitlines()[-1]
        if last.startswith("put away:"):
            return "1 2\n"
        if "another deal" in last:
            return "n\n"
        return "1\n"


@pytest.mark.parametrize("ruleset,seed", [("official", 5), ("official", 6), ("official", 8), ("schieberamsch", 1),
                                          ("tournee", 3), ("texas", 2), ("pub", 2)])
def test_play_scripted_session_plays_a_full_deal(ruleset, seed):
    from skatcore.cli.play import TerminalGame

    out = io.StringIO()
    game = TerminalGame(get_rules(ruleset), seed, stdin=Script(out), stdout=out)
    assert game.run(deals=1) == 0
    text = out.getvalue()
    assert "=== deal 1" in text and "result:" in text and "score sheet:" in text
    assert "stopped." not in text
    if "passed" not in text.split("result:")[1].split("\n")[0]:
        assert "trick 10" in text or "takes" in text


class CallingScript(Script):
    """Like :class:`Script`, but takes a table call (Kontra, Re) when offered."""

    def readline(self, *a):
        lines = self.out.getvalue().rstrip().splitlines()
        if lines[-1].startswith("play:"):
            calls = [line for line in lines[-14:] if ") call " in line]
            if calls:
                self.asked += 1
                return calls[-1].split(")")[0].strip() + "\n"
        return super().readline(*a)


def test_play_offers_table_calls():
    """Under pub rules (Kontra/Re) the human is offered calls as numbered moves."""
    from skatcore.cli.play import TerminalGame

    called = 0
    for seed in range(1, 12):
        out = io.StringIO()
        TerminalGame(get_rules("pub"), seed, stdin=CallingScript(out), stdout=out).run(deals=1)
        text = out.getvalue()
        assert "result:" in text
        called += "you call" in text
    assert called


def test_play_through_the_cli_with_stdin(monkeypatch, capsys):
    lines = iter(["1\n"] * 400)
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(lines)))
    rc, out, err = cli(capsys, "play", "--seed", 2, "--deals", 1, "--ruleset", "ramsch")
    assert rc == 0 and err == ""
    assert "your hand:" in out and "result:" in out


def test_play_quits_on_q_and_on_end_of_input(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    rc, out, _err = cli(capsys, "play", "--seed", 1)
    assert rc == 0 and "stopped." in out
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    rc, out, _err = cli(capsys, "play", "--seed", 1)
    assert rc == 0 and "stopped." in out


# -- bad arguments: one line, exit 2 ----------------------------------------------------------


@pytest.mark.parametrize("argv,fragment", [
    (["simulate", "--ruleset", "nope", "--deals", "5"], "unknown ruleset 'nope'"),
    (["simulate", "--deals", "0"], "argument --deals: expected a number of deals from 1 to 100,000,000, not 0"),
    (["simulate", "--deals", "-3"], "argument --deals: expected a number of deals from 1"),
    (["simulate", "--deals", "ten"], "argument --deals: expected a number of deals, not 'ten'"),
    (["simulate", "--deals", "100000001"], "argument --deals: expected a number of deals from 1"),
    (["simulate", "--jobs", "0"], "argument --jobs: expected a number of processes from 1"),
    (["simulate", "--seed", "-1"], "argument --seed: expected a whole-number seed from 0"),
    (["compare", "official", "pub", "--seed", "-1"], "argument --seed: expected a whole-number seed from 0"),
    (["duel", "random", "heuristic", "--seed", "-1"], "argument --seed: expected a whole-number seed from 0"),
    (["compare", "official", "pub", "--until-ci", "nan"], "argument --until-ci: expected an interval width > 0, not nan"),
    (["compare", "official", "pub", "--until-ci", "-1"], "argument --until-ci: expected an interval width > 0"),
    (["compare", "official", "pub", "--max-deals", "0"], "argument --max-deals: expected a number of deals from 1"),
    (["bench", "--seconds", "nan"], "argument --seconds: expected a number of seconds > 0 and <= 3600, not nan"),
    (["bench", "--seconds", "inf"], "argument --seconds: expected a number of seconds > 0"),
    (["play", "--seed", "-5"], "argument --seed: expected a whole-number seed from 0"),
    (["simulate", "--players", "nobody"], "unknown player 'nobody'"),
    (["simulate", "--players", "heuristic,random"], "expected one player or three"),
    (["compare", "official", "nope", "--deals", "5"], "unknown ruleset 'nope'"),
    (["compare", "official", "texas", "--deals", "0"], "argument --deals: expected a number of deals from 1"),
    (["compare", "official", "--deal", "no-such-file.yaml"], "no-such-file.yaml"),
    (["play", "--ruleset", "nope"], "unknown ruleset 'nope'"),
    (["bench", "--seconds", "0"], "argument --seconds: expected a number of seconds > 0"),
    (["simulate", "--dask", "tcp://127.0.0.1:1", "--deals", "5"], "--dask"),
])
def test_bad_arguments_are_one_line_errors(capsys, argv, fragment):
    rc, out, err = cli(capsys, *argv)
    assert rc == 2, (out, err)
    assert err.count("\n") == 1 and err.startswith("skat: error:"), err
    assert fragment in err
