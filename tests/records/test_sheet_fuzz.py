"""The sheet fuzzer (issue 35): sheets written by ``skat sheet new/add``,
then mutated as an attacker would (views over endless queries in place of
tables, triggers, extra tables, columns and indexes, wrong types, huge
values, many rows, foreign versions, a FIFO, a link out of the folder, and
seeded random byte flips), each opened by ``skat sheet show``, ``add`` and
``export`` and by the web app.  Every one: one line and exit 2 (a page with
one line on the web, never 500), within seconds and bounded memory, and
the file's bytes unchanged.  SKAT_SHEET_FUZZ=N runs N random cases (CI: 40)."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sheet_mutants import ADD, MUTATIONS, craft, digest, untouched

from skatcore.cli.main import main

SLOW = 2.0  # seconds a crafted sheet may take to be refused, at most

ENDLESS_CASES = ("view-meta-endless", "view-deals-endless", "trigger-endless", "generated-column")


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """A good sheet from the project's own writer: three deals under pub."""
    folder = tmp_path_factory.mktemp("base")
    path = folder / "base.sqlite"
    assert main(["sheet", "new", str(path), "--ruleset", "pub", "--players", "A,B,C", "--title", "Friday"]) == 0
    for _ in range(3):
        assert main(["sheet", "add", str(path), *ADD]) == 0
    return path


def one_line(capsys, argv: list[str], *expected: str) -> None:
    t = time.monotonic()
    rc = main(argv)
    took = time.monotonic() - t
    out, err = capsys.readouterr()
    assert rc == 2, (argv[:2], rc, out[:200], err[:300])
    assert err.count("\n") == 1 and err.startswith("skat: error: ") and "Traceback" not in err, err[:300]
    for text in expected:
        assert text in err, (text, err)
    assert took < SLOW, (argv[:2], took)


COMMANDS = (["show"], ["add", *ADD], ["export"])


@pytest.mark.parametrize("case", sorted(MUTATIONS))
def test_a_crafted_sheet_is_one_line_in_every_command(base, tmp_path, capsys, case):
    sql, expected = MUTATIONS[case]
    path = craft(base, tmp_path, sql)
    before = digest(path)
    for command in COMMANDS:
        one_line(capsys, ["sheet", command[0], str(path), *command[1:]], "c.sqlite: ", expected)
        untouched(path, before)


def _skat(*argv: str, timeout: float = 10) -> subprocess.CompletedProcess:
    code = ("import sys\nfrom skatcore.cli.main import main\ntry:\n    rc = main(sys.argv[1:])\nfinally:\n"
            "    hwm = [x for x in open('/proc/self/status') if x.startswith('VmHWM')] if sys.platform == 'linux' else []\n"
            "    print('peak', int(hwm[0].split()[1]) // 1024 if hwm else 0)\nsys.exit(rc)")  # this process's own peak (MB)
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})


def test_endless_sql_never_hangs_a_process(base, tmp_path):
    """Where a hang is possible, in its own process with a timeout; memory bounded (the children's peak)."""
    for case in ENDLESS_CASES:
        sql, expected = MUTATIONS[case]
        path = craft(base, tmp_path, sql, name=case)
        before = digest(path)
        for command in COMMANDS:
            t = time.monotonic()
            r = _skat("sheet", command[0], str(path), *command[1:])
            assert r.returncode == 2 and r.stderr.count("\n") == 1 and expected in r.stderr, (case, command, r.stderr)
            assert time.monotonic() - t < 5, (case, command)
            peak = int(r.stdout.rsplit("peak ", 1)[1])  # (ru_maxrss would count pytest's, kept across fork and exec)
            assert peak < 300, (case, command, peak)
            untouched(path, before)


