"""``python -m cinch_sim``: the same command line as ``cinch-sim``."""

from cinch_sim.cli.entry import run

run()
