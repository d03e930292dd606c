"""The per-deal file reads back as written (issue 36, item 3): every reading
block of docs/formats.md (and README.md, docs/commands.md) (pandas and polars; Parquet, CSV,
JSON Lines) is run on rows of every shipped ruleset (Ramsch, the two-player
forms, Bock and Kontra in pub), a ruleset with a settling declaration
(Schenken) and real games, and must give back every column of every row:
the null games too, which ``pd.read_csv`` with its default missing values
reads as missing."""

from __future__ import annotations

import ast
import contextlib
import os
import re
from pathlib import Path

import pytest
from test_docs import blocks  # tests/test_docs.py

from skatcore.errors import spreadsheet_cell
from skatcore.rules.compiler import get_rules
from skatcore.rules.ruleset import shipped_rulesets
from skatcore.sim.compare import compare
from skatcore.sim.export import COLUMN_TYPES, RowWriter, typed
from skatcore.sim.outcomes import row_keys

ROOT = Path(__file__).resolve().parents[2]
SCHENKEN = ROOT / "tests" / "vectors" / "rulesets" / "schenken.yaml"
SAMPLE = next((p / "shared/data/iss/iss-sample-25.sgf" for p in Path(__file__).parents
               if (p / "shared/data/iss/iss-sample-25.sgf").is_file()), None)
READ = re.compile(r'^(\w+) = \w+\.read_(\w+)\("([^"]+)"', re.M)  # deals = pd.read_csv("deals.csv", ...


def reading_blocks():
    """(where, code) of every python block of README.md, docs/formats.md and docs/commands.md that reads a
    per-deal file (the getting-started page's analysis, which needs its own comparison, runs in tests/test_docs.py)."""
    out = []
    for page in (ROOT / "README.md", ROOT / "docs" / "formats.md", ROOT / "docs" / "commands.md"):
        for lang, body, line, _ in blocks(page):
            if lang == "python" and READ.search(body):
                out.append(pytest.param(body, id=f"{page.name}:{line}"))
    return out


def _rows(names, deals, seed, players=("heuristic",) * 3):
    rules = [get_rules(str(n)) for n in names]
    got: list[dict] = []
    compare([str(n) for n in names], deals, seed, players, on_rows=got.extend)
    return row_keys(rules), got


