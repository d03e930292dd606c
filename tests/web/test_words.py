"""One language at a time: every text a page says through ``_()`` has its
German in ``skatcore/web/lang/``, and the language follows the switch and
the browser."""

from __future__ import annotations

import re
from pathlib import Path

import skatcore.web

WEB = Path(skatcore.web.__file__).parent
# _("...") and _('...') in templates and in the web app's Python
SAID = re.compile(r"""\b_\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')""")


def said() -> set[str]:
    texts = set()
    for path in [*WEB.glob("templates/*.html"), *WEB.glob("*.py")]:
        for m in SAID.finditer(path.read_text(encoding="utf-8")):
            texts.add((m.group(1) if m.group(1) is not None else m.group(2)).replace('\\"', '"').replace("\\'", "'"))
    return texts


def test_every_text_a_page_says_has_its_german():
    from skatcore.web.i18n import german

    missing = sorted(t for t in said() if t not in german())
    assert not missing, f"{len(missing)} texts without German in skatcore/web/lang/: {missing[:20]}"


def test_the_german_placeholders_are_the_english_ones():
    from skatcore.web.i18n import german

    for en, de in german().items():
        assert sorted(re.findall(r"\{\w+\}", en)) == sorted(re.findall(r"\{\w+\}", de)), (en, de)


def test_the_language_follows_the_switch_then_the_browser():
    from skatcore.web.i18n import language

    assert language(None, "de-DE,de;q=0.9,en;q=0.8") == "de"
    assert language(None, "fr-FR,en;q=0.5") == "en"
    assert language("en", "de-DE") == "en"
    assert language(None, None) == "en"
    assert language("xx", "de") == "de"


def test_a_count_in_german():
    from skatcore.web.i18n import count_words

    assert count_words("with 1, game 2; 2 x clubs 12 = 24: won +24", "de") == "mit 1, Spiel 2; 2 x Kreuz 12 = 24: gewonnen +24"
    assert count_words("with 1, game 2; 2 x clubs 12 = 24: won +24", "en") == "with 1, game 2; 2 x clubs 12 = 24: won +24"


def test_the_switch(web):
    r = web.get("/lang/de?next=/rules", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/rules"
    assert ">Regeln<" in web.get("/rules").text
    assert web.get("/lang/de?next=//evil.example", follow_redirects=False).headers["location"] == "/"
    web.get("/lang/en")
    assert ">Rules<" in web.get("/rules").text


def test_the_words_of_the_form_tables_have_their_german():
    from skatcore.web.entry import GAME_WORDS
    from skatcore.web.i18n import german
    from skatcore.web.sheets import LABELS, PUSH_WORDS, SEAT_WORDS

    tables = [*GAME_WORDS.values(), *SEAT_WORDS.values(), *PUSH_WORDS.values(), *LABELS.values()]
    calls = {c.capitalize() for name in _shipped() for c in _rules(name).calls}
    assert not [w for w in [*tables, *sorted(calls)] if w not in german()]


def _shipped():
    from skatcore.rules.ruleset import shipped_rulesets

    return sorted(shipped_rulesets())


def _rules(name):
    from skatcore.rules.compiler import get_rules

    return get_rules(name)


def test_a_refusal_is_a_german_sentence(web):
    """The engine's refusals a deal form meets, whole sentences (not English words with German ones between)."""
    from conftest import csrf, new_sheet

    new_sheet(web)
    web.get("/lang/de")
    cases = [({"declarer": "Anna", "game": "clubs", "matadors": "with1", "points": "70", "bid": "18"},
              "Alleinspieler: Anna gibt und setzt bei diesem Spiel aus"),
             ({"game": "ramsch", "ramsch_seat": ["0", "8", "112"], "ramsch_trick_seat": ["0", "7", "3"],
               "last_trick": "rearhand"}, "Ramsch-Augen: 8 Augen passen nicht zu 7 Stichen (möglich: 24 bis 142)"),
             ({"declarer": "Ben", "game": "null", "null_tricks": "0", "bid": "30"},
              "Null ist 23 wert, weniger als der Reizwert 30")]
    for data, said in cases:
        r = web.post("/s/eve/deals", data=data, headers=csrf(web))
        assert r.status_code == 422 and said in r.text, r.text
    from skatcore.web.i18n import refusal_words

    assert refusal_words("an unknown sentence with clubs", "de") == "an unknown sentence with clubs"  # English whole


def test_every_refusal_of_a_page_has_its_german(web):
    """Each Problem the pages raise with a fixed line is in the German table, and a German page says it so."""
    import re as regex
    from pathlib import Path

    from conftest import new_sheet

    from skatcore.web.i18n import german

    folder = Path(__file__).parents[2] / "skatcore" / "web"
    lines = {m for path in folder.glob("*.py") for m in regex.findall(r'Problem\(\d+, "([^"{]*(?:\{\w+\}[^"{]*)*)"',
                                                                    path.read_text())}
    assert len(lines) >= 10 and not sorted(lines - set(german()))
    new_sheet(web)
    web.get("/lang/de")
    r = web.get("/s/eve/deals/9")
    assert r.status_code == 404 and "Nicht möglich" in r.text and "kein Spiel 9 (die Liste hat 0)" in r.text
