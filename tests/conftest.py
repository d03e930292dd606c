"""Fixtures shared by every test folder: ``browser`` (headless Chromium, tests/browser.py)."""

import os

import pytest

pytest_plugins = ["browser"]

# no background compile started by the commands the tests run (skatcore/warmup.py); tests/test_warmup.py asks for it
os.environ.setdefault("SKAT_NO_WARM", "1")


@pytest.fixture(autouse=True)
def _terminal_width_unset(monkeypatch):
    """Output shaped by the terminal (the narrow sheet, rich tables) is tested
    at widths the tests set themselves, not the caller's ``COLUMNS``."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)
