"""Double-dummy analysis of a played deal (``skat solve``): what the declarer
gets under best play by everybody, at the start and after every card, and
which cards changed it - the analysis bridge players know from their
double-dummy solvers.

The value is the declarer's card points (skat included) in a game won by
card points, and the number of tricks the declarer cannot avoid in a game
won by taking no trick (0: the null is made).  :func:`coach` adds what a
player reads first: names, a summary, the biggest loss; :func:`describe`
writes it as text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from skatcore.bots.solver import Position, Solver, TrickRule, trick_rule
from skatcore.cards import CARD_NAMES, cards_in
from skatcore.model import SEATS
from skatcore.model.game import Contract
from skatcore.rules.compiler import TrickTable


class NotSolvable(Exception):
    """A deal the analysis does not cover (no declarer, nothing played)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class Goal:
    """How one contract's double-dummy value is asked of the solver.

    ``card_points``: the declarer maximises his card points; ``no_trick``
    (null): the declarer minimises his tricks, so the solver counts the
    defenders' tricks with the declarer maximising them (``invert``).
    """

    contract: Contract
    table: TrickTable
    declarer: int
    rule: TrickRule | None = None  # who takes a trick where a plugin decides it, what house rules' card points add
    skat: int | None = None  # where house rules count it at the end
    solver: Solver = field(init=False)

    def __post_init__(self):
        if self.contract.goal == "card_points":
            self.solver = Solver(self.table, self.declarer, "points", rule=self.rule, skat=self.skat)
        elif self.contract.goal == "no_trick":
            self.solver = Solver(self.table, self.declarer, "tricks", invert=True, rule=self.rule)
        else:
            raise NotSolvable(f"a {self.contract.label} has no declarer: no double-dummy value to give")

    def value(self, pos: Position) -> int:
        """What the declarer gets from ``pos`` on: card points, or tricks he must take."""
        if self.contract.goal == "card_points":
            return self.solver.value(pos)
        return self.solver.live(pos) - self.solver.value(pos)

    def after_each(self, pos: Position) -> dict[int, int]:
        """By legal card of the player to move: what the declarer gets from
        ``pos`` on when that card is played and best play follows."""
        got = self.solver.card_values(pos)
        if self.contract.goal == "card_points":
            return got
        live = self.solver.live(pos)
        return {c: live - v for c, v in got.items()}

    def gained(self, trick: tuple[int, ...], winner: int, left: int = 0, leader: int = 0) -> int:
        """What a finished trick (led by ``leader``, ``left`` cards left in
        the hands after it) adds to the declarer's count: with the house
        rules' card points where they count (:class:`~skatcore.bots.solver.TrickRule`)."""
        if self.contract.goal == "card_points" and self.rule is not None and self.rule.offset:
            return self.rule.counted(trick, left, leader, self.declarer, sum(self.table.points[c] for c in trick),
                                     self.skat)
        if winner != self.declarer:
            return 0
        return sum(self.table.points[c] for c in trick) if self.contract.goal == "card_points" else 1


