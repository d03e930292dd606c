"""One language at a time on ``skat serve``: English or German, chosen by
the switch in the page header (a cookie) or else by the browser's
``Accept-Language``.

Pages say every word through ``_()`` with the English text; the German of each is
in ``lang/*.yaml`` (one file per group of pages, English -> German), so
that a missing translation is a failing test (tests/web/test_words.py),
not an English word on a German page.  Counts and messages of the engine
are English sentences built from a small vocabulary: :func:`count_words`
says them in German word by word, the words a German table uses.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from importlib import resources

LANGS = ("en", "de")
LANG_COOKIE = "skat_lang"


@functools.cache
def german() -> dict[str, str]:
    """Every page's English text -> its German (all ``lang/*.yaml`` files)."""
    import yaml

    words: dict[str, str] = {}
    for item in sorted(resources.files("skatcore.web").joinpath("lang").iterdir(), key=lambda p: p.name):
        if item.name.endswith(".yaml"):
            doc = yaml.safe_load(item.read_text(encoding="utf-8")) or {}
            for en, de in doc.items():
                if not isinstance(en, str) or not isinstance(de, str):  # YAML reads Null, No, On as others
                    raise ValueError(f"lang/{item.name}: {en!r}: {de!r} is not text -> text (quote it)")
                if en in words and words[en] != de:
                    raise ValueError(f"lang/{item.name}: {en!r} is translated twice, differently")
                words[str(en)] = str(de)
    return words


def language(cookie: str | None, accept: str | None) -> str:
    """The page language: the switch's cookie, else the first of the
    browser's languages we speak, else English."""
    if cookie in LANGS:
        return cookie
    for part in (accept or "").split(",")[:20]:
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in LANGS:
            return tag
    return "en"


Translate = Callable[..., str]


def translator(lang: str) -> Translate:
    """``_(text, **values)``: ``text`` in ``lang``, ``{name}`` filled in with ``values``."""
    words = german() if lang == "de" else {}

    def _(text: str, **values: object) -> str:
        said = words.get(text, text)
        return said.format(**values) if values else said

    return _


# ---------------------------------------------------------------------------
# The engine's counts and messages in German
# ---------------------------------------------------------------------------

_COUNT_DE = [  # longest first where one contains another
    ("all passed: thrown in, no score", "eingepasst: nicht gewertet"), ("still to play out", "noch zu spielen"),
    ("Ramsch-round deals", "Ramschrunden-Spiele"), ("Ramsch-round deal", "Ramschrunden-Spiel"), ("Bock deals", "Bockspiele"),
    ("Bock deal", "Bockspiel"), ("Ramsch round", "Ramschrunde"), ("a Ramsch, or a grand hand instead of pushing",
                                                                   "ein Ramsch, oder Grand Hand statt Schieben"),
    ("a Ramsch", "ein Ramsch"), ("give each player's card points", "die Augen jedes Spielers eingeben"),
    ("next deal", "nächstes Spiel"), ("fewest points", "wenigste Augen"), ("most points", "meiste Augen"),
    ("declarer took a trick", "Alleinspieler hat einen Stich"), ("overbid", "überreizt"),
    ("without", "ohne"), ("with", "mit"), ("game", "Spiel"), ("hand", "Hand"), ("schneider announced",
                                                                              "Schneider angesagt"),
    ("schwarz announced", "Schwarz angesagt"), ("schneider", "Schneider"), ("schwarz", "Schwarz"),
    ("ouvert", "ouvert"), ("clubs", "Kreuz"), ("spades", "Pik"), ("hearts", "Herz"), ("diamonds", "Karo"),
    ("grand", "Grand"), ("null", "Null"), ("ramsch", "Ramsch"), ("won", "gewonnen"), ("lost", "verloren"),
    ("bid", "Reizwert"), ("kontra", "Kontra"), ("re", "Re"), ("bock", "Bock"), ("points", "Augen"),
    ("forehand", "Vorhand"), ("middlehand", "Mittelhand"), ("rearhand", "Hinterhand"), ("loses their", "verliert seine"),
    ("jungfrau", "Jungfrau"), ("durchmarsch", "Durchmarsch"), ("pushed", "geschoben"), ("blind", "blind"),
    ("only", "nur"), ("the declarer", "der Alleinspieler"), ("declarer", "Alleinspieler"), ("defenders", "Gegenspieler"),
    ("and", "und"), ("a trick", "einen Stich"), ("tricks", "Stiche"), ("trick", "Stich"), ("no score", "nicht gewertet"),
]
_COUNT_RE = re.compile(r"\b(" + "|".join(re.escape(en) for en, _ in sorted(_COUNT_DE, key=lambda w: -len(w[0])))
                       + r")\b", re.IGNORECASE)
