"""numba's cache filled in the background, one compiling process at a time,
and the line a waiting or compiling command shows (skatcore/warmup.py).

The lock and the note live in ``NUMBA_CACHE_DIR``: each test points it at
its own folder, a new machine to the warm-up.  The compiles are of the
smallest compiled part, the seeded dealing (about 2 s of CPU)."""

from __future__ import annotations

import fcntl
import io
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from numba import config

from skatcore import warmup
from skatcore.cache_stamp import PACKAGE
from skatcore.cli.main import main
from skatcore.sim import warming

pexpect = pytest.importorskip("pexpect")
jit = pytest.mark.skipif(bool(getattr(config, "DISABLE_JIT", 0)), reason="nothing compiles without the compiler")

DEAL = "from skatcore.sim.dealing import seeded_deals; seeded_deals(1, 0, 10); print('dealt')"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A new machine: an empty cache folder, the warm-up allowed (the other tests turn it off)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("SKAT_NO_WARM", raising=False)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    yield tmp_path
    warmup.compiled()  # a test that left the lock held lets go
    assert warmup._held is None


@pytest.fixture
def spawned(monkeypatch):
    """The warm-ups started, each a copy of the lock's descriptor held as the real one holds it."""
    fds: list[int] = []
    monkeypatch.setattr(warmup, "_spawn", lambda fd, parts: fds.append(os.dup(fd)))
    yield fds
    for fd in fds:
        os.close(fd)


def hold(root: Path, who: str = "warm-up") -> int:
    """The lock held by "another process" (another open of the file, as a process has)."""
    fd = os.open(root / "skatcore-warm.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.write(fd, who.encode())
    return fd


def noted(**extra) -> None:
    warmup.write_note({**warmup.new_note(), "ok": True, **extra})


def test_the_compiled_modules_are_those_with_cached_functions():
    cached = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")
              if re.search(r"^\s*from numba import .*\bnjit\b", text := p.read_text(encoding="utf-8"), re.M)
              and "njit(cache=True" in text}
    assert set(warmup.COMPILED) == cached


def test_a_start_spawns_one_warmup_and_none_while_it_runs(cache, spawned):
    assert warmup.start() and len(spawned) == 1
    assert warmup.running() and (cache / "skatcore-warm.lock").read_text() == "warm-up"
    assert not warmup.start() and len(spawned) == 1  # a second command: the first one's warm-up runs
    os.close(spawned.pop())  # it ended without a note (stopped halfway): the next command starts another
    assert not warmup.running()
    assert warmup.start() and len(spawned) == 1


def test_no_start_once_tried_for_these_sources(cache, spawned):
    noted()
    assert warmup.tried() and not warmup.start() and not spawned
    noted(ok=False, error="RuntimeError: x")  # a failed one is not tried again for the same sources either
    assert not warmup.start() and not spawned
    noted(only=["dealing"])  # a few parts is no warm machine
    assert not warmup.tried()
    files = warmup._files()
    files["engine/kernel.py"][0] += 1  # a file touched, not changed: the hash decides
    warmup.write_note({"key": warmup.key(), "base": warmup._base(), "files": files})
    assert warmup.tried()
    warmup.write_note({"key": "0" * 64, "base": warmup._base(), "files": files})  # changed: warm again
    assert not warmup.tried() and warmup.start() and len(spawned) == 1
    warmup.write_note({"key": warmup.key(), "base": "another numba", "files": warmup._files()})
    assert not warmup.tried()


@pytest.mark.parametrize("name", ["SKAT_NO_WARM", "NUMBA_DISABLE_JIT"])
def test_no_start_when_turned_off(cache, spawned, monkeypatch, name):
    monkeypatch.setenv(name, "1")
    assert not warmup.enabled() and not warmup.start() and not spawned and not list(cache.iterdir())
    monkeypatch.setenv(name, "0")
    assert warmup.enabled()


def test_the_first_command_starts_it_but_bench_warm_compiles_itself(cache, spawned, monkeypatch, capsys):
    monkeypatch.setenv("SKAT_NO_WARM", "1")
    assert main(["rulesets"]) == 0 and not spawned
    monkeypatch.delenv("SKAT_NO_WARM")
    assert main(["rulesets"]) == 0 and len(spawned) == 1
    assert main(["rulesets"]) == 0 and len(spawned) == 1  # running
    os.close(spawned.pop())
    ran = []
    monkeypatch.setattr(warming, "run", lambda ruleset, log: ran.append(ruleset) or {})
    assert main(["bench", "--warm", "--json"]) == 0 and ran == ["official"] and not spawned


def test_a_miss_waits_for_the_holder_and_loads_what_it_saved(cache):
    fd = hold(cache)
    saved = iter([None, None, "machine code"])
    try:
        assert warmup.claim(lambda: next(saved), "skatcore.bots.solver_kernel") == "machine code"
        assert warmup._held is None  # loaded, not compiled: no lock taken
    finally:
        os.close(fd)
    # the warm-up compiles the part the waiting command needs next
    assert warmup.next_part(["compiled engine", "double-dummy solver", "ISS replay"]) == "double-dummy solver"
    (cache / "skatcore-warm.want").write_text("skatcore.engine.kernel")
    assert warmup.next_part(["compiled heuristic", "ISS replay"]) == "compiled heuristic"  # the engine's is done
    assert warmup.next_part(["compiled engine", "ISS replay"]) == "compiled engine"


