"""One truth on every path: a run's deals played on the compiled path and
through ``Deal`` must give the same per-deal rows.

``skat simulate`` and ``skat compare`` play a chunk of heuristic players
through the compiled heuristic or through ``Deal`` depending on its size
(:mod:`skatcore.sim.fastpath`); ``--verify N`` plays the run's first ``N``
deals both ways - the compiled path forced, whatever ``N`` - and compares
every field of :func:`~skatcore.sim.outcomes.deal_row` (the sheet entries,
the sheet factor and the calls included) deal by deal, then the statistics
(the compiled path sums its arrays, ``Deal`` adds deal by deal).  A
difference is a :class:`VerifyError` naming the ruleset, the deal and the
field with both values.  A ruleset the compiled heuristic does not play
(players not all heuristic, or a rule it refuses) has nothing to verify.

:func:`same_rows` is the check itself, also behind the testing kit's
:func:`skatcore.testing.assert_same_rows`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from skatcore.errors import InputError, shown
from skatcore.sim.compare import compare_chunk
from skatcore.sim.fastpath import compiled
from skatcore.sim.simulate import rules_of

#: ``--verify N`` plays at most this many deals (through Deal about 2 ms a deal and ruleset)
MAX_VERIFY = 100_000
SAME = "same rows on the compiled path and through Deal"
NOT_NEEDED = "exact path: nothing to verify"


class VerifyError(InputError):
    """The compiled path and ``Deal`` disagree on a deal (``--verify``)."""


@dataclass(frozen=True)
class Way:
    """One way to play deals ``0..deals-1``: a path
    (:data:`~skatcore.sim.fastpath.PATHS`) and the chunks' first deals."""

    path: str
    cuts: tuple[int, ...] = ()     # chunk starts after 0 (none: one chunk)
    label: str = ""                # "on the compiled path", "through Deal in 3 chunks"

    def play(self, rules, slots: Sequence[str], seed: int, deals: int) -> tuple[list[dict], dict]:
        """The rows of deals ``0..deals-1`` and the statistics (``Stats.to_json``,
        without how the deals were played: that is what differs by design)."""
        bounds = [0, *(c for c in self.cuts if 0 < c < deals), deals]
        rows: list[dict] = []
        stats = None
        for a, b in pairwise(bounds):
            part, _, got = compare_chunk(((rules,), tuple(slots), seed, a, b, True), self.path)
            rows += got[0]
            stats = part[0] if stats is None else stats.merge(part[0])
        return rows, {k: v for k, v in stats.to_json().items() if k != "paths"}


COMPILED = Way("compiled", label="on the compiled path")
EXACT = Way("exact", label="through Deal")


@dataclass(frozen=True)
class Verified:
    """What ``--verify`` found for one ruleset: ``deals`` checked (0: nothing
    to verify, the ruleset takes the exact path) and the result in words."""

    ruleset: str
    deals: int
    result: str

    def to_json(self) -> dict:
        return {"deals": self.deals, "result": self.result}

    def text(self) -> str:
        what = f"{self.deals} deals, {self.result}" if self.deals else self.result
        return f"--verify: {self.ruleset}: {what}"


def verify(ref, deals: int, seed: int, slots: Sequence[str] = ("heuristic",) * 3) -> Verified:
    """Deals ``0..deals-1`` of ``ref`` (a name, a file or compiled rules) on
    the compiled path and through ``Deal``.

    :raises VerifyError: at the first field of the first deal that differs.
    """
    rules = rules_of(ref)
    name = ref if isinstance(ref, str) else rules.name
    if not compiled([rules], slots):  # the run plays every deal through Deal already
        return Verified(name, 0, NOT_NEEDED)
    found = same_rows(rules, deals, seed, slots, (COMPILED,), name=name)
    if found:
        raise VerifyError(found)
    return Verified(name, deals, SAME)


def same_rows(rules, deals: int, seed: int, slots: Sequence[str], ways: Sequence[Way], *, name: str | None = None,
              reference: Way = EXACT) -> str | None:
    """``None`` if every way gives the rows and statistics of ``reference``,
    else the first difference in words (one line): ruleset, deal, field and
    both values."""
    rules = rules_of(rules)
    name = name or rules.name
    want_rows, want_stats = reference.play(rules, slots, seed, deals)
    for way in ways:
        rows, stats = way.play(rules, slots, seed, deals)
        found = row_difference(rows, want_rows, way.label, reference.label)
        if found is None:
            found = stats_difference(stats, want_stats, way.label, reference.label)
        if found is not None:
            return f"{name}: {found}"
    return None


def row_difference(rows: Sequence[dict], want: Sequence[dict], here: str, there: str) -> str | None:
    """The first field of the first deal that differs, in words, and how many deals differ."""
    differ = [(a, b) for a, b in zip(rows, want, strict=True) if a != b]
    if not differ:
        return None
    a, b = differ[0]
    key = next(k for k in dict.fromkeys([*b, *a]) if a.get(k, _MISSING) != b.get(k, _MISSING))
    also = f" ({len(differ)} of {len(want)} deals differ)" if len(differ) > 1 else ""
    return (f"deal {b['deal']} (seed {b['seed']}): field {key!r} is {_value(a, key)} {here}, "
            f"{_value(b, key)} {there}{also}")


def stats_difference(stats: dict, want: dict, here: str, there: str) -> str | None:
    """The first statistic (``win_rate_by_contract.grand``) that differs, in words."""
    mine, theirs = _flat(stats), _flat(want)
    for key in dict.fromkeys([*theirs, *mine]):
        if mine.get(key, _MISSING) != theirs.get(key, _MISSING):
            return (f"statistic {key!r} is {_value(mine, key)} {here}, {_value(theirs, key)} {there} "
                    "(the rows agree)")
    return None


_MISSING = object()


def _value(d: dict, key: str) -> str:
    return "missing" if key not in d else shown(d[key])


def _flat(d: dict, prefix: str = "") -> dict:
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def check_verify(n: int | None, deals: int) -> None:
    """``--verify N``: from 1 to the run's deals (and :data:`MAX_VERIFY`)."""
    if n is None:
        return
    top = f"--deals ({deals})" if deals <= MAX_VERIFY else str(MAX_VERIFY)
    if not 1 <= n <= min(deals, MAX_VERIFY):
        raise InputError(f"--verify must be a number of deals from 1 to {top}, not {n}")


def verify_all(refs: Sequence, n: int | None, seed: int, slots: Sequence[str]) -> list[Verified] | None:
    """``--verify n`` of every ruleset of a run (``None``: no ``--verify``)."""
    if n is None:
        return None
    return [verify(r, n, seed, slots) for r in refs]
