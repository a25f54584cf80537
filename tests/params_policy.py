"""Policies that write their own parameter vector (loaded as
"tests/params_policy.py:NAME"). The vector is the run's, one for every hand a thread
plays, so a write carries over into later hands: the runs refuse it."""

import numpy as np
from numba import njit

from cinch_sim.bits import highbit_index, lowbit_index
from cinch_sim.signatures import POLICY_SIG


@njit(POLICY_SIG, cache=True)
def count_calls(obs, hand, legal, params, scratch, rng):
    """Counts its calls in params[0] and plays its highest card every third call: what
    it plays depends on the hands the thread played before."""
    params[0] += 1.0
    if params[0] % 3 == 0:
        return np.int64(highbit_index(legal))
    return np.int64(lowbit_index(legal))


@njit(POLICY_SIG, cache=True)
def note_a_bid(obs, hand, legal, params, scratch, rng):
    """Notes the legal mask in its last slot, then passes where it may."""
    params[params.shape[0] - 1] = np.float64(legal & np.uint64(0xFFFF))
    return np.int64(lowbit_index(legal))


@njit(POLICY_SIG, cache=True)
def reads_only(obs, hand, legal, params, scratch, rng):
    """Reads params[0] and keeps its count in scratch, as docs/policies.md says to."""
    scratch[0] += 1
    if params[0] > 0 and scratch[0] % 3 == 0:
        return np.int64(highbit_index(legal))
    return np.int64(lowbit_index(legal))


DEFAULT_PARAMS = {"reads_only": (1.0,)}
