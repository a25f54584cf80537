"""Ctrl-C that stops a long run between chunks, never inside one.

A KeyboardInterrupt raised while a finished chunk is being tallied or written
(records, Parquet) would leave tables and files disagreeing by part of a
chunk. Inside ``chunk_boundaries`` the first Ctrl-C only records the request;
the loop calls ``check()`` before each new chunk and stops there, so every
chunk is processed whole. A second Ctrl-C interrupts at once.
"""

from __future__ import annotations

import signal
import threading


class ChunkInterrupts:
    def __init__(self) -> None:
        self.requested = False
        self._previous = None

    def _handler(self, signum, frame) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    def __enter__(self) -> ChunkInterrupts:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *exc) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None

    def check(self) -> None:
        """Raise KeyboardInterrupt here, at a chunk boundary, if Ctrl-C was pressed."""
        if self.requested:
            raise KeyboardInterrupt


def chunk_boundaries() -> ChunkInterrupts:
    return ChunkInterrupts()
