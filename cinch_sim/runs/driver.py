"""The loop of a chunked run: load what a store holds, run the rest, save as it goes.

Ctrl-C (``engine.interrupts.chunk_boundaries``) is recorded while a chunk runs and
is saved, and obeyed between chunks: the run stops with every finished chunk
kept (in the store too), and ``interrupted`` says so. Results are merged in key
order (or as they come, for an order-free aggregate), so the executor's
completion order and a stop and resume change no number. A ``stop`` rule (a
sequential test: ``compare --until``) is asked after each chunk merged in key
order; once it holds, the run ends there and the chunks past it are dropped, so
where it stops depends on the chunks' order only, never on their timing. A kept
chunk whose file cannot be read back (``store.DamagedChunk``) is played again,
with a warning naming the file.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any

from cinch_sim import checks
from cinch_sim.engine.interrupts import chunk_boundaries
from cinch_sim.runs.executor import Executor, Key, LocalExecutor, RunStopped
from cinch_sim.runs.kinds import kind_of, read_chunk
from cinch_sim.runs.store import ChunkStore, DamagedChunk

LOG = logging.getLogger("cinch_sim")


class Ordered:
    """Merges aggregates in key order whatever order they come in: those ahead of a
    gap wait (an order-free kind merges each at once)."""

    def __init__(
        self, kind: Any, keys: list[Key], stop: Callable[[Any], bool] | None = None
    ) -> None:
        self.kind = kind
        self.position = {k: i for i, k in enumerate(keys)}
        self.total = kind.empty()
        self.next = 0
        self.waiting: dict[int, Any] = {}
        self.stop = stop
        self.stopped = False  # the stop rule held: nothing more is merged

    def add(self, key: Key, agg: Any) -> None:
        if self.stopped:
            return
        if self.kind.order_free and self.stop is None:
            self.total = self.kind.merge(self.total, agg)
            return
        self.waiting[self.position[key]] = agg
        while self.next in self.waiting and not self.stopped:
            self.total = self.kind.merge(self.total, self.waiting.pop(self.next))
            self.next += 1
            self.stopped = self.stop is not None and self.stop(self.total)

    def result(self) -> Any:
        """Everything merged: after an interruption, what came past a gap follows in key
        order; after the stop rule held, nothing past it."""
        if self.stopped:
            self.waiting.clear()
        for p in sorted(self.waiting):
            self.total = self.kind.merge(self.total, self.waiting.pop(p))
        return self.total


def span_of(run: Any, key: Key) -> dict[int, int]:
    """What a chunk holds: {matchup: its units}."""
    m, (lo, hi) = run.span(key)
    return {m: hi - lo}


def units_of(run: Any, key: Key) -> int:
    """What a chunk adds to the progress bar: hands, or games."""
    _, (lo, hi) = run.span(key)
    return (hi - lo) * getattr(run, "per_unit", 1)


def run_chunks(
    run: Any,
    work: Callable[[Key], Any],
    kind: Any,
    store: ChunkStore | None = None,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
    stop: Callable[[Any], bool] | None = None,
) -> tuple[Any, bool]:
    """Every chunk of ``run`` merged, or those up to where ``stop`` held: (aggregate,
    interrupted). Chunks the store holds are loaded, not run again (but one whose file
    cannot be read back: ``ChunkStore.replay``); each new one is saved as soon as it
    is done."""
    keys = run.keys()
    merged = Ordered(kind, keys, stop)
    done = store.done() if store is not None else set()
    # a progress meter that knows a resumed run's kept chunks keeps them out of its pace
    kept = getattr(progress, "resumed", progress)
    for key in keys:
        if key in done and store is not None:
            try:
                agg = read_chunk(kind, store.path(key), span_of(run, key))
            except DamagedChunk as damage:
                store.replay(damage, key)
                done.discard(key)
                continue
            merged.add(key, agg)
            if kept is not None:
                kept(units_of(run, key))
    todo = [] if merged.stopped else [k for k in keys if k not in done]
    executor = executor or LocalExecutor()
    interrupted = False
    failed = True  # until the loop ends by itself, Ctrl-C or the stop rule
    with chunk_boundaries() as interrupts:
        try:
            interrupts.check()
            results = executor.map(work, todo)
            try:
                for key, agg in results:
                    if store is not None:
                        store.save(key, kind.to_arrays(agg))
                    merged.add(key, agg)
                    if progress is not None:
                        progress(units_of(run, key))
                    if merged.stopped:
                        break  # the stop rule held: the chunks still running are not needed
                    interrupts.check()  # Ctrl-C stops here, never inside a chunk
            finally:
                close = getattr(results, "close", None)
                if close is not None:
                    close()  # the executor's own end (threads, a cluster's futures)
                if store is not None:
                    store.close()
            failed = False
        except KeyboardInterrupt:
            interrupted, failed = True, False
        except RunStopped as exc:  # the chunks done are kept, as after Ctrl-C
            LOG.warning("%s", exc)
            interrupted, failed = True, False
        finally:
            if store is not None:
                store.settle(failed)
    return merged.result(), interrupted


def execute(
    run: Any,
    work: Callable[[Key], Any],
    store: ChunkStore | None = None,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    stop: Callable[[Any], bool] | None = None,
) -> tuple[Any, bool, dict[str, Any]]:
    """``run_chunks`` here on ``threads`` threads, or on a Dask cluster (``scheduler``:
    an existing one; ``workers``: a local one started for the run): (aggregate,
    interrupted, the cluster's timing: empty for a local run)."""
    checks.callback(progress, "progress")  # a number failed after the first chunk
    kind = kind_of(run)
    if scheduler is None and workers is None:
        return (*run_chunks(run, work, kind, store, LocalExecutor(threads), progress, stop), {})
    from cinch_sim.runs.dask_executor import DaskExecutor
    from cinch_sim.runs.work import CheckedWork

    work = CheckedWork.of(work, run)  # a worker's own policy files must be the run's
    ex = DaskExecutor(scheduler, workers, threads, units=partial(units_of, run), kind=kind)
    try:  # the cluster starts (or is reached) in the driver's Ctrl-C region
        agg, interrupted = run_chunks(run, work, kind, store, ex, progress, stop)
        return agg, interrupted, {"cluster": ex.summary()}
    finally:
        ex.close()
