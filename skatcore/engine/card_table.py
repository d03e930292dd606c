"""The house rules' card points (``skat_card_points``) as tables the compiled paths read.

A card-point rule is asked per trick (``trick(trick, facts)``) or at the
end of the deal (``end(facts)``) and may read anything; the compiled
engines need what it gives in a declarer game for a small key, asked once
per key when the ruleset is compiled:

* per trick, the points to the trick's taker for every ordered trick of
  three cards (the slots of :mod:`~skatcore.engine.trick_table`) under each
  suit and grand contract.  The rule may read the trick's cards and, of the
  facts, the contract and the lines (``thresholds``); a rule that reads the
  trick's leader or taker, the declarer or anything else of the deal, or
  gives points to another seat than the taker, is not tabulated;
* at the end, what the rule gives changes the declarer's card points by
  ``net`` (given the declarer, less given a defender: the lines divide the
  points between the two sides) for each contract, declarer, taker of the
  last trick, tricks the declarer took and skat (its two cards).  The rule
  may read those (``tricks`` only for how many there are and the last
  one's taker, ``last_trick_winner``, ``declarer_tricks`` and
  ``defender_tricks``, ``skat``), the contract and the lines.

Which parts of a key a rule reads is noted call by call (recording facts,
:mod:`skatcore.engine.probe`, and a trick and list of tricks that note what
is looked at): a call that did not read a part answers alike for every value
of it, so the keys are walked by :func:`explore` as a decision tree - the
black jacks take 29,761 calls (~0.15 s; the contract is never read), "the
skat to whoever takes the last trick" 32,848 (~0.35 s: the skat is read
only where a defender took the last trick), "10 for the last trick" 37.  That
the answers depend on nothing else is checked as for a trick-winner table
(:func:`skatcore.engine.trick_probe.answers_alone`).  A rule that fails any
of this leaves the card points to each deal's own facts (the compiled
engines replay such deals through ``Deal``), with the reason.

The kernels add the points where they add up the declarer's
(:func:`skatcore.engine.kernel.trick_gain` as each trick is taken,
:func:`~skatcore.engine.kernel.end_gain` at the end); the win, schneider and
out-of-schneider lines are then judged on them by the score tables, which
score each class of the adjusted points with the card-point rules left out
(:class:`~skatcore.engine.probe.Reads` ``tabled``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from skatcore.cards import name
from skatcore.engine.probe import Reads, describe, recording
from skatcore.engine.scoring import make_facts
from skatcore.engine.trick_probe import answers_alone
from skatcore.engine.trick_table import C0, C1, C2, SLOT, SLOTS, TRICKS, order_winners
from skatcore.model import SEATS, STANDARD_DECK, Declaration, GameFacts, Trick

#: the end table's key: declarer, the last trick's taker, the declarer's tricks (0-10), the skat (lo << 5 | hi)
END_SHAPE = (3, 3, TRICKS + 1, 1 << 10)
END_SIZE = int(np.prod(END_SHAPE))
#: what of the facts a rule may read for a table: a part of the key, or what every deal of a ruleset shares (None)
TRICK_FIELDS = {"contract": "contract", "thresholds": None, "seats": None}
END_FIELDS = {**TRICK_FIELDS, "declarer": "declarer", "declarer_tricks": "taken", "defender_tricks": "taken",
              "skat": "skat", "last_trick_winner": "last", "tricks": None}
#: most calls a ruleset's tables may take (~2 us each); a rule that needs more plays through Deal
MAX_CALLS = 1_500_000
SKATS = [(lo, hi) for lo in range(32) for hi in range(lo + 1, 32)]
SAMPLE_GIVING, SAMPLE_OTHERS = 300, 60  # keys asked again per rule


@dataclass(frozen=True)
class CardTables:
    """The card points of a ruleset's rules for the kernels:
    ``trick[row[c, 0], slot]`` the points to the taker of trick ``slot``
    under contract ``c``, ``end[row[c, 1], key]`` the change of the
    declarer's card points at the end (key: :data:`END_SHAPE`, flat); a row of -1: none."""

    trick: np.ndarray
    end: np.ndarray
    row: np.ndarray
    calls: int

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        """What the kernels take: ``cp_trick, cp_end, cp_row``."""
        return self.trick, self.end, self.row


