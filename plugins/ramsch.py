"""Ramsch (docs/rules/ramsch.md#b3), its Texas/Tournée scoring (B9, B10), Gewinner-Ramsch
and Petersen's "Ramse" (B11): a deal without declarer where few card points
are good.  Used as the all-pass rule of a ruleset, or for every deal
(``every_deal: true``, ruleset ``ramsch``).  Pushing the skat first is the
separate ``schieberamsch`` plugin, a flow step (:class:`PushStep`); this one
scores its blind pushes.
"""

from __future__ import annotations

from dataclasses import dataclass

from skatcore.cards import CARD_NAMES, mask_of, names, parse_card
from skatcore.engine.deal import PASS, PICK_UP, Declare, Discard, Pass, Phase, PickUp
from skatcore.engine.steps import Step
from skatcore.errors import InputError
from skatcore.hookspecs import hookimpl
from skatcore.model import FOREHAND, REARHAND, SEATS, CardOrder, Contract, Declaration, RamschFacts

JACKS = ("CJ", "SJ", "HJ", "DJ")

SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "every_deal": {"type": "boolean", "default": False,
                       "description": "no bidding: every deal is a Ramsch (else only when all pass)"},
        "scoring": {"enum": ["augen", "fixed", "texas", "gewinner", "petersen"], "default": "augen",
                    "description": "augen: the loser loses their points; fixed: the loser loses fixed_loss; "
                                   "texas: fewest points gains 10/20, -30 for the only trick-taker; "
                                   "gewinner: fewest points scores 23 and a won game; "
                                   "petersen: fewest points wins, unless someone took 101+"},
        # no schema default: the default depends on the scoring (Gewinner-Ramsch: the loser, B3)
        "skat": {"enum": ["last_trick", "loser", "nobody"],
                 "description": "who gets the skat's points: the winner of the last trick (default; gewinner: "
                                "loser), the player with most points without the skat, or nobody"},
        "fixed_loss": {"type": "integer", "minimum": 1, "default": 10,
                       "description": "fixed scoring: what the loser loses (each Jungfrau adds half of it: 15, 20); "
                                      "texas/petersen: what the winner gains"},
        "ties": {"enum": ["full", "half"], "default": "full",
                 "description": "two tied for most points: both lose in full, or half each (three-way: no score)"},
        "jungfrau": {"type": "boolean", "default": True,
                     "description": "a player without a trick doubles the loser's loss (fixed: +half)"},
        "durchmarsch": {"enum": ["plus120", "times4", "win", "none"], "default": "plus120",
                        "description": "a player who takes every trick: +120, +480 (4 x 120), wins like a "
                                       "winner (+fixed_loss), or no special rule"},
        "tens": {"enum": ["high", "low", "low_one_point"], "default": "high",
                 "description": "tens rank A T K Q (high), or below K Q (low), low and worth 1 point"},
        "threshold": {"type": "integer", "minimum": 61, "maximum": 120, "default": 101,
                      "description": "petersen: a player with this many points wins outright"},
    },
}


