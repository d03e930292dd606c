"""``skat solve``: double-dummy analysis of recorded deals."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
import yaml

from skatcore.cards import CARD_NAMES, cards_in
from skatcore.cli.main import main

SAMPLE = next((p / "shared/data/iss/iss-sample-25.sgf" for p in Path(__file__).parents
               if (p / "shared/data/iss/iss-sample-25.sgf").is_file()), None)

NULL_RECORD = """\
format: skat-deal/1
ruleset: official
hands:
  forehand:   [{c1}, C8, C9, S7, S8, S9, H7, H8, H9, D7]
  middlehand: [{c2}, CK, CQ, CJ, CT, SA, SK, SQ, SJ, ST]
  rearhand:   [HA, HK, HQ, HJ, HT, DA, DK, DQ, DJ, DT]
skat: [D9, D8]
bidding: [pass, pass, 18]
game:
  type: null
  hand: true
play: [S7, SA, HA]
outcome:
  declarer_tricks: 0
"""


def solve(capsys, *argv):
    rc = main(["solve", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_null_with_the_lowest_cards_is_made(tmp_path, capsys):
    """Forehand holds 7-8-9 of clubs, spades and hearts and the D7: whatever
    is led, he has a card under it, so no trick can be forced on him."""
    f = tmp_path / "null.yaml"
    f.write_text(NULL_RECORD.format(c1="C7", c2="CA"))
    rc, out, _ = solve(capsys, str(f), "--json")
    got = json.loads(out)
    assert rc == 0 and got["solved"] and got["goal"] == "no_trick"
    assert got["start"] == 0 and got["changes"] == [] and got["played"] == 0
    assert got["tricks"] == [{"trick": 1, "leader": "forehand", "cards": ["S7", "SA", "HA"], "winner": "middlehand", "value": 0}]


def test_null_lost_by_the_opening_lead(tmp_path, capsys):
    """Swap his C7 for middlehand's CA.  Leading D7 makes the null: rearhand
    takes it and keeps the lead (middlehand is void in hearts and diamonds,
    forehand ducks and then throws his clubs away).  Any heart does the same:
    rearhand holds the five hearts above H9.  Leading S7 loses it: middlehand
    takes the spade and leads C7, which forehand must take (C8, C9 and CA are
    all above it); a club lead loses too: middlehand ducks with C7."""
    f = tmp_path / "null.yaml"
    f.write_text(NULL_RECORD.format(c1="CA", c2="C7"))
    rc, out, _ = solve(capsys, str(f))
    assert rc == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"{f}: null by forehand: played to trick 1: 1 trick to take (loses), "
                               "double-dummy 0 tricks to take (wins); biggest loss 1: forehand ♠7 at trick 1")
    assert lines[2].split() == ["start", "0", "wins"]
    assert lines[3].split() == ["trick", "1", "1", "♠7", "♠A", "♥A", "->", "middlehand", "forehand", "♠7", "gave", "away", "1",
                                "(♥9", "or", "♥8", "or", "♥7", "kept", "0)"]
    rc, out, _ = solve(capsys, str(f), "--json")
    change = json.loads(out)["changes"][0]
    assert change["better"] == ["H9", "H8", "H7", "D7"] and change["player"] is None


def test_names_from_the_record_and_the_summary(tmp_path, capsys):
    """`players` with `dealer: 2` (Cem deals): Ann sits at forehand, Ben at
    middlehand, Cem at rearhand; the summary and every line name them."""
    f = tmp_path / "null.yaml"
    f.write_text(NULL_RECORD.format(c1="CA", c2="C7").replace("ruleset: official\n",
                                                             "ruleset: official\nplayers: [Ann, Ben, Cem]\ndealer: 2\n"))
    rc, out, _ = solve(capsys, str(f), "--json")
    got = json.loads(out)
    assert rc == 0 and got["players"] == {"forehand": "Ann", "middlehand": "Ben", "rearhand": "Cem"}
    assert got["summary"] == {"result": 1, "result_wins": False, "double_dummy": 0, "double_dummy_wins": True,
                              "biggest_loss": got["changes"][0]}
    assert got["changes"][0]["player"] == "Ann" and got["changes"][0]["gave_away"] == 1
    rc, out, _ = solve(capsys, str(f))
    assert "null by Ann (forehand):" in out and "biggest loss 1: Ann (forehand) ♠7 at trick 1" in out
    assert "-> Ben (middlehand)   Ann (forehand) ♠7 gave away 1" in out


def test_a_two_player_record_names_its_two_players(capsys, tmp_path):
    """Skat en deux (tests/records/skat-en-deux-grand.yaml, Ben deals): Ann at
    forehand holds the four jacks and the ace and ten of clubs, spades and
    hearts and leads every trick: 120 whatever anybody plays.  Strohmann's
    straw man plays its first card from a pile: not for the solver."""
    record = Path(__file__).parents[1] / "records" / "skat-en-deux-grand.yaml"
    rc, out, _ = solve(capsys, str(record))
    assert rc == 0
    assert out.splitlines()[0] == (f"{record}: grand by Ann (forehand): played 120 (wins), double-dummy 120 (wins); "
                                   "no card changed the value")
    assert "-> Ann (forehand)" in out and "Ben (rearhand)" not in out
    first = yaml.safe_load((record.parents[1] / "vectors" / "strohmann.yaml").read_text(encoding="utf-8"))[0]
    straw = tmp_path / "straw.yaml"
    straw.write_text(yaml.safe_dump({"format": "skat-deal/1", "ruleset": "strohmann",
                                     **{k: first[k] for k in ("hands", "skat", "aside", "bidding", "game", "play")}}))
    rc, out, err = solve(capsys, str(straw))
    assert rc == 2 and out == ""  # a deal it cannot solve is no result: one line, the reason (issue 36)
    assert err == f"skat: error: {straw}: not solved: cards in a pile or in stacks, or tricks of two: the " \
                  "double-dummy solver plays three hands whose cards may all be played\n"


def test_plain_letters_where_the_output_cannot_show_suit_symbols():
    from skatcore.bots.analysis import card_text
    from skatcore.cli.play_text import can_show_symbols as symbols

    assert symbols(io.TextIOWrapper(io.BytesIO(), encoding="latin-1")) is False
    assert symbols(io.TextIOWrapper(io.BytesIO(), encoding="utf-8")) is True
    assert [card_text(c, True) for c in ("SA", "HT", "D7")] == ["♠A", "♥10", "♦7"]
    assert [card_text(c, False) for c in ("SA", "HT", "D7")] == ["SA", "HT", "D7"]


def test_a_progress_bar_only_once_a_file_took_over_a_second():
    """Ten games: none shown while the clock stays under a second, then
    a bar on the terminal until the last game, and none for a single game."""
    from rich.console import Console
    from rich.progress import Progress as Bar

    from skatcore.cli.solve import Progress

    screen = io.StringIO()
    now = [0.0]

    def bar(total, label):
        return Bar(console=Console(file=screen, force_terminal=True, width=80), transient=False)

    progress = Progress(10, "games solved", clock=lambda: now[0], bar=bar)
    for _ in range(3):
        progress.advance()
    assert progress.bar is None and screen.getvalue() == ""
    now[0] = 1.5
    for _ in range(7):
        progress.advance()
    progress.close()
    assert progress.bar is not None and "games solved" in screen.getvalue()
    one = Progress(1, "games solved", clock=iter([0.0, 5.0]).__next__, bar=bar)
    one.advance()
    assert one.bar is None


def _brute(pos, table, declarer: int) -> int:
    """The declarer's card points from ``pos`` under best play, by trying every card."""
    legal = list(cards_in(pos.legal(table)))
    if not legal:
        return 0
    outcomes = []
    for c in legal:
        after, winner = pos.play(c, table)
        got = sum(table.points[x] for x in (*pos.trick, c)) if winner == declarer else 0
        outcomes.append(got + _brute(after, table, declarer))
    return max(outcomes) if pos.to_move == declarer else min(outcomes)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_better_cards_of_the_last_three_tricks_by_brute_force(seed):
    """Deals played by random players to the end: at every card of the last
    three tricks the value before and after it and the cards that would have
    kept it are what trying every card from that position gives."""
    import random

    from skatcore.bots.analysis import analyse, coach
    from skatcore.bots.solver import Position
    from skatcore.engine.deal import Deal, deal_cards
    from skatcore.model import SEATS
    from skatcore.rules.compiler import get_rules

    rules = get_rules("official")
    rng = random.Random(seed)
    while True:
        deal = Deal(rules, *deal_cards(rng, rules.deck))
        while not deal.done:
            actions = deal.legal_actions()
            deal.apply(actions[rng.randrange(len(actions))])
        if deal.contract is not None and deal.contract.goal == "card_points" and deal.declarer is not None:
            break
    got = coach(analyse(deal))
    table, d = deal.table, deal.declarer
    hands = [0, 0, 0]
    for t in deal.tricks[7:]:
        for i, c in enumerate(t.cards):
            hands[(t.leader + i) % 3] |= 1 << c
    pos = Position(tuple(hands), deal.tricks[7].leader, ())
    taken = sum(table.points[c] for c in cards_in(deal.skat))  # the skat, and the first seven tricks' points
    taken += sum(sum(table.points[c] for c in t.cards) for t in deal.tricks[:7] if t.winner == d)
    value, expected = taken + _brute(pos, table, d), []
    for n, t in enumerate(deal.tricks[7:], start=8):
        for c in t.cards:
            each = {}  # what the declarer ends with after each legal card, best play after it
            for k in cards_in(pos.legal(table)):
                nxt, w = pos.play(k, table)
                each[k] = taken + (sum(table.points[x] for x in (*pos.trick, k)) if w == d else 0) + _brute(nxt, table, d)
            if each[c] != value:
                expected.append({"trick": n, "seat": SEATS[pos.to_move], "card": CARD_NAMES[c], "before": value,
                                 "after": each[c], "gave_away": abs(each[c] - value), "player": None,
                                 "better": [CARD_NAMES[k] for k in sorted(each) if each[k] == value]})
            trick = (*pos.trick, c)
            pos, winner = pos.play(c, table)
            taken += sum(table.points[x] for x in trick) if winner == d else 0
            value = each[c]
    assert [ch for ch in got["changes"] if ch["trick"] >= 8] == expected
    assert got["played"] == taken == value


