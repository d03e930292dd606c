"""The official rules of 1999 (International Skat Order), docs/rules/official.md.

Its parameters expose the numbers other variants change, so that "grand 20"
or "no null hand" is one line of YAML.
"""

from __future__ import annotations

from skatcore.cards import SUIT_NAMES
from skatcore.hookspecs import hookimpl
from skatcore.model import CardOrder, Contract, MultiplierItem, Thresholds, WinCondition, null_label

JACKS = ("CJ", "SJ", "HJ", "DJ")
SUIT_BASES = {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12}
NULL_VALUES = {"null": 23, "null_hand": 35, "null_ouvert": 46, "null_ouvert_hand": 59}
NULL_KEYS = {"null": (False, False), "null_hand": (True, False), "null_ouvert": (False, True), "null_ouvert_hand": (True, True)}

_value = {"type": "integer", "minimum": 1}
_null_value = {"anyOf": [{"type": "integer", "minimum": 1}, {"const": None}]}


def _matador_label(facts) -> str:
    return "with" if facts.matadors > 0 else "without"


class Official:
    """Contracts, card order, minimum bid, announcements and scoring of the 1999 ISkO."""

    #: its answers are defaults: any other plugin may override them (docs/hooks.md, "Conflicts")
    base = True

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "grand_base": {**_value, "default": 24, "description": "base value of grand"},
            "suit_bases": {
                "type": "object",
                "additionalProperties": False,
                "properties": {s: _value for s in SUIT_BASES},
                "description": "base values of the suit games",
            },
            "null_values": {
                "type": "object",
                "additionalProperties": False,
                "properties": {k: _null_value for k in NULL_VALUES},
                "description": "fixed null values; null removes that form",
            },
            "min_bid": {**_value, "default": 18, "description": "the lowest bid"},
            "schneider_at": {"type": "integer", "minimum": 61, "maximum": 120, "default": 90,
                             "description": "declarer card points that make the defenders schneider (Texas, Danish: 91)"},
            "out_of_schneider": {"type": "integer", "minimum": 1, "maximum": 60, "default": 31,
                                 "description": "declarer card points that keep the declarer out of schneider"},
        },
    }

    def __init__(self, grand_base: int = 24, suit_bases: dict | None = None, null_values: dict | None = None, min_bid: int = 18,
                 schneider_at: int = 90, out_of_schneider: int = 31):
        self.grand_base = grand_base
        self.suit_bases = {**SUIT_BASES, **(suit_bases or {})}
        self.null_values = {**NULL_VALUES, **(null_values or {})}
        self.min_bid = min_bid
        self.thresholds = Thresholds(win=61, schneider=schneider_at, out_of_schneider=out_of_schneider)

    # -- contracts ---------------------------------------------------------
    @hookimpl
    def skat_register_contracts(self):
        suits = [Contract(name, "suit", trump=letter, base=self.suit_bases[name], label=name)
                 for letter, name in SUIT_NAMES.items()]
        nulls = {NULL_KEYS[k]: v for k, v in self.null_values.items() if v is not None}
        return [*suits, Contract("grand", "grand", base=self.grand_base), Contract("null", "null", fixed=nulls)]

    @hookimpl
    def skat_card_order(self, contract):
        if contract.family == "suit":
            t = contract.trump
            return CardOrder(JACKS + tuple(t + r for r in "ATKQ987"), "ATKQ987")
        if contract.family == "grand":
            return CardOrder(JACKS, "ATKQ987")
        if contract.family == "null":
            return CardOrder((), "AKQJT987")
        return None

    @hookimpl
    def skat_min_bid(self):
        return self.min_bid

    @hookimpl
    def skat_thresholds(self):
        return self.thresholds

    @hookimpl
    def skat_check_announcements(self, contract, hand, announced):
        if contract.family == "null":
            if announced - {"ouvert"}:
                return "schneider and schwarz cannot be announced in null"
            if (hand, "ouvert" in announced) not in contract.fixed:
                return f"{null_label(hand, 'ouvert' in announced)} is not played in this ruleset"
            return announced
        if contract.family not in ("suit", "grand"):
            return None
        if announced and not hand:
            return "schneider, schwarz and ouvert may be announced only in hand games"
        # ouvert implies schwarz announced, schwarz implies schneider announced
        if "ouvert" in announced:
            return frozenset({"schneider", "schwarz", "ouvert"})
        if "schwarz" in announced:
            return frozenset({"schneider", "schwarz"})
        return announced

    @hookimpl
    def skat_lost_factor(self, contract, hand):
        return 2

    @hookimpl
    def skat_all_pass(self):
        return "throw_in"

    # -- scoring -------------------------------------------------------------
    @hookimpl
    def skat_multiplier_items(self):
        d = lambda f: f.declaration  # noqa: E731
        return [
            MultiplierItem("matadors", lambda f: abs(f.matadors), _matador_label),
            MultiplierItem("game", lambda f: 1, "game"),
            MultiplierItem("hand", lambda f: int(d(f).hand), "hand"),
            # an announcement that fails still counts what success would have had (A8)
            MultiplierItem("schneider", lambda f: int(f.defenders_schneider or f.declarer_schneider or d(f).schneider),
                           "schneider"),
            MultiplierItem("schneider_announced", lambda f: int(d(f).schneider), "schneider announced"),
            MultiplierItem("schwarz", lambda f: int(f.defenders_schwarz or f.declarer_schwarz or d(f).schwarz), "schwarz"),
            MultiplierItem("schwarz_announced", lambda f: int(d(f).schwarz), "schwarz announced"),
            MultiplierItem("ouvert", lambda f: int(d(f).ouvert), "ouvert"),
        ]

    @hookimpl
    def skat_win_conditions(self):
        # the explanation names the first that fails: the announced schwarz (ouvert) before the card points, for a
        # game lost by one trick to the defenders - often stopped there (A8 early end), with few points yet
        return [
            WinCondition("ouvert", lambda f: not (f.declaration.ouvert and f.declaration.schwarz) or f.defenders_schwarz,
                         "ouvert, and the declarer lost a trick", "an ouvert game is lost by any trick the defenders take"),
            WinCondition("schwarz_announced", lambda f: not f.declaration.schwarz or f.defenders_schwarz,
                         "schwarz announced but not made", "schwarz announced: the defenders must take no trick"),
            WinCondition("points", lambda f: f.made_points, "only {facts.declarer_points} card points",
                         "the declarer needs {thresholds.win} card points"),
            WinCondition("schneider_announced", lambda f: not f.declaration.schneider or f.defenders_schneider,
                         "schneider announced but not made",
                         "schneider announced: the declarer needs {thresholds.schneider} card points"),
        ]
