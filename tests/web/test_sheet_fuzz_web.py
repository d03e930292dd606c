"""The web app and the sheet fuzzer's crafted sheets (issue 35): the server
starts and draws its home page with hostile sheets in its folder, lists
each as one it cannot read, and refuses each page of one in one line,
never 500, never writing it."""

from __future__ import annotations

import os
import shutil
import time

import pytest
from sheet_mutants import ADD, MUTATIONS, craft, digest

from skatcore.cli.main import main

SLOW = 2.0
HOSTILE = ("view-meta-endless", "view-deals-endless", "trigger-deletes", "many-deals", "huge-title", "extra-column")


@pytest.fixture
def base(tmp_path_factory):
    path = tmp_path_factory.mktemp("base") / "base.sqlite"
    assert main(["sheet", "new", str(path), "--ruleset", "pub", "--players", "A,B,C", "--title", "Friday"]) == 0
    for _ in range(3):
        assert main(["sheet", "add", str(path), *ADD]) == 0
    return path


def client_of(config):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from skatcore.web.app import create_app

    client = TestClient(create_app(config), base_url="http://testserver")
    assert client.get(f"/?key={config.key}").status_code == 200
    return client


def test_the_server_lists_a_hostile_sheet_and_refuses_it_in_one_line(base, config, capsys):
    shutil.copy(base, config.sheets / "good.sqlite")
    crafted = {case: craft(base, config.sheets, MUTATIONS[case][0], name=case) for case in HOSTILE}
    if hasattr(os, "mkfifo"):
        os.mkfifo(config.sheets / "fifo.sqlite")
    (config.sheets / "out.sqlite").symlink_to(base)
    digests = {p: digest(p) for p in crafted.values()}
    capsys.readouterr()
    t = time.monotonic()
    web = client_of(config)  # the start reads no sheet fully
    home = web.get("/")
    assert home.status_code == 200 and time.monotonic() - t < 3
    # each listed by its meta alone: many-deals (its meta is fine) is refused when opened, the rest at once
    assert home.text.count("cannot be read: ") == len(crafted) - 1 + 1 + hasattr(os, "mkfifo"), home.text
    assert 'href="/s/good"' in home.text and "Friday" in home.text
    t = time.monotonic()
    assert web.get("/").status_code == 200 and time.monotonic() - t < 1  # the home page with hostile sheets in the folder
    for case, path in crafted.items():
        for url in (f"/s/{case}", f"/s/{case}/body", f"/s/{case}/export.json", f"/s/{case}/sheet.json",
                    f"/s/{case}/deals/1"):
            t = time.monotonic()
            r = web.get(url)
            assert 400 <= r.status_code < 500 and "Traceback" not in r.text, (url, r.status_code, r.text[:300])
            assert time.monotonic() - t < SLOW, url
        r = web.post(f"/s/{case}/deals", data={"csrf": web.cookies.get("skat_csrf"), "declarer": "A", "bid": "18",
                                               "game": "grand", "points": "70", "matadors": "with1"})
        assert 400 <= r.status_code < 500, (case, r.status_code, r.text[:300])
        assert digest(path) == digests[path], case
    assert web.get("/s/good").status_code == 200