def none(n_contracts: int) -> tuple[np.ndarray, ...]:
    """The kernels' arguments of a ruleset without card-point tables (no rows)."""
    return np.zeros((0, SLOTS), np.int32), np.zeros((0, END_SIZE), np.int32), np.full((n_contracts, 2), -1, np.int64)


def kernel_arrays(rules, contracts: tuple[str, ...]) -> tuple[np.ndarray, ...]:
    """The kernels' ``cp_trick, cp_end, cp_row``: the tables of a ruleset with card-point rules, else :func:`none`."""
    got = card_tables(rules) if rules.card_points else None
    return got.arrays if isinstance(got, CardTables) else none(len(contracts))


def card_tables(rules) -> CardTables | str:
    """The tables of ``rules``' card-point rules (built once per compiled
    ruleset), or why there are none."""
    got = rules.cache.get("card_tables")
    if got is None:
        got = rules.cache["card_tables"] = _build(rules)
    return got


def tabled(rules) -> bool:
    """Whether ``rules`` have card-point rules and the compiled paths hold them in tables."""
    return bool(rules.card_points) and isinstance(card_tables(rules), CardTables)


def _build(rules) -> CardTables | str:
    if not rules.card_points:
        return "no card-point rules"
    names = ", ".join(r.name for r in rules.card_points)
    if rules.deck != STANDARD_DECK or not rules.table.plain:
        return f"card points by house rules ({names}) in a game of other than three hands of 10 cards"
    th = rules.thresholds
    if not all(0 < x <= 120 for x in (th.win, th.schneider, th.out_of_schneider)):
        return f"card points by house rules ({names}) and lines outside 1 to 120"
    contracts = tuple(rules.contracts)
    valued = [c for c in contracts if rules.contracts[c].declarer and not rules.contracts[c].no_trick]
    budget = [MAX_CALLS]
    trick = np.zeros((len(valued), SLOTS), np.int32)
    end = np.zeros((len(valued), END_SIZE), np.int32)
    sample: list = []
    for rule in rules.card_points:
        for kind, fn in (("trick", rule.trick), ("end", rule.end)):
            if fn is None or not valued:
                continue
            asker = _Asker(rules, fn, kind, valued)
            dims = [("contract", valued), *([("cards", list(range(len(SLOT))))] if kind == "trick" else
                                            [("declarer", [0, 1, 2]), ("last", [1, 0, 2]),
                                             ("taken", [5, *(t for t in range(TRICKS + 1) if t != 5)]),
                                             ("skat", list(range(len(SKATS))))])]
            leaves = explore(dims, asker.noted, budget)
            if isinstance(leaves, str):
                return f"card points by house rules ({rule.name}, which {leaves})"
            if kind == "trick":
                _fill_trick(leaves, trick, valued)
            else:
                _fill_end(leaves, end, valued)
            sample += asker.sample(leaves)
    fns = [getattr(f, "__func__", f) for r in rules.card_points for f in (r.trick, r.end) if f is not None]
    plugins = [type(f.__self__) for r in rules.card_points for f in (r.trick, r.end) if hasattr(f, "__self__")]
    why = answers_alone(sample, lambda key: key[0].fn(*key[2]), lambda key: key[0].where(key[1]), fns, plugins)
    if why:
        return f"card points by house rules ({names}), and a rule's code {why}"
    row = np.full((len(contracts), 2), -1, np.int64)
    return CardTables(_rows(trick, row, valued, contracts, 0), _rows(end, row, valued, contracts, 1), row,
                      MAX_CALLS - budget[0])


def point_classes(th, every: bool = False):
    """The score tables' classes of the declarer's card points
    (:mod:`skatcore.engine.compiled`): ``point_class[p]`` for 0..120 (win /
    schneider lines), and per (schwarz class, point class) one sample
    (points, declarer tricks) of the class: 0 neither side schwarz, 1 the
    declarer took no trick (at most the skat's 22 points; with ``every``,
    where card-point tables may give or take any points, every class), 2
    the defenders took none (120; ``every`` class).  One is enough: a key is
    tabulated only where its scoring read nothing finer (:mod:`skatcore.engine.probe`)."""
    def cls(p):
        return (p >= th.win) + 2 * (p >= th.schneider) + 4 * (p < th.out_of_schneider)

    point_class = np.array([cls(p) for p in range(121)], np.int64)
    reps = []
    for sc, (lo, hi), tricks in ((0, (0, 120), (1, 9)), (1, (0, 120 if every else 22), (0,)),
                                 (2, (0 if every else 120, 120), (10,))):
        for pc in sorted({cls(p) for p in range(lo, hi + 1)}):
            ps = [p for p in range(lo, hi + 1) if cls(p) == pc]
            reps.append((sc, pc, (ps[0], tricks[0])))
    return point_class, reps


