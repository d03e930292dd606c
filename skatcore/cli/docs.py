"""``skat docs``: the documentation site on this machine (docs/commands.md#skat-docs).

The site is built with mkdocs once into a cache folder, and again only when
a page, ``mkdocs.yml`` or the code changed (the API reference is made from
the docstrings).  It is served over HTTP on 127.0.0.1, not opened as files:
the site's search runs in a web worker, and browsers start none for a page
opened from a file.  mkdocs is imported by the build's own process only, so
``skat --help`` stays light and a missing mkdocs is one line, exit 2.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from skatcore.cli import numbers
from skatcore.errors import InputError, printable

INSTALL = "pip install 'skatcore[docs]'"
NEEDED = ("mkdocs", "material", "mkdocstrings")  # mkdocs, its theme mkdocs-material, mkdocstrings (mkdocs.yml)


def register(sub) -> None:
    s = sub.add_parser("docs", help="the documentation site on this machine: built with mkdocs, served on 127.0.0.1")
    s.add_argument("--port", type=numbers.port, default=8001,
                   help="port on 127.0.0.1 (default 8001; another free one when it is taken; 0: any free one)")
    s.add_argument("--open", action="store_true", help="also open the site in the web browser")
    s.add_argument("--build-only", action="store_true",
                   help="build the site (or find it built) and print its folder; serve nothing")
    s.add_argument("--config", metavar="FILE",
                   help="the site's mkdocs.yml (default: the one beside the skatcore package, in a clone)")
    s.set_defaults(func=cmd_docs)


def cmd_docs(args) -> int:
    config = _config(args.config)
    missing = [name for name in NEEDED if not _importable(name)]
    if missing:
        raise InputError(f"skat docs needs mkdocs, mkdocs-material and mkdocstrings ({', '.join(missing)} missing): {INSTALL}")
    site = build(config)
    if args.build_only:
        print(printable(str(site)))
        return 0
    return serve(site, args.port, args.open)


def _importable(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


def _config(given: str | None) -> Path:
    if given:
        path = Path(given)
        if not path.is_file():
            raise InputError(f"{given}: no such file (expected the site's mkdocs.yml)")
        _check_hooks(path.resolve(), given)
        return path.resolve()
    path = Path(__file__).resolve().parents[2] / "mkdocs.yml"
    if not path.is_file():  # an installed wheel: the pages are in the source, not in the package
        raise InputError("skat docs: the docs are in skatcore's source (docs/ and mkdocs.yml), not in the installed "
                         "package: run it in a clone, or give --config mkdocs.yml")
    return path


def _check_hooks(config: Path, shown: str, depth: int = 0) -> None:
    """A config of one's own may name ``hooks``: Python files mkdocs runs.  Like a
    ruleset's local plugin code, they run only with ``--trust`` or from a
    folder of ``SKAT_TRUSTED_PATHS``; ``INHERIT`` is followed (a parent's hooks
    run too).  (Modules beside the config are not importable: the build runs
    with ``python -P``.)"""
    import yaml

    from skatcore.rules.reading import max_bytes
    from skatcore.rules.trust import TRUST_ENV, trusted_paths, trusts_all

    if trusts_all() or any(config.is_relative_to(d) for d in trusted_paths()):
        return

    class Tolerant(yaml.SafeLoader):  # any other tag (mkdocs' !ENV, !!python/name:...): a value it stands for
        pass
    tagged = "<a value of mkdocs' tags>"  # (`hooks: !ENV [HOOKS, [x.py]]` names hooks too)
    Tolerant.add_multi_constructor("", lambda loader, suffix, node: tagged)
    if config.stat().st_size > max_bytes():
        raise InputError(f"larger than {max_bytes():,} bytes (expected a site's mkdocs.yml)", source=shown)
    try:
        doc = yaml.load(config.read_text(encoding="utf-8"), Loader=Tolerant)  # (a SafeLoader)
    except (yaml.YAMLError, UnicodeDecodeError):
        return  # mkdocs says what is wrong with it
    if not isinstance(doc, dict):
        return
    hooks = doc.get("hooks")
    if hooks:
        raise InputError(f"mkdocs would run the Python files named here ({shown_hooks(hooks)}): run with --trust, or "
                         f"add the folder to {TRUST_ENV}", source=shown, path="hooks")
    parent = doc.get("INHERIT")
    if parent == tagged:
        raise InputError(f"a parent config named by a tag: its hooks cannot be checked: run with --trust, or add the "
                         f"folder to {TRUST_ENV}", source=shown, path="INHERIT")
    if isinstance(parent, str) and depth < 10:
        path = (config.parent / parent).resolve()
        if path.is_file():
            _check_hooks(path, str(path), depth + 1)


def shown_hooks(hooks) -> str:
    from skatcore.errors import shorten

    return shorten(", ".join(str(h) for h in hooks) if isinstance(hooks, list) else str(hooks))


def _cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "skatcore" / "docs-site"


def _fingerprint(config: Path) -> str:
    """What the site is built from: the config, the pages and the code (the
    reference's docstrings), by name, size and time of change."""
    import hashlib

    import yaml

    try:
        docs_dir = (yaml.safe_load(config.read_text(encoding="utf-8")) or {}).get("docs_dir", "docs")
    except (yaml.YAMLError, AttributeError):  # a config with mkdocs' own tags (!ENV): the usual folder
        docs_dir = "docs"
    digest = hashlib.sha256(str(config).encode())
    roots = [config.parent / str(docs_dir), Path(__file__).resolve().parents[1]]
    for path in [config, *(p for root in roots for p in sorted(root.rglob("*")) if p.is_file())]:
        if "__pycache__" in path.parts:
            continue
        stat = path.stat()
        digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def build(config: Path) -> Path:
    """The built site of ``config``: from the cache, else built now (into a
    folder of its own, renamed into place once complete; older builds removed)."""
    import shutil
    import subprocess

    root = _cache_root()
    site = root / _fingerprint(config)
    if (site / "index.html").is_file():
        return site
    shutil.rmtree(site, ignore_errors=True)  # a folder left without its start page is no build
    root.mkdir(parents=True, exist_ok=True)
    part = root / f"{site.name}.{os.getpid()}.part"
    print("skat docs: building the site with mkdocs (once per change of the docs) ...", file=sys.stderr, flush=True)
    proc = subprocess.run([sys.executable, "-P", "-m", "mkdocs", "build", "--quiet", "--config-file", str(config),
                           "--site-dir", str(part)], cwd=config.parent, capture_output=True, text=True,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        shutil.rmtree(part, ignore_errors=True)
        lines = [line for line in proc.stderr.splitlines() if line.strip()]
        raise InputError(f"{config}: mkdocs could not build the site: {lines[-1] if lines else proc.returncode}")
    try:
        part.rename(site)
    except OSError:  # another `skat docs` finished the same build first
        shutil.rmtree(part, ignore_errors=True)
    for old in root.iterdir():  # earlier builds: one site is kept
        if old != site and not old.name.endswith(".part"):
            shutil.rmtree(old, ignore_errors=True)
    return site


def make_server(site: Path, port: int):
    """An HTTP server of ``site`` on 127.0.0.1 (``port``, else any free one
    when it is taken), and its address."""
    import functools
    import http.server

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format, *args):  # a request per line would bury the address
            pass

    handler = functools.partial(Handler, directory=str(site))
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError:  # the port is taken
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def serve(site: Path, port: int, open_browser: bool = False) -> int:
    """Serve ``site`` on 127.0.0.1 until Ctrl-C."""
    server, url = make_server(site, port)
    print(printable(f"skat docs: {url}  (the site built in {site}; Ctrl-C stops it)"), flush=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
