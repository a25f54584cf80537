"""Instructions per W2/W3 hand, counted by valgrind: a far steadier measure than time.

Usage: python scripts/count_instructions.py [--hands 100000] [--branches]
                                            [--annotate random|greedy] [--top 20]

On these shared machines a timing moves by 5-10% from run to run; an
instruction count does not move at all. The kernel is compiled natively into a
fresh cache, then run under valgrind's callgrind with no hands and with --hands
hands, collecting only inside the measured ``run_chunk`` call (a two-function C
helper built here with gcc toggles callgrind's collection); the difference,
divided by --hands, is what a hand costs, exactly and the same in every run.
Without gcc or valgrind's headers it falls back to counting whole processes,
where the Python start-up moves the result by a few hundred a hand.

valgrind reports a CPU of its own and has no AVX-512, so the cache is built for
the host's CPU name with AVX-512 (and the other extensions valgrind lacks)
turned off, and valgrind loads that same cache. The code differs from the
native build only in those vector instructions.

--branches adds valgrind's branch simulation (a simple predictor: it counts
every loop exit as a miss, so read its misses as "data-dependent branches to
look at", not as what the CPU mispredicts). --annotate runs callgrind on one
workload and prints play_hand's hottest stretches of machine code, with their
executions per hand (needs ``pip install capstone``). This is how the
register spills, the 14-slot trump-order key and the per-trick point branches
removed at 0c15464 were found (results/BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAYS = {"W2": "random", "W3": "greedy"}
NO_VALGRIND = ("avx512", "amx", "avxvnni", "avxifma", "avxneconvert", "vaes", "vpclmulqdq")
NO_VALGRIND += ("gfni", "sha", "shstk")

CHILD = r"""
import ctypes, json, re, sys, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, sys.argv[1])
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.rules import Rules
from cinch_sim.engine import kernel
play, n, dump = sys.argv[2], int(sys.argv[3]), sys.argv[4]
rules = Rules(robber="dealer")
policies = PolicySet.from_specs(4, "simple", "simple", "simple", play)
run_chunk(rules, policies, 1, 0, 256, 3)
marks = ctypes.CDLL(sys.argv[6]) if len(sys.argv) > 6 else None
if marks:  # callgrind counts only between these two calls
    marks.collect_on()
if n or marks:
    run_chunk(rules, policies, 1, 1000, n, 3)
if marks:
    marks.collect_off()
lib = next(iter(kernel.simulate_hands.overloads.values())).library
if dump == "name":  # on a fresh compile only: the IR names play_hand
    print(re.search(r'define [^@]*@"?([^"(]*play_hand[^"(]*)', lib.get_llvm_str()).group(1))
elif dump != "-":  # play_hand's address and machine code, for --annotate
    name = open(sys.argv[5]).read().strip()
    addr = lib.get_pointer_to_function(name)
    size = 1 << 16
    for line in open("/proc/self/maps"):  # never read past its mapping
        lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
        if lo <= addr < hi:
            size = min(size, hi - addr)
    json.dump({"addr": addr, "code": ctypes.string_at(addr, size).hex()}, open(dump, "w"))
"""


def valgrind_env(cache: Path) -> dict[str, str]:
    """The environment of every child: one thread, no spinning, a valgrind-safe cache."""
    import llvmlite.binding as ll

    features = ll.get_host_cpu_features()
    flags = ",".join(
        ("-" if k.startswith(NO_VALGRIND) or not on else "+") + k
        for k, on in sorted(features.items())
    )
    return dict(
        os.environ,
        PYTHONHASHSEED="0",
        NUMBA_NUM_THREADS="1",
        OMP_WAIT_POLICY="PASSIVE",
        NUMBA_CPU_NAME=ll.get_host_cpu_name(),
        NUMBA_CPU_FEATURES=flags,
        NUMBA_CACHE_DIR=str(cache),
    )


def child(play: str, hands: int, *extra: str) -> list[str]:
    """The command of one child: the workload, then (with extra) what to dump."""
    return [sys.executable, "-c", CHILD, str(ROOT), play, str(hands), *(extra or ("-",))]


MARKS_C = """
#include <valgrind/callgrind.h>
void collect_on(void) { CALLGRIND_ZERO_STATS; CALLGRIND_TOGGLE_COLLECT; }
void collect_off(void) { CALLGRIND_TOGGLE_COLLECT; }
"""


def build_marks(tmp: Path) -> Path | None:
    """The C helper that switches callgrind's collection on and off, or None."""
    src, lib = tmp / "marks.c", tmp / "libmarks.so"
    src.write_text(MARKS_C)
    try:
        subprocess.run(["gcc", "-O1", "-shared", "-fPIC", "-o", str(lib), str(src)],
                       check=True, capture_output=True)  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return None
    return lib


