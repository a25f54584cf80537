"""One cold compile, two processes: the first compiles the kernel into a fresh cache and
says so on stderr; the second loads it from that cache, says nothing, writes nothing
and plays the same hands (the one test here that pays for a cold compile)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap

# The command line, then what numba's cache did for the kernel, into the file argv[1].
CHILD = textwrap.dedent(
    """
    import json, sys
    from cinch_sim.cli.main import main
    main(sys.argv[2:], prog_name="cinch-sim", standalone_mode=False)
    from cinch_sim.engine.kernel import simulate_hands
    with open(sys.argv[1], "w") as f:
        json.dump({"hits": sum(simulate_hands.stats.cache_hits.values()),
                   "misses": sum(simulate_hands.stats.cache_misses.values())}, f)
    """
)


def _files(d):
    res = {}
    for root, _, names in os.walk(d):
        for n in names:
            st = os.stat(os.path.join(root, n))
            res[os.path.join(root, n)] = (st.st_size, st.st_mtime_ns)
    return res


def test_a_compile_is_announced_cached_and_then_loaded_silently(tmp_path):
    cache = tmp_path / "cache"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    args = ["simulate", "--hands", "50", "--seed", "3", "--format", "json"]
    runs, stats, snapshots = [], [], []
    for i in range(2):
        p = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path / f"{i}.json"), *args],
                           env=env, capture_output=True, text=True, timeout=900)  # fmt: skip
        assert p.returncode == 0, p.stderr[-1500:]
        runs.append(p)
        stats.append(json.loads((tmp_path / f"{i}.json").read_text()))
        snapshots.append(_files(cache))
    first, second = runs
    assert "compiling the kernel (simulate_hands)" in first.stderr
    # the end of the compile is its own line, with its time
    assert re.search(r"compiled the kernel \(simulate_hands\) in \d+ s", first.stderr)
    assert stats[0]["misses"] >= 1 and stats[0]["hits"] == 0  # compiled (cold cache)
    assert "compil" not in second.stderr
    assert stats[1]["hits"] >= 1 and stats[1]["misses"] == 0  # loaded, not compiled
    assert snapshots[0] == snapshots[1]  # the second process wrote nothing
    kernel_data = [p for p in snapshots[1] if "simulate_hands" in p and p.endswith(".nbc")]
    assert len(kernel_data) == 1  # one kernel entry
    results = [json.loads(r.stdout) for r in runs]  # stdout stays data
    for r in results:
        r.pop("seconds", None)
    assert results[0] == results[1] and results[0]["hands"] == 50
