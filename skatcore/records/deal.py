"""Deal records (``format: skat-deal/1``, docs/formats.md#deal-record): read, validate, score.

A record with ``hands`` is replayed through :class:`~skatcore.engine.deal.Deal`, so
the state machine judges every bid, discard and card; a summary record (no
``hands``/``play``) is scored from its ``outcome``.  A plugin's flow step
replays its own part of a record (:meth:`~skatcore.engine.steps.Step.replay`)
with the helpers :func:`cards_at`, :func:`apply_at` and :func:`declaration_in`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from skatcore.cards import CARD_IDS, CARD_NAMES, cards_in, parse_card
from skatcore.engine.deal import HOLD, PASS, PICK_UP, PLAY_HAND, PLAYS, Bid, Deal, Declare, Discard, Phase, deal_cards
from skatcore.engine.scoring import make_facts
from skatcore.engine.table import people, seating
from skatcore.errors import InputError, shown
from skatcore.model import SEATS, Declaration, RamschFacts, ScoreResult
from skatcore.records.holds import Ending, Holds, NotHeld, check_held, played_holds
from skatcore.rules.ruleset import load_schema, read_document, validate

FORMAT = "skat-deal/1"
_CALLS = {"yes": HOLD, "y": HOLD, True: HOLD, "pass": PASS, "p": PASS}  # YAML 1.1 reads a bare yes as true


def read_record(path: str | Path) -> dict:
    """Read a deal record (YAML or JSON) and validate its structure."""
    doc = read_document(path)
    check_record(doc, str(path))
    return doc


def as_deal_record(doc: Any, source: str) -> dict:
    """A deal record inside another document (a session's deal, a vector
    case, the testing kit's mapping, ``skat sheet add``), where ``format``
    may be left out: a validated copy with ``format`` set (scoring never
    alters the original)."""
    if isinstance(doc, Mapping):
        doc = _plain(doc)
        doc.setdefault("format", FORMAT)
    check_record(doc, source)
    return doc


def _plain(value):
    """A deep copy with every mapping a dict and every list a list."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def check_record(doc: Any, source: str) -> None:
    if not isinstance(doc, dict):
        raise InputError("expected a mapping (a skat-deal/1 record)", source=source)
    doc.setdefault("format", FORMAT)  # may be left out, as in vector files and a session's deals
    if doc.get("format") != FORMAT:
        found = f"got {shown(doc['format'])}" if "format" in doc else "missing"
        raise InputError(f"expected {FORMAT!r}, {found}", source=source, path="format")
    game = doc.get("game")
    if isinstance(game, dict) and "type" in game and game["type"] is None:
        game["type"] = "null"  # YAML reads `type: null` (the null game) as a missing value
    validate(doc, load_schema("deal.schema.json"), source)


def cards_at(values, path: str) -> list[int]:
    """The card ids of a record's card list, an error naming ``path[i]``."""
    try:
        return [CARD_IDS[v] for v in values]  # every card in the canonical spelling: no parsing
    except (KeyError, TypeError):
        pass
    out = []
    for i, v in enumerate(values):
        try:
            out.append(parse_card(v))
        except InputError as exc:
            raise exc.at(f"{path}[{i}]") from None
    return out


def apply_at(deal: Deal, action, path: str) -> None:
    """``deal.apply(action)``, an error naming the record's ``path``."""
    try:
        deal.apply(action)
    except InputError as exc:
        raise (exc if exc.path else exc.at(path)) from None


def score_record(doc: dict, rules, source: str = "<record>") -> ScoreResult:
    """Score a validated record under compiled ``rules``."""
    try:
        result = _score(doc, rules)
    except InputError as exc:
        raise exc.at(source=source) from None
    if doc.get("players"):
        names = doc["players"]
        try:
            seats = seating(len(names), doc.get("dealer", 0), people(rules))
        except InputError as exc:  # (a dealer past the players: the error names the file and the key)
            raise exc.at("dealer", source=source) from None
        result.extra["players"] = {s: names[i] for s, i in seats.items()}
    return result


def replay_record(doc: dict, rules, source: str = "<record>") -> Deal:
    """The Deal of a validated record with ``hands``, replayed as far as the
    record goes (to the end of play, or the concession or outcome it gives)."""
    if "hands" not in doc:
        raise InputError("the record gives no hands: nothing to replay", source=source, path="hands")
    try:
        deal = _bidding(doc, rules)
        _play(doc, rules, deal)
    except InputError as exc:
        raise exc.at(source=source) from None
    return deal


def _score(doc: dict, rules) -> ScoreResult:
    _check_card_fields(doc, rules)
    players = doc.get("players") or []
    if len(set(players)) != len(players):
        raise InputError(f"expected different names, got {shown(players)}", path="players")
    return _play(doc, rules, _bidding(doc, rules))


def _check_card_fields(doc: dict, rules) -> None:
    """Every card a record names is a card of the ruleset's deck (a summary's
    skat is read too, not only what the replay touches)."""
    game = doc.get("game") or {}
    fields = [("skat", doc.get("skat")), ("game.discard", game.get("discard")), ("play", doc.get("play")),
              *(field for step in rules.steps for field in step.card_fields(doc))]
    for n, (path, values) in enumerate(fields):
        first: dict[int, int] = {}
        for i, card in enumerate(cards_at(values or [], path)):
            if not rules.deck.mask >> card & 1:
                raise InputError(f"{CARD_NAMES[card]} is not a card of ruleset {rules.name!r}'s deck", path=f"{path}[{i}]")
            if n < 2 and card in first:  # the skat and the discard: each card once (a replay checks the play; a step's fields may repeat)
                raise InputError(f"{CARD_NAMES[card]} is named twice (first at {path}[{first[card]}])", path=f"{path}[{i}]")
            first.setdefault(card, i)
    if doc.get("play") and "hands" not in doc:  # a summary is scored from its outcome: the cards would be dropped unread
        raise InputError("the cards played need the hands they were played from: give `hands` and `skat`, or leave "
                         "`play` out and give the `outcome`", path="play")


def points_possible(rules, contract, cards: int) -> tuple[int, int]:
    """The fewest and most card points ``cards`` cards of the ruleset's deck can hold."""
    worth = sorted(rules.tricks[contract.name].points[c] for c in rules.deck.cards)
    cards = max(0, min(cards, len(worth)))
    return sum(worth[:cards]), sum(worth[len(worth) - cards:])


def _play(doc: dict, rules, deal: Deal) -> ScoreResult:
    """Everything after the bidding: skat, declaration, play; the score."""
    if deal.thrown_in:
        if "game" in doc:  # a game in a thrown-in deal is a mistake (a Ramsch record under official), not noise
            raise InputError(f"all passed: ruleset {rules.name!r} throws the deal in, no game is played", path="game")
        return deal.result()
    if "game" not in doc:
        if deal.declarer is None:  # all passed and the ruleset plays on (a Ramsch)
            label = rules.contract(rules.all_pass).label
            raise InputError(f"all passed: ruleset {rules.name!r} plays a {label} then: give its `game` and `outcome`",
                             path="game")
        raise InputError("a declared game needs `game`", path="game")
    game = doc["game"]
    try:
        contract = rules.contract(game["type"])
    except InputError as exc:
        raise exc.at("game.type") from None
    if deal.step is not None and deal.step.at == "start":  # a step instead of the bidding
        return _through_start_step(doc, rules, deal, contract)
    # the game must be the one the bidding leads to: all passed (or no bidding)
    # plays the all-pass contract, a declarer's game is never one without declarer
    if deal.declarer is None and deal.phase is Phase.PLAY and contract.name != deal.contract.name:
        raise InputError(f"all passed: the deal is a {deal.contract.label}, not {contract.name}", path="game.type")
    if deal.declarer is not None and not contract.declarer:
        raise InputError(f"{SEATS[deal.declarer]} won the bidding: a {contract.label} is played only when all pass",
                         path="game.type")
    if not contract.declarer:  # nobody declares it: a declarer or bid given is a mistake
        for key in ("declarer", "bid"):
            if key in doc:
                raise InputError(f"a {contract.label} has no {key}", path=key)
    if deal.step is not None:  # a step after all passed
        deal.step.replay(deal, doc)
    if not contract.declarer:
        return _score_without_declarer(doc, rules, deal, contract)
    declaration = declaration_in(game, rules, contract)
    if declaration.hand and "discard" in game:
        raise InputError("a hand game leaves the skat untouched: there is no discard", path="game.discard")
    hands = doc.get("hands")
    step = next((s for s in rules.steps_at["skat"] if s.claims(doc)), None) if deal.phase is Phase.SKAT else None
    if hands is None:
        if step is not None:  # the step checks its own declaration
            return _score_summary(doc, rules, deal.declarer, deal.bid, contract, step.replay(deal, doc), checked=True)
        return _score_summary(doc, rules, deal.declarer, deal.bid, contract, declaration)
    if deal.phase is not Phase.SKAT:  # declared in a step (e.g. a grand hand instead of passing the skat on)
        return _replay_play(doc, rules, deal, contract)
    if step is not None:
        step.replay(deal, doc)
        return _replay_play(doc, rules, deal, contract)

    if not declaration.hand:
        deal.apply(PICK_UP)
        if "discard" not in game:
            raise InputError(f"the skat was picked up: give the {rules.deck.skat} discarded cards", path="game.discard")
        apply_at(deal, Discard(tuple(cards_at(game["discard"], "game.discard"))), "game.discard")
    else:  # (a hand game's discard is refused above, A5: the skat stays untouched)
        deal.apply(PLAY_HAND)
    try:
        deal.apply(Declare(declaration))
    except InputError as exc:
        raise exc.at("game") from None
    return _replay_play(doc, rules, deal, contract)


def _replay_play(doc: dict, rules, deal: Deal, contract) -> ScoreResult:
    if deal.step is not None and deal.step.at == "first_card":  # a step before the first card replays itself
        deal.step.replay(deal, doc)
    cards = cards_at(doc.get("play", []), "play")
    for i, c in enumerate(cards):
        if deal.done:
            raise InputError(f"the deal is already over after {i} cards", path=f"play[{i}]")
        _replay_between(doc, deal, i)
        try:
            deal.apply(PLAYS[c])
        except InputError as exc:
            raise exc.at(f"play[{i}]") from None
    if deal.decided and "outcome" not in doc:  # a record may stop where the game was decided (A8)
        deal.end_decided()
        if deal.declarer is not None:  # its last trick is not in the record
            try:
                check_held(rules, deal.facts(), played_holds(deal, Ending.DECIDED), ": give every card in play")
            except NotHeld as exc:
                raise exc.at("play") from None
    if deal.done:
        return deal.result()
    if "outcome" not in doc and not (not cards and _settled(doc, rules, contract, deal.declaration, deal.bid)):
        where = "play" if cards else "outcome"
        raise InputError(f"the deal is not finished after {len(cards)} cards: give every card in play, or an outcome", path=where)
    if deal.declarer is None:  # seats a step took out of play keep their cards: they are in no trick
        idle = [c for s in rules.deck.seats if s not in deal.in_play
                for c in (*cards_in(deal.hands[s]), *deal.piles.get(s, ()))]
        return _score_without_declarer(doc, rules, None, contract, deal.marks, deal.in_play, idle)
    matadors = deal.table.matadors(deal.declarer_cards())
    given = (doc.get("outcome") or {}).get("matadors")
    if given and contract.valued_by_multiplier and (given.get("with") or -given.get("without", 0)) != matadors:
        said = "with" if "with" in given else "without"
        raise InputError(f"{said} {given[said]} contradicts the cards, which give {'with' if matadors > 0 else 'without'} "
                         f"{abs(matadors)} (leave it out: the hands decide)", path="outcome.matadors")
    return _score_outcome(doc, rules, deal.declarer, deal.bid, contract, deal.declaration, matadors)


def _replay_between(doc: dict, deal: Deal, i: int) -> None:
    """Steps between tricks (``"trick"``, ``"last_trick"``) replay their part
    of the record when the cards reach them, before card ``i``."""
    while deal.step is not None and not deal.done:
        step = deal.step
        step.replay(deal, doc)
        if deal.step is step:
            raise InputError(f"step {step.name!r} after trick {len(deal.tricks)}: the record does not say how it goes",
                             path=f"play[{i}]")


def _score_without_declarer(doc: dict, rules, deal: Deal | None, contract, marks=None,
                            in_play: tuple[int, ...] | None = None, idle: list[int] = ()) -> ScoreResult:
    """A deal without declarer: replayed when hands and play are given, else
    from outcome.points/tricks (``marks``: what the deal's steps recorded;
    ``in_play``: the seats that play to the tricks, ``idle`` the cards of
    seats out of play, which no trick holds)."""
    if deal is not None and "hands" in doc:
        return _replay_play(doc, rules, deal, contract)
    if deal is not None:
        marks = deal.marks
    outcome = doc.get("outcome") or {}
    if rules.card_points:  # a summary cannot say what the house rules' card points were, and a guess is a wrong score
        raise NotHeld(f"{Holds(Ending.SUMMARY)}: ruleset {rules.name!r} counts card points by house rules "
                      f"({', '.join(r.name for r in rules.card_points)}) from the play, which the record does not "
                      "hold: give the deal's hands and `play`, not only its outcome",
                      f"{Ending.SUMMARY.value}: card points by house rules", Holds(Ending.SUMMARY)).at("outcome")
    for key in ("points", "tricks", "last_trick"):
        if key not in outcome or (key != "last_trick" and len(outcome[key]) != 3):
            each = "" if key == "last_trick" else " for every seat"
            raise InputError(f"a {contract.label} needs outcome.{key}{each}", path=f"outcome.{key}")
    points = tuple(outcome["points"][s] for s in SEATS)
    tricks = tuple(outcome["tricks"][s] for s in SEATS)
    in_play = rules.deck.seats if in_play is None else in_play
    for i, (seat, t) in enumerate(zip(SEATS, tricks, strict=True)):
        if t < 0:
            raise InputError(f"expected a number of tricks >= 0, got {t}", path=f"outcome.tricks.{seat}")
        if i not in in_play and (t or points[i]):
            raise InputError(f"{seat} did not play to the tricks: expected 0 tricks and 0 card points",
                             path=f"outcome.tricks.{seat}" if t else f"outcome.points.{seat}")
    if sum(tricks) != rules.deck.hand:
        raise InputError(f"tricks add up to {sum(tricks)}, expected {rules.deck.hand}", path="outcome.tricks")
    if outcome["tricks"][outcome["last_trick"]] == 0:
        raise InputError(f"{outcome['last_trick']} took no trick, so not the last one", path="outcome.last_trick")
    skat = tuple(cards_at(doc["skat"], "skat")) if "skat" in doc else ()
    # the cards' total is the contract's (tens worth 1 in some Ramsch: 84), not always 120;
    # skat cards given must match the points missing from the tricks
    worth = rules.tricks[contract.name].points
    values = sorted(worth[c] for c in rules.deck.cards)
    total, skat_max = sum(values) - sum(worth[c] for c in idle), sum(values[len(values) - rules.deck.skat:])
    skat_points = total - sum(points)  # outcome points may or may not include the skat already
    if skat:
        in_skat = sum(worth[c] for c in skat)
        if skat_points not in (0, in_skat):
            raise InputError(f"points add up to {sum(points)}, expected {total - in_skat} (without the skat's "
                             f"{in_skat}) or {total}", path="outcome.points")
    elif not 0 <= skat_points <= skat_max:
        raise InputError(f"points add up to {sum(points)}, expected {total - skat_max} to {total}",
                         path="outcome.points")
    _check_seat_points(rules, contract, points, tricks, skat_max, len(in_play))
    facts = RamschFacts(contract, points, tricks, skat, skat_points, SEATS.index(outcome["last_trick"]), dict(marks or {}),
                        seats=tuple(in_play))
    return rules.score(facts)


def _check_seat_points(rules, contract, points, tricks, skat_max: int, per_trick: int) -> None:
    """Each seat's card points must fit its tricks: ``per_trick`` cards a trick,
    at least the lowest and at most the highest cards of the deck (plus the
    skat for a seat that took a trick and may have been given it)."""
    for seat, p, t in zip(SEATS, points, tricks, strict=True):
        low, high = points_possible(rules, contract, t * per_trick)
        high = high + skat_max if t else 0
        if not low <= p <= high:
            took, fits = f"{t} trick{'s' * (t != 1)}", f"{low}" if low == high else f"{low} to {high}"
            raise InputError(f"{p} card points do not fit {took} (expected {fits})", path=f"outcome.points.{seat}")


def _bidding(doc: dict, rules) -> Deal:
    """Replay the bidding (or take declarer + bid) in a Deal; with no hands
    the cards of a fixed dummy deal stand in, since bidding never looks at them."""
    deck = rules.deck  # the schema admits any hand size; the ruleset's deck decides
    sizes = {s: deck.hand if i in deck.seats else 0 for i, s in enumerate(SEATS)}
    for where, cards, size in [*((f"hands.{s}", (doc.get("hands") or {}).get(s), sizes[s]) for s in SEATS),
                               ("skat", doc.get("skat"), deck.skat), ("aside", doc.get("aside"), deck.aside)]:
        if cards is not None and len(cards) != size:
            raise InputError(f"expected exactly {size} items, got {len(cards)}", path=where)
    if "hands" in doc:
        for s in SEATS:
            if sizes[s] and s not in doc["hands"]:
                raise InputError(f"give the {sizes[s]} cards of {s}", path=f"hands.{s}")
        hands = [cards_at(doc["hands"].get(s, []), f"hands.{s}") for s in SEATS]
        for key, size in (("skat", deck.skat), ("aside", deck.aside)):
            if size and key not in doc:
                raise InputError(f"hands are given: give the {key} too", path=key)
        skat, aside = cards_at(doc.get("skat", []), "skat"), cards_at(doc.get("aside", []), "aside")
        try:
            deal = Deal(rules, hands, skat, aside)  # Deal's card check names the place: hands.forehand[9]
        except InputError as exc:
            raise (exc if exc.path else exc.at("hands")) from None
    else:
        deal = Deal(rules, *deal_cards(0, deck))
    if deal.phase is not Phase.BIDDING:  # this ruleset has no bidding (every deal a Ramsch, or a step instead)
        if "bidding" in doc:
            raise InputError(f"ruleset {rules.name!r} has no bidding", path="bidding")
        if deal.step is not None and "bid" in doc:
            raise InputError(f"ruleset {rules.name!r} has no bidding: no bid", path="bid")
        return deal
    game = doc.get("game") or {}
    contract = rules.contracts.get(game.get("type"))
    if "type" in game and contract is None:  # an unknown game first: it explains the rest (a Ramsch record under official)
        try:
            rules.contract(game["type"])
        except InputError as exc:
            raise exc.at("game.type") from None
    if "bidding" not in doc and ((contract and not contract.declarer) or any(s.claims(doc) for s in rules.steps_at["all_passed"])):
        while deal.phase is Phase.BIDDING:  # a Ramsch record (or a step's after all passed) may leave out the three passes
            deal.apply(PASS)
    elif "bidding" in doc:
        for i, call in enumerate(doc["bidding"]):
            if deal.phase is not Phase.BIDDING:
                raise InputError("the bidding is already over", path=f"bidding[{i}]")
            try:
                deal.apply(_CALLS[call] if isinstance(call, (str, bool)) else Bid(call))
            except InputError as exc:
                raise exc.at(f"bidding[{i}]") from None
        if deal.phase is Phase.BIDDING:
            raise InputError(f"the bidding is unfinished ({SEATS[deal.to_move]} to speak)", path="bidding")
        for key, expected in (("declarer", SEATS[deal.declarer] if deal.declarer is not None else None), ("bid", deal.bid)):
            if key == "declarer" and deal.step is not None:
                continue  # all passed into a step: who declares there (a grand hand instead of pushing) comes from it
            if key in doc and doc[key] != expected:
                gives = "all passed, nobody declares" if expected is None else f"which gives {expected!r}"
                raise InputError(f"{shown(doc[key])} contradicts the bidding: {gives}", path=key)
    if deal.phase is not Phase.BIDDING:
        return deal
    for key in ("declarer", "bid"):
        if key not in doc:
            raise InputError(f"give `{key}` (or the `bidding`)", path=key)
    try:
        deal.set_declarer(SEATS.index(doc["declarer"]), doc["bid"])
    except InputError as exc:
        raise exc.at("bid") from None
    return deal


def _through_start_step(doc: dict, rules, deal: Deal, contract) -> ScoreResult:
    """A step instead of the bidding (e.g. a soloist's choice) replays the
    declaration; then the play, or the summary's outcome."""
    checked = deal.step.replay(deal, doc)
    if checked is None:
        return _replay_play(doc, rules, deal, contract)
    if not contract.declarer:
        return _score_without_declarer(doc, rules, None, contract)
    return _score_summary(doc, rules, deal.declarer, deal.bid, contract, checked, checked=True)


def declaration_in(game: dict, rules, contract) -> Declaration:
    """The declaration a record's ``game`` gives (not yet checked)."""
    announced = frozenset(a for a in ("schneider", "schwarz", "ouvert") if game.get(a))
    hand = game.get("hand", False)
    # ouvert implies a hand game where a skat game may not be open; not when a discard or a step's
    # declaration (Tournée) shows the skat was used.  Schneider or schwarz alone imply nothing: where
    # only hand games may announce them (A5), a record that leaves out `hand` is refused.
    stepped = any(k in rules.step_keys for k in game.get("declarations", {}))
    if ("hand" not in game and "discard" not in game and "ouvert" in announced and not stepped
            and isinstance(rules.announcements.get((contract.name, False, announced)), str)):
        hand = True
    # a null played only without the skat (Tournée) needs no hand flag
    ouvert = "ouvert" in announced
    if "hand" not in game and contract.no_trick and (False, ouvert) not in contract.fixed and (True, ouvert) in contract.fixed:
        hand = True
    return Declaration(contract.name, hand, "schneider" in announced, "schwarz" in announced, "ouvert" in announced,
                       game.get("declarations", {}))


def _score_summary(doc, rules, declarer, bid, contract, declaration, checked: bool = False) -> ScoreResult:
    if not checked:
        try:
            declaration = rules.check_declaration(declaration, bid)
        except InputError as exc:
            raise exc.at("game") from None
    mats = doc.get("outcome", {}).get("matadors")
    matadors = 0
    if contract.valued_by_multiplier:
        if not mats:
            raise InputError("give outcome.matadors (or the hands and skat)", path="outcome.matadors")
        matadors = mats["with"] if "with" in mats else -mats["without"]
        top = len(rules.tricks[contract.name].trumps)
        if abs(matadors) > top:
            raise InputError(f"{contract.name} has only {top} matadors", path="outcome.matadors")
    return _score_outcome(doc, rules, declarer, bid, contract, declaration, matadors)


def _settled(doc, rules, contract, declaration, bid) -> dict | None:
    """The outcome of a declarer game settled before its first card (hook
    ``skat_settled_outcome``, e.g. Schenken accepted); ``None`` if it was played."""
    if declaration is None or doc.get("play"):
        return None
    return rules.call_hook("skat_settled_outcome", contract=contract, declaration=declaration, bid=bid)


def _score_outcome(doc, rules, declarer, bid, contract, declaration, matadors) -> ScoreResult:
    outcome = doc.get("outcome")
    settled = _settled(doc, rules, contract, declaration, bid)
    if settled is not None:  # settled before the first card: scored with the plugin's outcome
        outcome = {**(outcome or {}), **settled}
    outcome = outcome or {}
    tricks = outcome.get("declarer_tricks")
    if contract.no_trick:
        if tricks is None:
            raise InputError("a null game needs outcome.declarer_tricks (or the `play`)", path="outcome.declarer_tricks")
        points = outcome.get("declarer_points", 0)
    else:
        if "declarer_points" not in outcome:
            raise InputError("give outcome.declarer_points (or the `play`)", path="outcome.declarer_points")
        points = outcome["declarer_points"]
        if tricks is not None and tricks <= rules.deck.hand:
            # the declarer's points lie in their tricks and the skat: as many cards, of this deck
            lo, hi = points_possible(rules, contract, tricks * len(rules.deck.seats) + rules.deck.skat)
            if not lo <= points <= hi:
                raise InputError(f"{points} card points do not fit {tricks} trick{'' if tricks == 1 else 's'} and the skat "
                                 f"(expected {lo} to {hi})", path="outcome.declarer_points")
    if tricks is not None and tricks > rules.deck.hand:
        raise InputError(f"expected at most {rules.deck.hand} tricks, got {tricks}", path="outcome.declarer_tricks")
    facts = make_facts(rules, contract, declaration, bid=bid, declarer=declarer, matadors=matadors,
                       declarer_points=points, declarer_tricks=tricks,
                       defender_tricks=None if tricks is None else rules.deck.hand - tricks)
    # a house rule about the tricks: a summary cannot say, and a guess would be a silent wrong score
    try:
        return check_held(rules, facts, Holds(Ending.SUMMARY), ": give the deal's hands and `play`, not only its outcome")
    except NotHeld as exc:
        raise exc.at("outcome") from None
