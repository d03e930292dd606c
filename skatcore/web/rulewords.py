"""A ruleset in the words a player reads, for the rules pages of ``skat
serve``: each plugin and parameter by what it means at the table ("Grand is
worth", not ``official.grand_base``), and what differs between a ruleset
and the one it extends, as rows (rule, the parent's value, this ruleset's).

The texts here are English, marked with :func:`_` so that the test of the
page words finds them; the page's translator says them in its language.  A
parameter of an installed plugin this table does not know is named by its
schema's own description."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


def _(text: str) -> str:
    """Marks a text for the translation (tests/web/test_words.py); the page's ``_()`` says it."""
    return text


PLUGIN_WORDS = {
    "official": _("The international Skat order"), "announcements": _("Announcements"),
    "grand_ouvert": _("Grand ouvert's own value"), "lost_factor": _("Lost games cost"),
    "settlement": _("Settling a game"), "spitze": _("Spitze"), "ramsch": _("Ramsch"),
    "schieberamsch": _("Schieberamsch"), "tournee": _("Tournée"), "kontra": _("Kontra and Re"),
    "schenken": _("Schenken (conceding)"), "bock": _("Bock rounds"), "seeger_fabian": _("Seeger-Fabian points"),
    "money": _("Money"), "bierlachs": _("Bierlachs"), "pot": _("A pot"), "rum": _("Rum"),
    "open_contract": _("Open contracts"), "revolution": _("Revolution"), "trump_seven": _("The trump seven"),
    "skat_en_deux": _("Skat for two"), "strohmann": _("Strohmann (a dummy)"), "piloten_skat": _("Piloten-Skat"),
    "oma_skat": _("Oma-Skat"), "offiziersskat": _("Offiziersskat"), "schmegegge": _("Schmegegge"),
}

PARAM_WORDS = {
    "official.grand_base": _("Grand is worth"),
    "official.suit_bases": _("The suit games are worth"),
    "official.null_values": _("The null games are worth"),
    "official.min_bid": _("The lowest bid"),
    "official.schneider_at": _("Card points that make the defenders schneider"),
    "official.out_of_schneider": _("Card points that keep the declarer out of schneider"),
    "announcements.after_pickup": _("Announcements after picking up the skat"),
    "announcements.ouvert_implies": _("An ouvert game announces"),
    "announcements.ouvert": _("Ouvert adds 1 or doubles"),
    "announcements.ouvert_label": _("Ouvert is called"),
    "grand_ouvert.base": _("Grand ouvert is worth"),
    "grand_ouvert.ouvert_multiplier": _("Ouvert adds 1 to grand ouvert"),
    "lost_factor.skat": _("A lost game after the skat costs its value times"),
    "lost_factor.hand": _("A lost hand game costs its value times"),
    "settlement.mode": _("Who settles with whom"),
    "spitze.worth": _("A Spitze adds"),
    "spitze.label": _("Spitze is called"),
    "spitze.most": _("Spitzen one may declare"),
    "ramsch.every_deal": _("Every deal is a Ramsch"),
    "ramsch.scoring": _("How a Ramsch is scored"),
    "ramsch.skat": _("The skat's points in a Ramsch go to"),
    "ramsch.fixed_loss": _("The Ramsch loser loses"),
    "ramsch.ties": _("Two tied in a Ramsch lose"),
    "ramsch.jungfrau": _("A Jungfrau doubles"),
    "ramsch.durchmarsch": _("A Durchmarsch scores"),
    "ramsch.tens": _("Tens in a Ramsch"),
    "ramsch.threshold": _("Points that win a Ramsch outright"),
    "schieberamsch.blind": _("One may push blind"),
    "schieberamsch.push_jacks": _("Jacks may be pushed"),
    "schieberamsch.grand_hand": _("A grand hand instead of pushing"),
    "schieberamsch.grand_after_pushes": _("The grand hand after all have pushed"),
    "schieberamsch.decline": _("One may decline the skat"),
    "tournee.tournee_bases": _("A tournée is worth"),
    "tournee.guckser_base": _("A Grand Guckser is worth"),
    "tournee.grand_ouvert_base": _("A grand ouvert is worth"),
    "kontra.window": _("Kontra may be said until"),
    "kontra.who": _("Who may say Kontra"),
    "kontra.rule_value": _("The 18 rule's value"),
    "kontra.supra": _("Supra and Resupra"),
    "kontra.until_trick": _("The Kontra window closes in trick"),
    "schenken.automatic": _("Games conceded without a word"),
    "bock.split_60": _("A 60-60 brings a Bock round"),
    "bock.kontra_lost": _("A game lost after Kontra brings a Bock round"),
    "bock.re": _("A Re brings a Bock round"),
    "bock.grand_hand_won": _("A won grand hand brings a Bock round"),
    "bock.totals": _("Totals that bring a Bock round"),
    "bock.overlap": _("Several Bock rounds"),
    "bock.round": _("Deals in a Bock round"),
    "bock.ramsch_after": _("A Ramsch round after every so many Bock rounds"),
    "bock.unfinished": _("Rounds pending at the end"),
    "seeger_fabian.variant": _("Seeger-Fabian variant"),
    "seeger_fabian.won": _("Points per game won"),
    "seeger_fabian.lost": _("Points off per game lost"),
    "seeger_fabian.deals_3": _("Deals of a series at three"),
    "seeger_fabian.deals_4": _("Deals of a series at four"),
    "money.method": _("How the money is settled"),
    "bierlachs.target": _("A player loses at minus"),
    "pot.ante": _("Each pays into the pot"),
    "pot.loss": _("A lost game pays into the pot"),
    "rum.worth": _("Rum adds"),
    "open_contract.scoring": _("An open contract scores"),
    "open_contract.when": _("Open cards are shown at"),
    "revolution.value": _("Revolution is worth"),
    "trump_seven.grand": _("In a grand the lowest jack"),
    "skat_en_deux.shown": _("The third hand is shown"),
    "strohmann.shown": _("The dummy is shown"),
    "strohmann.aside_to": _("The cards laid aside count for"),
    "piloten_skat.shown": _("The third hand is shown"),
    "piloten_skat.reduced": _("The form for exactly two"),
    "offiziersskat.deals": _("Deals of a session"),
    "offiziersskat.target": _("A session ends at"),
    "schmegegge.open": _("Cards the half-dummy shows"),
}

