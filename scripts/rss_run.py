"""Run a command and sample its resident memory: is a long run's memory flat?

Usage: ``python scripts/rss_run.py [--every S] [--stop-after S] -- COMMAND...``

Prints one line every ``--every`` seconds: elapsed time, the hands or games done
(from the command's last progress line on stderr), the RSS of the process and of
the process with its children (a LocalCluster's workers), in MB; then the peak.
``--stop-after`` sends SIGINT after that many seconds (a run of 10^9 hands need
not finish to show that it streams). Needs psutil (issue 21, part 4:
results/BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import re
import signal
import subprocess
import sys
import threading
import time

import psutil

DONE = re.compile(r"([\d,]+)(?: of [\d,]+)? (hands|games)")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--every", type=float, default=10.0)
    p.add_argument("--stop-after", type=float, default=None)
    p.add_argument("command", nargs=argparse.REMAINDER)
    a = p.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    last = {"done": "0"}

    def read() -> None:
        for line in proc.stderr:  # type: ignore[union-attr]
            m = DONE.search(line)
            if m:
                last["done"] = m.group(1)
            if "interrupted" in line or "rror" in line:
                print("  stderr:", line.rstrip(), flush=True)

    threading.Thread(target=read, daemon=True).start()
    ps = psutil.Process(proc.pid)
    peak = peak_tree = 0
    next_line = 0.0
    stopped = False
    print(f"{'s':>7} {'done':>15} {'RSS MB':>8} {'tree MB':>8}", flush=True)
    while proc.poll() is None:
        try:
            rss = ps.memory_info().rss
            tree = rss + sum(c.memory_info().rss for c in ps.children(recursive=True))
        except psutil.Error:
            break
        peak, peak_tree = max(peak, rss), max(peak_tree, tree)
        now = time.monotonic() - start
        if now >= next_line:
            print(f"{now:7.0f} {last['done']:>15} {rss / 2**20:8.0f} {tree / 2**20:8.0f}",
                  flush=True)  # fmt: skip
            next_line += a.every
        if a.stop_after is not None and now >= a.stop_after and not stopped:
            proc.send_signal(signal.SIGINT)
            stopped = True
        time.sleep(0.5)
    proc.wait()
    total = time.monotonic() - start
    print(f"exit {proc.returncode} after {total:.0f} s; done {last['done']}; peak RSS "
          f"{peak / 2**20:.0f} MB (with children {peak_tree / 2**20:.0f} MB)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
