"""Long runs in chunks: saved as they go, resumed exactly, merged across seeds.

A run (``simulate``, ``stats``, ``compare``, ``ladder``) is a list of chunk keys:
``(index,)`` for the hands of one seed (chunk ``i`` holds hands ``i * chunk`` to
``(i + 1) * chunk - 1``, dealt by (seed, hand index), so no number depends on
the chunk size) and ``(matchup, index)`` for a ladder. Each chunk's work is a
pure function of (run, key) -> aggregate (``work.count_hands``,
``work.play_match``): the run is a frozen, picklable dataclass (``HandsRun``,
``MatchRun``, ``LadderRun``) naming its policies by their specs, and the
aggregate merges exactly (``HandCounts``: whole-number counts, sums and sums of
squares, in any order; a match's per-pair lists: joined in chunk order), so
neither the completion order nor a stop and resume changes a number.

Modules: ``work`` (the runs and their chunk functions), ``kinds`` (how each
aggregate merges and is written as arrays), ``store`` (``--out DIR``: the
manifest and one atomically written file per finished chunk), ``driver`` (the
loop: Ctrl-C between chunks, resume; ``execute`` picks the executor), ``hands``
(a run of independent hands planned and counted, with its per-hand file),
``merge`` (``cinch-sim merge``), ``chunks`` (how big a chunk is by default: small
where a seat plays slowly).

**Extension point: executors.** ``driver.run_chunks`` takes an executor: any
object with ``map(work, keys)`` yielding ``(key, aggregate)`` for each key, in
any order. ``executor.LocalExecutor`` runs them in order in this process with
the kernel's threads; ``dask_executor.DaskExecutor`` (``--scheduler``,
``--workers``: the ``[distributed]`` extra) scatters ``work`` (a
``functools.partial`` of a chunk function and the run: picklable, since the run
holds only specs and numbers) to the workers, submits a task a key and yields
results as they complete; the driver saves each as it comes and merges in key
order, so the result is the same bit for bit. Local hooks that see every
chunk's rows (``--records``, ``--hand-data``, ``on_chunk``) are bound
into ``work`` only for the local executor.
"""
