"""The example plugin packages outside the package (``examples/raeuberskat``,
``examples/sechserskat``), installed for this test session through pip (the
``examples_installed`` fixture, tests/plugins/conftest.py) and found through
their entry points (groups ``skat`` and ``skat.rulesets``), exactly as a
user's installed house rule is.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from round_trip import check_round_trips

from skatcore.cli.main import main
from skatcore.engine.deal import Deal, deal_cards
from skatcore.records.vectors import evaluate, load_vectors
from skatcore.rules.compiler import compile_rules
from skatcore.rules.ruleset import installed_rulesets, load_ruleset

ROOT = Path(__file__).resolve().parents[2]
# the examples, one ruleset each, named like the package
EXAMPLES = {name: ROOT / "examples" / name for name in ("raeuberskat", "sechserskat")}


def _cases():
    for name, path in EXAMPLES.items():
        for case in load_vectors(path / "tests" / "vectors" / f"{name}.yaml"):
            yield pytest.param(name, case, id=f"{name}: {case.name}")


@pytest.fixture(scope="session")
def example_rules(examples_installed):
    """The examples' rulesets by name, compiled (not cached across sessions)."""
    return {name: compile_rules(load_ruleset(name)) for name in EXAMPLES}


def test_found_through_entry_points(example_rules):
    assert set(installed_rulesets()) >= set(EXAMPLES)
    for name, rules in example_rules.items():
        spec = next(p for p in rules.plugins if p.key == name)
        assert spec.origin == f"entry point skat_{name}:{name.capitalize()}", spec.origin
        assert Path(rules.source).parent.name == f"skat_{name}"  # the ruleset file shipped in the package


@pytest.mark.parametrize(("ruleset", "case"), list(_cases()))
def test_example_vector(example_rules, ruleset, case):
    outcome = evaluate(example_rules[ruleset], case)
    if not outcome.ok:
        pytest.fail(outcome.report(), pytrace=False)


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_random_deals_play_through(example_rules, name):
    """Full deals with random legal actions (what `skat simulate` plays)."""
    rules = example_rules[name]
    rng = random.Random(11)
    games = set()
    for _ in range(300):
        deal = Deal(rules, *deal_cards(rng, rules.deck))
        while not deal.done:
            actions = deal.legal_actions()
            deal.apply(actions[rng.randrange(len(actions))])
        result = deal.result()
        games.add(result.game)
        assert sum(result.scores.values()) == result.score or result.declarer is None
        tricks = [t for t in deal.tricks if t.winner is not None]
        assert len(tricks) <= rules.deck.hand
    if name == "raeuberskat":
        assert {"ramsch", "null", "grand"} <= games


def test_raeuberskat_series(example_rules):
    rules = example_rules["raeuberskat"]
    assert (rules.series[3].deals, rules.series[4].deals) == (12, 16)
    assert rules.series[3].once_each == ("suit", "grand", "null", "ramsch")
    soloist = rules.step("soloist")
    assert soloist.sees == 5 and soloist.seat == 0 and soloist.at == "start"


def test_cli_shows_the_installed_rulesets(example_rules, capsys):
    assert main(["rulesets"]) == 0
    out = capsys.readouterr().out
    assert "raeuberskat" in out and "sechserskat" in out
    assert main(["rules", "sechserskat"]) == 0
    out = capsys.readouterr().out
    assert "entry point skat_sechserskat:Sechserskat" in out


def test_the_examples_own_test_suites_pass(examples_installed):
    """`pytest examples/x` (after installing it), with skatcore's testing kit as the pytest plugin."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(examples_installed), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *sorted(str(p) for p in (ROOT / "examples").glob("*/tests"))],
                          capture_output=True, text=True, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]


@pytest.mark.parametrize("players", ["random", "heuristic"])
@pytest.mark.parametrize("name", list(EXAMPLES))
def test_skat_simulate_runs_full_deals(examples_installed, name, players, capsys):
    """`skat simulate` (the deck's own deal, the soloist's choice; the
    heuristic bot plays another deck at random)."""
    assert main(["simulate", "--ruleset", name, "--deals", "60", "--seed", "3", "--players", players, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ruleset"] == name and out["deals"] == 60 and out["declarer_games"] > 0
    if name == "raeuberskat":  # no bidding: nobody overbids
        assert out["overbid_rate"] == 0
    if name == "raeuberskat" and players == "random":  # Ramsch is one of the soloist's choices
        assert "ramsch" in out["contract_mix"]


def test_a_series_under_session_rules_validates_and_simulates(examples_installed, tmp_path, capsys):
    """Räuberskat's series under pub's session rules (issue 25): `validate`
    accepted it and `simulate` crashed (a simulated deal's record named no
    players); both accept it now."""
    path = tmp_path / "pub-raeuber.yaml"
    path.write_text("extends: pub\nplugins:\n  raeuberskat: {}\n", encoding="utf-8")
    assert main(["validate", str(path)]) == 0
    assert main(["simulate", "--ruleset", str(path), "--deals", "80", "--seed", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["deals"] == 80


def test_written_records_read_back_under_every_example_ruleset(examples_installed):
    """Each example's steps write their part of a played deal's record
    (``Step.record``): the soloist's choice, Schmegegge's swaps with the dummy."""
    for name in sorted(installed_rulesets()):
        check_round_trips(compile_rules(load_ruleset(name)))
