"""A play policy that checks the PIMC player's sequential test (loaded as
"tests/pimc_stop_policy.py:check_stop"), then plays as PIMC does.

At every decision it runs ``pimc_values`` three times on copies of the same random
stream: with the test (6 deals first, a card dropped 2 standard errors behind, a
stop once the expected loss is below 0.2), without it (every deal for every
card), and without it for only as many deals as the test used. The test may stop
early and drop cards, nothing else: a card it kept has the mean of those first
deals (so, when it used every deal, the mean without the test), and at least one
card is kept. On the first failed check it returns 100 + the check's number, an
illegal card the kernel reports.
"""

import numpy as np
from numba import njit

from cinch_sim.bits import lowbit_index
from cinch_sim.policies.common import U0, U1
from cinch_sim.policies.pimc import (
    DEFAULT_PARAMS,
    P_MIN_SAMPLES,
    P_SAMPLES,
    P_STOP_LOSS,
    P_STOP_Z,
    pimc_play,
    pimc_values,
)
from cinch_sim.signatures import N_PARAMS, POLICY_SIG

_PARAMS = DEFAULT_PARAMS["pimc_play"]


@njit(cache=True)
def check_stop(obs, hand, legal, params, scratch, rng):
    if legal & (legal - U1) == U0:
        return lowbit_index(legal)
    p = np.zeros(N_PARAMS, np.float64)
    for i in range(len(_PARAMS)):
        p[i] = _PARAMS[i]
    p[P_MIN_SAMPLES] = 6.0
    p[P_STOP_Z] = 2.0
    p[P_STOP_LOSS] = 0.2
    full = p.copy()
    full[P_STOP_Z] = 0.0
    a = np.empty(52, np.float64)
    b = np.empty(52, np.float64)
    c = np.empty(52, np.float64)
    n_full = pimc_values(obs, hand, legal, full, rng.copy(), a)
    n_test = pimc_values(obs, hand, legal, p, rng.copy(), b)
    short = full.copy()
    short[P_SAMPLES] = n_test
    pimc_values(obs, hand, legal, short, rng.copy(), c)
    if n_full != np.int64(p[P_SAMPLES]) or n_test > n_full:
        return 101
    kept = 0
    m = legal
    while m:
        k = lowbit_index(m)
        m &= m - U1
        if b[k] == -np.inf:
            continue
        kept += 1
        if b[k] != c[k]:
            return 102
        if n_test == n_full and b[k] != a[k]:
            return 103
    if kept == 0:
        return 104
    return pimc_play(obs, hand, legal, p, scratch, rng)


check_stop = njit(POLICY_SIG, cache=True)(check_stop.py_func)
