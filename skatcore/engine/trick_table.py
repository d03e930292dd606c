"""A trick-winner rule (``skat_trick_winner``) as a table the compiled paths read.

The hook may read only its arguments: the trick's cards, its number or
whether it is the last, the leader, the declarer, the contract and its card
order (the card order's winner follows from the cards).  Per contract that
is a small key, so the hook is asked once per key when a ruleset is
compiled and its answers kept as an ``int8`` table: the index (0-2) of the
card that wins, for every ordered trick of three of the 32 cards (29,760,
stored at ``c0 << 10 | c1 << 5 | c2``) and every variant of the other
arguments the hook's code *reads*.  Which arguments those are comes from
the code of its implementations (:func:`params_read`: pluggy hands a hook
only the arguments it names, and a named one its code never loads changes
nothing), so "the trump seven takes the last trick" (contract, order,
cards, last) has 2 variants per contract, one that reads the number, the
leader and the declarer 10 x 3 x 4.  Each variant's first call gets
arguments that note whether they are looked at: a variant whose first call
answers without looking at the cards (the rule is about another trick or
another contract) is answered by it, and a trick number whose first
leader and declarer are never looked at gives every leader and declarer
that row.  "The trump seven takes the last trick" takes 119,052 calls
(~0.2 s), "the declarer's trump seven takes the last trick" 1.3 million
(~2 s); a hook that needs more than :data:`MAX_CALLS` is not tabulated.

That the answers depend on nothing else is checked by
:func:`skatcore.engine.trick_probe.impure` (no global that can change, no
clock, no random, no state kept between calls).  A hook that fails it,
raises, or answers anything but an index for some key is not tabulated:
its ruleset takes the exact path (``Deal`` asks the hook per trick) and the
compiled engines say why (:class:`~skatcore.engine.compiled.Unsupported`).
"""

from __future__ import annotations

import dis
import time
from dataclasses import dataclass

import numpy as np

from skatcore.cards import name
from skatcore.engine.trick_probe import impure
from skatcore.model import STANDARD_DECK

HOOK = "skat_trick_winner"
WHY = f"a plugin decides trick winners ({HOOK})"
#: the arguments besides the trick and the contract that make a variant
VARIANT_ARGS = ("number", "last", "leader", "declarer")
TRICKS = 10  # of a 32-card deal
SLOTS = 1 << 15  # c0 << 10 | c1 << 5 | c2

# every ordered trick of three different cards, and its slot
_C0, _C1, _C2 = (a.ravel() for a in np.meshgrid(np.arange(32), np.arange(32), np.arange(32), indexing="ij"))
_DISTINCT = (_C0 != _C1) & (_C0 != _C2) & (_C1 != _C2)
C0, C1, C2 = _C0[_DISTINCT], _C1[_DISTINCT], _C2[_DISTINCT]
SLOT = (C0 << 10) | (C1 << 5) | C2


@dataclass(frozen=True)
class TrickWins:
    """The winners of every trick of a ruleset whose plugin decides them.

    ``wins[row[c, v], c0 << 10 | c1 << 5 | c2]`` is the index of the
    winning card in the trick ``c0 c1 c2`` (play order) under contract
    ``contracts[c]``, variant ``v = number[trick] + leader[seat] +
    declarer[seat + 1]`` (``trick`` 0-based, ``seat + 1`` 0 without
    declarer): the hook's answer, else the card order's.  Equal rows are
    kept once (most variants of most hooks are the card order's)."""

    contracts: tuple[str, ...]
    wins: np.ndarray
    row: np.ndarray
    number: np.ndarray
    leader: np.ndarray
    declarer: np.ndarray
    reads: tuple[str, ...]  # of VARIANT_ARGS, those the hook's code reads
    calls: int              # hook calls it took
    seconds: float          # and their time

    def index(self, contract: int, trick: int, leader: int, declarer: int | None, cards) -> int:
        """The winning card's index in ``cards`` (the hook's rule, as ``CompiledRules.trick_winner``)."""
        v = self.number[trick] + self.leader[leader] + self.declarer[0 if declarer is None else declarer + 1]
        return int(self.wins[self.row[contract, v], (cards[0] << 10) | (cards[1] << 5) | cards[2]])

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        """What the kernels take: ``wins, row, number, leader, declarer``."""
        return self.wins, self.row, self.number, self.leader, self.declarer


