"""Bock rounds and Ramsch rounds (docs/rules/pub.md#b5): session rules of a pub table.

A **Bock round** is one round of deals (3 at a 3-table, 4 at a 4-table)
whose sheet entries count double; bids and values do not change.  It starts
with the deal after the one that triggered it.  Triggers, each a switch:

* ``split_60``: a declarer game ends 60-60 in card points;
* ``kontra_lost``: the declarer lost a game with Kontra said (a successful Kontra);
* ``re``: Re was said;
* ``grand_hand_won``: the declarer won a grand hand;
* ``totals``: a player's running total *reaches* a special number: a
  multiple of 100 (``hundreds``), a repdigit of 3+ digits such as 222 or
  -111 (``repdigits``), or ``both``.  Zero is not special.

Several pending Bock rounds are played one after another (``overlap:
queue``) or at the same time (``simultaneous``: each round runs for its own
deals from the deal after its trigger, and k rounds running together
multiply by 2^k - three at once by 8).

**Ramsch rounds** (``ramsch_after: k``): after every k-th finished Bock
round comes a forced round of Ramsch deals, one per player, played as
Schieberamsch (the ruleset's all-pass rule) with the grand-hand option.  A
deal of a Ramsch round has no bidding: it is a Ramsch (``game: {type:
ramsch}``) or a grand hand declared instead of pushing (``game: {type:
grand, hand: true, pushes: [...]}``); such a grand is not one of the round's
deals and the same player deals again.  While a Ramsch round is played,
pending Bock rounds wait (in both overlap modes).

``unfinished``: Bock (and Ramsch) rounds still pending when the session
ends are dropped, or must be played out (the sheet says how many deals are
still to play).

Deal-level facts come from the score result: ``declarer_points`` (60-60),
``won``, ``hand``, ``game`` and ``extra["calls"]`` (set by the ``kontra``
plugin).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from skatcore.errors import InputError
from skatcore.hookspecs import hookimpl
from skatcore.model import Outlook
from skatcore.records.session_text import owed_text

KEY = "bock"


def special_total(total: int, kind: str) -> bool:
    """Whether ``total`` is a special number: a non-zero multiple of 100, or
    a repdigit of three or more digits (111, 222, ... 1111; negative too)."""
    if total == 0 or kind == "none":
        return False
    digits = str(abs(total))
    hundred = total % 100 == 0
    repdigit = len(digits) >= 3 and len(set(digits)) == 1
    return {"hundreds": hundred, "repdigits": repdigit, "both": hundred or repdigit}[kind]


@dataclass
class _State:
    queue: int = 0                 # queue mode: Bock rounds waiting (the running one not included)
    running: list[int] = field(default_factory=list)  # deals left of each running Bock round
    finished: int = 0              # Bock rounds finished so far
    ramsch_rounds: int = 0         # Ramsch rounds waiting (the running one not included)
    ramsch_left: int = 0           # deals left of the running Ramsch round
    ramsch_no: int = 0             # number of the running Ramsch round
    ramsch_size: int = 0           # deals of the running Ramsch round
    current: str = ""              # what the deal being scored is: "ramsch", "bock" or ""


class Bock:
    """Session plugin: Bock rounds (doubling), their triggers and overlap, and the Ramsch rounds after them."""

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "split_60": {"type": "boolean", "default": True, "description": "a 60-60 split of card points brings a Bock round"},
            "kontra_lost": {"type": "boolean", "default": True,
                            "description": "a declarer who lost after Kontra brings a Bock round"},
            "re": {"type": "boolean", "default": False, "description": "any Re brings a Bock round"},
            "grand_hand_won": {"type": "boolean", "default": True, "description": "a won grand hand brings a Bock round"},
            "totals": {"enum": ["none", "hundreds", "repdigits", "both"], "default": "none",
                       "description": "a running total reaching a multiple of 100, a repdigit (222), or either"},
            "overlap": {"enum": ["queue", "simultaneous"], "default": "queue",
                        "description": "pending Bock rounds one after another, or at the same time (x2 each)"},
            "round": {"enum": ["table", 3, 4], "default": "table",
                      "description": "deals per Bock round: one per player at the table, or fixed"},
            "ramsch_after": {"type": "integer", "minimum": 0, "default": 0,
                             "description": "a Ramsch round after every k-th finished Bock round (0: none; 1: every; 3: every third)"},
            "unfinished": {"enum": ["drop", "play_out"], "default": "play_out",
                           "description": "Bock/Ramsch rounds pending at the end: dropped, or to be played out"},
        },
    }

    def __init__(self, split_60=True, kontra_lost=True, re=False, grand_hand_won=True, totals="none",
                 overlap="queue", round="table", ramsch_after=0, unfinished="play_out"):
        self.split_60, self.kontra_lost, self.re, self.grand_hand_won = split_60, kontra_lost, re, grand_hand_won
        self.totals, self.overlap, self.round = totals, overlap, round
        self.ramsch_after, self.unfinished = ramsch_after, unfinished

    def size(self, state) -> int:
        return state.table_size if self.round == "table" else self.round

    @hookimpl
    def skat_session_start(self, state):
        if self.ramsch_after and state.rules.all_pass == "throw_in":
            raise InputError(f"Ramsch rounds need a Ramsch when all pass, but ruleset {state.rules.name!r} throws in")
        state.data[KEY] = _State()

    # -- before the totals: what this deal is ---------------------------------
    @hookimpl
    def skat_session_deal(self, state, line):
        s: _State = state.data[KEY]
        s.current = ""
        if s.ramsch_left:
            s.current = "ramsch"
            self._check_ramsch_deal(state, line, s)
            return
        factor = self._factor(s)
        if factor > 1:
            s.current = "bock"
            line.factor *= factor
            line.marks.append(_bock_mark(factor))

    def _factor(self, s: _State) -> int:
        """The multiplier of the next deal (outside a Ramsch round)."""
        return 2 ** len(s.running) if self.overlap == "simultaneous" else 2 if s.running else 1

    def _check_ramsch_deal(self, state, line, s: _State) -> None:
        rec, result = line.record, line.result
        where = f"Ramsch round {s.ramsch_no} (deal {_ramsch_deal(s)} of {s.ramsch_size})"
        if "bidding" in rec or ("declarer" in rec and "pushes" not in (rec.get("game") or {})):
            raise InputError(f"{where}: there is no bidding, every deal is a Ramsch (or a grand hand instead of pushing)",
                             path="bidding" if "bidding" in rec else "declarer")
        if result.declarer is not None:
            # a grand hand declared instead of pushing: not one of the round's deals, the same dealer again
            line.counts = False
            line.redeal = True
            line.marks.append(f"Ramsch round {s.ramsch_no}: grand hand, deals again")
        else:
            line.marks.append(f"Ramsch round {s.ramsch_no} ({_ramsch_deal(s)}/{s.ramsch_size})")

    # -- after the totals: advance the rounds, look for triggers ---------------
    @hookimpl
    def skat_session_after_deal(self, state, line):
        s: _State = state.data[KEY]
        n = self.size(state)
        finished = 0
        if s.current == "ramsch":
            if line.counts:
                s.ramsch_left -= 1
        elif s.running:
            if self.overlap == "simultaneous":
                s.running = [left - 1 for left in s.running]
                finished = sum(1 for left in s.running if left == 0)
                s.running = [left for left in s.running if left]
            else:
                s.running[0] -= 1
                if s.running[0] == 0:
                    finished = 1
                    s.running = []
        for _ in range(finished):
            s.finished += 1
            if self.ramsch_after and s.finished % self.ramsch_after == 0:
                s.ramsch_rounds += 1
        reasons = self.triggers(state, line)
        if reasons:
            line.marks.append("-> " + ", ".join(reasons))
            for _ in reasons:
                if self.overlap == "simultaneous":
                    s.running.append(n)
                else:
                    s.queue += 1
        # what comes next: a waiting Ramsch round first, then the Bock queue
        if not s.ramsch_left and s.ramsch_rounds:
            s.ramsch_rounds -= 1
            s.ramsch_no += 1
            s.ramsch_left = s.ramsch_size = state.table_size
        if self.overlap == "queue" and not s.running and s.queue:
            s.queue -= 1
            s.running = [n]

    def triggers(self, state, line) -> list[str]:
        r = line.result
        out = []
        if r.declarer is not None and r.won is not None:
            calls = r.extra.get("calls", ())
            if self.split_60 and r.declarer_points == 60:
                out.append("60-60")
            if self.kontra_lost and "kontra" in calls and not r.won:
                out.append("Kontra successful")
            if self.re and "re" in calls:
                out.append("Re")
            if self.grand_hand_won and r.won and r.hand and r.game == "grand":
                out.append("grand hand won")
        if self.totals != "none":
            for p in state.players:
                if line.entries[p] and special_total(line.totals[p], self.totals):
                    out.append(f"{p} at {line.totals[p]}")
        return [f"Bock: {why}" for why in out]

    # -- what comes next ----------------------------------------------------------
    def owed(self, state) -> dict[str, int]:
        """Deals still to play: the pending Bock rounds, and the Ramsch rounds
        waiting or running plus the ones those Bock rounds bring when they
        finish (every ``ramsch_after``-th finished Bock round brings one)."""
        s: _State = state.data[KEY]
        bock = s.queue * self.size(state) + (sum(s.running) if self.overlap == "queue" else max(s.running, default=0))
        rounds = s.ramsch_rounds
        if self.ramsch_after:
            pending = s.queue + len(s.running)
            rounds += (s.finished + pending) // self.ramsch_after - s.finished // self.ramsch_after
        return {k: v for k, v in (("Bock", bock), ("Ramsch round", s.ramsch_left + rounds * state.table_size)) if v}

    @hookimpl
    def skat_session_outlook(self, state):
        s: _State | None = state.data.get(KEY)
        if s is None:
            return None
        if s.ramsch_left:
            return Outlook(next=f"Ramsch round {s.ramsch_no} ({_ramsch_deal(s)}/{s.ramsch_size}): "
                           "a Ramsch, or a grand hand instead of pushing", bidding=False, owed=self.owed(state))
        factor = self._factor(s)
        return Outlook(next=_bock_mark(factor) if factor > 1 else "", factor=factor, owed=self.owed(state))

    # -- the end -----------------------------------------------------------------
    @hookimpl
    def skat_session_extra(self, state):
        if state.data.get(KEY) is None:
            return None
        owed = self.owed(state)
        if owed:
            what = owed_text(owed)
            if self.unfinished == "drop":
                state.notes.append(f"unfinished rounds dropped: {what}")
            else:
                state.notes.append(f"still to play out: {what}")
        return None


def _bock_mark(factor: int) -> str:
    return "Bock" if factor == 2 else f"Bock x{factor}"


def _ramsch_deal(s: _State) -> int:
    """The number of the Ramsch round's deal to be played (from 1)."""
    return s.ramsch_size - s.ramsch_left + 1
