"""The house rules' card points (hook ``skat_card_points``): asked on the
facts of a finished deal, added to the seats' card points before the win,
schneider and schwarz lines are judged, and shown in the explanation.

:func:`adjusted` is idempotent: it starts from the cards' count
(``raw_points``) every time, so facts a deal already adjusted
(:meth:`~skatcore.engine.deal.Deal.facts`) are scored alike, and recording
facts (:mod:`skatcore.engine.probe`) note what the rules read - the tricks
for a rule asked per trick, the exact card points for one that gives the
declarer points (the lines are then judged on them).
"""

from __future__ import annotations

from collections.abc import Mapping

from skatcore.engine.probe import note, replaced, tabled
from skatcore.errors import InputError
from skatcore.model import SEATS, CardPointItem, GameFacts, RamschFacts, Thresholds


def lines(th: Thresholds, points: int) -> tuple[bool, bool, bool]:
    """The declarer's ``points`` against the lines ``th``: ``made_points``,
    ``defenders_schneider``, ``declarer_schneider``."""
    return points >= th.win, points >= th.schneider, points < th.out_of_schneider


def _lines(th: Thresholds, points: int) -> dict[str, bool]:
    return dict(zip(("made_points", "defenders_schneider", "declarer_schneider"), lines(th, points), strict=True))


def adjusted(rules, facts: GameFacts) -> GameFacts:
    """``facts`` with the card points of ``rules``' card-point rules: the
    items, ``declarer_points`` and the lines from the raw points plus the
    declarer's items.  Facts of a null game (no card points) as they are."""
    if not rules.card_points or facts.contract.no_trick or tabled(facts):
        return facts
    raw = facts.raw_points if facts.raw_points is not None else facts.declarer_points
    if facts.card_points or facts.declarer_points != raw:  # already adjusted: start from the cards' count
        facts = replaced(facts, declarer_points=raw, card_points=(), **_lines(facts.thresholds, raw))
    items = _items(rules, facts)
    given = net(items, facts.declarer)
    if given:  # the lines are judged on the exact points now: no table may stand for them
        note(facts, "declarer_points", next(r.trick or r.end for r in rules.card_points
                                            if any(i.name == r.name for i in items)))
    return replaced(facts, declarer_points=raw + given, raw_points=raw, card_points=items,
                    **_lines(facts.thresholds, raw + given))


def net(items, declarer: int) -> int:
    """What ``items`` change of the declarer's card points for the lines:
    what the declarer was given, less what the defenders were (the lines
    divide the deck's points between the two sides)."""
    return sum(i.points if i.seat == declarer else -i.points for i in items)


def adjusted_ramsch(rules, facts: RamschFacts) -> RamschFacts:
    """A deal without declarer with the card points of ``rules``' rules:
    ``points`` adjusted, ``raw_points`` the tricks' count, the items."""
    if not rules.card_points:
        return facts
    from dataclasses import replace

    raw = facts.raw_points if facts.raw_points is not None else facts.points
    base = replace(facts, points=raw, raw_points=raw, card_points=())
    items = _items(rules, base)
    a, b, c = (p + sum(i.points for i in items if i.seat == s) for s, p in enumerate(raw))
    return replace(base, points=(a, b, c), card_points=items)


def _items(rules, facts) -> tuple[CardPointItem, ...]:
    tricks = facts.played if isinstance(facts, RamschFacts) else object.__getattribute__(facts, "tricks")
    out = []
    for rule in rules.card_points:
        per: dict[int, int] = {}
        if rule.trick is not None:
            note(facts, "tricks", rule.trick)  # the core hands it the tricks: read for it
            for t in tricks:
                got = rule.trick(t, facts)
                _add(rules, rule, per, {t.winner: got} if isinstance(got, int) and t.winner is not None else got)
        if rule.end is not None:
            _add(rules, rule, per, rule.end(facts))
        out += [CardPointItem(rule.name, rule.label, seat, n) for seat, n in sorted(per.items()) if n]
    return tuple(out)


def _add(rules, rule, per: dict[int, int], got) -> None:
    if not got:
        return
    if not isinstance(got, Mapping) or not all(type(s) is int and s in (0, 1, 2) and type(n) is int
                                               for s, n in got.items()):
        who = rules.function_owners.get(getattr(rule.trick or rule.end, "__code__", None), f"card-point rule {rule.name!r}")
        raise InputError(f"{who} answered {got!r}: expected card points as an int (to the trick's winner) or "
                         "{seat: points} with seats 0 to 2", source=rules.source)
    for seat, n in got.items():
        per[seat] = per.get(seat, 0) + n


def text(facts: GameFacts) -> str:
    """The card points in the explanation: ``card points 55 + 10 for the
    black jacks = 65``; what a defender was given counts against the
    declarer, named by seat (``70 - 10 for the black jacks (middlehand) =
    60``); empty without items."""
    if not facts.card_points:
        return ""
    raw = facts.raw_points if facts.raw_points is not None else facts.declarer_points
    parts = "".join(_signed(i.points if i.seat == facts.declarer else -i.points, i.label)
                    + ("" if i.seat == facts.declarer else f" ({SEATS[i.seat]})") for i in facts.card_points)
    return f"card points {raw}{parts} = {facts.declarer_points}"


def ramsch_text(facts: RamschFacts) -> str:
    """``card points: forehand 23 + 10 for the black jacks = 33``; empty without items."""
    if not facts.card_points:
        return ""
    raw = facts.raw_points or facts.points
    parts = []
    for seat in sorted({i.seat for i in facts.card_points}):
        given = "".join(_signed(i.points, i.label) for i in facts.card_points if i.seat == seat)
        parts.append(f"{SEATS[seat]} {raw[seat]}{given} = {facts.points[seat]}")
    return "card points: " + ", ".join(parts)


def _signed(points: int, label: str) -> str:
    return f" {'+' if points > 0 else '-'} {abs(points)} {label}".rstrip()


def to_json(facts: GameFacts | RamschFacts) -> dict:
    """What ``skat score --json`` shows of them: the cards' count and each item."""
    items = [{"rule": i.name, "label": i.label, "seat": SEATS[i.seat], "points": i.points} for i in facts.card_points]
    if isinstance(facts, RamschFacts):
        return {"raw": {SEATS[s]: p for s, p in enumerate(facts.raw_points or facts.points)}, "items": items}
    return {"raw": facts.raw_points if facts.raw_points is not None else facts.declarer_points, "items": items}
