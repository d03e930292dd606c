"""The rules pages of ``skat serve``: every shipped and installed ruleset
(what ``skat rules NAME`` prints), and the ruleset builder: a form generated
from the plugins' own ``params_schema`` (JSON Schema), checked by the same
loader as a file, the differences from its parent, the YAML to download or
to keep beside the sheets (where a new sheet can use it)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from skatcore.errors import InputError, shorten, yaml_text
from skatcore.rules.trust import trusting
from skatcore.web import security
from skatcore.web.pages import (
    SHEET_NAME,
    Config,
    Problem,
    message,
    of_ruleset,
    organiser_only,
    render,
    ruleset_names,
    ruleset_ref,
    words,
)


def rules_list(request: Request) -> Response:
    organiser_only(request)
    from skatcore.rules.ruleset import read_yaml

    config: Config = request.app.state.config
    items = []
    for name in ruleset_names(config):
        try:
            desc = str((read_yaml(_file_of(config, name)) or {}).get("description", ""))
        except InputError:
            desc = ""
        items.append((name, desc, name.endswith(".yaml")))
    return render(request, "rules.html", items=items)


def _file_of(config: Config, name: str) -> Path:
    from skatcore.rules.ruleset import find_ruleset

    ref = ruleset_ref(config, name)
    if ref is None:
        raise Problem(404, "no such ruleset")
    return Path(ref) if name.endswith(".yaml") else find_ruleset(ref)


def rules_page(request: Request) -> Response:
    """One ruleset in a player's words: what differs from its parent, its
    games and values, its plugins; no plugin keys, no files of the server."""
    organiser_only(request)
    from skatcore.rules.compiler import get_rules
    from skatcore.rules.describe import all_pass_text
    from skatcore.rules.ruleset import find_ruleset, read_yaml
    from skatcore.web.rulewords import differences, games, plugin_rows

    config: Config = request.app.state.config
    name = request.path_params["name"]
    path = _file_of(config, name)
    _ = words(request)["_"]
    schemas = dict(plugin_schemas())
    parent = diff = None
    try:
        with trusting(config.trust, paths=False):  # a house ruleset earns no trust by lying in the sheets folder
            rules = get_rules(str(path) if name.endswith(".yaml") else name)
            extends = (read_yaml(path) or {}).get("extends")
            if extends:
                parent_path = find_ruleset(str(extends), path.parent)
                parent = _parent_name(config, str(extends), parent_path)
                diff = differences(get_rules(str(parent_path)), rules, schemas, _)
    except InputError as exc:
        raise Problem(422, of_ruleset(name, exc, config.sheets)) from None
    return render(request, "rule.html", name=name, rules=rules, parent=parent, diff=diff,
                  contracts=games(rules, _, words(request)["count"]), all_pass=all_pass_text(rules),
                  ladder=rules.ladder[:40], plugins=plugin_rows(rules, schemas, _),
                  known=parent in ruleset_names(config))


def _parent_name(config: Config, extends: str, path: Path) -> str:
    """The parent as the pages name it: a shipped or installed name, or a house ruleset's file name."""
    from skatcore.rules.ruleset import all_rulesets

    if extends in all_rulesets():
        return extends
    return path.name


# ---------------------------------------------------------------------------
# The builder
# ---------------------------------------------------------------------------


def plugin_schemas() -> list[tuple[str, dict]]:
    """The built-in and installed plugins with their parameter schemas."""
    from skatcore.rules.manager import builtin_plugins, entry_point_plugins, import_attr
    from skatcore.rules.ruleset import plugin_schema

    out = []
    for name, ref in builtin_plugins().items():
        try:
            out.append((name, plugin_schema(import_attr(ref))))
        except InputError:
            continue
    for name, ep in sorted(entry_point_plugins().items()):
        if name not in dict(out):
            try:
                out.append((name, plugin_schema(ep.load())))
            except Exception:  # a broken installed plugin is not offered
                continue
    return out


