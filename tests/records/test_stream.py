"""skat score streams: ISS early ends (A8), the server's R[] checked against
the replay, a bad record is one error line and the rest are still scored,
JSON Lines input."""

from __future__ import annotations

import json
from pathlib import Path

from skatcore import get_rules
from skatcore.cards import parse_card
from skatcore.cli.main import main
from skatcore.engine.deal import PLAYS
from skatcore.records.iss import parse_sgf, replay

HERE = Path(__file__).parent
GAME_13577 = HERE / "iss-13577.sgf"  # a real ISS record (moreshiny/iss_verify test data): clubs ouvert lost at trick 1
GRAND = {"format": "skat-deal/1", "declarer": "forehand", "bid": 18, "game": {"type": "grand"},
         "outcome": {"declarer_points": 70, "matadors": {"with": 1}}}


def test_iss_early_end_is_complete_and_scored_as_the_server_did(capsys):
    record = parse_sgf(GAME_13577.read_text("utf-8"))
    deal = replay(record, get_rules("official"))
    assert deal.done and len([t for t in deal.tricks if t.winner is not None]) == 1
    facts = deal.facts()
    assert (facts.declarer_points, facts.declarer_tricks, facts.matadors) == (record.p, record.t, record.m) == (13, 0, 1)
    assert main(["score", "--json", str(GAME_13577)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["score"] == record.v == -192 and "server_mismatch" not in out


def test_a_deal_is_decided_when_defenders_take_a_trick_against_announced_schwarz():
    """Play may go on (A8: "may stop"); the deal only says it is decided."""
    from skatcore.engine.deal import PLAY_HAND, Deal, Declare
    from skatcore.model import Declaration

    record = parse_sgf(GAME_13577.read_text("utf-8"))
    rules = get_rules("official")
    deal = Deal(rules, [list(h) for h in record.hands], list(record.skat))
    deal.set_declarer(1, 18)
    deal.apply(PLAY_HAND)
    deal.apply(Declare(Declaration("clubs", True, True, True, True)))
    for card in ("SA", "S8"):
        deal.apply(PLAYS[parse_card(card)])
        assert not deal.decided  # mid-trick
    deal.apply(PLAYS[parse_card("SK")])  # forehand's SA takes it
    assert deal.decided and not deal.done
    deal.end_decided()
    assert deal.done and deal.result().score == -192


def test_a_server_result_that_contradicts_the_replay_is_reported(tmp_path, capsys):
    tampered = tmp_path / "tampered.sgf"
    tampered.write_text(GAME_13577.read_text("utf-8").replace("v:-192", "v:-96"), encoding="utf-8")
    assert main(["score", str(tampered)]) == 2
    out, err = capsys.readouterr()
    assert "-192" in out  # still scored
    assert err == f"skat: error: {tampered}: line 1: game 13577: the server's R[] differs from the replay: v:-96 (ours -192)\n"


def test_bad_records_are_one_line_each_and_the_rest_are_scored(tmp_path, capsys):
    sgf = tmp_path / "many.sgf"
    good = GAME_13577.read_text("utf-8").strip()
    sgf.write_text("\n".join([good, "(;GM[Skat] broken", "", good]) + "\n", encoding="utf-8")
    jsonl = tmp_path / "deals.jsonl"
    jsonl.write_text("\n".join([json.dumps(GRAND), "{bad", json.dumps({**GRAND, "bid": 17}), json.dumps(GRAND)]),
                     encoding="utf-8")
    assert main(["score", str(sgf), str(jsonl)]) == 2
    out, err = capsys.readouterr()
    assert out.count("13577: clubs") == 2 and "deals.jsonl:1: grand" in out and "deals.jsonl:4: grand" in out
    errors = err.splitlines()
    assert len(errors) == 3, err
    assert errors[0].startswith(f"skat: error: {sgf}: line 2: ")
    assert errors[1].startswith(f"skat: error: {jsonl}: line 2: malformed JSON")
    assert errors[2].startswith(f"skat: error: {jsonl}: line 3, bid: 17 is not a game value")
    assert main(["score", "--json", str(jsonl)]) == 2
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["score"] for line in lines] == [48, 48]  # JSON Lines out


def test_a_bad_file_among_good_ones(tmp_path, capsys):
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yaml"
    good.write_text(json.dumps(GRAND), encoding="utf-8")
    bad.write_text("format: skat-deal/1\nbid: x\n", encoding="utf-8")
    assert main(["score", str(bad), str(good)]) == 2
    out, err = capsys.readouterr()
    assert "+48" in out and err.count("\n") == 1 and "bad.yaml: bid: " in err


def test_results_stream_one_record_at_a_time(tmp_path):
    """A .jsonl file fed through a pipe: the first result comes out while the
    second line is not written yet (a reader that read the whole file first
    would wait for the writer to close; the writer gives up after 20 s)."""
    import os
    import threading

    from skatcore.records.stream import score_files

    fifo = tmp_path / "deals.jsonl"
    os.mkfifo(fifo)
    got_first, in_time = threading.Event(), []

    def writer():
        with open(fifo, "w", encoding="utf-8") as f:
            f.write(json.dumps(GRAND) + "\n")
            f.flush()
            in_time.append(got_first.wait(20))
            f.write(json.dumps({**GRAND, "bid": 17}) + "\n")

    thread = threading.Thread(target=writer)
    thread.start()
    results = score_files([str(fifo)])
    first = next(results)
    got_first.set()
    rest = list(results)
    thread.join()
    assert first[0]["score"] == 48 and in_time == [True]
    assert len(rest) == 1 and "line 2, bid: 17 is not a game value" in str(rest[0])
