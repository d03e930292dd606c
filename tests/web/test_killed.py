"""A killed server loses nothing: ``skat serve`` as its own process, deals
saved, SIGKILL, started again on the same folder: the same sheet, the
same organiser key."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
from conftest import free_port

SKAT = str(Path(sys.executable).parent / "skat")


def _serve(folder: Path, port: int) -> tuple[subprocess.Popen, httpx.Client]:
    proc = subprocess.Popen([SKAT, "serve", "--port", str(port), "--sheets", str(folder)], stdout=subprocess.PIPE, text=True)
    key = re.search(r"\?key=(\w+)", proc.stdout.readline() + proc.stdout.readline()).group(1)
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
    for _ in range(100):
        try:
            client.get(f"/?key={key}")
            break
        except httpx.TransportError:
            time.sleep(0.1)
    client.headers["X-CSRF-Token"] = client.cookies["skat_csrf"]
    return proc, client


def test_the_sheet_survives_a_killed_server(tmp_path):
    port = free_port()
    proc, web = _serve(tmp_path, port)
    try:
        web.post("/sheets", data={"name": "eve", "players": "Anna, Ben, Cara", "ruleset": "official"})
        for i, who in enumerate(["Anna", "Ben", "Cara"]):
            r = web.post("/s/eve/deals", data={"declarer": who, "game": "grand", "matadors": "with2", "points": "70",
                                                "bid": "18", "id": f"d{i}"})
            assert "deal" in r.text
        before = web.get("/s/eve/sheet.json").json()
        proc.send_signal(signal.SIGKILL)  # no shutdown, no flush: what a pulled plug does to the process
        proc.wait(10)
        old, (proc, web) = web, _serve(tmp_path, port)
        assert old.get("/s/eve/sheet.json").status_code == 200  # the organiser's cookie from before: still in
        after = web.get("/s/eve/sheet.json").json()
        assert after == before and len(after["deals"]) == 3
        assert after["totals"] == {"Anna": 72, "Ben": 72, "Cara": 72}  # with 2, game 3 x grand 24 = 72 each
    finally:
        proc.kill()
        proc.wait(10)
