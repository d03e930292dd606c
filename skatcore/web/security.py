"""Who may do what on ``skat serve``, and the bounds of a request.

* The organiser holds the server's key (printed by ``skat serve`` in the
  link it shows; a cookie once the link was opened): it starts sheets,
  builds rulesets, runs comparisons and sees every sheet's join code.  The
  key is kept in the sheets folder (:data:`KEY_FILE`, readable by its owner
  only), so a restarted server still knows the organiser's device.
* A player's device holds one sheet's join code (a link or a code typed on
  the join page, kept as a cookie scoped to that sheet): it reads and writes
  that sheet only.  Without either nothing of a sheet is shown.
* Every form and htmx request carries the CSRF token of its page (a cookie
  and a field or header that must match), and the browser's Origin, where
  sent, must be this server: another site cannot make a device post.
* Requests are bounded in size (:data:`MAX_BODY`), before they are read.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import tempfile
from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse

MAX_BODY = 256 * 1024  # a ruleset form or a deal: a few KB; an upload of a ruleset file at most this
KEY_COOKIE, CSRF_COOKIE = "skat_key", "skat_csrf"
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read off a screen and typed on a phone
CODE_LENGTH = 10  # about 49 bits: not guessed over a table's network
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
_CODE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
KEY_FILE = ".skat-serve-key"  # in the sheets folder: the organiser's key, mode 0600
_KEY_TEXT = re.compile(r"[A-Za-z0-9_-]{8,128}")


def new_code() -> str:
    """A join code (also a server key): :data:`CODE_LENGTH` letters and digits."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def stored_key(folder: Path, renew: bool = False) -> str:
    """The organiser's key kept in ``folder`` (:data:`KEY_FILE`): created on
    first use (mode 0600, written whole before it appears: a second server
    starting at the same moment reads the same key), read after; ``renew``
    replaces it (the old organiser link stops working)."""
    path = folder / KEY_FILE
    if not renew:
        try:
            text = path.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            text = None
        except (OSError, UnicodeDecodeError) as exc:
            raise OSError(f"cannot read the organiser key {path} ({exc}): delete it for a new one") from None
        if text is not None:
            if not _KEY_TEXT.fullmatch(text):
                raise OSError(f"the organiser key {path} is not a key (8-128 letters, digits, - and _): "
                              "delete it for a new one")
            if path.stat().st_mode & 0o077:
                os.chmod(path, 0o600)  # a copy made readable by others: the owner's again
            return text
    key = new_code()
    fd, temp = tempfile.mkstemp(prefix=".skat-key-", dir=folder)  # mode 0600
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(key + "\n")
            f.flush()
            os.fsync(f.fileno())
        if renew:
            os.replace(temp, path)
            return key
        try:
            os.link(temp, path)  # fails if another server made it first: then its key is the key
        except FileExistsError:
            return stored_key(folder)
        return key
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


def clean_code(text: str | None) -> str | None:
    """A code as typed (spaces, dashes, capitals ignored), or ``None`` if it is not one."""
    if not text or len(text) > 40:
        return None
    code = re.sub(r"[\s-]", "", text).lower()
    return code if _CODE.fullmatch(code) else None


def same(a: str | None, b: str | None) -> bool:
    """Whether two secrets are equal, in constant time."""
    return bool(a) and bool(b) and hmac.compare_digest(str(a).encode(), str(b).encode())


def sheet_cookie(name: str) -> str:
    """The cookie holding a sheet's join code on a player's device."""
    return "skat_join_" + hashlib.sha256(name.encode()).hexdigest()[:12]


def is_organiser(request: Request) -> bool:
    return same(request.cookies.get(KEY_COOKIE), request.app.state.config.key)


def may_see(request: Request, name: str, code: str) -> bool:
    """The organiser, or a device that joined this sheet."""
    return is_organiser(request) or same(request.cookies.get(sheet_cookie(name)), code)


def csrf_token(request: Request) -> str:
    """This device's CSRF token (set as a cookie by :class:`Guard` when missing)."""
    return request.scope.setdefault("skat_csrf", request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(24))


class Guard:
    """ASGI middleware: request size bound, CSRF check of every unsafe
    request, the CSRF cookie set, and headers that keep the pages to
    themselves (no framing, no sniffing, scripts only from this server)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        request = Request(scope)
        length = request.headers.get("content-length")
        digits = length is not None and length.isascii() and length.isdigit()  # "²".isdigit(), which int() refuses
        if length is not None and (not digits or int(length) > MAX_BODY):
            return await _refuse(413, f"request too large (at most {MAX_BODY // 1024} KB)", scope, receive, send)
        if request.method not in SAFE_METHODS:
            why = _cross_site(request)
            if why:
                return await _refuse(403, why, scope, receive, send)
        received = 0

        async def bounded_receive():
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > MAX_BODY:  # a body without a length, or longer than it said
                raise _TooLarge()
            return message

        token = csrf_token(request)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(b"x-frame-options", b"SAMEORIGIN"), (b"x-content-type-options", b"nosniff"),
                            (b"referrer-policy", b"no-referrer"),
                            (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; "
                             b"style-src 'self' 'unsafe-inline'; frame-ancestors 'self'; form-action 'self'")]
                if request.cookies.get(CSRF_COOKIE) != token:
                    headers.append((b"set-cookie", f"{CSRF_COOKIE}={token}; Path=/; SameSite=Strict; HttpOnly".encode()))
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, bounded_receive, send_with_headers)
        except _TooLarge:
            await _refuse(413, f"request too large (at most {MAX_BODY // 1024} KB)", scope, receive, send)


class _TooLarge(HTTPException):
    """A body over :data:`MAX_BODY` without a length (chunked), or longer than it said: 413 where the
    handler reads it (Starlette's exception middleware answers it), else from :class:`Guard`."""

    def __init__(self) -> None:
        super().__init__(413, f"request too large (at most {MAX_BODY // 1024} KB)")


def _cross_site(request: Request) -> str | None:
    """Why an unsafe request is refused (another site's, or without this page's token), or ``None``."""
    origin = request.headers.get("origin")
    if origin and origin != "null" and origin.split("://", 1)[-1] != request.headers.get("host"):
        return "refused: a request from another site"
    if request.headers.get("sec-fetch-site") == "cross-site":
        return "refused: a request from another site"
    cookie = request.cookies.get(CSRF_COOKIE)
    sent = request.headers.get("x-csrf-token")
    if sent is None:
        sent = request.query_params.get("csrf")  # forms send it in the body: checked by form_of()
        if sent is None:
            request.scope["skat_csrf_pending"] = True
            return None if cookie else "refused: no CSRF cookie (reload the page)"
    return None if same(cookie, sent) else "refused: the page's CSRF token does not match (reload the page)"


async def form_of(request: Request):
    """The request's form, its CSRF field checked when the header did not carry it."""
    form = await request.form(max_files=1, max_fields=200)
    sent = form.get("csrf")
    if request.scope.get("skat_csrf_pending") and not same(request.cookies.get(CSRF_COOKIE),
                                                           sent if isinstance(sent, str) else None):
        await form.close()  # (an uploaded file's temporary copy)
        raise PermissionError("refused: the page's CSRF token does not match (reload the page)")
    return form


async def _refuse(status: int, text: str, scope, receive, send) -> None:
    await PlainTextResponse(text, status_code=status)(scope, receive, send)