def analyse(deal) -> dict:
    """The double-dummy course of a deal whose play has begun (or ended).

    :returns: ``contract``, ``declarer``, ``goal``, ``start`` (the value
        before the first card), ``tricks`` (each with its cards, winner and
        the value after it), ``changes`` (every card that moved the value:
        who, which card, from, to, how much was given away), ``played``
        (the value actually reached), ``complete`` (whether every card was
        played), ``target`` (the value that wins: 61 points, 90 where the
        game asks schneider, or 0 tricks: :func:`card_points_to_win`) and
        ``total`` (the card points of the deck).
    :raises NotSolvable: a deal without declarer, or without play, under a
        ruleset whose plugin decides trick winners in a way no table can hold
        (:mod:`skatcore.engine.trick_table`: the solver plays one that can),
        or a game whose card points house rules change beyond what the
        solver counts (``skat_card_points``: :mod:`skatcore.bots.solver_rule`).
    """
    if deal.contract is None or (deal.declarer is None and deal.contract.declarer):
        raise NotSolvable("no game was played")
    if deal.settled or not deal.tricks:
        raise NotSolvable("settled before the first card")
    if len(deal.rules.deck.seats) != 3 or any(p.arrangement != "hand" for p in deal.rules.table.seats):
        raise NotSolvable("cards in a pile or in stacks, or tricks of two: the double-dummy solver plays three hands "
                          "whose cards may all be played")
    rule = trick_rule(deal.rules, deal.contract.name, deal.declarer)
    if isinstance(rule, str):  # the deal's positions would follow other trick winners or points than the solver's
        raise NotSolvable(rule if "card points" in rule else
                          f"{rule}: the double-dummy solver plays a trick-winner rule only from its table")
    goal = Goal(deal.contract, deal.table, deal.declarer, rule, deal.skat)
    table = deal.table
    hands = list(deal.hands)
    for t in deal.tricks:
        for i, c in enumerate(t.cards):
            hands[(t.leader + i) % 3] |= 1 << c
    pos = Position(tuple(hands), deal.tricks[0].leader, ())
    taken = sum(table.points[c] for c in cards_in(deal.skat)) if deal.contract.goal == "card_points" else 0
    value = start = taken + goal.value(pos)
    tricks, changes = [], []
    for n, t in enumerate(deal.tricks, start=1):
        for c in t.cards:
            seat, before, before_taken = pos.to_move, pos, taken
            trick = (*pos.trick, c)
            pos, winner = pos.play(c, table, rule)
            if winner is not None:
                taken += goal.gained(trick, winner, sum(h.bit_count() for h in pos.hands), before.leader)
            after = taken + goal.value(pos) if pos.hands != (0, 0, 0) else taken
            if after != value:
                # a card that kept the value: the others the player could have played, as the solver values them
                kept = [CARD_NAMES[k] for k, v in sorted(goal.after_each(before).items()) if before_taken + v == value]
                changes.append({"trick": n, "seat": SEATS[seat], "card": CARD_NAMES[c], "before": value, "after": after,
                                "gave_away": abs(after - value), "better": kept})
            value = after
        if not t.cards:
            break
        tricks.append({"trick": n, "leader": SEATS[t.leader], "cards": [CARD_NAMES[c] for c in t.cards],
                       "winner": SEATS[t.winner] if t.winner is not None else None, "value": value})
    total = sum(table.points[c] for c in deal.rules.deck.cards)
    target = card_points_to_win(deal, total) if deal.contract.goal == "card_points" else 0
    return {"contract": deal.contract.name, "declarer": SEATS[deal.declarer], "goal": deal.contract.goal,
            "target": target, "total": total, "start": start, "tricks": tricks, "changes": changes, "played": taken,
            "complete": pos.hands == (0, 0, 0)}


def card_points_to_win(deal, total: int) -> int:
    """The fewest card points with which the declarer wins this game, as the
    ruleset scores it: 61, 90 with schneider announced or where only the
    schneider's multiplier reaches the bid (A8: an overbid game with 61 is
    lost), one more than all (``total``: the deck's card points in this
    game) where no card points win it.  All the card points count as every
    trick; fewer, as a trick to each side.  A win condition decided by the
    tricks themselves (music) is left to the tricks."""
    from skatcore.engine.scoring import make_facts, score_game
    from skatcore.errors import InputError

    rules = deal.rules
    matadors = deal.table.matadors(deal.declarer_cards())
    for points in range(total + 1):
        every = points == total
        facts = make_facts(rules, deal.contract, deal.declaration, bid=deal.bid or 0, declarer=deal.declarer,
                           matadors=matadors, declarer_points=points, declarer_tricks=rules.deck.hand if every else 1,
                           defender_tricks=0 if every else 1)
        try:
            if score_game(rules, facts).won:
                return points
        except InputError:  # a condition the card points cannot decide
            return rules.thresholds.win
    return total + 1


def wins(result: dict, value: int) -> bool:
    """Whether the declarer wins with ``value`` (card points, or tricks he must take)."""
    return value >= result["target"] if result["goal"] == "card_points" else value == 0


