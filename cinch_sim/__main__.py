"""``python -m cinch_sim``: the same command line as ``cinch-sim``."""

try:
    from cinch_sim.cli.main import main
except KeyboardInterrupt:  # Ctrl-C before the command line has loaded: nothing to keep
    raise SystemExit(130) from None

main()