@pytest.mark.skipif(SAMPLE is None, reason="ISS sample not found")
def test_iss_sample_invariants(capsys):
    """Each side's own card never helps the other side under double-dummy
    play; the value after the last trick is the points taken, which the
    scorer reports too."""
    rc, out, _ = solve(capsys, str(SAMPLE), "--json")
    assert rc == 2  # three games have no play to solve (test_several_games_say_how_many_were_not_solved)
    results = [json.loads(line) for line in out.splitlines()]
    main(["score", str(SAMPLE), "--json"])
    scores = {s["id"]: s for s in map(json.loads, capsys.readouterr()[0].splitlines())}
    solved = [r for r in results if r["solved"]]
    assert len(results) == 25 and len(solved) >= 20
    for r in solved:
        for ch in r["changes"]:
            declarer = ch["seat"] == r["declarer"]
            assert (ch["after"] < ch["before"]) == declarer, (r["id"], ch)
            assert ch["gave_away"] == abs(ch["after"] - ch["before"]) > 0
            assert ch["better"] and ch["card"] not in ch["better"]  # the value before is some card's value
            assert ch["player"] == r["players"][ch["seat"]] == scores[r["id"]]["players"][ch["seat"]]
        most = max((ch["gave_away"] for ch in r["changes"]), default=None)
        assert (r["summary"]["biggest_loss"] or {}).get("gave_away") == most
        values = [r["start"]] + [t["value"] for t in r["tricks"]]
        assert all(0 <= v <= 120 for v in values)
        if r["complete"]:
            assert values[-1] == r["played"] == scores[r["id"]]["declarer_points"]


