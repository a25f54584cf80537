"""Ctrl-C that is always obeyed, never lost, and never lands half-way through a chunk.

Three ways a Ctrl-C used to go wrong, and what this module does about each:

* numba loads and compiles through llvmlite, which calls back into Python from C
  (its object-cache hooks). A KeyboardInterrupt raised inside such a callback is
  printed as "Exception ignored on calling ctypes callback function" and lost: the
  load goes on, and so does the run. While our handler holds SIGINT it never
  raises inside llvmlite; a thread asks it again (``_thread.interrupt_main``)
  until the callback has returned, and it raises there. ``compiling()`` puts
  our handler around numba's loads for API callers too, and makes a Ctrl-C
  during a compile stop it, even inside a chunk loop.
* The same holds for a ``__del__`` method or a weakref callback (importlib keeps
  one per module lock): Python prints an exception raised there as "Exception
  ignored" and goes on. A Ctrl-C that lands in one is asked again the same way.
* A KeyboardInterrupt while a finished chunk is tallied or written would leave
  tables and files disagreeing by part of a chunk: inside ``deferred()`` the first
  Ctrl-C only records the request, and ``check()`` raises it at the next chunk
  boundary. The request stands until the outermost region ends, so a command made
  of many runs (the report, the ladder) stops as a whole.
* Compiled code (the kernel, a user's policy) runs no Python handler until it
  returns, so a policy that loops forever would hold a deferred Ctrl-C for ever.
  For a command (``command_line()``) a thread watches SIGINT itself (the wakeup fd)
  and ends the process at the second Ctrl-C, at once, with exit status 130.

Handlers can only be set in the main thread; elsewhere these are no-ops (Python
runs SIGINT handlers in the main thread only).
"""

from __future__ import annotations

import _thread
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

EXIT_STATUS = 130  # 128 + SIGINT, what a shell reports for a command Ctrl-C stopped
REDELIVER_EVERY = 0.01  # seconds between asks while a Ctrl-C waits for llvmlite
HINT_AFTER = 2.0  # seconds a first Ctrl-C may go unanswered before we say what to do
# Signals closer than this are one press: ``timeout -s INT`` signals the process and
# then its group, microseconds apart; no hand presses Ctrl-C twice that quickly.
ONE_PRESS = 0.05  # seconds
HINT = "Ctrl-C: stopping once the work in hand is done; press Ctrl-C again to end at once"
ENDED = "Ctrl-C again: ended at once, unfinished work lost"


class _State:
    """The process's one SIGINT handler and what it knows (main thread only)."""

    def __init__(self) -> None:
        self.depth = 0  # nested installed() regions
        self.deferring = 0  # nested deferred() regions (compiling() sets it to 0)
        self.requested = False  # a Ctrl-C came; it stands until the outermost region ends
        self.pending = False  # a Ctrl-C to raise once out of llvmlite's callbacks
        self.echoes = 0  # our own re-deliveries, which the watcher must not count
        self.watching = False  # command_line(): the watcher ends the process at the second
        self.previous = None  # the handler ours replaced
        self.lock = threading.Lock()  # no re-delivery once the handler is put back
        self.starting = False  # the re-delivery thread is starting (its first ask may come)

    def on_sigint(self, signum, frame) -> None:
        if self.pending:  # our own re-delivery (or a Ctrl-C merged with it)
            if self.starting:
                return  # inside our own handler, still in the callback: it asks again
            if self.deferring:
                self.pending = False  # check() raises it at the chunk boundary
                return
            self._raise(frame)
            return
        first = not self.requested
        self.requested = True
        if not first and self.watching:
            return  # the watcher ends the process: nothing to half-do here
        if first and self.deferring:
            return  # recorded: check() raises it at the chunk boundary
        self._raise(frame)

    def _raise(self, frame) -> None:
        if _inside_llvmlite(frame) or _exceptions_ignored(frame):
            if not self.pending:
                self.pending = True
                self.starting = True
                try:
                    threading.Thread(target=self._redeliver, name="cinch-ctrl-c-again",
                                     daemon=True).start()  # fmt: skip
                finally:
                    self.starting = False
            return
        self.pending = False
        raise KeyboardInterrupt

    def _redeliver(self) -> None:
        """Ask the handler again, every few ms, until it has raised: not from the
        handler itself, which would run again at once, still inside the callback."""
        while self.pending:
            time.sleep(REDELIVER_EVERY)
            with self.lock:
                if self.pending:
                    self.echoes += 1  # before the wakeup fd gets its byte
                    _thread.interrupt_main()


_state = _State()
_llvmlite_dir: str | None = None


def _inside_llvmlite(frame) -> bool:
    """Whether llvmlite's Python code is on the stack (its C callbacks run there)."""
    global _llvmlite_dir
    if _llvmlite_dir is None:
        mod = sys.modules.get("llvmlite")
        if mod is None or not getattr(mod, "__file__", None):
            return False
        _llvmlite_dir = os.path.dirname(mod.__file__) + os.sep
    while frame is not None:
        if frame.f_code.co_filename.startswith(_llvmlite_dir):
            return True
        frame = frame.f_back
    return False


# Code whose exceptions Python prints and drops: finalizers, and the weakref callbacks
# of importlib (its module locks) and of the weakref module's containers. Asking
# again a few ms later costs nothing where the code is ordinary.
_IGNORING_PREFIX = "<frozen importlib"
_IGNORING_SUFFIXES = (os.sep + "weakref.py", os.sep + "_weakrefset.py")