def _rows(table: np.ndarray, row: np.ndarray, valued, contracts, k: int) -> np.ndarray:
    """``table``'s rows of anything but zeros, each kept once, and their index in ``row[:, k]``."""
    kept: dict[bytes, int] = {}
    for i, c in enumerate(valued):
        if table[i].any():
            row[contracts.index(c), k] = kept.setdefault(table[i].tobytes(), len(kept))
    out = np.zeros((len(kept), table.shape[1]), np.int32)
    for b, r in kept.items():
        out[r] = np.frombuffer(b, np.int32)
    return out


def explore(dims: list[tuple[str, list]], ask, budget: list[int]) -> list[tuple[dict, object]] | str:
    """Every answer of ``ask`` over the key ``dims`` (``(part, values)``;
    the first value is the default) as ``(parts set, answer)``: the answer
    holds for every value of the parts not set.  ``ask(assigned)`` answers
    for the parts ``assigned`` (the others at their default) and says which
    parts it read: a call that did not read a part answers alike for every
    value of it (the rule answers from its arguments alone: checked
    after), so only parts read are walked.  ``ask`` answers a string where
    the rule cannot be tabulated (why)."""
    out: list[tuple[dict, object]] = []
    values = dict(dims)
    stack: list[dict] = [{}]
    while stack:
        assigned = stack.pop()
        if budget[0] <= 0:
            return f"takes more than {MAX_CALLS:,} calls to tabulate"
        budget[0] -= 1
        answer, read = ask(assigned)
        if isinstance(answer, str):
            return answer
        walk = [p for p, _ in dims if p in read and p not in assigned]
        if not walk:
            out.append((assigned, answer))
            continue
        stack += [{**assigned, walk[0]: v} for v in reversed(values[walk[0]])]
    return out


# -- asking a rule on noting arguments -------------------------------------------------

_SEEN: set[str] = set()  # what of the trick or the tricks the current call looked at


class _NotedTrick(Trick):
    """A trick that notes which of its fields are read."""

    __slots__ = ()

    def __getattribute__(self, name):
        if name in ("leader", "winner", "winner_index", "cards"):
            _SEEN.add(name)
        return object.__getattribute__(self, name)


class _Tricks(tuple):
    """The tricks of the end facts: how many and the last one are read freely; any other trick notes ``tricks``."""

    def __getitem__(self, i):
        if not isinstance(i, int) or i not in (-1, len(self) - 1):
            _SEEN.add("tricks")
        return tuple.__getitem__(self, i)

    def __iter__(self):
        _SEEN.add("tricks")
        return tuple.__iter__(self)

    def __reversed__(self):
        _SEEN.add("tricks")
        return tuple.__reversed__(self)

    def __contains__(self, x):
        _SEEN.add("tricks")
        return tuple.__contains__(self, x)


_FIELDS: set[str] = set()  # the facts' fields the current call read


class _NotedFacts(GameFacts):
    """Facts that note in :data:`_FIELDS` which fields are read (where: asked again on recording facts)."""

    def __getattribute__(self, name):
        if name in _FACT_FIELDS:
            _FIELDS.add(name)
        return object.__getattribute__(self, name)


_FACT_FIELDS = frozenset(GameFacts.__dataclass_fields__) | {"__dict__"}


