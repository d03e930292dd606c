"""Numbers on the command line, checked where argparse reads them: whole
numbers within bounds, finite positive decimals (no NaN, no infinity), so a
run is bounded in work and time.  Each is an argparse ``type=``; a refusal
becomes one line naming the flag (``skat compare: argument --seed: ...``)."""

from __future__ import annotations

import argparse
import math

MAX_DEALS = 100_000_000      # deals of one run (--deals, --max-deals): about a day of CPU for the fastest path
MAX_JOBS = 1024              # local processes
MAX_SEED = 2**63 - 1         # seeds are whole numbers 0 .. 2**63-1
MAX_POSITIONS = 100_000      # bench: solver openings of each kind
MAX_SECONDS = 3600.0         # bench: time per measurement


def _whole(text: str, lo: int, hi: int, what: str) -> int:
    try:
        if not text.isascii():  # ASCII digits only: int() reads '٧٠' as 70
            raise ValueError(text)
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, not {text!r}") from None
    if not lo <= n <= hi:
        raise argparse.ArgumentTypeError(f"expected {what} from {lo:,} to {hi:,}, not {n}")
    return n


def _decimal(text: str, hi: float, what: str) -> float:
    try:
        if not text.isascii():
            raise ValueError(text)
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, not {text!r}") from None
    if not (math.isfinite(x) and 0 < x <= hi):  # NaN compares false: a bench or --until-ci loop would never end
        raise argparse.ArgumentTypeError(f"expected {what} > 0{f' and <= {hi:g}' if hi < math.inf else ''}, not {text}")
    return x


def deals(text: str) -> int:
    """``--deals``, ``--max-deals``: 1 .. :data:`MAX_DEALS`."""
    return _whole(text, 1, MAX_DEALS, "a number of deals")


def deals_or_none(text: str) -> int:
    """``play --deals``: 0 (ask after each deal) .. :data:`MAX_DEALS`."""
    return _whole(text, 0, MAX_DEALS, "a number of deals")


def jobs(text: str) -> int:
    return _whole(text, 1, MAX_JOBS, "a number of processes")


def seed(text: str) -> int:
    return _whole(text, 0, MAX_SEED, "a whole-number seed")


def seconds(text: str) -> float:
    return _decimal(text, MAX_SECONDS, "a number of seconds")


def positions(text: str) -> int:
    """``bench --solver-positions``: openings of each kind (0: none)."""
    return _whole(text, 0, MAX_POSITIONS, "a whole number of positions")


def width(text: str) -> float:
    """``--until-ci``: a finite interval width > 0."""
    return _decimal(text, math.inf, "an interval width")


def verify(text: str) -> int:
    """``--verify N``: a whole number (its range is checked against ``--deals``, :func:`~skatcore.sim.verify.check_verify`)."""
    return _whole(text, -MAX_SEED, MAX_SEED, "a whole number of deals")


def whole(text: str) -> int:
    """A whole number a sheet's field takes (``--points``, ``--bid``, a deal number): ASCII digits, nine at most."""
    return _whole(text, -999_999_999, 999_999_999, "a whole number")


def decimal(text: str) -> float:
    """``--stake``: a number in ASCII digits (its range is the sheet's to check)."""
    if not text.isascii():
        raise argparse.ArgumentTypeError(f"expected a number, not {text!r}")
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, not {text!r}") from None


def port(text: str) -> int:
    return _whole(text, 0, 65535, "a port")
