"""Money at the end of a session: the pairwise settlement every table knows
(docs/rules/official.md#a9) and amounts as text and as JSON numbers."""

from __future__ import annotations

import math
from decimal import Decimal
from itertools import combinations

from skatcore.errors import InputError, shown
from skatcore.model import Settlement

# Money per point: far above any table's stake, and small enough that every
# amount of a session stays exact in Decimal's 28 digits (1e27 overflowed them).
MAX_STAKE = 1_000_000


def check_stake(stake) -> None:
    """Refuse a stake that is not a finite amount 0..:data:`MAX_STAKE` per point (``None``: no stake)."""
    if stake is None:
        return
    if isinstance(stake, bool) or not isinstance(stake, (int, float, Decimal)) or not math.isfinite(stake) \
            or not 0 <= stake <= MAX_STAKE:
        raise InputError(f"expected a finite amount per point from 0 to {MAX_STAKE:,}, got {shown(stake)}")


def pairwise(final: dict[str, int], stake: Decimal) -> Settlement:
    """docs/rules/official.md#a9: between every pair of players the lower total pays the
    difference times the stake.  The nets sum to exactly 0 (``Decimal``)."""
    net = {p: Decimal(0) for p in final}
    transfers = []
    for a, b in combinations(final, 2):
        diff = final[a] - final[b]
        if diff == 0:
            continue
        payer, payee = (b, a) if diff > 0 else (a, b)
        amount = abs(diff) * stake
        net[payer] -= amount
        net[payee] += amount
        transfers.append((payer, payee, amount))
    return Settlement(net, transfers, "pairwise")


def money_text(x, sign: str = "+") -> str:
    """An amount of money with at least two decimals (``+8.50``; ``0.125`` stays exact)."""
    x = Decimal(str(x))
    return f"{x:{sign}.2f}" if x == x.quantize(Decimal("0.01")) else f"{x:{sign}}"


def json_number(x) -> int | float:
    """A Decimal as a JSON number (an int when whole)."""
    if isinstance(x, Decimal):
        return int(x) if x == x.to_integral_value() else float(x)
    return x