def test_every_compiled_module_has_its_part():
    """A compile says what it is of, and a waiting command's module names the part it wants."""
    for rel in warmup.COMPILED:
        module = "skatcore." + rel.removesuffix(".py").replace("/", ".")
        assert [name for name, prefix, _ in warmup.PARTS if module.startswith(prefix)], module


def test_a_miss_takes_the_free_lock_until_its_compile_ends(cache):
    assert warmup.claim(lambda: "saved just before") == "saved just before" and warmup._held is None
    assert warmup.claim(lambda: None) is None and warmup._held is not None
    assert warmup.running() and warmup._holder() == ("command", os.getpid())
    assert warmup.claim(lambda: None) is None  # a compile inside the compile: the lock is ours already
    warmup.compiled()
    assert warmup._held is None and not warmup.running()


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_line_counts_on_a_terminal_only(monkeypatch, capsys):
    monkeypatch.setattr(warmup, "_since", {})
    monkeypatch.setattr(warmup, "_said", set())
    warmup.Line("compiling x").stop()
    assert capsys.readouterr().err == ""
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    warmup.Line("compiling x").stop()
    assert screen.getvalue() == "\rcompiling x: 0 s ...\x1b[K\r\x1b[K"  # shown at once, erased at the end
    from rich.console import Console
    from rich.progress import Progress

    bar = Terminal()
    with Progress(console=Console(file=bar, force_terminal=True)):  # rich takes stderr: a line of its own, once
        monkeypatch.setattr(sys, "__stderr__", Terminal())
        warmup.Line("compiling y").stop()
        warmup.Line("compiling y").stop()
    assert bar.getvalue().count("compiling y ...") == 1


def spawn(code: str, env: dict[str, str]):
    return pexpect.spawn(sys.executable, ["-c", code], env=env, encoding="utf-8", timeout=120, dimensions=(24, 200))


@jit
def test_a_cold_compile_says_so_on_a_terminal_and_nowhere_else(cache):
    env = {**os.environ, "SKAT_NO_WARM": "1", "NUMBA_CACHE_DIR": str(cache)}
    quiet = subprocess.run([sys.executable, "-c", DEAL], env=env, capture_output=True, text=True, check=True)
    assert quiet.stdout == "dealt\n" and quiet.stderr == ""
    for k in cache.rglob("*.nb[ic]"):
        k.unlink()  # cold again
    child = spawn(DEAL, env)
    child.expect(r"compiling the seeded dealing for this machine \(once\): \d+ s \.\.\.")
    child.expect("dealt")
    child.expect(pexpect.EOF)
    child = spawn(DEAL, env)  # warm: nothing but the answer
    child.expect(pexpect.EOF)
    assert "dealt" in child.before and "compiling" not in child.before and "waiting" not in child.before


@jit
def test_a_command_waits_for_the_background_compile_then_compiles_what_it_left(cache):
    fd = hold(cache)  # the warm-up runs
    try:
        env = {**os.environ, "SKAT_NO_WARM": "1", "NUMBA_CACHE_DIR": str(cache)}
        child = spawn(DEAL, env)
        child.expect(r"waiting for the background compile \(once per machine\): \d+ s \.\.\.")
        assert child.isalive() and not list(cache.rglob("*.nbc"))
    finally:
        os.close(fd)  # it ended without the dealing: the command compiles it
    child.expect(r"compiling the seeded dealing")
    child.expect("dealt")
    child.expect(pexpect.EOF)
    assert list(cache.rglob("*.nbc"))


@jit
def test_the_background_warmup_compiles_holding_the_lock_and_notes_it(cache):
    assert warmup.start(("dealing",))
    assert warmup.running()  # held from before the process started
    t0 = time.monotonic()
    while not (pid := warmup._holder()[1]):
        time.sleep(0.05)
    assert os.getpriority(os.PRIO_PROCESS, pid) == 19  # low: the user's work first
    warmup._hurry(pid)  # as a command that waits for it does (allowed to root; else it stays low and takes longer)
    while warmup.running():
        assert time.monotonic() - t0 < 120, (cache / "skatcore-warm.log").read_text()
        time.sleep(0.2)
    note = warmup.note()
    assert note["ok"] and note["only"] == ["dealing"] and set(note["parts"]) == {"dealing"} and note["cpu_s"] > 0
    assert note["key"] == warmup.key() and not warmup.tried()  # one part: not a warm machine
    assert {re.sub(r"-\d+\.py.*", "", p.name) for p in cache.rglob("*.nbi")} >= {"dealing._shuffle"}
    assert not list(cache.rglob("*.tmp.*"))  # numba's files renamed into place


def test_bench_reports_the_last_whole_warmup(cache):
    from skatcore.sim.speed import warmup_figures

    assert warmup_figures() == {}
    noted(cpu_s=61.5, wall_s=87.0)
    assert warmup_figures() == {"warmup_cpu_s": 61.5, "warmup_wall_s": 87.0}
    noted(cpu_s=1.4, wall_s=2.0, only=["dealing"])
    assert warmup_figures() == {}
