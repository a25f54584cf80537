"""Time the hand advisor query of docs/benchmarks.md ("The hand advisor query").

Usage: python scripts/bench_advisor.py [--repeats 5] [--write results/BENCHMARKS.md]
       python scripts/bench_advisor.py --pimc 40 [--hand "..."] [--unshared]

Runs ``cinch-sim advise`` as a subprocess (so imports count) with a warm
compile cache: one warm-up, then --repeats timed runs at precision 0.01 and
0.005 for all 14 bids and 4 suits; prints the median and range of the wall
times, the deals used and the precision reached. Then the same queries
in-process (``api.advise``, compiled beforehand), the default one and one with
earlier bids (``--seat 3 --bids 0:6,1:pass,2:7``, where most deals are
rejected): the median time and the kernel hands played. ``--write`` appends a
section to the file (never rewrites it).

``--pimc N`` times instead one query under PIMC play at every seat on N deals
(issue 36's 300 deals in 30 s): in-process, two threads, seed 5; with
``--unshared`` also with the hands of a deal played apart, as before their
solves were shared (policies/pimc_memo.py), after it, so both are timed in one
run and their counts compared.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
HAND = "AS KS 5S 5C 2S 9H 3D 7C JD"
QUERY = ["advise", HAND, "--seat", "2", "--dealer", "3"]
TARGETS = {0.01: 1.5, 0.005: 2.5}  # precision -> wall-time goal (s)
# in-process queries: name -> (advise keyword arguments, goal in seconds)
IN_PROCESS = {
    "seat 2, dealer 3": ({"seat": 2, "dealer": 3}, 0.5),
    "seat 3, bids 0:6,1:pass,2:7": ({"seat": 3, "dealer": 3, "bids": "0:6,1:pass,2:7"}, 2.0),
}


def in_process(repeats: int) -> list[str]:
    """The IN_PROCESS queries timed inside this process: Markdown table rows."""
    from cinch_sim.api import advise

    rows = []
    for name, (kwargs, goal) in IN_PROCESS.items():
        advise(HAND, **kwargs, precision=0.05)  # compile or load first
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            adv = advise(HAND, **kwargs)
            times.append(time.perf_counter() - t)
        rows.append(
            f"| {name} | {goal} | {statistics.median(times):.2f} | {min(times):.2f} | "
            f"{max(times):.2f} | {adv.hands:,} | {adv.tried:,} | {adv.played:,} |"
        )
    return rows


def pimc(deals: int, hand: str, unshared: bool) -> None:
    """One PIMC query timed (and, ``unshared``, again without the memo): deals a second."""
    from cinch_sim.api import advise
    from cinch_sim.engine import run

    advise(hand, play="pimc", max_hands=1, seed=5, threads=2)  # compile or load first
    results = []
    for label in ("shared", "unshared") if unshared else ("shared",):
        if label == "unshared":
            run._memo_seats = lambda policies: []  # every job's hands apart, no memo
        before = dict(run.MEMO_COUNTS)
        t = time.perf_counter()
        adv = advise(hand, play="pimc", max_hands=deals, seed=5, threads=2)
        sec = time.perf_counter() - t
        hits = run.MEMO_COUNTS["hits"] - before["hits"]
        solved = run.MEMO_COUNTS["solved"] - before["solved"]
        results.append(adv)
        print(
            f"{label}: {adv.hands} deals, {adv.played:,} kernel hands in {sec:.1f} s "
            f"({sec / adv.hands:.3f} s a deal; {30 * adv.hands / sec:.0f} deals in 30 s); "
            f"decisions read from the memo {hits:,}, solved {solved:,}"
        )
    if unshared:
        a, b = results
        same = all(
            np.array_equal(getattr(a, k), getattr(b, k)) for k in ("n", "win", "make", "diff")
        )
        print("the same counts with and without sharing:", same)


def command() -> list[str]:
    exe = shutil.which("cinch-sim")
    return [exe] if exe else [sys.executable, "-m", "cinch_sim"]


def timed(precision: float) -> tuple[float, dict]:
    args = command() + QUERY + ["--precision", str(precision), "--format", "json"]
    t = time.perf_counter()
    res = subprocess.run(args, capture_output=True, text=True, check=True)
    return time.perf_counter() - t, json.loads(res.stdout)


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--write", type=Path, default=None)
    ap.add_argument("--pimc", type=int, default=0, help="time a PIMC query on this many deals")
    ap.add_argument("--hand", default="AS KS JS 5S 2S QH 9D 8C 4C", help="with --pimc")
    ap.add_argument("--unshared", action="store_true", help="with --pimc: also without the memo")
    a = ap.parse_args()
    if a.pimc:
        pimc(a.pimc, a.hand, a.unshared)
        return
    timed(0.05)  # warm-up: fills the compile cache if needed
    rows = []
    for precision, goal in TARGETS.items():
        times, inner, info = [], [], {}
        for _ in range(a.repeats):
            sec, info = timed(precision)
            times.append(sec)
            inner.append(info["seconds"])
        rows.append((precision, goal, times, inner, info))
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    lines = [
        f"## Hand advisor query ({dt.date.today().isoformat()})",
        "",
        f'`cinch-sim {" ".join(QUERY[:1])} "{HAND}" {" ".join(QUERY[2:])} --precision P`, '
        "default rules and policies, all 14 bids x 4 suits, warm compile cache, wall time "
        "of the whole subprocess (imports included).",
        f"CPU: {cpu_model()}, {os.cpu_count()} cores; commit {commit or '?'} (+ working tree); "
        f"load average before the runs {load:.2f}; {a.repeats} runs each.",
        "",
        "| precision | goal (s) | median (s) | min (s) | max (s) | deals per suit | "
        "precision reached | advise() median (s) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for precision, goal, times, inner, info in rows:
        lines.append(
            f"| {precision} | {goal} | {statistics.median(times):.2f} | {min(times):.2f} | "
            f"{max(times):.2f} | {info['hands']:,} | {info['precision']:.5f} | "
            f"{statistics.median(inner):.2f} |"
        )
    lines += [
        "",
        "In-process (`api.advise`, precision 0.01, compiled beforehand):",
        "",
        "| query | goal (s) | median (s) | min (s) | max (s) | deals kept | deals tried "
        "| kernel hands |",
        "|---|---|---|---|---|---|---|---|",
        *in_process(a.repeats),
    ]
    lines += [
        "",
        "advise() is the time inside the simulation call (policy loading, kernel load and "
        "the deals); the rest is Python start-up, click and the numba import. Shared "
        "machine: other workers ran at the same time, so single runs vary by +-0.5 s.",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if a.write:
        a.write.parent.mkdir(parents=True, exist_ok=True)
        with open(a.write, "a", encoding="utf-8") as f:
            f.write("\n" + text)


if __name__ == "__main__":
    main()