class _Asker:
    """Asks one function of a rule (``kind`` ``trick`` or ``end``) for a key,
    on one trick and one facts object that note what is read (changed in
    place from call to call: building them would cost more than the call)."""

    def __init__(self, rules, fn, kind: str, valued: list[str]):
        self.rules, self.fn, self.kind, self.valued = rules, fn, kind, valued
        self.order = {c: order_winners(rules.tricks[c]).tolist() for c in valued}
        self.fields = TRICK_FIELDS if kind == "trick" else END_FIELDS
        self.cards = list(zip(C0.tolist(), C1.tolist(), C2.tolist(), strict=True))
        self.facts: dict[str, GameFacts] = {}
        self.trick = _NotedTrick(0, [], None)
        self.last = _NotedTrick(0, [], 1)
        self.tricks = _Tricks((*[Trick(0, [], None)] * (TRICKS - 1), self.last))

    def key(self, assigned: dict) -> dict:
        d = {"contract": self.valued[0], "cards": 0, "declarer": 0, "last": 1, "taken": 5, "skat": 0}
        d.update(assigned)
        return d

    def args(self, k: dict, noted: bool) -> tuple:
        """The arguments of key ``k``: noting (the asker's own, changed in place) or plain ones."""
        c = self.rules.contracts[k["contract"]]
        if self.kind == "trick":
            i = k["cards"]
            cards, winner = list(self.cards[i]), self.order[k["contract"]][i]
            if not noted:
                return Trick(0, cards, winner), _facts(self.rules, c)
            self.trick.cards, self.trick.winner = cards, winner
            return self.trick, self._noted(c, {})
        given = {"declarer": k["declarer"], "declarer_tricks": k["taken"], "defender_tricks": TRICKS - k["taken"],
                 "last_trick_winner": k["last"], "skat": SKATS[k["skat"]]}
        if not noted:
            tricks = (*[Trick(0, [], None)] * (TRICKS - 1), Trick(0, [], k["last"]))
            return (_facts(self.rules, c, declarer=k["declarer"], taken=k["taken"], tricks=tricks,
                           last_trick_winner=k["last"], skat=SKATS[k["skat"]]),)
        self.last.winner = k["last"]
        return (self._noted(c, given),)

    def _noted(self, c, given: dict) -> GameFacts:
        f = self.facts.get(c.name)
        if f is None:
            f = self.facts[c.name] = _NotedFacts(**vars(_facts(self.rules, c, tricks=self.tricks)))
        object.__getattribute__(f, "__dict__").update(given)
        return f

    def where(self, k: dict) -> str:
        if self.kind == "trick":
            return f"{' '.join(name(c) for c in self.cards[k['cards']])} ({k['contract']})"
        return (f"the end of a {k['contract']} game of {SEATS[k['declarer']]} ({k['taken']} tricks, the last to "
                f"{SEATS[k['last']]}, skat {' '.join(name(c) for c in SKATS[k['skat']])})")

    def noted(self, assigned: dict):
        """``(answer, parts of the key read)``, or ``(why not, ...)``."""
        k = self.key(assigned)
        args = self.args(k, True)
        _SEEN.clear()
        _FIELDS.clear()
        try:
            got = self.fn(*args)
        except Exception as exc:
            if self.kind == "end" and not _possible(k):  # never looked up: walk on, or nothing there
                return {}, {"declarer", "last", "taken"} - set(assigned)
            return f"raises {type(exc).__name__} for {self.where(k)}", set()
        fields = self.fields
        if not _FIELDS.issubset(fields):
            return f"{self._where_read(k)}, outside the card-point tables' key", set()
        read = {fields[n] for n in _FIELDS} - {None}
        if _SEEN:
            seen = _SEEN - {"cards"} if self.kind == "trick" else _SEEN - {"winner", "winner_index"}
            if seen:
                what = "the trick's " + " and ".join(sorted(seen)) if self.kind == "trick" else \
                    "every trick" if "tricks" in seen else "the last trick's cards"
                return f"reads {what}, outside the card-point tables' key", set()
            read.add("cards" if self.kind == "trick" else "last")
        why = _answer(got, self.kind)
        return (why, set()) if why else (got, read)

    def _where_read(self, k: dict) -> str:
        """``reads bid (house.py:12)``: the call of key ``k`` again, on recording facts."""
        reads = Reads()
        args = self.args(k, False)
        with contextlib.suppress(Exception):  # what it read before it raised is enough
            self.fn(*args[:-1], recording(args[-1], reads))
        outside = {n: w for n, w in reads.score.items() if n not in self.fields}
        return describe(outside) if outside else "reads " + ", ".join(sorted(_FIELDS - set(self.fields)))

    def sample(self, leaves: list) -> list:
        """Keys to ask again (:func:`~skatcore.engine.trick_probe.answers_alone`): up to
        :data:`SAMPLE_GIVING` that give points and :data:`SAMPLE_OTHERS` others, a fixed draw."""
        rng = np.random.default_rng(20240537)
        giving = [i for i, (_, a) in enumerate(leaves) if a]
        others = [i for i, (_, a) in enumerate(leaves) if not a]
        picks = [*rng.permutation(giving)[:SAMPLE_GIVING], *rng.permutation(others)[:SAMPLE_OTHERS]]
        out = []
        for i in picks:
            k = self.key(leaves[i][0])
            if self.kind == "trick" or _possible(k):
                out.append(((self, k, self.args(k, False)), leaves[i][1]))  # built here: the profiler sees the rule only
        return out


