"""Measure the docs/benchmarks.md workloads (W1-W3), the solver (DD), compile and load times.

Usage: python scripts/bench.py [--seconds 2] [--repeats 5] [--write results/BENCHMARKS.md]
                               [--only W1|W2|W3|DD] [--dd-positions 10000]

Prints one row per workload: hands per second on one thread and on all
cores (median of --repeats runs of at least --seconds each, after a warm-up),
the W2/W3 tallies (so no work can be optimised away), the kernel's cold
compile time (fresh cache folder) and warm load time, the CLI's warm start
(median wall time of ``cinch-sim simulate --hands 100``, cached kernel) and the
CLI path: W2 through ``cinch-sim simulate --format json`` as a share of the
kernel's W2 rate in the same run.

DD times the double-dummy solver (docs/solver.md) on one core: the value of a
full 6-trick position at the start of play, and every first card's value, over
--dd-positions hands the kernel dealt and the heuristic bid, discarded and
drew (median, 99th percentile and worst, in microseconds, each call timed on
its own from Python, so about a microsecond of call overhead is included).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cinch_sim import layout as L  # noqa: E402
from cinch_sim.engine.run import PolicySet, run_chunk, run_deals  # noqa: E402
from cinch_sim.engine.threads import max_threads, using  # noqa: E402
from cinch_sim.rules import Rules  # noqa: E402

RULES = Rules(robber="dealer")
DEALER = 3
BATCH = 1 << 16  # hands per kernel call, as the API streams them


def timed(fn, seconds: float) -> float:
    """Hands/s of one run of at least ``seconds``."""
    done = 0
    start = time.perf_counter()
    while True:
        done += fn()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def rates(fn, seconds: float, repeats: int, cores: int) -> tuple[float, ...]:
    """Median hands/s on 1 thread and on ``cores``, the median ratio of the two, and
    the best run of each.

    The 1-thread and all-core runs alternate, and the ratio is taken run pair by
    run pair: on a shared machine whose other load comes and goes, each pair
    sees about the same machine, where two blocks of runs would not. The best
    run is what the machine does when the host leaves it alone; the median is
    the figure to quote.
    """
    with using(1):
        fn()  # warm-up
    one, many = [], []
    for _ in range(repeats):
        with using(1):
            one.append(timed(fn, seconds))
        with using(cores):
            many.append(timed(fn, seconds))
    ratio = statistics.median(m / o for o, m in zip(one, many, strict=True))
    return statistics.median(one), statistics.median(many), ratio, max(one), max(many)


def w1():
    counter = [0]

    def run() -> int:
        run_deals(RULES, 1, counter[0], BATCH, DEALER)
        counter[0] += BATCH
        return BATCH

    return run, None


PEDRO_SLOTS = np.array([slot for _, slot in Rules().pedros])  # the right and the left Pedro


@numba.njit  # not cached: a script's module name differs between uses
def add_to_tally(out, made, set_, pedro):
    """One pass over a chunk's rows: made/set by bid, and each Pedro's fate (0: the
    bidding side, 1: the defenders, 2: not in play). Compiled, because it is serial
    work between parallel kernel calls: as numpy bincounts it took 2.2 ms a chunk
    (0.39 ms now), a cost the two-thread rate pays in full (BENCHMARKS.md)."""
    for i in range(out.shape[0]):
        bid = out[i, L.H_BID]
        if out[i, L.H_MADE] == 1:
            made[bid] += 1
        else:
            set_[bid] += 1
        mteam = out[i, L.H_MAKER] % 2
        for k in range(PEDRO_SLOTS.shape[0]):
            team = out[i, L.H_SLOT_TEAM + PEDRO_SLOTS[k]]
            pedro[k, 2 if team < 0 else (0 if team == mteam else 1)] += 1


def hands_workload(play: str):
    policies = PolicySet.from_specs(4, "simple", "simple", "simple", play)
    tally = {
        "made": np.zeros(15, np.int64),
        "set": np.zeros(15, np.int64),
        "pedro": np.zeros((2, 3), np.int64),
        "hands": 0,
    }
    counter = [0]

    def run() -> int:
        out, _ = run_chunk(RULES, policies, 1, counter[0], BATCH, DEALER)
        counter[0] += BATCH
        add_to_tally(out, tally["made"], tally["set"], tally["pedro"])
        tally["hands"] += BATCH
        return BATCH

    return run, tally


def dd_positions(n: int) -> list[np.ndarray]:
    """Start-of-play positions of n hands the kernel played (thrown-in hands skipped,
    more dealt until there are n)."""
    from cinch_sim.solver.position import from_trace

    policies = PolicySet.from_specs(4)
    out, tr = run_chunk(RULES, policies, 7, 0, n + n // 4 + 100, DEALER, trace=True)
    keep = [i for i in range(out.shape[0]) if not out[i, L.H_THROWN_IN]][:n]
    if len(keep) < n:
        sys.exit(f"bench: only {len(keep)} of {n} hands were played out")
    return [from_trace(RULES, out[i], tr[i])[0] for i in keep]


def dd_workload(n: int) -> list[str]:
    """The DD lines: per position, one solve and one all-first-cards call, fresh table
    stamps (a new deal each time), timed one by one."""
    from cinch_sim.solver.search import W_NODES, card_values, new_workspace, solve

    positions = dd_positions(n)
    rv = RULES.to_array()
    ws = new_workspace()
    values = np.empty(52, np.int64)
    solve(positions[0], rv, ws)  # compile or load
    card_values(positions[0], rv, ws, values)
    clock = time.perf_counter_ns
    value_us, cards_us, nodes, total = [], [], [], 0
    for pos in positions:
        ws[W_NODES] = 0
        t = clock()
        total += solve(pos, rv, ws)
        value_us.append((clock() - t) / 1e3)
        nodes.append(int(ws[W_NODES]))
    for pos in positions:
        t = clock()
        card_values(pos, rv, ws, values)
        cards_us.append((clock() - t) / 1e3)
    lines = [
        "",
        f"DD (double-dummy solver, one core, {n:,} start-of-play positions dealt by the "
        "kernel, heuristic bids and discards; microseconds per call):",
        "",
        "| what | median | 99th percentile | worst | mean |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, xs in (("value of the position", value_us), ("every first card's value", cards_us)):
        a = np.array(xs)
        lines.append(
            f"| {name} | {np.median(a):,.0f} | {np.percentile(a, 99):,.0f} | {a.max():,.0f} "
            f"| {a.mean():,.0f} |"
        )
    nd = np.array(nodes)
    lines += [
        "",
        f"Nodes searched for the value: median {np.median(nd):,.0f}, 99th percentile "
        f"{np.percentile(nd, 99):,.0f}, worst {nd.max():,}; the maker's side's mean "
        f"double-dummy value {total / n:.2f} points (a tally, so no work is skipped).",
    ]
    for ln in lines[5:7] + lines[-1:]:
        print(ln, flush=True)
    return lines


def child_seconds(code: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT)
    return time.perf_counter() - start


W2_CLI = [
    "cinch-sim", "simulate", "--bid-policy", "simple", "--trump-policy", "simple",
    "--discard-policy", "simple", "--play-policy", "random", "--rule", "robber=dealer",
    "--format", "json",
]  # fmt: skip


def cli_wall(args: list[str]) -> float:
    """Wall time of one CLI run; the bench stops with its error if it fails."""
    start = time.perf_counter()
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or ["no output"])[-1]
        sys.exit(f"bench: `{' '.join(args)}` failed: {last}")
    return time.perf_counter() - start


def warm_start(repeats: int) -> float:
    """Median wall time of ``cinch-sim simulate --hands 100`` with the kernel cached."""
    cmd = ["cinch-sim", "simulate", "--hands", "100"]
    cli_wall(cmd)  # the first run may load or write the cache
    return statistics.median(cli_wall(cmd) for _ in range(repeats))


def cli_path(threads: int, repeats: int, big: int = 4_000_000, small: int = 400_000) -> float:
    """The CLI's W2 rate in hands/s, start-up excluded.

    Runs of ``small`` and ``big`` hands alternate; the rate is the extra hands
    over the extra wall time (median of the pairs), so the fixed cost of a
    process (imports, the cache load) drops out and what remains is the
    per-hand cost of the CLI path: the kernel, counting, progress and output.
    """
    rates = []
    for _ in range(repeats):
        opts = ["--threads", str(threads), "--seed", "1"]
        t_small = cli_wall(W2_CLI + opts + ["--hands", str(small)])
        t_big = cli_wall(W2_CLI + opts + ["--hands", str(big)])
        rates.append((big - small) / max(t_big - t_small, 1e-9))
    return statistics.median(rates)


def compile_times() -> dict[str, float]:
    code = (
        "from cinch_sim.engine.run import PolicySet, run_chunk\n"
        "from cinch_sim.rules import Rules\n"
        "p = PolicySet.from_specs(4, 'simple', 'simple', 'simple', 'greedy')\n"
        "run_chunk(Rules(robber='dealer'), p, 1, 0, 100, 3)\n"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cold = child_seconds(code, env)
        warm = child_seconds(code, env)
        base = child_seconds("import numba, numpy", env)
    return {"cold": cold, "warm": warm, "python_numba_import": base}


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--only", choices=["W1", "W2", "W3", "DD"], action="append")
    ap.add_argument("--dd-positions", type=int, default=10_000, help="positions DD solves")
    ap.add_argument("--no-compile", action="store_true", help="skip the compile/load timings")
    ap.add_argument("--no-cli", action="store_true", help="skip the CLI warm start and path")
    ap.add_argument("--write", type=Path, help="append the figures to this Markdown file")
    args = ap.parse_args()
    cores = max_threads()
    workloads = {
        "W1": w1,
        "W2": lambda: hands_workload("random"),
        "W3": lambda: hands_workload("greedy"),
    }
    rows = []
    tallies = {}
    for name, make in workloads.items():
        if args.only and name not in args.only:
            continue
        run, tally = make()
        one, many, ratio, best_one, best_many = rates(run, args.seconds, args.repeats, cores)
        rows.append((name, one, many, ratio, best_one, best_many))
        tallies[name] = tally
        print(
            f"{name}: {one / 1e6:.3f} M hands/s on 1 thread, {many / 1e6:.3f} M on {cores} "
            f"({ratio:.2f}x, median of the paired runs)",
            flush=True,
        )
    lines = [
        f"## {dt.date.today().isoformat()}, commit {commit()}",
        "",
        f"CPU: {cpu_model()}, {os.cpu_count()} cores; Python {platform.python_version()}, "
        f"numba {numba.__version__}."
        + (
            f" Median of {args.repeats} runs of at least "
            f"{args.seconds:g} s after a warm-up, 1-thread and {cores}-thread runs "
            "alternating; the ratio is the median over the pairs."
            if rows
            else ""
        ),
    ]
    if rows:
        lines += [
            "",
            f"| workload | M hands/s, 1 thread | M hands/s, {cores} threads | ratio "
            f"| best run, 1 / {cores} threads |",
            "|---|---:|---:|---:|---:|",
        ]
    for name, one, many, ratio, best_one, best_many in rows:
        lines.append(
            f"| {name} | {one / 1e6:.3f} | {many / 1e6:.3f} | {ratio:.2f} "
            f"| {best_one / 1e6:.3f} / {best_many / 1e6:.3f} |"
        )
    if not args.only or "DD" in args.only:
        lines += dd_workload(args.dd_positions)
    for name, tally in tallies.items():
        if tally is None:
            continue
        lines += [
            "",
            f"{name} tally over {tally['hands']:,} hands: made/set by bid "
            + ", ".join(
                f"{b}: {tally['made'][b]}/{tally['set'][b]}"
                for b in range(15)
                if tally["made"][b] + tally["set"][b]
            ),
            "Pedros (right, left) to bidding side / defenders / not in play: "
            + "; ".join("/".join(str(x) for x in row) for row in tally["pedro"]),
        ]
    if not args.no_compile:
        t = compile_times()
        lines += [
            "",
            f"Kernel cold compile (fresh cache, process wall incl. imports): {t['cold']:.1f} s; "
            f"warm load (same, cached): {t['warm']:.2f} s; "
            f"bare `import numba, numpy`: {t['python_numba_import']:.2f} s.",
        ]
    if not args.no_cli:
        start = warm_start(args.repeats)
        lines += [
            "",
            f"Warm start: `cinch-sim simulate --hands 100`, kernel cached, median of "
            f"{args.repeats}: {start:.2f} s wall.",
        ]
        print(lines[-1], flush=True)
        kernel = {r[0]: r for r in rows}.get("W2")
        if kernel is not None:
            cli_one, cli_many = cli_path(1, 3), cli_path(cores, 3)
            lines.append(
                f"CLI path (W2 through `cinch-sim simulate --format json`, 4,000,000 minus "
                f"400,000 hands, median of 3 pairs): {cli_one / 1e6:.3f} M hands/s on 1 "
                f"thread ({cli_one / kernel[1]:.2f} of the kernel), {cli_many / 1e6:.3f} M "
                f"on {cores} ({cli_many / kernel[2]:.2f} of the kernel)."
            )
            print(lines[-1], flush=True)
    text = "\n".join(lines) + "\n"
    print(text)
    if args.write:
        with open(args.write, "a", encoding="utf-8") as f:
            f.write("\n" + text)


if __name__ == "__main__":
    main()
