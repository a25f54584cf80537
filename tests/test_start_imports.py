"""What ``cinch-sim simulate`` loads to print its tables (issue 34, part 3: a warm start
within twice ``import numba``): not pandas, not scipy, not the solver. Each costs a
start 0.05 to 0.14 s; the text tables come from ``analysis.summaries`` instead."""

import subprocess
import sys

HEAVY = ("pandas", "scipy.special", "matplotlib", "cinch_sim.solver.search")

PROGRAM = """
import sys
from cinch_sim.cli.main import main
try:
    main(["simulate", "--hands", "100", "--seed", "3"], standalone_mode=False)
finally:
    sys.stdout.flush()
print("LOADED", *[m for m in {heavy!r} if m in sys.modules])
"""


def test_simulate_prints_its_tables_without_pandas_or_scipy():
    out = subprocess.run(
        [sys.executable, "-c", PROGRAM.format(heavy=HEAVY)],
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout  # fmt: skip
    assert "Bid success (95% Wilson interval)" in out and "Pedro capture" in out
    assert out.strip().splitlines()[-1] == "LOADED"
