"""The docs site (mkdocs.yml: docs/ and the docstrings through mkdocstrings)
builds with ``--strict``: a broken link, a missing anchor or a reference to
a name the code no longer has fails the build, with mkdocs' own warning.
Built, it is browsable offline: every page within two clicks of the start
page, its search working with no network, served by ``skat docs``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # mkdocs' notice about its successor is no finding


def build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config),
                           "--site-dir", str(site)], cwd=ROOT, capture_output=True, text=True, env=ENV)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site as mkdocs.yml builds it (``--strict``), once for the tests below."""
    folder = tmp_path_factory.mktemp("site") / "site"
    proc = build(ROOT / "mkdocs.yml", folder)
    assert proc.returncode == 0, proc.stderr
    return folder


def test_the_docs_site_builds_strict(site):
    reference = (site / "reference" / "index.html").read_text(encoding="utf-8")
    # the docstrings are on the page: a hook, a model type, the testing kit
    assert "skat_register_contracts" in reference and "GameFacts" in reference and "vector_tests" in reference
    assert (site / "rules" / "official" / "index.html").is_file()


def test_a_broken_link_or_anchor_fails_the_build(tmp_path):
    """The same validation settings on a two-page site with both faults."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    config["plugins"] = ["search"]
    config.pop("nav")  # the two pages alone
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\n[gone](gone.md) and [rules](other.md#a4-bidding)\n", encoding="utf-8")
    (docs / "other.md").write_text("# Other\n\n## A3. Dealing\n", encoding="utf-8")
    config["docs_dir"] = str(docs)
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    proc = build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert proc.returncode == 1
    assert "contains a link 'gone.md', but the target is not found" in proc.stderr
    assert "does not contain an anchor '#a4-bidding'" in proc.stderr


# -- the site offline: its links, its search, `skat docs` ------------------------------------


def pages(site: Path) -> set[str]:
    """Every page of the built site, by its address below the start page
    (``rules/official/``; the start page is ``""``)."""
    return {str(p.parent.relative_to(site)) + "/" if p.parent != site else ""
            for p in site.rglob("index.html") if "assets" not in p.relative_to(site).parts}


def content_links(site: Path, page: str) -> set[str]:
    """The pages that the links of ``page``'s content lead to (its article:
    the navigation is not counted, see below), as addresses like ``pages``."""
    import posixpath
    from html.parser import HTMLParser
    from urllib.parse import urldefrag

    html = (site / page / "index.html").read_text(encoding="utf-8")
    start = html.index('<article class="md-content__inner')
    found: set[str] = set()

    class Links(HTMLParser):
        def handle_starttag(self, tag, attrs):
            href = dict(attrs).get("href") if tag == "a" else None
            if href and not re.match(r"[a-z]+:", href):
                target = urldefrag(href)[0]
                path = posixpath.normpath(posixpath.join("/" + page, target)).lstrip("/") if target else page
                found.add("" if path in (".", "") else path.rstrip("/") + "/")

    Links().feed(html[start:html.index("</article>", start)])
    return found


def test_every_page_is_two_clicks_from_the_start_page(site):
    """Every page is reached from the start page in at most two clicks on
    links of the pages' own content.  The navigation is not counted: the
    theme writes the whole menu into every page (behind the menu button on a
    phone), so counting it would put every page one click away and prove
    nothing; what is checked is that the pages themselves lead there."""
    every = pages(site)
    assert {"", "commands/", "getting-started/researcher/", "rules/official/", "reference/"} <= every
    reached, frontier = {""}, {""}
    for _ in range(2):
        frontier = {target for page in frontier for target in content_links(site, page) if target in every} - reached
        reached |= frontier
    assert not every - reached, f"more than two clicks from the start page: {sorted(every - reached)}"


def test_the_search_index_and_its_worker_are_built(site):
    """Search runs in the browser from files of the site: the index of every
    page and the worker that reads it.  Nothing is fetched from elsewhere
    (no web fonts: ``theme.font: false``), so the site works offline."""
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    located = {doc["location"].split("#")[0] for doc in index["docs"]}
    assert pages(site) <= located, sorted(pages(site) - located)
    assert list((site / "assets" / "javascripts" / "workers").glob("search.*.min.js"))
    for page in pages(site):
        html = (site / page / "index.html").read_text(encoding="utf-8")
        external = re.findall(r'<(?:script|link)[^>]+(?:src|href)="(https?://[^"]+)"', html)
        assert not external, f"{page or 'the start page'} loads {external}"


def test_the_search_works_offline(site, browser):
    """The built site served as ``skat docs`` serves it, in Chromium with
    every address but the server's refused: a search finds a ruleset's page."""
    import threading

    from skatcore.cli.docs import make_server

    server, url = make_server(site, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        refused: list[str] = []

        def only_local(route):
            if route.request.url.startswith(url):
                route.continue_()
            else:
                refused.append(route.request.url)
                route.abort()

        page.route("**/*", only_local)
        page.goto(url)
        # "Initializing search" until the worker has read the index
        page.wait_for_function("() => !document.querySelector('.md-search-result__meta').textContent"
                               ".includes('Initializing')", timeout=30_000)
        page.locator("input.md-search__input").press_sequentially("Schieberamsch")  # keys: a set value starts no search
        results = page.locator(".md-search-result__item a")
        results.first.wait_for(timeout=30_000)
        assert "matching document" in page.locator(".md-search-result__meta").inner_text()
        hrefs = [results.nth(i).get_attribute("href") or "" for i in range(results.count())]
        assert any("rules/schieberamsch/" in href for href in hrefs), hrefs
        assert not [u for u in refused if not u.startswith("data:")], refused
    finally:
        server.shutdown()
        server.server_close()


SMALL_SITE = "site_name: small\nstrict: true\ntheme: {name: material, font: false}\nplugins: [search]\n"


def test_skat_docs_builds_once_and_serves_on_localhost(tmp_path):
    """``skat docs`` on a small site: served on 127.0.0.1 with its search
    index; a second run finds the build in the cache instead of building."""
    import signal
    import urllib.request

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Small\n\nA page about Schieberamsch.\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(SMALL_SITE, encoding="utf-8")
    env = {**ENV, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    skat = [sys.executable, "-c", "import sys; from skatcore.cli import main; sys.exit(main())", "docs",
            "--config", str(tmp_path / "mkdocs.yml")]
    proc = subprocess.Popen([*skat, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        match = re.match(r"skat docs: (http://127\.0\.0\.1:\d+/) ", line)
        assert match, line + proc.stderr.read() if proc.poll() is not None else line
        url = match.group(1)
        assert "Schieberamsch" in urllib.request.urlopen(url, timeout=10).read().decode()
        index = json.loads(urllib.request.urlopen(url + "search/search_index.json", timeout=10).read())
        assert any("Schieberamsch" in doc["text"] for doc in index["docs"])
    finally:
        proc.send_signal(signal.SIGINT)  # Ctrl-C: exit 0
        assert proc.wait(timeout=10) == 0
    stderr = proc.stderr.read()
    assert "building the site" in stderr
    again = subprocess.run([*skat, "--build-only"], capture_output=True, text=True, env=env)
    assert again.returncode == 0 and "building" not in again.stderr
    built = Path(again.stdout.strip())
    assert (built / "index.html").is_file() and built.is_relative_to(tmp_path / "cache")


def test_skat_docs_without_mkdocs_says_what_to_install(monkeypatch, capsys):
    from skatcore.cli import docs, main

    monkeypatch.setattr(docs, "_importable", lambda name: name != "mkdocs")
    assert main(["docs", "--build-only"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "mkdocs missing" in err and "pip install 'skatcore[docs]'" in err


@pytest.mark.parametrize("config", [
    "hooks: [hook.py]\n",
    "foo: !!python/name:os.getcwd\nhooks:\n  - !ENV [HOOK, hook.py]\n",  # tags of its own do not hide the hooks
    "INHERIT: parent.yml\n",  # a parent's hooks run too
    "hooks: !ENV [HOOKS, [hook.py]]\n",
])
def test_skat_docs_runs_a_config_s_hooks_only_with_trust(tmp_path, monkeypatch, capsys, config):
    """A downloaded site's mkdocs.yml naming `hooks: [hook.py]` once ran the
    file with `skat docs --config`, without --trust, as no ruleset's code may."""
    from skatcore.cli import main

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Small\n", encoding="utf-8")
    ran = tmp_path / "ran"
    (tmp_path / "hook.py").write_text(f"open({str(ran)!r}, 'w').close()\n", encoding="utf-8")
    (tmp_path / "parent.yml").write_text(SMALL_SITE + "hooks: [hook.py]\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(SMALL_SITE + config, encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("SKAT_TRUSTED_PATHS", raising=False)
    assert main(["docs", "--config", str(tmp_path / "mkdocs.yml"), "--build-only"]) == 2
    err = capsys.readouterr().err
    assert "hooks: mkdocs would run the Python files named here" in err and "--trust" in err and err.count("\n") == 1
    assert not ran.exists() and not (tmp_path / "cache").exists()


def test_skat_docs_imports_no_module_from_the_config_s_folder(tmp_path, monkeypatch, capsys):
    """`markdown_extensions: [beside]` once imported beside.py from the config's folder (the build's working folder)."""
    from skatcore.cli import main

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Small\n", encoding="utf-8")
    ran = tmp_path / "ran"
    (tmp_path / "beside.py").write_text(f"open({str(ran)!r}, 'w').close()\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(SMALL_SITE + "markdown_extensions: [beside]\n", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert main(["docs", "--config", str(tmp_path / "mkdocs.yml"), "--build-only"]) == 2
    assert "No module named 'beside'" in capsys.readouterr().err and not ran.exists()
