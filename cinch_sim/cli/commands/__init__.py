"""CLI subcommands, one module each; ``COMMANDS`` lists them for ``cli.main``."""

from cinch_sim.cli.commands.advise import advise
from cinch_sim.cli.commands.compare import compare, ladder
from cinch_sim.cli.commands.merge import merge
from cinch_sim.cli.commands.records import referee, show
from cinch_sim.cli.commands.report import report
from cinch_sim.cli.commands.serve import serve
from cinch_sim.cli.commands.simulate import simulate
from cinch_sim.cli.commands.solve import solve
from cinch_sim.cli.commands.stats import stats
from cinch_sim.cli.commands.variants import variants

COMMANDS = [
    report,
    simulate,
    referee,
    show,
    solve,
    advise,
    stats,
    compare,
    ladder,
    merge,
    variants,
    serve,
]
