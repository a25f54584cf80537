"""Compare W2/W3 single-thread speed of several commits in one run (ratios, not absolutes).

Usage: python scripts/bench_commits.py COMMIT [COMMIT ...] [--rounds 2]

Each commit is checked out in a temporary git worktree with its own numba
cache, compiled once, then measured alternately (median of 5 runs of at
least 2 s, 65,536-hand chunks), so every commit sees the same machine load.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MEASURE = """
import os
os.environ["NUMBA_NUM_THREADS"] = "1"  # one thread, for parfor kernels and for threads.py
import sys, time, warnings, json
warnings.simplefilter("ignore")
sys.path.insert(0, sys.argv[1])
try:
    from cinch_sim.engine.run import PolicySet, run_chunk
except ImportError:  # a commit before the subpackages
    from cinch_sim.engine import PolicySet, run_chunk
from cinch_sim.rules import Rules
r = Rules(robber="dealer")
res = {}
for play in ("random", "greedy"):
    ps = PolicySet.from_specs(4, "simple", "simple", "simple", play)
    run_chunk(r, ps, 1, 0, 1000, 3)
    rates = []
    for k in range(5):
        t = time.perf_counter(); n = 0
        while time.perf_counter() - t < 2:
            run_chunk(r, ps, 1, n, 65536, 3); n += 65536
        rates.append(n / (time.perf_counter() - t))
    rates.sort(); res["W2" if play == "random" else "W3"] = rates[2]
print(json.dumps(res))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("commits", nargs="+")
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trees = {}
        for c in args.commits:
            tree = Path(tmp) / c
            subprocess.run(
                ["git", "worktree", "add", "-f", "--detach", str(tree), c],
                cwd=ROOT,
                check=True,
                capture_output=True,
            )
            trees[c] = tree
        try:
            for rnd in range(args.rounds):
                for c, tree in trees.items():
                    env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / f"cache-{c}"))
                    out = subprocess.run(
                        [sys.executable, "-c", MEASURE, str(tree)],
                        env=env,
                        check=True,
                        capture_output=True,
                        text=True,
                    ).stdout
                    rates = json.loads(out.strip().splitlines()[-1])
                    print(
                        f"round {rnd + 1} {c}: "
                        + ", ".join(f"{k} {v / 1e6:.3f} M/s" for k, v in rates.items()),
                        flush=True,
                    )
        finally:
            for tree in trees.values():
                subprocess.run(
                    ["git", "worktree", "remove", "--force", str(tree)],
                    cwd=ROOT,
                    capture_output=True,
                )


if __name__ == "__main__":
    main()
