"""The ``cinch-sim`` command line: click commands only, no simulation logic.

Each subcommand lives in ``cinch_sim/cli/commands/`` and imports the heavy parts
(numba, pandas) inside its function body, so ``cinch-sim --help`` is instant.
"""

from __future__ import annotations

import logging
import sys

import click

from cinch_sim.cli.commands import COMMANDS
from cinch_sim.cli.files import PipeSafeGroup
from cinch_sim.version import __version__

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "show_default": True}


class _Commands(PipeSafeGroup):
    """The command group: every command runs with Ctrl-C obeyed at any moment, and a
    closed pipe ends it quietly (PipeSafeGroup)."""

    def invoke(self, ctx: click.Context):
        """Run the command under ``interrupts.command_line`` (a second Ctrl-C ends the
        process at once); a Ctrl-C that stops it before it has kept anything is exit
        130 with one line, not click's "Aborted!" and status 1."""
        from cinch_sim.interrupts import EXIT_STATUS, command_line

        try:
            with command_line():
                return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(EXIT_STATUS)
        finally:
            _keep_exit_status()


def _keep_exit_status() -> None:
    """A KeyboardInterrupt raised inside code run by ``exec`` of a string (scipy's
    import does that) marks CPython to end the process by SIGINT, whatever status
    we exit with, even once we have handled it; running a string clears the mark,
    so the exit status stays ours (130 after Ctrl-C)."""
    exec("")


@click.group(cls=_Commands, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, prog_name="cinch-sim")
def main() -> None:
    """Monte Carlo strategy analyser for Cinch (High Five, Double Pedro).

    Simulate millions of hands under pluggable bidding, discard and play
    policies; referee recorded hands; estimate what a hand is worth.
    """
    _tell_on_stderr()


class _Stderr(logging.Handler):
    """Writes to whatever stderr is when a notice comes (click.echo looks it up then)."""

    def emit(self, record: logging.LogRecord) -> None:
        click.echo(self.format(record), err=True)


def _tell_on_stderr() -> None:
    """The package's notices (e.g. that the kernel is compiling) go to stderr."""
    log = logging.getLogger("cinch_sim")
    if not any(isinstance(h, _Stderr) for h in log.handlers):
        log.addHandler(_Stderr())
        log.setLevel(logging.INFO)


for _command in COMMANDS:
    main.add_command(_command)
