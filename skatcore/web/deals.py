"""Entering and changing the deals of a sheet on ``skat serve``: the count
before saving, a save, a correction or void of a deal in the middle, undo.
The fields are those of ``skat sheet add`` (:mod:`skatcore.web.entry` reads
them off the form), the work :mod:`skatcore.records.sheet_live`'s: the same
store, scoring and messages as the CLI, in the form's words."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from skatcore.errors import InputError, printable
from skatcore.records import sheet_live as live
from skatcore.records.sheet_entry import add_entry, deal_from_fields, in_fields, resolve_names
from skatcore.rules.trust import trusting
from skatcore.web import entry as form_entry
from skatcore.web import failures
from skatcore.web.i18n import refusal_words
from skatcore.web.pages import Config, Problem, lang_of, render, words
from skatcore.web.sheets import (
    LABELS,
    check_deal,
    deal_list,
    entry_form,
    field_label,
    posted,
    scored,
    seats_of,
    visible_sheet,
)


def _fields(form, snap: live.Snapshot, n: int | None = None) -> dict:
    """The ``skat sheet add`` fields of a posted deal form (for deal ``n``, or the next deal)."""
    st = snap.session.state
    seats = {player: seat for seat, player in seats_of(st, n).items()}
    return form_entry.fields_of_form(form, seats, tricks=st.rules.deck.hand)


def _entered(raw: dict):
    """``enter(session)`` for :func:`sheet_live.add`: the fields as a deal on the session."""
    deal = deal_from_fields(raw, name=field_label)

    def enter(session):
        return add_entry(session, deal, raw, name=field_label)
    return enter


@posted
def preview(request: Request, form) -> Response:
    """The count of the deal as typed, before it is saved ("with 1, game 2 ...")."""
    _, path = visible_sheet(request)
    n = request.path_params.get("n")
    snap = scored(path)
    if n is not None:
        try:
            check_deal(snap, n)
        except Problem as exc:  # taken back on another device since the form was opened: said where the count is
            return render(request, "_preview.html", exc.status, error=exc.said(request))
    try:
        raw = _fields(form, snap, n)
    except InputError as exc:  # a form of another deal (its seats)
        return render(request, "_preview.html", error=_say(request, exc))
    raw.pop("id", None)
    if todo := form_entry.missing(raw):  # not a refusal yet: what is still to tap
        _ = words(request)["_"]
        return render(request, "_preview.html", todo=", ".join(_(LABELS.get(f, f)) for f in todo))
    config: Config = request.app.state.config
    try:
        if n is not None:  # a correction: deal n as it would be, every later deal re-scored
            with trusting(config.trust):
                line, session, _ = live.change(path, n, None, f"correcting deal {n}", _edit(raw, n), save=False)
        else:
            with trusting(config.trust):
                line, session = live.add(path, _entered(raw), save=False)
    except InputError as exc:
        return render(request, "_preview.html", error=_say(request, exc, raw, n))
    return render(request, "_preview.html", line=line, players=session.state.players)


def _edit(raw: dict, n: int):
    """``change_records`` for :func:`sheet_live.change`: deal ``n`` entered anew from the fields ``raw``."""
    from skatcore.records import sheet_store as store
    from skatcore.records.session_edit import deal_at, edited

    new = deal_from_fields(raw, name=field_label)

    def change(records, before):
        deal_at(records, n)
        before.state.dealer = next(x.dealer for x in before.state.sheet_lines if x.index == n)
        return edited(records, before, n, resolve_names(new, before), store.now())
    return change


@failures.saving
@posted
def save(request: Request, form) -> Response:
    name, path = visible_sheet(request)
    config: Config = request.app.state.config
    _ = words(request)["_"]
    try:
        raw = _fields(form, scored(path))
        with trusting(config.trust):
            line, _s = live.add(path, _entered(raw), uid=raw.get("id"))
    except live.StaleError as exc:
        return _after(request, name, path, saved=_say(request, exc))
    except InputError as exc:
        return failures.refusal(request, 422, _say(request, exc))
    return _after(request, name, path, saved=_("Deal {n} saved: {count}", n=line.index, count=_saved_line(request, line)))


def _saved_line(request: Request, line) -> str:
    """The saved deal as the sheet has it: its count, its marks (Bock) and what each player got."""
    count = words(request)["count"]
    entries = ", ".join(f"{p} {v:+d}" for p, v in line.entries.items() if v)
    marks = f" [{', '.join(line.marks)}]" if line.marks else ""
    return count(f"{line.result.explanation}{marks}") + (f" → {entries}" if entries else "")


def _say(request: Request, exc: InputError, raw: dict | None = None, n: int | None = None) -> str:
    """A refusal of the deal in the page's words: the form's fields (the CLI's
    F,M,R is the three fields here), deal ``n`` of a correction as the form
    has it, and never the server's file."""
    at = f"deals[{n - 1}]" if n else None
    if at and raw is not None and exc.path and exc.path.startswith(at):
        exc = in_fields(InputError(exc.message, path=exc.path[len(at):].lstrip(".") or None), raw, name=field_label)
    elif exc.path and (later := re.match(r"deals\[(\d+)\]", exc.path)):
        exc = InputError(exc.message, path=f"deal {int(later[1]) + 1}")
    if exc.path == "N":  # the CLI's argument: the deal the page is about
        exc = InputError(exc.message)
    lang, _ = lang_of(request), words(request)["_"]
    said = refusal_words(printable(exc.message).replace(" F,M,R", ""), lang)
    if exc.path and (deal := re.fullmatch(r"deal (\d+)", exc.path)):
        return f"{_('Deal {n}', n=deal[1])}: {said}"
    return f"{_(printable(exc.path))}: {said}" if exc.path else said


