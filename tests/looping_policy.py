"""A play policy that never returns (loaded as "tests/looping_policy.py:forever"):
what a user's bug looks like from the outside, for the Ctrl-C tests."""

from numba import njit


@njit(cache=True)
def forever(obs, hand, legal, params, scratch, rng):
    while legal != 0:  # always: a player to move has a legal card
        scratch[0] += 1  # a side effect, so the compiler keeps the loop
    return scratch[0]
