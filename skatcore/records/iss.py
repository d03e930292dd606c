"""International Skat Server game records (``.sgf``, one game per line).

Every record is replayed move by move through :class:`~skatcore.engine.deal.Deal`,
so the state machine judges each bid, discard, declaration and card; this
module only translates ISS tokens into Deal actions (grammar:
data/iss/SOURCES.md) and never decides what is legal.

How ISS endings map onto concessions (docs/rules/official.md#a7), checked against the server's
own ``p:``/``t:``/``s:``/``z:`` in real records:

- ``RE``: that player concedes; the game ends once both defenders have (the
  declarer takes the rest, schneider and schwarz included) or the declarer has.
- ``TI.n`` / ``LE.n`` (timed out / left): a defender gone hands the rest to the
  declarer, as if both defenders conceded; a declarer gone concedes the game.
  Before the game is declared there is nothing to score.
- ``SC``: the declarer lays the cards open and claims the rest.  When a
  defender resigns to that and the record ends, the server has ended the game:
  the claim stands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from skatcore.cards import CARD_NAMES, names
from skatcore.engine.deal import HOLD, PASS, PICK_UP, PLAY_HAND, PLAYS, Bid, Concede, Deal, Declare, Discard, Phase
from skatcore.engine.scoring import passed_result
from skatcore.engine.table import people
from skatcore.errors import InputError
from skatcore.model import SEATS, Declaration
from skatcore.records.holds import Ending, Holds, NotHeld, check_held, other_trick_winner, played_holds

GAME_LETTERS = {"G": "grand", "C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds", "N": "null"}
HIDDEN = "??"  # a card the record does not show
ISS_CARDS = {n: i for i, n in enumerate(CARD_NAMES)}  # ISS writes exactly our two-letter form
_TAG = re.compile(r"([A-Z][A-Z0-9]*)\[([^\]]*)\]")
_GAME = re.compile(r"([GCSHDN])([OHSZ]*)(?:\.(.+))?")  # no overlap with cards: ranks are 789TJQKA
_WHO = {"w": None, "0": 0, "1": 1, "2": 2}  # who moves: the server, or a seat
_RESULT_INTS = frozenset(("d", "v", "m", "p", "t", "s", "z", "l", "to", "r", "p0", "p1", "p2"))
_OUTCOMES = frozenset(("win", "loss", "penalty"))


class NotScorable(Exception):
    """A well-formed record without a game to score (a player left during the bidding)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class IssMove(NamedTuple):  # a tuple: a record has ~45 of them, built faster than a frozen dataclass
    """One ``who token`` pair of MV; ``who`` is a seat, or None for the server (``w``)."""

    who: int | None
    token: str

    def __str__(self) -> str:
        return f"{'w' if self.who is None else self.who} {self.token}"


@dataclass
class IssRecord:
    """One ISS game: players by seat, the deal, the moves and the server's result.

    The result fields keep the server's names (``R[d:2 loss v:-54 m:-2 ...]``):
    ``outcome`` is ``win``, ``loss``, ``penalty`` or ``passed``; the numbers
    are None for a passed deal or when the record omits them (``r:`` is
    missing in old records).
    """

    id: str
    players: tuple[str, str, str]       # forehand, middlehand, rearhand
    hands: tuple[tuple[int, ...], ...]   # 3 x 10 cards, forehand first
    skat: tuple[int, int]
    moves: list[IssMove]                 # MV after the deal, which is MV move 1
    result_text: str                     # R[...] as written, for reports
    outcome: str = ""
    d: int | None = None                 # declarer seat, -1 none
    v: int | None = None                 # declarer's score, losses doubled
    m: int | None = None                 # matadors, signed (0 in null)
    p: int | None = None                 # declarer card points incl. skat
    t: int | None = None                 # declarer tricks
    s: int | None = None                 # schneider 0/1
    z: int | None = None                 # schwarz 0/1
    overbid: bool = False
    l: int | None = None                 # noqa: E741 (the server's name) seat that left, -1 none
    to: int | None = None                # seat that timed out, -1 none
    r: int | None = None                 # resigned 0/1
    penalties: tuple[int, int, int] | None = None  # p0: p1: p2:
    tags: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def won(self) -> bool | None:
        return {"win": True, "loss": False}.get(self.outcome)


