"""The deal form as a browser posts it: every input of the form, seen or
not (a Ramsch still carries the bid list's choice), for every shipped
ruleset; each test here failed on the form before issue 34 (W1, W2, W6, W7)."""

from __future__ import annotations

import re

import pytest
from conftest import csrf, new_sheet

from skatcore.rules.ruleset import shipped_rulesets

TWO_PLAYERS = {"offiziersskat", "oma-skat", "piloten-skat", "schmegegge", "skat-en-deux", "strohmann"}


def players_of(ruleset: str) -> str:
    return "Anna, Ben" if ruleset in TWO_PLAYERS else "Anna, Ben, Cara, Dirk"


def test_the_two_player_list_is_the_shipped_one():
    from skatcore.engine.table import people
    from skatcore.testing import compile_with

    two = {name for name in shipped_rulesets() if len(people(compile_with(name))) == 2}
    assert two == TWO_PLAYERS


@pytest.mark.parametrize("ruleset", sorted(shipped_rulesets()))
def test_every_shipped_ruleset_s_sheet_opens(web, ruleset):
    """W2: the ramsch ruleset has no bid ladder; its sheet was a 500."""
    new_sheet(web, players=players_of(ruleset), ruleset=ruleset, stake="")
    r = web.get("/s/eve")
    assert r.status_code == 200
    assert r.text.count('name="game"') >= 1


def _form_as_posted(page: str) -> dict:
    """What a browser posts of the new-deal form untouched: the hidden fields and the selects' first choices."""
    data = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', page))
    if m := re.search(r'<select name="bid">(.*?)</select>', page, re.S):
        data["bid"] = re.search(r"<option[^>]*>(\d+)<", m.group(1)).group(1)
    return data


RAMSCH = {"game": "ramsch", "ramsch_seat": ["30", "40", "50"], "ramsch_trick_seat": ["3", "3", "4"],
          "last_trick": "rearhand"}


@pytest.mark.parametrize("ruleset", ["pub", "schieberamsch", "ramsch", "texas"])
def test_a_ramsch_is_saved_as_the_browser_posts_it(web, ruleset):
    """W1: the form always sent a bid, and the server refused a Ramsch with one."""
    new_sheet(web, ruleset=ruleset, stake="")
    posted = _form_as_posted(web.get("/s/eve").text)
    if ruleset in ("pub", "texas"):
        assert "bid" in posted  # the page offers a bid: the Ramsch must not send it
    r = web.post("/s/eve/deals", data={**posted, **RAMSCH, "id": "r1"}, headers=csrf(web))
    assert r.status_code == 200, r.text
    deals = web.get("/s/eve/sheet.json").json()["deals"]
    assert len(deals) == 1 and "amsch" in deals[0]["game"]


def _bock_then_ramsch_round(web) -> str:
    """pub: a 60-60 opens a Bock round (four deals at a four-table), then a Ramsch round; the last save's answer."""
    new_sheet(web, stake="")
    declarers = ["Ben", "Cara", "Dirk", "Anna", "Ben"]  # forehand of each deal (the dealer sits out)
    for i, who in enumerate(declarers):
        r = web.post("/s/eve/deals", data={"declarer": who, "game": "clubs", "matadors": "with1", "bid": "18",
                                           "points": "60" if i == 0 else "70", "id": f"d{i}"}, headers=csrf(web))
        assert r.status_code == 200, r.text
    return r.text


def test_a_ramsch_round_deal_is_saved_from_the_page(web):
    _bock_then_ramsch_round(web)
    page = web.get("/s/eve").text
    assert 'id="g-ramsch" checked' in page and 'id="g-clubs"' not in page  # nothing else is played now
    r = web.post("/s/eve/deals", data={**_form_as_posted(page), **RAMSCH, "id": "r1"}, headers=csrf(web))
    assert r.status_code == 200, r.text
    sheet = web.get("/s/eve/sheet.json").json()
    assert len(sheet["deals"]) == 6 and "amsch" in sheet["deals"][-1]["game"]