def coach(result: dict, players: dict[str, str] | None = None) -> dict:
    """Add to an :func:`analyse` result what a player reads first: the
    ``players`` by seat (``None``: the record names nobody), each change's
    ``player``, and the ``summary``: the ``result`` played (the value taken;
    where the record stops early, the value there under best play on) and
    the ``double_dummy`` value at the start, whether each wins, and the
    ``biggest_loss`` (the change that gave away most, the first of equals;
    ``None``: none)."""
    players = players or None
    for ch in result["changes"]:
        ch["player"] = players.get(ch["seat"]) if players else None
    end = result["played"] if result["complete"] else result["tricks"][-1]["value"] if result["tricks"] else result["start"]
    biggest = max(result["changes"], key=lambda ch: ch["gave_away"], default=None)
    result["players"] = players
    result["summary"] = {"result": end, "result_wins": wins(result, end),
                         "double_dummy": result["start"], "double_dummy_wins": wins(result, result["start"]),
                         "biggest_loss": biggest}
    return result


SYMBOL = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}


def card_text(name: str, symbols: bool) -> str:
    """``SA`` as a player reads it, ``♠A`` (``♥10`` for ``HT``), or as it is without symbols."""
    return f"{SYMBOL[name[0]]}{'10' if name[1] == 'T' else name[1]}" if symbols and name[0] in SYMBOL else name


def _who(result: dict, seat: str | None) -> str:
    name = (result.get("players") or {}).get(seat) if seat else None
    return f"{name} ({seat})" if name else str(seat)


def headline(result: dict, symbols: bool = False) -> str:
    """One line for the game: who played what, the result played, the
    double-dummy result and the biggest loss with who gave it."""
    s = result["summary"]

    def counted(v: int, won: bool) -> str:
        what = f"{v}" if result["goal"] == "card_points" else f"{v} trick{'s' if v != 1 else ''} to take"
        return f"{what} ({'wins' if won else 'loses'})"

    played = "played" if result["complete"] else f"played to trick {len(result['tricks'])}:"
    # a record without play (its outcome only): no result was played, only the double-dummy one is known
    done = f"{played} {counted(s['result'], s['result_wins'])}" if result["tricks"] else "no card played"
    line = (f"{result['contract']} by {_who(result, result['declarer'])}: {done}, "
            f"double-dummy {counted(s['double_dummy'], s['double_dummy_wins'])}")
    loss = s["biggest_loss"]
    if loss is None:
        return line + "; no card changed the value"
    return (line + f"; biggest loss {loss['gave_away']}: {_who(result, loss['seat'])} "
            f"{card_text(loss['card'], symbols)} at trick {loss['trick']}")


def describe(result: dict, symbols: bool = False) -> list[str]:
    """The analysis as lines of text: the :func:`headline`, then the value
    at the start and after every trick, each card that changed it with who
    played it and a card that would have kept it."""
    points = result["goal"] == "card_points"
    unit = "card points" if points else "tricks the declarer must take"
    target = "0 wins"
    if points:
        total = result.get("total", 120)
        target = (f"{result['target']}+ wins" if result["target"] < total else
                  f"{total}, every trick, wins" if result["target"] == total else "no card points win it")
    lines = [headline(result, symbols), f"  double-dummy value: {unit} ({target})",
             f"  start     {result['start']:>4}  {'wins' if wins(result, result['start']) else 'loses'}"]
    by_trick: dict[int, list[dict]] = {}
    for ch in result["changes"]:
        by_trick.setdefault(ch["trick"], []).append(ch)
    for t in result["tricks"]:
        cards = " ".join(card_text(c, symbols) for c in t["cards"])
        notes = []
        for ch in by_trick.get(t["trick"], []):
            better = " or ".join(card_text(c, symbols) for c in ch["better"][:3])
            notes.append(f"{_who(result, ch['seat'])} {card_text(ch['card'], symbols)} gave away {ch['gave_away']}"
                         + (f" ({better} kept {ch['before']})" if better else ""))
        won = f"-> {_who(result, t['winner'])}" if t["winner"] else "(unfinished)"
        lines.append(f"  trick {t['trick']:<3} {t['value']:>4}  {cards:<11} {won}" + (f"   {'; '.join(notes)}" if notes else ""))
    if not result["tricks"]:  # the skat's points so far would read as the game's card points
        lines.append("  played    none (the record has no play)")
    else:
        lines.append(f"  played    {result['played']:>4}" + ("" if result["complete"] else " (the record's play ends here)"))
    return lines
