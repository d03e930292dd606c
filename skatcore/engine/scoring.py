"""Score a finished declarer game from its facts with the compiled rules."""

from __future__ import annotations

from skatcore.engine import card_points
from skatcore.engine.probe import unwatch, watch
from skatcore.errors import InputError
from skatcore.model import SEATS, Contract, Declaration, GameFacts, RamschFacts, ScoreResult, null_label

_FOREHAND, _MIDDLEHAND, _REARHAND = SEATS  # the sheet's seat names, in order
_new, _set = object.__new__, object.__setattr__


def make_facts(rules, contract: Contract, declaration: Declaration, *, bid: int, declarer: int, matadors: int,
               declarer_points: int, declarer_tricks: int | None, defender_tricks: int | None,
               last_trick: tuple[int, ...] = (), last_trick_winner: int | None = None, tricks: tuple = (),
               skat: tuple[int, ...] = ()) -> GameFacts:
    """Build :class:`GameFacts`, deriving schneider and schwarz from the
    ruleset's thresholds (schwarz is by tricks, not points).  The card
    points are the cards' count: scoring adds the house rules' card points
    (:func:`skatcore.engine.card_points.adjusted`)."""
    th = rules.thresholds
    made, schneider, schneidered = card_points.lines(th, declarer_points)
    facts = _new(GameFacts)  # GameFacts(...) with every field, at once: its frozen __init__ sets them one by one
    _set(facts, "__dict__", {
        "contract": contract,
        "declaration": declaration,
        "bid": bid,
        "declarer": declarer,
        "matadors": matadors,
        "declarer_points": declarer_points,
        "declarer_tricks": declarer_tricks if declarer_tricks is not None else -1,
        "defender_tricks": defender_tricks if defender_tricks is not None else -1,
        "made_points": made,
        "defenders_schneider": schneider,
        "declarer_schneider": schneidered,
        "defenders_schwarz": defender_tricks == 0,
        "declarer_schwarz": declarer_tricks == 0,
        "last_trick": last_trick,
        "last_trick_winner": last_trick_winner,
        "tricks": tricks,
        "seats": 3,
        "raw_points": declarer_points,
        "card_points": (),
        "thresholds": th,
        "skat": skat,
    })
    return facts


def fold_multiplier(items, facts: GameFacts) -> tuple[int, list[tuple[str, int]], list[str]]:
    """The multiplier of ``facts``: every :class:`~skatcore.model.MultiplierItem`
    in order adds its count (or multiplies by it, ``factor``).  Also returns
    the items that counted as ``(label, count)`` and the explanation's parts
    ("with 2", "game 3").  The bid ladder, scoring and the bots all fold here."""
    multiplier, counted, parts = 0, [], []
    for item in items:
        n = item.count(facts)
        if not n:
            continue
        label = item.label
        if callable(label):
            label = label(facts)
        if item.factor:
            multiplier *= n
            parts.append(f"{label} -> {multiplier}")
        else:
            multiplier += n
            parts.append(f"{label} {multiplier}")
        counted.append((label, n))
    return multiplier, counted, parts


def _valued(rules, facts: GameFacts) -> tuple[int, int | None, list[tuple[str, int]], str, int]:
    """The game value of ``facts``, its multiplier (``None``: a fixed value,
    null), the items that counted, how it was counted and the base value (0: null)."""
    c, d = facts.contract, facts.declaration
    if c.no_trick:
        value = c.fixed[(d.hand, d.ouvert)]
        return value, None, [], f"{null_label(d.hand, d.ouvert)} {value}", 0
    multiplier, items, parts = fold_multiplier(rules.multiplier_items, facts)
    base = rules.base_value(d)
    value = base * multiplier
    return value, multiplier, items, f"{', '.join(parts)}; {multiplier} x {c.label} {base} = {value}", base


def game_value(rules, declaration: Declaration, matadors: int) -> tuple[int, str]:
    """What ``declaration`` is worth won simply (the card points to win,
    nothing more) with ``matadors``, and how it is counted
    (``"with 2, game 3, hand 4; 4 x clubs 12 = 48"``): what a player
    declaring it may expect, to compare with the bid."""
    contract = rules.contracts[declaration.game]
    facts = make_facts(rules, contract, declaration, bid=0, declarer=0, matadors=matadors,
                       declarer_points=rules.thresholds.win, declarer_tricks=None, defender_tricks=None)
    value, _, _, head, _ = _valued(rules, facts)
    return value, head


