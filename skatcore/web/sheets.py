"""The sheet pages of ``skat serve``: start a sheet, the sheet with its deal
form, the live list every device polls, a deal's page, exports.  Entering
and changing deals is :mod:`skatcore.web.deals`; the work is
:mod:`skatcore.records.sheet_live` (the same store, scoring and messages as
the CLI)."""

from __future__ import annotations

import functools
import hashlib
import secrets
import threading
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from skatcore.errors import InputError, json_text, yaml_text
from skatcore.records import sheet_live as live
from skatcore.rules.trust import trusting
from skatcore.web import entry as form_entry
from skatcore.web import exports, security
from skatcore.web.pages import (
    Config,
    Problem,
    env,
    lang_of,
    message,
    organiser_only,
    render,
    ruleset_names,
    sheet_file,
    without_folder,
    words,
)

# how the web form names the fields of a deal in messages (``skat sheet add`` says --points)
LABELS = {"declarer": "declarer", "bid": "bid", "game": "game", "points": "card points", "tricks": "tricks",
          "matadors": "matadors", "hand": "Hand", "schneider": "Schneider announced", "schwarz": "Schwarz announced",
          "ouvert": "ouvert", "call": "calls", "ramsch": "Ramsch points", "ramsch_tricks": "Ramsch tricks",
          "last_trick": "last trick", "passed": "all passed", "id": "deal id", "decl": "declarations",
          "pushes": "pushes", "instead": "Grand Hand instead of pushing"}
SEAT_WORDS = {"forehand": "forehand", "middlehand": "middlehand", "rearhand": "rearhand"}
PUSH_WORDS = {"seen": "pushed", "blind": "pushed blind", "pass": "declined the skat"}
# (sheet, version) -> the sheet scored and its list rendered: ten phones polling score it once
_snapshots: dict[tuple[str, str], live.Snapshot] = {}
_lists: dict[tuple[str, str, str, bool], str] = {}
_locks: dict[str, threading.Lock] = {}


def field_label(field: str) -> str:
    return LABELS.get(field, field)


def join_codes(config: Config) -> dict[str, str]:
    """Join code -> sheet name, for every sheet in the folder that has one."""
    codes = {}
    for name, meta in _metas(config):
        if isinstance(meta.get("join"), str):
            codes[meta["join"]] = name
    return codes


def _metas(config: Config):
    """(name, meta) of every readable sheet: cheap, checked, cached (:mod:`.sheetlist`)."""
    from skatcore.web.sheetlist import entries

    for e in entries(config.sheets):
        if "meta" in e:
            yield e["name"], e["meta"]


def sheet_list(config: Config) -> list[dict]:
    from skatcore.web.sheetlist import home_rows

    return home_rows(config.sheets)


def _code_of(request: Request, name: str, path: Path) -> str:
    """The sheet's join code; given one on first use (a sheet started with the CLI)."""
    from skatcore.records import sheet_store as store

    codes = request.app.state.codes
    for code, n in codes.items():
        if n == name:
            return code
    _, con = store.open_sheet(str(path))
    with store.transaction(con):
        code = store.read_meta(con, path).get("join")
        if not isinstance(code, str) or security.clean_code(code) != code:
            code = security.new_code()
            store.set_meta(con, "join", code)
    codes[code] = name
    return code


def visible_sheet(request: Request) -> tuple[str, Path]:
    """The sheet of the request, if this device may see it (else 404: a
    device without the code learns nothing, not even that it exists)."""
    config: Config = request.app.state.config
    name = request.path_params["name"]
    path = sheet_file(config, name)
    unknown = Problem(404, "no such sheet, or not joined: join it with the code on the organiser's screen")
    if security.is_organiser(request) and path.is_file():
        return name, path
    code = next((c for c, n in request.app.state.codes.items() if n == name), None)  # codes are given by the organiser's page
    if code is None or not path.is_file() or not security.may_see(request, name, code):
        raise unknown
    return name, path


def scored(path: Path, version: str | None = None) -> live.Snapshot:
    """The sheet scored, once per version however many devices ask at once."""
    with _locks.setdefault(str(path), threading.Lock()):
        try:
            version = version or live.version(path)
            key = (str(path), version)
            if key not in _snapshots:
                if len(_snapshots) > 50:
                    _snapshots.clear()
                _snapshots[key] = live.snapshot(path)
            return _snapshots[key]
        except InputError as exc:
            raise Problem(409, without_folder(message(exc), path.parent)) from None  # the file's name, not where


def posted(handler):
    """An endpoint of a posted form: the form read here, the work (SQLite, scoring) in a worker thread, so that a
    sheet held by another process never stops the server answering the other phones."""
    @functools.wraps(handler)
    async def endpoint(request: Request) -> Response:
        form = await security.form_of(request)
        return await run_in_threadpool(handler, request, form)
    return endpoint


# ---------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------


