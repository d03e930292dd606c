"""Simulation: seeded deals played by bots, statistics, side-by-side comparison.

Every deal is seeded on its own: deal ``i`` of seed ``S`` gets its cards and
its players' seeds from ``(S, i)`` only, so a run gives the same numbers
whether it runs in one process, in ``--jobs N`` local processes or on a Dask
cluster, and ``compare`` plays the very same deals under every ruleset.

Players sit in *slots*; for deal ``i`` the player of slot ``p`` takes seat
``(p + i) % 3`` (the deal passes round the table), so a mixed table is fair.

Statistics (all from integer sums, so chunking never changes a digit):

* ``contract_mix`` - share of all deals by game (``passed`` = thrown in,
  ``ramsch`` = played without declarer);
* ``win_rate`` - declarer win rate, overall and by contract;
* ``mean_value`` - mean game value of declarer games (the value as scored,
  also when lost), overall and by contract;
* ``mean_abs_entry`` - mean over all deals of the absolute sheet entries of
  the deal added up (every seat's line);
* ``all_pass_rate`` - deals where nobody bid (thrown in, Ramsch, pushed);
* ``overbid_rate`` - declarer games lost by overbidding, of declarer games;
* ``classic_per_36`` / ``seeger_fabian_per_36`` - a player's score per 36
  deals, on the classic sheet and in Seeger-Fabian tournament points (sheet
  entries plus 50 for a won and -50 for a lost game to the declarer, and 40
  to each defender of a lost game), averaged over the three players; per
  player name in ``players`` when the table is mixed.
"""

from __future__ import annotations

import math
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from skatcore.engine.deal import Deal, Phase, deal_cards
from skatcore.errors import InputError
from skatcore.model import SEATS, STANDARD_DECK
from skatcore.bots import call_view, resolve_player
from skatcore.rules.compiler import get_rules

SF_WIN, SF_DEFENDER = 50, 40


# ---------------------------------------------------------------------------
# One deal
# ---------------------------------------------------------------------------


def deal_rng(seed: int, i: int) -> random.Random:
    """The random source of deal ``i`` of a run seeded ``seed``."""
    return random.Random(f"skatcore/{seed}/{i}")


def seeded_deal(seed: int, i: int, deck=None) -> tuple:
    """``(hands, skat, player_seeds)`` of deal ``i``: the same under any ruleset
    with the 32-card deck (another ``deck``, e.g. ``rules.deck``, deals its
    own), then the cards laid aside if the deck lays any aside."""
    rng = deal_rng(seed, i)
    hands, skat, *aside = deal_cards(rng, deck)
    return (hands, skat, [rng.getrandbits(63) for _ in range(3)], *aside)


def play(rules, hands, skat, players: Sequence, aside=()) -> Deal:
    """Play one deal to the end; ``players[seat]`` acts for each seat, and
    for the seats that seat's person plays (a straw man: ``Deal.controller``).

    A player is not asked for a card when it has only one legal card (a
    seat nobody plays always has one).  Table calls (Kontra ...) are offered
    after every action to each seat that may make one and whose player has
    ``call(view)``.
    """
    deal = Deal(rules, hands, skat, aside)
    calls = bool(rules.calls) and any(hasattr(p, "call") for p in players)
    while not deal.done:
        if deal.phase is Phase.PLAY:
            # every TableCall window (own_first_card, first_lead, next_card after
            # a call) lies in the first trick: no need to ask later
            if calls and len(deal.tricks) == 1:
                _offer_calls(deal, players)
                if deal.done:  # a call that settles the deal (Schenken accepted)
                    break
            legal = deal.legal_actions()
            if len(legal) == 1:
                deal.apply(legal[0])
                continue
        seat = deal.to_move
        action = players[deal.controller(seat)].act(deal.view(seat))
        deal.apply(action)
    return deal


