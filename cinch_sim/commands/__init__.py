"""CLI subcommands, one module each; ``COMMANDS`` lists them for ``cli.main``."""

from .simulate import simulate

COMMANDS = [simulate]
