"""A real game is scored on what its record holds (issue 36, R1).

Every shipped ruleset and four house rules that read the play run over every
game of the ISS sample.  A game ended by a claim, a concession or a player
gone before the last trick lacks the tricks after it: a rule that reads the
last trick or the tricks (or decides who takes a trick) must count it apart
with the reason, never score it.  What each game holds is read here
independently from the record's text (``SC``, ``RE``, ``TI.n``/``LE.n``,
the cards played), not through the replay under test.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from skatcore import get_rules
from skatcore.cli.main import main
from skatcore.errors import InputError
from skatcore.records.holds import Ending, Holds, NotHeld, Refused
from skatcore.records.iss import NotScorable, parse_sgf, score_line
from skatcore.rules.trust import trusting
from skatcore.sim.games import read_games, rescore

SAMPLE = next((p / "shared/data/iss/iss-sample-25.sgf" for p in Path(__file__).parents
               if (p / "shared/data/iss/iss-sample-25.sgf").is_file()), None)
if SAMPLE is None:
    pytest.skip("the ISS sample is not beside the repository", allow_module_level=True)
NUMBERED = [(n, line) for n, line in enumerate(SAMPLE.read_text("utf-8").splitlines(), start=1) if line.strip()]
LINES = [line for _, line in NUMBERED]
SHIPPED = sorted(p.stem for p in (Path(__file__).parents[2] / "rulesets").glob("*.yaml"))
TWO_PLAYERS = {"offiziersskat", "oma-skat", "piloten-skat", "schmegegge", "skat-en-deux", "strohmann"}

HOUSE = '''
from skatcore.cards import parse_card
from skatcore.hookspecs import hookimpl
from skatcore.model import MultiplierItem, WinCondition


class LastTrick:
    """The declarer must take the last trick (a win condition: suit and grand)."""

    params_schema = {"type": "object", "additionalProperties": False}

    @hookimpl
    def skat_win_conditions(self):
        return [WinCondition("last_trick", lambda f: f.last_trick_winner == f.declarer, "lost the last trick")]


class FirstTrick:
    """One more when the declarer took the first trick (reads the tricks; multipliers: suit and grand)."""

    params_schema = {"type": "object", "additionalProperties": False}

    @hookimpl
    def skat_multiplier_items(self):
        return [MultiplierItem("first_trick", lambda f: int(bool(f.tricks) and f.tricks[0].winner == f.declarer),
                               "first trick")]


class LastTrickDoubles:
    """The sheet entries double when the declarer took the last trick (every declarer game, null too)."""

    params_schema = {"type": "object", "additionalProperties": False}

    @hookimpl(wrapper=True)
    def skat_sheet_entries(self, result, facts, entries):
        out = yield
        if getattr(facts, "last_trick_winner", None) == getattr(facts, "declarer", -1):
            out = {s: 2 * v for s, v in out.items()}
        return out


class SevenTakes:
    """In a suit game the seven of trumps takes any trick it is in (skat_trick_winner)."""

    params_schema = {"type": "object", "additionalProperties": False}

    @hookimpl
    def skat_trick_winner(self, contract, order, cards):
        if contract.family != "suit":
            return None
        seven = next((parse_card(t) for t in order.trumps if t[1] == "7"), None)
        return cards.index(seven) if seven in cards else None
'''
PLUGINS = ("LastTrick", "FirstTrick", "LastTrickDoubles", "SevenTakes")


# -- what each game holds, from the text alone ----------------------------------


def holds_from_text(line: str) -> tuple[str, int, str] | None:
    """``(how it ends, tricks played, game letter)`` of a declared game, or
    None for a deal without one (passed, or a player gone before declaring)."""
    result = re.search(r"R\[([^\]]*)\]", line).group(1)
    words = re.search(r"MV\[([^\]]*)\]", line).group(1).split()
    moves = list(zip(words[::2], words[1::2], strict=True))[1:]
    announced = [tok for who, tok in moves if who != "w" and re.fullmatch(r"[GCSHDN][OHSZ]*(\..*)?", tok)]
    if result == "passed" or not announced:
        return None
    d = re.search(r"\bd:(\d)", result).group(1)
    cards = sum(1 for who, tok in moves if who != "w" and re.fullmatch(r"[CSHD][789TJQKA]", tok))
    gone = [tok for who, tok in moves if who == "w" and tok[:3] in ("TI.", "LE.")]
    resigned = [who for who, tok in moves if tok == "RE"]
    if gone:
        how = "a player timed out" if gone[0].startswith("TI") else "a player left"
    elif resigned and any(who == d and tok.startswith("SC") for who, tok in moves) and set(resigned) - {d}:
        how = "ended by a claim"
    elif resigned:
        how = "the declarer conceded" if d in resigned else "the defenders conceded"
    else:
        how = "played to the end"  # every card, or a null lost: the play ends there
    return how, cards // 3, announced[0][0]


TEXT = [holds_from_text(line) for line in LINES]
EARLY = [i for i, h in enumerate(TEXT) if h and h[0] != "played to the end"]
IDS = [parse_sgf(line).id for line in LINES]


def test_the_sample_holds_games_ended_early():
    """The figures the counts below rest on, from the text: 7 claims, a
    concession (the null ouvert), a player left, a player timed out."""
    assert Counter(TEXT[i][0] for i in EARLY) == {"ended by a claim": 7, "the defenders conceded": 1,
                                                  "a player left": 1, "a player timed out": 1}
    assert sum(1 for h in TEXT if h) == 22  # the declared games (data/iss/SOURCES.md)


# -- the house rulesets ---------------------------------------------------------


@pytest.fixture(scope="module")
def house(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("house")
    (folder / "house.py").write_text(HOUSE, encoding="utf-8")
    out = {}
    for name in PLUGINS:
        path = folder / f"{name.lower()}.yaml"
        path.write_text(f"name: {name.lower()}\nextends: official\nplugins:\n  ./house.py:{name}: {{}}\n", encoding="utf-8")
        out[name] = str(path)
    return out


def _outcomes(ref: str) -> list:
    """Per game of the sample: its ScoreResult, or the exception that refused it."""
    with trusting():
        rules = get_rules(ref)
        out = []
        for game in read_games([str(SAMPLE)]):
            try:
                out.append(game.score(rules)[0])
            except (InputError, NotScorable) as exc:
                out.append(exc)
    return out


@pytest.fixture(scope="module")
def official() -> list:
    return _outcomes("official")


def _refused_for_lacking(outcomes) -> dict[int, NotHeld]:
    return {i: o for i, o in enumerate(outcomes) if isinstance(o, NotHeld)}


def _assert_reason_names_what_it_lacks(i: int, exc: NotHeld, reads: str) -> None:
    how, tricks, _ = TEXT[i]
    assert exc.holds.kind == how and exc.holds.tricks == tricks and not exc.holds.whole
    assert exc.reason.startswith(f"{how}: ") and reads in exc.reason
    assert f"after {tricks} of 10 tricks" in exc.message and "which the record does not hold" in exc.message


@pytest.mark.parametrize("plugin, reads", [("LastTrickDoubles", "last_trick_winner"), ("FirstTrick", "tricks")])
def test_a_rule_reading_the_play_refuses_exactly_the_games_ended_early(house, official, plugin, reads):
    got = _outcomes(house[plugin])
    # the sheet hook reads the last trick in every declarer game; the multiplier the tricks in every suit or grand game
    expect = {i for i in EARLY if plugin == "LastTrickDoubles" or TEXT[i][2] != "N"}
    refused = _refused_for_lacking(got)
    assert set(refused) == expect and expect
    for i, exc in refused.items():
        _assert_reason_names_what_it_lacks(i, exc, reads)
    for i, o in enumerate(got):
        if i in refused:
            continue
        assert type(o) is type(official[i])  # every other game as under official: scored, or refused the same way
        if TEXT[i] and i in EARLY:  # a null ended early: the multiplier is not asked, the play not read
            assert o.score == official[i].score


def test_a_win_condition_reads_the_last_trick_only_where_it_is_asked(house, official):
    """Win conditions are asked in order: a game already lost on card points
    (or a null) never reads the last trick, so it is scored, as official scores it."""
    got = _outcomes(house["LastTrick"])
    refused = _refused_for_lacking(got)
    assert refused and set(refused) <= set(EARLY)
    for i, exc in refused.items():
        _assert_reason_names_what_it_lacks(i, exc, "last_trick_winner")
    for i in set(EARLY) - set(refused):
        assert got[i].score == official[i].score and "last trick" not in got[i].explanation
    whole = [i for i, h in enumerate(TEXT) if h and i not in EARLY]
    assert all(not isinstance(got[i], Exception) for i in whole)
    assert any("lost the last trick" in got[i].explanation for i in whole)  # the rule is there


def test_a_trick_winner_rule_refuses_games_ended_early_and_names_the_trick_it_gave_away(house, official):
    got = _outcomes(house["SevenTakes"])
    for i in EARLY:
        o = got[i]
        assert isinstance(o, Refused), IDS[i]
        if isinstance(o, NotHeld):  # else a trick of the part played already went elsewhere
            assert o.holds.kind == TEXT[i][0] and "'./house.py:SevenTakes' decides who takes a trick" in o.reason
    other = [o for o in got if isinstance(o, Refused) and not isinstance(o, NotHeld)]
    assert other and all(re.search(r"gave trick \d+ to \w+, the card order to \w+", o.message) for o in other)
    scored = [i for i, o in enumerate(got) if not isinstance(o, Exception)]
    assert scored and all(i not in EARLY for i in scored)


# -- every ruleset, counted as skat compare counts ------------------------------


def _counts(refs) -> list:
    with trusting():
        return rescore(refs, [str(SAMPLE)])[3]


def test_every_shipped_ruleset_scores_or_counts_apart_every_game():
    for counted in _counts(SHIPPED):
        assert counted.games == len(LINES) == counted.scored + sum(counted.unscored.values()), counted
        assert not counted.lacking  # no shipped rule reads the play nor decides who takes a trick
        if counted.ruleset in TWO_PLAYERS:
            assert counted.unscored == {f"ruleset {counted.ruleset!r} is played by 2 players, an ISS game by three": 25}
        if counted.ruleset in ("official", "tournament"):  # the server's rules: its every score, as now
            assert (counted.scored, counted.server_agrees, counted.server_differs) == (24, 22, 0)


def test_house_rules_are_counted_apart_by_what_the_games_lack(house):
    counts = {c.ruleset: c for c in _counts(["official", *house.values()])}
    early = Counter(TEXT[i][0] for i in EARLY)
    assert counts["lasttrickdoubles"].lacking == early  # reads the last trick of every declarer game
    assert counts["firsttrick"].lacking == Counter(TEXT[i][0] for i in EARLY if TEXT[i][2] != "N")
    assert counts["seventakes"].lacking <= early
    for name in ("lasttrick", "firsttrick", "lasttrickdoubles"):
        c = counts[name]
        assert c.games == c.scored + sum(c.unscored.values())
        assert sum(n for why, n in c.unscored.items() if why.split(":")[0] in early) == c.lacking.total()
        # the games every ruleset scored are what the official rules score less those refused
        assert c.scored == counts["official"].scored - c.lacking.total()


def test_fast_and_exact_iss_paths_agree_under_the_house_rules(house):
    """The compiled replay hands a game whose scoring reads the play to the
    replay through Deal: the same score, or the same refusal, on the sample
    and on its games with claims, concessions and timeouts put in at random."""
    import random

    from records.test_iss_fast import _mutants, assert_same

    rng = random.Random(36)
    mutants = [m for line in LINES for m in _mutants(line, rng, 30)]
    with trusting():
        for name, ref in house.items():
            rules = get_rules(ref)
            assert_same(LINES, rules)
            if name != "SevenTakes":  # (a trick-winner rule is never compiled: nothing to compare)
                assert_same(mutants, rules)
        rules = get_rules(house["LastTrickDoubles"])
    refused = Counter(r.holds.kind for m in mutants if isinstance(r := score_line(m, rules), NotHeld))
    assert refused.total() > 30 and set(refused) >= {"ended by a claim", "the defenders conceded", "a player left",
                                                     "a player timed out"}, refused


def test_skat_score_of_a_game_ended_early_is_one_line_exit_2(house, capsys):
    rc = main(["--trust", "score", "--ruleset", house["LastTrickDoubles"], str(SAMPLE)])
    out, err = capsys.readouterr()
    assert rc == 2
    lines = err.splitlines()
    assert len(lines) == len(EARLY)
    for i, line in zip(EARLY, lines, strict=True):
        tricks = TEXT[i][1]
        n = NUMBERED[i][0]
        assert line.startswith(f"skat: error: {SAMPLE}: line {n}, ISS game {IDS[i]}: "), line
        assert f"after {tricks} of 10 tricks: ruleset 'lasttrickdoubles' scores from the play " \
               "(reads last_trick_winner (house.py:" in line
    assert out.count("sheet:") == len(LINES) - len(EARLY) - 1  # the games scored (and passed); not the one gone in the bidding
    # a game ended early under official: scored, its ending in the explanation
    assert main(["score", str(SAMPLE)]) == 0


def test_score_line_says_what_the_game_lacks(house):
    with trusting():
        rules = get_rules(house["LastTrickDoubles"])
    grand_ouvert = next(i for i in EARLY if TEXT[i][0] == "ended by a claim" and TEXT[i][1] == 0)
    got = score_line(LINES[grand_ouvert], rules)
    assert isinstance(got, NotHeld) and got.path == f"ISS game {IDS[grand_ouvert]}"
    assert got.message.startswith("ended by a claim after 0 of 10 tricks: ruleset 'lasttrickdoubles' scores")


# -- deal records ---------------------------------------------------------------

DECIDED = {  # tests/vectors/official.yaml, A8 early end: grand hand, schwarz announced, the first trick lost
    "hands": {"forehand": ["CJ", "SJ", "HJ", "CA", "CT", "SA", "ST", "HA", "HT", "D7"],
              "middlehand": ["DJ", "C7", "C8", "C9", "S7", "S8", "S9", "H7", "H8", "H9"],
              "rearhand": ["CK", "CQ", "SK", "SQ", "HK", "HQ", "DA", "DT", "DK", "DQ"]},
    "skat": ["D9", "D8"], "bidding": ["pass", "pass", 18], "game": {"type": "grand", "hand": True, "schwarz": True},
    "play": ["D7", "DJ", "DA"]}
SUMMARY = {"declarer": "middlehand", "bid": 18, "game": {"type": "clubs"},
           "outcome": {"declarer_points": 74, "declarer_tricks": 7, "matadors": {"with": 1}}}


def test_a_deal_record_says_what_it_holds(house):
    from skatcore.records.deal import score_record

    official = get_rules("official")
    assert score_record(dict(DECIDED), official).score == -432 and score_record(dict(SUMMARY), official).score == 24
    with trusting():
        rules = get_rules(house["LastTrickDoubles"])
    with pytest.raises(NotHeld) as decided:
        score_record(dict(DECIDED), rules, "d.yaml")
    assert decided.value.holds == Holds(Ending.DECIDED, 1, 10)
    assert str(decided.value).startswith("d.yaml: play: stopped once decided after 1 of 10 tricks: ruleset "
                                         "'lasttrickdoubles' scores from the play (reads last_trick_winner")
    with pytest.raises(NotHeld) as summary:
        score_record(dict(SUMMARY), rules, "s.yaml")
    assert summary.value.holds.ending is Ending.SUMMARY and summary.value.reason.startswith("a summary only: reads")
    assert str(summary.value).endswith("give the deal's hands and `play`, not only its outcome")


def test_compare_counts_them_apart_in_the_table_the_json_and_the_report(house, tmp_path, capsys):
    import json

    report = tmp_path / "games.html"
    rc = main(["--trust", "compare", "official", house["LastTrick"], "--games", str(SAMPLE), "--json", "--html", str(report)])
    out, err = capsys.readouterr()
    assert rc == 0, err
    official, lasttrick = json.loads(out)["games"]
    refused = _refused_for_lacking(_outcomes(house["LastTrick"]))
    assert official["lacking"] == {} and lasttrick["lacking"] == dict(Counter(TEXT[i][0] for i in refused))
    assert json.loads(out)["deals"] == lasttrick["scored"] == official["scored"] - len(refused)
    page = report.read_text("utf-8")
    assert "Counted apart because the record lacks what the ruleset reads" in page
    assert f"lasttrick: ended by a claim ({lasttrick['lacking']['ended by a claim']})" in page
    claims = [why for why in lasttrick["unscored"] if why.startswith("ended by a claim: ")]  # the table's column
    assert len(claims) == 1 and re.fullmatch(r"ended by a claim: reads last_trick_winner \(house\.py:\d+\)", claims[0])


def test_a_card_point_rule_refuses_exactly_the_games_ended_early(tmp_path, official):
    """The built-in black jacks (skat_card_points, asked per trick) read the
    tricks of every suit and grand game: those ended early are refused with
    the reason, a null (no card points) and every game played out are scored."""
    path = tmp_path / "jacks.yaml"
    path.write_text("name: jacks\nextends: official\nplugins:\n  card_points: {black_jacks: 10}\n", encoding="utf-8")
    got = _outcomes(str(path))
    refused = _refused_for_lacking(got)
    assert set(refused) == {i for i in EARLY if TEXT[i][2] != "N"}
    for i, exc in refused.items():
        _assert_reason_names_what_it_lacks(i, exc, "reads tricks (card_points.py:")
    scored = [i for i, o in enumerate(got) if i not in refused and not isinstance(o, Exception) and o.multiplier]
    for i in scored:  # the cards' count is official's; the black jacks counted for their taker
        extra, declarer = got[i].extra["card_points"], got[i].to_json()["declarer"]
        given = sum(it["points"] if it["seat"] == declarer else -it["points"] for it in extra["items"])
        assert extra["raw"] == official[i].declarer_points and got[i].declarer_points == extra["raw"] + given
    assert len(scored) >= 10