def _possible(k: dict) -> bool:
    """Whether the end of a game can look like ``k``: the declarer took the last trick where he took them all, not where none."""
    return not (k["taken"] == 0 and k["last"] == k["declarer"]) and not (k["taken"] == TRICKS and k["last"] != k["declarer"])


def _answer(got, kind: str) -> str | None:
    """Why ``got`` is not an answer the tables hold (None: it is)."""
    if not got:
        return None
    if kind == "trick":
        return None if type(got) is int else f"answers {got!r}: the tables hold an int, to the trick's taker"
    if isinstance(got, Mapping) and all(type(s) is int and s in (0, 1, 2) and type(n) is int for s, n in got.items()):
        return None
    return f"answers {got!r}: expected {{seat: points}}"


def _facts(rules, contract, *, declarer: int = 0, taken: int = 5, **given):
    return make_facts(rules, contract, Declaration(contract.name), bid=0, declarer=declarer, matadors=0,
                      declarer_points=rules.thresholds.win, declarer_tricks=taken, defender_tricks=TRICKS - taken,
                      **given)


def _fill_trick(leaves, table: np.ndarray, valued: list[str]) -> None:
    """Add the points to the taker of ``leaves`` (:func:`explore`'s) to ``table`` (contract, slot)."""
    for assigned, got in _fill(leaves, table, valued, ("cards",), lambda got, d: got, lambda a: SLOT[a["cards"]]):
        for r in _rows_of(assigned, valued):  # the cards not read: every trick
            table[r, SLOT] += got


def _fill_end(leaves, table: np.ndarray, valued: list[str]) -> None:
    """Add the change of the declarer's card points of ``leaves`` to ``table`` (contract, :data:`END_SHAPE` flat)."""
    def net(got, d):  # the lines divide the points between the sides: a defender's count against the declarer
        return sum(n if s == d else -n for s, n in got.items())

    def slot(a):
        return ((a["declarer"] * 3 + a["last"]) * (TRICKS + 1) + a["taken"]) * 1024 + _skat_key(a["skat"])

    grid = table.reshape(len(valued), *END_SHAPE)
    full = ("declarer", "last", "taken", "skat")
    for assigned, got in _fill(leaves, table, valued, full, net, slot):  # a part of the key not read: every value
        last, taken = assigned.get("last", slice(None)), assigned.get("taken", slice(None))
        skat = _skat_key(assigned["skat"]) if "skat" in assigned else slice(None)
        for d in [assigned["declarer"]] if "declarer" in assigned else range(3):
            for r in _rows_of(assigned, valued):
                grid[r, d, last, taken, skat] += net(got, d)


def _skat_key(i: int) -> int:
    """The end table's key of skat ``SKATS[i]``: ``lo << 5 | hi``."""
    lo, hi = SKATS[i]
    return lo << 5 | hi


def _rows_of(assigned: dict, valued: list[str]):
    """The table rows a leaf holds for: its contract's, or every contract's where it did not read the contract."""
    return [valued.index(assigned["contract"])] if "contract" in assigned else range(len(valued))


def _fill(leaves, table, valued, full, value, slot) -> list:
    """Add the leaves that set every part ``full`` at once (``value(answer,
    declarer)`` at ``slot(parts)``); the others are the caller's to add."""
    rest: list = []
    at: list[list[int]] = [[] for _ in range(len(valued) + 1)]  # by contract, the last: every contract
    add: list[list[int]] = [[] for _ in range(len(valued) + 1)]
    for assigned, got in leaves:
        if not got:
            continue
        if not all(p in assigned for p in full):
            rest.append((assigned, got))
            continue
        r = valued.index(assigned["contract"]) if "contract" in assigned else len(valued)  # the last: every contract
        at[r].append(slot(assigned))
        add[r].append(value(got, assigned.get("declarer", 0)))
    for r in range(len(valued)):
        table[r, np.array(at[r], np.int64)] += np.array(add[r], np.int32)  # the leaves do not overlap
    table[:, np.array(at[-1], np.int64)] += np.array(add[-1], np.int32)
    return rest
