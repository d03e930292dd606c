"""The background compile itself (``python -m skatcore.sim.warming [PART...]``,
started by :func:`skatcore.warmup.start`) and ``skat bench --warm``: the parts
of :func:`skatcore.sim.speed.warm` compiled (or loaded) holding the lock, the
part a waiting command wants first, then the note the next command reads."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from skatcore import warmup


def run(ruleset: str = "official", log: Callable[[str], None] | None = None,
        parts: tuple[str, ...] = ()) -> dict[str, float]:
    """Every part (or ``parts``), after the process that compiles now if one
    does; CPU seconds of each part.  The note: its key, its figures, and
    whether it went well (a bug is noted too, so that the commands do not
    start it again and again; Ctrl-C is no note)."""
    from skatcore.sim.speed import warm

    data: dict[str, Any] = {**warmup.new_note(), "pid": os.getpid(), "ruleset": ruleset}
    if parts:
        data["only"] = list(parts)  # a few parts only: no warm machine (warmup.tried says no)
    t0, c0 = time.monotonic(), time.process_time()
    warmup.hold()
    try:
        todo = [name for name, _, _ in warmup.PARTS if not parts or name in parts]
        figures: dict[str, float] = {}
        while todo:
            name = warmup.next_part(todo)
            todo.remove(name)
            figures.update(warm(ruleset, log, (name,)))
        if not parts:  # a part PARTS does not name; the others run again, compiled: microseconds
            figures.update((k, v) for k, v in warm(ruleset, None).items() if k not in figures)
        data.update(ok=True, parts=figures)
    except Exception as exc:
        data.update(ok=False, error=f"{type(exc).__name__}: {exc}")
        raise
    finally:
        if "ok" in data:
            data.update(cpu_s=round(time.process_time() - c0, 2), wall_s=round(time.monotonic() - t0, 2))
            warmup.done(data)
        warmup.let_go()
    return figures


def _lower_priority() -> None:
    """Nice 19, and its session's group too: the kernel shares the CPU
    between sessions first, and a new session at nice 19 would still get
    its whole share (``sched_autogroup``)."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(19)
    with contextlib.suppress(OSError):
        Path("/proc/self/autogroup").write_text("19")


def main(argv: list[str] | None = None) -> int:
    """What :func:`skatcore.warmup.start` starts, holding the lock it took."""
    fd = os.environ.pop("SKAT_WARM_FD", None)
    _lower_priority()
    if fd is not None:
        warmup.hold(int(fd))  # after the priority: a waiter that lifts it lifts it for good
    run(parts=tuple(sys.argv[1:] if argv is None else argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
