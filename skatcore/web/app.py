"""The Starlette application of ``skat serve``: the home page (the
organiser's list of sheets, or the join page), joining a sheet, and the
routes of :mod:`.sheets`, :mod:`.rulespages` and :mod:`.jobs`.

Pages are rendered on the server (Jinja2, autoescaped) with htmx for the
live parts; htmx is vendored in ``static/`` (pages work without internet).
Handlers that touch SQLite or the rules engine are plain functions: Starlette
runs them in its thread pool, so a slow scoring never stalls the others.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from skatcore.errors import InputError, printable
from skatcore.web import security
from skatcore.web.security import Guard, csrf_token, is_organiser

SHEET_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")


@dataclass
class Config:
    """What ``skat serve`` was started with."""

    sheets: Path
    key: str = field(default_factory=security.new_code)
    trust: bool = False
    base_url: str = "http://127.0.0.1:8000"


class Problem(Exception):
    """A refusal shown to the user: an HTTP status and one line."""

    def __init__(self, status: int, text: str):
        super().__init__(text)
        self.status, self.text = status, text


_env = Environment(loader=PackageLoader("skatcore.web", "templates"), autoescape=select_autoescape(default=True),
                   trim_blocks=True, lstrip_blocks=True)


def render(request: Request, template: str, status: int = 200, **context) -> HTMLResponse:
    """A page or fragment from ``templates/``, every value HTML-escaped."""
    html = _env.get_template(template).render(request=request, csrf=csrf_token(request),
                                              organiser=is_organiser(request), **context)
    return HTMLResponse(html, status_code=status)


def message(exc: InputError) -> str:
    """An error's one line, safe for a terminal and (escaped later) a page."""
    return printable(str(exc))


def sheet_file(config: Config, name: str) -> Path:
    """The file of sheet ``name`` in the sheets folder (a name is letters, digits, - and _)."""
    if not SHEET_NAME.fullmatch(name or ""):
        raise Problem(404, "no such sheet (a sheet name is letters, digits, - and _, at most 40)")
    return config.sheets / f"{name}.sqlite"


# ---------------------------------------------------------------------------
# Home and joining
# ---------------------------------------------------------------------------


def home(request: Request) -> Response:
    config: Config = request.app.state.config
    key = request.query_params.get("key")
    if key is not None:  # the organiser's link: remembered as a cookie, then out of the address bar
        if not security.same(key, config.key):
            return render(request, "join.html", 403, error="this organiser link is not the server's (see its terminal)")
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(security.KEY_COOKIE, key, httponly=True, samesite="strict")
        return response
    if not is_organiser(request):
        return render(request, "join.html")
    from skatcore.rules.ruleset import all_rulesets
    from skatcore.web.sheets import sheet_list
    return render(request, "home.html", sheets=sheet_list(config), rulesets=sorted(all_rulesets()) + _house(config))


def _house(config: Config) -> list[str]:
    """Rulesets built on this server (files in the sheets folder)."""
    return sorted(p.name for p in config.sheets.glob("*.yaml"))


async def join(request: Request) -> Response:
    """A join link (``/j/CODE``) or the code typed on the join page."""
    if request.method == "POST":
        form = await security.form_of(request)
        typed = form.get("code")
    else:
        typed = request.path_params.get("code")
    code = security.clean_code(typed if isinstance(typed, str) else None)
    name = request.app.state.codes.get(code) if code else None
    if name is None:
        return render(request, "join.html", 404, error="no sheet has this code: check it on the organiser's screen")
    response = RedirectResponse(f"/s/{name}", status_code=303)
    response.set_cookie(security.sheet_cookie(name), code, httponly=True, samesite="strict", path=f"/s/{name}",
                        max_age=7 * 24 * 3600)
    return response


def _problem(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Problem)
    if request.headers.get("hx-request"):
        return PlainTextResponse(exc.text, status_code=exc.status)
    return render(request, "error.html", exc.status, error=exc.text)


def _refused(request: Request, exc: Exception) -> Response:
    return PlainTextResponse(str(exc), status_code=403)


def create_app(config: Config) -> Starlette:
    """The application for ``config`` (the sheets folder must exist)."""
    from skatcore.web import jobs, rulespages, sheets

    routes = [Route("/", home), Route("/join", join, methods=["GET", "POST"]), Route("/j/{code}", join),
              *sheets.routes, *rulespages.routes, *jobs.routes,
              Mount("/static", StaticFiles(packages=[("skatcore.web", "static")]), name="static")]
    app = Starlette(routes=routes, exception_handlers={Problem: _problem, PermissionError: _refused})
    app.state.config = config
    app.state.codes = sheets.join_codes(config)
    app.state.jobs = {}
    return Guard(app)


def organiser_only(request: Request) -> None:
    if not is_organiser(request):
        raise Problem(403, "only the organiser's device may do this (open the link skat serve printed)")
