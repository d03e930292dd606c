"""Provenance that pins a comparison (issue 36, R3): each ruleset's resolved
content and its SHA-256, the plugins' and players' code, the games files,
the software; in ``--json``, the report and beside the per-deal file
(``FILE.meta.json``, a Parquet file's metadata); ``skat compare --replay``
runs a record again and says what differs; a bad record is one line, exit 2."""

from __future__ import annotations

import copy
import hashlib
import html
import inspect
import json
from importlib import metadata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatcore.cli.main import main
from skatcore.errors import InputError
from skatcore.rules.compiler import _compiled, get_rules
from skatcore.sim.replay import read_record

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "overbid-clubs-hand.yaml"


def cli(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def house(folder: Path, grand_base: int) -> Path:
    """A house ruleset extending official, as a player keeps one beside their files."""
    path = folder / "house.yaml"
    path.write_text(f"name: house\nextends: official\nplugins:\n  official: {{grand_base: {grand_base}}}\n", encoding="utf-8")
    _compiled.cache_clear()  # as a new process would: the file is read again
    return path


def canonical_sha(content) -> str:
    """The pin as docs/formats.md defines it, computed here on its own."""
    return hashlib.sha256((json.dumps(content, sort_keys=True, indent=1, ensure_ascii=False) + "\n").encode()).hexdigest()


def record_of(capsys, *argv) -> dict:
    rc, out, err = cli(capsys, "compare", *argv, "--json")
    assert rc == 0, err
    return json.loads(out)["provenance"]


def test_the_content_hash_follows_the_ruleset_file(tmp_path, capsys):
    path = house(tmp_path, 20)
    first = record_of(capsys, "official", path, "--deals", 30, "--seed", 2)
    again = record_of(capsys, "official", path, "--deals", 30, "--seed", 2)
    assert first["rulesets"] == again["rulesets"]  # nothing changed: the same pin
    pinned = first["rulesets"][1]
    assert pinned["ref"] == str(path.resolve()) and pinned["file"] == str(path.resolve())
    # the content: official's parameters (defaults filled in) with the house's grand_base over them
    official = {p.key: p.params for p in get_rules("official").plugins}
    assert pinned["content"]["plugins"] == [{"plugin": "official", "params": {**official["official"], "grand_base": 20},
                                             "layer": 0}]
    assert pinned["sha256"] == canonical_sha(pinned["content"])
    house(tmp_path, 24)  # the same rules as official, written in another file
    edited = record_of(capsys, "official", path, "--deals", 30, "--seed", 2)["rulesets"][1]
    assert edited["sha256"] != pinned["sha256"] and edited["sha256"] == canonical_sha(edited["content"])
    # the plugin's code: the built-in official, from skatcore, its file hashed
    plugin = edited["plugins"][0]
    assert (plugin["distribution"], plugin["version"]) == ("skatcore", metadata.version("skatcore"))
    assert plugin["sha256"] == hashlib.sha256(Path(plugin["file"]).read_bytes()).hexdigest()


def test_the_record_names_software_players_and_options(capsys):
    made = record_of(capsys, "official", "texas", "--deals", 20, "--seed", 9, "--players", "heuristic,random,heuristic")
    assert made["format"] == "skat-provenance/1" and made["seed"] == 9 and made["deals"] == 20
    assert made["options"] == {"until_ci": None, "max_deals": 1_000_000, "verify": None}
    assert [p["player"] for p in made["players"]] == ["heuristic", "random", "heuristic"]
    for name in ("numpy", "numba", "pluggy"):
        assert made["software"][name] == metadata.version(name)
    assert made["argv"][:3] == ["compare", "official", "texas"] and made["games"] is None
    assert made["skatcore"]["version"] == metadata.version("skatcore")
    assert made["deals_compared"] == 20


def test_a_players_settings_are_its_factorys_with_the_options_over_them():
    from skatcore.bots.expert import ExpertPlayer
    from skatcore.sim.provenance import player_pin

    pin = player_pin("expert:worlds=3")
    defaults = {k: p.default for k, p in inspect.signature(ExpertPlayer).parameters.items() if k not in ("rules", "seed")}
    assert pin["settings"] == {**defaults, "worlds": 3}
    assert pin["module"] == ExpertPlayer.__module__ and pin["distribution"] == "skatcore"


def test_replay_makes_the_same_rows_and_says_so(tmp_path, capsys):
    path = house(tmp_path, 20)
    first = tmp_path / "a.csv"
    rc, _out, err = cli(capsys, "compare", "official", path, "--deals", 300, "--seed", 4, "--per-deal", first)
    assert rc == 0, err
    meta = Path(f"{first}.meta.json")
    record = json.loads(meta.read_text(encoding="utf-8"))
    assert record["per_deal"]["rows"] == 600 and record["per_deal"]["sha256"] == hashlib.sha256(first.read_bytes()).hexdigest()
    again = tmp_path / "b.csv"
    rc, out, err = cli(capsys, "compare", "--replay", meta, "--per-deal", again)
    assert rc == 0 and err == "", err
    assert again.read_bytes() == first.read_bytes()  # the very rows, byte for byte
    head = out[:out.index("official vs house")]
    assert "ruleset official: same" in head and "ruleset house: same" in head
    assert "rows: the same 600 rows as recorded" in head and "DIFFER" not in head
    # the ruleset edited since: said before the results, on stderr too, and in --json; the run still runs
    house(tmp_path, 24)
    rc, out, err = cli(capsys, "compare", "--replay", meta, "--json")
    assert rc == 0
    replay = json.loads(out)["replay"]
    assert replay["same"] is False
    house_check = next(c for c in replay["checks"] if c["name"] == "house")
    assert house_check["path"] == "rulesets[1]" and "official.grand_base 20 -> 24" in house_check["differs"][0]
    assert replay["rows"]["same"] is False and replay["rows"]["recorded_sha256"] == record["per_deal"]["rows_sha256"]
    assert "skat: warning: replay: ruleset house: DIFFERS: content sha256" in err
    # --strict: one line, exit 2, nothing run and nothing written
    rc, out, err = cli(capsys, "compare", "--replay", meta, "--strict", "--per-deal", tmp_path / "c.csv")
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert f"{meta}: rulesets[1]: ruleset house differs from the record" in err
    assert not (tmp_path / "c.csv").exists() and not (tmp_path / "c.csv.meta.json").exists()


def test_rows_other_than_recorded_are_said_and_refused_with_strict(tmp_path, capsys):
    rows = tmp_path / "d.jsonl"
    assert cli(capsys, "compare", "official", "texas", "--deals", 40, "--seed", 6, "--per-deal", rows)[0] == 0
    meta = Path(f"{rows}.meta.json")
    record = json.loads(meta.read_text(encoding="utf-8"))
    record["per_deal"]["rows_sha256"] = hashlib.sha256(b"other rows").hexdigest()
    meta.write_text(json.dumps(record), encoding="utf-8")
    rc, out, err = cli(capsys, "compare", "--replay", meta)
    assert rc == 0 and "rows: DIFFER from the record: 80 rows" in out and "ruleset texas: same" in out
    again = tmp_path / "e.jsonl"
    rc, out, err = cli(capsys, "compare", "--replay", meta, "--strict", "--per-deal", again, "--html", tmp_path / "r.html")
    assert rc == 2 and out == "" and err.count("\n") == 1, err
    assert f"{meta}: per_deal.rows_sha256: the replay made other rows than recorded" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.jsonl", "d.jsonl.meta.json"]  # nothing written


def test_parquet_carries_the_record_and_replays(tmp_path, capsys):
    pq = pytest.importorskip("pyarrow.parquet")
    rows = tmp_path / "d.parquet"
    rc, _out, err = cli(capsys, "compare", "official", "texas", "--deals", 60, "--seed", 3, "--per-deal", rows)
    assert rc == 0, err
    inside = json.loads(pq.read_metadata(rows).metadata[b"skatcore.provenance"])
    beside = json.loads(Path(f"{rows}.meta.json").read_text(encoding="utf-8"))
    assert inside["per_deal"] == {k: v for k, v in beside["per_deal"].items() if k != "sha256"}
    assert inside["rulesets"] == beside["rulesets"] and inside["per_deal"]["rows"] == 120 == len(pq.read_table(rows))
    # the rows' hash is of the rows as JSON Lines, whatever the format: a .jsonl replay matches it byte for byte
    lines = tmp_path / "d.jsonl"
    rc, out, err = cli(capsys, "compare", "--replay", rows, "--per-deal", lines)
    assert rc == 0, err
    assert hashlib.sha256(lines.read_bytes()).hexdigest() == inside["per_deal"]["rows_sha256"]
    assert "rows: the same 120 rows as recorded" in out


def test_games_files_are_hashed_and_replayed(tmp_path, capsys):
    made = record_of(capsys, "official", "pre1999", "--games", EXAMPLE)
    assert made["games"] == [{"file": str(EXAMPLE.resolve()), "size": EXAMPLE.stat().st_size,
                              "sha256": hashlib.sha256(EXAMPLE.read_bytes()).hexdigest()}]
    assert made["players"] is None and made["deals"] is None
    saved = tmp_path / "out.json"  # a report's --json output is a record too
    rc, out, _ = cli(capsys, "compare", "official", "pre1999", "--games", EXAMPLE, "--json")
    saved.write_text(out, encoding="utf-8")
    rc, out, err = cli(capsys, "compare", "--replay", saved)
    assert rc == 0, err
    assert f"games file {EXAMPLE.name}: same" in out


def test_the_report_shows_the_pins(tmp_path, capsys):
    page = tmp_path / "r.html"
    made = record_of(capsys, "official", "texas", "--deals", 30, "--seed", 1, "--html", page)
    text = page.read_text(encoding="utf-8")
    prov = text[text.index('id="provenance"'):]
    for rs in made["rulesets"]:  # the hash shortened in view, in full in its title and in the whole record
        assert f'<code title="{rs["sha256"]}">{rs["sha256"][:12]}…</code>' in prov
    whole = html.unescape(prov[prov.index("The whole record"):])
    assert all(rs["sha256"] in whole for rs in made["rulesets"]) and made["software"]["numba"] in whole


def test_the_pins_fit_the_page_in_a_browser(tmp_path, capsys, browser):
    """Open every fold: a long path, hash or line of the record scrolls in its own box, never the page (1,280 px)."""
    page_file, wordy = tmp_path / "r.html", tmp_path / "wordy.yaml"
    wordy.write_text(f"name: wordy\ndescription: {'a house rule, ' * 40}\nextends: official\nplugins: {{}}\n",
                     encoding="utf-8")
    record_of(capsys, "official", wordy, "--deals", 20, "--seed", 1, "--html", page_file)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(page_file.as_uri())
        page.evaluate("document.querySelectorAll('#provenance ~ details').forEach(d => d.open = true)")
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
        assert page.evaluate("document.querySelectorAll('#provenance ~ details pre').length") == 3  # 2 rulesets, all
    finally:
        page.close()


def test_a_failed_run_leaves_the_last_files_as_they_were(tmp_path, capsys, monkeypatch):
    rows = tmp_path / "d.csv"
    assert cli(capsys, "compare", "official", "texas", "--deals", 20, "--seed", 1, "--per-deal", rows)[0] == 0
    before = rows.read_bytes(), Path(f"{rows}.meta.json").read_bytes()

    def broken(*args, **kwargs):
        kwargs["on_rows"]([{"seed": 1, "deal": 0}])
        raise InputError("stopped")

    monkeypatch.setattr("skatcore.cli.compare.compare", broken)
    rc, _out, err = cli(capsys, "compare", "official", "texas", "--deals", 20, "--seed", 2, "--per-deal", rows)
    assert rc == 2 and "stopped" in err
    assert (rows.read_bytes(), Path(f"{rows}.meta.json").read_bytes()) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv", "d.csv.meta.json"]  # no .part left


# ---------------------------------------------------------------------------
# A record is untrusted input
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def good_record(tmp_path_factory):
    import contextlib
    import io

    folder = tmp_path_factory.mktemp("record")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["compare", "official", "texas", "--deals", "10", "--seed", "1", "--json"]) == 0
    return json.loads(buf.getvalue())["provenance"], folder