def test_record_without_hands_is_bad_input(tmp_path, capsys):
    f = tmp_path / "summary.yaml"
    f.write_text("format: skat-deal/1\ndeclarer: forehand\nbid: 18\ngame: {type: grand}\n"
                 "outcome: {declarer_points: 70, matadors: {with: 1}}\n")
    rc, out, err = solve(capsys, str(f))
    assert rc == 2 and out == ""
    assert err.strip() == f"skat: error: {f}: hands: the record gives no hands: nothing to replay"


def test_several_files_each_solved_with_its_own_record_and_rules(tmp_path, capsys):
    """``skat solve A B``: every file is replayed with its own record and its
    own ruleset, exactly as when it is solved alone (the closures built in
    the loop over the files bind that file's values, not the last one's)."""
    made, lost = tmp_path / "made.yaml", tmp_path / "lost.yaml"
    made.write_text(NULL_RECORD.format(c1="C7", c2="CA"))
    lost.write_text(NULL_RECORD.format(c1="CA", c2="C7").replace("ruleset: official", "ruleset: pub"))
    alone = []
    for f in (made, lost):
        rc, out, _ = solve(capsys, str(f), "--json")
        assert rc == 0
        alone.append(json.loads(out))
    rc, out, _ = solve(capsys, str(made), str(lost), "--json")
    assert rc == 0
    assert [json.loads(line) for line in out.splitlines()] == alone
    assert alone[0] != alone[1] and alone[0]["solved"] and alone[1]["solved"]
    if SAMPLE is not None:
        rc, out, _ = solve(capsys, str(SAMPLE), "--json")
        sgf = [json.loads(line) for line in out.splitlines()]
        rc, out, _ = solve(capsys, str(SAMPLE), str(made), str(lost), "--json")
        assert rc == 2  # the sample holds games without play
        assert [json.loads(line) for line in out.splitlines()] == [*sgf, *alone]


