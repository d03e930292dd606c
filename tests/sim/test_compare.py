"""``skat compare`` for research (issue 13): paired intervals in the output,
the rules that differ (computed from the compiled rules), real ISS games
re-scored to the server's values, the per-deal export, ``--deal`` past a
refusing ruleset, ``--until-ci``, and ``--dask local:2`` equal to ``--jobs 2``."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from skatcore.cli.main import main
from skatcore.rules.compiler import get_rules
from skatcore.sim.compare import compare
from skatcore.sim.export import COLUMN_TYPES
from skatcore.sim.outcomes import ROW_KEYS, Columns
from skatcore.sim.report import COLORS, nice_ticks

SAMPLE = next((p / "shared/data/iss/iss-sample-25.sgf" for p in Path(__file__).parents
               if (p / "shared/data/iss/iss-sample-25.sgf").is_file()), None)


def cli(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture(scope="module")
def texas_json():
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["compare", "official", "texas", "--deals", "150", "--seed", "3", "--json"]) == 0
    return json.loads(buf.getvalue())


def test_rules_diff_lists_exactly_the_parameters_that_differ(texas_json):
    plugins = {d["item"]: d["values"] for d in texas_json["rules_differ"] if d["section"] == "plugins"}
    official, texas = get_rules("official"), get_rules("texas")
    expected = {"official.grand_base", "official.null_values", "official.schneider_at"}  # out_of_schneider: 31 as official
    for spec in texas.plugins:
        if spec.key not in {s.key for s in official.plugins}:
            expected |= {f"{spec.key}.{p}" for p in spec.params}
    assert set(plugins) == expected
    assert plugins["official.grand_base"] == {"official": "24", "texas": "16"}
    assert plugins["ramsch.scoring"] == {"official": "-", "texas": "texas"}
    other = {d["section"]: d for d in texas_json["rules_differ"] if d["section"] != "plugins"}
    assert {"contracts", "thresholds", "all pass", "ladder"} <= set(other)
    assert other["all pass"]["values"]["official"].startswith("thrown in")


def test_every_difference_has_an_interval_and_n(texas_json):
    diffs = texas_json["differences"]["texas"]
    assert set(diffs) == set(texas_json["intervals"]["texas"]) == set(texas_json["intervals"]["official"])
    win = diffs["win_rate"]
    assert win["method"] == "bootstrap" and win["low"] <= win["estimate"] <= win["high"]
    assert texas_json["intervals"]["official"]["win_rate"]["n"] == texas_json["rulesets"][0]["declarer_games"]
    allpass = diffs["mean_abs_entry"]
    assert allpass["method"] == "closed" and allpass["n"] == 150
    # the summary: significant only; texas's every significant win rate, points and mix difference, game
    # values last (tests/sim/test_in_short.py checks the order)
    summary = texas_json["summary"]
    assert summary and all(f["significant"] for f in summary)
    keys = [f["statistic"] for f in summary]
    for key, d in diffs.items():
        if d["significant"] and (key in ("win_rate", "classic_per_36", "seeger_fabian_per_36", "all_pass_rate")
                                 or key.startswith("contract_mix.")):
            assert key in keys, key
    # texas's grand base 16 shows in the grand's mean value (the rules table says it): never ahead of play
    groups = [f["group"] for f in summary]
    assert "values" not in groups or groups.index("values") > max(i for i, g in enumerate(groups) if g != "values")


def test_terminal_output_marks_not_significant(capsys):
    rc, out, err = cli(capsys, "compare", "official", "pre1999", "--deals", 60, "--seed", 2)
    assert rc == 0, err
    assert "the rules that differ" in out and "pre1999" in out
    assert " ns" in out and "(n 60)" in out
    short = out.split("In short", 1)[1]
    assert " ns" not in short


def test_terminal_rules_table_shows_lists_as_written(capsys):
    """A parameter value in brackets is text, not terminal markup that vanishes."""
    rc, out, err = cli(capsys, "compare", "official", "texas", "--deals", 10)
    assert rc == 0, err
    line = next(x for x in out.splitlines() if "announcements.ouvert_implies" in x)
    assert line.rstrip(" │").endswith("[schneider, schwarz]")


def test_session_rules_in_the_statistics(capsys, tmp_path):
    rows = tmp_path / "pub.jsonl"
    rc, out, _err = cli(capsys, "compare", "official", "pub", "--deals", 144, "--seed", 5, "--json", "--per-deal", rows)
    assert rc == 0
    data = json.loads(out)
    pub = data["intervals"]["pub"]
    assert {"calls.kontra_rate", "calls.re_rate", "calls.kontra_win_rate"} <= set(pub)
    assert pub["session.bock_share"]["estimate"] > 0 and pub["session.ramsch_round_share"]["estimate"] > 0
    assert "session.bock_share" not in data["intervals"]["official"] or \
        data["intervals"]["official"]["session.bock_share"]["estimate"] == 0
    deals = [json.loads(line) for line in rows.read_text().splitlines()]
    pub_rows = [r for r in deals if r["ruleset"] == "pub"]
    # a Ramsch round has no bidding: a Ramsch, or a grand hand instead of pushing
    assert all(r["game"] == "ramsch" or (r["game"] == "grand" and r["hand"] and r["bid"] == 0)
               for r in pub_rows if r["ramsch_round"])
    assert {r["sheet_factor"] for r in pub_rows} >= {1, 2}
    # per-seat totals are what goes on the sheet: the deal's entries times the Bock factor
    seats = [pub[f"per_seat_per_36.{s}"]["estimate"] for s in ("forehand", "middlehand", "rearhand")]
    assert sum(seats) == pytest.approx(36 * sum((r["forehand"] + r["middlehand"] + r["rearhand"]) * r["sheet_factor"]
                                                for r in pub_rows) / 144)
    # pairwise settlement sums to zero over the three seats
    assert sum(pub[f"settlement_per_36.{s}"]["estimate"] for s in ("forehand", "middlehand", "rearhand")) == pytest.approx(0, abs=1e-6)


def test_per_deal_export(tmp_path, capsys):
    jl, cs = tmp_path / "deals.jsonl", tmp_path / "deals.csv"
    rc, out, err = cli(capsys, "compare", "official", "texas", "--deals", 40, "--seed", 8, "--per-deal", jl, "--json")
    assert rc == 0, err
    data = json.loads(out)
    rows = [json.loads(line) for line in jl.read_text().splitlines()]
    assert len(rows) == 80 and list(rows[0]) == list(ROW_KEYS)
    assert [(r["deal"], r["ruleset"]) for r in rows[:4]] == [(0, "official"), (0, "texas"), (1, "official"), (1, "texas")]
    official = [r for r in rows if r["ruleset"] == "official"]
    wins = sum(1 for r in official if r["won"])
    assert data["intervals"]["official"]["win_rate"]["estimate"] == pytest.approx(
        wins / sum(1 for r in official if r["won"] is not None), abs=1e-4)
    assert all(r["seed"] == 8 for r in rows)
    rc, out, err = cli(capsys, "compare", "official", "texas", "--deals", 40, "--seed", 8, "--per-deal", cs, "--jobs", 2)
    with cs.open() as f:
        table = list(csv.DictReader(f))
    assert len(table) == 80 and [t["score"] for t in table] == [("" if r["score"] is None else str(r["score"])) for r in rows]
    assert not list(tmp_path.glob("*.part"))


def test_per_deal_parquet_equals_json_lines(tmp_path, capsys):
    """pub brings Bock deals and Ramsch rounds (sheet_factor, ramsch_round) and
    Kontra (calls): every column has its declared type in JSON Lines and in Parquet."""
    pq = pytest.importorskip("pyarrow.parquet")
    jl, pa = tmp_path / "deals.jsonl", tmp_path / "deals.parquet"
    for path in (jl, pa):
        rc, _out, err = cli(capsys, "compare", "official", "pub", "--deals", 108, "--seed", 5, "--per-deal", path)
        assert rc == 0, err
    rows = [json.loads(line) for line in jl.read_text().splitlines()]
    assert {r["sheet_factor"] for r in rows} >= {1, 2} and any(r["ramsch_round"] for r in rows)
    for r in rows:
        for key, value in r.items():
            assert value is None or type(value) is COLUMN_TYPES[key], (key, value)
    table = pq.read_table(pa)
    assert table.column_names == list(ROW_KEYS) and table.to_pylist() == rows


@pytest.mark.parametrize(("extra", "message"), [
    (["--deal", "d.yaml", "--per-deal", "x.csv"], "--per-deal does not go with --deal"),
    (["--deal", "d.yaml", "--html", "x.html"], "--html does not go with --deal"),
    (["--deal", "d.yaml", "--games", "g.sgf"], "--games does not go with --deal"),
    (["--games", "g.sgf", "--until-ci", "3"], "--until-ci does not go with --games"),
])
def test_options_that_do_not_go_together(tmp_path, capsys, monkeypatch, extra, message):
    """An option the mode would ignore is refused, and nothing is written."""
    monkeypatch.chdir(tmp_path)
    rc, out, err = cli(capsys, "compare", "official", "texas", *extra)
    assert rc == 2 and out == "" and err == f"skat: error: {message}\n"
    assert not list(tmp_path.iterdir())


def test_per_deal_bad_suffix_is_one_line(tmp_path, capsys):
    rc, out, err = cli(capsys, "compare", "official", "texas", "--deals", 10, "--per-deal", tmp_path / "x.txt")
    assert rc == 2 and out == "" and err.count("\n") == 1 and "--per-deal: expected a file ending in .jsonl" in err
    assert not list(tmp_path.iterdir())


def test_jobs_and_chunks_never_change_a_digit():
    """Sessions (pub's Bock and Ramsch rounds) are blocks of 36 deals: a chunk
    starting inside one replays its earlier deals first."""
    a = compare(["official", "pub"], 90, 6, jobs=1).to_json()
    b = compare(["official", "pub"], 90, 6, jobs=2).to_json()
    assert a == b


def test_until_ci_deals_on_until_narrow_enough():
    loose = compare(["official", "texas"], 40, 2, until_ci=14.0, max_deals=640)
    assert loose.deals in (40, 80, 160, 320, 640)
    assert loose.headline_width() < 14.0 or loose.deals == 640
    assert loose.deals > 40  # 40 deals never give intervals narrower than 14 pp
    # the first 40 deals are the same deals: a 40-deal run equals the start of it
    again = compare(["official", "texas"], loose.deals, 2)
    assert again.to_json() == loose.to_json()


def test_until_ci_says_whether_it_got_there(capsys):
    """Each round names the widest headline interval, what the doubling waits for."""
    rc, out, _err = cli(capsys, "compare", "official", "texas", "--deals", 40, "--seed", 2, "--until-ci", 14)
    result = compare(["official", "texas"], 40, 2, until_ci=14)
    assert rc == 0 and f"the same {result.deals} deals" in out and result.deals == 80
    (first, width1, name1), (last, width2, name2) = result.rounds
    assert (first, last) == (40, 80) and width1 >= 14 > width2 == result.headline_width()
    assert (width2, name2) == result.widest() and name1.startswith("texas: ")
    assert (f"--until-ci 14: after 40 deals the widest headline interval is {name1}, {width1:.1f} pp wide: "
            f"dealing on to 80\n") in out
    assert (f"--until-ci 14: after 80 deals the widest headline interval is {name2}, {width2:.1f} pp wide: "
            f"narrower than 14: done\n") in out
    # the name is the statistic whose interval is that wide
    metric = next(m for m in result.metrics if f"texas: {m.label}" == name2)
    iv = result.tally.diff(metric, 1)
    assert metric.headline and (iv.high - iv.low) * (100 if metric.share else 1) == pytest.approx(width2)
    rc, out, _err = cli(capsys, "compare", "official", "texas", "--deals", 40, "--seed", 2, "--until-ci", 1,
                        "--max-deals", 80, "--json")
    data = json.loads(out)
    assert data["deals"] == 80 and data["until_ci"] == 1 and data["headline_width"] > 1
    assert [r["deals"] for r in data["rounds"]] == [40, 80] and data["widest"] == data["rounds"][-1]["widest"]
    rc, out, _err = cli(capsys, "compare", "official", "texas", "--deals", 40, "--seed", 2, "--until-ci", 1,
                        "--max-deals", 80)
    assert "pp wide: not narrower at --max-deals 80\n" in out


def test_deal_goes_on_past_a_refusing_ruleset(tmp_path, capsys):
    deal = tmp_path / "bid23.yaml"
    deal.write_text("format: skat-deal/1\ndeclarer: forehand\nbid: 23\ngame: {type: null}\n"
                    "outcome: {declarer_tricks: 0}\n")
    rc, out, err = cli(capsys, "compare", "official", "texas", "pre1999", "--deal", deal)
    assert rc == 0, err
    assert "official: null" in out and "pre1999: null" in out
    assert "texas: refuses this deal" in out and "23 is not a game value on the bid ladder of texas" in out
    rc, out, err = cli(capsys, "compare", "official", "texas", "--deal", deal, "--json")
    results = json.loads(out)
    assert results[0]["score"] == 23 and results[1]["ruleset"] == "texas" and "bid ladder" in results[1]["refused"]


def test_deal_with_kontra_names_the_ruleset_without_it(tmp_path, capsys):
    deal = tmp_path / "kontra.yaml"
    deal.write_text("format: skat-deal/1\ndeclarer: forehand\nbid: 18\ngame: {type: clubs, declarations: {kontra: true}}\n"
                    "outcome: {declarer_points: 70, matadors: {with: 1}}\n")
    rc, out, err = cli(capsys, "compare", "official", "pub", "--deal", deal)
    assert rc == 0, err
    # with 1, game 2 x clubs 12 = 24, Kontra doubles it
    assert "official: refuses this deal\n  game.declarations.kontra: unknown declaration 'kontra' under official" in out
    assert "pub: clubs\n" in out and "sheet: forehand +48" in out


@pytest.mark.skipif(SAMPLE is None, reason="the ISS sample is not beside the repository")
def test_games_rescore_iss_to_the_servers_values(tmp_path, capsys):
    rows = tmp_path / "games.jsonl"
    report = tmp_path / "games.html"
    rc, out, err = cli(capsys, "compare", "official", "texas", "--games", SAMPLE, "--per-deal", rows, "--json",
                       "--html", report)
    assert rc == 0, err
    data = json.loads(out)
    official, texas = data["games"]
    page = report.read_text()  # real players: no bots to set beside people
    assert "<h2>Games re-scored</h2>" in page and "people online" not in page
    # 25 games: 22 declared, 2 all passed, 1 abandoned in the bidding (data/iss/SOURCES.md)
    assert official == {"ruleset": "official", "games": 25, "scored": 24,
                        "unscored": {"player 2 (rearhand) left during bidding": 1},
                        "server_agrees": 22, "server_differs": 0, "lacking": {}}
    assert texas["unscored"]["all passed: ruleset 'texas' plays ramsch then, which ISS does not"] == 2
    assert any("is not a game value on the bid ladder of texas" in why for why in texas["unscored"])
    declared = [json.loads(line) for line in rows.read_text().splitlines()]
    declared = [r for r in declared if r["ruleset"] == "official" and r["server_score"] is not None]
    assert len(declared) == 22 and all(r["score"] == r["server_score"] for r in declared)
    assert data["deals"] == texas["scored"]  # the paired statistics: games both could score


@pytest.mark.skipif(SAMPLE is None, reason="the ISS sample is not beside the repository")
def test_games_stream_in_constant_memory(tmp_path, monkeypatch):
    """Five times the games, the same peak memory: games are read a line at a
    time and the paired sums kept per chunk (chunks of 25 games here)."""
    import tracemalloc

    from skatcore.sim import games

    monkeypatch.setattr(games, "CHUNK", 25)
    games.rescore(["official", "texas"], [SAMPLE])  # rulesets compiled, modules imported
    peaks = []
    for copies in (4, 20):
        archive = tmp_path / f"{copies}.sgf"
        archive.write_text(SAMPLE.read_text() * copies)
        tracemalloc.start()
        *_, counts = games.rescore(["official", "texas"], [archive])
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert counts[0].games == 25 * copies and counts[0].server_agrees == 22 * copies
    assert peaks[1] - peaks[0] < 200_000, peaks  # 400 more games kept would be megabytes


def test_games_bad_file_is_one_line(tmp_path, capsys):
    bad = tmp_path / "x.sgf"
    bad.write_text("(;GM[Skat]ID[1];)\n")
    rc, _out, err = cli(capsys, "compare", "official", "texas", "--games", bad)
    assert rc == 2 and err.startswith(f"skat: error: {bad}: line 1") and err.count("\n") == 1


def test_report_ticks_palette_and_error_bars(tmp_path, capsys):
    # the axis ticked at 0/7/13/20/26%: round steps instead
    assert nice_ticks(0, 0.26) == [0.0, 0.1, 0.2, 0.3]
    assert nice_ticks(0, 0.2) == [0.0, 0.05, 0.1, 0.15, 0.2]
    assert nice_ticks(-13, 42) == [-20, 0, 20, 40, 60]
    assert "#d62728" not in COLORS and "#2ca02c" not in COLORS  # no red next to green
    path = tmp_path / "r.html"
    assert cli(capsys, "compare", "official", "texas", "--deals", 60, "--html", path)[0] == 0
    page = path.read_text()
    assert 'class="e"' in page and "people online (official)" in page and "The rules that differ" in page
    ticks = re.findall(r'text-anchor="end" class="a">([^<]*)%</text>', page)
    assert ticks and all(float(t) % 5 == 0 for t in ticks), ticks
    kinds = page.split('aria-label="Contract kinds', 1)[1].split("</svg>", 1)[0]
    assert ">ramsch</text>" in kinds  # texas plays a Ramsch where official throws in: a kind of its own
    # people's official mix (data/human-play.md) as shares of all deals: passed 4.9%, grand 95.1% x 32.2%
    assert "people online (official), passed: 4.9%" in kinds and "people online (official), grand: 30.6%" in kinds
    for colour in COLORS[:2]:
        assert f'fill="{colour}"' in page


@pytest.mark.parametrize("address", ["local:0", "local:x", "local:"])
@pytest.mark.parametrize("command", [["compare", "official", "texas"], ["simulate"]])
def test_dask_local_without_workers_is_one_line(capsys, command, address):
    rc, out, err = cli(capsys, *command, "--deals", 10, "--dask", address)
    assert rc == 2 and out == "" and err == f"skat: error: --dask local:N needs a number of workers, not {address[6:]!r}\n"


def test_dask_local_equals_jobs(capsys):
    """Chunks on two Dask workers, sessions (pub's Bock and Ramsch rounds)
    cut across them: the same digits as two local processes."""
    args = ["compare", "official", "texas", "pub", "--deals", 120, "--seed", 4, "--json"]
    rc, jobs, err = cli(capsys, *args, "--jobs", 2)
    assert rc == 0, err
    rc, dask, err = cli(capsys, *args, "--dask", "local:2")
    assert rc == 0, err
    assert same_run(dask) == same_run(jobs)


def test_games_from_json_lines_and_deal_records(tmp_path, capsys):
    """JSON Lines of deal records and a deal record file: the overbid example
    scores -96 under official (lost hand game doubled) and -48 under pre1999."""
    example = Path(__file__).resolve().parents[2] / "examples" / "overbid-clubs-hand.yaml"
    import yaml

    doc = yaml.safe_load(example.read_text())
    lines = tmp_path / "deals.jsonl"
    lines.write_text(json.dumps(doc) + "\n\n" + json.dumps(doc) + "\n")
    rows = tmp_path / "rows.csv"
    rc, out, err = cli(capsys, "compare", "official", "pre1999", "--games", lines, example, "--json", "--per-deal", rows)
    assert rc == 0, err
    data = json.loads(out)
    assert [g["scored"] for g in data["games"]] == [3, 3] and data["deals"] == 3
    with rows.open() as f:
        scores = [(r["ruleset"], r["score"]) for r in csv.DictReader(f)]
    assert scores == [("official", "-96"), ("pre1999", "-48")] * 3
    assert data["differences"]["pre1999"]["classic_per_36"]["estimate"] == pytest.approx(12 * 48)


SCHENKEN = Path(__file__).parents[1] / "vectors" / "rulesets" / "schenken.yaml"


def test_schenken_statistics_and_column_come_from_the_settling_calls(tmp_path, capsys):
    """The Schenken plugin's calls that settle a deal write ``schenken``: the
    per-deal column after ``calls`` and ``calls.schenken_rate`` (offered: said
    at all) / ``calls.schenken_accepted_rate`` (said so the deal ended) over
    declarer games, counted here from the rows; a ruleset without the plugin
    has neither."""
    rows_file = tmp_path / "deals.jsonl"
    rc, out, err = cli(capsys, "compare", "official", SCHENKEN, "--deals", 150, "--seed", 4,
                       "--players", "random,random,random", "--per-deal", rows_file, "--json")
    assert rc == 0, err
    data = json.loads(out)
    rows = [json.loads(line) for line in rows_file.read_text().splitlines()]
    at = ROW_KEYS.index("calls") + 1
    assert list(rows[0]) == [*ROW_KEYS[:at], "schenken", *ROW_KEYS[at:]]
    mine = [r for r in rows if r["ruleset"] == "schenken" and r["won"] is not None and r["declarer"] is not None]
    said = [r["schenken"] for r in mine]
    assert said.count("accepted") > 0 and said.count("refused") > 0  # random defenders offer, random declarers answer
    stats = data["intervals"]["schenken"]
    assert stats["calls.schenken_rate"]["estimate"] == pytest.approx(sum(s is not None for s in said) / len(mine), abs=1e-4)
    assert stats["calls.schenken_accepted_rate"]["estimate"] == pytest.approx(
        sum(s in ("accepted", "schneider") for s in said) / len(mine), abs=1e-4)
    assert data["intervals"]["official"]["calls.schenken_rate"]["estimate"] == 0
    assert all(r["schenken"] is None for r in rows if r["ruleset"] == "official")
    rc, out, err = cli(capsys, "compare", "official", "texas", "--deals", 5, "--json")
    assert not [k for k in json.loads(out)["intervals"]["official"] if "schenken" in k]
    pq = pytest.importorskip("pyarrow.parquet")
    parquet = tmp_path / "deals.parquet"
    rc, out, err = cli(capsys, "compare", "official", SCHENKEN, "--deals", 150, "--seed", 4,
                       "--players", "random,random,random", "--per-deal", parquet)
    assert rc == 0, err
    assert pq.read_table(parquet).to_pylist() == rows


def test_a_made_up_settling_call_gets_its_own_statistics():
    """Any plugin's call that settles a deal is counted under its own name."""
    from skatcore.hookspecs import hookimpl
    from skatcore.model import ScoreResult, TableCall
    from skatcore.sim.outcomes import deal_row, metrics_for, row_keys, settling
    from skatcore.testing import compile_with

    class Fold:  # the declarer gives up before the first card
        @hookimpl
        def skat_register_calls(self):
            return [TableCall("fold", by="declarer", window="first_lead", settles=True)]

        @hookimpl
        def skat_register_declarations(self):
            return {"fold": {"type": "boolean", "description": "the declarer gave up before the first card"}}

    rules = compile_with("official", plugins={"fold": Fold})
    assert settling([rules]) == {"fold": frozenset({"True"})} and "fold" in row_keys([get_rules("official"), rules])
    metrics = {m.key: m for m in metrics_for([get_rules("official"), rules])}
    result = ScoreResult(ruleset=rules.name, game="clubs", declarer=0, bid=18, hand=False, won=False, overbid=False,
                         matadors=1, multiplier=2, value=24, score=-48, scores={"forehand": -48}, declarer_points=0,
                         explanation="")
    folded = deal_row(result, seed=1, deal=0, all_pass=False, said={"fold": True})
    played = deal_row(result, seed=1, deal=1, all_pass=False, said={"fold": None})
    assert folded["fold"] == "True" and played["fold"] is None
    accepted, offered = metrics["calls.fold_accepted_rate"], metrics["calls.fold_rate"]
    c = Columns([folded, played])
    assert [m(c).tolist() for m in (offered.num, accepted.num, accepted.den)] == [[1, 0], [1, 0], [1, 1]]
    assert accepted.label == "Fold accepted"


def same_run(text: str) -> dict:
    """``--json`` output without what tells two runs apart (the command line, the date, the time taken)."""
    doc = json.loads(text)
    for key in ("argv", "command", "date", "seconds"):
        doc["provenance"].pop(key)
    return doc
