"""The warm start's floor: what any command pays before its own work.

Usage: python scripts/warm_start_floor.py [--runs 5]

Issue 34 asks for ``cinch-sim simulate --hands 100`` within twice ``python -c
"import numba"`` with the cache warm. A command cannot start faster than the
interpreter, numba, the kernel's module and one cached kernel loaded: numba's
first cached load also builds its typing and target contexts. This script times
three processes alternately, each ``--runs`` times, and prints their medians and
their ratios to ``import numba``: that floor, the command, and numba alone.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

FLOOR = "import numba\nfrom cinch_sim.engine.kernel import compiled\ncompiled('simulate_hands')\n"
COMMANDS = {
    "import numba": [sys.executable, "-c", "import numba"],
    "floor: numba and the cached kernel": [sys.executable, "-c", FLOOR],
    "cinch-sim simulate --hands 100": [sys.executable, "-m", "cinch_sim", "simulate",
                                       "--hands", "100"],
}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    for cmd in COMMANDS.values():  # warm the caches (numba's and the OS's) once
        subprocess.run(cmd, check=True, capture_output=True)
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(args.runs):
        for name, cmd in COMMANDS.items():
            start = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            times[name].append(time.perf_counter() - start)
    base = statistics.median(times["import numba"])
    for name, t in times.items():
        m = statistics.median(t)
        print(f"{name:38s} median {m:.3f} s ({min(t):.3f}-{max(t):.3f}), {m / base:.2f}x numba")


if __name__ == "__main__":
    main()
