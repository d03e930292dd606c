"""The ``skat`` command line."""

from skatcore.cli.main import main

__all__ = ["main"]