class Ramsch:
    """Contract ``ramsch`` (grand order, only jacks trump) and its scoring."""

    params_schema = SCHEMA

    def __init__(self, every_deal=False, scoring="augen", skat=None, fixed_loss=10, ties="full",
                 jungfrau=True, durchmarsch="plus120", tens="high", threshold=101):
        if skat is None:  # B3 Gewinner-Ramsch: "the skat goes to the player with most points"
            skat = "loser" if scoring == "gewinner" else "last_trick"
        self.every_deal, self.scoring, self.skat = every_deal, scoring, skat
        self.fixed_loss, self.ties, self.jungfrau = fixed_loss, ties, jungfrau
        self.durchmarsch, self.tens, self.threshold = durchmarsch, tens, threshold

    @hookimpl
    def skat_register_contracts(self):
        return [Contract("ramsch", "ramsch", label="Ramsch", declarer=False)]

    @hookimpl
    def skat_card_order(self, contract):
        if contract.family != "ramsch":
            return None
        if self.tens == "high":
            return CardOrder(JACKS, "ATKQ987")
        return CardOrder(JACKS, "AKQT987", points={"T": 1} if self.tens == "low_one_point" else None)

    @hookimpl
    def skat_all_pass(self):
        return "ramsch"

    @hookimpl
    def skat_skip_bidding(self):
        return self.every_deal or None

    # -- scoring ---------------------------------------------------------------
    def final_points(self, f: RamschFacts) -> list[int]:
        """Card points per seat after the skat went where the rules say."""
        points = list(f.points)
        if self.skat == "last_trick":
            points[f.last_trick_winner] += f.skat_points
        elif self.skat == "loser":
            top = max(f.points)
            # most points without the skat; a tie goes to the one who took the last trick, else the senior
            tied = [s for s in f.seats if f.points[s] == top]
            points[f.last_trick_winner if f.last_trick_winner in tied else tied[0]] += f.skat_points
        return points

    @hookimpl
    def skat_ramsch_scores(self, facts: RamschFacts):
        f = facts
        points = self.final_points(f)
        virgins = [s for s in f.seats if f.tricks[s] == 0]
        blind = sum(1 for _, is_blind in f.marks.get("pushes", ()) if is_blind)
        shown = ", ".join(f"{SEATS[s]} {p}" for s, p in enumerate(points))
        notes = [f"points {shown}"]
        entries, why = getattr(self, f"_score_{self.scoring}")(f, points, virgins)
        notes.append(why)
        if blind and any(entries.values()):
            entries = {s: v * 2 ** blind for s, v in entries.items()}
            notes.append(f"{blind} blind push{'es' if blind > 1 else ''}: x{2 ** blind}")
        return entries, "; ".join(notes)

    def _durchmarsch(self, f: RamschFacts):
        hero = next((s for s in f.seats if f.tricks[s] == 10), None)
        if hero is None or self.durchmarsch == "none":
            return None
        gain = {"plus120": 120, "times4": 480, "win": self.fixed_loss}[self.durchmarsch]
        return {hero: gain}, f"Durchmarsch by {SEATS[hero]}: +{gain}"

    def _losers(self, f, points):
        top = max(points)
        return [s for s in f.seats if points[s] == top], top

    def _score_augen(self, f, points, virgins):
        return self._loser_pays(f, points, virgins, lambda top: top, "loses their points")

    def _score_fixed(self, f, points, virgins):
        return self._loser_pays(f, points, virgins, lambda top: self.fixed_loss, f"loses {self.fixed_loss}")

    def _loser_pays(self, f, points, virgins, amount, what):
        dm = self._durchmarsch(f)
        if dm:
            return dm
        losers, top = self._losers(f, points)
        if len(losers) == len(f.seats):
            return {}, "three-way tie: no score" if len(losers) == 3 else "a tie: no score"
        loss = amount(top)
        extra = ""
        if self.jungfrau and virgins:
            if self.scoring == "fixed":  # simple Ramsch: 10 -> 15 -> 20
                loss += self.fixed_loss // 2 * len(virgins)
            else:
                loss *= 2 ** len(virgins)
            extra = f", {len(virgins)} Jungfrau -> {loss}"
        if len(losers) == 2 and self.ties == "half":
            loss //= 2
            extra += ", tie: half each"
        who = " and ".join(SEATS[s] for s in losers)
        if len(losers) == 2:
            what = what.replace("loses", "lose", 1)
        return {s: -loss for s in losers}, f"{who} {what}{extra}: -{loss}"

    def _score_texas(self, f, points, virgins):
        # B9: fewest points gains 10 (20 with no trick); two without a trick: the third loses 30
        gain = self.fixed_loss
        if len(virgins) == 2:
            hero = next(s for s in f.seats if s not in virgins)
            return {hero: -30}, f"{SEATS[hero]} took every trick: -30"
        if len(virgins) == 1:
            return {virgins[0]: 2 * gain}, f"{SEATS[virgins[0]]} took no trick: +{2 * gain}"
        low = min(points)
        tied = [s for s in f.seats if points[s] == low]
        if len(tied) == 3:
            winner = 0  # 40-40-40: Forehand
        elif len(tied) == 2:
            # the tied player who did not take the last trick; if neither did, the elder (docs/rules/texas.md#b9)
            others = [s for s in tied if s != f.last_trick_winner]
            winner = others[0]
        else:
            winner = tied[0]
        return {winner: gain}, f"{SEATS[winner]} fewest points: +{gain}"

    def _score_gewinner(self, f, points, virgins):
        # B3: the fewest points wins a null's 23 and a won game; tied lowest both do
        low = min(points)
        winners = [s for s in f.seats if points[s] == low]
        if len(winners) == len(f.seats):
            return {}, "three-way tie: no score"
        return {s: 23 for s in winners}, f"{' and '.join(SEATS[s] for s in winners)} fewest points: +23 and a won game"

    def _score_petersen(self, f, points, virgins):
        # B11 "Ramse": fewest points wins, unless someone took `threshold`+ points
        gain = self.fixed_loss
        big = [s for s in f.seats if points[s] >= self.threshold]
        if big:
            return {big[0]: gain}, f"{SEATS[big[0]]} took {points[big[0]]} (>= {self.threshold}): +{gain}"
        low = min(points)
        winners = [s for s in f.seats if points[s] == low]
        if len(winners) == len(f.seats):
            return {}, "three-way tie: no score"
        return {s: gain for s in winners}, f"{' and '.join(SEATS[s] for s in winners)} fewest points: +{gain}"


