"""How chunks are run: in order in this process (the one executor for now)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

from cinch_sim.engine.threads import using

Key = tuple[int, ...]


class RunStopped(Exception):
    """An executor cannot go on (a cluster's scheduler lost): the run stops as after a
    Ctrl-C, its finished chunks kept (and resumable), and the message is told once."""


class Executor(Protocol):
    """What ``driver.run_chunks`` needs: every key's aggregate, in any order."""

    def map(
        self, work: Callable[[Key], Any], keys: Sequence[Key]
    ) -> Iterator[tuple[Key, Any]]: ...  # pragma: no cover


class LocalExecutor:
    """Runs the chunks one after the other in this process, the kernel splitting each
    over ``threads`` (None: every core); the loop between two chunks is where Ctrl-C
    stops it, since the next chunk starts only when the driver asks for it."""

    def __init__(self, threads: int | None = None) -> None:
        self.threads = threads

    def map(self, work: Callable[[Key], Any], keys: Sequence[Key]) -> Iterator[tuple[Key, Any]]:
        with using(self.threads):
            for key in keys:
                yield key, work(key)
