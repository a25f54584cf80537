"""The session's start: numba's cache warmed on every core at once (warm_cache.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from warm_cache import GROUPS  # tests/ is on the path (pytest's rootdir conftest)

import cinch_sim

HERE = Path(__file__).resolve().parent
CODE = Path(cinch_sim.__file__).resolve().parents[1]  # the code under test, for children too
WARMED = pytest.StashKey[list[str]]()


def pytest_configure(config: pytest.Config) -> None:
    """Warm the cache once, in the process that starts the session (an xdist worker
    starts after it and only loads); a group that fails is reported, and the tests
    that need it show why."""
    if hasattr(config, "workerinput") or config.option.collectonly:
        return
    start = time.monotonic()
    env = dict(os.environ, PYTHONPATH=str(CODE))
    procs = {
        g: subprocess.Popen([sys.executable, str(HERE / "warm_cache.py"), g], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for g in GROUPS
    }  # fmt: skip
    failed = []
    for g, p in procs.items():
        out, _ = p.communicate()
        if p.returncode != 0:
            failed.append(f"{g}: {out[-1500:]}")
    seconds = time.monotonic() - start
    config.stash[WARMED] = [f"numba cache warmed in {seconds:.0f} s ({', '.join(GROUPS)})"]
    config.stash[WARMED] += [f"warming the cache failed: {f}" for f in failed]


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    for line in config.stash.get(WARMED, []):
        terminalreporter.write_line(line)