def _games(tmp):
    """Real games: the ISS sample (the server's score, the players' names) and a record that names nobody."""
    from skatcore.sim.games import rescore

    record = tmp / "nameless.yaml"
    text = (ROOT / "examples" / "overbid-clubs-hand.yaml").read_text(encoding="utf-8")
    record.write_text(text.replace("players: [Anna, Bernard, Clara]\n", ""), encoding="utf-8")
    paths = [str(record), *([str(SAMPLE)] if SAMPLE else [])]
    names = ["official", "pub", "ramsch"]
    got: list[dict] = []
    rescore(names, paths, 1, on_rows=got.extend)
    return row_keys([get_rules(n) for n in names]), got


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Three sets of rows, each written as deals.parquet, deals.csv, deals.jsonl (and pub.parquet, the README's name)."""
    tmp = tmp_path_factory.mktemp("per-deal")
    everyone = sorted(shipped_rulesets(), key=lambda n: n != "official")
    sets = {"shipped": _rows(everyone, 72, 3),
            "schenken": _rows(["official", SCHENKEN], 150, 4, ("random",) * 3),
            "games": _games(tmp)}
    out = {}
    for name, (columns, rows) in sets.items():
        folder = tmp / name
        folder.mkdir()
        for file in ("deals.parquet", "deals.csv", "deals.jsonl", "pub.parquet"):
            writer = RowWriter(str(folder / file), columns)
            writer.write(rows)
            writer.close()
        out[name] = (folder, columns, [{k: typed(k, r.get(k)) for k in columns} for r in rows])
    return out


def test_the_rows_cover_what_the_format_describes(written):
    """Null games, every kind of missing value, the settling column with its words, the server's scores."""
    _folder, columns, rows = written["shipped"]
    assert {r["ruleset"] for r in rows} == set(shipped_rulesets())
    games = {r["game"] for r in rows}
    assert {"null", "ramsch", "passed", "grand", "clubs"} <= games
    for key in ("declarer", "bid", "won", "value", "score", "declarer_points", "seed"):
        assert any(r[key] is None for r in rows) or key == "seed", key
    nulls = [r for r in rows if r["game"] == "null"]
    assert nulls and all(r["declarer_points"] is None and r["won"] is not None for r in nulls)
    assert {r["sheet_factor"] for r in rows} >= {1, 2} and any(r["ramsch_round"] for r in rows)
    assert any(r["calls"] for r in rows) and any(not r["calls"] for r in rows)
    _folder, columns, rows = written["schenken"]
    assert "schenken" in columns and {"accepted", "refused", None} <= {r["schenken"] for r in rows}
    _folder, columns, rows = written["games"]
    assert any(r["seed"] is None for r in rows) and any(r["forehand_player"] == "" for r in rows)
    if SAMPLE:
        assert any(r["server_score"] is not None for r in rows)


def _frame_rows(frame) -> tuple[list[str], list[dict]]:
    """A pandas or polars DataFrame as (columns, rows), missing values as None."""
    if hasattr(frame, "to_dicts"):  # polars
        return list(frame.columns), frame.to_dicts()
    import pandas as pd

    return list(frame.columns), [{k: None if v is pd.NA or v is None else v for k, v in r.items()}
                                 for r in frame.to_dict("records")]


def _as_csv(rows: list[dict]) -> list[dict]:
    """What a CSV keeps (docs/formats.md#per-deal-rows): a text cell as :func:`spreadsheet_cell` wrote it,
    empty text missing (but ``calls``: no call)."""
    def cell(k, v):
        if COLUMN_TYPES.get(k, str) is not str or v is None:
            return v
        return spreadsheet_cell(v) or (v if k == "calls" else None)
    return [{k: cell(k, v) for k, v in r.items()} for r in rows]


@pytest.mark.parametrize("code", reading_blocks())
@pytest.mark.parametrize("kind", ["shipped", "schenken", "games"])
def test_the_docs_reading_code_gives_back_every_column(written, code, kind):
    """Each frame the block reads has the file's columns, in order, and every value with its type
    (an integer as ``int``, never ``18.0``; a boolean as ``bool``; a text as ``str``) or None where
    none was written."""
    folder, columns, rows = written[kind]
    reads = READ.findall(code)
    assert reads
    ns: dict = {}
    with contextlib.chdir(folder):
        exec(compile(code, "<docs block>", "exec"), ns)  # the documented code, as a reader runs it
    for var, _how, file in reads:
        got_columns, got = _frame_rows(ns[var])
        assert got_columns == list(columns), (var, file)
        want = _as_csv(rows) if file.endswith(".csv") else rows
        assert len(got) == len(want)
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            bad = {k: (w[k], g[k]) for k in columns if g[k] != w[k] or type(g[k]) is not type(w[k])}
            assert not bad, (file, i, bad)


def test_every_format_and_library_has_its_block():
    """docs/formats.md reads each format in pandas and in polars; where it names the columns' types, every one."""
    codes = [p.values[0] for p in reading_blocks()]
    found = {(("polars" if "import polars" in c else "pandas"), os.path.splitext(f)[1])
             for c in codes for _v, _how, f in READ.findall(c)}
    assert found == {(lib, ext) for lib in ("pandas", "polars") for ext in (".parquet", ".csv", ".jsonl")}
    int_cols = {k for k, t in COLUMN_TYPES.items() if t is int}
    bool_cols = {k for k, t in COLUMN_TYPES.items() if t is bool}
    named = 0
    for code in codes:
        lists = {name: ast.literal_eval(body) for name, body in re.findall(r"^(INT|BOOL) = (\[.*?\])", code, re.S | re.M)}
        if lists:
            named += 1
            assert set(lists["INT"]) == int_cols and set(lists["BOOL"]) == bool_cols
    assert named == 4  # CSV and JSON Lines in pandas and polars


def test_the_old_recipe_lost_the_null_games(written):
    """What the README said before (issue 36, R2): the null games read back as missing."""
    pd = pytest.importorskip("pandas")
    folder, _columns, rows = written["shipped"]
    old = pd.read_csv(folder / "deals.csv", dtype_backend="numpy_nullable")
    nulls = sum(r["game"] == "null" for r in rows)
    assert nulls and (old["game"] == "null").sum() == 0 and old["game"].isna().sum() == nulls
