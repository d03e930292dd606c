"""Schenken: the defenders concede at the start (docs/rules/house-rules.md#b6).

One defender says "Schenken", the other agrees.  A deal record says what
followed in ``game.declarations.schenken``:

* ``accepted``: the declarer accepts; the game is scored as won with 61-89
  card points (no play, no ``outcome`` needed; matadors from the hands or
  ``outcome.matadors``).
* ``refused``: the declarer plays on, must make schneider to win, and is
  scored as with schneider announced (the hand multiplier only in a hand
  game); give the play or the outcome.
* ``schneider``: refused, then the defenders conceded again, giving
  schneider, and the declarer accepted: scored as won with schneider,
  schneider announced.
* ``schwarz``: the declarer refused that too and played for schwarz: must
  take every trick; scored as with schwarz announced.

Overbid still applies (a value below the bid loses).  Suit and grand games
only.

In live play (``Deal``) the same steps are table calls before the first card:
a defender's ``schenken`` (for both defenders) writes ``offered``; the
declarer answers ``schenken_accept`` (the deal ends, ``accepted``) or
``schenken_refuse`` (``refused``); after a refusal a defender may give
schneider (``schenken_schneider``: ``schneider_offered``), which the declarer
accepts (``schenken_schneider_accept``: the deal ends, ``schneider``) or
answers by playing for schwarz (``schenken_schwarz``).  A declarer who leads
or plays without answering has played on: ``offered`` counts as refused and
``schneider_offered`` as played for schwarz.

``automatic``: a bid of 18 with diamonds (``diamonds_18``), or also of 20
with diamonds or hearts (``diamonds_18_hearts_20``), is conceded without a
word (scored like ``accepted``) unless Kontra is said or the declarer
announces more (schneider, schwarz, ouvert, or any plugin declaration such
as Spitze); a record of such a game needs no play or outcome.
"""

from __future__ import annotations

from dataclasses import replace

from skatcore.hookspecs import hookimpl
from skatcore.model import TableCall, Thresholds, WinCondition

VALUES = ("accepted", "refused", "schneider", "schwarz")
# an offer the declarer did not answer before playing on (live play)
PLAYED_ON = {"offered": "refused", "schneider_offered": "schwarz"}
AUTOMATIC = {"none": {}, "diamonds_18": {18: ("diamonds",)}, "diamonds_18_hearts_20": {18: ("diamonds",), 20: ("diamonds", "hearts")}}
# the multiplier items a refused Schenken counts as announced (and as made, if the game fails: A8)
SCHNEIDER_ITEMS = ("schneider", "schneider_announced")
SCHWARZ_ITEMS = ("schwarz", "schwarz_announced")


class Schenken:
    """Declaration ``schenken``: conceding at the start, accepted or played on for schneider/schwarz."""

    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "automatic": {"enum": list(AUTOMATIC), "default": "none",
                          "description": "games conceded without a word: none, 18 diamonds, or 18 diamonds and 20 diamonds/hearts"},
        },
    }

    def __init__(self, automatic="none"):
        self.automatic = AUTOMATIC[automatic]
        self.thresholds = Thresholds()

    @staticmethod
    def said(facts_or_declaration) -> str | None:
        d = getattr(facts_or_declaration, "declaration", facts_or_declaration)
        said = d.declarations.get("schenken") or None
        return PLAYED_ON.get(said, said)

    @hookimpl
    def skat_register_calls(self):
        offered, refused, schneider = {"schenken": "offered"}, {"schenken": "refused"}, {"schenken": "schneider_offered"}
        return [
            TableCall("schenken", by="defender", window="first_lead", key="schenken", value="offered",
                      requires={"schenken": None}),
            TableCall("schenken_accept", by="declarer", window="first_lead", key="schenken", value="accepted",
                      requires=offered, settles=True),
            TableCall("schenken_refuse", by="declarer", window="first_lead", key="schenken", value="refused",
                      requires=offered),
            TableCall("schenken_schneider", by="defender", window="first_lead", key="schenken",
                      value="schneider_offered", requires=refused),
            TableCall("schenken_schneider_accept", by="declarer", window="first_lead", key="schenken",
                      value="schneider", requires=schneider, settles=True),
            TableCall("schenken_schwarz", by="declarer", window="first_lead", key="schenken", value="schwarz",
                      requires=schneider),
        ]

    @hookimpl
    def skat_register_declarations(self):
        return {"schenken": {"enum": [*VALUES, *PLAYED_ON], "description": "the defenders conceded at the start: "
                             "accepted, refused (played for schneider), schneider (accepted), schwarz (played for)"}}

    @hookimpl
    def skat_refuse_declaration(self, contract, hand, key):
        if key == "schenken" and contract.family not in ("suit", "grand"):
            return "Schenken is played only in suit and grand games"
        return None

    @hookimpl(wrapper=True)
    def skat_thresholds(self):
        answer = yield
        self.thresholds = answer or Thresholds()  # the points of "won with 61-89" and of schneider
        return answer

    def conceded_automatically(self, contract, declaration, bid) -> bool:
        if contract.name not in self.automatic.get(bid, ()) or declaration.announced:
            return False
        return not any(v for k, v in declaration.declarations.items())

    @hookimpl
    def skat_settled_outcome(self, contract, declaration, bid):
        said = self.said(declaration)
        if said == "accepted" or (said is None and self.conceded_automatically(contract, declaration, bid)):
            return {"declarer_points": self.thresholds.win}
        if said == "schneider":
            return {"declarer_points": self.thresholds.schneider}
        return None

    @hookimpl(wrapper=True)
    def skat_multiplier_items(self):
        chunks = yield
        out = []
        for chunk in chunks:
            items = []
            for item in chunk or ():
                if item.name in SCHNEIDER_ITEMS:
                    item = replace(item, count=self._or(item.count, ("refused", "schneider", "schwarz")))
                elif item.name in SCHWARZ_ITEMS:
                    item = replace(item, count=self._or(item.count, ("schwarz",)))
                items.append(item)
            out.append(items)
        return out

    def _or(self, count, values):
        return lambda f: count(f) or int(self.said(f) in values)

    @hookimpl(wrapper=True)
    def skat_win_conditions(self):
        chunks = yield
        conds = [
            WinCondition("schenken_schneider", lambda f: self.said(f) != "refused" or f.defenders_schneider,
                         "Schenken refused: schneider not made",
                         "Schenken refused: the declarer needs {thresholds.schneider} card points"),
            WinCondition("schenken_schwarz", lambda f: self.said(f) != "schwarz" or f.defenders_schwarz,
                         "Schenken refused for schwarz: schwarz not made",
                         "Schenken refused for schwarz: the defenders must take no trick"),
        ]
        return [*chunks, conds]
