"""Say so when numba compiles: a first run can sit silent for a minute otherwise.

A cache load takes under a second, so a wait past ``NOTICE_AFTER`` with the code
still not loaded is a compile: ``first_compile`` then tells the user what is being
compiled and, when it is done, how long it took. Messages go to the ``cinch_sim``
logger, which the command line prints on stderr.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

LOG = logging.getLogger("cinch_sim")
NOTICE_AFTER = 3.0  # seconds: longer than any cache load
COMPILING = (
    "compiling %s: the first run does it once, in a minute or two; later runs load it "
    "from the cache"
)
COMPILED = "compiled %s in %.0f s"


@contextmanager
def first_compile(what: str, compiling: Callable[[], bool]) -> Iterator[None]:
    """Around the first call of jitted code: after ``NOTICE_AFTER`` seconds, if
    ``compiling()`` (the code is still not loaded), log that ``what`` is being
    compiled, and at the end how long it took."""
    said = threading.Event()

    def speak() -> None:
        if compiling():
            said.set()
            LOG.info(COMPILING, what)

    timer = threading.Timer(NOTICE_AFTER, speak)
    timer.daemon = True
    start = time.perf_counter()
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        if said.is_set():
            LOG.info(COMPILED, what, time.perf_counter() - start)