def test_correcting_an_earlier_deal_during_a_ramsch_round(web):
    """W6: the preview of a correction was checked as the next deal (a Ramsch round: "no bidding")."""
    _bock_then_ramsch_round(web)
    page = web.get("/s/eve/deals/2").text
    data = {**_form_as_posted(page), "declarer": "Cara", "game": "spades", "matadors": "with1", "bid": "18",
            "points": "80"}
    r = web.post("/s/eve/deals/2/preview", data=data, headers=csrf(web))
    assert r.status_code == 200 and 'class="error"' not in r.text
    assert "with 1, game 2; 2 x spades 11 = 22" in r.text and "Bock" in r.text  # deal 2 is in the Bock round: 44
    r = web.post("/s/eve/deals/2", data=data, headers=csrf(web))
    assert r.status_code == 204
    assert web.get("/s/eve/sheet.json").json()["deals"][1]["entries"]["Cara"] == 44


def test_the_bid_list_is_the_whole_ladder(web):
    """W7: the list stopped at 72; a Kreuz hand mit 1 overbid at 77: 84 lost twice, -168 (by hand)."""
    new_sheet(web, stake="")
    page = web.get("/s/eve").text
    bids = [int(b) for b in re.findall(r"<option[^>]*>(\d+)</option>", re.search(r'<select name="bid">(.*?)</select>',
                                                                                 page, re.S).group(1))]
    assert bids[0] == 18 and 77 in bids and bids[-1] == 264
    r = web.post("/s/eve/deals", data={"declarer": "Ben", "game": "clubs", "hand": "on", "matadors": "with1",
                                       "bid": "77", "points": "70", "id": "o1"}, headers=csrf(web))
    assert r.status_code == 200, r.text
    assert web.get("/s/eve/sheet.json").json()["totals"]["Ben"] == -168


def test_the_words_of_a_deal(web):
    """W10: the chips and the count say the same words, in one language; the saved line keeps its Bock; no CLI
    option in a page; a Ramsch never asks for a declarer."""
    shown = _bock_then_ramsch_round(web)  # deals 2-5 are Bock deals
    assert "Deal 5 saved: with 1, game 2; 2 x clubs 12 = 24: won +24 [Bock] → Ben +48" in shown
    r = web.post("/s/eve/deals", data={"game": "ramsch", "id": "r0"}, headers=csrf(web))
    assert r.status_code == 422 and "declarer" not in r.text.lower(), r.text
    new_sheet(web, name="pub2", stake="")
    for data in ({"game": "passed", "id": "p1"}, {"game": "ramsch", "ramsch_seat": ["30", "40"], "id": "p2"},
                 {"declarer": "Ben", "game": "clubs", "bid": "18", "points": "70", "id": "p3"}):
        r = web.post("/s/pub2/deals", data=data, headers=csrf(web))
        assert r.status_code == 422 and not re.search(r"F,M,R|--\w|outcome\.|deals\[", r.text), r.text
    web.get("/lang/de")
    page = web.get("/s/pub2").text
    assert "<span>mit 1</span>" in page and "with 1" not in page
    r = web.post("/s/pub2/preview", data={"declarer": "Ben", "game": "clubs", "matadors": "with1", "bid": "18",
                                          "points": "74"}, headers=csrf(web))
    assert "mit 1, Spiel 2; 2 x Kreuz 12 = 24: gewonnen +24" in r.text


def test_a_deal_with_a_declaration_is_corrected(web):
    """The correction page of a deal with a plugin declaration (Tournée: the turned card) shows it chosen; a 500 before."""
    new_sheet(web, ruleset="tournee", stake="")
    r = web.post("/s/eve/deals", data={"declarer": "Ben", "game": "grand", "matadors": "with1", "points": "70",
                                       "bid": "18", "decl": "tournee_card=second", "id": "t1"}, headers=csrf(web))
    assert r.status_code == 200, r.text
    page = web.get("/s/eve/deals/1")
    assert page.status_code == 200
    assert re.search(r'value="tournee_card=second" checked', page.text)
    assert not re.search(r'value="tournee_card=" checked', page.text)
    new = web.get("/s/eve").text
    assert re.search(r'value="tournee_card=" checked', new)  # a new deal: nothing declared yet
