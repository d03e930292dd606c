"""``skat score --json`` records per CPU second, this checkout against another
(issue 39, P4), as ``skat bench`` measures them (``score_json_records_per_s``,
``score_yaml_records_per_s``, ``score_iss_games_per_s``):

    python tools/score_speed.py --against ../old-checkout [--rounds 3] [--seconds 2]

The record files are made once, by this checkout (``skatcore.sim.speed``'s
random deals as JSON and YAML deal records and as an ISS archive); then, for
each round, a child process per checkout scores them in turn - this one,
the other, alternately, so that other work on the machine slows both alike -
each with its own code (and its own plugins and rulesets) on ``PYTHONPATH``, one warm-up pass and then
``--seconds`` of CPU time.  Prints each checkout's median rate per format
and this one's over the other's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# run in the child, with the checkout's skatcore first on the path
_CHILD = """
import io, json, sys, time
from skatcore.records.stream import score_output
files, count, seconds = json.loads(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])

def step():
    sink = io.StringIO()
    for item in score_output(files, as_json=True):
        if not isinstance(item, str):
            raise SystemExit(f"skat score failed: {item}")
        print(item, file=sink)
    return count

step()
n, t0 = 0, time.process_time()
while time.process_time() - t0 < seconds:
    n += step()
print(n / (time.process_time() - t0))
"""


def make_files(folder: Path, n: int, iss_games: int) -> dict[str, tuple[list[str], int]]:
    """The three kinds of input, as ``skat bench`` makes them: format -> (files, records)."""
    import yaml

    from skatcore.records.stream import FAST_ISS_BYTES
    from skatcore.records.writer import deal_record
    from skatcore.rules import get_rules
    from skatcore.sim.speed import declarer_deals, iss_line

    docs = [deal_record(deal) for deal in declarer_deals(get_rules("official"), n)]
    out: dict[str, tuple[list[str], int]] = {}
    for fmt, dump in (("json", json.dumps), ("yaml", lambda d: yaml.safe_dump(d, sort_keys=False))):
        files = []
        for k, doc in enumerate(docs):
            path = folder / f"deal{k}.{fmt}"
            path.write_text(dump(doc), encoding="utf-8")
            files.append(str(path))
        out[fmt] = (files, len(files))
    text = "".join(iss_line(deal, k) + "\n" for k, deal in enumerate(declarer_deals(get_rules("official"), iss_games)))
    copies = -(-FAST_ISS_BYTES // len(text.encode()))
    games = folder / "games.sgf"
    games.write_text(text * copies, encoding="utf-8")
    out["iss"] = ([str(games)], iss_games * copies)
    return out


def shim(checkout: Path, folder: Path) -> Path:
    """A folder naming the checkout's plugins and rulesets as the installed
    packages do (``skatcore_plugins``, ``skatcore_rulesets``): the editable
    install would otherwise give every checkout this one's."""
    out = folder / f"shim-{abs(hash(str(checkout)))}"
    out.mkdir()
    for name, source in (("skatcore_plugins", "plugins"), ("skatcore_rulesets", "rulesets")):
        (out / name).symlink_to(checkout / source, target_is_directory=True)
    return out


def rate(checkout: Path, files: list[str], count: int, seconds: float, shims: dict[Path, Path]) -> float:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(checkout), str(shims[checkout])))}
    proc = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(files), str(count), str(seconds)],
                          env=env, capture_output=True, text=True, cwd=checkout)
    if proc.returncode:
        raise SystemExit(f"score_speed: {checkout}: {proc.stderr.strip().splitlines()[-1:]}")
    return float(proc.stdout.strip())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", required=True, metavar="CHECKOUT", help="the other source tree (a git worktree)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per child after its warm-up")
    ap.add_argument("--records", type=int, default=200)
    ap.add_argument("--iss-games", type=int, default=1000)
    args = ap.parse_args(argv)
    other = Path(args.against).resolve()
    if not (other / "skatcore" / "records" / "stream.py").is_file():
        print(f"score_speed: {other}: not a skatcore checkout with skatcore/records/stream.py", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        inputs = make_files(Path(tmp), args.records, args.iss_games)
        shims = {checkout: shim(checkout, Path(tmp)) for checkout in (ROOT, other)}
        rates: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.rounds):
            for fmt, (files, count) in inputs.items():
                for name, checkout in (("this", ROOT), ("other", other)):
                    rates.setdefault((fmt, name), []).append(rate(checkout, files, count, args.seconds, shims))
    result = {}
    for fmt in inputs:
        this, that = (statistics.median(rates[fmt, n]) for n in ("this", "other"))
        result[fmt] = {"this": round(this), "other": round(that), "ratio": round(this / that, 3),
                       "runs_this": [round(r) for r in rates[fmt, "this"]],
                       "runs_other": [round(r) for r in rates[fmt, "other"]]}
        print(f"{fmt:>5}: this {this:8.0f}/s   {other.name} {that:8.0f}/s   this/other {this / that:.2f}")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
