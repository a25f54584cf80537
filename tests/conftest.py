"""The session's start: numba's cache warmed on every core at once (warm_cache.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from warm_cache import GROUPS, NEEDS  # tests/ is on the path (pytest's rootdir conftest)

import cinch_sim

HERE = Path(__file__).resolve().parent
CODE = Path(cinch_sim.__file__).resolve().parents[1]  # the code under test, for children too
WARMED = pytest.StashKey[list[str]]()

# Where the environment forbids bytecode (PYTHONDONTWRITEBYTECODE), every worker and
# every command a test starts would compile the sources again, and pytest would rewrite
# every test module's asserts again: 5 s a worker. The test run keeps its bytecode
# (in __pycache__, which git ignores), and so do the commands it starts.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def pytest_configure(config: pytest.Config) -> None:
    """Warm the cache once, in the process that starts the session (an xdist worker
    starts after it and only loads); a group that fails is reported, and the tests
    that need it show why."""
    if hasattr(config, "workerinput") or config.option.collectonly:
        return
    _refresh_test_policies()
    start = time.monotonic()
    failed = _warm(dict(os.environ, PYTHONPATH=str(CODE)), len(os.sched_getaffinity(0)))
    seconds = time.monotonic() - start
    config.stash[WARMED] = [f"numba cache warmed in {seconds:.0f} s ({', '.join(GROUPS)})"]
    config.stash[WARMED] += [f"warming the cache failed: {f}" for f in failed]


def _refresh_test_policies() -> None:
    """The test policy files compile with ``cache=True``; numba watches only each file
    itself, so their entries are flushed here when cinch_sim's jitted sources changed
    (as loading a policy file does), before a test imports one directly."""
    from cinch_sim.jit.cache import refresh_user_file

    for path in [*HERE.glob("*_policy.py"), HERE / "scripted_policies.py"]:
        refresh_user_file(path)


def _warm(env: dict[str, str], cores: int) -> list[str]:
    """Run the groups, as many at once as there are cores, each once the groups it
    needs have ended; the failures, with the end of their output."""
    waiting, running, ended, failed = list(GROUPS), {}, set(), []
    while waiting or running:
        ready = [g for g in waiting if set(NEEDS.get(g, ())) <= ended]
        for g in ready[: max(cores - len(running), 0)]:
            waiting.remove(g)
            log = tempfile.TemporaryFile("w+")
            cmd = [sys.executable, str(HERE / "warm_cache.py"), g]
            running[g] = (subprocess.Popen(cmd, env=env, stdout=log, stderr=log), log)
        time.sleep(0.05)
        for g, (proc, log) in list(running.items()):
            if proc.poll() is None:
                continue
            del running[g]
            ended.add(g)
            if proc.returncode != 0:
                log.seek(0)
                failed.append(f"{g}: {log.read()[-1500:]}")
            log.close()
    return failed


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    for line in config.stash.get(WARMED, []):
        terminalreporter.write_line(line)


@pytest.fixture
def few_example_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """The report's example hands advised on 32 deals each: for the tests of the way
    through (the files, the sentences, the store), not of the advice's numbers."""
    import cinch_sim.report.build as build

    real = build.advise
    monkeypatch.setattr(build, "advise", lambda *a, **k: real(*a, **k, max_hands=32))
