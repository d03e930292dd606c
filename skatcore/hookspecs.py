"""The rules questions skatcore asks its plugins.

Every hook is called while a ruleset is *compiled* (:func:`skatcore.rules.compiler.compile_rules`),
except the per-deal hooks, which run once per finished deal, and
``skat_trick_winner``, which ``Deal`` asks once per finished trick where a
plugin answers it.  Otherwise the card-by-card engine never calls a hook: it
reads the frozen tables built from these answers.

Kinds:

* **collected** - every plugin may contribute; the core merges the lists and
  a duplicate name is an error naming both plugins.
* **first result wins** (``firstresult=True``) - exactly one answer is used;
  plugins registered later are asked first, so a house rule listed after
  ``official`` overrides it.
* every hook may be wrapped (``@hookimpl(wrapper=True)``) by a house rule
  that adjusts another plugin's answer.

Conflicts: a first-result question has one answer.  A plugin whose class sets
``base = True`` (``official``, the core's defaults) gives default answers that
any other plugin overrides.  Two other plugins that answer the same question
(same hook, same arguments) differently are an error naming both and the hook
- unless the winner was listed in a ruleset that ``extends`` the loser's: a
child ruleset overrides its parent.  See docs/hooks.md, "Conflicts".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import pluggy

from skatcore.model import (
    CardOrder,
    CardPointRule,
    Column,
    Contract,
    Deck,
    Declaration,
    GameFacts,
    MultiplierItem,
    Outlook,
    RamschFacts,
    ScoreResult,
    Series,
    SessionState,
    Settlement,
    SheetLine,
    Table,
    TableCall,
    Thresholds,
    WinCondition,
)

if TYPE_CHECKING:  # a step is engine code; the engine imports the hooks, not the other way round
    from skatcore.engine.steps import Step

PROJECT = "skat"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# ---------------------------------------------------------------------------
# Contracts and declarations (collected)
# ---------------------------------------------------------------------------


@hookspec
def skat_register_contracts() -> Iterable[Contract]:
    """Contracts this plugin adds to the ruleset.

    Collected: each contract name must come from one plugin only.

    :returns: :class:`~skatcore.model.Contract` objects.

    **Example**::

        @hookimpl
        def skat_register_contracts(self):
            return [Contract("grand", "grand", base=20, label="grand")]
    """


@hookspec
def skat_register_declarations() -> Mapping[str, dict[str, Any]]:
    """Extra declarations a deal record may carry in ``game.declarations``.

    Collected: each key must come from one plugin only.

    :returns: mapping of declaration key to the JSON Schema of its value.

    **Example**::

        @hookimpl
        def skat_register_declarations(self):
            return {"spitze": {"type": "integer", "minimum": 0, "maximum": 3}}
    """


@hookspec
def skat_refuse_declaration(contract: Contract, hand: bool, key: str) -> str | None:
    """Whether the plugin declaration ``key`` (see
    :func:`skat_register_declarations`) may be made with ``contract`` as a
    hand (``hand=True``) or skat game.

    Called at compile time for every declarable contract, hand/skat and
    registered declaration key, so the answer becomes a table.  A deal that
    gives the key with a true value (not ``false``, ``0`` or ``null``) where
    a plugin refused it is rejected with that reason.

    Collected: every plugin may refuse; ``None`` means no objection.  The
    first reason given is shown.

    :returns: ``None``, or a short reason for the refusal.

    **Example** (Spitze only in suit and grand games)::

        @hookimpl
        def skat_refuse_declaration(self, contract, hand, key):
            if key == "spitze" and contract.family not in ("suit", "grand"):
                return "spitze is played only in suit and grand games"
    """


@hookspec
def skat_register_calls() -> Iterable[TableCall]:
    """Calls players may make during play, out of turn (Kontra, Re ...).
    Collected; each name must come from one plugin only and should also be
    registered as a declaration.

    *Reads:* a call's ``may`` gets the bidding so far, the seat and the
    declarer.  *On each path:* ``Deal`` offers the calls while the deal is
    played; the compiled heuristic says them as the Python heuristic does,
    asking ``may`` on the deal's own bidding, and scores those deals with the
    calls (tabulated as the sheet entries are).

    :returns: :class:`~skatcore.model.TableCall` objects.

    **Example**::

        @hookimpl
        def skat_register_calls(self):
            return [TableCall("kontra", by="defender"), TableCall("re", by="declarer", after="kontra", window="next_card")]
    """


@hookspec
def skat_register_steps() -> Iterable[Step]:
    """Stages this plugin adds to how a deal runs: a round before the first
    card, a game without bidding, another way through the skat.  Collected;
    each step name must come from one plugin only.  Called once at compile
    time (``CompiledRules.steps``); the deal asks the steps for the legal
    actions and lets them apply them, and the deal-record reader replays
    records through them (see :mod:`skatcore.engine.steps` and
    docs/writing-plugins.md, "A flow step").

    *Reads:* a step reads and changes the deal it runs in.  *On each path:*
    steps run in ``Deal`` only; a ruleset with steps is played through
    ``Deal`` (steps that wait for all to pass: only those deals), which
    ``skat simulate``/``compare`` report as the path and why.

    :returns: :class:`~skatcore.engine.steps.Step` objects.

    **Example** (each defender may swap a card with the skat before the first trick)::

        @hookimpl
        def skat_register_steps(self):
            return [SkatSwap()]  # class SkatSwap(Step): name = "swap"; at = "first_card" ...
    """


@hookspec
def skat_multiplier_items() -> Iterable[MultiplierItem]:
    """Items that make up the multiplier of a suit or grand game, in the order
    they are counted ("with 2, game 3, hand 4 ...").

    Collected; a wrapper may remove or replace items of other plugins (Texas
    makes ``ouvert`` a doubling factor).  Called once at compile time; the
    items' ``count`` functions run once per scored deal.

    *Reads:* an item's ``count`` and ``label`` get the deal's
    :class:`~skatcore.model.GameFacts` and may read any field.  They are also
    asked at compile time on facts without tricks (bid 0, the win line's
    card points) to derive the bid ladder and the bots' estimates: answer
    those without failing.  *On each path:* ``Deal`` counts them on every
    scored deal; the compiled engines count them once per key and tabulate
    the answer where only the key's fields were read, else score the deal on
    its own facts ("What a function may read", above).

    :returns: :class:`~skatcore.model.MultiplierItem` objects.

    **Example**::

        @hookimpl
        def skat_multiplier_items(self):
            return [MultiplierItem("rum", lambda f: int(f.declaration.declarations.get("rum", False)), "rum")]
    """


@hookspec
def skat_win_conditions() -> Iterable[WinCondition]:
    """Conditions a suit or grand declarer must all meet to win (61 points,
    announced schneider/schwarz, Spitze ...).  Collected.

    *Reads:* a condition's ``check`` gets the deal's
    :class:`~skatcore.model.GameFacts` and may read any field (its ``reason``
    is formatted with them, for the explanation only).  *On each path:* as
    the multiplier items: checked per scored deal in ``Deal``, tabulated by
    the compiled engines only where the check read nothing outside the key.

    :returns: :class:`~skatcore.model.WinCondition` objects.

    A condition reads the lines from the facts (``f.thresholds.win``), never
    restates 61 or 90, and the card points as the house rules made them
    (``f.declarer_points``, see :func:`skat_card_points`).  Its
    ``description`` says the rule in words for ``skat rules`` and ``skat
    compare``.  The names the shipped plugins use are listed at the end of
    this page ("Names the shipped plugins use"): a wrapper replaces or
    removes one by name.

    **Example**::

        @hookimpl
        def skat_win_conditions(self):
            return [WinCondition("last_trick", lambda f: f.last_trick_winner == f.declarer, "lost the last trick",
                                 "the declarer must take the last trick")]
    """


@hookspec
def skat_card_points() -> Iterable[CardPointRule]:
    """House rules that give card points, per trick or at the end of the
    deal: +10 to whoever takes both black jacks in one trick, 10 for the
    last trick, the skat to whoever takes the last trick.  Collected; each
    rule's name must come from one plugin only.

    The core adds every rule's points to the seats' card points before
    anything is judged: ``declarer_points`` then reads the adjusted points,
    so ``made_points``, ``defenders_schneider`` and ``declarer_schneider``
    (the win, schneider and out-of-schneider lines) and every multiplier
    item and win condition see them; ``raw_points`` keeps the cards' count
    and ``card_points`` the items, which the explanation shows ("card
    points 55 + 10 for the black jacks = 65").  The lines divide the card
    points between the two sides: what a defender is given counts against
    the declarer ("card points 70 - 10 for the black jacks (middlehand) =
    60"), so a rule moves points by giving them to the seat that gets them.
    In a deal without declarer (Ramsch) each seat's ``points`` are its own,
    adjusted before ``skat_ramsch_scores`` reads them.  Null games count no
    card points: the rules are not asked.

    *Reads:* a rule's ``trick`` gets each trick played (:class:`~skatcore.model.Trick`,
    its ``winner`` the seat that took it) and the facts; its ``end`` gets
    the facts, any field.  Both are also asked on facts without tricks (a
    summary, the compiled engines' tables): answer those without failing.
    *On each path:* ``Deal`` adds them on every scored deal.  The compiled
    engines (random, heuristic) tabulate them when the ruleset is compiled
    (:mod:`skatcore.engine.card_table`): a ``trick`` rule over the trick's
    cards and the contract (an int, to the trick's taker), an ``end`` rule
    over the contract, the declarer, the last trick's taker (``tricks[-1].winner``
    or ``last_trick_winner``), the tricks each side took and the skat - each
    asked only for the parts of the key it reads, and checked to answer
    from its arguments alone.  A rule that reads more (the trick's leader
    or taker, the declarer in a ``trick`` rule, any trick but the last,
    the declaration ...), gives a ``trick``'s points to another seat than
    its taker, or fails the check, is not tabulated: the reason is shown
    and those deals are scored on their own facts, replayed through
    ``Deal``.  Deals without declarer (Ramsch) are always scored so.  The
    ISS replay scores a game played to its last trick on facts with its
    tricks.  The double-dummy solver (``skat solve``) and the ``expert``
    count the tables' points in a suit or grand game (an end rule only by
    who takes the last trick and the skat); ``skat solve`` declines a game
    whose rules they cannot hold, or that swing it by more than ~67 card
    points, with the reason.  A record without the play it reads (a
    summary, an ISS game ended by a claim) is refused with the reason,
    never scored on tricks it lacks.

    :returns: :class:`~skatcore.model.CardPointRule` objects.

    **Example** (+10 to whoever takes both black jacks in one trick)::

        @hookimpl
        def skat_card_points(self):
            both = {parse_card("CJ"), parse_card("SJ")}
            return [CardPointRule("black_jacks", "for the black jacks",
                                  trick=lambda t, f: 10 if both <= set(t.cards) else 0,
                                  description="+10 to whoever takes both black jacks in one trick")]
    """


# ---------------------------------------------------------------------------
# Deck, dealing, who declares (first result wins)
# ---------------------------------------------------------------------------


@hookspec(firstresult=True)
def skat_deck() -> Deck | None:
    """The cards dealt and how: ranks per suit, cards per hand, skat size and
    the packets of the deal.  Called once at compile time; the answer becomes
    ``CompiledRules.deck``, which the deal, the records and the card tables
    read.  ``None``: the 32-card deck, 10 cards each, 2 in the skat, packets
    3-skat-4-3.  Ranks a deck adds must be ranked by every contract's
    :func:`skat_card_order` (a compile error names the contract otherwise).
    First result wins.

    :returns: a :class:`~skatcore.model.Deck`.

    **Example** (Sechserskat: 36 cards, 11 each, 3 in the skat)::

        @hookimpl
        def skat_deck(self):
            return Deck(ranks="AKQJT9876", hand=11, skat=3, packets=(3, "skat", 4, 4))
    """


@hookspec(firstresult=True)
def skat_table() -> Table | None:
    """How each seat is played and who sees its cards: a seat played by
    another seat's person (a straw man the defender plays), a seat nobody
    plays (a face-down pile whose top card goes to each trick), a seat that
    does not bid, cards lying in stacks or a pile, and when a seat's cards
    are shown to whom.  Called once at compile time (``CompiledRules.table``);
    the deal, :class:`~skatcore.engine.deal.SeatView` and the drivers read it.
    ``None``: everyone plays their own hand.  First result wins.

    :returns: a :class:`~skatcore.model.Table`.

    **Example** (a straw man at middlehand, played by the defender, shown to
    all once the game is announced)::

        @hookimpl
        def skat_table(self):
            dummy = SeatPlan(controller="defender", bids=False, shown=(("declared", "all"),))
            return Table((SeatPlan(), dummy, SeatPlan()))
    """


@hookspec(firstresult=True)
def skat_series(players: int) -> Series | None:
    """How long a series (a "list") is at a table of ``players`` (3 or 4; 2
    where the table has two persons) and which contract families every player
    must declare once in it.  Called at compile time for each
    (``CompiledRules.series``); a session
    ends the series after ``deals``.  ``None``: no fixed series.  First result wins.

    :returns: a :class:`~skatcore.model.Series`.

    **Example** (Raeuberskat: 4 contracts per player)::

        @hookimpl
        def skat_series(self, players):
            return Series(deals=4 * players, once_each=("suit", "grand", "null", "ramsch"))
    """


# ---------------------------------------------------------------------------
# Card order, bidding, thresholds (first result wins)
# ---------------------------------------------------------------------------


@hookspec(firstresult=True)
def skat_card_order(contract: Contract) -> CardOrder | None:
    """Trumps and plain-suit ranking of ``contract``.

    :param contract: a registered contract.
    :returns: a :class:`~skatcore.model.CardOrder`, or ``None`` to let another
        plugin answer.  First result wins.

    **Example** (tens below queens in Ramsch)::

        @hookimpl
        def skat_card_order(self, contract):
            if contract.family == "ramsch":
                return CardOrder(("CJ", "SJ", "HJ", "DJ"), "AKQT987")
    """


@hookspec(firstresult=True)
def skat_contract_values(contract: Contract, order: CardOrder) -> Iterable[int] | None:
    """Every game value ``contract`` can reach, for a ladder that cannot be
    derived.  Normally no plugin answers: the core derives each contract's
    values from its base value (``skat_base_value``) and every plugin's
    multiplier items (``skat_multiplier_items``), folded as in scoring, over
    the declarations the ruleset allows (:mod:`skatcore.rules.ladder`); a
    fixed-valued contract reaches its fixed values.  The bid ladder is the
    union over the contracts with a declarer, from the minimum bid up.

    :param contract: a registered contract.
    :param order: its card order (the number of trumps bounds the matadors).
    :returns: the reachable values, or ``None`` to let the core derive them.
        First result wins.

    **Example** (a contract whose value is a die roll)::

        @hookimpl
        def skat_contract_values(self, contract, order):
            if contract.name == "dice":
                return range(1, 7)
    """


@hookspec(firstresult=True)
def skat_min_bid() -> int | None:
    """The lowest bid (official: 18).  First result wins.

    **Example**::

        @hookimpl
        def skat_min_bid(self):
            return 24
    """


@hookspec(firstresult=True)
def skat_thresholds() -> Thresholds | None:
    """Card-point thresholds for winning and schneider.  First result wins.

    **Example** (Texas)::

        @hookimpl
        def skat_thresholds(self):
            return Thresholds(win=61, schneider=91, out_of_schneider=31)
    """


@hookspec(firstresult=True)
def skat_check_announcements(contract: Contract, hand: bool, announced: frozenset[str]) -> frozenset[str] | str | None:
    """Whether ``announced`` (a subset of ``schneider``, ``schwarz``,
    ``ouvert``) may be declared with ``contract`` as a hand or skat game.

    Called at compile time for every combination, so the answer becomes a
    table.  Return the announcements in force (with what they imply, e.g.
    ouvert implies schneider and schwarz) or a string saying why it is refused.
    First result wins.

    **Example**::

        @hookimpl
        def skat_check_announcements(self, contract, hand, announced):
            if announced and not hand:
                return "announcements only in hand games"
            return announced
    """


@hookspec(firstresult=True)
def skat_contract_allowed(contract: Contract, route: str) -> bool | None:
    """Whether ``contract`` may be declared after the skat ``route``:
    ``"pickup"`` (skat taken) or ``"hand"`` (skat untouched); a flow step
    may ask with its own route (Raeuberskat's soloist step asks ``"soloist"``
    for a contract without declarer).  Called at compile time.  ``None`` means
    yes.  First result wins.

    **Example** (Tournée's Guckser: after picking up, only grand)::

        @hookimpl
        def skat_contract_allowed(self, contract, route):
            if route == "pickup":
                return contract.family == "grand"
    """


@hookspec(firstresult=True)
def skat_lost_factor(contract: Contract, hand: bool) -> int | Callable[[Declaration], int] | None:
    """How many times its value a lost game costs (official: 2, hand games
    included; pre-1999: 1 for hand games).  Called at compile time per
    contract and hand/skat; may return a function ``declaration -> int``
    where plugin declarations decide (Tournée's second card costs double).
    First result wins.

    **Example**::

        @hookimpl
        def skat_lost_factor(self, contract, hand):
            return 1 if hand else 2
    """


@hookspec(firstresult=True)
def skat_all_pass() -> str | None:
    """What happens when all three pass: ``"throw_in"`` (official) or the
    name of a registered contract played without a declarer (``"ramsch"``).
    First result wins.

    **Example**::

        @hookimpl
        def skat_all_pass(self):
            return "ramsch"
    """


@hookspec(firstresult=True)
def skat_base_value(contract: Contract, hand: bool, announced: frozenset[str]) -> int | Callable[[Declaration], int] | None:
    """The base value of ``contract`` declared as hand or skat game with
    ``announced``; called at compile time for every combination.

    :returns: an int, or a function ``declaration -> int`` for a base that
        depends on plugin declarations (Tournée's first/second card), or
        ``None`` to let another plugin answer.  The core's default is
        ``contract.base``.  First result wins.

    **Example** (pre-1999 grand ouvert 36)::

        @hookimpl
        def skat_base_value(self, contract, hand, announced):
            if contract.family == "grand" and "ouvert" in announced:
                return 36
    """


@hookspec(firstresult=True)
def skat_skip_bidding() -> bool | None:
    """``True`` when there is no bidding: every deal goes the all-pass way
    (ruleset ``ramsch``: every deal a Ramsch).  First result wins.

    **Example**::

        @hookimpl
        def skat_skip_bidding(self):
            return True
    """


# ---------------------------------------------------------------------------
# Per trick (called by Deal after each trick, only in rulesets that answer it)
# ---------------------------------------------------------------------------


@hookspec(firstresult=True)
def skat_trick_winner(contract: Contract, order: CardOrder, cards: tuple[int, ...], number: int, last: bool,
                      leader: int, declarer: int | None, winner: int) -> int | None:
    """Which card wins a finished trick, where a house rule overrides the
    card order ("the seven of trumps takes the last trick", "three sevens go
    to whoever led").

    Called by :class:`~skatcore.engine.deal.Deal` once per finished trick,
    and only in a ruleset where some plugin implements it (compiling notes
    that as ``CompiledRules.trick_hook``; other rulesets never pay for it).
    It may read only its arguments: the trick, never the hands, no global
    that can change, no clock or random number, no state kept between calls.
    The compiled engines, the compiled ISS replay, the double-dummy solver
    (``skat solve``) and the ``expert`` player then read its answers from a
    table built when the ruleset is compiled
    (:mod:`skatcore.engine.trick_table`): every trick of three cards per
    contract, and per trick number, leader or declarer only where its code
    reads them (read ``last`` rather than ``number`` for a rule about the last
    trick).  A hook whose code reads more (:mod:`skatcore.engine.trick_probe`
    checks), raises or answers wrongly for some trick is not tabulated: its
    ruleset plays through ``Deal`` (the compiled engines say why,
    :class:`~skatcore.engine.compiled.Unsupported`) and ``skat solve``
    declines it.  A real game re-scored under it
    must replay under it: an ISS game whose play goes on from a trick the
    plugin gave another player is refused naming that trick, and one that
    ended before its last trick (a claim, a concession, a player gone) is
    refused too, since who would take the tricks not played is not known.

    :param contract: the contract played.
    :param order: its card order (``order.trumps`` highest first).
    :param cards: the trick's card ids in play order (``skatcore.cards.name``
        gives ``"D7"``).
    :param number: the trick's number, 1 for the first.
    :param last: whether it is the deal's last trick (trick 10 of 32 cards).
    :param leader: the seat that led (0 forehand, 1 middlehand, 2 rearhand).
    :param declarer: the declarer's seat, ``None`` without declarer (Ramsch).
    :param winner: the index in ``cards`` of the card that wins by the card
        order - an index, not a seat (the facts' ``Trick.winner`` is the seat
        that took a trick, ``Trick.winner_index`` this index).
    :returns: the index in ``cards`` of the winning card, or ``None`` to let
        another plugin answer (nobody: ``winner``).  Anything else is a
        one-line error naming the plugin.  First result wins.

    **Example** (three sevens go to whoever led)::

        @hookimpl
        def skat_trick_winner(self, cards):
            if all(name(c)[1] == "7" for c in cards):
                return 0
    """


# ---------------------------------------------------------------------------
# Per deal (called once per finished deal, never per card)
# ---------------------------------------------------------------------------


@hookspec(firstresult=True)
def skat_ramsch_scores(facts: RamschFacts) -> tuple[dict[int, int], str] | None:
    """Score a deal played without declarer (Ramsch): the entries by seat
    index and the explanation line.  First result wins.

    *Reads:* the :class:`~skatcore.model.RamschFacts`, any field.  *On each
    path:* ``Deal`` asks it per deal; the compiled engines once per distinct
    facts (every field is the key), so every path asks it the same.

    **Example** (the player with most points loses them)::

        @hookimpl
        def skat_ramsch_scores(self, facts):
            loser = max(range(3), key=lambda s: facts.points[s])
            return {loser: -facts.points[loser]}, f"loser loses {facts.points[loser]}"
    """


@hookspec(firstresult=True)
def skat_sheet_entries(result: ScoreResult, facts: GameFacts | RamschFacts, entries: dict[int, int]) -> dict[int, int] | None:
    """The score-sheet entries of a scored deal, by seat index (0 forehand,
    1 middlehand, 2 rearhand).

    ``entries`` are the classic ones: for a declarer game only the declarer's
    line (``result.score``: the value if won, ``-lost_factor x value`` if
    lost); for Ramsch what :func:`skat_ramsch_scores` gave.  The core's
    default returns them unchanged.  Wrap this hook to double entries
    (Kontra, Bock) or move other lines (Bierlachs, Danish tournament
    settlement).  First result wins.

    *Reads:* ``result`` and ``facts``, any field (``result.explanation`` is
    text to extend, not to decide by).  *On each path:* ``Deal`` asks it per
    scored deal; the compiled engines once per key (the score table's key,
    the bid and the declarer), tabulated where the hook read nothing else,
    else the deal is scored on its own facts.

    **Example** (Kontra doubles every entry)::

        @hookimpl(wrapper=True)
        def skat_sheet_entries(self, result, facts, entries):
            out = yield
            return {seat: 2 * v for seat, v in out.items()}
    """


@hookspec(firstresult=True)
def skat_settled_outcome(contract: Contract, declaration: Declaration, bid: int) -> dict[str, Any] | None:
    """The outcome of a declarer game that ended before its first card by
    agreement (Schenken: the defenders concede at the start and the declarer
    accepts), for a record that gives neither ``play`` nor an ``outcome``.

    Called for a deal record of a declarer game that gives no played cards
    (never for one that does), and by ``Deal`` for a deal ended by a
    settling table call (:class:`~skatcore.model.TableCall` ``settles``).  The answer is merged over the record's
    ``outcome`` (docs/formats.md#deal-record keys: ``declarer_points``, ``declarer_tricks``)
    and scored as usual, so multipliers, overbid and sheet entries still
    apply.  First result wins; ``None``: the deal was not settled, the
    record gives ``play`` or ``outcome``.

    *Reads:* its arguments.  *On each path:* per settled deal, through
    ``Deal`` or the record reader (the compiled engines play no settled deal).

    :param contract: the declared contract.
    :param declaration: the declaration, with plugin ``declarations``.
    :param bid: the final bid.
    :returns: outcome keys, or ``None``.

    **Example** (conceded and accepted: scored as won with 61 card points)::

        @hookimpl
        def skat_settled_outcome(self, contract, declaration, bid):
            if declaration.declarations.get("schenken") == "accepted":
                return {"declarer_points": 61}
    """


# ---------------------------------------------------------------------------
# Per session (skatcore.records.session: a score sheet of many deals, in order)
# Each reads the deal's result as scored (on whichever path: they agree) and its record.
# ---------------------------------------------------------------------------


@hookspec
def skat_session_start(state: SessionState) -> None:
    """A session (score sheet) begins: check the table and set up this
    plugin's bookkeeping in ``state.data[<plugin name>]``.

    Called once, before the first deal, also for a sheet with no deals yet
    (``skat sheet new``).  Collected: every plugin is called; raise
    :class:`~skatcore.errors.InputError` to refuse the table.

    :param state: :class:`~skatcore.model.SessionState`: ``players``,
        ``stake``, ``rules``, the plugin scratch space ``data``.

    **Example** (tournament tables seat 3 or 4)::

        @hookimpl
        def skat_session_start(self, state):
            state.data["seeger_fabian"] = {"series": 36 if len(state.players) == 3 else 48}
    """


@hookspec
def skat_session_deal(state: SessionState, line: SheetLine) -> None:
    """One deal enters the sheet: adjust its line before the running totals
    are updated.

    Called once per deal, in order.  ``line.entries`` holds the deal's own
    entries per player name (after deal-level rules such as Kontra); to
    double them multiply ``line.factor`` (the core multiplies the entries by
    it after every plugin has run, so two doublings compose, whatever the
    plugins' order) and say why in ``line.marks``.  Set ``line.redeal = True`` when the same dealer deals
    again (a grand hand in a Ramsch round), ``line.counts = False`` when the
    deal is not one of the table's deals.  Raise
    :class:`~skatcore.errors.InputError` when the deal may not be played at
    this point of the session (a Ramsch round needs a Ramsch).  Collected.

    :param state: the session so far (``state.lines`` the earlier lines,
        ``state.totals`` the totals before this deal).
    :param line: :class:`~skatcore.model.SheetLine`: ``index``,
        ``dealer``, ``seating``, ``record``, ``result``, ``entries``.

    **Example** (every deal of a Bock round counts double)::

        @hookimpl
        def skat_session_deal(self, state, line):
            if state.data["bock"]["left"]:
                line.factor *= 2
                line.marks.append("Bock")
    """


@hookspec
def skat_session_after_deal(state: SessionState, line: SheetLine) -> None:
    """After a deal's entries went into the running totals (``line.totals``,
    ``state.totals``): look at the result and the totals and decide what
    the next deals are (queue Bock rounds, end a Bierlachs game).
    Collected; called once per deal, after :func:`skat_session_deal`.

    **Example** (a 60-60 split brings a Bock round)::

        @hookimpl
        def skat_session_after_deal(self, state, line):
            if line.result.declarer_points == 60:
                state.data["bock"]["left"] += len(state.players)
    """


@hookspec
def skat_session_outlook(state: SessionState) -> Outlook | None:
    """What the deals to come are, as far as this rule knows now: the kind
    of the next deal (a Bock deal, a Ramsch round that is not bid) and the
    deals still owed (pending Bock rounds and the Ramsch rounds they bring).
    Asked after any deal (the sheet shows it after each ``add`` and under
    the sheet); it must not change ``state``.  Collected.

    :returns: an :class:`~skatcore.model.Outlook`, or ``None`` when the rule
        has nothing to say.

    **Example**::

        @hookimpl
        def skat_session_outlook(self, state):
            left = state.data["bock"]["left"]
            return Outlook(next="Bock" if left else "", factor=2 if left else 1, owed={"Bock": left} if left else {})
    """


@hookspec
def skat_session_extra(state: SessionState) -> Iterable[Column] | None:
    """Columns added to the sheet at the end of the session: extra points
    (Seeger-Fabian), which count towards the final totals, or money
    (the pot), which counts towards the settlement.

    Called once, after the last deal.  Collected.

    :returns: :class:`~skatcore.model.Column` objects (``values`` by
        player name; ``money=True`` for amounts of money).

    **Example**::

        @hookimpl
        def skat_session_extra(self, state):
            won = {p: 50 * n for p, n in self.wins(state).items()}
            return [Column("won", "won games x 50", won)]
    """


@hookspec(firstresult=True)
def skat_session_settlement(state: SessionState, final: Mapping[str, int]) -> Settlement | None:
    """The money settlement of the final totals (docs/rules/official.md#a9: between every
    pair the lower total pays the difference times the stake).

    Called once at the end of a session.  ``state.stake`` is the money per
    point (``None``: the session plays for nothing).  First result wins; the
    core's default is A9's pairwise settlement when there is a stake.

    :param final: the totals with the extra points, by player name.
    :returns: a :class:`~skatcore.model.Settlement`, or ``None``.

    **Example** (each player's total times the stake, for zero-sum sheets)::

        @hookimpl
        def skat_session_settlement(self, state, final):
            return Settlement({p: t * state.stake for p, t in final.items()}, [], "direct")
    """


# ---------------------------------------------------------------------------
# Players (not part of a ruleset: asked of player plugins, see skatcore.bots.registry)
# ---------------------------------------------------------------------------


@hookspec
def skat_register_players() -> Mapping[str, object]:
    """Bots that can take a seat (``skat simulate --players NAME``).

    Not asked of ruleset plugins: players are found by
    :func:`skatcore.bots.registry.player_factories` among the built-ins and the
    plugins published under the entry-point group ``skat.players``.

    Collected: each name must come from one plugin only.

    :returns: mapping of player name to a factory called once per deal and
        seat as ``factory(rules=compiled_rules, seed=int)``, returning an
        object with ``act(view) -> action`` (one of ``view.legal``) and,
        optionally, ``call(view) -> list[Call]`` for table calls (see
        :mod:`skatcore.bots.registry`).

    **Example** (``[project.entry-points."skat.players"] mybot = "mybot.plugin"``)::

        @hookimpl
        def skat_register_players():
            return {"mybot": MyBot}
    """