def test_a_fifo_and_a_link_out_of_the_folder(base, tmp_path, capsys):
    inner = tmp_path / "inner"
    inner.mkdir()
    link = inner / "l.sqlite"
    link.symlink_to(base)
    before = digest(base)
    for command in COMMANDS:
        one_line(capsys, ["sheet", command[0], str(link), *command[1:]], "l.sqlite: a link to a file outside")
    untouched(base, before)
    ok = inner / "ok.sqlite"
    shutil.copy(base, inner / "real.sqlite")
    ok.symlink_to("real.sqlite")  # a link inside the folder is the file itself
    assert main(["sheet", "show", str(ok)]) == 0
    capsys.readouterr()
    if hasattr(os, "mkfifo"):
        fifo = inner / "f.sqlite"
        os.mkfifo(fifo)
        for command in COMMANDS:
            one_line(capsys, ["sheet", command[0], str(fifo), *command[1:]], "not a regular file")


def _mutant(base: Path, folder: Path, rng: random.Random, i: int) -> Path:
    """A random crafted sheet: some of the mutations at once, or bytes flipped."""
    if rng.random() < 0.5:
        picks = rng.sample(sorted(set(MUTATIONS) - {"many-deals", "many-meta", "huge-title", "huge-id", "huge-blob"}), 2)
        try:
            return craft(base, folder, [q for p in picks for q in MUTATIONS[p][0]], name=f"m{i}")
        except sqlite3.Error:
            return craft(base, folder, MUTATIONS[picks[0]][0], name=f"m{i}")
    data = bytearray(base.read_bytes())
    for _ in range(rng.randint(1, 40)):
        data[rng.randrange(100, len(data))] = rng.randrange(256)  # the header kept: SQLite reads the rest
    path = folder / f"m{i}.sqlite"
    path.write_bytes(bytes(data))
    return path


def test_random_mutants(base, tmp_path, capsys):
    """Seeded random mutants: exit 0 (a flip in unused space) or one line and
    exit 2; never exit 1 or a traceback; nothing written by show or export."""
    rng = random.Random(int(os.environ.get("SKAT_SHEET_FUZZ_SEED", "35")))
    for i in range(int(os.environ.get("SKAT_SHEET_FUZZ", "40"))):
        path = _mutant(base, tmp_path, rng, i)
        before = digest(path)
        for command in (["show"], ["export"]):
            t = time.monotonic()
            rc = main(["sheet", command[0], str(path)])
            _out, err = capsys.readouterr()
            assert rc in (0, 2) and "Traceback" not in err, (i, rc, err)
            assert rc == 0 or (err.count("\n") == 1 and err.startswith("skat: error: ")), (i, err)
            assert time.monotonic() - t < SLOW, i
            assert digest(path) == before, i
        path.unlink()


def test_the_limits_of_a_sheet(base, tmp_path, capsys, monkeypatch):
    """Each limit, lowered: refused in one line naming the place, before the values are used."""
    from skatcore.records import sheet_errors, sheet_guard

    path = craft(base, tmp_path, [])
    before = digest(path)
    for env, value, expected in (("SKAT_MAX_SHEET_DEALS", "2", "deals: more than 2 deals"),
                                 ("SKAT_MAX_DOCUMENT_ITEMS", "60", "more than 60 items"),
                                 ("SKAT_MAX_DOCUMENT_BYTES", "1300", "deals: the meta values and deal records together"),
                                 ("SKAT_MAX_DOCUMENT_BYTES", "600", "meta.frozen: a value of")):
        monkeypatch.setenv(env, value)
        for command in COMMANDS:
            one_line(capsys, ["sheet", command[0], str(path), *command[1:]], "c.sqlite: ", expected)
        monkeypatch.delenv(env)
    monkeypatch.setattr(sheet_errors, "MAX_STEPS", 100)  # the step bound: any statement past it is stopped
    monkeypatch.setattr(sheet_guard, "_EVERY", 10)
    one_line(capsys, ["sheet", "show", str(path)], "c.sqlite: ", "reading the sheet took over 100 SQLite steps")
    untouched(path, before)