# -- parsing --------------------------------------------------------------------


def parse_sgf(line: str) -> IssRecord:
    """Parse one record line.

    :raises InputError: saying what is malformed (the caller adds file and line).
    """
    text = line.strip()
    if not (text.startswith("(;") and text.endswith(";)")):
        raise InputError("not an ISS game record: expected `(;GM[Skat]...;)` on one line")
    tags = dict(_TAG.findall(text))
    for key in ("ID", "P0", "P1", "P2", "MV", "R"):
        if key not in tags:
            raise InputError(f"the record has no {key}[...]")
    words = tags["MV"].split()
    if len(words) % 2:
        raise InputError(f"MV must be `who move` pairs, but has {len(words)} words")
    moves = []
    for i, (who, token) in enumerate(zip(words[::2], words[1::2], strict=True), start=1):
        if who not in _WHO:
            raise InputError(f"MV move {i} `{who} {token}`: expected w, 0, 1 or 2 before the move")
        moves.append(IssMove(_WHO[who], token))
    if not moves or moves[0].who is not None:
        raise InputError("MV must start with the deal `w c1.c2...c32`")
    cards = _cards(moves[0].token, "the deal (MV move 1)")
    if len(cards) != 32:
        raise InputError(f"the deal (MV move 1) has {len(cards)} cards, expected 32")
    record = IssRecord(
        id=tags["ID"], players=(tags["P0"], tags["P1"], tags["P2"]),
        hands=(tuple(cards[0:10]), tuple(cards[10:20]), tuple(cards[20:30])), skat=(cards[30], cards[31]),
        moves=moves[1:], result_text=tags["R"], tags=tags,
    )
    _parse_result(record, tags["R"])
    return record


def _cards(text: str, what: str) -> list[int]:
    out = []
    for part in text.split("."):
        if part not in ISS_CARDS:
            raise InputError(f"{part!r} in {what} is not an ISS card (suit CSHD + rank 789TJQKA)")
        out.append(ISS_CARDS[part])
    return out


def _parse_result(record: IssRecord, text: str) -> None:
    words = text.split()
    if words == ["passed"]:
        record.outcome, record.d = "passed", -1
        return
    values: dict[str, int] = {}
    for w in words:
        key, colon, raw = w.partition(":")
        if colon:
            if key not in _RESULT_INTS:
                raise InputError(f"R[...]: unknown result token {w!r}")
            try:
                values[key] = int(raw)
            except ValueError:
                raise InputError(f"R[...]: {w!r} is not a number") from None
        elif w in _OUTCOMES:
            record.outcome = w
        elif w == "bidok" or w == "overbid":
            record.overbid = w == "overbid"
        else:
            raise InputError(f"R[...]: unknown result token {w!r}")
    if not record.outcome or "d" not in values or "v" not in values:
        raise InputError("R[...] must be `passed`, or win/loss/penalty with d: and v:")
    get = values.get
    record.d, record.v, record.m, record.p, record.t, record.s, record.z, record.l, record.to, record.r = \
        get("d"), get("v"), get("m"), get("p"), get("t"), get("s"), get("z"), get("l"), get("to"), get("r")
    if "p0" in values and "p1" in values and "p2" in values:
        record.penalties = (values["p0"], values["p1"], values["p2"])


# -- replay ---------------------------------------------------------------------


@dataclass
class IssReplay:
    """Bookkeeping while feeding ISS moves to a Deal (no rules here)."""

    deal: Deal
    pending: Declaration | None = None  # announced before its discard (`D`, then `D9.DQ`)
    claimed: bool = False               # the declarer showed the cards (SC)
    hidden: bool = False                # a hidden card (??) was skipped
    resigned: list[int] = field(default_factory=list)  # seats that said RE, in order
    gone: str = ""                      # "rearhand timed out", "middlehand left"
    left: Ending | None = None          # LEFT or TIMED_OUT, with ``gone``
    claim_stands: bool = False          # the record ended on a claim a defender resigned to
    decided: bool = False               # the record stopped once the game was decided (A8)

    def ending(self) -> str:
        return ending(self.gone, self.resigned, self.claim_stands)

    def holds(self) -> Holds:
        """What the record holds of the finished game's play."""
        deal = self.deal
        if self.left is not None:
            return played_holds(deal, self.left, self.gone.split()[0])
        if self.decided:
            return played_holds(deal, Ending.DECIDED)
        if self.claimed and deal.concession_by == "defenders":
            return played_holds(deal, Ending.CLAIM)
        return played_holds(deal)


