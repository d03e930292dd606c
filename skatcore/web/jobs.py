"""Comparisons in the background (``skat compare`` for the organiser):
2-4 rulesets, deals, players; a thread plays them with a progress bar the
page polls, then shows the report ``skat compare --html`` writes
(:func:`skatcore.sim.report.render`) and offers the per-deal file (CSV)."""

from __future__ import annotations

import secrets
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from skatcore.errors import InputError
from skatcore.web import security
from skatcore.web.failures import whole
from skatcore.web.pages import (
    Config,
    Problem,
    message,
    of_ruleset,
    organiser_only,
    render,
    ruleset_names,
    ruleset_ref,
    without_folder,
)
from skatcore.web.rulewords import PLAYER_WORDS

MAX_DEALS = 20_000  # a table's evening of questions, not a research run: that is skat compare's
MAX_SEED = 2**63 - 1  # as skat compare --seed
MAX_JOBS = 2  # the machine is the organiser's laptop
MAX_KEPT = 20  # finished ones kept (report and per-deal file in memory: up to ~10 MB each), the oldest dropped
PLAYERS = ("heuristic", "random", "expert")


@dataclass
class Job:
    refs: list[str]  # the rulesets' names as the pages show them (``pub``, ``house.yaml``)
    deals: int
    seed: int
    players: str
    files: list[str] = field(default_factory=list)  # what loads each (a house ruleset's file); else refs
    done: int = 0
    total: int = 0
    report: str | None = None
    rows: bytes | None = None  # the per-deal file, kept in memory once played (its folder is removed)
    error: str | None = None
    stop: bool = False  # the organiser stopped it: it ends after the deals being played (a chunk, about 2 s of CPU)
    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="skat-serve-")))

    @property
    def finished(self) -> bool:
        return self.report is not None or self.error is not None

    @property
    def stopped(self) -> bool:
        return self.stop and self.report is None

    @property
    def per_deal(self) -> Path:
        return self.folder / "deals.csv"


def run(job: Job, trust: bool, folder: Path | None = None) -> None:
    """Play the comparison; the job records progress, then the report or the one-line error."""
    from skatcore.rules.compiler import get_rules
    from skatcore.rules.describe import rules_diff
    from skatcore.rules.trust import trusting
    from skatcore.sim.compare import compare
    from skatcore.sim.export import RowWriter
    from skatcore.sim.outcomes import row_keys
    from skatcore.sim.provenance import pins
    from skatcore.sim.report import Provenance
    from skatcore.sim.report import render as report
    from skatcore.sim.simulate import parse_players

    def progress(n: int, total: int) -> None:
        job.done, job.total = job.done + n, total
        if job.stop:
            raise _Stopped

    ok, writer = False, None
    try:
        with trusting(trust, paths=False):  # a house ruleset earns no trust by lying in the sheets folder
            slots = parse_players(job.players)
            files = job.files or job.refs
            rules = [get_rules(r) for r in files]
            writer = RowWriter(str(job.per_deal), row_keys(rules))
            started = time.monotonic()
            result = compare(files, job.deals, job.seed, slots, progress=progress, on_rows=writer.write)
            ok = True
            argv = ["compare", *job.refs, "--deals", str(job.deals), "--seed", str(job.seed), "--players", job.players,
                    "--html", "report.html", "--per-deal", "deals.csv"]  # the same report from a terminal
            pinned = file_names(pins(files, slots, None, seed=job.seed, deals=job.deals, options={}))
            made = Provenance.now(argv, seconds=time.monotonic() - started, pins=pinned)
            job.report = report(result, rules_diff(rules), slots, None, rules, made)
    except _Stopped:
        job.error = f"stopped after {job.done:,} of {job.total:,} deals"  # (the page says it in its words)
    except InputError as exc:
        job.error = without_folder(message(exc), folder) if folder else message(exc)
    except Exception as exc:  # a bug of ours: said in one line on the page, not a dead thread
        job.error = f"internal error: {type(exc).__name__}: {exc}"
    finally:
        if writer:
            writer.close(ok)
        if ok and job.per_deal.is_file():
            job.rows = job.per_deal.read_bytes()
        remove_folder(job)


class _Stopped(Exception):
    """The organiser stopped the job (raised in its progress, between chunks)."""


def file_names(record: Any) -> Any:
    """A provenance record as a page shows it: every file by its name, never the server's path (hashes pin it)."""
    if isinstance(record, dict):
        return {k: (Path(v).name if k in ("file", "ref") and isinstance(v, str) else file_names(v))
                for k, v in record.items()}
    if isinstance(record, list):
        return [file_names(v) for v in record]
    return record


def remove_folder(job: Job) -> None:
    """The job's temporary folder gone (when it is done, and when the server stops)."""
    shutil.rmtree(job.folder, ignore_errors=True)


def remove_all(jobs: dict[str, Job]) -> None:
    """Every job's temporary folder removed (the server stops; a running job's thread dies with it)."""
    for job in jobs.values():
        remove_folder(job)


def compare_page(request: Request) -> Response:
    """The comparison form; ``?ruleset=house.yaml&ruleset=pub`` ticks those (a rules page's link)."""
    organiser_only(request)
    config: Config = request.app.state.config
    ticked = [r for r in request.query_params.getlist("ruleset")[:4] if r in ruleset_names(config)]
    return render(request, "compare.html", rulesets=ruleset_names(config), players=PLAYERS, jobs=_jobs(request),
                  ticked=ticked, player_words=PLAYER_WORDS, typed={})