def _fields(schema: dict) -> list[dict]:
    """One form field per parameter: its kind, choices and description."""
    fields = []
    for key, sub in (schema.get("properties") or {}).items():
        kind = sub.get("type")
        field = {"key": key, "desc": sub.get("description", ""), "default": sub.get("default")}
        if "enum" in sub:
            field.update(kind="choice", choices=[str(x) for x in sub["enum"]])
        elif kind == "boolean":
            field.update(kind="choice", choices=["true", "false"])
        elif kind in ("integer", "number"):
            field.update(kind="number", min=sub.get("minimum"), max=sub.get("maximum"))
        else:
            field.update(kind="yaml")  # objects, lists, either-or: typed as YAML, checked by the schema
        fields.append(field)
    return fields


def _parent_params(parent: str) -> dict[str, dict]:
    from skatcore.rules.ruleset import load_ruleset

    return {spec.key: dict(spec.params) for spec in load_ruleset(parent).plugins}


def builder(request: Request) -> Response:
    """The builder's form for a parent (``/build?parent=texas``; choosing
    Extends asks for it): the parent's plugins switched on, its parameters
    as the placeholders."""
    organiser_only(request)
    from skatcore.rules.ruleset import shipped_rulesets

    query = request.query_params
    parent = query.get("parent", "pub")
    if parent not in shipped_rulesets():
        raise Problem(400, "expected a shipped ruleset to extend")
    form = {"parent": parent, "name": query.get("name", "")[:40], "description": query.get("description", "")[:300]}
    return _builder_page(request, form=form, used=_parent_params(parent))


async def build(request: Request) -> Response:
    """Check the form's ruleset; show it with its differences, or download / keep it."""
    organiser_only(request)
    from skatcore.rules.compiler import compile_rules, get_rules
    from skatcore.rules.ruleset import all_rulesets, load_ruleset, read_yaml, shipped_rulesets
    from skatcore.sim.probe import probe
    from skatcore.web.rulewords import differences

    config: Config = request.app.state.config
    form = await security.form_of(request)
    plugins = plugin_schemas()
    parent = str(form.get("parent", ""))
    if parent not in shipped_rulesets():
        raise Problem(400, "expected a shipped ruleset to extend")
    name = str(form.get("name", "")).strip() or "house"
    doc: dict = {"name": name, "description": str(form.get("description", "")).strip()[:300] or f"house rules on {parent}",
                 "extends": parent, "plugins": {}}
    before = _parent_params(parent)
    error = diff = None
    fields: dict[str, str] = {}  # "plugin.param" -> its error, shown beside the field
    try:
        for key, schema in plugins:
            if not form.get(f"use.{key}"):
                if key in before:
                    doc["plugins"][key] = False  # dropped from the parent's
                continue
            params = {}
            for f in _fields(schema):
                raw = str(form.get(f"{key}.{f['key']}", "")).strip()
                try:
                    value = read_yaml(f"{key}.{f['key']}", raw[:2000]) if raw else None
                except InputError as exc:
                    fields[f"{key}.{f['key']}"] = message(InputError(exc.message))
                    continue
                if raw and value != before.get(key, {}).get(f["key"]):  # only what differs from the parent
                    params[f["key"]] = value
            if params or key not in before:
                doc["plugins"][key] = params
        if fields:
            raise InputError("a parameter is not what its plugin expects: see beside it")
        if not SHEET_NAME.fullmatch(name):
            raise InputError("expected a name of letters, digits, - and _", path="name")
        text = yaml_text(doc)
        with tempfile.TemporaryDirectory() as tmp, trusting(config.trust, paths=False):
            path = Path(tmp) / f"{name}.yaml"
            path.write_text(text, encoding="utf-8")
            try:
                rules = compile_rules(load_ruleset(path))
                probe(rules)  # as skat validate: played, or a straw man nobody plays is kept and fails in Compare
            except InputError as exc:
                raise _beside_its_field(exc, str(path), name, fields) from None
            diff = differences(get_rules(parent), rules, dict(plugins), words(request)["_"])
    except InputError as exc:
        error = message(exc)
        text = None
    action = form.get("action")
    if text and action == "download":
        return _download(text, name)
    saved = None
    if text and action == "keep":
        target = config.sheets / f"{name}.yaml"
        if name in all_rulesets():
            error = f"{name} is the name of a shipped or installed ruleset: choose another name"
        else:
            try:
                with _beside_the_sheets(config.sheets, text.encode("utf-8")) as part:
                    saved = _keep(part, target)
            except InputError as exc:
                error = message(exc).replace("rename the file", "choose another name")
    used = {k: v for k, v in before.items() if doc["plugins"].get(k) is not False}
    used.update({k: {**before.get(k, {}), **v} for k, v in doc["plugins"].items() if v is not False})
    return _builder_page(request, 200 if not error else 422, text=text, error=error, saved=saved, form=dict(form),
                         used=used, diff=diff, names=[parent, name], field_errors=fields)