def ending(gone: str, resigned, claim_stands: bool) -> str:
    """How a game that was not played out ended, for the explanation: who
    timed out or left, else who resigned (seats in order)."""
    if gone:
        return gone
    if resigned:
        text = " and ".join(SEATS[s] for s in resigned) + " resigned"
        return text + " to the declarer's claim" if claim_stands else text
    return ""


def replay(record: IssRecord, rules) -> Deal:
    """Replay ``record`` through a Deal and return it, finished.

    :raises InputError: an unknown token, a move out of turn or an illegal one
        (the Deal's message), ``path`` naming the MV move (the deal is move 1).
    :raises NotScorable: a player left or timed out before the game was
        declared, the ruleset plays on where ISS throws the deal in, or it
        is played by two.
    """
    return _replay(record, rules).deal


def _replay(record: IssRecord, rules) -> IssReplay:
    if (n := len(people(rules))) != 3:  # a table of two: its bidding and play are not these moves
        raise NotScorable(f"ruleset {rules.name!r} is played by {n} players, an ISS game by three")
    try:
        deal = Deal(rules, record.hands, record.skat)
    except InputError as exc:
        raise exc.at("MV move 1 (the deal)") from None
    if deal.phase is not Phase.BIDDING:
        raise NotScorable(f"ruleset {rules.name!r} has no bidding, unlike ISS")
    state = IssReplay(deal)
    for i, move in enumerate(record.moves, start=2):
        try:
            replay_move(state, move)
        except InputError as exc:
            raise exc.at(f"MV move {i} `{move}`") from None
    if not deal.done and deal.declarer is None and deal.phase is not Phase.BIDDING:
        raise NotScorable(f"all passed: ruleset {rules.name!r} plays {rules.all_pass} then, which ISS does not")
    if not deal.done and state.claimed and deal.conceded - {deal.declarer}:
        # the declarer claimed the rest (SC), a defender resigned to it and the
        # server ended the game there: the claim stands (ISS game 272095)
        for seat in sorted({0, 1, 2} - {deal.declarer} - deal.conceded):
            deal.apply(Concede(seat))
        state.claim_stands = True
    if deal.decided:  # the server ends a game whose outcome can no longer change (A8)
        deal.end_decided()
        state.decided = True
    if not deal.done:
        raise InputError(f"the record ends before the deal is over ({_turn(deal)})", path="MV")
    return state


def replay_held(record: IssRecord, rules) -> Deal:
    """:func:`replay`, refusing a game whose record lacks what the ruleset
    reads to score it (:class:`~skatcore.records.holds.NotHeld`, an InputError):
    a claim, a concession or a player gone before the last trick, under a
    rule that reads the last trick."""
    state = _replay(record, rules)
    _check_held(state, rules, record)
    return state.deal


def _check_held(state: IssReplay, rules, record: IssRecord) -> None:
    deal = state.deal
    if deal.contract is not None and deal.declarer is not None:
        try:
            check_held(rules, deal.facts(), state.holds())
        except NotHeld as exc:
            raise exc.at(f"ISS game {record.id}") from None


def _turn(deal: Deal) -> str:
    if deal.done:
        return "the deal is over"
    return f"{SEATS[deal.to_move]} to {deal.phase.value}" if deal.to_move is not None else deal.phase.value


