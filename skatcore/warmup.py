"""numba's cache filled once per machine, in the background, and a line on
the screen whenever a command waits for a compile.

The compiled parts (``@njit(cache=True)``) compile on first use: about a
minute of CPU for all of them on a new machine, after a new numba or after
an edit of their sources.  So:

- the first ``skat`` command (:func:`start`; the README's set-up runs one)
  starts a detached, low-priority ``python -m skatcore.sim.warming`` that
  compiles them all (``skat bench --warm``'s parts) and then writes a note keyed on
  numba, Python and the compiled sources (:func:`key`); never with
  ``SKAT_NO_WARM=1`` (the tests) or ``NUMBA_DISABLE_JIT=1``, never twice for
  one key;
- one process compiles skatcore's functions at a time: it holds the lock
  file's ``flock`` (released with the process, never stale), the warm-up
  from before it starts to its end, a command only while it compiles.  A
  command that misses the cache while another process holds it waits and
  loads what that one saves (:func:`claim`) instead of compiling it again;
- waiting and compiling say so on stderr, a terminal only (:class:`Line`).

numba writes each cache file under a temporary name and renames it into
place (``IndexDataCacheFile._open_for_write``): a warm-up stopped halfway
leaves entries that load or are missing, never half a file, and a missing
one is compiled by whoever needs it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from skatcore.cache_stamp import PACKAGE, sources, stamp

try:
    import fcntl
except ImportError:  # no flock (Windows): no warm-up and no waiting; a compile still says so
    fcntl = None  # type: ignore[assignment]

# the modules with @njit(cache=True) functions (tests/test_warmup.py checks the list against the sources)
COMPILED = ("engine/kernel.py", "bots/heuristic/kernel.py", "bots/heuristic/kernel_play.py", "bots/solver_kernel.py",
            "bots/solver_moves.py", "bots/solver_table.py", "records/iss_kernel.py", "sim/dealing.py", "sim/stats.py",
            "sim/bootstrap.py")

# the warm-up's parts (skatcore.sim.speed.warm's names) in the order it compiles them unless a waiting command
# wants another first; the modules they compile (by the start of the name) and, for the line on the screen, in words
PARTS = (("dealing", "skatcore.sim.dealing", "the seeded dealing"),
         ("compiled engine", "skatcore.engine", "the compiled engine"),
         ("compiled heuristic", "skatcore.bots.heuristic", "the heuristic players"),
         ("bootstrap", ("skatcore.sim.bootstrap", "skatcore.sim.stats"), "the bootstrap"),
         ("double-dummy solver", "skatcore.bots.solver", "the double-dummy solver"),
         ("ISS replay", "skatcore.records", "the ISS replay"))

_held: int | None = None  # the lock's descriptor while this process holds it
_whole = False  # held for the whole process (the warm-up, skat bench --warm): no compile releases it
_line: Line | None = None
_since: dict[str, float] = {}  # when each line's text first showed: one count across the compiles of a part
_said: set[str] = set()


def _set(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def enabled() -> bool:
    """Whether a command may start the background warm-up."""
    return fcntl is not None and not _set("SKAT_NO_WARM") and not _set("NUMBA_DISABLE_JIT")


def root() -> Path:
    """Where the lock and the note live: with numba's cache of skatcore
    (``NUMBA_CACHE_DIR``, else the package's ``__pycache__`` when it can be
    written, else the user's cache folder), so that a new cache is a new
    machine to the warm-up too."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given:
        return Path(given)
    tree = PACKAGE / "__pycache__"
    if os.access(tree, os.W_OK) or (not tree.exists() and os.access(PACKAGE, os.W_OK)):
        return tree
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "skatcore"


def _file(suffix: str) -> Path:
    return root() / f"skatcore-warm.{suffix}"


def _base() -> str:
    """numba (its version file's text), Python and the machine: a change of
    any makes numba's cache miss."""
    import importlib.util

    spec = importlib.util.find_spec("numba")
    origin = Path(spec.origin) if spec and spec.origin else None
    version = origin.with_name("_version.py") if origin else None
    text = version.read_text(encoding="utf-8") if version and version.is_file() else str(origin)
    machine = os.uname().machine if hasattr(os, "uname") else sys.platform
    return hashlib.sha256(f"{text}\0{sys.version}\0{machine}".encode()).hexdigest()


def _files() -> dict[str, list[int]]:
    """Size and time of every source the compiled modules stamp: the quick
    look before :func:`key` hashes them."""
    out = {}
    for rel in COMPILED:
        for p in sources(PACKAGE / rel):
            st = p.stat()
            out[p.relative_to(PACKAGE).as_posix()] = [st.st_mtime_ns, st.st_size]
    return out


def key() -> str:
    """The key of numba's cache of skatcore: numba, Python, the machine and
    the stamps of the compiled modules (the sources of their machine code)."""
    h = hashlib.sha256(_base().encode())
    for rel in COMPILED:
        h.update(stamp(PACKAGE / rel).encode())
    return h.hexdigest()


def new_note() -> dict[str, Any]:
    """What a note starts with: the key, and the quick look's inputs."""
    return {"key": key(), "base": _base(), "files": _files()}


def note() -> dict[str, Any]:
    """What the last warm-up wrote (``{}`` if none or unreadable)."""
    try:
        out = json.loads(_file("json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return out if isinstance(out, dict) else {}


def tried() -> bool:
    """A warm-up for the current key has run (to its end, well or not): a
    few file times when nothing changed, else a hash of the sources."""
    last = note()
    if not last or last.get("only") or last.get("base") != _base():
        return False
    files = last.get("files")
    try:
        if isinstance(files, dict) and files and all(
                [(st := (PACKAGE / f).stat()).st_mtime_ns, st.st_size] == v for f, v in files.items()):
            return True
    except OSError:
        pass
    if last.get("key") != key():
        return False
    with contextlib.suppress(OSError):  # touched, not changed (a checkout): the quick look next time
        write_note({**last, "files": _files()})
    return True


def write_note(data: dict[str, Any]) -> None:
    path = _file("json")
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
    os.replace(tmp, path)


def _try_lock(who: str) -> int | None:
    """The lock's descriptor, now held, or None when another process holds it."""
    path = _file("lock")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    _tell(fd, who)
    return fd


def _tell(fd: int, who: str) -> None:
    """Who holds the lock, in its file: "warm-up PID" or "command PID", for the waiters."""
    os.ftruncate(fd, 0)
    os.pwrite(fd, who.encode(), 0)


def _holder() -> tuple[str, int | None]:
    try:
        who, _, pid = _file("lock").read_text(encoding="utf-8").partition(" ")
    except OSError:
        return "", None
    return who, int(pid) if pid.isdigit() else None


def _hurry(pid: int) -> None:
    """A command waits for the warm-up: back to normal priority, where the
    system lets us (root; else the warm-up stays low and the wait is longer)."""
    try:
        os.setpriority(os.PRIO_PROCESS, pid, 0)
        Path(f"/proc/{pid}/autogroup").write_text("0")
    except (AttributeError, OSError):
        pass


def running() -> bool:
    """Whether a process holds the lock (compiles skatcore's functions) now."""
    if fcntl is None:
        return False
    try:
        fd = os.open(_file("lock"), os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def start(parts: tuple[str, ...] = ()) -> bool:
    """Start the background warm-up (``parts`` of :func:`skatcore.sim.speed.warm`,
    default all) unless it is turned off, has run for this key or runs now:
    True when started.  Costs a few file reads when the machine is warm."""
    if not enabled():
        return False
    try:
        if tried():
            return False
        fd = _try_lock("warm-up")
        if fd is None:
            return False
        try:
            if tried():  # one that ended between the two looks
                return False
            _spawn(fd, parts)
        finally:
            os.close(fd)  # the warm-up holds the lock through its own copy
    except OSError:  # a cache folder that cannot be written: commands compile as before
        return False
    return True


def _spawn(fd: int, parts: tuple[str, ...]) -> None:
    import subprocess

    # the same skatcore and plugins as this process, whatever the current folder is
    path = os.pathsep.join(p or os.getcwd() for p in sys.path)
    env = {**os.environ, "SKAT_WARM_FD": str(fd), "PYTHONPATH": path}
    with open(_file("log"), "wb") as log:  # its output (a traceback if it fails) for whoever wonders
        subprocess.Popen([sys.executable, "-m", "skatcore.sim.warming", *parts], pass_fds=(fd,), env=env,
                         stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)


def hold(fd: int | None = None) -> None:
    """Hold the lock for the whole process (the warm-up, ``skat bench
    --warm``): ``fd`` the copy :func:`start` handed over, else taken here
    after waiting for the process that holds it."""
    global _held, _whole
    if fd is not None:
        _tell(fd, f"warm-up {os.getpid()}")  # for the waiters: whose priority to lift
        _held = fd
    elif _held is None and fcntl is not None:
        waiting = None
        with contextlib.suppress(OSError):  # a cache folder that cannot be written: compile as before
            while (fd := _try_lock(f"warm-up {os.getpid()}")) is None:
                waiting = waiting or _wait_line()
                time.sleep(0.25)
            _held = fd
        if waiting:
            waiting.stop()
    _whole = True


def let_go() -> None:
    """The end of :func:`hold`."""
    global _whole
    _whole = False
    _release()


def next_part(todo: list[str]) -> str:
    """The part a waiting command wants (:func:`claim` names its module), else the first left."""
    try:
        wanted = _file("want").read_text(encoding="utf-8")
    except OSError:
        wanted = ""
    return next((name for name, prefix, _ in PARTS if name in todo and wanted.startswith(prefix)), todo[0])


def done(data: dict[str, Any]) -> None:
    """The note of a warm-up that ended (``data``: its key, figures, whether it went well); the want met."""
    with contextlib.suppress(OSError):
        write_note(data)
        _file("want").unlink(missing_ok=True)


# --- the lock around one compile (skatcore.numba_cache calls these) ------------------------------------------


def claim(load: Callable[[], Any], module: str = "") -> Any:
    """On a cache miss (of a function of ``module``) outside a compile of this
    process: what another process saved meanwhile, waiting while one holds
    the lock; else None with the lock held until :func:`compiled` (the
    compile that follows)."""
    global _held
    if _held is not None or fcntl is None:
        return None
    waiting = None
    try:
        while True:
            try:
                fd = _try_lock(f"command {os.getpid()}")
            except OSError:  # a cache folder that cannot be written: compile as before
                return None
            found = load()  # saved by the one that held the lock: load it (and let go) rather than compile it
            if fd is not None:
                if found is not None:
                    os.close(fd)
                else:
                    _held = fd
                return found
            if found is not None:
                return found
            if waiting is None:
                with contextlib.suppress(OSError):  # the warm-up compiles this part next
                    _file("want").write_text(module, encoding="utf-8")
                waiting = _wait_line()
            time.sleep(0.25)
    finally:
        if waiting:
            waiting.stop()


def _wait_line() -> Line:
    """The line while waiting for the process that holds the lock (the
    warm-up hurried: a user now waits for it)."""
    who, pid = _holder()
    if who == "warm-up":
        if pid:
            _hurry(pid)
        return Line("waiting for the background compile (once per machine)", workers=False)
    return Line("waiting for another skat command's compile", workers=False)


def compiling(module: str) -> None:
    """A compile of a function of ``module`` starts (the outermost one)."""
    global _line
    what = next((words for _, prefix, words in PARTS if module.startswith(prefix)), None)
    if what and _line is None:
        _line = Line(f"compiling {what} for this machine (once)")


def compiled() -> None:
    """The outermost compile has ended: the line goes, the lock is let go."""
    global _line
    if _line:
        _line.stop()
        _line = None
    _release()


def _release() -> None:
    global _held
    if _held is not None and not _whole:
        os.close(_held)
        _held = None


# --- the line on the screen ---------------------------------------------------------------------------------


class Line:
    """``text: N s`` on stderr, counting until :meth:`stop` and then erased:
    a terminal only, the main process only.  Under a rich progress bar
    (which takes stderr) the text once, as a line of its own."""

    def __init__(self, text: str, workers: bool = True) -> None:
        import threading

        self.text, self.t0 = text, _since.setdefault(text, time.monotonic())
        self.done = threading.Event()
        self.mode = _screen(workers)
        if self.mode == "once" and text in _said:  # a line of its own: once a process
            self.mode = ""
        _said.add(text)
        self.thread = None
        if self.mode == "line":
            self._show()
            self.thread = threading.Thread(target=self._tick, daemon=True)
            self.thread.start()
        elif self.mode == "once":
            print(f"{text} ...", file=sys.stderr, flush=True)

    def _show(self) -> None:
        sys.stderr.write(f"\r{self.text}: {time.monotonic() - self.t0:.0f} s ...\x1b[K")
        sys.stderr.flush()

    def _tick(self) -> None:
        while not self.done.wait(1.0):
            self._show()

    def stop(self) -> None:
        self.done.set()
        if self.thread:
            self.thread.join()
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _screen(workers: bool = True) -> str:
    """"line" on a terminal, "once" under a rich progress bar, "" otherwise
    (and in a worker process unless ``workers``: one compiles at a time, the
    others' waiting would take turns on the same line)."""
    mp = sys.modules.get("multiprocessing")
    if not workers and mp is not None and mp.parent_process() is not None:
        return ""
    proxy = sys.modules.get("rich.file_proxy")
    if proxy is not None and isinstance(sys.stderr, proxy.FileProxy):
        return "once" if sys.__stderr__ is not None and sys.__stderr__.isatty() else ""
    try:
        return "line" if sys.stderr is not None and sys.stderr.isatty() else ""
    except ValueError:  # closed
        return ""