def _offer_calls(deal: Deal, players) -> None:
    """Ask each seat that may call now, until nobody calls any more."""
    made = True
    while made:
        made = False
        for s in range(3):
            ask = getattr(players[s], "call", None)
            if ask is None:
                continue
            opts = deal.legal_calls(s)
            if not opts:
                continue
            for c in ask(call_view(deal.view(s), opts)) or ():
                if c in deal.legal_calls(s):
                    deal.apply(c)
                    made = True


# ---------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------


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

    def add(self, deal: Deal, i: int) -> None:
        r = deal.result()
        self.deals += 1
        self.games[r.game] += 1
        if deal.bid == 0 and not deal.rules.steps_at["start"]:  # nobody bid (a step may replace the bidding)
            self.all_pass += 1
        entries = [r.scores.get(s, 0) for s in SEATS]
        self.abs_entries += sum(abs(e) for e in entries)
        for e in entries:
            if e:
                self.entries[e] += 1
        slot_of = [(s - i) % 3 for s in range(3)]  # seat -> slot
        for s in range(3):
            self.classic[slot_of[s]] += entries[s]
            self.sf[slot_of[s]] += entries[s]
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
                self.sf[slot_of[d]] += SF_WIN
            else:
                self.sf[slot_of[d]] -= SF_WIN
                for s in range(3):
                    if s != d:
                        self.sf[slot_of[s]] += SF_DEFENDER

    def merge(self, other: "Stats") -> "Stats":
        self.deals += other.deals
        self.all_pass += other.all_pass
        self.overbid += other.overbid
        self.abs_entries += other.abs_entries
        for a in ("games", "hand", "wins", "value", "played", "declarer_scores", "entries", "bots"):
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
            "contract_mix": {g: _r(c / n) for g, c in sorted(self.games.items(), key=lambda kv: (-kv[1], kv[0]))},
            "declarer_games": dgames,
            "win_rate": _r(wins / dgames) if dgames else None,
            "win_rate_by_contract": {g: _r(self.wins[g] / c) for g, c in sorted(declarer_games.items())},
            "hand_rate": _r(sum(self.hand.values()) / dgames) if dgames else None,
            "mean_value": _r(sum(self.value.values()) / dgames) if dgames else None,
            "mean_value_by_contract": {g: _r(self.value[g] / c) for g, c in sorted(declarer_games.items())},
            "mean_abs_entry": _r(self.abs_entries / n),
            "all_pass_rate": _r(self.all_pass / n),
            "overbid_rate": _r(self.overbid / dgames) if dgames else None,
            "classic_per_36": _r(36 * sum(self.classic) / 3 / n),
            "seeger_fabian_per_36": _r(36 * sum(self.sf) / 3 / n),
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
        return out


def _r(x: float) -> float:
    return round(x, 4)


# ---------------------------------------------------------------------------
# Chunks, jobs, dask
# ---------------------------------------------------------------------------


def run_chunk(task) -> list[Stats]:
    """Deals ``start..stop-1`` of ``seed`` under each ruleset of ``refs``.

    A top-level function of plain arguments, so processes and Dask workers
    can run it: ``task = (refs, slots, seed, start, stop)``.
    """
    refs, slots, seed, start, stop = task
    rules = [get_rules(r) for r in refs]
    factories = [resolve_player(p) for p in slots]
    stats = [Stats(r.name, tuple(slots)) for r in rules]
    for i in range(start, stop):
        hands, skat, pseeds = seeded_deal(seed, i)
        for rs, st in zip(rules, stats):
            players = [None, None, None]
            for slot, f in enumerate(factories):
                seat = (slot + i) % 3
                players[seat] = f(rules=rs, seed=pseeds[seat])
            if rs.deck is STANDARD_DECK:
                st.add(play(rs, hands, skat, players), i)
            else:  # another deck (Sechserskat's 36 cards) is dealt by its own packets, from the same seed
                dealt, skat_, *aside = deal_cards(deal_rng(seed, i), rs.deck)  # and the cards laid aside, if any
                st.add(play(rs, dealt, skat_, players, *aside), i)
            for p in players:
                st.bots.update(getattr(p, "counters", None) or {})
    return stats


