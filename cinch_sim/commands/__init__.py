"""CLI subcommands, one module each; ``COMMANDS`` lists them for ``cli.main``."""

from .advise import advise
from .compare import compare, ladder
from .records import referee, show
from .report import report
from .simulate import simulate
from .stats import stats

COMMANDS = [report, simulate, referee, show, advise, stats, compare, ladder]
