"""Deal records (``format: skat-deal/1``, docs/formats.md#deal-record): read, validate, score.

A record with ``hands`` is replayed through :class:`~skatcore.engine.deal.Deal`, so
the state machine judges every bid, discard and card; a summary record (no
``hands``/``play``) is scored from its ``outcome``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from skatcore.cards import CARD_NAMES, parse_card
from skatcore.engine.deal import HOLD, PASS, PICK_UP, PLAY_HAND, PLAYS, PUSH_BLIND, TURN_UP, Bid, Deal, Declare, Discard, Phase, TurnChoice, deal_cards
from skatcore.errors import InputError
from skatcore.model import SEATS, Declaration, RamschFacts, ScoreResult
from skatcore.rules.ruleset import load_schema, read_document, validate
from skatcore.engine.scoring import make_facts
from skatcore.engine.table import seating

FORMAT = "skat-deal/1"
_CALLS = {"yes": HOLD, "y": HOLD, True: HOLD, "pass": PASS, "p": PASS}  # YAML 1.1 reads a bare yes as true


def read_record(path: str | Path) -> dict:
    """Read a deal record (YAML or JSON) and validate its structure."""
    doc = read_document(path)
    check_record(doc, str(path))
    return doc


def check_record(doc: Any, source: str) -> None:
    if not isinstance(doc, dict):
        raise InputError("expected a mapping (a skat-deal/1 record)", source=source)
    if doc.get("format") != FORMAT:  # fix: say what was found ("format: expected format: ..." before)
        found = f"got {doc['format']!r}" if "format" in doc else "missing"
        raise InputError(f"expected {FORMAT!r}, {found}", source=source, path="format")
    game = doc.get("game")
    if isinstance(game, dict) and "type" in game and game["type"] is None:
        game["type"] = "null"  # YAML reads `type: null` (the null game) as a missing value
    validate(doc, load_schema("deal.schema.json"), source)


def _cards(values, path: str) -> list[int]:
    out = []
    for i, v in enumerate(values):
        try:
            out.append(parse_card(v))
        except InputError as exc:
            raise exc.at(f"{path}[{i}]") from None
    return out


def score_record(doc: dict, rules, source: str = "<record>") -> ScoreResult:
    """Score a validated record under compiled ``rules``."""
    try:
        result = _score(doc, rules)
    except InputError as exc:
        raise exc.at(source=source) from None
    if doc.get("players"):
        names = doc["players"]
        result.extra["players"] = {s: names[i] for s, i in seating(len(names), doc.get("dealer", 0)).items()}
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
    return _play(doc, rules, _bidding(doc, rules))


def _play(doc: dict, rules, deal: Deal) -> ScoreResult:
    """Everything after the bidding: skat, declaration, play; the score."""
    if deal.thrown_in:
        if "game" in doc:  # fix: the game of a thrown-in deal was silently ignored (a ramsch record under official)
            raise InputError(f"all passed: ruleset {rules.name!r} throws the deal in, no game is played", path="game")
        return deal.result()
    if "game" not in doc:
        raise InputError("a declared game needs `game`", path="game")
    game = doc["game"]
    try:
        contract = rules.contract(game["type"])
    except InputError as exc:
        raise exc.at("game.type") from None
    if deal.route == "soloist" and deal.phase is Phase.DECLARE:  # no bidding: the soloist declares first
        return _score_soloist(doc, rules, deal, contract)
    # fix: a record's game must be the one the bidding leads to: all passed (or no
    # bidding) plays the all-pass contract (was a TypeError for a declarer game:
    # exit 1), a declarer's game is never a Ramsch (was scored as one)
    if deal.declarer is None and deal.phase is Phase.PLAY and contract.name != deal.contract.name:
        raise InputError(f"all passed: the deal is a {deal.contract.label}, not {contract.name}", path="game.type")
    if deal.declarer is not None and not contract.declarer:
        raise InputError(f"{SEATS[deal.declarer]} won the bidding: a {contract.label} is played only when all pass",
                         path="game.type")
    if not contract.declarer:  # fix: a Ramsch record's declarer and bid were ignored
        for key in ("declarer", "bid"):
            if key in doc:
                raise InputError(f"a {contract.label} has no {key}", path=key)
    if deal.phase is Phase.PUSH:
        _push(doc, deal, contract)
    if not contract.declarer:
        return _score_ramsch(doc, rules, deal, contract)
    declaration = _declaration(game, rules, contract)
    if declaration.hand and "discard" in game:  # fix: a summary's hand game with a discard was accepted
        raise InputError("a hand game leaves the skat untouched: there is no discard", path="game.discard")
    hands = doc.get("hands")
    if hands is None:
        _check_turned(doc, rules, declaration)
        return _score_summary(doc, rules, deal.declarer, deal.bid, contract, declaration)
    if deal.phase is not Phase.SKAT:  # a grand hand declared instead of pushing
        return _replay_play(doc, rules, deal, contract)

    if not declaration.hand:
        turn = rules.route_of(declaration)
        if turn in ("first", "second"):  # Tournée: turn a skat card up, then take both
            try:
                deal.apply(TURN_UP)
                deal.apply(TurnChoice(turn))
            except InputError as exc:
                raise exc.at(f"game.declarations.{rules.turn_up.key}") from None
        else:
            deal.apply(PICK_UP)
        if "discard" not in game:
            raise InputError(f"the skat was picked up: give the {rules.deck.skat} discarded cards", path="game.discard")
        try:
            deal.apply(Discard(tuple(_cards(game["discard"], "game.discard"))))
        except InputError as exc:
            raise (exc if exc.path else exc.at("game.discard")) from None
    else:  # (a hand game's discard is refused above, A5: the skat stays untouched)
        deal.apply(PLAY_HAND)
    try:
        deal.apply(Declare(declaration))
    except InputError as exc:
        raise exc.at("game") from None
    return _replay_play(doc, rules, deal, contract)


def _replay_play(doc: dict, rules, deal: Deal, contract) -> ScoreResult:
    cards = _cards(doc.get("play", []), "play")
    for i, c in enumerate(cards):
        if deal.done:
            raise InputError(f"the deal is already over after {i} cards", path=f"play[{i}]")
        try:
            deal.apply(PLAYS[c])
        except InputError as exc:
            raise exc.at(f"play[{i}]") from None
    if deal.done:
        return deal.result()
    if "outcome" not in doc and not (not cards and _settled(doc, rules, contract, deal.declaration, deal.bid)):
        where = "play" if cards else "outcome"
        raise InputError(f"the deal is not finished after {len(cards)} cards: give every card in play, or an outcome", path=where)
    if deal.declarer is None:
        return _score_ramsch(doc, rules, None, contract)
    matadors = deal.table.matadors(sum(1 << c for c in (*deal.dealt[deal.declarer], *deal.original_skat)))
    return _score_outcome(doc, rules, deal.declarer, deal.bid, contract, deal.declaration, matadors)


def _push(doc: dict, deal: Deal, contract) -> None:
    """Replay Schieberamsch pushes; a declarer game names the pusher who
    declared it instead of pushing (the next one after the pushes listed)."""
    pushes = doc["game"].get("pushes", [])
    for i, push in enumerate(pushes):
        where = f"game.pushes[{i}]"
        if deal.phase is not Phase.PUSH:
            raise InputError("no more pushes: all three have pushed", path=where)
        try:
            if push == "blind":
                deal.apply(PUSH_BLIND)
            else:
                deal.apply(PICK_UP)
                if "hands" in doc:
                    deal.apply(Discard(tuple(_cards(push, where))))
                else:  # summary: the dummy deal's cards stand in, only whose turn it is matters
                    _check_push(push, deal.rules, where)
                    deal.apply(deal.legal_actions()[0])
        except InputError as exc:
            raise (exc if exc.path else exc.at(where)) from None
    if deal.phase is Phase.PUSH and deal.push_round == 2:
        # all have pushed: the players before the declarer passed (all, for a Ramsch)
        who = SEATS.index(doc["declarer"]) if contract.declarer and doc.get("declarer") in SEATS else None
        if contract.declarer and who is None:
            raise InputError("a game declared after the pushes needs `declarer`", path="declarer")
        while deal.phase is Phase.PUSH and deal.to_move != who:
            deal.apply(PASS)
    if contract.declarer:
        try:
            deal.apply(Declare(_declaration(doc["game"], deal.rules, contract)))
        except InputError as exc:
            raise exc.at("game") from None
        # fix: a `declarer` that contradicts the pushes was ignored (who declares is whose turn it was)
        if "declarer" in doc and doc["declarer"] != SEATS[deal.declarer]:
            raise InputError(f"{doc['declarer']!r} contradicts the pushes, after which {SEATS[deal.declarer]} declares"
                             f" instead of pushing ({len(pushes)} push{'es' if len(pushes) != 1 else ''} given)",
                             path="declarer")
    elif "hands" in doc and deal.phase is Phase.PUSH:
        raise InputError(f"give every push ({len(pushes)} of 3 given)", path="game.pushes")


def _check_push(push, rules, where: str) -> None:
    """fix: a summary's pushed cards were not read at all: a jack pushed where
    jacks may not be, or a misspelt card, passed unnoticed."""
    cards = _cards(push, where)
    if cards[0] == cards[1]:
        raise InputError("push two different cards", path=where)
    for i, c in enumerate(cards):
        if CARD_NAMES[c] in rules.push_rules.forbidden:
            raise InputError(f"{CARD_NAMES[c]} may not be pushed in this ruleset", path=f"{where}[{i}]")


def _check_turned(doc: dict, rules, declaration: Declaration) -> None:
    """fix: a Tournée summary that gives the skat must name a game the turned
    card allows (a record with hands is judged by the Deal)."""
    route = rules.route_of(declaration)
    if not rules.turn_up or route not in ("first", "second") or "skat" not in doc:
        return
    turned = CARD_NAMES[_cards(doc["skat"], "skat")[0 if route == "first" else 1]]
    allowed = rules.turn_up.contracts.get(turned, ())
    if declaration.game not in allowed:
        raise InputError(f"the turned card {turned} allows {' or '.join(allowed) or 'nothing'}, not {declaration.game}",
                         path="game.type")


def _score_ramsch(doc: dict, rules, deal: Deal | None, contract) -> ScoreResult:
    """A deal without declarer: replayed when hands and play are given, else from outcome.points/tricks."""
    if deal is not None and "hands" in doc:
        return _replay_play(doc, rules, deal, contract)
    outcome = doc.get("outcome") or {}
    for key in ("points", "tricks", "last_trick"):
        if key not in outcome or (key != "last_trick" and len(outcome[key]) != 3):
            raise InputError(f"a {contract.label} needs outcome.{key} for every seat", path=f"outcome.{key}")
    points = tuple(outcome["points"][s] for s in SEATS)
    tricks = tuple(outcome["tricks"][s] for s in SEATS)
    if sum(tricks) != rules.deck.hand:
        raise InputError(f"tricks add up to {sum(tricks)}, expected {rules.deck.hand}", path="outcome.tricks")
    skat = tuple(_cards(doc["skat"], "skat")) if "skat" in doc else ()
    # fix: the cards' total is the contract's (tens worth 1 in some Ramsch: 84), not always 120;
    # and skat cards given must match the points missing from the tricks
    worth = rules.tricks[contract.name].points
    values = sorted(worth[c] for c in rules.deck.cards)
    total, skat_max = sum(values), sum(values[len(values) - rules.deck.skat:])
    skat_points = total - sum(points)  # outcome points may or may not include the skat already
    if skat:
        in_skat = sum(worth[c] for c in skat)
        if skat_points not in (0, in_skat):
            raise InputError(f"points add up to {sum(points)}, expected {total - in_skat} (without the skat's "
                             f"{in_skat}) or {total}", path="outcome.points")
    elif not 0 <= skat_points <= skat_max:
        raise InputError(f"points add up to {sum(points)}, expected {total - skat_max} to {total}",
                         path="outcome.points")
    _check_seat_points(points, tricks, values, skat_max)
    blind = tuple((i, True) for i, p in enumerate(doc["game"].get("pushes", [])) if p == "blind")
    facts = RamschFacts(contract, points, tricks, skat, skat_points, SEATS.index(outcome["last_trick"]), blind)
    return rules.score(facts)


def _check_seat_points(points, tricks, values: list[int], skat_max: int) -> None:
    """Each seat's card points must fit its tricks: 3 cards a trick, at
    least the lowest and at most the highest cards of the deck (plus the
    skat for a seat that took a trick and may have been given it)."""
    for seat, p, t in zip(SEATS, points, tricks):
        low = sum(values[:3 * t])
        high = sum(values[len(values) - 3 * t:]) + skat_max if t else 0
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
        hands = [_cards(doc["hands"].get(s, []), f"hands.{s}") for s in SEATS]
        for key, size in (("skat", deck.skat), ("aside", deck.aside)):
            if size and key not in doc:
                raise InputError(f"hands are given: give the {key} too", path=key)
        skat, aside = _cards(doc.get("skat", []), "skat"), _cards(doc.get("aside", []), "aside")
        try:
            deal = Deal(rules, hands, skat, aside)  # Deal's card check names the place: hands.forehand[9]
        except InputError as exc:
            raise (exc if exc.path else exc.at("hands")) from None
    else:
        deal = Deal(rules, *deal_cards(0, deck))
    if deal.phase is not Phase.BIDDING:  # this ruleset has no bidding (every deal a Ramsch, or a soloist)
        if "bidding" in doc:
            raise InputError(f"ruleset {rules.name!r} has no bidding", path="bidding")
        if rules.soloist and "bid" in doc:
            raise InputError(f"ruleset {rules.name!r} has no bidding: no bid", path="bid")
        if rules.soloist and doc.get("declarer", SEATS[rules.soloist.seat]) != SEATS[rules.soloist.seat]:
            raise InputError(f"in ruleset {rules.name!r} {SEATS[rules.soloist.seat]} declares every deal", path="declarer")
        return deal
    game = doc.get("game") or {}
    contract = rules.contracts.get(game.get("type"))
    if "type" in game and contract is None:  # fix: was "give `declarer`" for a ramsch record under official
        try:
            rules.contract(game["type"])
        except InputError as exc:
            raise exc.at("game.type") from None
    if "bidding" not in doc and (contract and not contract.declarer or "pushes" in game):
        while deal.phase is Phase.BIDDING:  # a Ramsch record may leave out the three passes
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
            if key == "declarer" and deal.phase is Phase.PUSH:
                continue  # all passed into a Schieberamsch/Ramse: who declares a grand hand comes from the pushes
            if key in doc and doc[key] != expected:
                gives = "all passed, nobody declares" if expected is None else f"which gives {expected!r}"
                raise InputError(f"{doc[key]!r} contradicts the bidding: {gives}", path=key)
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


def _score_soloist(doc: dict, rules, deal: Deal, contract) -> ScoreResult:
    """No bidding (Raeuberskat): the soloist declares, then takes the skat
    and discards (or plays hand), then the play; a Ramsch the soloist chose
    is played all against all."""
    game = doc["game"]
    if not contract.declarer:
        for key in ("hand", "schneider", "schwarz", "ouvert", "discard", "declarations"):
            if key in game:
                raise InputError(f"a {contract.label} is played all against all: no {key}", path=f"game.{key}")
        declaration = Declaration(contract.name)
    else:
        declaration = _declaration(game, rules, contract)
        if declaration.hand != (rules.soloist.skat == "hand"):
            raise InputError("the soloist " + ("leaves the skat: declare a hand game" if rules.soloist.skat == "hand"
                                               else "takes the skat: not a hand game"), path="game.hand")
    if "hands" not in doc:
        if not contract.declarer:
            return _score_ramsch(doc, rules, None, contract)
        return _score_summary(doc, rules, deal.declarer, deal.bid, contract, declaration)
    try:
        deal.apply(Declare(declaration))
    except InputError as exc:
        raise exc.at("game") from None
    if deal.phase is Phase.DISCARD:
        if "discard" not in game:
            raise InputError(f"the skat was picked up: give the {rules.deck.skat} discarded cards", path="game.discard")
        try:
            deal.apply(Discard(tuple(_cards(game["discard"], "game.discard"))))
        except InputError as exc:
            raise (exc if exc.path else exc.at("game.discard")) from None
    elif "discard" in game:
        raise InputError("the skat stays untouched: there is no discard", path="game.discard")
    return _replay_play(doc, rules, deal, contract)


def _declaration(game: dict, rules, contract) -> Declaration:
    announced = frozenset(a for a in ("schneider", "schwarz", "ouvert") if game.get(a))
    hand = game.get("hand", False)
    # ouvert (and other announcements) imply a hand game where a skat game may not carry them;
    # fix: not when a discard shows the skat was picked up (then announcing is the error)
    # fix: nor when a turned skat card (Tournée) shows the skat was used ("not in a hand game" was misleading)
    turned = rules.turn_up is not None and rules.turn_up.key in game.get("declarations", {})
    if ("hand" not in game and "discard" not in game and announced and not turned
            and isinstance(rules.announcements.get((contract.name, False, announced)), str)):
        hand = True
    # a null played only without the skat (Tournée) needs no hand flag
    ouvert = "ouvert" in announced
    if "hand" not in game and contract.no_trick and (False, ouvert) not in contract.fixed and (True, ouvert) in contract.fixed:
        hand = True
    return Declaration(contract.name, hand, "schneider" in announced, "schwarz" in announced, "ouvert" in announced,
                       game.get("declarations", {}))


def _score_summary(doc, rules, declarer, bid, contract, declaration) -> ScoreResult:
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
    if outcome is None:
        raise InputError("without `play`, give the `outcome`", path="outcome")
    tricks = outcome.get("declarer_tricks")
    if contract.no_trick:
        if tricks is None:
            raise InputError("a null game needs outcome.declarer_tricks", path="outcome.declarer_tricks")
        points = outcome.get("declarer_points", 0)
    else:
        if "declarer_points" not in outcome:
            raise InputError("give outcome.declarer_points", path="outcome.declarer_points")
        points = outcome["declarer_points"]
        if tricks is not None and (tricks == 0 and points > 30 or tricks == rules.deck.hand and points != rules.deck.total_points):
            raise InputError(f"{points} card points do not fit {tricks} tricks", path="outcome")
    facts = make_facts(rules, contract, declaration, bid=bid, declarer=declarer, matadors=matadors,
                       declarer_points=points, declarer_tricks=tricks,
                       defender_tricks=None if tricks is None else rules.deck.hand - tricks)
    return rules.score(facts)