@posted
def new_sheet(request: Request, form) -> Response:
    organiser_only(request)
    config: Config = request.app.state.config
    name = str(form.get("name", "")).strip()
    players = [p.strip() for p in str(form.get("players", "")).replace("\n", ",").split(",") if p.strip()]
    ruleset = str(form.get("ruleset", ""))
    stake = str(form.get("stake", "")).strip().replace(",", ".")
    stake = stake if stake.isascii() else "?"  # (float() reads other scripts' digits)
    try:
        path = sheet_file(config, name)
        if path.exists():
            raise Problem(409, "a sheet named {name} exists already: choose another name", name=repr(name))
        ruleset = exports.offered_ruleset(config, ruleset)  # a name of the list, never a path: nothing read
        with trusting(config.trust):
            live.create(path, ruleset, players, stake=float(stake) if stake else None,
                        title=str(form.get("title", "")).strip()[:80] or None)
    except (InputError, ValueError, Problem) as exc:
        status, error = ((exc.status, exc.said(request)) if isinstance(exc, Problem) else
                         (400, without_folder(message(exc), config.sheets) if isinstance(exc, InputError) else
                          f"stake: expected a number, got {stake!r}"))
        return render(request, "home.html", status, error=error, sheets=sheet_list(config),
                      rulesets=ruleset_names(config), form=dict(form))
    _code_of(request, name, path)
    return RedirectResponse(f"/s/{name}", status_code=303)


@functools.lru_cache(maxsize=64)
def join_qr(url: str) -> str:
    """The join link as a QR code for the phones at the table to scan: an
    inline SVG (no script, no request), dark on white whatever the theme."""
    import segno

    return str(segno.make(url, error="m").svg_inline(border=2, omitsize=True, light="#fff", title="QR code of the join link"))


def sheet_page(request: Request) -> Response:
    name, path = visible_sheet(request)
    snap = scored(path)
    config: Config = request.app.state.config
    code = _code_of(request, name, path)
    join_url = f"{config.base_url}/j/{code}"
    return render(request, "sheet.html", name=name, snap=snap, code=code, join_url=join_url, join_qr=join_qr(join_url),
                  summary=_summary(request, name, snap), body=deal_list(request, name, snap), entry=entry_form(request, name, snap))


def body(request: Request) -> Response:
    """The live list; ``?v=`` the version the device shows: 204 if unchanged."""
    name, path = visible_sheet(request)
    try:
        v = live.version(path)
    except InputError as exc:
        raise Problem(409, without_folder(message(exc), path.parent)) from None  # the file's name, not where
    if request.query_params.get("v") == v:
        return Response(status_code=204)
    return Response(deal_list(request, name, scored(path, v), summary=True), media_type="text/html")


def deal_list(request: Request, name: str, snap: live.Snapshot, summary: bool = False) -> str:
    """The list of deals (``#sheet``, what every device polls), with
    ``summary`` the totals and the next deal as an out-of-band swap too."""
    key = (str(snap.path), snap.version, lang_of(request), summary)
    if key in _lists:
        return _lists[key]
    context = _sheet_context(name, snap)
    html = env.get_template("_body.html").render(**context, **words(request))
    if summary:
        html += env.get_template("_summary.html").render(**context, **words(request), oob=True)
    if len(_lists) > 50:
        _lists.clear()
    _lists[key] = html
    return html


def _sheet_context(name: str, snap: live.Snapshot) -> dict:
    """What the list and the summary show of a scored sheet."""
    from skatcore.records.money import money_text
    from skatcore.records.session_edit import history_lines

    res, st = snap.result, snap.result.state
    seated = seats_of(st).values()
    rows = [{"n": line.index, "declarer": line.declarer, "label": line.label, "won": line.result.won,
             "passed": line.result.game == "passed", "calls": line.result.extra.get("calls") or [],
             "value": line.result.value if line.result.declarer is not None and not line.void else "",
             "entries": [line.entries[p] for p in st.players], "totals": [line.totals[p] for p in st.players],
             "marks": line.marks, "void": line.void, "explanation": line.result.explanation} for line in st.sheet_lines]
    return dict(name=name, rows=rows, players=st.players, totals=[st.totals[p] for p in st.players], res=res,
                form_kind=form_kind(st, res.outlook.bidding),
                money_text=money_text, next_dealer=st.players[st.dealer], notes=st.notes, closed=st.closed,
                history=history_lines(st.sheet_lines)[1:], version=snap.version, outlook=res.outlook,
                out=[p for p in st.players if p not in seated])


def _summary(request: Request, name: str, snap: live.Snapshot) -> str:
    return env.get_template("_summary.html").render(**_sheet_context(name, snap), **words(request))


