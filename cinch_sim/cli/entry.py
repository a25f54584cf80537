"""The ``cinch-sim`` script's entry point: the command line, loaded with Ctrl-C heard.

Loading the commands imports numba (a second or so), before any command has set up
its own Ctrl-C handling: a Ctrl-C then ended the process with a traceback through
numba's import. Here it ends it with the same one line and status as later on."""

from __future__ import annotations

import sys


def run() -> None:
    """Load the command line and run it (``cinch-sim`` and ``python -m cinch_sim``)."""
    try:
        from cinch_sim.cli.main import main
    except KeyboardInterrupt:  # nothing has run yet: nothing to keep
        sys.stderr.write("interrupted\n")
        raise SystemExit(130) from None
    main()
