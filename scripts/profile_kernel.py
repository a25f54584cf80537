"""Profile the kernel with perf: where W2/W3 spend their time, by function and instruction.

Usage (Linux with `perf`, and `pip install capstone` for the instruction view):

    python scripts/profile_kernel.py [--play greedy] [--seconds 12] [--top 25]

numba's JIT code has no symbols for perf. This script compiles the kernel in a
fresh cache (so the LLVM modules are at hand), writes /tmp/perf-PID.map with
every function of the kernel's library, dumps the machine code of the hottest
functions, runs the workload on one thread while `perf record` samples it,
then prints the share of samples per function and the hottest instructions
of `play_hand` (with capstone). This is how the refcount atomics (NRT_incref/
NRT_decref) and the integer divisions in the seat arithmetic were found.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import ctypes, json, os, sys, time, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, sys.argv[1])
import os
os.environ["NUMBA_NUM_THREADS"] = "1"  # one thread (read when numba is imported)
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.rules import Rules
from cinch_sim.engine import kernel
rules = Rules(robber="dealer")
policies = PolicySet.from_specs(4, "simple", "simple", "simple", sys.argv[2])
run_chunk(rules, policies, 1, 0, 1000, 3)
syms = {}
for cres in kernel.simulate_hands.overloads.values():
    lib = cres.library
    for fn in lib.get_llvm_str().split("\ndefine ")[1:]:
        name = fn.split("@", 1)[1].split("(", 1)[0].strip('"')
        try:
            addr = lib.get_pointer_to_function(name)
        except Exception:
            continue
        if addr:
            syms[addr] = name
addrs = sorted(syms)
code = {}
with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
    for i, a in enumerate(addrs):
        size = min((addrs[i + 1] - a) if i + 1 < len(addrs) else 4096, 1 << 20)
        f.write(f"{a:x} {size:x} {syms[a][:100]}\n")
        if "play_hand" in syms[a]:
            code[syms[a]] = (a, ctypes.string_at(a, min(size, 400000)).hex())
json.dump(code, open(sys.argv[3] + "/code.json", "w"))
open(sys.argv[3] + "/ready", "w").write(str(os.getpid()))
t = time.perf_counter(); n = 0
while time.perf_counter() - t < float(sys.argv[4]) + 8:
    run_chunk(rules, policies, 1, n, 65536, 3); n += 65536
print(n / (time.perf_counter() - t))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--play", default="greedy", help="play policy (W3: greedy, W2: random)")
    ap.add_argument("--seconds", type=float, default=12.0)
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "cache"))
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(ROOT), args.play, tmp, str(args.seconds)],
            env=env, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        ready = Path(tmp) / "ready"
        while not ready.exists():
            if child.poll() is not None:
                sys.exit("the workload process ended before it was ready")
            time.sleep(1)
        pid = ready.read_text()
        data = Path(tmp) / "perf.data"
        subprocess.run(
            ["perf", "record", "-q", "-e", "cpu-clock", "-F", "4000", "-p", pid,
             "-o", str(data), "--", "sleep", str(args.seconds)],
            check=True,
        )  # fmt: skip
        print(f"hands/s while profiled: {float(child.communicate()[0].strip()):,.0f}")
        report = subprocess.run(
            ["perf", "report", "-i", str(data), "--no-children", "--sort", "symbol",
             "-g", "none", "--percent-limit", "1"],
            capture_output=True, text=True,
        ).stdout  # fmt: skip
        print("\n".join(line[:110] for line in report.splitlines() if line and line[0] != "#"))
        script = subprocess.run(
            ["perf", "script", "-i", str(data), "-F", "ip"], capture_output=True, text=True
        ).stdout
        ips = collections.Counter(int(x, 16) for x in script.split() if x)
        _hot_instructions(json.load(open(Path(tmp) / "code.json")), ips, args.top)


def _hot_instructions(code: dict, ips: collections.Counter, top: int) -> None:
    try:
        import capstone
    except ImportError:
        print("(pip install capstone for the hottest instructions of play_hand)")
        return
    total = sum(ips.values())
    md = capstone.Cs(capstone.CS_ARCH_X86, capstone.CS_MODE_64)
    for name, (addr, hexcode) in code.items():
        insns = list(md.disasm(bytes.fromhex(hexcode), addr))
        print(f"\n{name[:70]}: {len(insns)} instructions; hottest:")
        hot = sorted(((ips.get(i.address, 0), k) for k, i in enumerate(insns)), reverse=True)
        for count, k in hot[:top]:
            ins = insns[k]
            share = 100 * count / total
            print(f"{share:5.2f}%  +{ins.address - addr:6x}  {ins.mnemonic} {ins.op_str}")


if __name__ == "__main__":
    main()
