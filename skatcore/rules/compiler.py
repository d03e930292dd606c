"""Compile a ruleset into :class:`CompiledRules`: frozen tables and small
functions built from the plugins' hook answers.  The engine reads only these.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from pathlib import Path
from types import MappingProxyType
from typing import Any

from skatcore.cards import CARD_NAMES, DECK, POINTS, SUITS, parse_card
from skatcore.engine.card_points import adjusted, adjusted_ramsch
from skatcore.engine.scoring import score_game, score_without_declarer
from skatcore.engine.steps import MOMENTS, Step, check_steps
from skatcore.errors import InputError
from skatcore.model import (
    ANNOUNCEMENTS,
    PLAIN_TABLE,
    STANDARD_DECK,
    CardOrder,
    CardPointRule,
    Contract,
    Deck,
    Declaration,
    GameFacts,
    MultiplierItem,
    RamschFacts,
    ScoreResult,
    Series,
    Table,
    TableCall,
    Thresholds,
    WinCondition,
    null_label,
)
from skatcore.rules.ladder import contract_values
from skatcore.rules.manager import PluginSpec, SkatPluginManager
from skatcore.rules.owners import function_owners, raiser, table_problems
from skatcore.rules.ruleset import Ruleset, file_stamp, find_ruleset, load_ruleset, validate
from skatcore.rules.trust import trust_key

TRUMP = 4  # follow class of trumps; plain suits are 0..3 in SUITS order


@dataclass(frozen=True)
class TrickTable:
    """Trick-taking of one contract as tuples indexed by card.

    ``follow[c]`` is the class a card follows (0-3 its suit, 4 trump),
    ``class_mask[k]`` the bitmask of class ``k``, ``strength[k][c]`` how
    strongly card ``c`` competes in a trick led with class ``k`` (-1: it
    cannot win it).  The trick goes to the highest strength.  The tuples
    cover every card id (:data:`~skatcore.cards.CARD_NAMES`); cards outside
    the ruleset's deck never win and belong to no class.
    """

    order: CardOrder
    follow: tuple[int, ...]
    class_mask: tuple[int, ...]
    strength: tuple[tuple[int, ...], ...]
    trumps: tuple[int, ...]
    points: tuple[int, ...] = POINTS

    @classmethod
    def build(cls, order: CardOrder, cards: tuple[int, ...] = DECK) -> TrickTable:
        """The table of ``order`` for the deck ``cards`` (card ids).

        :raises ValueError: when a card of the deck is neither a trump nor of
            a rank in ``order.plain``.
        """
        in_deck = set(cards)
        trumps = tuple(c for c in (parse_card(t) for t in order.trumps) if c in in_deck)
        follow = [SUITS.index(name[0]) for name in CARD_NAMES]
        n = len(CARD_NAMES)
        power = [-1] * n
        for i, c in enumerate(trumps):
            follow[c] = TRUMP
            power[c] = 100 + len(trumps) - i
        for c in cards:
            if follow[c] != TRUMP:
                rank = CARD_NAMES[c][1]
                if rank not in order.plain:
                    raise ValueError(f"the card order ranks no {rank} (plain ranks {order.plain!r}, trumps {' '.join(order.trumps)})")
                power[c] = len(order.plain) - order.plain.index(rank)
        masks = [0] * 5
        for c in cards:
            masks[follow[c]] |= 1 << c
        strength = tuple(
            tuple(power[c] if follow[c] in (led, TRUMP) else -1 for c in range(n)) for led in range(5)
        )
        points = POINTS if order.points is None else tuple(order.points.get(n[1], POINTS[c]) for c, n in enumerate(CARD_NAMES))
        return cls(order, tuple(follow), tuple(masks), strength, trumps, points)

    def winner_index(self, trick: tuple[int, ...] | list[int]) -> int:
        """Index (in play order) of the card that wins ``trick``."""
        s = self.strength[self.follow[trick[0]]]
        best = 0
        for i in range(1, len(trick)):
            if s[trick[i]] > s[trick[best]]:
                best = i
        return best

    def matadors(self, cards_mask: int) -> int:
        """Signed matadors of the declarer's cards incl. skat: +N with, -N without."""
        if not self.trumps:
            return 0
        holds_top = cards_mask >> self.trumps[0] & 1  # 1 or 0
        n = 0
        for c in self.trumps:
            if cards_mask >> c & 1 != holds_top:
                break
            n += 1
        return n if holds_top else -n


