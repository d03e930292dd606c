"""The lean ISS path (parser and compiled replay) gives exactly what the
replay through Deal gives: on every real game of the shared sample, on
random games written as ISS records, and on thousands of mutated and broken
games, where it must hand the game to Deal (same message) or agree with it."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from skatcore import get_rules
from skatcore.cards import CARD_NAMES
from skatcore.records import iss_fast, iss_kernel, stream
from skatcore.records.iss import score_line
from skatcore.records.stream import score_output
from skatcore.sim.speed import declarer_deals, iss_line

HERE = Path(__file__).parent
lean = iss_fast.score_lines
SAMPLE = next((p / "shared/data/iss/iss-sample-25.sgf" for p in HERE.parents
               if (p / "shared/data/iss/iss-sample-25.sgf").is_file()), None)
REAL = ([line for line in SAMPLE.read_text("utf-8").splitlines() if line.strip()] if SAMPLE else []) \
    + [(HERE / "iss-13577.sgf").read_text("utf-8").strip()]
# rulesets the lean path plays (the compiled engine's, thrown in when all pass)
LEAN = ["official", "pre1999", "tournament", "danish", "danish-aarhus"]


@pytest.fixture(scope="module")
def random_games():
    return [iss_line(deal, k) for k, deal in enumerate(declarer_deals(get_rules("official"), 150))]


def _text(item) -> str:
    return str(item) if isinstance(item, Exception) else json.dumps(item, ensure_ascii=False)


def _lean_statuses(lines, rules) -> list[int]:
    """Per line: the kernel's status (OK, FALLBACK), or -1 where the parser handed it on."""
    t = iss_fast._tables(rules)
    parsed = [iss_fast._parse(line) for line in lines]
    status = iter(iss_fast._replay([p for p in parsed if p], t)["status"])
    return [next(status) if p else -1 for p in parsed]


def assert_same(lines, rules):
    fast = iss_fast.score_lines(lines, rules)
    for line, got, want in zip(lines, fast, (score_line(line, rules) for line in lines), strict=True):
        assert _text(got) == _text(want), line


@pytest.mark.parametrize("ruleset", LEAN)
def test_real_and_random_games_score_as_through_deal(ruleset, random_games):
    rules = get_rules(ruleset)
    assert_same(REAL + random_games, rules)


def test_the_lean_path_takes_every_real_game():
    status = dict(zip(REAL, _lean_statuses(REAL, get_rules("official")), strict=True))
    # the game abandoned during the bidding is not scorable, and the lean path says so (as Deal would)
    assert {line: s for line, s in status.items() if s != iss_kernel.OK} == \
        {line: iss_kernel.GONE_BIDDING for line in REAL if "ID[30]" in line}


def test_random_games_take_the_lean_path(random_games):
    assert set(_lean_statuses(random_games, get_rules("official"))) == {iss_kernel.OK}


def test_rulesets_it_does_not_model_go_through_deal():
    for ruleset in ("pub", "ramsch", "texas", "tournee"):
        assert iss_fast._tables(get_rules(ruleset)) is None
        assert_same(REAL[:5], get_rules(ruleset))


SPECIALS = [("w", "TI.1"), ("w", "LE.0"), ("w", "TI.2"), ("1", "RE"), ("2", "RE"), ("0", "RE"), ("0", "SC"),
            ("2", "SC.CJ.SJ"), ("1", "??"), ("1", "18"), ("0", "y"), ("2", "p"), ("2", "s"), ("1", "GH"),
            ("0", "NO"), ("2", "D.ST.H8"), ("w", "??.??"), ("w", "H8.CK"), ("1", "S7.S8"), ("w", "CJ"),
            ("w", "RE"), ("1", "TI.1"), ("0", "264"), ("0", "018"), ("2", "GOHSZ"), ("1", "CZ.C7"), ("0", "C6"),
            ("3", "p"), ("3", "TI.1"), ("1", "a\tb"), ("1", "\u00e9")]


def _mutants(line: str, rng: random.Random, k: int) -> list[str]:
    head, rest = line.split("MV[", 1)
    mv, tail = rest.split("]", 1)
    words = mv.split()
    out = []
    for _ in range(k):
        w = list(words)
        kind = rng.randrange(9)
        i = rng.randrange(2, len(w)) if len(w) > 2 else 2
        pair = i - i % 2
        if kind == 0 and len(w) > 2:
            del w[pair:pair + 2]
        elif kind == 1 and len(w) > 4:
            j = rng.randrange(2, len(w)) // 2 * 2
            w[pair:pair + 2], w[j:j + 2] = w[j:j + 2], w[pair:pair + 2]
        elif kind == 2 and len(w) > 2:
            w[pair + 1] = rng.choice(CARD_NAMES[:32])
        elif kind == 3 and len(w) > 2:
            w[pair] = rng.choice("w012")
        elif kind == 4:
            w[pair:pair] = list(rng.choice(SPECIALS))
        elif kind == 5:
            w = w[:pair]
        elif kind == 6 and len(w) > 2:
            w[pair:pair] = w[pair:pair + 2]
        elif kind == 7:  # two cards of the deal change places: play goes wrong somewhere, or not
            deck = w[1].split(".")
            a, b = rng.sample(range(32), 2)
            deck[a], deck[b] = deck[b], deck[a]
            w[1] = ".".join(deck)
        else:
            w[pair + 1 if pair + 1 < len(w) else 1] = rng.choice([t for _, t in SPECIALS])
        out.append(f"{head}MV[{' '.join(w)}]{tail}")
    return out