def _after(request: Request, name: str, path: Path, saved: str | None = None) -> Response:
    """After a change: the fresh list and an empty form (htmx swaps both)."""
    snap = scored(path)
    oob = deal_list(request, name, snap, summary=True).replace('<div id="sheet"', '<div id="sheet" hx-swap-oob="true"', 1)
    return render(request, "_after.html", body=oob, entry=entry_form(request, name, snap, saved=saved))


@failures.saving
@posted
def correct(request: Request, form) -> Response:
    from skatcore.records import sheet_store as store
    from skatcore.records.session_edit import voided

    name, path = visible_sheet(request)
    n = request.path_params["n"]
    tag = str(form.get("tag", "")) or None
    config: Config = request.app.state.config
    void = request.url.path.endswith("/void")
    raw: dict | None = None
    try:
        if void:
            reason = str(form.get("reason", "")).strip()[:200] or None

            def change(records, before):
                return voided(records, before, n, store.now(), reason)
        else:
            snap = scored(path)
            try:
                check_deal(snap, n)
            except Problem as exc:  # taken back on another device: the form stays as typed, the line where the count is
                return failures.refusal(request, exc.status, exc.said(request))
            raw = _fields(form, snap, n)
            raw.pop("id", None)
            change = _edit(raw, n)
        with trusting(config.trust):
            live.change(path, n, tag, f"{'voiding' if void else 'correcting'} deal {n}", change)
    except InputError as exc:
        return failures.refusal(request, 409 if isinstance(exc, live.StaleError) else 422, _say(request, exc, raw, n),
                        "#voiderr" if void else "#preview")
    response = Response(status_code=204)
    response.headers["HX-Redirect"] = f"/s/{name}"
    return response


@failures.saving
@posted
def undo(request: Request, form) -> Response:
    name, path = visible_sheet(request)
    _ = words(request)["_"]
    try:
        n = live.undo(path, failures.whole(form.get("last"), 1, 10**6, "last"))
    except InputError as exc:  # in the page's words, never the server's file (a second phone's undo of the same deal)
        said = (_("expected the number of the last deal") if exc.path == "last" else
                refusal_words(printable(exc.message), lang_of(request)))
        return failures.refusal(request, 409, said)
    return _after(request, name, path, saved=_("Deal {n} taken back", n=n))


routes = [
    Route("/s/{name}/preview", preview, methods=["POST"]),
    Route("/s/{name}/deals", save, methods=["POST"]),
    Route("/s/{name}/undo", undo, methods=["POST"]),
    Route("/s/{name}/deals/{n:int}", correct, methods=["POST"]),
    Route("/s/{name}/deals/{n:int}/void", correct, methods=["POST"]),
    Route("/s/{name}/deals/{n:int}/preview", preview, methods=["POST"]),
]