# a base value or lost factor: a number, or a function of the declaration (plugin declarations decide)
ValueRule = int | Callable[[Declaration], int]


@dataclass(frozen=True)
class CompiledRules:
    """A ruleset compiled to plain tables.  Immutable; share it freely."""

    name: str
    description: str
    source: str
    plugins: tuple[PluginSpec, ...]
    contracts: Mapping[str, Contract]
    tricks: Mapping[str, TrickTable]
    values: Mapping[str, tuple[int, ...]]
    ladder: tuple[int, ...]
    min_bid: int
    thresholds: Thresholds
    announcements: Mapping[tuple[str, bool, frozenset[str]], frozenset[str] | str]
    lost_factor: Mapping[tuple[str, bool], ValueRule]
    base: Mapping[tuple[str, bool, frozenset[str]], ValueRule]
    multiplier_items: tuple[MultiplierItem, ...]
    win_conditions: tuple[WinCondition, ...]
    declarations: Mapping[str, dict[str, Any]]
    all_pass: str
    skip_bidding: bool
    calls: Mapping[str, TableCall]
    options: Mapping[str, tuple[Declaration, ...]]
    pm: SkatPluginManager
    custom_sheet: bool = True  # some plugin implements skat_sheet_entries (else it is skipped)
    trick_hook: bool = False  # some plugin implements skat_trick_winner: Deal asks it per trick
    # derived constants the engine memoises per ruleset (e.g. declaration actions by bid)
    cache: dict[object, Any] = field(default_factory=dict, compare=False, repr=False)
    declaration_refusals: Mapping[tuple[str, bool, str], str] = field(default_factory=lambda: MappingProxyType({}))
    deck: Deck = STANDARD_DECK
    steps: tuple[Step, ...] = ()  # the plugins' flow steps (skatcore.engine.steps)
    steps_at: Mapping[str, tuple[Step, ...]] = field(default_factory=lambda: MappingProxyType({m: () for m in MOMENTS}))
    step_keys: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # declaration -> its step
    series: Mapping[int, Series] = field(default_factory=lambda: MappingProxyType({}))
    table: Table = PLAIN_TABLE
    # code of the items', conditions' and card-point rules' functions -> "plugin 'p': win condition 'c'", for errors
    function_owners: Mapping[object, str] = field(default_factory=lambda: MappingProxyType({}))
    card_points: tuple[CardPointRule, ...] = ()  # the house rules' card points (skat_card_points)

    def contract(self, name: str) -> Contract:
        try:
            return self.contracts[name]
        except KeyError:
            raise InputError(
                f"contract {name!r} does not exist in ruleset {self.name!r} (expected one of: {', '.join(self.contracts)})"
            ) from None

    def declarable(self) -> list[Contract]:
        """Contracts a declarer may choose (Ramsch-like ones have no declarer)."""
        return [c for c in self.contracts.values() if c.declarer]

    def step(self, name: str) -> Step | None:
        """The ruleset's flow step called ``name``, if any."""
        return next((s for s in self.steps if s.name == name), None)

    def check_declaration(self, d: Declaration, bid: int, route: str | None = None) -> Declaration:
        """The declaration with the announcements in force (what they imply
        added), or InputError if the ruleset does not allow it.

        ``route`` is how the declarer came to declare: ``None`` for the skat
        (picked up or a hand game, by ``d.hand``), or the name of the step
        that declares (its own contracts, its own declarations, and a
        contract without declarer where the step offers one)."""
        for key, value in d.declarations.items():
            if key not in self.declarations:
                known = f"expected one of: {', '.join(self.declarations)}" if self.declarations else "it has none"
                raise InputError(f"unknown declaration {key!r} under {self.name} ({known})", path=f"declarations.{key}")
            validate(value, self.declarations[key], source="", prefix=f"declarations.{key}")
        game, hand, announced = d.game, d.hand, d.announced
        contract = self.contract(game)
        if not contract.declarer:  # no declarer: only a step may choose it, as it is
            if route and not hand and not announced and not d.declarations:
                return Declaration(game)
            raise InputError(f"{game} is played without declarer: it cannot be declared"
                             + (" with hand, announcements or declarations" if route else ""))
        for key in d.declarations:
            owner = self.step_keys.get(key)
            if owner and owner != route:
                how = f"not {route}" if route else f"but the skat was {'left' if hand else 'picked up'}"
                raise InputError(f"{key} needs the {owner} route, {how}", path=f"declarations.{key}")
        for key, value in d.declarations.items():
            refusal = self.declaration_refusals.get((game, hand, key))
            if refusal and value not in (None, False, 0):
                raise InputError(refusal, path=f"declarations.{key}")
        if route is None and not any(o.game == game for o in self.options["hand" if hand else "pickup"]):
            raise InputError(f"{game} cannot be declared {'as a hand game' if hand else 'after picking up the skat'} in this ruleset")
        answer = self.announcements.get((game, hand, announced))
        if answer is None:
            raise InputError(f"{game} cannot be declared here")
        if isinstance(answer, str):
            raise InputError(answer)
        if contract.no_trick:
            value = contract.fixed[(hand, "ouvert" in answer)]
            if value < bid:
                raise InputError(f"{null_label(hand, 'ouvert' in answer)} is worth {value}, below the bid {bid}")
        return Declaration(game, hand, "schneider" in answer, "schwarz" in answer, "ouvert" in answer, d.declarations)

    def call_hook(self, hook: str, **kwargs: object) -> Any:
        """A per-deal hook call; a plugin's exception becomes a one-line
        error naming the plugin and the ruleset.  A plugin's InputError is
        about the deal (a record's declarations, a move), so the caller names
        the record, not the ruleset file."""
        return self.pm.call(hook, **kwargs)

    def trick_winner(self, game: str, cards: tuple[int, ...] | list[int], number: int, leader: int, declarer: int | None) -> int:
        """Index (in play order) of the card that wins the finished trick
        ``cards`` (number ``number``, 1-based) of ``game``: the card order's
        winner, unless a plugin's :func:`~skatcore.hookspecs.skat_trick_winner`
        says otherwise.  A bad answer is a one-line error naming the plugin."""
        table = self.tricks[game]
        winner = table.winner_index(cards)
        if not self.trick_hook:
            return winner
        args = dict(contract=self.contracts[game], order=table.order, cards=tuple(cards), number=number,
                    last=number == self.deck.hand, leader=leader, declarer=declarer, winner=winner)
        answer = self.pm.call("skat_trick_winner", **args)
        if answer is None:
            return winner
        if type(answer) is not int or not 0 <= answer < len(cards):
            who = self.pm.answerer("skat_trick_winner", args, answer)
            raise InputError(f"plugin {who!r} answered skat_trick_winner with {answer!r}: expected the index of the "
                             f"winning card in the trick, 0 to {len(cards) - 1}, or None", source=self.source)
        return answer

    def base_value(self, d: Declaration) -> int:
        base = self.base[(d.game, d.hand, d.announced)]
        return base(d) if callable(base) else base

    def lost_factor_of(self, d: Declaration) -> int:
        factor = self.lost_factor[(d.game, d.hand)]
        return factor(d) if callable(factor) else factor

    def score(self, facts: GameFacts | RamschFacts) -> ScoreResult:
        """The :class:`ScoreResult` of finished ``facts``.  A multiplier item,
        win condition or card-point rule that raises (anything but an
        InputError, which is about the deal) is a bug of its plugin: one line naming it."""
        result: ScoreResult = self.guarded(score_game if isinstance(facts, GameFacts) else score_without_declarer, facts)
        return result

    def adjusted(self, facts: GameFacts | RamschFacts) -> GameFacts | RamschFacts:
        """``facts`` with the card points of the ruleset's card-point rules
        (:mod:`skatcore.engine.card_points`; as they are without such rules)."""
        if not self.card_points:
            return facts
        facts = self.guarded(adjusted if isinstance(facts, GameFacts) else adjusted_ramsch, facts)
        return facts

    def guarded(self, fn: Callable[..., Any], facts: GameFacts | RamschFacts) -> Any:
        """``fn(self, facts)``, a plugin's function that raises in it one line naming the plugin."""
        try:
            return fn(self, facts)
        except InputError:
            raise
        except Exception as exc:
            what = raiser(exc, self.function_owners)
            if what is None:
                raise
            raise InputError(f"{what} failed: {type(exc).__name__}: {exc}", source=self.source) from None


