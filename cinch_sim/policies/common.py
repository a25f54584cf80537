"""Small jitted helpers that built-in and user policies share.

Everything here reads only what a policy is given (its observation, hand and
legal mask), so a policy built from these stays honest.
"""

import numpy as np
from numba import njit

from .. import layout as L
from ..bits import lowbit_index, nth_set_bit, popcount
from ..rng import below

U0 = np.uint64(0)
U1 = np.uint64(1)
SUIT13 = np.uint64((1 << 13) - 1)
TIE_ORDER = (0, 3, 1, 2)  # BENCHMARK.md: clubs < diamonds < hearts < spades
SUITS_BY_TIE = (0, 2, 3, 1)  # our suit numbers in that order
# BENCHMARK.md keep order for trumps by rank; -1 is the left card
KEEP_RANKS = (3, -1, 12, 9, 8, 11, 10, 7, 6, 5, 4, 2, 1, 0)


@njit(inline="always")
def bit(c):
    return U1 << np.uint64(c)


@njit(inline="always")
def has(mask, c):
    return ((mask >> np.uint64(c)) & U1) != U0


@njit(inline="always")
def suit_mask(s):
    return SUIT13 << np.uint64(13 * s)


@njit(inline="always")
def trump_mask(obs):
    return np.uint64(obs[L.O_TRUMP_MASK])


@njit(inline="always")
def is_pedro(c, trump, left):
    return c == trump * 13 + 3 or c == left


@njit(inline="always")
def strength(c, tmask, left):
    """BENCHMARK.md card strength: a total order, every trump above every non-trump."""
    if has(tmask, c):
        r = c % 13
        if c == left:
            return 100 + 7
        return 100 + 2 * r + 2
    return (c % 13) * 4 + TIE_ORDER[c // 13]


@njit
def strongest(mask, tmask, left):
    best = -1
    best_s = -1
    m = mask
    while m:
        c = lowbit_index(m)
        m &= m - U1
        s = strength(c, tmask, left)
        if s > best_s:
            best_s = s
            best = c
    return best


@njit
def weakest(mask, tmask, left):
    best = -1
    best_s = 1 << 30
    m = mask
    while m:
        c = lowbit_index(m)
        m &= m - U1
        s = strength(c, tmask, left)
        if s < best_s:
            best_s = s
            best = c
    return best


@njit
def top_trumps_by_keep_order(trumps, k, trump, left):
    """The k trumps of ``trumps`` that come first in keep order (BENCHMARK.md):
    Right Pedro, Left Pedro, A, J, 10, K, Q, 9, 8, 7, 6, 4, 3, 2."""
    keep = U0
    n = 0
    if k <= 0:
        return keep
    for i in range(14):
        r = KEEP_RANKS[i]
        c = left if r < 0 else trump * 13 + r
        if c >= 0 and has(trumps, c):
            keep |= bit(c)
            n += 1
            if n == k:
                break
    return keep


@njit
def top_by_strength(mask, k, tmask, left):
    """The k strongest cards of mask."""
    keep = U0
    for _ in range(k):
        c = strongest(mask & ~keep, tmask, left)
        if c < 0:
            break
        keep |= bit(c)
    return keep


@njit
def random_member(mask, rng):
    """A uniformly chosen set bit of a non-empty mask."""
    return nth_set_bit(mask, below(rng, popcount(mask)))


@njit
def random_subset(mask, k, rng):
    """A uniformly chosen k-element subset of mask's bits."""
    out = U0
    m = mask
    for _ in range(k):
        c = random_member(m, rng)
        out |= bit(c)
        m &= ~bit(c)
    return out


@njit
def binom(n, k):
    if k < 0 or k > n:
        return 0.0
    r = 1.0
    for i in range(k):
        r = r * (n - i) / (i + 1)
    return r


@njit
def keep_count_bounds(obs, hand, legal):
    """(must keep mask, lowest, highest number of optional cards kept) for a drawer.

    Encodes RULES.md §1.6: trumps stay (more than hand size: exactly hand size of
    them stay), at most hand size cards are kept, at least ``O_MIN_KEEP``
    (limit_discards), and no non-trump under must_discard_nontrumps.
    """
    hs = obs[L.O_MAX_KEEP]
    tm = trump_mask(obs)
    must = hand & ~legal
    n_must = popcount(must)
    ntr = popcount(hand & tm)
    if ntr > hs:
        k = hs - n_must
        return must, k, k
    lo = max(0, obs[L.O_MIN_KEEP] - n_must)
    hi = hs - n_must
    if obs[L.O_MUST_DISCARD] == 1:
        hi = lo
    hi = min(hi, popcount(legal))
    return must, lo, hi