def _beside_its_field(exc: InputError, source: str, name: str, fields: dict[str, str]) -> InputError:
    """The loader's error without the temporary file: beside its field when it
    names a parameter (``plugins.official.grand_base``), else as ``NAME.yaml``."""
    parts = (exc.path or "").split(".")
    if exc.source == source and len(parts) >= 3 and parts[0] == "plugins":
        fields[f"{parts[1]}.{parts[2]}"] = message(InputError(exc.message))
        return InputError("a parameter is not what its plugin expects: see beside it")
    if exc.source == source:
        exc.source = f"{name}.yaml"
    return exc


def _builder_page(request: Request, status: int = 200, **context) -> Response:
    """The builder: each plugin and field named in a player's words, the key and the schema's description beside."""
    from skatcore.rules.ruleset import shipped_rulesets
    from skatcore.web.rulewords import param_words, plugin_words

    _ = words(request)["_"]
    plugins = [(n, plugin_words(n, _), [{**f, "label": param_words(n, f["key"], None, _)} for f in _fields(s)])
               for n, s in plugin_schemas()]
    return render(request, "build.html", status, plugins=plugins, parents=sorted(shipped_rulesets()),
                  trust=request.app.state.config.trust, **context)


def _download(text: str, name: str) -> Response:
    return Response(text, media_type="application/yaml; charset=utf-8",
                    headers={"content-disposition": f'attachment; filename="{name}.yaml"'})


# ---------------------------------------------------------------------------
# An uploaded ruleset file
# ---------------------------------------------------------------------------

MAX_RULESET = 64 * 1024  # a ruleset is a few KB; the request bound (security.MAX_BODY) refuses more before it is read


async def upload(request: Request) -> Response:
    """Check an uploaded ruleset file as ``skat validate`` does, as if it lay
    in the sheets folder (its ``extends`` and plugin files resolve there and
    nowhere outside); show its differences from its parent; download or
    keep it.  The result page posts the checked text back (``text``), and it
    is checked again: nothing a form sends is taken as checked."""
    organiser_only(request)
    from skatcore.rules.ruleset import all_rulesets

    config: Config = request.app.state.config
    form = await security.form_of(request)
    file, action = form.get("ruleset"), form.get("action")
    filename = str(getattr(file, "filename", None) or form.get("filename") or "")
    raw = await file.read(MAX_RULESET + 1) if isinstance(file, UploadFile) else str(form.get("text", "")).encode()
    await form.close()
    text = error = saved = None
    diff: list = []
    name, names = "", ["", ""]
    try:
        name = _upload_name(filename)
        if len(raw) > MAX_RULESET:
            raise InputError(f"larger than {MAX_RULESET:,} bytes (expected a ruleset of a few KB)", source=filename)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("not a UTF-8 text file", source=filename) from None
        with _beside_the_sheets(config.sheets, raw) as path:
            names, diff = _check_upload(path, filename, config.trust, words(request)["_"])
            clash = next((n for n in (name, names[2]) if n in all_rulesets()), None)
            if action == "keep" and clash:  # as the builder: no second 'pub' among the rulesets
                error = message(InputError(f"{shorten(clash)} is the name of a shipped or installed ruleset: choose "
                                           "another (the file's name and its name:)", source=filename))
            elif action == "keep" and not SHEET_NAME.fullmatch(names[2]):  # as the builder's: 10,000 characters
                # made every table of the report 170,000 px wide
                error = message(InputError(f"expected a name of at most 40 letters, digits, - and _, got "
                                           f"{shorten(names[2])!r}", source=filename, path="name"))
            elif action == "keep":
                saved = _keep(path, config.sheets / f"{name}.yaml")
    except InputError as exc:
        error, text = message(exc), None
    if text and action == "download":
        return _download(text, name)
    return _builder_page(request, 200 if not error else 422, form={"parent": "pub"}, used=_parent_params("pub"),
                         upload={"text": text, "error": error, "saved": saved, "filename": filename, "diff": diff,
                                 "names": names})


