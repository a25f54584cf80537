"""Same seed, same bits at any thread count and chunk size, and by direct or pointer
calls (test_compile_notice.py has the kernel loaded from numba's cache by a second
process)."""

import numba
import numpy as np
import pytest

from cinch_sim.engine.run import PolicySet, iter_chunks, run_chunk
from cinch_sim.rules import Rules

POLS = dict(bid="simple", trump="random", discard="random", play="random")


def collect(threads, chunk, seed=5, hands=3000, rules=None):
    ps = PolicySet.from_specs(4, **POLS)
    parts = list(
        iter_chunks(rules or Rules(), ps, hands, seed, chunk=chunk, threads=threads, trace=True)
    )
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 threads")
def test_same_seed_same_bits_1_and_2_threads():
    out1, tr1 = collect(1, 3000)
    out2, tr2 = collect(2, 3000)
    out3, tr3 = collect(2, 257)  # odd chunks, each split unevenly between the threads
    assert np.array_equal(out1, out2) and np.array_equal(tr1, tr2)
    assert np.array_equal(out1, out3) and np.array_equal(tr1, tr3)
    # and the run is not trivially constant
    assert len({tuple(r) for r in tr1[:, :52]}) == len(tr1)


def test_different_seed_different_bits():
    out1, _ = collect(None, 1000, seed=5, hands=1000)
    out2, _ = collect(None, 1000, seed=6, hands=1000)
    assert not np.array_equal(out1, out2)


def test_offset_selects_the_same_hands():
    # hands 1000..1999 of a run are the same whatever the chunk they come in
    ps = PolicySet.from_specs(4, **POLS)
    whole = np.concatenate([o for o, _ in iter_chunks(Rules(), ps, 2000, 9, chunk=2000)])
    part = np.concatenate([o for o, _ in iter_chunks(Rules(), ps, 1000, 9, start=1000)])
    assert np.array_equal(whole[1000:], part)


@pytest.mark.parametrize(
    "pols",
    [
        dict(bid="simple", trump="simple", discard="simple", play="greedy"),
        dict(bid="random", trump="random", discard="random", play="random"),
        dict(bid="heuristic", trump="heuristic", discard="heuristic", play="heuristic"),
    ],
    ids=["simple-greedy", "random", "heuristic"],
)
def test_direct_and_pointer_calls_give_the_same_bits(pols):
    # built-ins are called directly by the kernel (a fast path); the same
    # functions called through their pointers, as user policies are, must agree
    ps = PolicySet.from_specs(4, **pols)
    rules = Rules(robber="dealer", excess_trump_discard="non_point_only")
    fast, _ = run_chunk(rules, ps, 11, 0, 3000, direct=True)
    slow, _ = run_chunk(rules, ps, 11, 0, 3000, direct=False)
    assert np.array_equal(fast, slow)


def test_every_jitted_source_is_in_the_cache_digest():
    """A jitted module left out of the digest would leave a stale kernel in the cache
    after it changes (numba keys a cached function on its own file only)."""
    import re
    from pathlib import Path

    import cinch_sim
    from cinch_sim.jit.cache import JIT_SOURCES

    root = Path(cinch_sim.__file__).parent
    listed = {p for pattern in JIT_SOURCES for p in root.glob(pattern)}
    decorator = re.compile(r"^\s*@(numba\.)?(njit|jit|intrinsic|generated_jit)\b", re.M)
    jitted = {p for p in root.rglob("*.py") if decorator.search(p.read_text())}
    assert root / "engine" / "kernel.py" in jitted  # the pattern finds what it looks for
    missing = sorted(str(p.relative_to(root)) for p in jitted - listed)
    assert not missing, f"jitted sources missing from cache.JIT_SOURCES: {missing}"
