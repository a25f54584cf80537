"""Chunks on a Dask cluster (the ``[distributed]`` extra): ``--scheduler``, ``--workers``.

Each key is a task on the cluster; results come back as they finish and the
driver saves and merges them in key order, so the numbers are those of a local
run bit for bit. The work (a partial of a chunk function and its run) is sent
to every worker once (``scatter``), so a worker loads the run's policies once
and not per chunk. At most ``window`` tasks are out at a time: the client holds
only those, whatever the number of chunks, and Ctrl-C has only those to cancel.

A worker compiles (or loads from numba's cache) the kernel in its first chunk:
``Timing`` keeps each worker's first chunk apart from the median of its others
and reports the difference, so a run's figures say what the compile cost.
"""

from __future__ import annotations

import gc
import logging
import os
import signal
import socket
import statistics
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from cinch_sim.checks import InputError
from cinch_sim.runs.executor import RunStopped

Key = tuple[int, ...]
EXTRA = "pip install 'cinch-sim[distributed]'"
CONNECT_TIMEOUT = 5.0  # seconds to reach a scheduler before giving up
LOG = logging.getLogger("cinch_sim")
AHEAD = 8  # chunks out a worker thread: they cost the client only their keys
SAMPLES = 64  # chunks a worker keeps the time of, after its first (a median needs no more)


def _distributed(option: str) -> Any:
    try:
        import distributed
    except ImportError:
        raise InputError(
            option, f"needs dask.distributed, which is not installed: {EXTRA}"
        ) from None
    return distributed


def check_cluster(scheduler: str | None, workers: int | None, threads: int | None) -> None:
    """The cluster options alone, before any work: one of them, a sane worker count,
    and the package installed (an InputError naming the option, one line)."""
    if scheduler is None and workers is None:
        return
    if scheduler is not None and workers is not None:
        raise InputError("workers", "give a scheduler to use or a number of local workers to "
                         "start, not both")  # fmt: skip
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):  # fmt: skip
        raise InputError("workers", f"{workers!r} is not a whole number of at least 1")
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                or threads < 1):  # fmt: skip
        raise InputError("threads", f"{threads!r} is not a whole number of at least 1")
    if scheduler is not None and not isinstance(scheduler, str):
        raise InputError("scheduler", f"{scheduler!r} is not an address (tcp://HOST:PORT)")
    _distributed("scheduler" if scheduler is not None else "workers")


# ---------------------------------------------------------------- on a worker
def dask_setup(worker: Any) -> None:
    """The preload of a local cluster's workers (Dask calls it as the worker starts, in
    its main thread): they ignore SIGINT. A Ctrl-C at the terminal goes to the whole
    process group; this process's handler stops the run between chunks and closes the
    cluster, where the workers would die mid-chunk with tracebacks."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


_SEEN: set[str] = set()  # the chunk functions this worker process has run (a first compiles)


def run_on_worker(shared: tuple[Callable[[Key], Any], Any], key: Key, threads: int
                  ) -> tuple[Any, dict]:  # fmt: skip
    """One chunk on a worker, on ``threads`` kernel threads, with its time and whether it
    was this worker's first of its kind (hands or games: the one that compiles or loads
    that kernel; a worker of a standing cluster keeps them from run to run). ``shared`` is
    (work, kind): the aggregate travels back as ``kind.to_arrays`` gives it (a chunk
    file's arrays: the non-empty cells, about 40 kB for a chunk of hands, where the
    pickled counts are 11 MB)."""
    from cinch_sim.engine.threads import using

    work, kind = shared
    name = getattr(getattr(work, "func", work), "__name__", "work")
    first = name not in _SEEN
    _SEEN.add(name)
    start = time.perf_counter()
    with using(threads):
        agg = work(key)
    if kind is not None:
        agg = kind.to_arrays(agg)
    seconds = time.perf_counter() - start
    return agg, {"worker": f"{socket.gethostname()}:{os.getpid()}", "first": first,
                 "seconds": seconds}  # fmt: skip


# ---------------------------------------------------------------- the client
@contextmanager
def no_collection() -> Iterator[None]:
    """Around making a Client or a LocalCluster: the garbage collected first, and not
    while Dask starts its IO loop. A Client left unclosed by an earlier run closes
    itself when collected, which takes the loop runners' lock; collected inside Dask's
    own start of another loop, under that lock, it waited for itself for good (a test
    run hung so: distributed 2026.11.0)."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored while the local workers start: a process started with it ignored
    keeps it so (Python installs its handler only over the default), so the workers
    never see the terminal's Ctrl-C, not even before their preload (``dask_setup``)
    runs. A Ctrl-C in these seconds is lost; the next one stops the run as usual."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _connect(distributed: Any, address: str, timeout: float) -> Any:
    """A client of the scheduler at ``address``, or an InputError naming it within about
    ``timeout`` seconds: refused, timed out, a bad address, or a server that is not a
    scheduler (which accepts the connection and never answers: Dask's own timeout
    does not end that wait, so the client is made in a thread waited on here)."""
    box: dict[str, Any] = {}

    def connect() -> None:
        try:
            box["client"] = distributed.Client(address, timeout=timeout)
        except Exception as exc:  # noqa: BLE001 - told below, one line
            # its first line, what the error below tells
            box["error"] = str(exc).splitlines()[0] if str(exc) else type(exc).__name__

    # the garbage collected first (no_collection says why), but not held off: this
    # thread may wait on a silent server for good, and the process would collect no more
    gc.collect()
    thread = threading.Thread(target=connect, name="cinch-sim-connect", daemon=True)
    thread.start()
    thread.join(1.5 * timeout + 0.5)  # Dask's own timeout, then some grace
    if "client" in box:
        return box["client"]
    why = box.get("error", "something answered there, but not as a Dask scheduler")
    raise InputError("scheduler", f"cannot reach a Dask scheduler at {address} "
                     f"(waited {timeout:g} s): {why}")  # fmt: skip


