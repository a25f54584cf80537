"""Scripted policies for hand-built deals (loaded as "tests/scripted_policies.py:fn").

Each follows a script held in its seat's parameter vector and records what the
kernel showed it (its hand, its legal mask) back into that vector, so a test
can check the kernel's legal-move generation exactly. The tests give the
kernel one persistent parameter array (``helpers.ScriptedPolicies``) and read it
afterwards. Float64 holds a 52-bit card mask exactly.

Parameter slots, per seat (``-1`` in a record slot: the kernel never asked):

- bid:     [0] the bid to make (0 = pass); records [1] legal, [2] hand, [3] O_FORCED,
           [4] O_HIGH_BID seen. ``script_raise`` bids in an auction instead: [0] its
           cap, [5] 1 to jump to it at once.
- trump:   [0] the suit to name; records [1] hand, [2] legal.
- discard: [0] mask to keep as a drawer (-1: the cards it may not discard, topped
           up with the lowest trumps to the hand size and the lowest non-trumps to
           O_MIN_KEEP), [1] mask to keep when robbing (-1: lowest trumps first,
           then lowest non-trumps); records [2] hand, [3] legal, [4] O_MIN_KEEP,
           [5] O_DEAD_UP seen, [6] the robber's hand plus stock, [7] O_STOCK_LEFT
           seen by the robber.
- play:    [0:6] the card to play in trick t (-1: the lowest legal card); records
           [6 + t] the legal mask and [12 + t] the hand when asked in trick t,
           [18 + t] O_LEADER seen.
"""

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import lowbit_index, popcount
from cinch_sim.signatures import POLICY_SIG

U0 = np.uint64(0)
U1 = np.uint64(1)


@njit(cache=True)
def lowest_cards(mask, k):
    """The k lowest-numbered cards of mask."""
    out = U0
    m = mask
    for _ in range(k):
        if m == U0:
            break
        c = lowbit_index(m)
        out |= U1 << np.uint64(c)
        m &= m - U1
    return out


@njit(POLICY_SIG, cache=True)
def script_bid(obs, hand, legal, params, scratch, rng):
    params[1] = np.float64(legal)
    params[2] = np.float64(hand)
    params[3] = np.float64(obs[L.O_FORCED])
    params[4] = np.float64(obs[L.O_HIGH_BID])
    return np.int64(params[0])


@njit(POLICY_SIG, cache=True)
def script_trump(obs, hand, legal, params, scratch, rng):
    params[1] = np.float64(hand)
    params[2] = np.float64(legal)
    return np.int64(params[0])


@njit(POLICY_SIG, cache=True)
def script_discard(obs, hand, legal, params, scratch, rng):
    tm = np.uint64(obs[L.O_TRUMP_MASK])
    hs = obs[L.O_MAX_KEEP]
    if obs[L.O_PHASE] == L.PHASE_ROB:
        params[6] = np.float64(hand)
        params[7] = np.float64(obs[L.O_STOCK_LEFT])
        if params[1] >= 0:
            return np.int64(params[1])
        keep = lowest_cards(hand & tm, hs)
        keep |= lowest_cards(hand & ~tm, hs - popcount(keep))
        return np.int64(keep)
    params[2] = np.float64(hand)
    params[3] = np.float64(legal)
    params[4] = np.float64(obs[L.O_MIN_KEEP])
    params[5] = np.float64(obs[L.O_DEAD_UP])
    if params[0] >= 0:
        return np.int64(params[0])
    keep = hand & ~legal
    if popcount(hand & tm) > hs:
        keep |= lowest_cards(hand & tm & ~keep, hs - popcount(keep))
    short = obs[L.O_MIN_KEEP] - popcount(keep)
    if short > 0:
        keep |= lowest_cards(hand & ~keep & ~tm, short)
    return np.int64(keep)


@njit(POLICY_SIG, cache=True)
def script_play(obs, hand, legal, params, scratch, rng):
    t = obs[L.O_TRICK]
    if t < 6:
        params[6 + t] = np.float64(legal)
        params[12 + t] = np.float64(hand)
        params[18 + t] = np.float64(obs[L.O_LEADER])
        if params[t] >= 0:
            return np.int64(params[t])
    return lowbit_index(legal)


@njit(POLICY_SIG, cache=True)
def script_raise(obs, hand, legal, params, scratch, rng):
    """An auction bidder: [0] its cap; [5] 1 to jump to the cap at once, else one above
    the high bid (at least 1) while that is within the cap and legal; else pass."""
    cap = np.int64(params[0])
    want = cap if params[5] == 1 else max(obs[L.O_HIGH_BID] + 1, 1)
    if want <= cap and (legal >> np.uint64(want)) & U1:
        return want
    return np.int64(0)