# -- a game it cannot solve (issue 36, R6) -------------------------------------------------

PASSED = """\
format: skat-deal/1
ruleset: official
hands:
  forehand:   [C7, C8, C9, S7, S8, S9, H7, H8, H9, D7]
  middlehand: [CA, CK, CQ, CJ, CT, SA, SK, SQ, SJ, ST]
  rearhand:   [HA, HK, HQ, HJ, HT, DA, DK, DQ, DJ, DT]
skat: [D9, D8]
bidding: [pass, pass, pass]
"""


@pytest.mark.parametrize("json_flag", [(), ("--json",)])
def test_one_deal_it_cannot_solve_is_exit_2_with_the_reason(tmp_path, capsys, json_flag):
    """Everybody passed: nothing to solve.  One line on stderr naming the file and why, nothing on stdout."""
    f = tmp_path / "passed.yaml"
    f.write_text(PASSED)
    rc, out, err = solve(capsys, str(f), *json_flag)
    assert (rc, out, err) == (2, "", f"skat: error: {f}: not solved: no game was played\n")


@pytest.mark.skipif(SAMPLE is None, reason="ISS sample not found")
def test_one_iss_game_it_cannot_solve_names_the_game(tmp_path, capsys):
    line = next(x for x in SAMPLE.read_text(encoding="utf-8").splitlines() if "ID[756788]" in x)
    f = tmp_path / "one.sgf"
    f.write_text(line + "\n", encoding="utf-8")
    rc, out, err = solve(capsys, str(f))
    assert (rc, out, err) == (2, "", f"skat: error: {f}: ISS game 756788: not solved: no game was played\n")


def test_several_games_all_solved_is_exit_0(tmp_path, capsys):
    made, lost = tmp_path / "made.yaml", tmp_path / "lost.yaml"
    made.write_text(NULL_RECORD.format(c1="C7", c2="CA"))
    lost.write_text(NULL_RECORD.format(c1="CA", c2="C7"))
    for flag in ((), ("--json",)):
        rc, out, err = solve(capsys, str(made), str(lost), *flag)
        assert rc == 0 and err == "" and out


