"""Load test of ``skat serve`` (issue 22's target: a page answers in under
100 ms at p95 with 10 devices polling).  Against a local server only,
bounded in time:

    .venv/bin/python tools/serve_load.py [--devices 10] [--seconds 30] [--deals 40]

A sheet with ``--deals`` deals is started; ``--devices`` phones join it and
poll the live list every second as the page does (``/s/NAME/body?v=...``,
a full page now and then); one scorer adds a deal every 3 s, so the polls
after it render the whole list.  Prints p50/p95/max of every request.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx
from serve_common import free_port, new_sheet, organiser, start

DEAL = {"declarer": "", "game": "clubs", "matadors": "with1", "points": "74", "bid": "18"}


def add_deal(client, name: str, i: int) -> None:
    players = ["Anna", "Ben", "Cara", "Dirk"]
    for who in random.Random(i).sample(players, 4):  # the dealer sits out: another one declares
        r = client.post(f"/s/{name}/deals", data={**DEAL, "declarer": who, "id": f"load{i}",
                                                   "points": str(random.Random(i).choice([31, 44, 74, 95]))})
        if "sits out" not in r.text:
            return


def device(base: str, code: str, name: str, stop: float, times: list[float]) -> None:
    with httpx.Client(base_url=base, timeout=30) as c:
        c.get(f"/j/{code}", follow_redirects=True)
        version, polls = "", 0
        while time.monotonic() < stop:
            t = time.perf_counter()
            r = c.get(f"/s/{name}" if polls % 30 == 0 else f"/s/{name}/body?v={version}")
            times.append(time.perf_counter() - t)
            if r.status_code == 200 and (m := re.search(r'data-version="(\w+)"', r.text)):
                version = m.group(1)
            polls += 1
            time.sleep(max(0.0, 1.0 - (time.perf_counter() - t)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--devices", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--deals", type=int, default=40)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, base, key = start(Path(tmp), free_port())
        try:
            org = organiser(base, key)
            code = new_sheet(org, "load")
            for i in range(args.deals):
                add_deal(org, "load", i)
            stop = time.monotonic() + args.seconds
            times: list[float] = []
            threads = [threading.Thread(target=device, args=(base, code, "load", stop, times)) for _ in range(args.devices)]
            for t in threads:
                t.start()
            i = args.deals
            while time.monotonic() < stop:
                time.sleep(3)
                add_deal(org, "load", i)
                i += 1
            for t in threads:
                t.join()
            ms = sorted(x * 1000 for x in times)
            p95 = ms[int(0.95 * (len(ms) - 1))]
            print(f"{args.devices} devices polling for {args.seconds:g} s, a deal added every 3 s "
                  f"({args.deals} deals at the start, {i} at the end): {len(ms)} requests; "
                  f"p50 {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms")
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
