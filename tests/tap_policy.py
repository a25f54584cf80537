"""Policies that record a hash of everything the kernel hands them (loaded as
"tests/tap_policy.py:tap_bid" and so on), for the information-boundary test.

Each call hashes the whole observation, the hand, the legal mask and the random
state as handed, and records it in its seat's parameter vector (one vector per
seat and kind), with one flag: whether the seat could see then (its hand, the
cards played, face up or known out) one of the cards named in ``[1]``.

Slots: ``[0]`` the calls so far; ``[1]`` the mask of the watched cards; ``[2 + i]``
call i's record, hash * 2 + flag (13 calls); ``[15]`` 1 to replay a script, else
the policy decides itself and writes its answers there; ``[16 + k]`` the script:
the k-th bid, the trump, the keep of the discard passes (the drawer's two, then
the robber's two) or the card of trick k. At the first bid, ``[29]``/``[30]`` hold
the random state's high and low 32 bits and ``[31]`` the hand. A replaying policy
draws from its stream as the deciding one did, so the stream moves on alike.
"""

import numpy as np
from numba import njit
from scripted_policies import lowest_cards  # tests/ is on the path

from cinch_sim import layout as L
from cinch_sim.bits import lowbit_index, nth_set_bit, popcount
from cinch_sim.rng import below, mix64
from cinch_sim.signatures import POLICY_SIG

U0 = np.uint64(0)
U1 = np.uint64(1)
CALLS = 13
REPLAY = 15
SCRIPT = 16


@njit(cache=True)
def _record(obs, hand, legal, params, rng):
    """Hash what the policy is handed; record it with the flag; the call's number."""
    h = mix64(np.uint64(hand) ^ np.uint64(0x5EED))
    h = mix64(h ^ np.uint64(legal))
    h = mix64(h ^ rng[0])
    for i in range(L.OBS_LEN):
        h = mix64(h ^ np.uint64(obs[i]))
    seen = np.uint64(hand) | np.uint64(obs[L.O_PLAYED]) | np.uint64(obs[L.O_TRICK_MASK])
    seen |= np.uint64(obs[L.O_DEAD_UP]) | np.uint64(obs[L.O_KNOWN_OUT])
    flag = 1 if seen & np.uint64(params[1]) else 0
    n = np.int64(params[0]) if params[0] >= 0 else 0
    if n < CALLS:
        params[2 + n] = np.float64((h >> np.uint64(13)) * np.uint64(2) + np.uint64(flag))
    params[0] = n + 1
    return n


@njit(POLICY_SIG, cache=True)
def tap_bid(obs, hand, legal, params, scratch, rng):
    if params[0] < 0:
        params[29] = np.float64(rng[0] >> np.uint64(32))
        params[30] = np.float64(rng[0] & np.uint64(0xFFFFFFFF))
        params[31] = np.float64(hand)
    n = _record(obs, hand, legal, params, rng)
    bids = np.uint64(legal) & ~U1  # bit 0: pass
    b = 0
    if bids != U0 and not (np.uint64(legal) & U1 and below(rng, 3) == 0):
        b = lowbit_index(bids)
    if params[REPLAY] == 1:  # after the same draws, so the stream moves on alike
        return np.int64(params[SCRIPT + n]) if n < CALLS else 0
    if n < CALLS:
        params[SCRIPT + n] = b
    return b


@njit(POLICY_SIG, cache=True)
def tap_trump(obs, hand, legal, params, scratch, rng):
    _record(obs, hand, legal, params, rng)
    if params[REPLAY] == 1:
        return np.int64(params[SCRIPT])
    best, most = -1, -1
    for t in range(4):
        if (np.uint64(legal) >> np.uint64(t)) & U1:
            k = popcount(np.uint64(hand) & (np.uint64(0x1FFF) << np.uint64(13 * t)))
            if k > most:
                best, most = t, k
    params[SCRIPT] = best
    return best


@njit(POLICY_SIG, cache=True)
def tap_discard(obs, hand, legal, params, scratch, rng):
    """Keep what may not go, the lowest trumps, then the lowest others to the minimum."""
    _record(obs, hand, legal, params, rng)
    k = obs[L.O_DISCARD_PASS] + (2 if obs[L.O_PHASE] == L.PHASE_ROB else 0)
    if params[REPLAY] == 1:
        return np.int64(params[SCRIPT + k])
    h = np.uint64(hand)
    tm = np.uint64(obs[L.O_TRUMP_MASK])
    hs = obs[L.O_MAX_KEEP]
    keep = h & ~np.uint64(legal)
    if popcount(keep) < hs:
        keep |= lowest_cards(h & tm & ~keep, hs - popcount(keep))
    short = obs[L.O_MIN_KEEP] - popcount(keep)
    if short > 0:
        keep |= lowest_cards(h & ~keep & ~tm, short)
    params[SCRIPT + k] = np.float64(keep)
    return np.int64(keep)


@njit(POLICY_SIG, cache=True)
def tap_play(obs, hand, legal, params, scratch, rng):
    _record(obs, hand, legal, params, rng)
    c = nth_set_bit(np.uint64(legal), below(rng, popcount(np.uint64(legal))))
    if params[REPLAY] == 1:  # after the same draw, so the stream moves on alike
        return np.int64(params[SCRIPT + obs[L.O_TRICK]])
    params[SCRIPT + obs[L.O_TRICK]] = c
    return c