def _upload_name(filename: str) -> str:
    """The name the file is kept under: its own, when it is a plain ruleset file name."""
    stem, dot, suffix = filename.rpartition(".")
    if not (dot and suffix in ("yaml", "yml") and SHEET_NAME.fullmatch(stem)):
        raise InputError(f"expected a file name of letters, digits, - and _ ending in .yaml, got {shorten(filename)!r}")
    return stem


@contextmanager
def _beside_the_sheets(sheets: Path, raw: bytes) -> Iterator[Path]:
    """The upload as a file in the sheets folder while it is checked (a
    ``.part`` name no sheet's ruleset list shows), removed afterwards."""
    fd, tmp = tempfile.mkstemp(prefix=".upload-", suffix=".part", dir=sheets)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
        yield Path(tmp)
    finally:
        Path(tmp).unlink(missing_ok=True)


def _check_upload(path: Path, filename: str, trust: bool, _) -> tuple[list[str], list]:
    """The checks of ``skat validate`` (reader, schema, extends chain, plugins,
    their parameters, compiling); errors name the uploaded file, not ``path``.
    The names of the parent, the upload and its ruleset (``name:``), and the differences."""
    from skatcore.rules.compiler import compile_rules, get_rules
    from skatcore.rules.ruleset import find_ruleset, load_ruleset, read_yaml
    from skatcore.sim.probe import probe
    from skatcore.web.rulewords import differences

    try:
        with trusting(trust, paths=False):  # an upload earns no trust by lying in a trusted folder
            rules = compile_rules(load_ruleset(path))
            probe(rules)  # skat validate plays a ruleset before it calls it valid
            parent = (read_yaml(path) or {}).get("extends")  # (read and checked by load_ruleset just now)
            base = compile_rules(load_ruleset(find_ruleset(parent, path.parent))) if parent else get_rules("official")
    except InputError as exc:
        if exc.source == str(path):
            exc.source = filename
        raise exc.at(source=filename) from None
    return [parent or "official", filename, rules.name], differences(base, rules, dict(plugin_schemas()), _)


def _keep(path: Path, target: Path) -> str:
    """The checked file under its own name in the sheets folder (the builder's
    and the upload's keep): a hard link made whole at once, never over another
    file nor through a link (``link`` refuses any name that exists, a dangling
    symbolic link too), never outside the folder (a plain name in it)."""
    if target.parent != path.parent or not SHEET_NAME.fullmatch(target.stem) or target.suffix != ".yaml":
        raise InputError(f"expected a ruleset name of letters, digits, - and _, got {shorten(target.name)!r}")
    try:
        os.link(path, target, follow_symlinks=False)
    except FileExistsError:
        raise InputError(f"{target.name} exists already in the sheets folder: rename the file") from None
    return target.name


routes = [Route("/rules", rules_list), Route("/rules/{name}", rules_page),
          Route("/build", builder), Route("/build", build, methods=["POST"]),
          Route("/build/upload", upload, methods=["POST"])]
