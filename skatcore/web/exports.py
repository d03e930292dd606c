"""What ``skat serve`` hands out safely: a sheet as CSV a spreadsheet
opens as data (:func:`~skatcore.errors.spreadsheet_cell`), and the rulesets a new sheet may be started
under: names of the list, never a path a form sends."""

from __future__ import annotations

import csv
import io

from skatcore.errors import InputError, spreadsheet_cell
from skatcore.web.pages import Config, ruleset_ref


def offered_ruleset(config: Config, name: str) -> str:
    """What a new sheet is started under: a shipped or installed ruleset by
    name, or one kept in the sheets folder by its file name; anything else
    (a path, ``/etc/passwd``) is refused before anything is read."""
    ref = ruleset_ref(config, name)
    if ref is None:
        raise InputError("expected a ruleset of the list (shipped, installed or kept in the sheets folder)",
                         path="ruleset")
    return ref


def sheet_csv(state) -> str:
    """The sheet's lines as CSV: a name or game a spreadsheet would run as a
    formula written as text, numbers as numbers."""
    out = io.StringIO()
    w = csv.writer(out)
    players = state.players
    w.writerow([spreadsheet_cell(x) for x in
                ["deal", "dealer", "declarer", "game", "value", "void", *players, *(f"total {p}" for p in players)]])
    for line in state.sheet_lines:
        j = line.to_json()
        w.writerow([spreadsheet_cell(x) for x in
                    [j["deal"], j["dealer"], j["declarer"] or "", j["game"], j["value"], j["void"],
                     *(line.entries[p] for p in players), *(line.totals[p] for p in players)]])
    return out.getvalue()