def count(env: dict[str, str], play: str, hands: int, branches: bool,
          marks: Path | None, tmp: Path) -> dict[str, int]:  # fmt: skip
    """valgrind's counts of one child run: of its measured call with ``marks``, else of
    the whole process (instructions, and branches if asked)."""
    out = tmp / f"count-{play}-{hands}.out"
    if marks:
        cmd = ["valgrind", "--tool=callgrind", "--collect-atstart=no",
               f"--callgrind-out-file={out}"]  # fmt: skip
        cmd += ["--branch-sim=yes"] if branches else []
        extra = ("-", "-", str(marks))
    else:
        cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}"]
        cmd += ["--branch-sim=yes"] if branches else []
        extra = ()
    subprocess.run(cmd + child(play, hands, *extra), env=env, capture_output=True, check=True)
    events: list[str] = []
    totals: list[int] = []
    for line in out.read_text().splitlines():
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith(("summary:", "totals:")):
            totals = [int(x) for x in line.split()[1:]]
    got = dict(zip(events, totals, strict=False))
    counts = {"instructions": got.get("Ir", 0)}
    if branches:
        counts["branches"] = got.get("Bc", 0)
        counts["misses"] = got.get("Bcm", 0)
    return counts


def play_hand_name(env: dict[str, str]) -> str:
    """The mangled name of play_hand: the same child as the cached build, compiled afresh
    (a cache hit keeps no IR), so numba numbers its functions the same way."""
    fresh = tempfile.mkdtemp()
    try:
        out = subprocess.run(child("random", 0, "name"), env=dict(env, NUMBA_CACHE_DIR=fresh),
                             capture_output=True, text=True, check=True)  # fmt: skip
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
    return out.stdout.strip().splitlines()[-1]


def annotate(env: dict[str, str], play: str, hands: int, top: int, tmp: Path) -> None:
    """callgrind on one workload; print play_hand's hottest stretches of code."""
    import capstone

    names = tmp / "name.txt"
    names.write_text(play_hand_name(env))
    out, dump = tmp / "callgrind.out", tmp / "code.json"
    cmd = ["valgrind", "--tool=callgrind", "--dump-instr=yes", f"--callgrind-out-file={out}"]
    subprocess.run(cmd + child(play, hands, str(dump), str(names)), env=env,
                   capture_output=True, check=True)  # fmt: skip
    cost: dict[int, int] = {}
    addr, skip = 0, False
    for line in out.read_text().splitlines():
        if line.startswith("calls="):
            skip = True  # the next cost line is a call's inclusive cost
            continue
        if not line or line[0] not in "0123456789+-*":
            skip = False
            continue
        parts = line.split()
        pos = parts[0]
        if pos.startswith("0x"):
            addr = int(pos, 16)
        elif pos[0] in "+-":
            addr += int(pos)
        if not skip and len(parts) > 2:
            cost[addr] = cost.get(addr, 0) + int(parts[2])
        skip = False
    code = json.loads(dump.read_text())
    base = code["addr"]
    md = capstone.Cs(capstone.CS_ARCH_X86, capstone.CS_MODE_64)
    rows = [(cost.get(i.address, 0) / hands, i.address - base, f"{i.mnemonic} {i.op_str}")
            for i in md.disasm(bytes.fromhex(code["code"]), base)]  # fmt: skip
    print(f"\nplay_hand's own instructions per {play} hand: {sum(r[0] for r in rows):,.0f}")
    # stretches of consecutive instructions run equally often: a loop body or a path
    runs: list[list] = []
    for per_hand, off, text in rows:
        if per_hand < 0.05:
            continue
        last = runs[-1] if runs else None
        if last and abs(last[0] - per_hand) < 0.15 and off - last[2] < 64:
            last[2], last[3] = off, last[3] + per_hand
            last[4].append(text)
        else:
            runs.append([per_hand, off, off, per_hand, [text]])
    print("| offsets | runs a hand | instructions | per hand | first instructions |")
    print("|---|---:|---:|---:|---|")
    for per_hand, lo, hi, total, texts in sorted(runs, key=lambda r: -r[3])[:top]:
        print(f"| {lo:#x}-{hi:#x} | {per_hand:.1f} | {len(texts)} | {total:.0f} | "
              f"`{'; '.join(texts[:3])}` |")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--branches", action="store_true", help="also simulate branch prediction")
    ap.add_argument("--annotate", choices=sorted(PLAYS.values()), help="hottest code of a play")
    ap.add_argument("--top", type=int, default=20, help="stretches of code to print")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("count_instructions: valgrind is not installed")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        env = valgrind_env(tmp / "cache")
        subprocess.run(child("random", 0), env=env, check=True)  # compile, natively
        marks = build_marks(tmp)
        if marks is None:
            print("gcc or valgrind's headers missing: counting whole processes (+-300 a hand)")
        print("| workload | instructions a hand | conditional branches | simulated misses |")
        print("|---|---:|---:|---:|")
        for name, play in PLAYS.items():
            zero = count(env, play, 0, args.branches, marks, tmp)
            full = count(env, play, args.hands, args.branches, marks, tmp)
            per = {k: (full[k] - zero[k]) / args.hands for k in full}
            branches = f"{per['branches']:.0f}" if "branches" in per else "-"
            misses = f"{per['misses']:.1f}" if "misses" in per else "-"
            print(f"| {name} | {per['instructions']:,.0f} | {branches} | {misses} |", flush=True)
        if args.annotate:
            annotate(env, args.annotate, min(args.hands, 100_000), args.top, tmp)


if __name__ == "__main__":
    main()
