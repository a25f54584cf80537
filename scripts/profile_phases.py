"""Where a W2/W3 hand's time goes, phase by phase: the kernel cut short after each.

Usage: python scripts/profile_phases.py [--seconds 0.3] [--repeats 9]
                                        [--instructions [--hands 20000]]

A sampling profiler smears a hand's time over inlined code; this measures it
instead. The package is copied to a temporary folder, and its ``play_hand``
gets an early return before each ``# ---- <phase>`` comment (each stands before
the call of that phase's inlined function), chosen by a module constant (numba
freezes it at compile time, so every cut is its own compiled kernel in its own
cache). Each cut is timed on one thread; a phase's cost is the difference
between the cuts around it. Out-of-order execution overlaps the end of one
phase with the start of the next, so read the figures to about 10 ns; a full
run compiles one kernel per cut (about 30 s each).

``--instructions`` counts instead of timing: each cut's W2 and W3 instructions a
hand under valgrind, inside the measured ``run_chunk`` call only, exactly as
``count_instructions.py`` counts the whole hand. A count does not move from run
to run, so a phase's share is exact (issue 34's breakdown).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(r"^    # ---- (.*)$")

CHILD = r"""
import sys, time, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, sys.argv[1])
import os
os.environ["NUMBA_NUM_THREADS"] = "1"  # one thread (read when numba is imported)
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.rules import Rules
seconds, repeats = float(sys.argv[2]), int(sys.argv[3])
for play in ("random", "greedy"):
    rules = Rules(robber="dealer")
    pol = PolicySet.from_specs(4, "simple", "simple", "simple", play)
    run_chunk(rules, pol, 1, 0, 65536, 3)
    best = []
    for _ in range(repeats):
        start, n = time.perf_counter(), 0
        while time.perf_counter() - start < seconds:
            run_chunk(rules, pol, 1, n, 65536, 3)
            n += 65536
        best.append((time.perf_counter() - start) / n * 1e9)
    print(sorted(best)[len(best) // 2])
"""


def cut_copy(dest: Path) -> list[str]:
    """Copy the package with the cuts in place; return the phase names in order."""
    skip = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "cinch_sim", dest / "cinch_sim", ignore=skip)
    path = dest / "cinch_sim" / "engine" / "kernel.py"
    lines = path.read_text().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("def play_hand("))
    body = next(i for i in range(start + 1, len(lines)) if lines[i].rstrip().endswith('"""'))
    out = lines[: body + 1] + ["    if CUT == 0:\n", "        return\n"]
    names = ["call into play_hand"]
    in_play_hand = True
    for line in lines[body + 1 :]:
        if line.startswith("def ") or line.startswith("@"):
            in_play_hand = False
        m = MARKER.match(line) if in_play_hand else None
        if m:
            out += [f"    if CUT == {len(names)}:\n", "        return\n"]
            names.append(m.group(1))
        out.append(line)
    # numba reads a global when it compiles, after the module has loaded: the end will do
    out.append("\nCUT = int(__import__('os').environ['CINCH_CUT'])\n")
    path.write_text("".join(out))
    # a cut hand leaves its result row half written: the copy's run_chunk reads no errors
    run = dest / "cinch_sim" / "engine" / "run.py"
    run.write_text(run.read_text() + "\n\ndef check_errors(*args, **kwargs):\n    return None\n")
    return names


def timed(tmp: str, k: int, args: argparse.Namespace) -> list[float]:
    """ns a W2 and a W3 hand with cut ``k``, the median of timed runs on one thread."""
    env = dict(os.environ, CINCH_CUT=str(k), NUMBA_CACHE_DIR=f"{tmp}/cache{k}")
    run = subprocess.run(
        [sys.executable, "-c", CHILD, tmp, str(args.seconds), str(args.repeats)],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return [float(x) for x in run.stdout.split()]


def counted(tmp: str, k: int, args: argparse.Namespace) -> list[float]:
    """Instructions a W2 and a W3 hand with cut ``k`` (count_instructions' way)."""
    import count_instructions as ci

    ci.ROOT = Path(tmp)  # its child imports the package with the cuts
    env = dict(ci.valgrind_env(Path(tmp) / f"vcache{k}"), CINCH_CUT=str(k))
    subprocess.run(ci.child("random", 0), env=env, check=True)  # compile, natively
    marks = ci.build_marks(Path(tmp))
    out = []
    for play in ci.PLAYS.values():
        zero = ci.count(env, play, 0, False, marks, Path(tmp))
        full = ci.count(env, play, args.hands, False, marks, Path(tmp))
        out.append((full["instructions"] - zero["instructions"]) / args.hands)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=0.3, help="length of one timed run")
    ap.add_argument("--repeats", type=int, default=9, help="timed runs per cut (median)")
    ap.add_argument("--instructions", action="store_true", help="count under valgrind instead")
    ap.add_argument("--hands", type=int, default=20_000, help="hands counted (--instructions)")
    args = ap.parse_args()
    measure, unit = (counted, "instructions") if args.instructions else (timed, "ns")
    with tempfile.TemporaryDirectory() as tmp:
        names = cut_copy(Path(tmp))
        got = []
        for k in range(len(names) + 1):  # the last: no cut, the whole hand
            got.append(measure(tmp, k, args))
            w2, w3 = got[-1]
            print(f"cut {k}/{len(names)}: W2 {w2:.0f}, W3 {w3:.0f} {unit}", file=sys.stderr)
    # cut 0 returns at once; cut k >= 1 just before phase names[k]; the last run has no cut
    labels = ["batch loop and the call into play_hand", "result row"] + names[1:]
    print(f"| phase | W2 {unit} | W3 {unit} |\n|---|---:|---:|")
    for k, label in enumerate(labels):
        lo = got[k - 1] if k else [0.0, 0.0]
        print(f"| {label} | {got[k][0] - lo[0]:.0f} | {got[k][1] - lo[1]:.0f} |")
    print(f"| **whole hand** | **{got[-1][0]:.0f}** | **{got[-1][1]:.0f}** |")


if __name__ == "__main__":
    main()
