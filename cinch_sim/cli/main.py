"""The ``cinch-sim`` command line: click commands only, no simulation logic.

Each subcommand lives in ``cinch_sim/cli/commands/`` and imports the heavy parts
(numba, pandas) inside its function body, so ``cinch-sim --help`` is instant.
"""

from __future__ import annotations

import logging

import click

from cinch_sim import __version__
from cinch_sim.cli.commands import COMMANDS
from cinch_sim.cli.files import PipeSafeGroup

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "show_default": True}


@click.group(cls=PipeSafeGroup, context_settings=CONTEXT_SETTINGS)  # `| head` ends quietly
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
