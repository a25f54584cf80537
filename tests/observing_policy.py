"""A play policy that checks the trick's public state it is shown (loaded as
"tests/observing_policy.py:observer").

The kernel writes the trick's state to the observation only when it asks a
policy, so this checks that what a policy sees then is whole and consistent:
the cards of the trick, who leads and who wins it, the cards played by each
seat and the cards left. On the first failed check it returns 100 + the
check's number (an illegal card, which the kernel reports with the policy's
seat); otherwise it plays a uniformly random legal card.
For four seats that each hold six cards after the draw (no stock shortage).
"""

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import popcount
from cinch_sim.policies.common import random_member, strength
from cinch_sim.signatures import POLICY_SIG

U0 = np.uint64(0)
U1 = np.uint64(1)


@njit(cache=True)
def _check(obs, hand):
    """0 when the observation is consistent, else the number of the failed check."""
    seat = obs[L.O_SEAT]
    n = obs[L.O_TRICK_COUNT]
    trick = np.uint64(obs[L.O_TRICK_MASK])
    played = np.uint64(obs[L.O_PLAYED])
    tmask = np.uint64(obs[L.O_TRUMP_MASK])
    left = obs[L.O_LEFT_CARD]
    leader = obs[L.O_LEADER]
    if popcount(trick) != n or n > 3:
        return 1
    union = U0
    for k in range(4):
        c = obs[L.O_TRICK_CARDS + k]
        if k < n:
            if c < 0 or not (trick >> np.uint64(c)) & U1:
                return 2
            union |= U1 << np.uint64(c)
            # the k-th card of the trick was played by the k-th seat from the leader
            if not (np.uint64(obs[L.O_PLAYED_BY + (leader + k) % 4]) >> np.uint64(c)) & U1:
                return 3
        elif c != -1:
            return 4
    if union != trick:
        return 5
    if obs[L.O_LED_CARD] != (obs[L.O_TRICK_CARDS] if n > 0 else -1):
        return 6
    if leader != (seat - n) % 4:
        return 7
    by_seats = U0
    for s in range(4):
        pb = np.uint64(obs[L.O_PLAYED_BY + s])
        by_seats |= pb
        if obs[L.O_CARDS_LEFT + s] + popcount(pb) != 6:
            return 8
    if by_seats != played or trick & ~played or hand & played:
        return 9
    if obs[L.O_CARDS_LEFT + seat] != popcount(hand):
        return 10
    if obs[L.O_TRICK] * 4 + n != popcount(played):
        return 11
    if n == 0:
        if obs[L.O_WIN_SEAT] != -1 or obs[L.O_WIN_CARD] != -1:
            return 12
        return 0
    # the winner: the strongest trump, or else the highest card of the suit led
    led = obs[L.O_LED_CARD]
    led_is_trump = (tmask >> np.uint64(led)) & U1
    best, best_str, best_pos = -1, -1, -1
    for k in range(n):
        c = obs[L.O_TRICK_CARDS + k]
        if (tmask >> np.uint64(c)) & U1:
            st = strength(c, tmask, left)
        elif not led_is_trump and c // 13 == led // 13:
            st = c % 13
        else:
            st = -1
        if st > best_str:
            best, best_str, best_pos = c, st, k
    if obs[L.O_WIN_CARD] != best:
        return 13
    if obs[L.O_WIN_SEAT] != (leader + best_pos) % 4:
        return 14
    return 0


@njit(POLICY_SIG, cache=True)
def observer(obs, hand, legal, params, scratch, rng):
    failed = _check(obs, hand)
    if failed:
        return 100 + failed
    return random_member(legal, rng)
