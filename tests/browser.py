"""A real browser for the tests: Debian's headless Chromium driven by Playwright.

``.ci/run`` installs Chromium (``apt-get install chromium``); Playwright's own
browser download is never used. Set ``SKAT_CHROMIUM`` to use another binary.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

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
