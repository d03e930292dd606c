"""The pot (docs/rules/house-rules.md#b8): money on the table besides the score sheet.

Everyone pays ``ante`` into the pot at the start and whenever it is empty
(before the next deal).  A declarer who loses pays ``loss`` into it, as
does the loser of a Ramsch (each player with a negative entry).  A won grand
hand takes the pot; a lost grand hand doubles it (the declarer pays in what
it holds).  At the end the sheet shows each player's money taken minus paid,
and what the pot still holds.
"""

from __future__ import annotations

from decimal import Decimal

from skatcore.hookspecs import hookimpl
from skatcore.model import Column
from skatcore.records.money import money_text

KEY = "pot"


class Pot:
    """Session plugin: a pot paid into by everyone, by losers, and taken by a won grand hand."""

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "ante": {"type": "number", "exclusiveMinimum": 0, "default": 1,
                     "description": "what each player pays in at the start and whenever the pot is empty"},
            "loss": {"type": "number", "minimum": 0, "default": 1,
                     "description": "what a losing declarer (or a Ramsch loser) pays in"},
        },
    }

    def __init__(self, ante=1, loss=1):
        self.ante, self.loss = Decimal(str(ante)), Decimal(str(loss))

    @hookimpl
    def skat_session_start(self, state):
        state.data[KEY] = {"pot": Decimal(0), "net": {p: Decimal(0) for p in state.players}}

    def _pay(self, s, player, amount):
        s["pot"] += amount
        s["net"][player] -= amount

    @hookimpl
    def skat_session_deal(self, state, line):
        s = state.data[KEY]
        if s["pot"] == 0:
            for p in state.players:
                self._pay(s, p, self.ante)
            line.marks.append(f"pot filled: {money_text(s['pot'], '')}")

    @hookimpl
    def skat_session_after_deal(self, state, line):
        s = state.data[KEY]
        r = line.result
        if r.declarer is not None and r.won is not None:
            decl = line.declarer
            grand_hand = r.game == "grand" and r.hand
            if grand_hand and r.won:
                s["net"][decl] += s["pot"]
                line.marks.append(f"{decl} takes the pot ({money_text(s['pot'], '')})")
                s["pot"] = Decimal(0)
            elif grand_hand:
                line.marks.append(f"{decl} doubles the pot ({money_text(s['pot'], '')})")
                self._pay(s, decl, s["pot"])
            elif not r.won and self.loss:
                self._pay(s, decl, self.loss)
        elif r.declarer is None:
            for p in line.active:
                if line.entries[p] < 0 and self.loss:
                    self._pay(s, p, self.loss)

    @hookimpl
    def skat_session_extra(self, state):
        s = state.data[KEY]
        state.notes.append(f"the pot holds {money_text(s['pot'], '')}")
        return [Column("pot", "pot (taken - paid)", dict(s["net"]), money=True)]
