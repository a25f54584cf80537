"""Policies that index past the arrays a seat is given (loaded as
"tests/bounds_policy.py:NAME"): each would reach another seat's state (or whatever
lies past ``obs``) if the index were not checked. ``in_bounds`` touches the last
slot of each array, which is the seat's own.

The seat's views are side by side in the kernel's arrays: seat s's scratch is
followed by seat s + 1's, its random stream by seat s + 1's, and its play
parameters by seat s + 1's.
"""

import bounds_helpers
import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import lowbit_index
from cinch_sim.signatures import N_PARAMS, N_SCRATCH, POLICY_SIG


@njit(cache=True)
def _peek(arr, i):
    return arr[i]


def _closure_reader():
    helper = _peek

    @njit(cache=True)
    def read(obs, hand, legal, params, scratch, rng):
        return lowbit_index(legal) + 0 * helper(scratch, N_SCRATCH + 5)

    return read


@njit(POLICY_SIG, cache=True)
def next_seat_rng(obs, hand, legal, params, scratch, rng):
    return lowbit_index(legal) + 0 * np.int64(rng[1])


@njit(POLICY_SIG, cache=True)
def partner_scratch(obs, hand, legal, params, scratch, rng):
    scratch[2 * N_SCRATCH + 5] = np.int64(hand)  # a note to the partner, two seats on
    return lowbit_index(legal)


@njit(POLICY_SIG, cache=True)
def next_seat_params(obs, hand, legal, params, scratch, rng):
    params[N_PARAMS] = 0.0
    return lowbit_index(legal)


@njit(POLICY_SIG, cache=True)
def past_obs(obs, hand, legal, params, scratch, rng):
    return lowbit_index(legal) + 0 * obs[L.OBS_LEN + 3]


@njit(POLICY_SIG, cache=True)
def before_scratch(obs, hand, legal, params, scratch, rng):
    return lowbit_index(legal) + 0 * scratch[-N_SCRATCH - 1]  # -1 is the last slot


@njit(cache=True)
def own_helper(obs, hand, legal, params, scratch, rng):
    return lowbit_index(legal) + 0 * _peek(scratch, N_SCRATCH)


@njit(cache=True)
def module_helper(obs, hand, legal, params, scratch, rng):
    return lowbit_index(legal) + 0 * bounds_helpers.peek(scratch, N_SCRATCH)


closure_helper = _closure_reader()


# not cached: numba cannot load a cached caller of a recursive function (the process
# dies on the second run, cinch_sim or not), so these two compile in each process
@njit
def _last_of(scratch, i):
    if i <= 0:
        return scratch[N_SCRATCH]  # one past the end, at the bottom of a recursion
    return _last_of(scratch, i - 1)


@njit
def recursive_helper(obs, hand, legal, params, scratch, rng):
    return lowbit_index(legal) + 0 * _last_of(scratch, 3)


@njit(POLICY_SIG, cache=True)
def in_bounds(obs, hand, legal, params, scratch, rng):
    scratch[N_SCRATCH - 1] += 1
    seen = obs[L.OBS_LEN - 1] + np.int64(params[N_PARAMS - 1]) + scratch[-1]
    return lowbit_index(legal) + 0 * seen + 0 * np.int64(rng[0] & np.uint64(1))