def score_game(rules, facts: GameFacts) -> ScoreResult:
    if rules.card_points:  # the house rules' card points, before anything is judged (from the raw count)
        facts = card_points.adjusted(rules, facts)
    c, d = facts.contract, facts.declaration
    value, multiplier, items, head, base = _valued(rules, facts)
    if facts.card_points:
        head = f"{card_points.text(facts)}; {head}"
    no_trick = multiplier is None  # _valued's null
    if no_trick:
        won = facts.declarer_tricks == 0
        overbid = False
        failed = "" if won else "declarer took a trick"
        lost_value = value
    else:
        failed = ""
        for w in rules.win_conditions:  # the first that fails says why
            if not w.check(facts):
                failed = w.reason.format(facts=facts)
                break
        overbid = value < facts.bid
        won = not failed and not overbid
        lost_value = -(-facts.bid // base) * base if overbid else value

    factor = rules.lost_factor_of(d)
    score = value if won else -factor * lost_value
    if won:
        tail = f": won +{value}"
    elif overbid:
        tail = f" < bid {facts.bid}: overbid, lost {factor} x {lost_value} = {score}"
    else:
        tail = f": {failed}, lost {factor} x {lost_value} = {score}" if factor != 1 else f": {failed}, lost {score}"
    # by position (ruleset, game, declarer, bid, hand, won, overbid, matadors, multiplier, value, score, scores,
    # declarer_points, explanation, items): fifteen keywords cost the dataclass about a microsecond more per deal
    result = ScoreResult(rules.name, c.name, facts.declarer, facts.bid, d.hand, won, overbid,
                         facts.matadors if c.valued_by_multiplier else None, multiplier, value, score, {},
                         facts.declarer_points if not no_trick else None, head + tail, items)
    if rules.card_points and not no_trick:
        result.extra["card_points"] = card_points.to_json(facts)
    if rules.custom_sheet:
        _enter(rules, result, facts, {facts.declarer: score})
        result.score = result.scores[SEATS[facts.declarer]]
    else:  # what _enter makes of the declarer's entry alone
        result.scores = {_FOREHAND: 0, _MIDDLEHAND: 0, _REARHAND: 0}
        result.scores[SEATS[facts.declarer]] = score
    return result


def _enter(rules, result: ScoreResult, facts, entries: dict[int, int]) -> None:
    if rules.custom_sheet:
        watched = watch(result, facts)  # a compiled engine's table asks what the hook reads (skatcore.engine.probe)
        entries = rules.call_hook("skat_sheet_entries", result=result, facts=facts, entries=entries)
        if watched:
            unwatch(result)
    result.scores = {_FOREHAND: entries.get(0, 0), _MIDDLEHAND: entries.get(1, 0), _REARHAND: entries.get(2, 0)}


def score_without_declarer(rules, facts: RamschFacts) -> ScoreResult:
    """Score a deal without declarer (all against all) through ``skat_ramsch_scores``."""
    if rules.card_points:  # each seat's points with the house rules' card points, before the plugin reads them
        facts = card_points.adjusted_ramsch(rules, facts)
    answer = rules.call_hook("skat_ramsch_scores", facts=facts)
    if answer is None:
        raise InputError(f"no plugin scores contract {facts.contract.name!r}")
    entries, explanation = answer
    if facts.card_points:
        explanation = f"{card_points.ramsch_text(facts)}; {explanation}"
    result = ScoreResult(
        ruleset=rules.name, game=facts.contract.name, declarer=None, bid=None, hand=False, won=None,
        overbid=False, matadors=None, multiplier=None, value=0, score=0, scores={}, declarer_points=None,
        explanation=explanation,
    )
    result.extra["points"] = {SEATS[i]: p for i, p in enumerate(facts.points)}
    result.extra["tricks"] = {SEATS[i]: t for i, t in enumerate(facts.tricks)}
    if rules.card_points:
        result.extra["card_points"] = card_points.to_json(facts)
    _enter(rules, result, facts, entries)
    return result


def passed_result(rules) -> ScoreResult:
    """A thrown-in deal: nothing on the sheet."""
    return ScoreResult(
        ruleset=rules.name, game="passed", declarer=None, bid=None, hand=False, won=None, overbid=False,
        matadors=None, multiplier=None, value=0, score=0, scores={s: 0 for s in SEATS}, declarer_points=None,
        explanation="all passed: thrown in, no score",
    )

