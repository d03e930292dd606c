"""A ``Content-Length`` header that is no number is refused as any other
request the bound refuses (413), before the app: ``²`` passed ``isdigit``
and stopped the middleware with a ValueError (a 500 and a traceback)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from skatcore.web.security import MAX_BODY, Guard


async def _app(scope, receive, send):
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


def status(length: bytes) -> int:
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": "/", "raw_path": b"/", "query_string": b"", "root_path": "",
             "scheme": "http", "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 1), "http_version": "1.1",
             "headers": [(b"host", b"127.0.0.1"), (b"content-length", length)]}
    with ThreadPoolExecutor(1) as thread:  # a loop of its own (after a Playwright test this thread's loop runs)
        thread.submit(lambda: asyncio.run(Guard(_app)(scope, receive, send))).result()
    return next(m["status"] for m in sent if m["type"] == "http.response.start")


@pytest.mark.parametrize(("length", "expected"), [(b"5", 200), (str(MAX_BODY).encode(), 200), ("²".encode("latin-1"), 413),
                                                  ("1²".encode("latin-1"), 413), (b"-1", 413),
                                                  (str(MAX_BODY + 1).encode(), 413)])
def test_content_length(length, expected):
    assert status(length) == expected
