"""Simulation: seeded deals played by bots, statistics, side-by-side comparison.

Every deal is seeded on its own: deal ``i`` of seed ``S`` gets its cards and
its players' seeds from ``(S, i)`` only, so a run gives the same numbers
whether it runs in one process, in ``--jobs N`` local processes or on a Dask
cluster, and ``compare`` plays the very same deals under every ruleset.

Players sit in *slots*; for deal ``i`` the player of slot ``p`` takes seat
``(p + i) % 3`` (the deal passes round the table), so a mixed table is fair.
A ruleset's session rules (Bock and Ramsch rounds) act on the deals as on a
score sheet of 36 deals (:mod:`skatcore.sim.sheet`).

Statistics (all from integer sums, so chunking never changes a digit):

* ``contract_mix`` - share of all deals by game (``passed`` = thrown in,
  ``ramsch`` = played without declarer);
* ``win_rate`` - declarer win rate, overall and by contract;
* ``mean_value`` - mean game value of declarer games (the value as scored,
  also when lost), overall and by contract;
* ``mean_abs_entry`` - mean over all deals of the absolute sheet entries of
  the deal added up (every seat's line);
* ``all_pass_rate`` - deals where nobody bid (thrown in, Ramsch, pushed) although
  they could (a Ramsch round of a session, where passing is forced, not counted);
* ``overbid_rate`` - declarer games lost by overbidding, of declarer games;
* ``classic_per_36`` / ``seeger_fabian_per_36`` - a player's score per 36
  deals, on the classic sheet and in Seeger-Fabian tournament points (sheet
  entries plus 50 for a won and -50 for a lost game to the declarer, and 40
  to each defender of a lost game), averaged over the players (two at a table of two: a straw man is nobody's); per
  player name in ``players`` when the table is mixed.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from skatcore.bots import resolve_player
from skatcore.engine.deal import Deal
from skatcore.engine.table import people
from skatcore.errors import InputError, printable
from skatcore.model import SEATS
from skatcore.rules.compiler import CompiledRules, get_rules
from skatcore.sim.fastpath import compiled_outcomes, declined, whole
from skatcore.sim.outcomes import skat_order
from skatcore.sim.play import all_passed, play, seeded_deal  # noqa: F401 (play: a public name of one deal)
from skatcore.sim.sheet import SESSION_DEALS, Sheet
from skatcore.sim.workers import dask_workers, map_chunks  # noqa: F401 (dask_workers: compare's, as before)

SF_WIN, SF_DEFENDER = 50, 40


# ---------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------


def seat_points(result, people=(0, 1, 2)) -> tuple[list[int], list[int]]:
    """Each seat's classic sheet entry and Seeger-Fabian points of one deal;
    ``people``: the seats a person plays (a straw man's seat gets no defender points)."""
    classic = [result.scores.get(s, 0) for s in SEATS]
    sf = list(classic)
    if result.declarer is not None and result.won is not None:
        d = result.declarer
        sf[d] += SF_WIN if result.won else -SF_WIN
        if not result.won:
            for s in people:
                if s != d:
                    sf[s] += SF_DEFENDER
    return classic, sf


@dataclass
class Stats:
    """Mergeable integer sums over deals of one ruleset."""

    ruleset: str
    slots: tuple[str, ...]
    deals: int = 0
    all_pass: int = 0
    overbid: int = 0
    games: Counter = field(default_factory=Counter)       # game -> deals
    hand: Counter = field(default_factory=Counter)        # game -> hand games
    wins: Counter = field(default_factory=Counter)        # game -> declarer wins
    value: Counter = field(default_factory=Counter)       # game -> sum of values
    played: Counter = field(default_factory=Counter)      # game -> declarer games
    abs_entries: int = 0
    bots: Counter = field(default_factory=Counter)        # players' own counters (expert: pimc_moves, fallback_moves)
    declarer_scores: Counter = field(default_factory=Counter)  # declarer's sheet entry -> deals
    entries: Counter = field(default_factory=Counter)     # any non-zero sheet entry -> count
    classic: list = field(default_factory=lambda: [0, 0, 0])   # per slot
    sf: list = field(default_factory=lambda: [0, 0, 0])
    declared: list = field(default_factory=lambda: [0, 0, 0])  # per slot: declarer games
    won: list = field(default_factory=lambda: [0, 0, 0])
    people: int = 3  # persons at the table (a straw man is nobody's seat): the per-player averages divide by it
    paths: Counter = field(default_factory=Counter, compare=False)  # (path, why) -> deals: chunking decides, not the results

    def played_as(self, path: str, why: str = "", n: int = 1) -> None:
        """Count ``n`` deals played on ``path`` (``why``: why not on the compiled tables)."""
        if n:
            self.paths[(path, why)] += n

    def paths_json(self) -> list[dict]:
        """How the deals were played: ``[{"path", "deals", "why"}]``, most deals first."""
        return [{"path": p, "deals": n, **({"why": w} if w else {})}
                for (p, w), n in sorted(self.paths.items(), key=lambda kv: (-kv[1], kv[0]))]

    def add(self, deal: Deal, i: int) -> None:
        self.add_result(deal.result(), i, all_passed(deal), people(deal.rules))

    def add_result(self, r, i: int, all_pass: bool, persons: tuple[int, ...]) -> None:
        """Deal ``i``'s result (a :class:`ScoreResult` or the compiled engine's
        :class:`~skatcore.engine.compiled.Brief`); ``persons``: the seats people play."""
        self.deals += 1
        self.games[r.game] += 1
        if all_pass:
            self.all_pass += 1
        self.people = len(persons)
        entries, sf = seat_points(r, persons)
        self.abs_entries += sum(abs(e) for e in entries)
        for e in entries:
            if e:
                self.entries[e] += 1
        slot_of = [(s - i) % 3 for s in range(3)]  # seat -> slot
        for s in range(3):
            self.classic[slot_of[s]] += entries[s]
            self.sf[slot_of[s]] += sf[s]
        if r.declarer is not None and r.won is not None:
            d = r.declarer
            self.value[r.game] += r.value
            self.played[r.game] += 1
            self.declarer_scores[r.score] += 1
            self.declared[slot_of[d]] += 1
            if r.hand:
                self.hand[r.game] += 1
            if r.overbid:
                self.overbid += 1
            if r.won:
                self.wins[r.game] += 1
                self.won[slot_of[d]] += 1

    def add_outcomes(self, out, start: int, persons: tuple[int, ...]) -> None:
        """Deals ``start ..`` of the compiled engine's
        :class:`~skatcore.engine.compiled.Outcomes`, as :meth:`add_result` adds each, in arrays."""
        import numpy as np

        n = len(out)
        own = int(out.own_facts.sum())
        self.played_as("compiled", "", n - own)
        self.played_as("own_facts", out.tables.own_why, own)
        self.deals += n
        self.people = len(persons)
        self.all_pass += int((out.bid == 0).sum())
        names = [*out.contracts, "passed"]  # contract -1: thrown in
        self.games.update({names[c]: int(k) for c, k in zip(*np.unique(out.contract, return_counts=True), strict=True)})
        entries = out.scores.astype(np.int64)
        self.abs_entries += int(np.abs(entries).sum())
        self.entries.update({int(e): int(k)
                             for e, k in zip(*np.unique(entries[entries != 0], return_counts=True), strict=True)})
        rows = np.arange(n)
        slot_of = (np.arange(3)[None, :] - (start + rows)[:, None]) % 3  # deal, seat -> slot
        declared = out.declarer >= 0  # compiled rulesets: every declarer game has a win or a loss
        d = out.declarer[declared].astype(np.int64)
        won = out.won[declared] == 1
        sf = entries.copy()
        sf[rows[declared], d] += np.where(won, SF_WIN, -SF_WIN)
        lost = np.zeros((n, 3), bool)
        lost[rows[declared][~won]] = True
        lost[rows[declared][~won], d[~won]] = False
        lost[:, [s for s in range(3) if s not in persons]] = False
        sf += SF_DEFENDER * lost
        for k in range(3):
            self.classic[k] += int(entries[slot_of == k].sum())
            self.sf[k] += int(sf[slot_of == k].sum())
        dslot = slot_of[rows[declared], d]
        game = out.contract[declared]
        hand = np.array([o.hand for o in out.tables.options] or [False], bool)[out.option[declared]]
        for c in np.unique(game):
            mine = game == c
            name = names[c]
            self.played[name] += int(mine.sum())
            self.value[name] += int(out.value[declared][mine].sum())
            if (mine & hand).any():
                self.hand[name] += int((mine & hand).sum())
            if (mine & won).any():
                self.wins[name] += int((mine & won).sum())
        self.declarer_scores.update({int(e): int(k)
                                     for e, k in zip(*np.unique(out.score[declared], return_counts=True), strict=True)})
        self.overbid += int(out.overbid[declared].sum())
        for k in range(3):
            self.declared[k] += int((dslot == k).sum())
            self.won[k] += int(((dslot == k) & won).sum())

    def merge(self, other: Stats) -> Stats:
        self.deals += other.deals
        self.all_pass += other.all_pass
        self.overbid += other.overbid
        self.abs_entries += other.abs_entries
        if other.deals:
            self.people = other.people
        for a in ("games", "hand", "wins", "value", "played", "declarer_scores", "entries", "bots", "paths"):
            getattr(self, a).update(getattr(other, a))
        for a in ("classic", "sf", "declared", "won"):
            mine, theirs = getattr(self, a), getattr(other, a)
            for k in range(3):
                mine[k] += theirs[k]
        return self

    # -- derived ------------------------------------------------------------------
    def summary(self) -> dict:
        """The statistics as plain numbers (rounded to 4 decimals)."""
        n = self.deals or 1
        dgames = sum(self.played.values())
        declarer_games = self.played
        wins = sum(self.wins.values())
        out = {
            "ruleset": self.ruleset,
            "players": list(self.slots),
            "deals": self.deals,
            "contract_mix": {g: _r(self.games[g] / n) for g in skat_order(self.games)},
            "declarer_games": dgames,
            "win_rate": _r(wins / dgames) if dgames else None,
            "win_rate_by_contract": {g: _r(self.wins[g] / declarer_games[g]) for g in skat_order(declarer_games)},
            "hand_rate": _r(sum(self.hand.values()) / dgames) if dgames else None,
            "mean_value": _r(sum(self.value.values()) / dgames) if dgames else None,
            "mean_value_by_contract": {g: _r(self.value[g] / declarer_games[g]) for g in skat_order(declarer_games)},
            "mean_abs_entry": _r(self.abs_entries / n),
            "all_pass_rate": _r(self.all_pass / n),
            "overbid_rate": _r(self.overbid / dgames) if dgames else None,
            "classic_per_36": _r(36 * sum(self.classic) / self.people / n),
            "seeger_fabian_per_36": _r(36 * sum(self.sf) / self.people / n),
        }
        if len(set(self.slots)) > 1:
            by: dict[str, dict] = {}
            for name in dict.fromkeys(self.slots):
                ks = [k for k in range(3) if self.slots[k] == name]
                decl = sum(self.declared[k] for k in ks)
                by[name] = {
                    "seats": len(ks),
                    "classic_per_36": _r(36 * sum(self.classic[k] for k in ks) / len(ks) / n),
                    "seeger_fabian_per_36": _r(36 * sum(self.sf[k] for k in ks) / len(ks) / n),
                    "declarer_games": decl,
                    "declarer_win_rate": _r(sum(self.won[k] for k in ks) / decl) if decl else None,
                }
            out["by_player"] = by
        if self.bots:
            out["bot_counters"] = dict(sorted(self.bots.items()))
        return out

    def to_json(self) -> dict:
        out = self.summary()
        out["declarer_score_histogram"] = {str(k): v for k, v in sorted(self.declarer_scores.items())}
        out["entry_histogram"] = {str(k): v for k, v in sorted(self.entries.items())}
        out["paths"] = self.paths_json()
        return out


def _r(x: float) -> float:
    return round(x, 4)


# ---------------------------------------------------------------------------
# Chunks, jobs, dask
# ---------------------------------------------------------------------------


def run_chunk(task, path: str = "auto") -> list[Stats]:
    """Deals ``start..stop-1`` of ``seed`` under each ruleset of ``refs``
    (three heuristic players through the compiled heuristic where it
    applies and ``path`` takes it: :mod:`skatcore.sim.fastpath`).

    A top-level function of plain arguments, so processes and Dask workers
    can run it: ``task = (refs, slots, seed, start, stop)``; in this process
    a ref may be compiled rules (the testing kit's).
    """
    refs, slots, seed, start, stop = task
    rules = [rules_of(r) for r in refs]
    factories = [resolve_player(p) for p in slots]
    stats = [Stats(r.name, tuple(slots)) for r in rules]
    fast = compiled_outcomes(rules, slots, seed, start, stop, path)
    for k, out in fast.items():
        if whole(rules[k], out):
            stats[k].add_outcomes(out, start, people(rules[k]))
    walk = [k for k in range(len(rules)) if k not in fast or not whole(rules[k], fast[k])]
    sheets = {k: Sheet.for_chunk(rules[k], factories, seed, start) for k in walk}
    shared = any(k not in fast for k in walk)  # the cards of a deal, dealt once for the rulesets played through Deal
    why = {k: declined(rules[k], slots, stop - start, path) for k in walk if k not in fast}
    for i in range(start, stop) if walk else ():
        dealt = seeded_deal(seed, i) if shared else None
        for k in walk:
            played = sheets[k].play(i, dealt, fast.get(k))
            stats[k].add_result(played.result, i, played.all_pass and not played.forced, people(rules[k]))
            stats[k].played_as(played.path, played.why or why.get(k, ""))
            for p in played.players:
                stats[k].bots.update(getattr(p, "counters", None) or {})
    return stats


def rules_of(ref):
    """Compiled rules of ``ref``: a name or file (cached), or compiled rules as they are."""
    return ref if isinstance(ref, CompiledRules) else get_rules(ref)


def chunks(deals: int, jobs: int, size: int | None = None) -> list[tuple[int, int]]:
    """``(start, stop)`` of each chunk of deals ``0..deals-1``; without a
    ``size``, about ``deals / (8 jobs)`` deals cut at sessions (:func:`spans`)."""
    if size is None:
        return spans(0, deals, max(50, min(2000, math.ceil(deals / max(1, jobs * 8)))))
    return [(a, min(deals, a + size)) for a in range(0, deals, size)]


def spans(start: int, stop: int, size: int) -> list[tuple[int, int]]:
    """Deals ``start..stop-1`` in chunks of about ``size``, cut where a
    session of :data:`~skatcore.sim.sheet.SESSION_DEALS` deals begins: a
    chunk that starts inside a session replays the session's earlier deals
    (:meth:`Sheet.for_chunk`), so only a ``start`` inside one does."""
    size = max(SESSION_DEALS, size - size % SESSION_DEALS)
    cuts = [start, *range((start // size + 1) * size, stop, size), stop]
    return list(pairwise(cuts))


def run(refs: Sequence[str], deals: int, seed: int, slots: Sequence[str] = ("heuristic",) * 3, jobs: int = 1,
        dask: str | None = None, progress: Callable[[int], None] | None = None, chunk_size: int | None = None) -> list[Stats]:
    """Play ``deals`` seeded deals under each ruleset; one merged
    :class:`Stats` per ruleset.  ``progress(n)`` is called with the number
    of deals finished by each chunk."""
    check_args(refs, deals, jobs, slots)
    refs = tuple(portable_ref(r) for r in refs)
    slots = tuple(slots)
    tasks = [(refs, slots, seed, a, b) for a, b in chunks(deals, jobs if not dask else 64, chunk_size)]
    total = [Stats(get_rules(r).name, slots) for r in refs]
    for task, results in map_chunks(run_chunk, tasks, jobs, dask):
        for t, s in zip(total, results, strict=True):
            t.merge(s)
        if progress:
            progress(task[4] - task[3])
    return total


def portable_ref(ref: str) -> str:
    """A ruleset file as an absolute path, so workers elsewhere find it."""
    from pathlib import Path

    p = Path(ref)
    return str(p.resolve()) if p.suffix in (".yaml", ".yml") and p.is_file() else ref


def check_args(refs: Sequence[str], deals: int, jobs: int = 1, slots: Sequence[str] = ()) -> None:
    if deals <= 0:
        raise InputError(f"--deals must be a positive number of deals, not {deals}")
    if jobs <= 0:
        raise InputError(f"--jobs must be at least 1, not {jobs}")
    named: dict[str, str] = {}
    for r in refs:
        name = get_rules(r).name  # an unknown ruleset is a one-line error
        if name in named:  # the results, the report and the per-deal rows name a ruleset by its name only
            raise InputError(f"{named[name]} and {r} are both named {name!r}: expected each ruleset under a name of its "
                             "own (set name: in the file)")
        named[name] = r
    for p in slots:
        resolve_player(p)


def parse_players(text: str | None) -> tuple[str, str, str]:
    """``heuristic`` (all three) or ``heuristic,random,random`` (per slot)."""
    names = [p.strip() for p in (text or "heuristic").split(",")]
    if len(names) == 1:
        names *= 3
    if len(names) != 3 or not all(names):
        raise InputError(f"--players: expected one player or three, comma-separated, not {text!r}")
    return names[0], names[1], names[2]


# ---------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------


def metric_rows(summary: dict) -> list[tuple[str, object]]:
    """``(label, value)`` rows of a summary, in display order."""
    rows: list[tuple[str, object]] = [
        ("deals", summary["deals"]),
        ("declarer games", summary["declarer_games"]),
        ("declarer win rate", summary["win_rate"]),
        ("hand game rate", summary["hand_rate"]),
        ("mean game value", summary["mean_value"]),
        ("mean |sheet entry| per deal", summary["mean_abs_entry"]),
        ("all-pass rate", summary["all_pass_rate"]),
        ("overbid rate", summary["overbid_rate"]),
        ("classic points / 36 deals", summary["classic_per_36"]),
        ("Seeger-Fabian / 36 deals", summary["seeger_fabian_per_36"]),
    ]
    for g, share in summary["contract_mix"].items():
        rows.append((f"mix: {g}", share))
    for g, w in summary["win_rate_by_contract"].items():
        rows.append((f"win rate: {g}", w))
    for g, v in summary["mean_value_by_contract"].items():
        rows.append((f"mean value: {g}", v))
    for name, p in summary.get("by_player", {}).items():
        rows.append((f"{name}: classic / 36", p["classic_per_36"]))
        rows.append((f"{name}: Seeger-Fabian / 36", p["seeger_fabian_per_36"]))
        rows.append((f"{name}: declarer win rate", p["declarer_win_rate"]))
    return rows


PATH_WORDS = {"compiled": "on the compiled tables", "own_facts": "in compiled play, scored on their own facts",
               "exact": "card by card through Deal"}


def path_line(stats: Stats) -> str:
    """How a ruleset's deals were played, for people: ``lasttrick: 130 deals
    on the compiled tables; 870 in compiled play, scored on their own facts
    (the score of clubs reads last_trick_winner (house.py:12))``.  The
    paths change the time a run takes, never its results."""
    parts = [f"{p['deals']} deals {PATH_WORDS.get(p['path'], p['path'])}" + (f" ({p['why']})" if p.get("why") else "")
             for p in stats.paths_json()]
    return printable(f"{stats.ruleset}: {'; '.join(parts) or 'no deals'}")


def is_share(label: str) -> bool:
    """Rows that are shares of deals or games (shown as percentages)."""
    return "rate" in label or label.startswith("mix: ")


def fmt(v, label: str = "") -> str:
    """A statistic for people: shares as percentages, values with 2 decimals."""
    if v is None:
        return "-"
    if is_share(label):
        return f"{100 * v:.1f}%"
    if isinstance(v, float):
        return f"{v:.2f}"
    return str(v)


def progress_bar(total: int, label: str, enabled: bool | None = None):
    """A rich progress bar on stderr (only when it is a terminal)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    if enabled is None:
        enabled = console.is_terminal
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                    console=console, transient=True, disable=not enabled)


def run_with_progress(refs, deals, seed, slots, jobs, dask=None) -> list[Stats]:
    with progress_bar(deals, "deals") as bar:
        task = bar.add_task(f"{deals} deals x {len(refs)} ruleset{'s' if len(refs) > 1 else ''}", total=deals)
        return run(refs, deals, seed, slots, jobs=jobs, dask=dask, progress=lambda n: bar.advance(task, n))


def print_table(title: str | None, columns: Sequence[str], rows: Iterable[Sequence[str]], file=None) -> None:
    """A table as wide as the terminal (``COLUMNS`` where set; 200 columns into a file or pipe).  Where a
    cell must wrap, a rule separates every row: a label's second line never reads as a row of its own
    (``classic points / 36`` over ``deals (without Bock)``, which looked like the row ``deals``)."""
    import os

    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    out = file or sys.stdout
    width = None if out.isatty() or os.environ.get("COLUMNS", "").isdigit() else 200  # rich reads COLUMNS itself
    console = Console(file=out, width=width)
    # plain text, not markup (a value such as [schneider, schwarz]), escaped: names and values come from files
    cells = [[Text(printable(str(c))) for c in r] for r in rows]

    def table(lines: bool, header: bool = True) -> Table:
        made = Table(title=title and Text(printable(title)) if header else None, show_lines=lines, show_header=header)
        for i, c in enumerate(columns):
            # folded, not cut to "83…": a number too wide for a narrow terminal goes on over lines, all its digits shown
            made.add_column(Text(printable(c)), justify="left" if i == 0 else "right", overflow="fold")
        for r in cells:
            made.add_row(*r)
        return made

    wrapped = len(console.render_lines(table(False, header=False), pad=False)) > len(cells) + 2  # + the two borders
    console.print(table(wrapped))
