"""The Starlette application of ``skat serve``: the home page (the
organiser's list of sheets, or the join page), joining a sheet, and the
routes of :mod:`.sheets`, :mod:`.rulespages` and :mod:`.jobs`.

Pages are rendered on the server (Jinja2, autoescaped) with htmx for the
live parts; htmx is vendored in ``static/`` (pages work without internet).
Handlers that touch SQLite or the rules engine are plain functions: Starlette
runs them in its thread pool, so a slow scoring never stalls the others.
"""

from __future__ import annotations

import contextlib

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from skatcore.web import deals, failures, i18n, jobs, rulespages, security, sheets
from skatcore.web.pages import Config, Problem, render, ruleset_names
from skatcore.web.security import Guard, is_organiser

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
    return render(request, "home.html", sheets=sheets.sheet_list(config), rulesets=ruleset_names(config))


async def join(request: Request) -> Response:
    """A join link (``/j/CODE``) or the code typed on the join page."""
    if request.method == "POST":
        form = await security.form_of(request)
        typed = form.get("code")
    elif "code" in request.path_params:
        typed = request.path_params["code"]
    else:
        return render(request, "join.html")
    code = security.clean_code(typed if isinstance(typed, str) else None)
    name = request.app.state.codes.get(code) if code else None
    if code is None or name is None:
        return render(request, "join.html", 404, error="no sheet has this code: check it on the organiser's screen")
    response = RedirectResponse(f"/s/{name}", status_code=303)
    response.set_cookie(security.sheet_cookie(name), code, httponly=True, samesite="strict", path=f"/s/{name}",
                        max_age=7 * 24 * 3600)
    return response


def switch_language(request: Request) -> Response:
    """``/lang/de?next=/s/eve``: the page language from now on (a cookie), back to the page."""
    lang = request.path_params["lang"]
    if lang not in i18n.LANGS:
        raise Problem(404, "expected /lang/en or /lang/de")
    back = request.query_params.get("next", "/")
    if not back.startswith("/") or back.startswith("//") or "\\" in back or len(back) > 200:
        back = "/"  # only a page of this server
    response = RedirectResponse(back, status_code=303)
    response.set_cookie(i18n.LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="strict")
    return response


def _problem(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Problem)
    if request.headers.get("hx-request"):
        if request.headers.get("hx-target") in ("entry", "preview"):  # a deal form sent: kept as typed, the line where its count is
            return failures.refusal(request, exc.status, exc.said(request))
        return PlainTextResponse(exc.said(request), status_code=exc.status)
    return render(request, "error.html", exc.status, error=exc.said(request), here="/")  # a refusal says nothing of the address


def _refused(request: Request, exc: Exception) -> Response:
    return PlainTextResponse(str(exc), status_code=403)


def create_app(config: Config) -> Guard:
    """The application for ``config`` (the sheets folder must exist), behind
    its :class:`~skatcore.web.security.Guard` (``.app`` is the Starlette app).
    Without a key in ``config`` the one kept in the folder is used (made on
    the first start): the organiser's cookie outlives a restart."""
    if config.key is None:
        config.key = security.stored_key(config.sheets)
    routes = [Route("/", home), Route("/join", join, methods=["GET", "POST"]), Route("/j/{code}", join),
              Route("/lang/{lang}", switch_language),
              *sheets.routes, *deals.routes, *rulespages.routes, *jobs.routes,
              Mount("/static", StaticFiles(packages=[("skatcore.web", "static")]), name="static")]
    jobs_of_app: dict = {}

    @contextlib.asynccontextmanager
    async def lifespan(app):
        try:
            yield
        finally:  # the comparisons' temporary folders go with the server
            jobs.remove_all(jobs_of_app)

    app = Starlette(routes=routes, exception_handlers={Problem: _problem, PermissionError: _refused,
                                                     Exception: failures.unexpected}, lifespan=lifespan,
                    middleware=[Middleware(failures.Patience)])
    app.state.config = config
    app.state.codes = sheets.join_codes(config)
    app.state.jobs = jobs_of_app
    return Guard(app)


