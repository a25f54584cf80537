"""A bid policy that checks the call history it is shown (loaded as
"tests/calls_policy.py:caller").

Against what else the observation says: the calls so far go clockwise from
eldest over the players still in the bidding, each bid is above the one before,
a seat's last call is its ``O_BIDS`` entry, and the high bid and bidder are the
history's. On the first failed check it returns 100 + the check's number (an
illegal bid, which the kernel reports); otherwise a uniformly random legal call.
"""

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.policies.common import random_member
from cinch_sim.signatures import POLICY_SIG


@njit(cache=True)
def _check(obs):
    P = obs[L.O_PLAYERS]
    n = obs[L.O_N_CALLS]
    last = np.full(L.MAX_PLAYERS, L.BID_NOT_YET, np.int64)
    out = np.zeros(L.MAX_PLAYERS, np.int64)
    high, high_bidder = 0, -1
    seat = (obs[L.O_DEALER] + 1) % P  # eldest calls first
    for k in range(n):
        s = obs[L.O_CALLS + 2 * k]
        b = obs[L.O_CALLS + 2 * k + 1]
        while out[seat] == 1 or seat == high_bidder:
            seat = (seat + 1) % P
        if s != seat:
            return 1
        if b != L.BID_PASS:
            if b <= high:
                return 2
            high, high_bidder = b, s
        else:
            out[s] = 1
        last[s] = b
        seat = (seat + 1) % P
    for s in range(P):
        if obs[L.O_BIDS + s] != last[s]:
            return 3
    if obs[L.O_HIGH_BID] != high or obs[L.O_HIGH_BIDDER] != high_bidder:
        return 4
    s = obs[L.O_SEAT]
    if out[s] == 1 or s == high_bidder:
        return 5  # asked though out of the bidding, or asked to raise itself
    return 0


@njit(POLICY_SIG, cache=True)
def caller(obs, hand, legal, params, scratch, rng):
    bad = _check(obs)
    if bad:
        return 100 + bad
    return random_member(legal, rng)