def none(n_contracts: int) -> tuple[np.ndarray, ...]:
    """The kernels' arguments of a ruleset without the hook (no rows: the card order)."""
    z = np.zeros(1, np.int64)
    return (np.zeros((0, 0), np.int8), np.zeros((n_contracts, 1), np.int64), np.zeros(TRICKS, np.int64),
            z.repeat(3), z.repeat(4))


def kernel_arrays(rules, contracts: tuple[str, ...]) -> tuple[np.ndarray, ...]:
    """The kernels' ``wins, win_row, win_number, win_leader, win_decl``: the
    table of a ruleset whose plugin decides trick winners, else :func:`none`."""
    wins = trick_wins(rules) if rules.trick_hook else None
    if not isinstance(wins, TrickWins):
        return none(len(contracts))
    assert wins.contracts == contracts
    return wins.arrays


def trick_wins(rules) -> TrickWins | str:
    """The table of ``rules`` (built once per compiled ruleset), or why
    there is none; raises nothing (a ruleset without the hook has none either)."""
    got = rules.cache.get("trick_wins")
    if got is None:
        got = rules.cache["trick_wins"] = _build(rules)
    return got


def params_read(impls) -> set[str]:
    """The arguments the implementations' code loads (one without code of its own: all it names)."""
    read: set[str] = set()
    for impl in impls:
        fn = getattr(impl.function, "__func__", impl.function)
        code = getattr(fn, "__code__", None)
        names = set(impl.argnames)
        if code is None or {"locals", "vars"} & set(code.co_names):
            read |= names
            continue
        used = set(code.co_cellvars)  # an argument an inner function reads
        for ins in dis.get_instructions(code):
            if ins.opname.startswith("LOAD_FAST") or ins.opname in ("LOAD_DEREF", "LOAD_CLOSURE"):
                used.update(ins.argval if isinstance(ins.argval, tuple) else (ins.argval,))
        read |= used & names
    return read


#: most hook calls a table may take (~1 us each): a hook that reads the trick's number, leader and
#: declarer and looks at the cards in every variant would take 16 million; it plays through Deal
MAX_CALLS = 4_000_000


