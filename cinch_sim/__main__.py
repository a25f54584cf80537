"""``python -m cinch_sim``: the same command line as ``cinch-sim``."""

from cinch_sim.cli.main import main

main()