def write(folder: Path, doc, name="x.meta.json") -> Path:
    path = folder / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


def test_rows_asked_into_a_folder_are_refused_by_its_name(tmp_path, capsys):
    """``--per-deal`` naming a folder: refused before any deal, by the name
    given (it said ``d.csv.part`` after the run), nothing written."""
    (tmp_path / "d.csv").mkdir()
    rc, _out, err = cli(capsys, "compare", "official", "texas", "--deals", 2, "--per-deal", tmp_path / "d.csv")
    assert rc == 2 and "d.csv: --per-deal: a folder: expected a file to write" in err and ".part" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv"]


@pytest.mark.parametrize(("change", "where", "expected"), [
    (lambda d: d.update(format="skat-provenance/2"), "format", 'expected "skat-provenance/1"'),
    (lambda d: d.update(seed=-1), "seed", "expected an integer >= 0"),
    (lambda d: d.update(deals="many"), "deals", "expected an integer or null"),
    (lambda d: d["rulesets"][1].update(sha256="0" * 64), "rulesets[1].sha256", "expected the SHA-256 of this ruleset"),
    (lambda d: d["rulesets"][0].update(ref="../official.yaml"), "rulesets[0].ref", "expected a ruleset's name or an"),
    (lambda d: d["rulesets"][0].update(ref="no-such-ruleset"), "rulesets[0].ref", "unknown ruleset"),
    (lambda d: d.update(players=d["players"][:2]), "players", "expected"),
    (lambda d: d["players"][0].update(player="x" * 2000), "players[0].player", "expected"),
    (lambda d: d.update(games=[]), "games", "expected"),
])
def test_a_bad_record_is_one_line(good_record, capsys, change, where, expected):
    doc, folder = copy.deepcopy(good_record[0]), good_record[1]
    change(doc)
    path = write(folder, doc)
    rc, out, err = cli(capsys, "compare", "--replay", path)
    assert rc == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"skat: error: {path}: {where}: ") and expected in err, err