class Timing:
    """Each worker's first chunk against the median of its others, per unit of work."""

    def __init__(self) -> None:
        self.first: dict[str, tuple[float, int]] = {}  # worker: (seconds, units)
        self.rest: dict[str, list[float]] = {}  # worker: seconds a unit, up to SAMPLES
        self.chunks = 0
        self.busy = 0.0  # seconds the workers spent in chunks, all added

    def add(self, info: dict, units: int) -> None:
        self.chunks += 1
        self.busy += info["seconds"]
        w = info["worker"]
        if info["first"]:
            self.first[w] = (info["seconds"], units)
        else:
            rest = self.rest.setdefault(w, [])
            if len(rest) < SAMPLES:
                rest.append(info["seconds"] / max(units, 1))

    def summary(self) -> dict[str, Any]:
        """``first_chunk_seconds`` (the slowest worker's first chunk), ``median_chunk_seconds``
        (of the others, scaled to the first's size) and their difference, the compile."""
        per_unit = [x for r in self.rest.values() for x in r]
        out: dict[str, Any] = {"workers_used": len(self.first) or len(self.rest),
                               "chunks_run": self.chunks,
                               "busy_seconds": round(self.busy, 3)}  # fmt: skip
        if self.first:
            w, (sec, units) = max(self.first.items(), key=lambda kv: kv[1][0])
            out["first_chunk_seconds"] = round(sec, 3)
            if per_unit:
                median = statistics.median(per_unit) * units
                out["median_chunk_seconds"] = round(median, 3)
                out["compile_seconds"] = round(max(sec - median, 0.0), 3)
        return out


