"""ISS game records replayed through Deal must score what the server scored.

The sample holds 25 real International Skat Server games with the server's
own results (data/iss/SOURCES.md): 22 declared games, 2 all-pass deals and
one game abandoned during the bidding.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from skatcore import get_rules
from skatcore.cli.main import main
from skatcore.errors import InputError
from skatcore.records.iss import parse_sgf, replay, score_record, score_sgf_file

# the shared data sit beside the repository (or beside the folder of its worktrees)
SAMPLE = next((p / "shared/data/iss/iss-sample-25.sgf" for p in Path(__file__).parents
               if (p / "shared/data/iss/iss-sample-25.sgf").is_file()), Path("shared/data/iss/iss-sample-25.sgf"))
if not SAMPLE.is_file():
    pytest.skip(f"ISS sample not found at {SAMPLE}", allow_module_level=True)

LINES = [(n, line) for n, line in enumerate(SAMPLE.read_text("utf-8").splitlines(), start=1) if line.strip()]
IDS = [m.group(1) if (m := re.search(r"ID\[([^\]]*)\]", line)) else f"line{n}" for n, line in LINES]
BY_ID = dict(zip(IDS, (line for _, line in LINES), strict=True))
NOT_SCORABLE = {"30": "player 2 (rearhand) left during bidding"}


@pytest.fixture(scope="module")
def rules():
    return get_rules("official")


def _why(record, explanation: str) -> str:
    return f"\n  ours: {explanation}\n  ISS:  R[{record.result_text}]"


@pytest.mark.parametrize("line", [line for _, line in LINES], ids=[f"iss-{i}" for i in IDS])
def test_score_matches_server(line, rules):
    record = parse_sgf(line)
    out, explanation = score_record(record, rules)
    assert out["id"] == record.id
    if record.id in NOT_SCORABLE:
        assert out == {"id": record.id, "scorable": False, "reason": NOT_SCORABLE[record.id]}, _why(record, explanation)
    elif record.outcome == "passed":
        assert (out["game"], out["score"]) == ("passed", 0), _why(record, explanation)
    else:
        assert out["score"] == record.v, _why(record, explanation)
        assert out["won"] == record.won and out["overbid"] == record.overbid, _why(record, explanation)


@pytest.mark.parametrize("line", [BY_ID[i] for i in IDS if i not in NOT_SCORABLE and "R[passed]" not in BY_ID[i]],
                         ids=[f"iss-{i}" for i in IDS if i not in NOT_SCORABLE and "R[passed]" not in BY_ID[i]])
def test_facts_match_server(line, rules):
    """Card points, tricks, matadors, schneider and schwarz agree with the
    server too, which pins down what a resignation or timeout hands over."""
    record = parse_sgf(line)
    facts = replay(record, rules).facts()
    ours = {"d": facts.declarer, "m": facts.matadors, "p": facts.declarer_points, "t": facts.declarer_tricks}
    theirs = {k: getattr(record, k) for k in ours}
    if facts.contract.family != "null":  # ISS writes s:0 z:0 for null
        ours |= {"s": int(facts.defenders_schneider or facts.declarer_schneider),
                 "z": int(facts.defenders_schwarz or facts.declarer_schwarz)}
        theirs |= {"s": record.s, "z": record.z}
    assert ours == theirs, f"\n  ISS:  R[{record.result_text}]"


def test_sample_has_what_sources_md_says(rules):
    results = score_sgf_file(str(SAMPLE), rules)
    assert len(results) == 25
    declared = [out for out, _ in results if out.get("scorable", True) and out["game"] != "passed"]
    assert len(declared) == 22
    assert sum(out.get("game") == "passed" for out, _ in results) == 2
    assert [out["id"] for out, _ in results if out.get("scorable") is False] == ["30"]


def test_parse_result_fields():
    r = parse_sgf(BY_ID["541932"])
    assert (r.id, r.players) == ("541932", ("zoot", "kermit", "foo"))
    assert len(r.hands) == 3 and all(len(h) == 10 for h in r.hands) and len(r.skat) == 2
    assert str(r.moves[0]) == "1 p"
    assert (r.d, r.outcome, r.v, r.m, r.p, r.t, r.s, r.z, r.overbid, r.l, r.to, r.r) == \
           (2, "loss", -54, -2, 59, 4, 0, 0, False, -1, -1, 0)
    assert r.penalties == (0, 0, 0)
    old = parse_sgf(BY_ID["727"])  # 2007: no r: token
    assert old.r is None and old.won is True
    passed = parse_sgf(BY_ID["756788"])
    assert (passed.outcome, passed.d, passed.v) == ("passed", -1, None)


def test_declarer_timing_out_concedes(rules):
    # 136415 with the declarer (middlehand) timing out instead of rearhand
    record = parse_sgf(BY_ID["136415"].replace("w TI.2", "w TI.1"))
    out, explanation = score_record(record, rules)
    assert out["won"] is False and out["score"] < 0, explanation
    assert "middlehand timed out: the declarer concedes" in explanation


# -- bad input: one line naming the file, the line and the move ---------------------


def _sgf(tmp_path, *lines: str) -> str:
    path = tmp_path / "games.sgf"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return str(path)


def test_malformed_line_names_file_and_line(tmp_path, rules):
    path = _sgf(tmp_path, BY_ID["541932"], "this is not a record")
    with pytest.raises(InputError) as err:
        score_sgf_file(path, rules)
    assert str(err.value).startswith(f"{path}: line 2: not an ISS game record")


def test_illegal_card_names_line_and_move(tmp_path, rules):
    # middlehand holds S9 S7 SQ, so cannot trump the spade lead with DJ
    bad = BY_ID["541932"].replace("0 SA 1 S7 2 DA", "0 SA 1 DJ 2 DA")
    path = _sgf(tmp_path, BY_ID["684159"], bad)
    with pytest.raises(InputError) as err:
        score_sgf_file(path, rules)
    msg = str(err.value)
    assert msg.startswith(f"{path}: line 2, MV move 9 `1 DJ`: DJ does not follow"), msg
    assert "middlehand holds" in msg


@pytest.mark.parametrize("change, expected", [
    (("1 S7", "1 XX"), "MV move 9 `1 XX`: unknown move 'XX'"),
    (("0 SA 1 S7", "1 S7 0 SA"), "MV move 8 `1 S7`: player 1 (middlehand) moves, but it is forehand to play"),
    (("2 18 0 p", "2 19 0 p"), "MV move 3 `2 19`: 19 is not a game value"),
    (("w H8.CK", "w H8.CQ"), "MV move 6 `w H8.CQ`: the skat shown (H8 CQ) is not the skat dealt"),
    (("1 SQ 0 SK 1 DK 2 HT ]", "1 SQ ]"), "MV: the record ends before the deal is over"),
    (("w HA.SK.", "w HX.SK."), "'HX' in the deal (MV move 1) is not an ISS card"),
    ((" l:-1 ", " l:x "), "R[...]: 'l:x' is not a number"),
    (("R[d:2", "Q[d:2"), "the record has no R[...]"),
])
def test_bad_record(tmp_path, rules, change, expected):
    line = BY_ID["541932"]
    assert change[0] in line
    path = _sgf(tmp_path, line.replace(*change))
    with pytest.raises(InputError) as err:
        score_sgf_file(path, rules)
    assert str(err.value).startswith(f"{path}: line 1"), str(err.value)
    assert expected in str(err.value)


def test_record_ending_before_the_declaration(tmp_path, rules):
    line = BY_ID["541932"]
    cut = line[:line.index(" w H8.CK")] + line[line.index(" ]R["):]  # ends after rearhand's `s`
    with pytest.raises(InputError, match=r"line 1, MV: the record ends before the deal is over \(rearhand to discard"):
        score_sgf_file(_sgf(tmp_path, cut), rules)


def test_cli_scores_the_sample(capsys):
    assert main(["score", str(SAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "541932: diamonds by rearhand, bid 18" in out
    assert "30: not scorable: player 2 (rearhand) left during bidding" in out


def test_cli_bad_sgf_is_one_line_exit_2(tmp_path, capsys):
    path = _sgf(tmp_path, BY_ID["541932"].replace("0 SA 1 S7 2 DA", "0 SA 1 DJ 2 DA"))
    assert main(["score", path]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "line 1, MV move 9" in captured.err