_COUNT_MAP = {en: de for en, de in _COUNT_DE}


def count_words(text: str, lang: str) -> str:
    """A count of the engine (``with 1, game 2; 2 x clubs 12 = 24: won +24``)
    in ``lang``: word by word, each word the one a German table says."""
    if lang != "de":
        return text
    return _COUNT_RE.sub(lambda m: _COUNT_MAP.get(m.group(0).lower(), m.group(0)), text)


# ---------------------------------------------------------------------------
# The refusals a deal form can meet, whole sentences in German
# ---------------------------------------------------------------------------

_GAME = r"((?:clubs|spades|hearts|diamonds|grand|null|ramsch)(?: hand| ouvert)*)"
_REFUSALS_DE = [(re.compile(en), de) for en, de in (
    (r"(.+) deals and sits out this deal", "{0} gibt und setzt bei diesem Spiel aus"),
    (r"ruleset '(.+)' has no bidding(?:: no bid)?", "unter {0} wird nicht gereizt: kein Reizwert"),
    (_GAME + r" is worth (\d+), below the bid (\d+)", "{0} ist {1} wert, weniger als der Reizwert {2}"),
    (_GAME + r" cannot be declared after picking up the skat in this ruleset",
     "{0} darf hier nicht nach Aufnahme des Skats gespielt werden"),
    (_GAME + r" is not played in this ruleset", "{0} wird nach diesen Regeln nicht gespielt"),
    (r"the bidding is already over", "das Reizen ist schon vorbei"),
    (r"(\d+) card points do not fit (\d+) tricks? and the skat \(expected (\d+) to (\d+)\)",
     "{0} Augen passen nicht zu {1} Stichen und dem Skat (möglich: {2} bis {3})"),
    (r"(\d+) card points do not fit (\d+) tricks? \(expected (\d+) to (\d+)\)",
     "{0} Augen passen nicht zu {1} Stichen (möglich: {2} bis {3})"),
    (r"points add up to (\d+), expected (\d+) to (\d+)", "die Augen ergeben {0}, möglich sind {1} bis {2}"),
    (r"points add up to (\d+), expected (\d+).*", "die Augen ergeben {0}, erwartet {1}"),
    (r"tricks add up to (\d+), expected (\d+)", "die Stiche ergeben {0}, erwartet {1}"),
    (r"expected three numbers, got (.+)", "drei Zahlen erwartet, nicht {0}"),
    (r"deal (\d+) is void already", "Spiel {0} ist schon gestrichen"),
    (r"the last deal is deal (\d+), not (\d+): nothing was taken back",
     "das letzte Spiel ist Spiel {0}, nicht {1}: nichts wurde zurückgenommen"),
    (r"the sheet has no deals to undo", "die Liste hat keine Spiele zum Zurücknehmen"),
    (r"this deal is on the sheet already \(deal (\d+)\)", "dieses Spiel steht schon auf der Liste (Spiel {0})"),
    (r"deal (\d+) was changed on another device since you opened it.*",
     "Spiel {0} wurde inzwischen auf einem anderen Gerät geändert: bitte neu öffnen"),
    (r"a grand may be declared only after all have pushed", "ein Grand darf erst angesagt werden, wenn alle geschoben haben"),
    (r"schneider, schwarz and ouvert may be announced only in hand games",
     "Schneider, Schwarz und ouvert dürfen nur im Handspiel angesagt werden"),
    (r"only grand and null may be played ouvert in (.+)", "in {0} dürfen nur Grand und Null ouvert gespielt werden"),
)]


def refusal_words(text: str, lang: str) -> str:
    """A refusal of the engine in ``lang``: a sentence of the table above in
    German, its game words as a German table says them; a sentence not in
    the table stays English whole (never half translated)."""
    if lang != "de":
        return text
    for pattern, german_text in _REFUSALS_DE:
        if m := pattern.fullmatch(text):
            return german_text.format(*(count_words(g, lang) for g in m.groups()))
    return text
