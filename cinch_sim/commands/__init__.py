"""CLI subcommands, one module each; ``COMMANDS`` lists them for ``cli.main``."""

from .compare import compare, ladder
from .records import referee, show
from .simulate import simulate
from .stats import stats

COMMANDS = [simulate, referee, show, stats, compare, ladder]
