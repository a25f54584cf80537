"""The command line's side of output files: checked before any work, results kept off
a stdout that carries a file, and a closed pipe ending the command quietly.

The rules themselves (temp and rename, write-through, modes, stale temporary
files, what ``--force`` replaces) live in ``cinch_sim.outputs``; this module
and ``options.out_folder`` turn their refusals into usage errors naming the
option (exit 2).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any, NoReturn

import click

from cinch_sim.cli.options import BadInput


def output_file(option: str, path: str | None, force: bool) -> None:
    """A file option (--records, --write, --plot) checked before any work: its folder
    exists and is writable, it is not a folder, and a file there is replaced only
    with --force. A usage error naming the option and the path otherwise."""
    from cinch_sim.outputs import OutputError, check_output_file

    if path is None:
        return
    try:
        check_output_file(path, force)
    except OutputError as exc:
        raise BadInput(option, str(exc)) from None


@contextlib.contextmanager
def results_on_stderr_if_stdout_taken(*paths: str | None) -> Iterator[None]:
    """Where the results print: stdout, unless an output file goes there (``-``);
    then on stderr, so the file on stdout stays whole (``--records - | referee -``)."""
    if not any(p == "-" for p in paths):
        yield
        return
    with contextlib.redirect_stdout(sys.stderr):
        yield


def end_quietly() -> NoReturn:
    """The reader of stdout went away (``| head``): stop as Unix tools do, exit 141
    (128 + SIGPIPE), with no message and no second error as Python flushes at exit."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    sys.exit(141)


class PipeSafeGroup(click.Group):
    """The command group: whatever a command prints, a closed pipe ends it quietly.

    stdout is flushed before the command returns (or exits), so a write that
    fails does so here, not in Python's flush at exit ("Exception ignored")."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:  # --help and --version print here, before any command runs
            return super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError:
            end_quietly()

    def invoke(self, ctx: click.Context) -> Any:
        try:
            try:
                return super().invoke(ctx)
            finally:
                with contextlib.suppress(ValueError):  # a stdout already closed
                    sys.stdout.flush()
        except BrokenPipeError:
            end_quietly()