@pytest.mark.parametrize("json_flag", [(), ("--json",)])
def test_several_games_say_how_many_were_not_solved(tmp_path, capsys, json_flag):
    """Every game is still answered in order (solved, or ``not solved`` and why), then one line on stderr:
    how many of how many were not solved, which; exit 2.  The games not solved are the ones the record
    shows no play for: counted from the records themselves."""
    made, passed = tmp_path / "made.yaml", tmp_path / "passed.yaml"
    made.write_text(NULL_RECORD.format(c1="C7", c2="CA"))
    passed.write_text(PASSED)
    files = [str(made), str(passed), str(made)]
    if SAMPLE is not None:
        files.append(str(SAMPLE))
    rc, out, err = solve(capsys, *files, *json_flag)
    assert rc == 2
    if json_flag:
        results = [json.loads(line) for line in out.splitlines()]
        ids = [r["id"] for r in results if not r["solved"]]
        assert ids[0] == str(passed) and all(r["reason"] for r in results if not r["solved"])
    else:
        lines = [x for x in out.splitlines() if x.startswith((str(made), str(passed))) or ": not solved: " in x]
        assert lines[1] == f"{passed}: not solved: no game was played"
        ids = [x.split(": not solved: ")[0] for x in out.splitlines() if ": not solved: " in x]
    games = 3
    if SAMPLE is not None:  # no game to solve: all passed (R[passed]), or no declarer in the server's result (d:-1)
        sgf = SAMPLE.read_text(encoding="utf-8").splitlines()
        no_game = [re.search(r"ID\[(\d+)\]", x).group(1) for x in sgf if "R[passed]" in x or "R[d:-1 " in x]
        assert ids[1:] == no_game and len(no_game) == 3
        games += len(sgf)
    assert err == (f"skat: error: {len(ids)} of {games} games not solved: {', '.join(ids)} "
                   f"(each one's {'reason' if json_flag else 'line'} says why)\n")


def test_a_game_under_card_point_rules_is_solved_unless_they_count_more_than_the_solver(tmp_path, capsys):
    """The solver counts house rules' card points from their tables
    (tests/bots/test_solver_card_points.py checks the values); 120 for the
    last trick and the skat to its taker swing a game by up to 142 points,
    more than its table holds: not solved, with the reason, exit 2."""
    game = Path(__file__).resolve().parent.parent / "records" / "iss-13577.sgf"
    for name, params, rc_want in (("bj", "{black_jacks: 10, skat: last_trick}", 0), ("big", "{last_trick: 120, skat: last_trick}", 2)):
        rules = tmp_path / f"{name}.yaml"
        rules.write_text(f"name: {name}\ndescription: official, and card points\nextends: official\n"
                         f"plugins:\n  card_points: {params}\n", encoding="utf-8")
        rc, out, err = solve(capsys, "--ruleset", str(rules), str(game))
        assert rc == rc_want
        if rc:  # 120 and the skat's points (at most 22) for the last trick
            got = re.search(r"ISS game 13577: not solved: house rules' card points of up to (\d+) a deal: more than "
                            r"the double-dummy solver counts\n$", err)
            assert out == "" and got and 120 <= int(got.group(1)) <= 142
        else:
            assert out.startswith("13577: clubs by Madmax (middlehand): ")
    assert solve(capsys, str(game))[0] == 0  # the same game under the official rules is solved


def test_a_record_without_play_shows_no_result_played(capsys):
    """examples/overbid-clubs-hand.yaml has its outcome (74 card points) but
    no card: nothing was played to show, only the double-dummy value (the
    skat's 5 points were shown as "played 5", the start as "played to
    trick 0: 102")."""
    example = Path(__file__).parents[2] / "examples" / "overbid-clubs-hand.yaml"
    _rc, out, _ = solve(capsys, str(example), "--json")
    start = json.loads(out)["start"]
    rc, out, _ = solve(capsys, str(example))
    lines = out.splitlines()
    assert rc == 0 and "played to trick 0" not in out
    verdict = "wins" if start >= 90 else "loses"  # with 1, hand: only schneider (48) reaches the bid of 46
    assert lines[0] == (f"{example}: clubs by Clara (middlehand): no card played, double-dummy {start} ({verdict}); "
                        "no card changed the value")
    assert lines[-1] == "  played    none (the record has no play)"