def _build(rules) -> TrickWins | str:
    impls = rules.pm.hook.skat_trick_winner.get_hookimpls()
    if not impls:
        return "no plugin decides trick winners"
    if rules.deck != STANDARD_DECK or not rules.table.plain:
        return f"{WHY} in a game of other than three hands of 10 cards"
    reads = params_read(impls)
    numbers = list(range(1, TRICKS + 1)) if "number" in reads else [1, TRICKS] if "last" in reads else [1]
    leaders = [0, 1, 2] if "leader" in reads else [0]
    decl_read = "declarer" in reads
    n_num, n_lead, n_decl = len(numbers), len(leaders), 4 if decl_read else 1
    number = np.array([numbers.index(t + 1) if "number" in reads else int(t + 1 == TRICKS and "last" in reads)
                       for t in range(TRICKS)], np.int64) * n_lead * n_decl
    leader = np.array([s if "leader" in reads else 0 for s in range(3)], np.int64) * n_decl
    declarer = np.arange(4, dtype=np.int64) if decl_read else np.zeros(4, np.int64)
    contracts = tuple(rules.contracts)
    rows: dict[bytes, int] = {}
    kept: list[np.ndarray] = []
    row = np.zeros((len(contracts), n_num * n_lead * n_decl), np.int64)
    ask = _asker(rules, impls)
    started, calls = time.process_time(), 0
    for ci, cname in enumerate(contracts):
        contract, table = rules.contracts[cname], rules.tricks[cname]
        order = order_winners(table)
        decls = ([None] if not contract.declarer else [0, 1, 2]) if decl_read else \
            [0 if contract.declarer else None]
        for n in numbers:
            # the first leader and declarer on noting arguments: where no call reads them, its row is every one's
            combos = [(lead, d) for lead in leaders for d in decls]
            noted, shared = len(combos) > 1, None
            for k, (lead, d) in enumerate(combos):
                v = number[n - 1] + leader[lead] + (0 if d is None or not decl_read else d + 1)
                if shared is not None:
                    row[ci, v] = shared
                    continue
                first = noted and k == 0
                args = dict(contract=contract, order=table.order, number=n, last=n == TRICKS,
                            leader=_LookedLeader(lead) if first else lead,
                            declarer=_LookedDeclarer(d) if first and d is not None else d)
                got, asked = ask(args, order, MAX_CALLS - calls)
                calls += asked
                if isinstance(got, str):
                    return got
                if got is None:
                    return (f"{WHY}, which reads the trick's {', '.join(a for a in VARIANT_ARGS if a in reads)}: "
                            f"more than {MAX_CALLS:,} tricks to ask")
                full = np.zeros(SLOTS, np.int8)
                full[SLOT] = got
                key = full.tobytes()
                if key not in rows:
                    rows[key] = len(kept)
                    kept.append(full)
                row[ci, v] = rows[key]
                if first and not _LOOKED & {"leader", "declarer"}:
                    shared = rows[key]
    seconds = time.process_time() - started
    wins = np.array(kept, np.int8)
    why = impure(rules, impls, _sample(rules, wins, row, contracts, numbers, leaders, decl_read, number, leader))
    if why:
        return f"{WHY}, and its code {why}"
    return TrickWins(contracts, wins, row, number, leader, declarer,
                     tuple(a for a in VARIANT_ARGS if a in reads), calls, seconds)


SAMPLE_DIFFERING, SAMPLE_OTHERS = 300, 40  # per contract and variant


def _sample(rules, wins, row, contracts, numbers, leaders, decl_read, number, leader) -> list:
    """The keys :func:`~skatcore.engine.trick_probe.impure` asks again: per
    contract and variant, up to 300 tricks the table gives against the card
    order and 40 others (a fixed draw: the same ruleset, the same sample)."""
    rng = np.random.default_rng(20240537)
    sample = []
    for ci, cname in enumerate(contracts):
        contract, table = rules.contracts[cname], rules.tricks[cname]
        order = order_winners(table)
        decls = ([None] if not contract.declarer else [0, 1, 2]) if decl_read else [0 if contract.declarer else None]
        for n in numbers:
            for lead in leaders:
                for d in decls:
                    got = wins[row[ci, number[n - 1] + leader[lead] + (0 if d is None or not decl_read else d + 1)], SLOT]
                    differing = np.nonzero(got != order)[0]
                    picks = np.concatenate([rng.permutation(differing)[:SAMPLE_DIFFERING],
                                            rng.choice(len(SLOT), SAMPLE_OTHERS, replace=False)])
                    args = dict(contract=contract, order=table.order, number=n, last=n == TRICKS, leader=lead,
                                declarer=d)
                    sample += [(args, (int(C0[i]), int(C1[i]), int(C2[i])), int(order[i]), int(got[i])) for i in picks]
    return sample


def order_winners(table) -> np.ndarray:
    """The card order's winner (index 0-2) of every trick of :data:`SLOT`."""
    s = np.array([list(row[:32]) for row in table.strength], np.int64)
    led = np.array(table.follow[:32], np.int64)[C0]
    a, b, d = s[led, C0], s[led, C1], s[led, C2]
    return np.where((a > b) & (a > d), 0, np.where(b > d, 1, 2)).astype(np.int8)


