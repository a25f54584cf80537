"""Ctrl-C that stops a long run between chunks, never inside one.

A KeyboardInterrupt raised while a finished chunk is being tallied or written
(records, Parquet) would leave tables and files disagreeing by part of a
chunk. Inside ``chunk_boundaries`` the first Ctrl-C only records the request;
the loop calls ``check()`` before each new chunk and stops there, so every
chunk is processed whole. A second Ctrl-C interrupts at once (on the command
line it ends the process, even inside compiled code). The handler itself, and
why it never raises inside numba's compiler, is ``cinch_sim.interrupts``.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from cinch_sim.interrupts import ChunkInterrupts, deferred, stop_at_boundary

__all__ = ["ChunkInterrupts", "chunk_boundaries", "stop_at_boundary"]


def chunk_boundaries() -> AbstractContextManager[ChunkInterrupts]:
    return deferred()
