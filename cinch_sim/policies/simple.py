"""The ``simple`` bid, trump and discard policies: exactly docs/benchmarks.md's W2.

A suit's score is 5 per Pedro held for it, 1 each for its A, J and 10, and a
half for each card of the suit (the left five counted too).
"""

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import has, lowbit_index, popcount, suit_mask
from cinch_sim.jit.memory import NO_REFCOUNT
from cinch_sim.policies.common import (
    SUITS_BY_TIE,
    U1,
    first_in_keep_order,
    strongest_k,
    trump_mask,
)
from cinch_sim.signatures import POLICY_SIG


@njit(forceinline=True)
def suit_score2(hand, s):
    """Twice the W2 score of suit s (integers, no rounding)."""
    left5 = has(hand, (s ^ 1) * 13 + 3)
    score = 10 * has(hand, s * 13 + 3) + 10 * left5
    score += 2 * (has(hand, s * 13 + 12) + has(hand, s * 13 + 9) + has(hand, s * 13 + 8))
    score += popcount(hand & suit_mask(s)) + left5
    return score


@njit
def best_suit(hand):
    """(suit, twice its score); ties go to the lowest suit in clubs<diamonds<hearts<spades."""
    best = SUITS_BY_TIE[0]
    best_score = suit_score2(hand, best)
    for i in range(1, 4):  # selects, not branches: which suit wins is the deal's coin
        s = SUITS_BY_TIE[i]
        sc = suit_score2(hand, s)
        better = sc > best_score
        best = s if better else best
        best_score = sc if better else best_score
    return best, best_score


@njit(**NO_REFCOUNT)
def simple_bid_core(obs, hand, legal):
    """W2's bid from what it reads (the kernel's fast path calls this directly)."""
    _, score2 = best_suit(hand)
    b = min(obs[L.O_BID_MAX], score2 // 2)
    bids = score2 >= 12 and (legal >> np.uint64(b)) & U1
    # otherwise pass, or (forced to bid) the lowest legal bid: bit 0 is the pass
    return b if bids else lowbit_index(legal)


@njit(**NO_REFCOUNT)
def simple_discard_core(obs, hand, legal):
    """Drawers keep only trumps (first six in keep order); the robber keeps trumps
    first in keep order, then the strongest non-trumps."""
    tm = trump_mask(obs)
    trump = obs[L.O_TRUMP]
    left = obs[L.O_LEFT_CARD]
    hs = obs[L.O_MAX_KEEP]
    trumps = hand & tm
    if obs[L.O_PHASE] == L.PHASE_ROB:
        must = hand & ~legal  # point trumps under excess_trump_discard=non_point_only
        keep = must | first_in_keep_order(trumps & legal, hs - popcount(must), trump, left)
        n = popcount(keep)
        if n < hs:
            keep |= strongest_k(hand & ~tm, hs - n, tm, left)
        return np.int64(keep)
    must = hand & ~legal
    if popcount(trumps) > hs:
        keep = (must & tm) | first_in_keep_order(
            trumps & legal, hs - popcount(must & tm), trump, left
        )
        return np.int64(keep)
    keep = trumps
    short = obs[L.O_MIN_KEEP] - popcount(keep)
    if short > 0:
        keep |= strongest_k(hand & ~tm, short, tm, left)
    return np.int64(keep)


@njit(POLICY_SIG, cache=True, **NO_REFCOUNT)
def simple_bid(obs, hand, legal, params, scratch, rng):
    return simple_bid_core(obs, hand, legal)


@njit(POLICY_SIG, cache=True, **NO_REFCOUNT)
def simple_trump(obs, hand, legal, params, scratch, rng):
    s, _ = best_suit(hand)
    return s


@njit(POLICY_SIG, cache=True, **NO_REFCOUNT)
def simple_discard(obs, hand, legal, params, scratch, rng):
    return simple_discard_core(obs, hand, legal)
