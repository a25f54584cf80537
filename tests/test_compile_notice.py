"""A compile, then a cache load, in two processes: the first compiles a kernel entry
into the cache and says so on stderr; the second loads it, says nothing, writes
nothing and deals the same cards.

The cache is a copy of the session's (tests/conftest.py warmed it) less the one
entry compiled here, ``deal_hands``, the kernel's smallest: the policies and the
other entries load, so the test pays seconds for its compile, not a whole kernel's.
The notice waits NOTICE_AFTER (3 s) before it speaks, so that a load never speaks;
the first child lowers it to 0.2 s, as a compile of a whole kernel outlasts 3 s."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# The command line's notices, one kernel entry (compiled or loaded) and its deal, then
# what numba's cache did for it, into the file argv[1].
CHILD = textwrap.dedent(
    """
    import json, sys
    from cinch_sim.cli.main import _tell_on_stderr
    from cinch_sim.engine import kernel
    from cinch_sim.engine.run import run_deals
    from cinch_sim.jit import notice
    from cinch_sim.rules import Rules
    _tell_on_stderr()
    notice.NOTICE_AFTER = float(sys.argv[2])
    cards = run_deals(Rules(), 3, 0, 200)
    disp = kernel.entry("deal_hands")
    with open(sys.argv[1], "w") as f:
        json.dump({"hits": sum(disp.stats.cache_hits.values()),
                   "misses": sum(disp.stats.cache_misses.values()),
                   "cards": cards.tolist()}, f)
    """
)


def _files(d: Path) -> dict[str, tuple[int, int]]:
    res = {}
    for root, _, names in os.walk(d):
        for n in names:
            st = os.stat(os.path.join(root, n))
            res[os.path.join(root, n)] = (st.st_size, st.st_mtime_ns)
    return res


def _cache_without_deal_hands(tmp_path: Path) -> Path:
    """The session's numba cache, copied, with deal_hands's entries left out."""
    from numba.core import config

    import cinch_sim  # noqa: F401  (sets numba's cache folder to ours)

    cache = tmp_path / "cache"
    shutil.copytree(config.CACHE_DIR, cache, dirs_exist_ok=True)
    dropped = [p for p in cache.rglob("*deal_hands*") if "deal_hands2" not in p.name]
    for p in dropped:
        p.unlink()
    return cache


@pytest.mark.slow  # a kernel compiled in a child, 6 s; the policies' notice below stays
def test_a_compile_is_announced_cached_and_then_loaded_silently(tmp_path):
    from cinch_sim.engine.kernel import entry

    entry("deal_hands")  # in the session's cache, to copy
    cache = _cache_without_deal_hands(tmp_path)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    runs, stats, snapshots = [], [], []
    for i, notice_after in enumerate(["0.2", "3.0"]):
        p = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path / f"{i}.json"),
                            notice_after], env=env, capture_output=True, text=True,
                           timeout=600)  # fmt: skip
        assert p.returncode == 0, p.stderr[-1500:]
        runs.append(p)
        stats.append(json.loads((tmp_path / f"{i}.json").read_text()))
        snapshots.append(_files(cache))
    first, second = runs
    assert "compiling the kernel (deal_hands)" in first.stderr
    # the end of the compile is its own line, with its time
    assert re.search(r"compiled the kernel \(deal_hands\) in \d+ s", first.stderr)
    assert stats[0]["misses"] >= 1 and stats[0]["hits"] == 0  # compiled
    assert "compil" not in second.stderr
    assert stats[1]["hits"] >= 1 and stats[1]["misses"] == 0  # loaded, not compiled
    assert snapshots[0] == snapshots[1]  # the second process wrote nothing
    entries = [p for p in snapshots[1] if "deal_hands" in p and "deal_hands2" not in p]
    assert len([p for p in entries if p.endswith(".nbc")]) == 1  # one entry, cached
    assert stats[0]["cards"] == stats[1]["cards"]


# A built-in policy's module loaded through load_policy, with the command line's notices.
POLICY_CHILD = textwrap.dedent(
    """
    import sys
    from cinch_sim.cli.main import _tell_on_stderr
    from cinch_sim.jit import notice
    from cinch_sim.policies.loading import load_policy
    _tell_on_stderr()
    notice.NOTICE_AFTER = float(sys.argv[1])
    load_policy("play", "random")
    """
)


def test_a_policy_compile_is_announced_and_a_load_is_not(tmp_path):
    """A first run's silent minute was the built-in policies compiling on import: now
    it is said, as for the kernel. The random policies (the smallest module) are
    left out of a copy of the session's cache; the first child compiles them and
    says so (the notice lowered to 0.2 s), the second loads them silently (the usual
    3 s: a load, numba's first-load set-up included, takes under a second)."""
    from numba.core import config

    import cinch_sim.policies.random  # noqa: F401  (in the session's cache, to copy)

    cache = tmp_path / "cache"
    shutil.copytree(config.CACHE_DIR, cache, dirs_exist_ok=True)
    dropped = [p for p in cache.rglob("*") if p.is_file() and "random" in p.name]
    assert dropped
    for p in dropped:
        p.unlink()
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    runs = [
        subprocess.run(
            [sys.executable, "-c", POLICY_CHILD, after],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )  # fmt: skip
        for after in ("0.2", "3.0")
    ]
    for p in runs:
        assert p.returncode == 0, p.stderr[-1500:]
    assert "compiling the random policies: the first run does it once" in runs[0].stderr
    assert re.search(r"compiled the random policies in \d+ s", runs[0].stderr)
    assert "compil" not in runs[1].stderr  # loaded from the cache, well under 3 s
