"""A run of independent hands, the one way ``simulate``, ``stats`` and the report's bid
study play and count them: planned from the caller's arguments, then counted chunk by
chunk here or on a cluster, each chunk's rows shown to a per-hand file and a hook."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

from cinch_sim import checks
from cinch_sim.analysis.counts import HandCounts
from cinch_sim.engine.interrupts import stop_at_boundary
from cinch_sim.engine.run import PolicySpec, prepare_run
from cinch_sim.rules import Rules
from cinch_sim.runs.chunks import HANDS_CHUNK, SLOW_HANDS_CHUNK, default_chunk
from cinch_sim.runs.driver import execute
from cinch_sim.runs.store import ChunkStore
from cinch_sim.runs.work import HandsRun, count_hands, prime


class RowFile(Protocol):
    """A per-hand output (records, Parquet hand data): fed each chunk's rows, then
    closed into place, or aborted so that nothing half-written is left."""

    def write_chunk(self, rows: Any, trace: Any) -> Any: ...
    def close(self) -> None: ...
    def abort(self) -> None: ...


def plan_hands(
    hands: int,
    seed: int,
    rules: Rules | dict[str, Any] | None,
    dealer: int,
    policies: tuple[PolicySpec, PolicySpec, PolicySpec, PolicySpec],
    chunk: int | None = None,
    trace: bool = False,
) -> tuple[HandsRun, dict[str, Any]]:
    """The checked run and the settings every output records (``chunk``: hands a chunk,
    by default small where a seat plays slowly; no number depends on it)."""
    r, loaded, settings = prepare_run(hands, seed, rules, dealer, *policies)
    chunk = checks.whole(default_chunk(chunk, HANDS_CHUNK, SLOW_HANDS_CHUNK, loaded.slow),
                         "chunk", at_least=1)  # fmt: skip
    run = HandsRun(r, loaded.describe(), settings["seed"], settings["hands"],
                   settings["dealer"], chunk, trace)  # fmt: skip
    prime(run, loaded)
    return run, settings


def count_run(
    run: HandsRun,
    store: ChunkStore | None = None,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    row_file: RowFile | None = None,
    on_chunk: Callable[[Any, Any], None] | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
) -> tuple[HandCounts, bool, dict[str, Any]]:
    """Every chunk of ``run`` counted: (counts, interrupted, the cluster's timing).
    ``row_file`` and ``on_chunk`` see each chunk's rows (a local run only); an error
    aborts the file, and after Ctrl-C it keeps the hands that were finished. Ctrl-C
    (also a KeyboardInterrupt from ``on_chunk``) stops the run after the chunk in hand,
    so the counts and the file always hold the same hands."""

    def see(rows: Any, trace: Any) -> None:
        if row_file is not None:
            row_file.write_chunk(rows, trace)
        if on_chunk is not None:
            try:
                on_chunk(rows, trace)
            except KeyboardInterrupt:  # the hook's Ctrl-C: the chunk is kept, as a real one's
                if not stop_at_boundary():
                    raise

    hook = see if row_file is not None or on_chunk is not None else None
    work = partial(count_hands, run, on_rows=hook)
    try:
        result = execute(run, work, store, threads, progress, scheduler, workers)
    except BaseException:
        if row_file is not None:
            row_file.abort()  # an error leaves no half-written file behind
        raise
    if row_file is not None:
        row_file.close()  # after Ctrl-C too: the finished hands are kept
    return result