def _exceptions_ignored(frame) -> bool:
    """Whether the running function may be one whose exception would be lost."""
    if frame is None:
        return False
    name, file = frame.f_code.co_name, frame.f_code.co_filename
    ignoring_file = file.startswith(_IGNORING_PREFIX) or file.endswith(_IGNORING_SUFFIXES)
    return name == "__del__" or ignoring_file


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def installed() -> Iterator[None]:
    """Our SIGINT handler for the duration (nested regions share it, and one request)."""
    if not _main_thread():
        yield
        return
    s = _state
    if s.depth == 0:
        s.previous = signal.signal(signal.SIGINT, s.on_sigint)
        s.requested = s.pending = False
    s.depth += 1
    try:
        yield
    finally:
        s.depth -= 1
        if s.depth == 0:
            with s.lock:
                previous, s.previous = s.previous, None
                signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)
                s.requested = s.pending = False


class ChunkInterrupts:
    """What a loop over chunks asks: whether Ctrl-C was pressed, and ``check()``."""

    def __init__(self, active: bool) -> None:
        self._active = active

    @property
    def requested(self) -> bool:
        return self._active and _state.requested

    def check(self) -> None:
        """Raise KeyboardInterrupt here, at a chunk boundary, if Ctrl-C was pressed."""
        if self.requested:
            _state.pending = False
            raise KeyboardInterrupt


def stop_at_boundary() -> bool:
    """Record a stop at the next chunk boundary, as a first Ctrl-C inside ``deferred()``
    would (a caller's hook that raised KeyboardInterrupt mid-chunk); False outside
    one, where the caller raises it instead."""
    if not (_main_thread() and _state.deferring):
        return False
    _state.requested = True
    return True


@contextmanager
def deferred() -> Iterator[ChunkInterrupts]:
    """A Ctrl-C inside is recorded, and raised by ``check()`` at the next boundary."""
    active = _main_thread()
    with installed():
        if active:
            _state.deferring += 1
        try:
            yield ChunkInterrupts(active)
        finally:
            if active:
                _state.deferring -= 1


@contextmanager
def finishing() -> Iterator[None]:
    """Around a finished (or stopped) run's printing and writing: a Ctrl-C that comes
    inside waits until every table, chart and run.json is out, then stops the command
    (KeyboardInterrupt at the end), so that no folder is left half-written; a second
    Ctrl-C still ends the process at once. One that came before is the run's own."""
    if not _main_thread():
        yield
        return
    before = _state.requested
    with deferred():
        yield
    if _state.requested and not before:
        _state.pending = False
        raise KeyboardInterrupt


@contextmanager
def compiling() -> Iterator[None]:
    """Around a numba import, load or compile: a Ctrl-C stops it at once, even inside
    a deferred region (nothing is half done yet), but never inside llvmlite's
    callbacks; one that came during it and is still waiting is raised as it ends.
    (A Ctrl-C that came before is left to the region's own ``check()``.)"""
    if not _main_thread():
        yield
        return
    s = _state
    with installed():
        saved, s.deferring = s.deferring, 0
        before = s.requested
        try:
            yield
            if s.requested and not before:
                s.pending = False
                raise KeyboardInterrupt
        finally:
            s.deferring = saved


class _Watcher:
    """A thread that sees every SIGINT, whatever the main thread is doing (Python's C
    handler writes each signal's number to the wakeup fd), and ends the process at
    the second: compiled code that never returns cannot hold the process."""

    def __init__(self) -> None:
        self._base = _state.echoes  # re-deliveries before we watched wrote no byte
        self._read, self._write = os.pipe()
        os.set_blocking(self._write, False)
        self._previous_fd = signal.set_wakeup_fd(self._write, warn_on_full_buffer=False)
        self._thread = threading.Thread(target=self._watch, name="cinch-ctrl-c", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        seen = 0  # SIGINT bytes read
        merged = 0  # of them, the second of one press (ONE_PRESS)
        last = -ONE_PRESS  # when the last press came
        hinted = False

        def presses() -> int:
            return seen - (_state.echoes - self._base) - merged

        while True:
            wait = HINT_AFTER if presses() == 1 and not hinted else None
            ready, _, _ = select.select([self._read], [], [], wait)
            if not ready:
                hinted = True
                _say(HINT)
                continue
            data = os.read(self._read, 512)
            if not data:
                return  # stop() closed the pipe
            now = time.monotonic()
            before = presses()
            seen += data.count(int(signal.SIGINT))
            new = presses() - before
            if new > 0:  # signals this close together are one press
                merged += new if now - last < ONE_PRESS else new - 1
                last = now if now - last >= ONE_PRESS else last
            if presses() >= 2:
                _say(ENDED)
                os._exit(EXIT_STATUS)

    def stop(self) -> None:
        signal.set_wakeup_fd(self._previous_fd)
        os.close(self._write)
        self._thread.join(1.0)
        os.close(self._read)


def _say(text: str) -> None:
    """One line on stderr, from the watcher (the progress bar may own the line)."""
    try:
        lead = "\n" if os.isatty(2) else ""
        os.write(2, f"{lead}{text}\n".encode())
    except OSError:
        pass


@contextmanager
def command_line() -> Iterator[None]:
    """The whole of one command: our handler throughout (a Ctrl-C raises
    KeyboardInterrupt at once outside chunk loops, and is recorded inside them),
    and the second Ctrl-C ends the process at once with exit status 130."""
    if not _main_thread():
        yield
        return
    with installed():
        watcher = _Watcher() if os.name == "posix" else None  # a pipe as wakeup fd
        _state.watching = watcher is not None
        try:
            yield
        finally:
            _state.watching = False
            if watcher is not None:
                watcher.stop()
