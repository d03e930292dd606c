"""What every page of ``skat serve`` shares: the server's settings, the
templates (Jinja2, autoescaped), refusals as pages, sheet names."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse

from skatcore.errors import InputError, printable
from skatcore.web import i18n
from skatcore.web.security import csrf_token, is_organiser

SHEET_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")


@dataclass
class Config:
    """What ``skat serve`` was started with (``key``: the organiser's key;
    ``None``: the one kept in the sheets folder, :func:`.security.stored_key`)."""

    sheets: Path
    key: str | None = None
    trust: bool = False
    base_url: str = "http://127.0.0.1:8000"


class Problem(Exception):
    """A refusal shown to the user: an HTTP status and one line."""

    def __init__(self, status: int, text: str, **values: object):
        super().__init__(text.format(**values) if values else text)
        self.status, self.text, self.template, self.values = status, str(self), text, values

    def said(self, request: Request) -> str:
        """The line in the page's language (a sentence of the engine as :func:`i18n.refusal_words` says it)."""
        said = words(request)["_"](self.template, **self.values)
        return i18n.refusal_words(said, lang_of(request))


# what a page shows escaped (\x1b, \u202e): the terminal's set, but a line break and a tab are layout on a page
_KEEP = re.compile(r"[\n\t]")


def page_text(value: object) -> object:
    """A value a template prints: a string with control and bidi characters
    escaped as :func:`~skatcore.errors.printable` does (a crafted sheet's
    ESC or U+202E shown as ``\\x1b``, ``\\u202e``); markup the server made, as it is."""
    if isinstance(value, Markup) or not isinstance(value, str):
        return value
    return "".join(part if _KEEP.fullmatch(part) else printable(part) for part in re.split(r"([\n\t])", value))


env = Environment(loader=PackageLoader("skatcore.web", "templates"), autoescape=select_autoescape(default=True),
                   trim_blocks=True, lstrip_blocks=True, finalize=page_text)


def lang_of(request: Request) -> str:
    """The page language of this request (:mod:`.i18n`)."""
    return i18n.language(request.cookies.get(i18n.LANG_COOKIE), request.headers.get("accept-language"))


def words(request: Request) -> dict:
    """What a template needs to speak the request's language: ``_``, ``lang``, ``count`` (the engine's counts) and
    ``refusal`` (its refusals)."""
    lang = lang_of(request)
    return {"_": i18n.translator(lang), "lang": lang, "count": lambda text: i18n.count_words(str(text), lang),
            "refusal": lambda text: i18n.refusal_words(str(text), lang)}


def render(request: Request, template: str, status: int = 200, **context) -> HTMLResponse:
    """A page or fragment from ``templates/``, every value HTML-escaped, in the request's language."""
    html = env.get_template(template).render(request=request, csrf=csrf_token(request),
                                              organiser=is_organiser(request), **words(request), **context)
    return HTMLResponse(html, status_code=status)


def message(exc: InputError) -> str:
    """An error's one line, safe for a terminal and (escaped later) a page."""
    return printable(str(exc))


def sheet_file(config: Config, name: str) -> Path:
    """The file of sheet ``name`` in the sheets folder (a name is letters, digits, - and _)."""
    if not SHEET_NAME.fullmatch(name or ""):
        raise Problem(404, "no such sheet (a sheet name is letters, digits, - and _, at most 40)")
    return config.sheets / f"{name}.sqlite"


def house_rulesets(config: Config) -> list[str]:
    """Rulesets built on this server (files in the sheets folder), each by its file name (``house.yaml``)."""
    return sorted(p.name for p in config.sheets.glob("*.yaml") if house_file(config, p.name))


def house_file(config: Config, ref: str) -> Path | None:
    """The file of house ruleset ``ref`` (``house.yaml``: a sheet-like name, then
    ``.yaml``) in the sheets folder, or None: a name, never a path someone gave."""
    stem, dot, suffix = (ref or "").rpartition(".")
    if not (dot and suffix == "yaml" and SHEET_NAME.fullmatch(stem)):
        return None
    path = config.sheets / f"{stem}.yaml"
    return path if path.is_file() and not path.is_symlink() else None


def of_ruleset(name: str, exc: InputError, folder: Path) -> str:
    """A ruleset's error named by ``name`` once (the loader's line names a house ruleset's file itself), without
    the server's ``folder``."""
    text = without_folder(message(exc), folder)
    return text if text.startswith(f"{name}: ") else f"{name}: {text}"


def without_folder(text: str, folder: Path) -> str:
    """A message without the server's ``folder`` (a house ruleset named by its file name)."""
    for name in sorted({str(folder), str(folder.resolve())}, key=len, reverse=True):
        text = text.replace(name + "/", "").replace(name, ".")
    return text


def ruleset_names(config: Config) -> list[str]:
    """Every ruleset a page offers: shipped and installed by name, then the house rulesets."""
    from skatcore.rules.ruleset import all_rulesets

    return sorted(all_rulesets()) + house_rulesets(config)


def ruleset_ref(config: Config, name: str) -> str | None:
    """What loads ruleset ``name`` of :func:`ruleset_names`: a shipped or
    installed name as it is, a house ruleset's file; None for anything else."""
    from skatcore.rules.ruleset import all_rulesets

    if name in all_rulesets():
        return name
    path = house_file(config, name)
    return str(path) if path else None


def organiser_only(request: Request) -> None:
    """Refuse (403) unless the request comes from the organiser's device."""
    if not is_organiser(request):
        raise Problem(403, "only the organiser's device may do this (open the link skat serve printed)")
