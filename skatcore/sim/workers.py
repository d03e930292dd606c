"""Where the chunks of a run are played: in this process, in local worker
processes (``--jobs``) or on a Dask cluster (``--dask``).  Every chunk's
result is an exact integer sum, so where it ran never changes a digit."""

from __future__ import annotations

from collections.abc import Sequence

from skatcore.errors import InputError
from skatcore.rules.trust import trusting, trusts_all


def map_chunks(fn, tasks: Sequence[tuple], jobs: int = 1, dask: str | None = None):
    """``(task, fn(task))`` for every task, in the order they finish: in
    this process, in ``jobs`` local processes or on Dask (``local:N`` starts
    a ``LocalCluster`` of N single-threaded worker processes, anything else
    is a scheduler address).  Results merge by exact integer sums, so the
    order never changes a digit."""
    if dask or jobs > 1:
        fn = _Trusted(fn, trusts_all())
    if dask:
        yield from _dask_map(dask, fn, tasks)
    elif jobs > 1 and len(tasks) > 1:
        import multiprocessing as mp

        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
        with ctx.Pool(min(jobs, len(tasks))) as pool:
            yield from pool.imap_unordered(_with_task(fn), tasks)
    else:
        for task in tasks:
            yield task, fn(task)


class _Trusted:
    """``fn`` run under the caller's ``--trust`` in another process (a
    context variable does not travel to a spawned worker or a Dask cluster)."""

    def __init__(self, fn, trust: bool):
        self.fn, self.trust = fn, trust

    def __call__(self, task):
        with trusting(self.trust):
            return self.fn(task)


class _with_task:
    """``fn`` returning ``(task, result)``: a picklable wrapper for imap_unordered."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, task):
        return task, self.fn(task)


def dask_workers(address: str, unknown: int = 8) -> int:
    """The number of workers of ``--dask local:N``; ``unknown`` for a scheduler address."""
    if not address.startswith("local:"):
        return unknown
    workers = address.partition(":")[2]
    if not workers.isdecimal() or int(workers) < 1:  # isdigit() is true of "²", which int() refuses
        raise InputError(f"--dask local:N needs a number of workers, not {workers!r}")
    return int(workers)


def _dask_map(address: str, fn, tasks):
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise InputError("--dask needs the cluster extra: pip install 'skatcore[cluster]'") from None
    cluster = None
    if address.startswith("local:"):
        cluster = LocalCluster(n_workers=dask_workers(address), threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=40)
        address = cluster
    try:
        client = Client(address, timeout="5s")
    except Exception as exc:
        if cluster is not None:
            cluster.close()
        raise InputError(f"--dask: cannot reach the scheduler at {address}: {type(exc).__name__}: {exc}") from None
    try:
        futures = {client.submit(fn, task, pure=False): task for task in tasks}
        for fut in as_completed(futures):
            yield futures[fut], fut.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
