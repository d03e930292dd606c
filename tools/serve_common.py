"""Shared by tools/serve_load.py and tools/serve_two_phones.py: a real
``skat serve`` process on a free local port, and an organiser's client."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(sheets: Path, port: int) -> tuple[subprocess.Popen, str, str]:
    """``skat serve`` on 127.0.0.1:port; (process, base url, organiser key)."""
    proc = subprocess.Popen([str(Path(sys.executable).parent / "skat"), "serve", "--port", str(port), "--sheets", str(sheets)],
                            stdout=subprocess.PIPE, text=True)
    for line in proc.stdout:
        m = re.search(r"open (http://\S+)/\?key=(\w+)", line)
        if m:
            base, key = m.groups()
            break
    else:
        raise SystemExit("skat serve printed no organiser link")
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return proc, base, key
        except OSError:
            time.sleep(0.1)
    raise SystemExit("skat serve does not answer")


def organiser(base: str, key: str):
    """An httpx client holding the organiser's cookie and its CSRF token."""
    import httpx

    client = httpx.Client(base_url=base, timeout=30)
    client.get(f"/?key={key}")
    client.get("/")
    client.headers["X-CSRF-Token"] = client.cookies["skat_csrf"]
    return client


def new_sheet(client, name: str, players: str = "Anna, Ben, Cara, Dirk", ruleset: str = "pub") -> str:
    """A new sheet; its join code."""
    r = client.post("/sheets", data={"name": name, "players": players, "ruleset": ruleset, "stake": "0.05"},
                    follow_redirects=True)
    r.raise_for_status()
    return re.search(r'data-testid="join-code">(\w+)<', r.text).group(1)