class DaskExecutor:
    """Runs the chunks on a Dask cluster: the one at ``scheduler`` (an address), or a
    LocalCluster of ``workers`` processes of one thread each, started here and closed
    by ``close``. ``threads`` is the kernel's threads inside each worker (default 1:
    a worker process a core)."""

    def __init__(
        self,
        scheduler: str | None = None,
        workers: int | None = None,
        threads: int | None = None,
        timeout: float | None = None,
        units: Callable[[Key], int] | None = None,
        kind: Any = None,
    ) -> None:
        check_cluster(scheduler, workers, threads)
        if scheduler is None and workers is None:
            raise InputError("workers", "a Dask executor needs a scheduler or a worker count")
        self.scheduler = scheduler
        self.workers = workers
        self.threads = threads or 1
        self.timeout = CONNECT_TIMEOUT if timeout is None else timeout
        self.units = units or (lambda key: 1)
        self.kind = kind  # how an aggregate packs (runs.kinds); None: it travels as it is
        self.timing = Timing()
        self.cluster: Any = None
        self.client: Any = None
        self.started = 0.0

    def start(self) -> None:
        """Connect (or start the local cluster): a scheduler that does not answer within
        ``timeout`` seconds is an InputError naming it, one line."""
        if self.client is not None:
            return
        distributed = _distributed("scheduler" if self.scheduler else "workers")
        t0 = time.perf_counter()
        if self.scheduler is None:
            with _sigint_ignored(), no_collection():
                self.cluster = distributed.LocalCluster(
                    n_workers=self.workers, threads_per_worker=1, processes=True,
                    dashboard_address=None, silence_logs=logging.ERROR,
                    # no dashboard; its plain HTTP server on any free port, not 8787
                    scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                    preload=[__name__],  # dask_setup, in a worker the nanny restarts too
                )  # fmt: skip
            with no_collection():
                self.client = distributed.Client(self.cluster, timeout=self.timeout)
        else:
            self.client = _connect(distributed, self.scheduler, self.timeout)
        self.started = time.perf_counter() - t0

    def worker_threads(self) -> int:
        """The cluster's worker threads, all added (1 if it has none yet)."""
        workers = self.client.scheduler_info(n_workers=-1).get("workers", {})
        return max(1, sum(w.get("nthreads", 1) for w in workers.values()))

    def window(self) -> int:
        """Tasks out at a time: ``AHEAD`` a worker thread, so a worker has the next chunks
        in hand while a finished one travels back and a new one out (a round trip on a
        busy machine took 100-200 ms: results/BENCHMARKS.md, issue 21)."""
        return AHEAD * self.worker_threads()

    def map(self, work: Callable[[Key], Any], keys: Sequence[Key]) -> Iterator[tuple[Key, Any]]:
        self.start()
        distributed = _distributed("workers")
        client = self.client
        if not keys:
            return
        shared = client.scatter((work, self.kind), broadcast=True, hash=False)
        pending = iter(keys)
        out: dict[Any, Key] = {}

        def submit() -> bool:
            key = next(pending, None)
            if key is None:
                return False
            fut = client.submit(run_on_worker, shared, key, self.threads, pure=False)
            out[fut] = key
            done.add(fut)
            return True

        done = distributed.as_completed(with_results=True)  # fetched as they finish
        for _ in range(self.window()):
            if not submit():
                break
        try:
            for fut, result in done:
                if isinstance(result, BaseException):  # cancelled: the scheduler is gone
                    raise RunStopped(
                        f"the Dask cluster at {self.scheduler or 'this machine'} stopped "
                        f"answering ({type(result).__name__}); the chunks finished are kept"
                    )
                agg, info = result
                key = out.pop(fut)
                fut.release()
                if self.kind is not None:
                    agg = self.kind.from_arrays(agg)
                self.timing.add(info, self.units(key))
                if info["first"]:
                    LOG.info("worker %s: its first chunk (the kernel's compile or cache load) "
                             "took %.1f s", info["worker"], info["seconds"])  # fmt: skip
                submit()
                yield key, agg
            t = self.timing.summary()
            if "compile_seconds" in t:
                LOG.info("cluster: %d chunks on %d workers; the slowest first chunk %.1f s "
                         "against a median of %.2f s for the others (compile %.1f s)",
                         t["chunks_run"], t["workers_used"], t["first_chunk_seconds"],
                         t["median_chunk_seconds"], t["compile_seconds"])  # fmt: skip
        finally:
            try:
                if out:
                    client.cancel(list(out))  # Ctrl-C or an error: the unfinished chunks
                client.cancel([shared])  # the work's copies on the workers
            except Exception:  # noqa: BLE001 - a lost scheduler: nothing left to cancel
                pass
            out.clear()

    def summary(self) -> dict[str, Any]:
        """What the run's settings record of the cluster and its timing."""
        n = self.workers
        where = self.scheduler or f"LocalCluster of {n} worker process{'' if n == 1 else 'es'}"
        return {"cluster": where, "kernel_threads_a_worker": self.threads,
                "connect_seconds": round(self.started, 3), **self.timing.summary()}  # fmt: skip

    def close(self) -> None:
        try:
            if self.client is not None:
                self.client.close(timeout=self.timeout)
            if self.cluster is not None:
                self.cluster.close()
        except Exception:  # noqa: BLE001 - a scheduler already gone closes nothing
            LOG.debug("closing the Dask client", exc_info=True)
        self.client = self.cluster = None