VALUE_WORDS = {  # the choices of a parameter, where its word in the ruleset is not the table's
    "announcements.ouvert": {"add": _("adds 1"), "double": _("doubles")},
    "ramsch.scoring": {"augen": _("the loser loses their card points"), "fixed": _("the loser loses a fixed amount"),
                       "texas": _("Texas: fewest points gains 10 or 20"), "gewinner": _("fewest points wins 23"),
                       "petersen": _("Petersen: fewest points wins")},
    "ramsch.skat": {"last_trick": _("the winner of the last trick"), "loser": _("the loser"), "nobody": _("nobody")},
    "ramsch.ties": {"full": _("in full"), "half": _("half each")},
    "ramsch.durchmarsch": {"plus120": "+120", "times4": "+480", "win": _("wins like a winner"), "none": _("no special rule")},
    "ramsch.tens": {"high": _("above the king"), "low": _("below the queen"), "low_one_point": _("below the queen, 1 point")},
    "kontra.window": {"own_first_card": _("the defender's own first card"), "first_lead": _("the first lead")},
    "kontra.who": {"anyone": _("any defender"), "bid_or_held": _("a defender who bid or held"),
                   "rule_18": _("not one who passed at 18")},
    "bock.overlap": {"queue": _("one after another"), "simultaneous": _("at the same time")},
    "bock.round": {"table": _("one per player")},
    "bock.unfinished": {"drop": _("dropped"), "play_out": _("played out")},
    "money.method": {"pairwise": _("pairwise differences"), "direct": _("each total times the stake"), "none": _("no money")},
    "settlement.mode": {"classic": _("the declarer's line only"), "money": _("the declarer with each defender")},
}

PLAYER_WORDS = {"heuristic": _("heuristic bots"), "random": _("random players"), "expert": _("expert bots (slow)")}

YES, NO, ON, OFF, UNSET = _("yes"), _("no"), _("played"), _("not played"), _("as usual")


@dataclass(frozen=True)
class Row:
    """One rule in words: what it is, its value in the parent and here (already in the page's language)."""

    rule: str
    before: str
    after: str


def plugin_words(key: str, _: Callable[[str], str]) -> str:
    return _(PLUGIN_WORDS[key]) if key in PLUGIN_WORDS else key.replace("_", " ").capitalize()


