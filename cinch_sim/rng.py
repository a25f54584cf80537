"""A counter-based random stream keyed by (seed, hand index, stream).

Each hand, and each seat within it, gets its own splitmix64 stream derived
from the seed and the hand's global index, so results do not depend on how
hands are split into chunks or threads. Stream 0 deals; stream 1 + seat is
that seat's policies' own, so one seat's random choices never shift the deal
or another seat's choices (common random numbers across strategies).
"""

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_STREAM = np.uint64(0xD1B54A32D192ED03)


@njit(inline="always")
def mix64(z):
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(inline="always")
def hand_key(seed, hand_index):
    """The hash of (seed, hand index) every stream of that hand starts from."""
    k = mix64(np.uint64(seed) ^ GOLDEN)
    return mix64(k + np.uint64(hand_index) * GOLDEN)


@njit(inline="always")
def stream_from_key(key, stream):
    return mix64(key + np.uint64(stream) * _STREAM)


@njit(inline="always")
def stream_state(seed, hand_index, stream):
    """The starting state of one stream: a hash of the three keys."""
    return stream_from_key(hand_key(seed, hand_index), stream)


@njit(inline="always")
def next_u64(state):
    """Advance a one-element state array; return 64 random bits."""
    s = state[0] + GOLDEN
    state[0] = s
    return mix64(s)


@njit(inline="always")
def below(state, n):
    """A uniform integer in [0, n) for n < 2**32 (Lemire's multiply-shift, bias < n/2**32)."""
    return np.int64(((next_u64(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(inline="always")
def uniform(state):
    """A uniform float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
