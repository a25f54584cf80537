"""CLI subcommands, one module each; ``COMMANDS`` lists them for ``cli.main``."""

from .records import referee, show
from .simulate import simulate

COMMANDS = [simulate, referee, show]
