"""Card order and card points read from the rules a policy is playing (``O_RULES``).

The canonical helpers of ``common`` (``strength``, ``top_by_strength``, keep
order) are docs/benchmarks.md's fixed orders, bit tricks for the standard game that
W2's ``simple`` and W3's ``greedy`` must keep exactly. A policy that plays every
variant reads the preset's own tables instead: the trump order (bowers rank
highest in ``all_hands``; no left card in the classic presets) and the point
table (Sancho's 9, the Dom's 3). Under the standard rules each order here is
the canonical one, so a policy moved onto these helpers plays the standard
game card for card as before.
"""

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import has, lowbit_index
from cinch_sim.cards import TIE_ORDER
from cinch_sim.policies import common  # noqa: F401  (flushes this folder's stale cache first)

U0 = np.uint64(0)
U1 = np.uint64(1)
TRUMP_BASE = 100  # every trump's strength is above every plain card's (at most 51)

# The small per-card helpers are inlined by LLVM (forceinline), not by numba
# (inline="always", which copies the callee's IR with its whole scope at every
# call site): the same behaviour, _top_k's cold compile 1.16 s -> 0.55 s. The
# policies' helpers (common, simple, greedy, heuristic) are inlined the same way:
# simple_discard_core 1.23 -> 0.17 s of its own, and W2 7,011 -> 6,971
# instructions a hand.


@njit(forceinline=True)
def card_strength(obs, c, tmask, left):
    """A total order of the cards: trumps by the rules' trump order (``R_TRUMP_STRENGTH``)
    above every plain card; plain cards by rank, then suit (docs/benchmarks.md's tie order)."""
    if has(tmask, c):
        slot = 13 if c == left else c % 13
        return TRUMP_BASE + obs[L.O_RULES + L.R_TRUMP_STRENGTH + slot]
    return (c % 13) * 4 + TIE_ORDER[c // 13]


@njit(forceinline=True)
def card_points(obs, c, trump, left):
    """Points a card carries when captured, from the rules' table: the left card's,
    each point rank's, High on the ace and Low on the deuce (exact under ace_only;
    the deuce is the lowest a trump can be)."""
    if c == left:
        return obs[L.O_RULES + L.R_LEFT_POINTS]
    if c // 13 != trump:
        return 0
    r = c % 13
    p = 0
    for k in range(obs[L.O_RULES + L.R_N_RANK_POINTS]):
        if obs[L.O_RULES + L.R_RANK_POINTS + 2 * k] == r:
            p += obs[L.O_RULES + L.R_RANK_POINTS + 2 * k + 1]
    if r == 12:
        p += obs[L.O_RULES + L.R_HIGH_POINTS]
    if r == 0:
        p += obs[L.O_RULES + L.R_LOW_POINTS]
    return p


@njit
def mask_points(obs, m, trump, left):
    """The points of every card in mask m."""
    p = 0
    while m:
        c = lowbit_index(m)
        m &= m - U1
        p += card_points(obs, c, trump, left)
    return p


@njit
def big_point_trumps(obs, tmask, trump, left):
    """The trumps worth more than one point: the Pedros (and Sancho, the Dom, the Left
    Bower), the cards a side most wants to bring home."""
    out = U0
    m = tmask
    while m:
        c = lowbit_index(m)
        m &= m - U1
        if card_points(obs, c, trump, left) > 1:
            out |= U1 << np.uint64(c)
    return out


@njit
def strongest_card(obs, mask, tmask, left):
    """The strongest card of mask by ``card_strength`` (-1 for an empty mask)."""
    best = -1
    best_s = -1
    m = mask
    while m:
        c = lowbit_index(m)
        m &= m - U1
        s = card_strength(obs, c, tmask, left)
        if s > best_s:
            best_s = s
            best = c
    return best


@njit
def weakest_card(obs, mask, tmask, left):
    """The weakest card of mask by ``card_strength`` (-1 for an empty mask)."""
    best = -1
    best_s = 1 << 30
    m = mask
    while m:
        c = lowbit_index(m)
        m &= m - U1
        s = card_strength(obs, c, tmask, left)
        if s < best_s:
            best_s = s
            best = c
    return best


@njit(forceinline=True)
def _keep_key(obs, c, tmask, trump, left, with_low):
    """Keep order of a trump: its points (Low left out unless ``with_low``: which trump
    is Low is not known before play), then its strength."""
    p = card_points(obs, c, trump, left)
    if not with_low and c // 13 == trump and c % 13 == 0:
        p -= obs[L.O_RULES + L.R_LOW_POINTS]
    return p * 256 + card_strength(obs, c, tmask, left)


@njit
def _top_k(obs, mask, k, tmask, trump, left, by_keep):
    """The k cards of mask first by strength (``by_keep`` 0), by keep order (1), or by
    keep order with the 2's Low counted (2); all if fewer."""
    out = U0
    rest = mask
    for _ in range(k):
        best = -1
        best_key = -1
        m = rest
        while m:
            c = lowbit_index(m)
            m &= m - U1
            if by_keep:
                key = _keep_key(obs, c, tmask, trump, left, by_keep == 2)
            else:
                key = card_strength(obs, c, tmask, left)
            if key > best_key:
                best_key = key
                best = c
        if best < 0:
            break
        b = U1 << np.uint64(best)
        out |= b
        rest &= ~b
    return out


@njit
def strongest_k_cards(obs, mask, k, tmask, left):
    """The k strongest cards of mask by ``card_strength``."""
    return _top_k(obs, mask, k, tmask, obs[L.O_TRUMP], left, 0)


@njit
def trumps_to_keep(obs, trumps, k, tmask, trump, left):
    """The k trumps a player keeps first: by points (the Pedros, Sancho, then High,
    Jack, Game), then strength. Under the standard rules this is docs/benchmarks.md's keep
    order: Right Pedro, Left Pedro, A, J, 10, K, Q, 9, ..., 2."""
    return _top_k(obs, trumps, k, tmask, trump, left, 1)


@njit
def trumps_by_points(obs, trumps, k, tmask, trump, left):
    """The k trumps a player keeps when his keep decides Low: ``trumps_to_keep``'s order
    with the 2's Low counted (two decks, more trumps than the hand holds: the 2 he
    keeps is in play, and each copy of the lowest trump scores Low)."""
    return _top_k(obs, trumps, k, tmask, trump, left, 2)
