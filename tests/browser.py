"""A real browser for the tests: Debian's headless Chromium driven by Playwright.

``.ci/run`` installs Chromium (``apt-get install chromium``); Playwright's own
browser download is never used. Set ``SKAT_CHROMIUM`` to use another binary.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

# the flags a closed network needs: no background connections, no first-run work
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]


def chromium_path() -> str:
    path = os.environ.get("SKAT_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        pytest.fail("no Chromium: install Debian's package (apt-get install chromium) or set SKAT_CHROMIUM")
    return path


@pytest.fixture(scope="session")
def browser() -> Iterator:
    """One headless Chromium for the whole run; tests open their own pages."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=chromium_path(), args=FLAGS)
        yield chromium
        chromium.close()


def screenshot(page, name: str, **options) -> Path:
    """Take the screenshot ``name`` of ``page`` (a page or a locator): into the folder named by
    ``SKAT_SCREENSHOTS`` (``SKAT_SCREENSHOTS=docs/img`` refreshes the
    pictures the docs show), else into a temporary folder, so that a plain
    test run leaves the work tree as it was."""
    from playwright.sync_api import Error

    folder = Path(os.environ.get("SKAT_SCREENSHOTS") or Path(tempfile.gettempdir()) / "skat-screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    owner = getattr(page, "page", page)  # a Locator's page, or the page
    owner.wait_for_load_state()  # a click that posts a form: not in the middle of the next page's load
    try:
        page.screenshot(path=str(folder / name), **options)
    except Error as exc:  # Chromium refuses a capture while a page is swapped in, more often on a busy machine
        if "Unable to capture screenshot" not in str(exc):
            raise
        owner.wait_for_timeout(500)
        page.screenshot(path=str(folder / name), **options)
    return folder / name
