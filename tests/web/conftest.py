"""Fixtures of the web app's tests: an app on a temporary sheets folder
(``web``: a TestClient that is the organiser) and a real server
(``server``: uvicorn in a thread, for the browser)."""

from __future__ import annotations

import re
import socket
import threading
import time
import warnings

import pytest

KEY = "organiser2"
PHONE_SIZE = {"width": 390, "height": 844}


def join_code(browser, base: str, sheet: str = "eve") -> str:
    """The join code the organiser's page of ``sheet`` shows (read in a browser context of its own)."""
    desk = browser.new_context(bypass_csp=True).new_page()
    desk.goto(f"{base}/?key={KEY}")
    desk.goto(f"{base}/s/{sheet}")
    code = desk.locator("[data-testid=join-code]").inner_text()
    desk.context.close()
    return code


def organiser_phone(browser, base: str, where: str):
    """The organiser's phone (390 x 844, signed in with the key) at the page ``where`` (``/s/eve``)."""
    page = browser.new_context(viewport=PHONE_SIZE, bypass_csp=True).new_page()
    page.goto(f"{base}/?key={KEY}")
    page.goto(f"{base}{where}")
    return page


def joined_phones(browser, base: str, code: str, n: int = 2) -> list:
    """``n`` phones (each its own browser context, 390 x 844) that joined with ``code``, the deal form shown."""
    phones = []
    for _ in range(n):
        page = browser.new_context(viewport=PHONE_SIZE, bypass_csp=True).new_page()
        page.goto(f"{base}/j/{code}")
        page.wait_for_selector("#entry")
        phones.append(page)
    return phones


@pytest.fixture
def config(tmp_path):
    from skatcore.web.app import Config

    return Config(tmp_path, key=KEY)


@pytest.fixture
def web(config):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # starlette's note on httpx: the client works the same
        from starlette.testclient import TestClient
    from skatcore.web.app import create_app

    client = TestClient(create_app(config), base_url="http://testserver")
    assert client.get(f"/?key={KEY}").status_code == 200
    return client


def csrf(client) -> dict:
    return {"X-CSRF-Token": client.cookies.get("skat_csrf"), "HX-Request": "true"}


def new_sheet(client, name="eve", players="Anna, Ben, Cara, Dirk", ruleset="pub", stake="0.1") -> str:
    """Start a sheet as the organiser; its join code."""
    r = client.post("/sheets", data={"csrf": client.cookies.get("skat_csrf"), "name": name, "players": players,
                                     "ruleset": ruleset, "stake": stake}, follow_redirects=True)
    assert r.status_code == 200, r.text
    return re.search(r'data-testid="join-code">(\w+)<', r.text).group(1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(config):
    """A real server on a free local port: (base url, config)."""
    import uvicorn

    from skatcore.web.app import create_app

    port = free_port()
    config.base_url = f"http://127.0.0.1:{port}"
    srv = uvicorn.Server(uvicorn.Config(create_app(config), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    yield config.base_url, config
    srv.should_exit = True
    thread.join(10)
