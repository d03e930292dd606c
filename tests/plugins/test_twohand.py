"""Skat for two (docs/rules/house-rules.md#b13): six built-in rulesets, listed
by `skat rulesets`, scored by their vectors (tests/vectors/<form>.yaml, run by
tests/records/test_vectors.py), played under `skat simulate`, `skat compare`
and `skat play`, described by `skat rules`."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from skatcore.cli.main import main
from skatcore.cli.play import TerminalGame
from skatcore.rules.compiler import get_rules
from skatcore.rules.ruleset import shipped_rulesets

TESTS = Path(__file__).resolve().parents[1]
FORMS = ("skat-en-deux", "strohmann", "piloten-skat", "oma-skat", "offiziersskat", "schmegegge")


def test_shipped_and_listed_like_every_built_in_ruleset(capsys):
    assert set(shipped_rulesets()) >= set(FORMS)
    for form in FORMS:
        rules = get_rules(form)
        spec = next(p for p in rules.plugins if p.key == form.replace("-", "_"))
        assert spec.origin == "built-in" and spec.factory.__module__ == "skatcore_plugins.twohand", spec
    assert main(["rulesets"]) == 0
    listed = {line.split()[0] for line in capsys.readouterr().out.splitlines() if line.strip()}
    assert listed >= set(FORMS)


@pytest.mark.parametrize("players", ["random", "heuristic"])
@pytest.mark.parametrize("form", FORMS)
def test_skat_simulate_plays_complete_deals(form, players, capsys):
    assert main(["simulate", "--ruleset", form, "--deals", "40", "--seed", "2", "--players", players, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deals"] == 40 and out["declarer_games"] > 0
    if form == "offiziersskat":  # no bidding: the non-dealer announces every deal
        assert out["declarer_games"] == 40 and out["overbid_rate"] == 0


def test_skat_compare_skat_en_deux_and_strohmann(capsys):
    assert main(["compare", "skat-en-deux", "strohmann", "--deals", "200", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "skat-en-deux vs strohmann: the same 200 deals" in out and "Δ strohmann" in out and "mix: passed" in out


def test_skat_rules_describes_the_table(capsys):
    assert main(["rules", "strohmann"]) == 0
    out = capsys.readouterr().out
    assert "deal: 9 cards each to forehand, middlehand, rearhand; 2 in the skat; 3 laid aside, counted for the side with more card points" in out
    assert "middlehand  played by the defender; does not bid; 1 open, the rest a face-down pile; " \
           "shown to everyone after the first trick" in out
    assert main(["rules", "offiziersskat"]) == 0
    assert "tricks of 2 cards" in capsys.readouterr().out


def test_skat_play_you_play_the_third_hand_when_you_defend():
    """Two deals of Skat en deux: you are forehand, then rearhand; the bot and
    you bid, and where you defend you play middlehand too.  The screen shows
    the third hand only once the game is announced."""
    out = io.StringIO()
    game = TerminalGame(get_rules("skat-en-deux"), seed=7, stdin=io.StringIO("2\n1\n1 2\n" * 400), stdout=out)
    assert game.run(deals=2) == 0
    text = out.getvalue()
    deals = text.split("=== deal ")[1:]
    assert len(deals) == 2 and "you are forehand" in deals[0] and "you are rearhand" in deals[1]
    assert "(you play them)" in text  # you moved for middlehand
    for deal in deals:
        before = deal.partition(" declares ")[0]
        assert "middlehand shows" not in before
        assert "middlehand (the third hand): " not in before  # never asked to bid


def test_skat_play_schmegegge_both_pass_twice_then_swap_and_ramsch():
    """Passing at every chance (answer 2) under seed 1: the bot passes twice
    too, you swap two cards with the dummy's pile, and the two play a Ramsch
    of two-card tricks; the tricks' points plus the skat (to the last trick)
    make the result line."""
    import re

    out = io.StringIO()
    game = TerminalGame(get_rules("schmegegge"), seed=1, stdin=io.StringIO("2\n" * 300), stdout=out)
    assert game.run(deals=1) == 0
    text = out.getvalue()
    assert "both passed twice" in text and "dummy_swap:" in text and "you put away ♣K ♣Q" in text
    taken = {"forehand": 0, "rearhand": 0}
    assert "you are forehand" in text
    for who, pts in re.findall(r"→ (you|Ann) takes? (\d+)", text):
        taken["forehand" if who == "you" else "rearhand"] += int(pts)
    assert len(re.findall(r"trick \d+: \w+ \S+ · \w+ \S+ → ", text)) == 10  # ten tricks of two cards
    assert taken == {"forehand": 88, "rearhand": 5}  # + the skat's 3 (HQ C8) to forehand, who took the last trick
    assert "result: points forehand 91, middlehand 0, rearhand 5; forehand loses their points: -91" in text


def test_simulate_counts_two_players_not_the_third_hand():
    """Seeger-Fabian points: +40 to the one defending player of a lost game
    (not to the third hand, which is nobody's); per-player averages over 2."""
    from skatcore.sim.simulate import run

    stats = run(["skat-en-deux"], deals=60, seed=1, slots=("random",) * 3)[0]
    wins, games = sum(stats.wins.values()), sum(stats.played.values())
    lost = games - wins
    assert lost and stats.people == 2
    assert sum(stats.sf) - sum(stats.classic) == 50 * wins - 50 * lost + 40 * lost
    assert stats.summary()["classic_per_36"] == round(36 * sum(stats.classic) / 2 / 60, 4)


def _sheet(tmp_path, name: str) -> Path:
    """A session of tests/sessions/ as `skat sheet` reads it: without the
    ``expect`` of tests/records/test_sessions.py, its house rulesets beside it."""
    source = TESTS / "sessions" / name
    shutil.copytree(source.parent / "rulesets", tmp_path / "rulesets", dirs_exist_ok=True)
    path = tmp_path / name
    path.write_text(source.read_text(encoding="utf-8").partition("\nexpect:")[0] + "\n", encoding="utf-8")
    return path


def test_skat_sheet_a_two_player_session(capsys, tmp_path):
    """Ann and Ben deal in turn; the non-dealer sits at forehand, the dealer
    at rearhand (the third hand is nobody's): Ben +24, then -44; thrown in."""
    session = _sheet(tmp_path, "skat-en-deux-evening.yaml")
    assert main(["sheet", str(session), "--json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert [d["declarer"] for d in sheet["deals"]] == ["Ben", "Ben", None]
    assert sheet["deals"][-1]["totals"] == {"Ann": 0, "Ben": -20}
    three = tmp_path / "three.yaml"
    three.write_text(session.read_text(encoding="utf-8").replace("[Ann, Ben]", "[Ann, Ben, Cem]"), encoding="utf-8")
    assert main(["sheet", str(three)]) == 2
    assert "players: this ruleset is played by 2 players, not 3" in capsys.readouterr().err


def test_offiziersskat_the_dealer_sits_at_middlehand():
    from skatcore.engine.table import people, seating

    assert seating(2, 0, people(get_rules("offiziersskat"))) == {"forehand": 1, "middlehand": 0}
    assert seating(2, 1, people(get_rules("skat-en-deux"))) == {"forehand": 0, "rearhand": 1}


def test_skat_compare_games_rescores_a_two_player_record(capsys, tmp_path):
    """A Skat en deux record (Ben deals; Ann at forehand
    plays a grand hand schwarz, 192) re-scored under Skat en deux and
    Piloten-Skat, which deal alike; Offiziersskat's 16-card hands count it
    apart.  The persons are the two players: Ann's settlement is 2 x 192 -
    192 = 192 a deal (6912 / 36 deals), and no row is kept for the third hand."""
    record = TESTS / "records" / "skat-en-deux-grand.yaml"
    rows = tmp_path / "rows.csv"
    assert main(["compare", "skat-en-deux", "piloten-skat", "offiziersskat", "--games", str(record),
                 "--json", "--per-deal", str(rows)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(g["ruleset"], g["scored"]) for g in out["games"]] == [("skat-en-deux", 1), ("piloten-skat", 1), ("offiziersskat", 0)]
    assert out["games"][2]["unscored"] == {"expected exactly 16 items, got 10": 1}
    assert "forehand_player,middlehand_player,rearhand_player" in rows.read_text()
    assert ",0,skat-en-deux,grand,False,forehand,Ann," in rows.read_text() and ",Ann,,Ben," in rows.read_text()
    assert main(["compare", "skat-en-deux", "piloten-skat", "--games", str(record), "--json"]) == 0
    intervals = json.loads(capsys.readouterr().out)["intervals"]["skat-en-deux"]
    assert intervals["settlement_per_36.forehand"]["estimate"] == 6912
    assert intervals["settlement_per_36.rearhand"]["estimate"] == -6912
    assert not [k for k in intervals if k.endswith(".middlehand")]


def test_offiziersskat_to_a_target_score(capsys, tmp_path):
    """Offiziersskat to 100: Ben +96, Ann -72, Ben +30 -> 126 reaches the
    target at deal 3; the sheet is closed and takes no fourth deal."""
    session = _sheet(tmp_path, "offiziersskat-to-100-evening.yaml")
    assert main(["sheet", str(session)]) == 0
    out = capsys.readouterr().out
    assert "Ben wins" in out and "closed: Offiziersskat: Ben reached 126 at deal 3 (target 100)" in out
    assert main(["sheet", str(session), "--json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert [d["totals"] for d in sheet["deals"]] == [{"Ann": 0, "Ben": 96}, {"Ann": -72, "Ben": 96}, {"Ann": -72, "Ben": 126}]
    text = session.read_text(encoding="utf-8")
    longer = tmp_path / "longer.yaml"
    longer.write_text(text + "  - {game: {type: grand, hand: true}, outcome: {declarer_points: 70, matadors: {with: 2}}}\n")
    assert main(["sheet", str(longer)]) == 2
    assert "deals[3]: no more deals: Offiziersskat: Ben reached 126 at deal 3 (target 100)" in capsys.readouterr().err
    # an agreed number of deals instead: two deals, then the sheet is closed
    (tmp_path / "two-deals.yaml").write_text("name: two-deals\nextends: offiziersskat\nplugins:\n  offiziersskat: {deals: 2}\n")
    longer.write_text(longer.read_text().replace("rulesets/offiziersskat-to-100.yaml", "two-deals.yaml"))
    assert main(["sheet", str(longer)]) == 2
    assert "deals[2]: no more deals: the series is over after 2 deals" in capsys.readouterr().err