def form_kind(st, bidding: bool) -> str:
    """What the form of the next deal offers and who plays it, as a key the page compares (``static/skat.js``):
    a form drawn before another phone's save is drawn again when the kind changed (a Ramsch round began or
    ended), or, nothing typed into it yet, when a player its rows name deals now (a table of four).  Seats moved
    on among the same players keep the form as it is: its rows are read by the players they name."""
    kind = "ramsch" if form_entry.offer(st.rules, bidding=bidding).ramsch_only else "bid"
    return f"{kind} {hashlib.sha256(repr(sorted(seats_of(st).values())).encode()).hexdigest()[:10]}"


def seats_of(st, n: int | None = None) -> dict[str, str]:
    """Seat -> player of deal ``n``, or of the next deal."""
    from skatcore.engine.table import people, seating

    if n:
        line = next(x for x in st.sheet_lines if x.index == n)
        return {seat: st.players[i] for seat, i in line.seating.items()}
    return {seat: st.players[i] for seat, i in seating(len(st.players), st.dealer, people(st.rules)).items()}


def entry_form(request: Request, name: str, snap: live.Snapshot, n: int | None = None, error: str | None = None,
           values: dict | None = None, saved: str | None = None) -> str:
    """The deal form: a new deal, or (``n``) a correction of deal ``n``."""
    st = snap.session.state
    offer = form_entry.offer(st.rules, bidding=bool(n) or snap.result.outlook.bidding)
    if n is None and offer.ramsch_only:  # a Ramsch round, or every deal a Ramsch
        values = {"game": "ramsch", **(values or {})}
    seats = seats_of(st, n)
    declarers = [(p, p not in seats.values()) for p in st.players]
    return env.get_template("_entry.html").render(
        name=name, offer=offer, declarers=declarers, seats=list(seats.items()), matadors=form_entry.MATADORS,
        more_matadors=form_entry.MORE_MATADORS, symbols=form_entry.SYMBOLS, game_words=form_entry.GAME_WORDS,
        seat_words=SEAT_WORDS, push_words=PUSH_WORDS, uid="w" + secrets.token_hex(6), csrf=security.csrf_token(request),
        n=n, tag=live.deal_tag(snap.deals[n - 1][1]) if n else None, error=error, values=values or {},
        declared={str(d).split("=")[0] for d in (values or {}).get("decl") or []},
        next_n=len(snap.deals) + 1, dealer=st.players[st.dealer], saved=saved,
        kind=None if n else form_kind(st, snap.result.outlook.bidding), **words(request))


def entry(request: Request) -> Response:
    """The form of the next deal, drawn afresh (``static/skat.js`` asks for it when the next deal's kind changed)."""
    name, path = visible_sheet(request)
    return Response(entry_form(request, name, scored(path)), media_type="text/html")


def check_deal(snap: live.Snapshot, n: int) -> None:
    if not 1 <= n <= len(snap.deals):
        raise Problem(404, "no deal {n} (the sheet has {count})", n=n, count=len(snap.deals))


def deal_page(request: Request) -> Response:
    """One deal: its count, its history, and the forms to correct or void it."""
    name, path = visible_sheet(request)
    n = request.path_params["n"]
    snap = scored(path)
    check_deal(snap, n)
    line = next(x for x in snap.result.state.sheet_lines if x.index == n)
    from skatcore.records.session_edit import history_lines

    record = snap.deals[n - 1][1]
    return render(request, "deal.html", name=name, line=line, n=n, history=history_lines([line])[1:],
                  entry=entry_form(request, name, snap, n=n, values=form_entry.values_of_record(record, line.declarer)),
                  tag=live.deal_tag(record))


def export(request: Request) -> Response:
    """The sheet as a session record (YAML, JSON) or its lines as CSV."""
    name, path = visible_sheet(request)
    kind = request.path_params["kind"]
    snap = scored(path)
    if kind == "csv":
        text = _csv(snap)
    elif kind == "json":
        text = json_text(live.export_doc(snap.meta, snap.deals), indent=2)
    elif kind == "yaml":
        text = yaml_text(live.export_doc(snap.meta, snap.deals))
    else:
        raise Problem(404, "export as yaml, json or csv")
    media = {"csv": "text/csv", "json": "application/json", "yaml": "application/yaml"}[kind]
    return Response(text, media_type=f"{media}; charset=utf-8",
                    headers={"content-disposition": f'attachment; filename="{name}.{kind}"'})


def _csv(snap: live.Snapshot) -> str:
    return exports.sheet_csv(snap.result.state)


def json_sheet(request: Request) -> Response:
    """The scored sheet as ``skat sheet show --json`` prints it."""
    _, path = visible_sheet(request)
    return Response(json_text(scored(path).result.to_json()), media_type="application/json")


routes = [
    Route("/sheets", new_sheet, methods=["POST"]),
    Route("/s/{name}", sheet_page),
    Route("/s/{name}/body", body),
    Route("/s/{name}/entry", entry),
    Route("/s/{name}/sheet.json", json_sheet),
    Route("/s/{name}/deals/{n:int}", deal_page),
    Route("/s/{name}/export.{kind}", export),
]
