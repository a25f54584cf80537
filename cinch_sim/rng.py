"""Counter-based random streams keyed by (seed, hand index, stream).

Each hand, and each seat within it, gets its own stream worked out from the seed
and the hand's global index, so results do not depend on how hands are split
into chunks or threads. Stream 0 deals; stream 1 + seat is that seat's policies'
own, so one seat's random choices never shift the deal or another seat's
choices (common random numbers across strategies).

A stream advances by splitmix64 (``next_u64``), which is cheap but invertible:
its state gives away where it started. So the start of every stream a policy is
handed (``policy_stream``) is one-way: a block of Threefry-4x64-20 (Salmon et
al., SC'11, the Random123 library; Threefish's round function with 20 of its 72
rounds), keyed by the seed and counting (hand index, block, domain). Recovering
the key or another block from an output is breaking the cipher, not inverting a
hash, so a policy that reads its state learns its own future draws and nothing
else: not the deal (stream 0, a splitmix chain from the seed the policies never
see), not another seat's stream. Threefry rather than SipHash: one block gives
four seats' starts for about 160 instructions, where SipHash gives one; rather
than Philox: add-rotate-xor needs no 128-bit multiply, which numba lacks.
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


# Threefry-4x64: the rotation constants of its 8 rounds, its key-schedule parity
_R = ((14, 16), (52, 57), (23, 40), (5, 37), (25, 33), (46, 12), (58, 22), (32, 32))
_PARITY = np.uint64(0x1BD11BDAA9FC1A22)
# The policy streams' key words besides the seed, and their counter's domain word:
# constants, so only the seed keys them, and no other use of the cipher collides
_KEY1 = np.uint64(0x243F6A8885A308D3)
_KEY2 = np.uint64(0x13198A2E03707344)
_KEY3 = np.uint64(0xA4093822299F31D0)
_POLICY_DOMAIN = np.uint64(0x706F6C6963790001)  # "policy" and a version


@njit(inline="always")
def _rotl(x, r):
    return (x << np.uint64(r)) | (x >> np.uint64(64 - r))


@njit(inline="always")
def _four_rounds(x0, x1, x2, x3, r):
    """Threefry-4x64's rounds 4r/2 .. +3 of a cycle of 8 (r: 0 or 4), mixing the words
    in pairs (0,1)(2,3) then (0,3)(2,1), as Random123 orders them."""
    x0 += x1
    x1 = _rotl(x1, _R[r][0]) ^ x0
    x2 += x3
    x3 = _rotl(x3, _R[r][1]) ^ x2
    x0 += x3
    x3 = _rotl(x3, _R[r + 1][0]) ^ x0
    x2 += x1
    x1 = _rotl(x1, _R[r + 1][1]) ^ x2
    x0 += x1
    x1 = _rotl(x1, _R[r + 2][0]) ^ x0
    x2 += x3
    x3 = _rotl(x3, _R[r + 2][1]) ^ x2
    x0 += x3
    x3 = _rotl(x3, _R[r + 3][0]) ^ x0
    x2 += x1
    x1 = _rotl(x1, _R[r + 3][1]) ^ x2
    return x0, x1, x2, x3


@njit(inline="always")
def threefry4x64(c0, c1, c2, c3, k0, k1, k2, k3):
    """Threefry-4x64-20 of the counter (c0..c3) under the key (k0..k3): four words.
    Checked against Random123's known-answer vectors (tests/test_rng.py)."""
    k4 = _PARITY ^ k0 ^ k1 ^ k2 ^ k3
    x0, x1, x2, x3 = c0 + k0, c1 + k1, c2 + k2, c3 + k3
    x0, x1, x2, x3 = _four_rounds(x0, x1, x2, x3, 0)
    x0, x1, x2, x3 = x0 + k1, x1 + k2, x2 + k3, x3 + k4 + np.uint64(1)
    x0, x1, x2, x3 = _four_rounds(x0, x1, x2, x3, 4)
    x0, x1, x2, x3 = x0 + k2, x1 + k3, x2 + k4, x3 + k0 + np.uint64(2)
    x0, x1, x2, x3 = _four_rounds(x0, x1, x2, x3, 0)
    x0, x1, x2, x3 = x0 + k3, x1 + k4, x2 + k0, x3 + k1 + np.uint64(3)
    x0, x1, x2, x3 = _four_rounds(x0, x1, x2, x3, 4)
    x0, x1, x2, x3 = x0 + k4, x1 + k0, x2 + k1, x3 + k2 + np.uint64(4)
    x0, x1, x2, x3 = _four_rounds(x0, x1, x2, x3, 0)
    return x0 + k0, x1 + k1, x2 + k2, x3 + k3 + np.uint64(5)


@njit(inline="always")
def policy_streams(seed, hand_index, block):
    """The starting states of a hand's policy streams 4 * block + 1 .. 4 * block + 4:
    one Threefry block (with four players or fewer, every seat's from block 0)."""
    return threefry4x64(
        np.uint64(hand_index), np.uint64(block), _POLICY_DOMAIN, np.uint64(0),
        np.uint64(seed), _KEY1, _KEY2, _KEY3,
    )  # fmt: skip


@njit(inline="always")
def policy_stream(seed, hand_index, stream):
    """The starting state of a hand's policy stream ``stream`` (1 or more)."""
    n = stream - 1
    return policy_streams(seed, hand_index, n >> 2)[n & 3]


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