# ---------------------------------------------------------------------------
# Compile
# ---------------------------------------------------------------------------


def compile_rules(ruleset: Ruleset) -> CompiledRules:
    """Ask every hook once and freeze the answers into tables.  An error a
    plugin raises while answering is about the ruleset: it names its file."""
    try:
        return _compile(ruleset)
    except InputError as exc:
        raise exc.at(source=ruleset.source) from None


def _compile(ruleset: Ruleset) -> CompiledRules:
    src = ruleset.source
    pm = SkatPluginManager.for_ruleset(ruleset.plugins, src)
    first = pm.first

    contracts = pm.collect("skat_register_contracts", "contract")
    if not contracts:
        raise InputError("no plugin registers any contract", source=src)

    deck = first("skat_deck") or STANDARD_DECK
    problem = deck.problems() if isinstance(deck, Deck) else f"expected a Deck, got {type(deck).__name__}"
    if problem:
        raise InputError(f"skat_deck: {problem}", source=src)

    table = first("skat_table") or PLAIN_TABLE
    problem = table_problems(table, deck) if isinstance(table, Table) else f"expected a Table, got {type(table).__name__}"
    if problem:
        raise InputError(f"skat_table: {problem}", source=src)

    tricks, values = {}, {}
    for c in contracts.values():
        order = first("skat_card_order", contract=c)
        if order is None:
            raise InputError(f"no plugin gives the card order of contract {c.name!r}", source=src)
        try:
            tricks[c.name] = TrickTable.build(order, deck.cards)
        except ValueError as exc:
            raise InputError(f"contract {c.name!r}: {exc}, but the deck has it (skat_card_order)", source=src) from None
        vals = first("skat_contract_values", contract=c, order=order)
        if vals is not None:  # a ladder that cannot be derived (see skatcore.rules.ladder)
            values[c.name] = tuple(sorted(set(vals)))

    thresholds = first("skat_thresholds") or Thresholds()

    announcements: dict[tuple[str, bool, frozenset[str]], frozenset[str] | str] = {}
    lost: dict[tuple[str, bool], ValueRule] = {}
    base: dict[tuple[str, bool, frozenset[str]], ValueRule] = {}
    subsets = [frozenset(s) for n in range(len(ANNOUNCEMENTS) + 1) for s in combinations(ANNOUNCEMENTS, n)]
    for c in contracts.values():
        if not c.declarer:
            continue
        for hand in (False, True):
            lost[(c.name, hand)] = first("skat_lost_factor", contract=c, hand=hand)
            if lost[(c.name, hand)] is None:
                lost[(c.name, hand)] = 2
            for announced in subsets:
                base[(c.name, hand, announced)] = first("skat_base_value", contract=c, hand=hand, announced=announced)
                answer = first("skat_check_announcements", contract=c, hand=hand, announced=announced)
                if answer is None:
                    answer = "no announcements allowed" if announced else announced
                announcements[(c.name, hand, announced)] = answer if isinstance(answer, str) else frozenset(answer)

    options = {}
    for route, hand in (("pickup", False), ("hand", True)):
        opts = []
        for c in contracts.values():
            if not c.declarer or first("skat_contract_allowed", contract=c, route=route) is False:
                continue
            for answer in dict.fromkeys(a for (g, h, _), a in announcements.items() if g == c.name and h == hand):
                if not isinstance(answer, str):
                    opts.append(Declaration(c.name, hand, "schneider" in answer, "schwarz" in answer, "ouvert" in answer))
        options[route] = tuple(opts)
    steps = tuple(pm.collect("skat_register_steps", "step").values())
    problem = check_steps(steps)
    if problem:
        raise InputError(f"skat_register_steps: {problem}", source=src)
    persons = sum(1 for seat in deck.seats if table.seats[seat].controller == "own")  # a straw man is nobody
    series = {n: s for n in ((2,) if persons == 2 else (3, 4)) if (s := first("skat_series", players=n)) is not None}

    items = tuple(pm.collect("skat_multiplier_items", "multiplier item").values())
    conditions = tuple(pm.collect("skat_win_conditions", "win condition").values())
    card_rules = tuple(pm.collect("skat_card_points", "card-point rule").values())
    declarations = pm.collect("skat_register_declarations", "declaration")
    calls = pm.collect("skat_register_calls", "table call")
    for c in calls.values():
        if c.writes not in declarations:
            raise InputError(f"table call {c.name!r} writes {c.writes!r}, which is not a registered declaration", source=src)
        if type(c.until_trick) is not int or not 1 <= c.until_trick <= deck.hand:
            raise InputError(f"table call {c.name!r}: until_trick {c.until_trick!r}, expected a trick number 1 to "
                             f"{deck.hand}", source=src)
    refusals: dict[tuple[str, bool, str], str] = {}
    for c in contracts.values():
        if not c.declarer:
            continue
        for hand in (False, True):
            for key in declarations:
                reasons = [r for r in pm.call("skat_refuse_declaration", contract=c, hand=hand, key=key) if r]
                if reasons:
                    refusals[(c.name, hand, key)] = reasons[0]
    all_pass = first("skat_all_pass") or "throw_in"
    skip_bidding = bool(first("skat_skip_bidding"))
    instead = [s.name for s in steps if s.at == "start"]
    if skip_bidding and instead:
        raise InputError(f"bidding is skipped for an all-pass deal and replaced by step {instead[0]!r} at once "
                         "(skat_skip_bidding, skat_register_steps): expected one of them", source=src)
    if skip_bidding and all_pass == "throw_in":
        raise InputError("bidding is skipped but all pass throws the deal in: nothing would be played", source=src)
    straw = [seat for seat in deck.seats if table.seats[seat].controller == "defender"]
    if skip_bidding and straw:  # (issue 35, S6: every deal a Ramsch under Schmegegge stopped with no legal card)
        raise InputError(f"bidding is skipped, every deal a {all_pass} without a declarer (skat_skip_bidding), but seat "
                         f"{straw[0]} is played by the defender (skat_table: a straw man or half-dummy): nobody could "
                         "play its cards, so no deal can be played", source=src)
    if all_pass != "throw_in" and all_pass not in contracts:
        raise InputError(f"all-pass rule names contract {all_pass!r}, which no plugin registers", source=src)

    rules = CompiledRules(
        name=ruleset.name,
        description=ruleset.description,
        source=src,
        plugins=ruleset.plugins,
        contracts=MappingProxyType(contracts),
        tricks=MappingProxyType(tricks),
        values=MappingProxyType({}),
        ladder=(),
        min_bid=0,
        thresholds=thresholds,
        announcements=MappingProxyType(announcements),
        lost_factor=MappingProxyType(lost),
        base=MappingProxyType(base),
        multiplier_items=items,
        win_conditions=conditions,
        declarations=MappingProxyType(declarations),
        all_pass=all_pass,
        skip_bidding=skip_bidding,
        calls=MappingProxyType(calls),
        options=MappingProxyType(options),
        pm=pm,
        custom_sheet=any(i.plugin_name != "core-defaults" for i in pm.hook.skat_sheet_entries.get_hookimpls()),
        trick_hook=bool(pm.hook.skat_trick_winner.get_hookimpls()),
        declaration_refusals=MappingProxyType(refusals),
        deck=deck,
        steps=steps,
        steps_at=MappingProxyType({m: tuple(s for s in steps if s.at == m) for m in MOMENTS}),
        step_keys=MappingProxyType({k: s.name for s in steps for k in s.declarations}),
        series=MappingProxyType(series),
        table=table,
        function_owners=MappingProxyType(function_owners(pm, items, conditions, card_rules)),
        card_points=card_rules,
    )
    for c in contracts.values():
        if c.name not in values:
            values[c.name] = tuple(sorted(contract_values(rules, c))) if c.declarer else ()
    min_bid = first("skat_min_bid") or min((v for vs in values.values() for v in vs), default=18)
    ladder = tuple(sorted({v for c, vs in values.items() if contracts[c].declarer for v in vs if v >= min_bid}))
    top = max((v for c, vs in values.items() if contracts[c].declarer for v in vs), default=None)
    if top is None and not skip_bidding and not instead:  # (ramsch with every_deal: false: a deal bid for stopped
        # with no legal declaration, an internal error)
        raise InputError(f"the deal is bid for, but no plugin registers a game a declarer can play (only "
                         f"{', '.join(sorted(contracts))}): expected declarer games (official) or no bidding "
                         "(skat_skip_bidding: ramsch's every_deal)", source=src)
    if not ladder and top is not None and not skip_bidding and not instead:  # (min_bid 500000 validated, then
        # skat simulate stopped with an internal error on the empty ladder)
        owner = next((i.plugin_name for i in reversed(pm.hook.skat_min_bid.get_hookimpls())), None)
        raise InputError(f"the lowest bid {min_bid:,} is above every game value (the highest is {top:,}): nothing "
                         "could be bid", source=src, path=f"plugins.{owner}" if owner else None)
    rules = dataclasses.replace(rules, values=MappingProxyType(values), ladder=ladder, min_bid=min_bid)
    for step in steps:
        problem = step.prepare(rules)
        if problem:
            raise InputError(f"step {step.name!r}: {problem}", source=src)
    return rules


