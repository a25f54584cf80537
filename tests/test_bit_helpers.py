"""The branch-free bit helpers against plain loops over every card.

The kernel and the built-in policies order cards through strength keys
(pdep/pext where the CPU has BMI2); these tests hold them to the definitions
they replace: ``strength`` card by card, and the docs/benchmarks.md keep order.
"""

from pathlib import Path

import numpy as np
import pytest
from numba import njit

from cinch_sim.bits import (
    HAS_BMI2,
    deposit_bmi2,
    deposit_loop,
    extract_bmi2,
    extract_loop,
    nth_set_bit,
)
from cinch_sim.jit.cache import refresh_user_file
from cinch_sim.policies.common import (
    KEEP_RANKS,
    strength,
    strongest,
    top_by_strength,
    top_trumps_by_keep_order,
    weakest,
)
from cinch_sim.policies.greedy import beaten_by

# the helpers below are cached: flushed when the package's jitted sources change
refresh_user_file(Path(__file__))
U1 = np.uint64(1)


@njit(cache=True)
def _bmi2_vs_loops(xs, ms):
    bad = 0
    for i in range(xs.shape[0]):
        if deposit_bmi2(xs[i], ms[i]) != deposit_loop(xs[i], ms[i]):
            bad += 1
        if extract_bmi2(xs[i], ms[i]) != extract_loop(xs[i], ms[i]):
            bad += 1
    return bad


@pytest.mark.skipif(not HAS_BMI2, reason="this CPU has no BMI2: only the loops run here")
def test_pdep_pext_match_their_loop_versions():
    rng = np.random.default_rng(5)
    xs = rng.integers(0, 2**63, 20_000, dtype=np.int64).astype(np.uint64)
    ms = rng.integers(0, 2**63, 20_000, dtype=np.int64).astype(np.uint64)
    ms[::7] &= np.uint64((1 << 52) - 1)  # card-mask sized too
    assert _bmi2_vs_loops(xs, ms) == 0


@njit(cache=True)
def _nth(mask, n):
    return nth_set_bit(mask, n)


def test_nth_set_bit_walks_the_set_bits_from_the_lowest():
    mask = (1 << 3) | (1 << 17) | (1 << 40) | (1 << 51)
    assert [_nth(np.uint64(mask), n) for n in range(4)] == [3, 17, 40, 51]


def _random_context(rng):
    """A trump suit and its left card (or none), as the kernel sets them up."""
    trump = int(rng.integers(4))
    left = (trump ^ 1) * 13 + 3 if rng.random() < 0.8 else -1
    tmask = ((1 << 13) - 1) << (13 * trump)
    if left >= 0:
        tmask |= 1 << left
    if rng.random() < 0.1:  # bidding: no trump yet
        return -1, 0, -1
    return trump, tmask, left


def _cards(mask):
    return [c for c in range(52) if mask >> c & 1]


def test_strength_keys_agree_with_strength_card_by_card():
    rng = np.random.default_rng(11)
    for _ in range(3000):
        trump, tmask, left = _random_context(rng)
        mask = int(rng.integers(0, 1 << 52)) & int(rng.integers(0, 1 << 52))
        cards = _cards(mask)
        key = {c: strength(c, np.uint64(tmask), left) for c in cards}
        m, tm = np.uint64(mask), np.uint64(tmask)
        if not cards:
            assert strongest(m, tm, left) == -1 and weakest(m, tm, left) == -1
            continue
        assert strongest(m, tm, left) == max(cards, key=key.get)
        assert weakest(m, tm, left) == min(cards, key=key.get)
        k = int(rng.integers(0, 10))
        want = sum(1 << c for c in sorted(cards, key=key.get, reverse=True)[:k])
        assert int(top_by_strength(m, k, tm, left)) == want


def test_keep_order_matches_the_benchmark_list():
    rng = np.random.default_rng(12)
    for _ in range(3000):
        trump, tmask, left = _random_context(rng)
        if trump < 0:
            continue
        trumps = int(rng.integers(0, 1 << 52)) & tmask
        order = [left if r < 0 else trump * 13 + r for r in KEEP_RANKS]
        ranked = [c for c in order if c >= 0 and trumps >> c & 1]
        k = int(rng.integers(-1, 10))
        want = sum(1 << c for c in ranked[: max(k, 0)])
        assert int(top_trumps_by_keep_order(np.uint64(trumps), k, trump, left)) == want


@njit(cache=True)
def _beaten_by(win_card, tmask, left, base):
    return beaten_by(win_card, tmask, left, base)


def test_beaten_by_is_every_card_that_would_take_the_trick():
    """W3's "winning cards": trumps or cards of the suit led, stronger than the
    winner (a non-trump winner is of the suit led). The kernel tabulates this."""
    for trump in range(4):
        for left in ((trump ^ 1) * 13 + 3, -1):
            tmask = ((1 << 13) - 1) << (13 * trump) | (1 << left if left >= 0 else 0)
            tm = np.uint64(tmask)
            for win in range(52):
                s_win = strength(win, tm, left)
                want = sum(
                    1 << c
                    for c in range(52)
                    if (tmask >> c & 1 or (not tmask >> win & 1 and c // 13 == win // 13))
                    and strength(c, tm, left) > s_win
                )
                assert int(_beaten_by(win, tm, left, trump * 13)) == want, (trump, left, win)
