"""A play policy whose every card is a hash of the history fields it is shown
(loaded as "tests/digest_policy.py:digest_play"): the voids each seat has shown,
the cards each side has taken, the cards the player knows are out of play and
the rules vector. A test replays the hand from its trace, works each field out
from the public history, and checks that the hash picks the card that was
played: a field the kernel got wrong picks another card (test_observation.py).
"""

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import nth_set_bit, popcount
from cinch_sim.rng import mix64
from cinch_sim.signatures import POLICY_SIG


@njit(cache=True)
def digest(voids, taken, known_out, rules):
    """One 64-bit hash of the fields (each an int64 array, known_out an int64)."""
    h = np.uint64(0x1234)
    for x in voids:
        h = mix64(h ^ np.uint64(x))
    for x in taken:
        h = mix64(h ^ np.uint64(x))
    h = mix64(h ^ np.uint64(known_out))
    for x in rules:
        h = mix64(h ^ np.uint64(x))
    return h


@njit(cache=True)
def pick(legal, h):
    """The legal card the hash points at."""
    return nth_set_bit(legal, np.int64(h % np.uint64(popcount(legal))))


@njit(POLICY_SIG, cache=True)
def digest_play(obs, hand, legal, params, scratch, rng):
    h = digest(
        obs[L.O_VOIDS : L.O_VOIDS + L.MAX_PLAYERS],
        obs[L.O_TAKEN : L.O_TAKEN + L.MAX_TEAMS],
        obs[L.O_KNOWN_OUT],
        obs[L.O_RULES : L.O_RULES + L.R_LEN],
    )
    return pick(legal, h)
