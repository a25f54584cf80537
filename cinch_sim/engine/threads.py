"""The worker threads the batch kernels run on: how many, and how a batch is split.

The kernels are serial loops that release the GIL (``nogil``); ``run_split``
cuts the batch into contiguous pieces, several a thread, and each thread takes
the next piece as it finishes one, so that a few slow games or PIMC hands do
not leave a core idle while another finishes them. Every hand and game draws
from streams keyed by its global index, so the split never changes a bit.
numba's ``parallel=True`` made the same split with OpenMP, but lowering its
parfor took about 4 s of a 24 s cold compile (results/BENCHMARKS.md, sixth
session), for a scaling no better than this.
"""

from __future__ import annotations

import numbers
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial

_setting = threading.local()  # .n: this thread's count while inside ``using``
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def max_threads() -> int:
    """All cores the process may use, or NUMBA_NUM_THREADS where that is set."""
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)


def current() -> int:
    """The thread count kernels started from this thread use now."""
    return getattr(_setting, "n", None) or max_threads()


def check(n: int) -> int:
    """n as an int (numpy's integers too), or a one-line ValueError in the command
    line's words (``--threads``)."""
    top = max_threads()
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise ValueError(f"threads: {n!r} is not a whole number (1..{top})")
    if n < 1:
        raise ValueError(f"threads: {n} is less than 1")
    if n > top:
        raise ValueError(f"threads: {n} is more than the {top} cores this process may use")
    return int(n)


@contextmanager
def using(n: int | None) -> Iterator[None]:
    """Run the kernels started inside on ``n`` threads (None: leave the count as is)."""
    if n is None:
        yield
        return
    n = check(n)
    old = getattr(_setting, "n", None)
    _setting.n = n
    try:
        yield
    finally:
        _setting.n = old


def split(n: int, parts: int) -> list[tuple[int, int]]:
    """[lo, hi) ranges covering 0..n: at most ``parts``, none empty, as equal as can be."""
    parts = max(1, min(parts, n))
    bounds = [n * i // parts for i in range(parts + 1)]
    return list(zip(bounds[:-1], bounds[1:], strict=True))


def _workers() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max(1, max_threads() - 1), "cinch-kernel")
        return _pool


def _forget_pool_after_fork() -> None:
    """A forked child has none of the parent's threads: it starts a pool of its own."""
    global _pool, _pool_lock
    _pool = None
    _pool_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_after_fork)


PIECES_PER_THREAD = 8  # a batch's pieces a thread: balance against a call's overhead


def ranges(n: int) -> list[tuple[int, int]]:
    """The [lo, hi) pieces a batch of n is cut into for the threads now: the whole
    batch on one thread; on more, ``PIECES_PER_THREAD`` a thread (fewer for a small
    batch: none empty)."""
    threads = min(current(), n)
    return [(0, n)] if threads <= 1 else split(n, threads * PIECES_PER_THREAD)


def run_split(work: Callable[[int, int], None], n: int) -> None:
    """work(lo, hi) over the pieces ``ranges(n)`` covering 0..n (``run_pieces``)."""
    run_pieces([partial(work, lo, hi) for lo, hi in ranges(n)])


def run_pieces(pieces: Sequence[Callable[[], None]]) -> None:
    """Every piece, on the threads now, each thread taking the next as it finishes
    one: the pieces of one batch (``run_split``) or of several (``run.run_chunks``: the
    advisor's few slow hands a candidate would leave a core idle one call at a time).

    The calling thread works too. Every piece taken finishes before this returns
    (the arrays they write stay in use until then); after an exception no new
    piece is started, and the first exception is raised here.
    """
    threads = min(current(), len(pieces))
    if threads <= 1:
        for piece in pieces:
            piece()
        return
    taken = iter(pieces)
    lock = threading.Lock()
    failed = threading.Event()

    def drain() -> None:
        while not failed.is_set():
            with lock:
                piece = next(taken, None)
            if piece is None:
                return
            try:
                piece()
            except BaseException:
                failed.set()
                raise

    futures = [_workers().submit(drain) for _ in range(threads - 1)]
    error: BaseException | None = None
    try:
        drain()
    except BaseException as exc:  # re-raised once the other threads are done
        error = exc
    for f in futures:
        exc = f.exception()
        if error is None and exc is not None:
            error = exc
    if error is not None:
        raise error