@dataclass(frozen=True, slots=True)
class PushBlind:
    """Schieberamsch: pass the skat on without looking (doubles the score)."""

    def __str__(self):
        return "push blind"


PUSH_BLIND = PushBlind()


class PushStep(Step):
    """Schieberamsch (B4): after all passed each player in turn, from
    forehand, picks the skat up and pushes two cards on (or pushes it blind);
    rearhand's push starts the Ramsch.  ``deal.marks["pushes"]`` lists the
    pushes as ``(seat, blind)`` (the Ramsch scoring doubles per blind push).

    :param blind: a player may push without looking.
    :param forbidden: cards that may not be pushed (jacks, in some groups).
    :param instead: a contract a player may declare as a hand game instead
        of pushing (``"grand"``), or ``None``.
    :param instead_after: offer ``instead`` in a round of its own after all
        have pushed (Petersen's Ramse) rather than before each push.
    :param decline: a player may decline to pick the skat up (``PASS``): it
        goes on to the next player as it lies, unseen, and nothing doubles
        (Petersen's Ramse, B11: each "may" pick up).  ``deal.marks["declined"]``
        lists the seats that declined.
    """

    name = "push"
    at = "all_passed"

    def __init__(self, blind=True, forbidden=(), instead="grand", instead_after=False, decline=False):
        self.blind, self.forbidden, self.instead, self.instead_after = blind, tuple(forbidden), instead, instead_after
        self.decline = decline
        self.forbidden_mask = mask_of(parse_card(c) for c in self.forbidden)
        self.description = (f"first each pushes the skat in turn ({'blind allowed' if blind else 'no blind push'}"
                            f"{', may not push ' + ' '.join(self.forbidden) if self.forbidden else ''}"
                            f"{', may decline to pick it up' if decline else ''}"
                            f"{f', a {instead} hand ' + ('after all pushed' if instead_after else 'instead of pushing') if instead else ''})")

    def prepare(self, rules) -> str | None:
        if self.instead and self.instead not in rules.contracts:
            return f"pushing allows a {self.instead} hand instead, which no plugin registers"
        return None

    def enter(self, deal) -> None:
        deal.state[self.name] = {"round": 1, "picked": False, "pushes": []}  # pushes: as the record writes them
        deal.marks["pushes"] = ()
        deal.marks["declined"] = ()
        deal.to_move = FOREHAND

    def actions(self, rules):
        return [PICK_UP, *([PUSH_BLIND] if self.blind else []), PASS,
                *([Declare(Declaration(self.instead, hand=True))] if self.instead else [])]

    def legal(self, deal):
        st = deal.state[self.name]
        instead = [Declare(Declaration(self.instead, hand=True))] if self.instead else []
        if st["round"] == 2:  # after all pushed: pass to the Ramsch (the default: players take the first), or declare
            return [PASS, *instead]
        if st["picked"]:
            return deal.discard_options(deal.to_move, self.forbidden_mask)
        return [PICK_UP, *([PUSH_BLIND] if self.blind else []), *([PASS] if self.decline else []),
                *([] if self.instead_after else instead)]

    def apply(self, deal, action) -> None:
        st, seat = deal.state[self.name], deal.to_move
        if st["round"] == 2 and not isinstance(action, (Declare, Pass)):
            raise InputError(f"all have pushed: declare a {self.instead} or pass")
        if st["picked"]:
            if not isinstance(action, Discard):
                raise InputError(f"{action} is not possible now ({SEATS[seat]} to push two cards on)")
            for c in action.cards:
                if deal.hands[seat] >> c & 1 and self.forbidden_mask >> c & 1:
                    raise InputError(f"{CARD_NAMES[c]} may not be pushed in this ruleset")
            deal.put_away(seat, action.cards)
            st["picked"] = False
            deal.phase = Phase.STEP
            self._pushed(deal, seat, names(action.cards))
        elif isinstance(action, PickUp) and st["round"] == 1:
            deal.take_skat(seat)
            st["picked"] = True
            deal.phase = Phase.DISCARD
        elif action == PASS:
            if st["round"] == 1:
                if not self.decline:
                    raise InputError(f"push the skat on (pick it up{', or blind' if self.blind else ''}): "
                                     "declining to pick it up is not allowed in this ruleset")
                deal.marks["declined"] = (*deal.marks["declined"], seat)  # the skat goes on as it lies
                st["pushes"].append("pass")
            self._next(deal)
        elif isinstance(action, Declare):  # e.g. a grand hand instead of pushing
            d = action.declaration
            if self.instead_after and st["round"] == 1:
                raise InputError(f"a {self.instead} may be declared only after all have pushed")
            if not (self.instead and d.game == self.instead and d.hand):
                raise InputError(f"instead of pushing, only a {self.instead} hand may be declared" if self.instead
                                 else "declaring instead of pushing is not allowed in this ruleset")
            deal.declare(seat, d)
        elif isinstance(action, PushBlind):
            if not self.blind:
                raise InputError("the skat may not be pushed blind in this ruleset")
            self._pushed(deal, seat, "blind")
        else:
            raise InputError(f"{action} is not possible now ({SEATS[seat]} to push)")

    def _pushed(self, deal, seat: int, push) -> None:
        """``seat`` pushed: ``push`` is ``"blind"`` or the two card names."""
        deal.marks["pushes"] = (*deal.marks["pushes"], (seat, push == "blind"))
        deal.state[self.name]["pushes"].append(push)
        self._next(deal)

    def _next(self, deal) -> None:
        st = deal.state[self.name]
        if deal.to_move != REARHAND:
            deal.to_move += 1
        elif st["round"] == 1 and self.instead_after and self.instead:
            st["round"] = 2  # Petersen's Ramse: now each in turn may declare
            deal.to_move = FOREHAND
        else:
            deal.start_play(deal.rules.all_pass)

    def record(self, deal):
        st = deal.state.get(self.name)
        return {"game": {"pushes": list(st["pushes"])}} if st else {}

    def card_fields(self, record):
        pushes = (record.get("game") or {}).get("pushes") or []
        return [(f"game.pushes[{i}]", p) for i, p in enumerate(pushes) if p not in ("blind", "pass", "seen")]

    def claims(self, record) -> bool:
        return "pushes" in (record.get("game") or {})

    def replay(self, deal, record):
        """Replay the pushes; a declarer game names the pusher who declared it
        instead of pushing (the next one after the pushes listed)."""
        from skatcore.records.deal import apply_at, cards_at, declaration_in

        game = record["game"]
        contract = deal.rules.contract(game["type"])
        pushes = game.get("pushes", [])
        for i, push in enumerate(pushes):
            where = f"game.pushes[{i}]"
            if deal.step is not self:
                raise InputError("no more pushes: all three have pushed", path=where)
            if push in ("blind", "pass"):
                apply_at(deal, PUSH_BLIND if push == "blind" else PASS, where)
                continue
            apply_at(deal, PICK_UP, where)
            if push == "seen":  # two cards pushed, not written down: only whose turn it is matters
                if "hands" in record:
                    raise InputError("give the 2 cards pushed (the record has the hands)", path=where)
                apply_at(deal, self.legal(deal)[0], where)
            elif "hands" in record:
                apply_at(deal, Discard(tuple(cards_at(push, where))), where)
            else:  # summary: the stand-in deal's cards push, only whose turn it is matters
                cards = cards_at(push, where)
                if cards[0] == cards[1]:
                    raise InputError("push two different cards", path=where)
                for k, c in enumerate(cards):
                    if self.forbidden_mask >> c & 1:
                        raise InputError(f"{CARD_NAMES[c]} may not be pushed in this ruleset", path=f"{where}[{k}]")
                apply_at(deal, self.legal(deal)[0], where)
        if deal.step is self and deal.state[self.name]["round"] == 2:
            # all have pushed: the players before the declarer passed (all, for a Ramsch)
            who = SEATS.index(record["declarer"]) if contract.declarer and record.get("declarer") in SEATS else None
            if contract.declarer and who is None:
                raise InputError("a game declared after the pushes needs `declarer`", path="declarer")
            while deal.step is self and deal.to_move != who:
                deal.apply(PASS)
        if contract.declarer:
            apply_at(deal, Declare(declaration_in(game, deal.rules, contract)), "game")
            if "declarer" in record and record["declarer"] != SEATS[deal.declarer]:
                raise InputError(f"{record['declarer']!r} contradicts the pushes, after which {SEATS[deal.declarer]} declares"
                                 f" instead of pushing ({len(pushes)} push{'es' if len(pushes) != 1 else ''} given)",
                                 path="declarer")
        elif "hands" in record and deal.step is self:
            raise InputError(f"give every push ({len(pushes)} of 3 given)", path="game.pushes")
        return None


class Schieberamsch:
    """Schieberamsch (B4): before a Ramsch each player in turn pushes the skat."""

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "blind": {"type": "boolean", "default": True,
                      "description": "a player may push without looking; each blind push doubles the score"},
            "push_jacks": {"type": "boolean", "default": False, "description": "jacks may be pushed"},
            "grand_hand": {"type": "boolean", "default": True,
                           "description": "instead of pushing, a player may declare a grand hand"},
            "grand_after_pushes": {"type": "boolean", "default": False,
                                   "description": "the grand hand is offered in a round after all have pushed "
                                                  "(Petersen's Ramse), not before each push"},
            "decline": {"type": "boolean", "default": False,
                        "description": "a player may decline to pick the skat up: it goes on unseen, nothing doubles "
                                       "(Petersen's Ramse; a record writes `pass` in game.pushes)"},
        },
    }

    def __init__(self, blind=True, push_jacks=False, grand_hand=True, grand_after_pushes=False, decline=False):
        self.step = PushStep(blind=blind, forbidden=() if push_jacks else JACKS, instead="grand" if grand_hand else None,
                             instead_after=grand_after_pushes, decline=decline)

    @hookimpl
    def skat_register_steps(self):
        return [self.step]
