"""Progress on stderr for long commands: a bar on a terminal, a line now and then elsewhere.

A run under ``nohup``, in CI or piped to a log has no terminal, and a bar
there prints nothing useful; such runs get one plain line every
``EVERY`` seconds instead (how far, how fast, how long to go), so a long
run is never silent. The bar starts with the first finished unit of work,
not before: the first run compiles the kernel first, and the compile says
so on its own line instead of a bar stuck at 0%. A compile in the middle of
the work (a strong player's, on a first run) is left out of the pace, and the
lines say what is compiling instead of counting down to a wrong time.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

import click

from cinch_sim.jit import notice

EVERY = 10.0  # seconds between plain progress lines


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 90:
        return f"{seconds} s"
    if seconds < 5400:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"


class Progress:
    """Tell the user how a long run goes; call it with each unit of work done.

    ``total`` None means the size is not known in advance (records read from
    a stream): the lines then say how many so far and how fast. A bar is
    used only on a terminal, for a known total of at least ``threshold``.
    ``heartbeat``: without a bar, a line every ``every`` seconds from the first
    unit of work on, even while a long step reports nothing (the report's).
    """

    def __init__(
        self,
        total: int | None,
        label: str,
        unit: str | None = "hands",
        threshold: int = 200_000,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        heartbeat: bool = False,
        every: float | None = None,
    ) -> None:
        self.total = total
        self.label = label
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.done = 0
        self.kept = 0  # of ``done``: what an earlier run finished (a resume), not played now
        self.start = clock()
        self.first: tuple[float, int] | None = None  # when the first work was told, and how much
        self.last_told = 0.0  # when work was last told (the pace is measured up to it)
        self.every = EVERY if every is None else every  # read now: tests shorten it
        self.next_line = self.start + self.every
        self.lines = 0
        self.bar = None
        self.threshold = threshold
        self.use_bar = False
        self.set_total(total)
        self.heartbeat = heartbeat
        self.beat: threading.Thread | None = None
        self.stopped = threading.Event()
        self.lock = threading.Lock()
        self.compiles = 0  # compiles under way (jit.notice tells them)
        self.compiling = ("", 0.0)  # what compiles, and since when (this clock)
        notice.listen(self)

    def set_total(self, total: int | None) -> None:
        """The size of the work, when it is known only once the work is set up."""
        self.total = total
        self.use_bar = (
            total is not None and total >= self.threshold and getattr(self.stream, "isatty", bool)()
        )

    def __call__(self, n: int) -> None:
        with self.lock:
            self.done += n
            self.last_told = self.clock()
            if self.first is None:
                self.first = (self.last_told, self.done)
        if self.heartbeat and not self.use_bar and self.beat is None:
            self.beat = threading.Thread(target=self._beat, daemon=True)
            self.beat.start()
        if self.use_bar:
            self._bar(n)
            return
        self._maybe_line()

    def _bar(self, n: int) -> None:
        if self.bar is None:
            self.bar = click.progressbar(length=self.total, label=self.label, file=self.stream)
            self.bar.__enter__()
        self.bar.update(n)

    def resumed(self, n: int) -> None:
        """``n`` units an earlier run finished (a resume loads them): counted as done,
        but not in the pace, which would otherwise promise the rest far too soon."""
        with self.lock:
            self.done += n
            self.kept += n
        if self.use_bar:
            self._bar(n)

    def compile_event(self, event: str, what: str, seconds: float) -> None:
        """A compile noticed (``jit.notice``; ``seconds`` since it began). Its time is
        left out of the pace: "about 10 s to go" then "about 5 min" was a first run's
        report, its pace cut by a strong player's compile."""
        with self.lock:
            now = self.clock()
            if event == "compiling":
                if self.compiles == 0:
                    self.compiling = (what, now - seconds)
                self.compiles += 1
            elif self.compiles > 0:
                self.compiles -= 1
                if self.compiles == 0 and self.first is not None:
                    spent = now - max(self.compiling[1], self.first[0])
                    self.first = (self.first[0] + spent, self.first[1])
                    self.last_told = min(self.last_told + spent, now)

    def _maybe_line(self) -> None:
        with self.lock:
            now = self.clock()
            if now < self.next_line:
                return
            self.next_line = now + self.every
            self.lines += 1
            text = self.line(now)
        click.echo(text, file=self.stream)

    def _beat(self) -> None:
        """The heartbeat thread: a line whenever ``every`` seconds pass without one."""
        while not self.stopped.wait(min(1.0, self.every / 4)):
            self._maybe_line()

    def line(self, now: float) -> str:
        """One plain progress line: done so far, the share, the rate, the time to go.

        The time to go comes from the pace since the first work was told, not since
        the start: what came before it (a first run's compile, minutes) is not the
        work's pace, and counting it gave "0% done in 3 min, about 10.3 h to go"."""
        elapsed = max(now - self.start, 1e-9)
        rate = self.done / elapsed
        if self.total:
            share = self.done / self.total
            if self.compiles:  # the time to go as it stood when the compile began
                what, since = self.compiling
                left = self._left(since)
                then = f", then about {_duration(left)} to go" if left != float("inf") else ""
                to_go = f"; first run: compiling {what}{then}"
            else:
                left = self._left(now)
                to_go = f", about {_duration(left)} to go" if left != float("inf") else ""
            if self.unit is None:  # units that mean nothing to a user: the share only
                return f"{self.label}: {share:.0%} done in {_duration(elapsed)}{to_go}"
            kept = f"; {self.kept:,} from the earlier run" if self.kept else ""
            return (
                f"{self.label}: {self.done:,} of {self.total:,} {self.unit} "
                f"({share:.0%}{kept}) in {_duration(elapsed)}{to_go}"
            )
        so_far = f"{_count(self.done, self.unit)} in {_duration(elapsed)}"
        pace = f"{rate:,.0f} a second" if rate >= 1 else f"{_duration(1 / rate)} each"
        return f"{self.label}: {so_far} ({pace})"

    def _left(self, now: float) -> float:
        """Seconds to go at the pace from the first work told to the last (inf until
        there is one), less the time since the last: between two chunks of a slow run
        the estimate counts down instead of growing with every heartbeat line (it rose
        from 28 to 42 minutes while a two-minute chunk ran). Past that, the pace up to
        now: the work is slower than it was."""
        if self.first is None or self.last_told <= self.first[0]:
            return float("inf")
        worked = self.done - self.first[1]
        if worked <= 0:
            return float("inf")
        to_do = self.total - self.done
        left = to_do / (worked / (self.last_told - self.first[0])) - (now - self.last_told)
        return left if left > 0 else to_do / (worked / (now - self.first[0]))

    def close(self) -> None:
        """End the bar; after plain lines, one last line says the run finished."""
        notice.stop_listening(self)
        self.stopped.set()
        if self.beat is not None:
            self.beat.join()
            self.beat = None
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None
        elif self.lines:
            elapsed = self.clock() - self.start
            kept = f" ({self.kept:,} from the earlier run)" if self.kept else ""
            what = f"{_count(self.done, self.unit)}{kept}, " if self.unit is not None else ""
            click.echo(f"{self.label}: {what}done in {_duration(elapsed)}", file=self.stream)
            self.lines = 0


def _count(n: int, unit: str) -> str:
    """``1 hand``, ``2 hands``: a count and its unit, singular for one."""
    return f"{n:,} {unit.removesuffix('s') if n == 1 else unit}"