def _jobs(request: Request) -> dict[str, Job]:
    return request.app.state.jobs


async def start(request: Request) -> Response:
    organiser_only(request)
    config: Config = request.app.state.config
    form = await security.form_of(request)
    refs = [r for r in form.getlist("ruleset") if isinstance(r, str)]
    files = [ruleset_ref(config, r) for r in refs[:4]]
    error = None
    try:  # as skat compare reads --deals and --seed: ASCII digits, within bounds
        deals = whole(form.get("deals", ""), 1, MAX_DEALS, "deals")
        seed = whole(form.get("seed", "1"), 0, MAX_SEED, "seed")
    except InputError as exc:
        deals, seed, error = 0, 0, message(exc)
    players = str(form.get("players", "heuristic"))
    if not error and not 2 <= len(refs) <= 4:
        error = f"choose 2 to 4 rulesets, got {len(refs)}"
    elif not error and not all(files):
        error = "choose rulesets of the list (shipped, installed or kept here)"
    elif not error and len(set(refs)) < len(refs):
        error = "choose each ruleset once"
    elif not error and players not in PLAYERS:
        error = f"players: expected one of {', '.join(PLAYERS)}"
    if not error:
        error = await run_in_threadpool(_unloadable, config, refs, [str(f) for f in files])  # compiling takes a moment
    if not error and sum(not j.finished for j in _jobs(request).values()) >= MAX_JOBS:  # after the last await, so
        # that posts sent at once cannot all pass it before any job is added (12 ran at once)
        error = f"{MAX_JOBS} comparisons are running: wait for one to finish"
    if error:  # the form as typed (it put back 200 deals and seed 1: a start after the fix played another seed)
        typed = {k: str(form.get(k, ""))[:20] for k in ("deals", "seed", "players")}
        return render(request, "compare.html", 422, rulesets=ruleset_names(config), players=PLAYERS,
                      jobs=_jobs(request), error=error, ticked=[r for r in refs if r in ruleset_names(config)],
                      player_words=PLAYER_WORDS, typed=typed)
    job = Job(refs, deals, seed, ",".join([players] * 3), files=[str(f) for f in files], total=deals)
    key = secrets.token_hex(8)
    _keep_the_last(_jobs(request))
    _jobs(request)[key] = job
    threading.Thread(target=run, args=(job, config.trust, config.sheets), daemon=True, name=f"compare-{key}").start()
    response = Response(status_code=303)
    response.headers["location"] = f"/compare/{key}"
    return response


def _keep_the_last(jobs: dict[str, Job]) -> None:
    """Room for a new job: the oldest finished ones dropped beyond :data:`MAX_KEPT` (memory grew with every one)."""
    done = [k for k, j in jobs.items() if j.finished]
    for key in done[:max(0, len(done) - MAX_KEPT + 1)]:
        del jobs[key]


def _unloadable(config: Config, refs: list[str], files: list[str]) -> str | None:
    """The first house ruleset that does not load, or two of the same name (said at once, not by the job), in one
    line without the folder."""
    from skatcore.rules.compiler import get_rules
    from skatcore.rules.trust import trusting

    named: dict[str, str] = {}
    for ref, file in zip(refs, files, strict=True):
        try:
            with trusting(config.trust, paths=False):
                name = get_rules(file).name
        except InputError as exc:
            return of_ruleset(ref, exc, config.sheets)
        if name in named:  # as skat compare: the report and the per-deal file could not tell them apart
            return f"{named[name]} and {ref} are both named {name!r}: choose rulesets of different names"
        named[name] = ref
    return None


def _job(request: Request) -> tuple[str, Job]:
    organiser_only(request)
    key = request.path_params["key"]
    job = _jobs(request).get(key)
    if job is None:
        raise Problem(404, "no such comparison (the last 20 are kept while the server runs)")
    return key, job


def job_page(request: Request) -> Response:
    key, job = _job(request)
    return render(request, "job.html", key=key, job=job)


def job_status(request: Request) -> Response:
    key, job = _job(request)
    return render(request, "_job.html", key=key, job=job)


async def job_stop(request: Request) -> Response:
    """Stop a comparison: two long ones (20,000 deals of the expert, an hour or more) held Compare until the
    server was restarted.  It ends after the deals being played; its slot is free then."""
    key, job = _job(request)
    await security.form_of(request)  # (its CSRF field)
    job.stop = not job.finished or job.stop
    response = Response(status_code=303)
    response.headers["location"] = f"/compare/{key}"
    return response


def job_report(request: Request) -> Response:
    _, job = _job(request)
    if job.report is None:
        raise Problem(404, "the report is not ready")
    return HTMLResponse(job.report)


def job_rows(request: Request) -> Response:
    key, job = _job(request)
    if job.report is None or job.rows is None:
        raise Problem(404, "the per-deal file is not ready")
    return Response(job.rows, media_type="text/csv",
                    headers={"content-disposition": f'attachment; filename="compare-{key}-deals.csv"'})


routes = [Route("/compare", compare_page), Route("/compare", start, methods=["POST"]),
          Route("/compare/{key}", job_page), Route("/compare/{key}/status", job_status),
          Route("/compare/{key}/stop", job_stop, methods=["POST"]),
          Route("/compare/{key}/report.html", job_report), Route("/compare/{key}/deals.csv", job_rows)]
