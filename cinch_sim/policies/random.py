"""The ``random`` policies: each decision uniform over its legal options.

- bid: uniform over {pass} and every legal bid value (so a bid of 14 is as
  likely as a pass);
- trump: uniform over the four suits;
- discard (a drawer): uniform over every legal set of cards to keep, i.e. the
  number of optional cards kept is drawn with weight C(n, k), then a uniform
  k-subset; with more trumps than the hand size, a uniform choice of which
  eligible trumps go;
- rob: uniform over the legal six-card keeps (all trumps up to six, the rest
  from the other cards);
- play: uniform over the legal cards, leads included.
"""

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import popcount
from cinch_sim.jit.memory import NO_REFCOUNT
from cinch_sim.policies.common import (
    binom,
    keep_count_bounds,
    random_member,
    random_subset,
    trump_mask,
)
from cinch_sim.rng import uniform
from cinch_sim.signatures import POLICY_SIG


@njit(POLICY_SIG, cache=True, **NO_REFCOUNT)
def random_choice(obs, hand, legal, params, scratch, rng):
    """Bid, trump or play: one legal option, uniformly."""
    return random_member(legal, rng)


@njit(POLICY_SIG, cache=True, **NO_REFCOUNT)
def random_discard(obs, hand, legal, params, scratch, rng):
    tm = trump_mask(obs)
    hs = obs[L.O_MAX_KEEP]
    if obs[L.O_PHASE] == L.PHASE_ROB:
        trumps = hand & tm
        ntr = popcount(trumps)
        if ntr >= hs:
            must = hand & ~legal  # point trumps under excess_trump_discard=non_point_only
            return np.int64(must | random_subset(trumps & legal, hs - popcount(must), rng))
        return np.int64(trumps | random_subset(hand & ~tm, hs - ntr, rng))
    must, lo, hi = keep_count_bounds(obs, hand, legal)
    pool = legal
    if popcount(hand & tm) > hs:
        pool = legal & tm
    n = popcount(pool)
    total = 0.0
    for k in range(lo, hi + 1):
        total += binom(n, k)
    u = uniform(rng) * total
    k = lo
    acc = binom(n, lo)
    while acc <= u and k < hi:
        k += 1
        acc += binom(n, k)
    return np.int64(must | random_subset(pool, k, rng))