def replay_move(state: IssReplay, move: IssMove) -> None:
    """Apply one move of the record to the deal (a card, a bid, the server's skat, an announcement, a claim ...)."""
    deal, tok = state.deal, move.token
    if move.who == deal.to_move and tok in ISS_CARDS and not deal.done:  # most moves: a card of the player to move
        deal.apply(PLAYS[ISS_CARDS[tok]])
        return
    if move.who is None:
        _server(state, tok)
        return
    if deal.done:
        raise InputError("the deal is already over")
    seat = move.who
    if tok == HIDDEN:  # seen before a player left: nothing to replay
        state.hidden = True
        return
    if tok == "RE":
        deal.apply(Concede(seat))
        state.resigned.append(seat)
        return
    if tok == "SC" or tok.startswith("SC."):  # cards laid open: no change of state
        state.claimed = state.claimed or seat == deal.declarer
        return
    if seat != deal.to_move:
        hint = "; a hidden card (??) before it cannot be replayed" if state.hidden else ""
        message = f"player {seat} ({SEATS[seat]}) moves, but it is {_turn(deal)}{hint}"
        raise other_trick_winner(deal, message) or InputError(message)
    if tok in ISS_CARDS:
        deal.apply(PLAYS[ISS_CARDS[tok]])
    elif tok.isascii() and tok.isdigit():
        if len(tok) > 6:  # no ladder goes that high (and Python refuses to read 4,300 digits)
            raise InputError(f"a bid of {len(tok):,} digits (expected a value of the bid ladder)")
        deal.apply(Bid(int(tok)))
    elif tok in ("y", "p"):
        deal.apply(HOLD if tok == "y" else PASS)
    elif tok == "s":
        deal.apply(PICK_UP)
    elif "." in tok and all(part in ISS_CARDS for part in tok.split(".")):
        # the discard as a move of its own, after the announcement in old records
        deal.apply(Discard(tuple(_cards(tok, "the discard")[:2])))
        if state.pending:
            deal.apply(Declare(state.pending))
            state.pending = None
    elif m := _GAME.fullmatch(tok):
        _announce(state, m.group(1), m.group(2), m.group(3))
    else:
        raise InputError(f"unknown move {tok!r}")


def _announce(state: IssReplay, letter: str, flags: str, cards: str | None) -> None:
    """``G.ST.H8``, ``GH``, ``NO``, ``CHZ``: game letter, flags O/H/S/Z, then
    the discards after `s` (for ouvert also the open cards, not needed)."""
    deal = state.deal
    game, ouvert = GAME_LETTERS[letter], "O" in flags
    if deal.phase is Phase.SKAT:  # no `s` before: a hand game
        deal.apply(PLAY_HAND)
    # ouvert suit/grand implies hand; H after `s` is left for Deal to reject
    hand = "H" in flags or not deal.picked_up or (ouvert and game != "null")
    declaration = Declaration(game, hand=hand, schneider="S" in flags, schwarz="Z" in flags, ouvert=ouvert)
    shown = _cards(cards, "the announcement") if cards else []
    if deal.phase is Phase.DISCARD:
        if not shown:  # the discard follows as a move of its own
            state.pending = declaration
            return
        deal.apply(Discard(tuple(shown[:2])))
    deal.apply(Declare(declaration))


def _server(state: IssReplay, tok: str) -> None:
    deal = state.deal
    kind, _, who = tok.partition(".")
    if kind in ("TI", "LE") and who in ("0", "1", "2"):
        _gone(state, int(who), "timed out" if kind == "TI" else "left")
        return
    parts = tok.split(".")
    if deal.phase is Phase.DISCARD and len(parts) == 2 and all(p in ISS_CARDS or p == HIDDEN for p in parts):
        # `w X.Y`: the skat shown to the declarer after `s`; Deal already has it
        if HIDDEN not in parts and sorted(_cards(tok, "the skat")) != sorted(deal.original_skat):
            raise InputError(f"the skat shown ({' '.join(parts)}) is not the skat dealt "
                             f"({' '.join(names(deal.original_skat))})")
        return
    raise InputError(f"unknown server move {tok!r}")


def gone_early(seat: int, what: str, bidding: bool) -> str:
    """Why a game is not scorable: a player ``what`` (timed out, left) before it was declared."""
    return f"player {seat} ({SEATS[seat]}) {what} {'during bidding' if bidding else 'before the game was declared'}"


def _gone(state: IssReplay, seat: int, what: str) -> None:
    """A player timed out or left: the game ends by concession (module docstring)."""
    deal = state.deal
    if deal.done:
        return
    if deal.phase is not Phase.PLAY or deal.declarer is None:
        raise NotScorable(gone_early(seat, what, deal.phase is Phase.BIDDING))
    state.gone = f"{SEATS[seat]} {what}"
    state.left = Ending.TIMED_OUT if what == "timed out" else Ending.LEFT
    if seat == deal.declarer:
        deal.apply(Concede(seat))
        if not deal.done:  # after the first trick a defender must agree (A7)
            deal.apply(Concede((seat + 1) % 3))
    else:
        for defender in sorted({0, 1, 2} - {deal.declarer} - deal.conceded):
            deal.apply(Concede(defender))


