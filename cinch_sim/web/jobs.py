"""Long queries off the request threads: a small pool of workers, bounded queues.

A browser asks for an answer that is refined in stages (a quick one first, then
the command line's precision); each stage is a function of a ``check`` that
raises ``Cancelled`` once the job is cancelled or out of time, which the stage
calls between its chunks of work with the units just done (the advisor's
progress callback: deals), so the page can show how far the stage has come. The board
keeps one job a client (a new query cancels the client's last one, as changing
an input on the page must), at most ``max_jobs`` unfinished jobs in all (a
further one is refused, ``Busy``, and the page says the server is busy), and
stops a job after ``time_limit`` seconds. A move at a game (``call``: a hand
replayed with PIMC bots, a hint) runs on the same workers, so it shares their cap;
at most ``max_jobs`` of them wait, and a request gives up on its answer after
``time_limit`` seconds. Pure Python, no web framework here.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any

Stage = Callable[[Callable[..., None]], dict[str, Any]]
KEEP_FINISHED = 200  # finished jobs kept for their clients to read, oldest dropped first


class Cancelled(Exception):
    """The job was cancelled (or ran out of time) while a stage ran."""


class Busy(Exception):
    """Too many unfinished jobs: the server refuses another one for now."""


@dataclass
class Job:
    """One query: its stages' latest answer, and where it stands."""

    id: str
    client: str
    stages: int
    status: str = "queued"  # queued, running, done, error, cancelled, timeout
    stage: int = 0  # stages finished
    result: dict[str, Any] | None = None  # the last finished stage's answer
    done: int = 0  # units of work (deals) done in the running stage
    error: str | None = None
    created: float = field(default_factory=time.monotonic)
    cancel: threading.Event = field(default_factory=threading.Event, repr=False)

    @property
    def finished(self) -> bool:
        return self.status in ("done", "error", "cancelled", "timeout")

    def view(self) -> dict[str, Any]:
        """What the page reads: status, stages done of all, the latest answer."""
        return {
            "job": self.id,
            "status": self.status,
            "stage": self.stage,
            "stages": self.stages,
            "final": self.status == "done",
            "done": self.done,
            "result": self.result,
            "error": self.error,
        }


class JobBoard:
    """The jobs of every client, run by ``workers`` threads."""

    def __init__(self, workers: int = 2, max_jobs: int = 16, time_limit: float = 300.0) -> None:
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="cinch-web")
        self.max_jobs = max_jobs
        self.time_limit = time_limit
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.lock = threading.Lock()
        self.ids = itertools.count(1)
        self.calls = 0  # moves waiting for or running on a worker (``call``)

    def submit(self, client: str, stages: list[Stage]) -> Job:
        """Queue a job for ``client``, cancelling its unfinished ones first."""
        with self.lock:
            for job in self.jobs.values():
                if job.client == client and not job.finished:
                    job.cancel.set()
            live = sum(1 for j in self.jobs.values() if not j.finished and not j.cancel.is_set())
            if live >= self.max_jobs:
                raise Busy(f"the server is busy ({live} queries running): try again shortly")
            job = Job(id=f"j{next(self.ids)}", client=client, stages=len(stages))
            self.jobs[job.id] = job
            self._forget_old()
        self.pool.submit(self._run, job, stages)
        return job

    def call(self, fn: Callable[[], Any]) -> Any:
        """``fn()`` run on a worker, its answer (or its exception) waited for: ``Busy``
        when ``max_jobs`` calls already wait, or when it outlasts ``time_limit``."""
        with self.lock:
            if self.calls >= self.max_jobs:
                raise Busy(f"the server is busy ({self.calls} moves waiting): try again shortly")
            self.calls += 1
        try:
            future = self.pool.submit(fn)
            try:
                return future.result(timeout=self.time_limit)
            except FutureTimeout:
                raise Busy(
                    f"no answer within {self.time_limit:.0f} s (the server is busy): try again"
                ) from None
        finally:
            with self.lock:
                self.calls -= 1

    def get(self, job_id: str) -> Job | None:
        with self.lock:
            return self.jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        job = self.get(job_id)
        if job is not None:
            job.cancel.set()
            if job.status == "queued":
                job.status = "cancelled"
        return job

    def shutdown(self) -> None:
        with self.lock:
            for job in self.jobs.values():
                job.cancel.set()
        self.pool.shutdown(wait=True, cancel_futures=True)

    def _forget_old(self) -> None:
        finished = [k for k, j in self.jobs.items() if j.finished]
        for k in finished[: max(0, len(finished) - KEEP_FINISHED)]:
            del self.jobs[k]

    def _run(self, job: Job, stages: list[Stage]) -> None:
        start = time.monotonic()

        def check(units: int = 0) -> None:
            job.done += units
            if job.cancel.is_set():
                raise Cancelled("cancelled")
            if time.monotonic() - start > self.time_limit:
                raise Cancelled("timeout")

        try:
            check()
            job.status = "running"
            for stage in stages:
                job.done = 0
                result = stage(check)
                check()
                job.result = result
                job.stage += 1
            job.status = "done"
        except Cancelled as exc:
            job.status = "timeout" if str(exc) == "timeout" else "cancelled"
            if job.status == "timeout":
                job.error = f"the query ran past its time limit ({self.time_limit:.0f} s)"
        except Exception as exc:  # a query the checks let through and the API refused
            job.status = "error"
            job.error = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
