"""The ``fixed`` policies: one given choice, for "what if I bid b in suit s?".

The advisor gives the advised seat these while every other seat keeps its own
policies, so the rest of the auction plays out around a chosen bid and, when
that seat ends as the maker, the hand is played in the chosen trump.

- bid: ``bid`` (slot 0) when it is legal at that turn, else pass (a later
  round of an auction, once the bidding has passed it), or, where pass is not
  legal (``all_pass=dealer_forced_any``), the lowest legal bid. In an auction the
  seat may have called before the turn asked about: its first ``n_earlier``
  calls are ``earlier`` (slots 2...), counted off the call history;
- trump: ``suit`` (slot 0, the package's suit number) when legal, else the
  lowest legal suit.
"""

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import lowbit_index
from cinch_sim.jit.memory import NO_REFCOUNT
from cinch_sim.signatures import POLICY_SIG

BID_BID = 0  # the bid to make (0: pass)
BID_N_EARLIER = 1  # calls this seat makes first, before the bid asked about
BID_EARLIER = 2  # those calls, in order (at most N_PARAMS - 2)
TRUMP_SUIT = 0  # the suit to name

DEFAULT_PARAMS = {"fixed_bid": (0.0, 0.0), "fixed_trump": (0.0,)}

U1 = np.uint64(1)


@njit(POLICY_SIG, cache=True, **NO_REFCOUNT)
def fixed_bid(obs, hand, legal, params, scratch, rng):
    me = obs[L.O_SEAT]
    made = 0  # calls this seat has made this hand
    for k in range(obs[L.O_N_CALLS]):
        made += obs[L.O_CALLS + 2 * k] == me
    if made < params[BID_N_EARLIER]:
        b = np.int64(params[BID_EARLIER + made])
    else:
        b = np.int64(params[BID_BID])
    if 0 < b < 63 and (legal >> np.uint64(b)) & U1:
        return b
    return 0 if legal & U1 else lowbit_index(legal)  # no pass (a stuck dealer): the lowest


@njit(POLICY_SIG, cache=True, **NO_REFCOUNT)
def fixed_trump(obs, hand, legal, params, scratch, rng):
    s = np.int64(params[TRUMP_SUIT])
    if 0 <= s < 4 and (legal >> np.uint64(s)) & U1:
        return s
    return lowbit_index(legal)