def param_words(key: str, name: str, schema: dict | None, _: Callable[[str], str]) -> str:
    """``Grand is worth`` for ``official.grand_base``; an unknown one by its schema's description."""
    if f"{key}.{name}" in PARAM_WORDS:
        return _(PARAM_WORDS[f"{key}.{name}"])
    desc = ((schema or {}).get("properties", {}).get(name) or {}).get("description")
    return f"{plugin_words(key, _)}: {desc or name.replace('_', ' ')}"


def value_words(value: object, _: Callable[[str], str], choices: dict | None = None) -> str:
    """A value as a player reads it: yes / no, 24, schneider, schwarz, {null: 20, ...}; ``choices``: a parameter's own words."""
    from skatcore.rules.describe import param_text

    if choices and isinstance(value, str | int) and value in choices:
        return _(choices[value])
    if value is None:
        return _(UNSET)
    if isinstance(value, bool):
        return _(YES) if value else _(NO)
    if isinstance(value, list):
        return ", ".join(value_words(v, _) for v in value) or "-"
    if isinstance(value, str):
        return value.replace("_", " ")
    if isinstance(value, dict):
        return ", ".join(f"{str(k).replace('_', ' ')} {value_words(v, _)}" for k, v in value.items()) or "-"
    return param_text(value)


def differences(parent, rules, schemas: dict[str, dict], _: Callable[[str], str]) -> list[Row]:
    """What compiled ``rules`` change in compiled ``parent``: plugins played or
    not, then each parameter of a plugin both play whose value differs."""
    before = {spec.key: spec.params for spec in parent.plugins}
    after = {spec.key: spec.params for spec in rules.plugins}
    rows = [Row(plugin_words(k, _), _(ON), _(OFF)) for k in before if k not in after]
    for key in (k for k in after if k not in before):
        rows.append(Row(plugin_words(key, _), _(OFF), _(ON)))
        props = (schemas.get(key) or {}).get("properties", {})
        for name, value in sorted(after[key].items()):  # what the ruleset sets otherwise than the plugin's default
            if "default" not in props.get(name, {}) or props[name]["default"] != value:
                said = VALUE_WORDS.get(f"{key}.{name}")
                rows.append(Row(param_words(key, name, schemas.get(key), _), "–", value_words(value, _, said)))
    for key, params in after.items():
        if key in before:
            for name in sorted(set(params) | set(before[key])):
                old, new = before[key].get(name), params.get(name)
                if old != new:
                    said = VALUE_WORDS.get(f"{key}.{name}")
                    rows.append(Row(param_words(key, name, schemas.get(key), _), value_words(old, _, said),
                                    value_words(new, _, said)))
    return rows


def plugin_rows(rules, schemas: dict[str, dict], _: Callable[[str], str]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Every plugin the ruleset plays, in words, with its parameters in words."""
    return [(plugin_words(spec.key, _), [(param_words(spec.key, n, schemas.get(spec.key), _),
                                          value_words(v, _, VALUE_WORDS.get(f"{spec.key}.{n}")))
                                         for n, v in sorted(spec.params.items())])
            for spec in rules.plugins]


FORM_WORDS = {"skat": _("after the skat"), "hand": _("hand"), "skat ouvert": _("ouvert after the skat"),
              "hand ouvert": _("hand ouvert")}


def games(rules, _: Callable[[str], str], count: Callable[[str], str]) -> list[tuple[str, str]]:
    """Each game a declarer may play (and the Ramsch) with its value in words: ``Clubs, hand: 12, lost ×2``."""
    from skatcore.model import Declaration, null_label
    from skatcore.rules.describe import forms

    out = []
    for c in rules.contracts.values():
        game = _first_up(count(c.name))
        if c.base is not None:
            for label, d in forms(rules, c):
                value = _("{value}, lost ×{factor}").format(value=rules.base_value(d), factor=rules.lost_factor_of(d))
                out.append((f"{game}, {_(FORM_WORDS[label]) if label in FORM_WORDS else count(label)}", value))
        elif c.fixed:
            for (hand, ouvert), v in sorted(c.fixed.items(), key=lambda kv: kv[1]):
                factor = rules.lost_factor_of(Declaration(c.name, hand, ouvert=ouvert))
                out.append((_first_up(count(null_label(hand, ouvert))),
                            _("{value}, lost {loss}").format(value=v, loss=-factor * v)))
        else:
            out.append((game, _("no declarer")))
    return out


def _first_up(text: str) -> str:
    return text[:1].upper() + text[1:]