# -- scoring --------------------------------------------------------------------


def score_record(record: IssRecord, rules) -> tuple[dict, str]:
    """Score one record: ``(json, explanation)``.  The json is the
    ScoreResult's plus ``id`` and ``players``, or ``{"id", "scorable": False,
    "reason"}`` for a deal without a game to score."""
    try:
        state = _replay(record, rules)
    except NotScorable as exc:
        return not_scorable(record, exc.reason)
    _check_held(state, rules, record)
    deal = state.deal
    return scored(record, rules, deal.facts() if deal.contract is not None else None, state.ending(),
                  deal.concession_by)


def score_line(line: str, rules) -> tuple[dict, str] | InputError:
    """``score_record(parse_sgf(line), rules)``, or the InputError it raises
    (the caller adds file and line)."""
    try:
        return score_record(parse_sgf(line), rules)
    except InputError as exc:
        return exc


def not_scorable(record: IssRecord, reason: str) -> tuple[dict, str]:
    """The output of a record that cannot be scored, with the ``reason`` why."""
    return {"id": record.id, "scorable": False, "reason": reason}, reason


def scored(record: IssRecord, rules, facts, ending: str, concession_by: str | None) -> tuple[dict, str]:
    """The output of a replayed record: ``facts`` of its declarer game (None:
    thrown in), how it ended early (``IssReplay.ending``) and who conceded.
    The server's R[] is checked where it played the same rules (official)."""
    result = rules.score(facts) if facts is not None else passed_result(rules)
    explanation = result.explanation
    if ending:
        rest = "the declarer concedes" if concession_by == "declarer" else "the rest goes to the declarer"
        if concession_by == "defenders" and facts.contract.no_trick:
            rest = "the declarer's null is made"
        explanation += f" ({ending}: {rest})"
    out = result.to_json()
    differs = server_mismatches(record, out, facts) if facts is not None and rules.name == "official" else []
    if differs:  # the server played the official rules: its R[] must agree with our replay
        out["server_mismatch"] = differs
        explanation += f" [the server's R[] differs: {'; '.join(differs)}]"
    out["explanation"] = explanation
    out["id"] = record.id
    out["players"] = dict(zip(SEATS, record.players, strict=True))
    return out, explanation


def server_mismatches(record: IssRecord, out: dict, facts) -> list[str]:
    """Where the server's result (``R[d: v: m: p: t:]``) and the ``facts``
    of our replay (scored ``out``) differ."""
    if record.outcome == "passed":
        return []
    points = facts.raw_points if facts.raw_points is not None else facts.declarer_points  # the cards' count, as the server's
    ours = {"d": facts.declarer, "v": out["score"], "p": points, "t": facts.declarer_tricks}
    if not facts.contract.no_trick:
        ours["m"] = facts.matadors
    return [f"{k}:{getattr(record, k)} (ours {v})" for k, v in ours.items()
            if getattr(record, k) is not None and getattr(record, k) != v]


def score_sgf_file(path: str, rules) -> list[tuple[dict, str]]:
    """Score every record of an ISS ``.sgf`` file, one per line (blank lines skipped).

    :raises InputError: naming the file, ``line N`` and, for a bad move, which one.
    """
    return map_sgf_file(path, lambda record: score_record(record, rules))


def map_sgf_file(path: str, work) -> list:
    """``work(record)`` for every record of an ISS ``.sgf`` file, one per
    line (blank lines skipped); an InputError names the file and ``line N``."""
    try:
        text = Path(path).read_text("utf-8")
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror})", source=str(path)) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason})", source=str(path)) from None
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append(work(parse_sgf(line)))
        except InputError as exc:
            exc.path = f"line {n}, {exc.path}" if exc.path else f"line {n}"
            raise exc.at(source=str(path)) from None
    if not out:
        raise InputError("no ISS game records in the file", source=str(path))
    return out
