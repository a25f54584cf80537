"""The first run says on stderr that it is compiling the kernel; a cached run says nothing."""

from __future__ import annotations

import os
import re
import subprocess
import sys


def test_a_compile_is_announced_and_a_cache_load_is_not(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    cmd = [sys.executable, "-m", "cinch_sim", "simulate", "--hands", "50", "--format", "json"]
    runs = [subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
            for _ in range(2)]  # fmt: skip
    assert all(r.returncode == 0 for r in runs), runs[0].stderr[-1500:]
    first, second = (r.stderr for r in runs)
    assert "compiling the kernel (simulate_hands)" in first
    # the end of the compile is its own line, with its time
    assert re.search(r"compiled the kernel \(simulate_hands\) in \d+ s", first), first
    assert "compil" not in second
    assert runs[0].stdout.startswith("{") and runs[1].stdout.startswith("{")  # stdout stays data