def _asker(rules, impls):
    """``ask(args, order, budget)``: the winner of every trick of :data:`SLOT`
    with the other arguments ``args`` and the card order's winners ``order``,
    and how many calls that took; or why a trick has none (None: over the
    ``budget`` of calls).  One call first, on
    a trick that notes whether the hook looks at it (:data:`_LOOKED`): a
    hook that answers without looking at the cards or the card order's
    winner answers so for every trick of this variant (``None`` where the
    rule does not apply: the trick of another number, another contract)."""
    direct = len(impls) == 1 and not (impls[0].wrapper or impls[0].hookwrapper)
    hook = rules.pm.hook.skat_trick_winner

    def ask(args, order, budget):
        out = order.copy()
        f, names = impls[0].function, impls[0].argnames
        fixed = [args.get(n) for n in names]
        at_cards = names.index("cards") if "cards" in names else -1
        at_winner = names.index("winner") if "winner" in names else -1
        looked = _LOOKED
        looked.clear()
        first = (int(C0[0]), int(C1[0]), int(C2[0]))
        winner, answer = _LookedInt(int(order[0])), None
        try:
            answer = hook(**args, cards=_LookedCards(first), winner=winner)
        except Exception:
            looked.add("raised")  # asked again below, on plain arguments
        if answer is winner:  # handed back unread: the card order's winner
            answer = None
        if not looked & {"cards", "winner", "raised"} and (answer is None or (type(answer) is int and 0 <= answer < 3)):
            if answer is not None:
                out[:] = answer
            return out, 1
        if budget < len(out) + 1:
            return None, 1
        for i in range(len(out)):
            cards, w = (int(C0[i]), int(C1[i]), int(C2[i])), int(order[i])
            try:
                if direct:
                    if at_cards >= 0:
                        fixed[at_cards] = cards
                    if at_winner >= 0:
                        fixed[at_winner] = w
                    answer = f(*fixed)
                else:
                    answer = hook(**args, cards=cards, winner=w)
            except Exception as exc:
                return f"{WHY}, which raised {type(exc).__name__} {_where(args, cards)}", i + 2
            if answer is None:
                continue
            if type(answer) is not int or not 0 <= answer < 3:
                return f"{WHY}, which answered {answer!r} {_where(args, cards)}", i + 2
            out[i] = answer
        return out, len(out) + 1

    return ask


_LOOKED: set[str] = set()  # what of the trick the last call looked at


def _noting(base: type, what: str, methods: tuple[str, ...]) -> type:
    """``base`` whose ``methods`` note in :data:`_LOOKED` that the hook looked at ``what``."""
    def wrap(m):
        def noted(self, *a, **k):
            _LOOKED.add(what)
            return getattr(base, m)(self, *a, **k)
        return noted
    return type(f"Looked{what.capitalize()}", (base,), {m: wrap(m) for m in methods if hasattr(base, m)})


_CMP = ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__repr__", "__str__", "__format__",
        "__reduce__", "__reduce_ex__", "__getnewargs__", "__bool__", "__add__", "__radd__", "__mul__", "__rmul__")
_LookedCards = _noting(tuple, "cards", (*_CMP, "__getitem__", "__iter__", "__contains__", "__len__", "__reversed__",
                                        "index", "count"))
_INT = (*_CMP,
    "__index__", "__int__", "__float__", "__sub__", "__rsub__", "__mod__", "__rmod__", "__floordiv__",
    "__rfloordiv__", "__truediv__", "__rtruediv__", "__neg__", "__pos__", "__abs__", "__invert__", "__and__",
    "__rand__", "__or__", "__ror__", "__xor__", "__rxor__", "__lshift__", "__rshift__", "__pow__", "__divmod__",
    "__round__", "__trunc__", "to_bytes", "bit_length", "bit_count", "conjugate", "as_integer_ratio")
_LookedInt = _noting(int, "winner", _INT)
_LookedLeader = _noting(int, "leader", _INT)
_LookedDeclarer = _noting(int, "declarer", _INT)


def _where(args, cards) -> str:
    return f"for {' '.join(name(c) for c in cards)} (trick {args['number']} of {args['contract'].name})"