# (ref, trust) -> (the files it was compiled from, their file_stamp then)
_READ: dict[tuple[str, tuple[object, ...]], tuple[tuple[str, ...], object]] = {}


@lru_cache(maxsize=32)
def _compiled(ref: str, trust: tuple[object, ...]) -> CompiledRules:
    ruleset = load_ruleset(ref)
    _READ[(ref, trust)] = (ruleset.files, file_stamp(ruleset.files))
    return compile_rules(ruleset)


def get_rules(ref: str | Path = "official") -> CompiledRules:
    """Load and compile a ruleset by name or path (cached per name/path and per trust setting,
    :mod:`skatcore.rules.trust`; read again when a file of it changed: edited while ``skat serve`` runs)."""
    key = (str(ref), trust_key())
    if key in _READ and file_stamp(_READ[key][0]) != _READ[key][1]:
        _compiled.cache_clear()  # (rare: a file written while the process runs)
        _READ.clear()
    return _compiled(*key)


def rules_for(doc: Mapping[str, Any], source: str | None = None, override: str | None = None,
              default: str = "official") -> CompiledRules:
    """The compiled rules a record (deal, session, vector case) is scored
    under: ``override`` (``--ruleset``) wins, else the record's own
    ``ruleset`` (a shipped or installed name, or a file inside the record's
    directory), else ``default``.  An unknown one is an error at
    ``--ruleset`` or at the record's ``ruleset`` (an error inside a ruleset
    file names that file)."""
    ref = override or doc.get("ruleset") or default
    try:
        if not override and source and "ruleset" in doc:
            ref = str(find_ruleset(ref, Path(source).parent))
        return get_rules(ref)
    except InputError as exc:
        if exc.source:
            raise
        raise exc.at("--ruleset" if override else "ruleset", None if override else source) from None
