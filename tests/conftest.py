"""Fixtures shared by every test folder: ``browser`` (headless Chromium, tests/browser.py)."""

import pytest

pytest_plugins = ["browser"]


@pytest.fixture(autouse=True)
def _terminal_width_unset(monkeypatch):
    """Output shaped by the terminal (the narrow sheet, rich tables) is tested
    at widths the tests set themselves, not the caller's ``COLUMNS``."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)
