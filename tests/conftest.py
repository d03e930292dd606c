"""Fixtures shared by every test folder: ``browser`` (headless Chromium, tests/browser.py)."""

pytest_plugins = ["browser"]
