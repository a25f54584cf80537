"""Say so when numba compiles: a first run can sit silent for a minute otherwise.

A cache load takes under a second, so a wait past ``NOTICE_AFTER`` with the code
still not loaded is a compile: ``first_compile`` then tells the user what is being
compiled and, when it is done, how long it took. Messages go to the ``cinch_sim``
logger, which the command line prints on stderr; a progress report that ``listen``s
is told too, so that a compile's minutes do not count as the work's pace.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager

LOG = logging.getLogger("cinch_sim")
NOTICE_AFTER = 3.0  # seconds: longer than any cache load
COMPILING = "compiling %s: the first run does it once, %s; later runs load it from the cache"
COMPILED = "compiled %s in %.0f s"
# told of each compile noticed: ``listener.compile_event("compiling" or "compiled",
# what, seconds since it began)``; weak, so a progress report never closed is let go
_LISTENERS: weakref.WeakSet = weakref.WeakSet()


def listen(listener: object) -> None:
    _LISTENERS.add(listener)


def stop_listening(listener: object) -> None:
    _LISTENERS.discard(listener)


def _tell(event: str, what: str, seconds: float) -> None:
    for listener in list(_LISTENERS):
        listener.compile_event(event, what, seconds)


@contextmanager
def first_compile(
    what: str, compiling: Callable[[], bool], takes: str = "in a minute or two"
) -> Iterator[None]:
    """Around the first call of jitted code: after ``NOTICE_AFTER`` seconds, if
    ``compiling()`` (the code is still not loaded), log that ``what`` is being
    compiled (the first run does it once, ``takes``), and at the end how long it took."""
    said = threading.Event()
    start = time.perf_counter()

    def speak() -> None:
        if compiling():
            said.set()
            LOG.info(COMPILING, what, takes)
            _tell("compiling", what, time.perf_counter() - start)

    timer = threading.Timer(NOTICE_AFTER, speak)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        timer.join()  # a notice under way ends before the compile's end is told
        if said.is_set():
            seconds = time.perf_counter() - start
            LOG.info(COMPILED, what, seconds)
            _tell("compiled", what, seconds)