@pytest.mark.parametrize(("text", "name", "expected"), [
    ("[1, 2]", "x.meta.json", "expected a provenance record (a mapping"),
    ("{", "x.meta.json", "malformed JSON"),
    ("{}", "x.txt", "--replay: expected FILE.meta.json"),
    ("not parquet", "x.parquet", "not a readable Parquet file"),
])
def test_a_file_that_is_no_record_is_one_line(tmp_path, capsys, text, name, expected):
    path = write(tmp_path, text, name)
    rc, out, err = cli(capsys, "compare", "--replay", path)
    assert rc == 2 and out == "" and err.count("\n") == 1 and str(path) in err and expected in err, err


def test_what_the_record_sets_is_not_given_again(good_record, capsys):
    path = write(good_record[1], good_record[0])
    for extra in (["--seed", "3"], ["official"], ["--players", "random"], ["--deals", "5"]):
        rc, out, err = cli(capsys, "compare", "--replay", path, *extra)
        assert rc == 2 and out == "" and "does not go with --replay" in err, err
    rc, _out, err = cli(capsys, "compare", "official", "--deals", "5", "--strict")
    assert rc == 2 and "--strict goes with --replay" in err


def test_a_record_runs_no_code_it_names(good_record, tmp_path, capsys, monkeypatch):
    """A player ``module:attr`` is imported only with --trust; a ruleset's local code needs --trust as ever."""
    (tmp_path / "evil_bot.py").write_text(f"open({str(tmp_path / 'ran')!r}, 'w').close()\nBot = None\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    doc = copy.deepcopy(good_record[0])
    doc["players"][1]["player"] = "evil_bot:Bot"
    rc, out, err = cli(capsys, "compare", "--replay", write(tmp_path, doc))
    assert rc == 2 and "players[1]: player 'evil_bot:Bot' is code outside the registered players" in err
    assert not (tmp_path / "ran").exists()
    # a house rule with its own plugin file, recorded under --trust: its replay needs --trust again
    (tmp_path / "rule.py").write_text("class Plugin:\n    pass\n", encoding="utf-8")
    (tmp_path / "own.yaml").write_text("name: own\nextends: official\nplugins:\n  ./rule.py: {}\n", encoding="utf-8")
    _compiled.cache_clear()
    rows = tmp_path / "own.csv"
    rc, _out, err = cli(capsys, "--trust", "compare", "official", tmp_path / "own.yaml", "--deals", 10, "--per-deal", rows)
    assert rc == 0, err
    rc, out, err = cli(capsys, "compare", "--replay", f"{rows}.meta.json")
    assert rc == 2 and out == "" and "run with --trust" in err, err
    record = json.loads(Path(f"{rows}.meta.json").read_text(encoding="utf-8"))
    local = record["rulesets"][1]["plugins"][1]
    assert local["distribution"] is None and local["sha256"] == hashlib.sha256((tmp_path / "rule.py").read_bytes()).hexdigest()


def _mutations():
    leaf = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False),
                     st.text(max_size=30), st.just("x" * 5000))
    value = st.recursive(leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                                           max_size=3), max_leaves=6)
    return st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(["set", "delete"]), value), min_size=1, max_size=4)


def _paths(doc, prefix=()):
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*prefix, i))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_mutations())
def test_a_mutated_record_is_read_or_refused_in_one_line(good_record, mutations):
    """Whatever is changed where, reading a record either gives a checked one or one :class:`InputError`."""
    doc, folder = copy.deepcopy(good_record[0]), good_record[1]
    for pick, how, value in mutations:
        paths = [p for p in _paths(doc) if p]
        path = paths[pick % len(paths)]
        parent = doc
        for part in path[:-1]:
            parent = parent[part]
        if how == "delete" and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = value
    file = write(folder, doc, "m.meta.json")
    try:
        record, prefix = read_record(str(file))
    except InputError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(str(file))
        return
    assert prefix == "" and record["format"] == "skat-provenance/1"
    for rs in record["rulesets"]:  # what is read is what the checks promise
        assert rs["sha256"] == canonical_sha(rs["content"])