@pytest.mark.skipif(SAMPLE is None, reason="its hand-made mutations edit the shared ISS sample's games (not beside this clone)")
def test_mutated_games_score_or_fail_exactly_as_through_deal(random_games):
    rng = random.Random(11)
    lines = [m for line in REAL + random_games[:40] for m in _mutants(line, rng, 25)]
    lines += [REAL[0].replace("(;", "( ;"), REAL[0].replace("ID[", "ID[["), REAL[0].replace("]P1[", "] P1["),
              REAL[0].replace("R[", "X[a]]R["), REAL[0].replace("v:-54", "v:-5"), REAL[0].replace("MV[w", "MV[ w"),
              REAL[0].replace(" 1 S7 ", "  1 S7 "), REAL[0].replace(" 1 S7 ", "\t1 S7 "), REAL[0].replace("zoot", "z\u00f6\u00f6t"),
              REAL[0].replace("0 SA", "0 SA\u00a0"), REAL[0].replace("HA.SK", "HA.S6"), REAL[0] + REAL[1]]
    for ruleset in ("official", "danish"):
        rules = get_rules(ruleset)
        assert_same(lines, rules)
    status = _lean_statuses(lines, get_rules("official"))
    assert status.count(iss_kernel.OK) > 150 and status.count(iss_kernel.FALLBACK) > 500 and status.count(-1) >= 5
    assert status.count(iss_kernel.GONE_BIDDING) > 5 and status.count(iss_kernel.GONE_UNDECLARED) > 0


@pytest.mark.parametrize("fast_bytes", [0, stream.FAST_ISS_BYTES])
def test_skat_score_streams_in_batches_with_line_numbers(tmp_path, random_games, monkeypatch, fast_bytes):
    """A big archive (here: any) goes through the lean path, a small one through Deal; the same output."""
    monkeypatch.setattr(stream, "ISS_BATCH", 50)
    monkeypatch.setattr(stream, "FAST_ISS_BYTES", fast_bytes)
    batches = []
    monkeypatch.setattr(iss_fast, "score_lines", lambda lines, rules: batches.append(len(lines)) or lean(lines, rules))
    lines = [*random_games[:60], "", "not a record", REAL[0].replace("v:-54", "v:-5"), *random_games[:3]]
    path = tmp_path / "games.sgf"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    got = [str(item) for item in score_output([str(path)], as_json=True)]
    rules = get_rules("official")
    want = []
    for n, line in enumerate(lines, start=1):
        if line:
            item = score_line(line, rules)
            if isinstance(item, Exception):
                item.path = f"line {n}, {item.path}" if item.path else f"line {n}"
                item.source = str(path)
                want.append(str(item))
                continue
            want.append(json.dumps(item[0], ensure_ascii=False))
            if item[0].get("server_mismatch"):
                want.append(f"{path}: line {n}: game {item[0]['id']}: the server's R[] differs from the replay: "
                            + "; ".join(item[0]["server_mismatch"]))
    assert got == want
    assert batches == ([50, 15] if fast_bytes == 0 else [])


def test_what_was_read_before_a_bad_byte_is_scored(tmp_path, random_games, monkeypatch):
    path = tmp_path / "games.sgf"
    path.write_bytes("\n".join(random_games * 3).encode() + b"\n\xff\n")
    monkeypatch.setattr(stream, "FAST_ISS_BYTES", 0)
    one_by_one = [str(item) for item in score_output([str(path)], as_json=True)]
    monkeypatch.setattr(stream, "ISS_BATCH", 1)
    in_batches = [str(item) for item in score_output([str(path)], as_json=True)]
    assert in_batches == one_by_one and len(one_by_one) > 300 and "not UTF-8" in one_by_one[-1]


def test_lean_path_runs_without_jit():
    """NUMBA_DISABLE_JIT=1 runs the same kernel as plain Python."""
    code = ("import json, sys; from pathlib import Path; from skatcore import get_rules; "
            "from skatcore.records import iss_fast as F; rules = get_rules('official'); "
            "lines = [x for x in Path(sys.argv[1]).read_text().splitlines() if x.strip()]; "
            "status = F._replay([F._parse(x) for x in lines], F._tables(rules))['status']; "
            "print(json.dumps([status, [x[0] for x in F.score_lines(lines, rules)]]))")
    path = HERE / "iss-13577.sgf"
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    plain = subprocess.run([sys.executable, "-c", code, str(path)], env=env, capture_output=True, text=True, check=True)
    want = score_line(path.read_text("utf-8").strip(), get_rules("official"))[0]
    assert json.loads(plain.stdout) == [[iss_kernel.OK], [want]]
