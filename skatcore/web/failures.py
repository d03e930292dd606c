"""What ``skat serve`` answers when something goes wrong: never a 500 with a
traceback, always one line saying what went wrong and what to do.

* A save, correction or undo that meets an SQLite error (the disk full, the
  sheet held by another process, a damaged file or a trigger aborting the
  write) answers one line: 503 when trying again later may work (the phone
  keeps the deal, ``static/offline.js`` sends it again), 409 otherwise.
  Nothing was written: the transaction rolled back.
* A sheet held by another process is waited for :data:`BUSY_SECONDS`, not
  the CLI's 60 s: a phone at the table does not wait a minute.
* Any other exception is a one-line page (an htmx fragment for htmx), its
  traceback logged on the server only.
* Form values are read by the rules of the CLI's arguments (:func:`whole`):
  ASCII digits only, within bounds.
"""

from __future__ import annotations

import functools
import logging
import re
import sqlite3

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from skatcore.errors import InputError, printable

log = logging.getLogger("skatcore.web")
BUSY_SECONDS = 5.0  # how long a web save waits for a sheet another process holds
_WHOLE = re.compile(r"[+-]?[0-9]{1,19}")


def whole(text: object, lo: int, hi: int, what: str) -> int:
    """A form's whole number as the CLI reads one (:mod:`skatcore.cli.numbers`):
    ASCII digits only (``٧٠`` is not 70), ``lo`` to ``hi``; else an
    :class:`InputError` naming ``what``."""
    raw = text.strip() if isinstance(text, str) else ""
    if not _WHOLE.fullmatch(raw):
        shown = printable(raw[:20]) + ("..." if len(raw) > 20 else "")
        raise InputError(f"expected a whole number from {lo:,} to {hi:,} (digits 0-9), got {shown!r}", path=what)
    n = int(raw)
    if not lo <= n <= hi:
        raise InputError(f"expected a whole number from {lo:,} to {hi:,}, got {n}", path=what)
    return n


def kept(exc: sqlite3.Error) -> bool:
    """Whether trying again later may succeed (busy, locked, full, I/O): the phone keeps the deal."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc).lower()
    return (any(k in name for k in ("BUSY", "LOCKED", "FULL", "IOERR"))
            or any(k in text for k in ("locked", "busy", "disk is full", "i/o error")))


def _english(text: str, **values: object) -> str:
    return text.format(**values) if values else text


def sqlite_line(exc: sqlite3.Error, busy: float | None = None, _=_english) -> str:
    """An SQLite error of a web save as one line: what happened, that nothing was written, what to do
    (``_``: the page's translator, :func:`.i18n.translator`)."""
    from skatcore.records.sheet_store import problem

    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc).lower()
    if "BUSY" in name or "LOCKED" in name or "locked" in text or "busy" in text:
        busy = BUSY_SECONDS if busy is None else busy
        return _("the sheet is busy: another program held it for over {busy} s; nothing was saved, the deal is sent again shortly",
                 busy=f"{busy:g}")
    said = printable(problem(exc))
    if kept(exc):
        return _("{said}; the deal is kept on this device and sent again when the server can write", said=said)
    return _("the sheet could not be written ({said}); nothing was saved: ask the organiser to check the sheet file",
             said=said)


def _of(request: Request):
    from skatcore.web.pages import words

    return words(request)["_"]


def refusal(request: Request, status: int, text: str, where: str = "#preview") -> Response:
    """One line as an htmx fragment, shown where the deal form's count is (or ``where``), the form kept as typed."""
    from skatcore.web.pages import render

    response = render(request, "_entry_error.html", status, error=text)
    response.headers["HX-Retarget"] = where
    response.headers["HX-Reswap"] = "innerHTML"
    return response


def one_line(request: Request, status: int, text: str) -> Response:
    """A failure as one line: a fragment where the count is for htmx, else a page."""
    from skatcore.web.pages import render

    response: Response
    if request.headers.get("hx-request"):
        response = refusal(request, status, text)
    else:
        response = render(request, "error.html", status, error=text, here="/")
    if status == 503:
        response.headers["Retry-After"] = "5"
    return response


def saving(handler):
    """A handler that writes a sheet: an SQLite error is one line (:func:`sqlite_line`), 503 or 409."""

    @functools.wraps(handler)
    async def wrapped(request: Request) -> Response:  # (the wait for a held sheet is :class:`Patience`'s)
        try:
            return await handler(request)
        except sqlite3.Error as exc:
            log.warning("saving %s: %s", request.url.path, exc)
            return one_line(request, 503 if kept(exc) else 409, sqlite_line(exc, _=_of(request)))
    return wrapped


class Patience:
    """ASGI middleware: every request waits at most :data:`BUSY_SECONDS` for
    a sheet another process holds (a page giving a sheet its join code writes too)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        from skatcore.records.sheet_store import BUSY_TIMEOUT

        token = BUSY_TIMEOUT.set(BUSY_SECONDS)  # (copied into the thread a plain handler runs in)
        try:
            await self.app(scope, receive, send)
        finally:
            BUSY_TIMEOUT.reset(token)


def unexpected(request: Request, exc: Exception) -> Response:
    """Any exception no handler said in words: one line (logged with its traceback here, never sent);
    an SQLite error outside a save as :func:`sqlite_line` says it."""
    if isinstance(exc, sqlite3.Error):
        log.warning("%s %s: %s", request.method, request.url.path, exc)
        _ = _of(request)
        line = sqlite_line(exc, _=_)
        if kept(exc):  # (no deal to keep here: the page is asked for again)
            line = f"{line.split('; ')[0]}; {_('reload the page in a moment')}"
        return one_line(request, 503 if kept(exc) else 409, line)
    log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    text = "something went wrong on the server (its log says what): try again, or tell the organiser"
    try:
        return one_line(request, 500, _of(request)(text))
    except Exception:  # (the page itself cannot be drawn)
        return PlainTextResponse(text, status_code=500)