def chunks(deals: int, jobs: int, size: int | None = None) -> list[tuple[int, int]]:
    if size is None:
        size = max(50, min(2000, math.ceil(deals / max(1, jobs * 8))))
    return [(a, min(deals, a + size)) for a in range(0, deals, size)]


def run(refs: Sequence[str], deals: int, seed: int, slots: Sequence[str] = ("heuristic",) * 3, jobs: int = 1,
        dask: str | None = None, progress: Callable[[int], None] | None = None, chunk_size: int | None = None) -> list[Stats]:
    """Play ``deals`` seeded deals under each ruleset; one merged
    :class:`Stats` per ruleset.  ``progress(n)`` is called with the number
    of deals finished by each chunk."""
    check_args(refs, deals, jobs, slots)
    refs = tuple(_portable(r) for r in refs)
    slots = tuple(slots)
    tasks = [(refs, slots, seed, a, b) for a, b in chunks(deals, jobs if not dask else 64, chunk_size)]
    total = [Stats(get_rules(r).name, slots) for r in refs]

    def done(results, task):
        for t, s in zip(total, results):
            t.merge(s)
        if progress:
            progress(task[4] - task[3])

    if dask:
        for task, results in _dask_map(dask, tasks):
            done(results, task)
    elif jobs > 1 and len(tasks) > 1:
        import multiprocessing as mp

        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
        with ctx.Pool(min(jobs, len(tasks))) as pool:
            for task, results in zip(tasks, pool.imap(run_chunk, tasks)):
                done(results, task)
    else:
        for task in tasks:
            done(run_chunk(task), task)
    return total


def _dask_map(address: str, tasks):
    try:
        from distributed import Client
    except ImportError:
        raise InputError("--dask needs the cluster extra: pip install 'skatcore[cluster]'") from None
    try:
        client = Client(address, timeout="5s")
    except Exception as exc:
        raise InputError(f"--dask: cannot reach the scheduler at {address}: {type(exc).__name__}: {exc}") from None
    try:
        futures = client.map(run_chunk, tasks, pure=False)
        for task, fut in zip(tasks, futures):  # in task order: merging stays deterministic
            yield task, fut.result()
    finally:
        client.close()


def _portable(ref: str) -> str:
    """A ruleset file as an absolute path, so workers elsewhere find it."""
    from pathlib import Path

    p = Path(ref)
    return str(p.resolve()) if p.suffix in (".yaml", ".yml") and p.is_file() else ref


def check_args(refs: Sequence[str], deals: int, jobs: int = 1, slots: Sequence[str] = ()) -> None:
    if deals <= 0:
        raise InputError(f"--deals must be a positive number of deals, not {deals}")
    if jobs <= 0:
        raise InputError(f"--jobs must be at least 1, not {jobs}")
    for r in refs:
        get_rules(r)  # an unknown ruleset is a one-line error
    for p in slots:
        resolve_player(p)


def parse_players(text: str | None) -> tuple[str, str, str]:
    """``heuristic`` (all three) or ``heuristic,random,random`` (per slot)."""
    names = [p.strip() for p in (text or "heuristic").split(",")]
    if len(names) == 1:
        names *= 3
    if len(names) != 3 or not all(names):
        raise InputError(f"--players: expected one player or three, comma-separated, not {text!r}")
    return tuple(names)


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


def fmt_diff(d, label: str = "") -> str:
    """A difference: percentage points for shares."""
    if d is None:
        return "-"
    if is_share(label):
        d = 100 * d
        return "0" if abs(d) < 0.05 else f"{d:+.1f} pp"
    if d == 0:
        return "0"
    return f"{d:+.2f}" if isinstance(d, float) else f"{d:+d}"


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


def print_table(title: str, columns: Sequence[str], rows: Iterable[Sequence[str]], file=None) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, show_lines=False)
    for i, c in enumerate(columns):
        table.add_column(c, justify="left" if i == 0 else "right")
    for r in rows:
        table.add_row(*r)
    Console(file=file or sys.stdout, width=200 if not (file or sys.stdout).isatty() else None).print(table)
