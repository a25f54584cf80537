"""A play policy that solves double-dummy at every decision (loaded as
"tests/solver_policy.py:dd_play"): the test that the solver runs inside the
kernel's play, on a position built from the observation.

It fills a position from what it sees (``moves.from_observation``), checks that
the position agrees with the kernel (its seat to move, its legal cards: else it
returns 100 + the check's number, an illegal card the kernel reports), deals
the cards it cannot see to the other seats (the first ones of the pack, by the
number each holds: not a sample, just a deal), and plays the card with the best
value for its side. Standard rules.
"""

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import lowbit_index, popcount
from cinch_sim.rules import Rules
from cinch_sim.signatures import POLICY_SIG
from cinch_sim.solver import position as Q
from cinch_sim.solver.moves import from_observation, legal_mask, to_move
from cinch_sim.solver.search import W_SIZE, W_TT_BITS, card_values, workspace_size

RULES = Rules().to_array()
WS_SIZE = workspace_size(10)
ALL = np.int64((1 << 52) - 1)


@njit(POLICY_SIG, cache=True)
def dd_play(obs, hand, legal, params, scratch, rng):
    rules = RULES.copy()
    pos = np.empty(Q.P_LEN, np.int64)
    from_observation(obs, hand, pos)
    seat = obs[L.O_SEAT]
    if to_move(pos, rules) != seat:
        return 101
    if legal_mask(pos, rules) != legal:
        return 102
    seen = np.int64(hand)
    for s in range(4):
        seen |= pos[Q.P_PLAYED + s]
        if pos[Q.P_TRICK + s] >= 0:
            seen |= np.int64(1) << pos[Q.P_TRICK + s]
    pack = np.uint64(ALL & ~seen)
    for s in range(4):
        if s != seat:
            for _ in range(obs[L.O_CARDS_LEFT + s]):
                c = lowbit_index(pack)
                pack &= pack - np.uint64(1)
                pos[Q.P_HANDS + s] |= np.int64(1) << c
    ws = np.zeros(WS_SIZE, np.uint64)
    ws[W_TT_BITS] = 10
    ws[W_SIZE] = WS_SIZE
    values = np.empty(52, np.int64)
    if card_values(pos, rules, ws, values) != seat:
        return 103
    maker_side = (seat - obs[L.O_MAKER]) % 2 == 0
    best, best_v = -1, -1
    for c in range(52):
        v = values[c]
        if v >= 0 and (best < 0 or (v > best_v if maker_side else v < best_v)):
            best, best_v = c, v
    if popcount(legal) and not (legal >> np.uint64(best)) & np.uint64(1):
        return 104
    return best
