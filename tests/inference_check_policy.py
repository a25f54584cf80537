"""Policies that check policies/inference.py from inside real hands (tests/test_inference.py).

- ``check_bid`` bids as the heuristic does and checks that ``call_bounds`` puts the
  estimate less the margin inside the interval of the call made and outside every
  other call's. It returns 100 (an illegal bid: the kernel stops) on a mismatch.
- ``check_own_calls`` plays as the heuristic and, at every decision of a game without
  a draw (the dealt hand is the cards held and played), scores the player's own
  calls with his own dealt hand under the exact model: the log-likelihood must be
  0. Its parameter vector holds the models where pimc's does; it counts the
  decisions checked in slot ``COUNT`` and the failures in ``BAD``.
- ``check_posterior`` plays as the heuristic and, the first time seat 0 holds two
  cards in a game without a draw, compares the weighted deals of ``pimc`` with
  inference against the exact posterior worked out here by enumerating every
  deal of the unseen cards (one or two to each other seat): the probability that each
  unseen card is in each seat's hand. The voids are cleared in a copy of the
  observation first, so that every deal of the unseen cards is possible and the
  proposal (``deal_unseen``) is uniform. It writes the largest z-score in ``Z``,
  the largest gap between the exact posterior and the prior (the deals
  unweighted) in ``SHIFT``, the effective sample size in ``ESS``.
"""

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import lowbit_index, popcount
from cinch_sim.policies.heuristic import (
    DEFAULT_PARAMS,
    best_estimate,
    bid_margin,
    heuristic_bid,
    heuristic_play,
)
from cinch_sim.policies.inference import call_bounds, calls_log_likelihood
from cinch_sim.policies.pimc import (
    MODEL_LEN,
    P_BID_MODEL,
    P_CANDIDATES,
    P_MAX_CANDIDATES,
    P_NOISE,
    P_SAMPLES,
    P_TRUMP_MODEL,
    _resampled_deals,
    weighted_deals,
)
from cinch_sim.solver import position as Q
from cinch_sim.solver.moves import from_observation

U1 = np.uint64(1)
ALL = np.uint64((1 << 52) - 1)
# the counters: the two slots after pimc's models (a check policy is not pimc, so it
# has no memo slot), and pimc's sequential-test slots, which the deal weighting and
# the resampling checked here never read
COUNT, BAD = 62, 63  # check_own_calls
Z, SHIFT, ESS = 6, 7, 8  # check_posterior (COUNT: checked yet)
FEW_FIXED, FEW_MORE = 7, 8  # check_resampling
N_SAMPLES = 20_000
_PLAY = tuple(float(x) for x in DEFAULT_PARAMS["heuristic_play"])


@njit(cache=True)
def _play(obs, hand, legal, scratch, rng):
    hp = np.zeros(64)
    for i in range(len(_PLAY)):
        hp[i] = _PLAY[i]
    return heuristic_play(obs, hand, legal, hp, scratch, rng)


@njit(cache=True)  # compiled when a test loads it (loading.load_policy)
def check_bid(obs, hand, legal, params, scratch, rng):
    b = heuristic_bid(obs, hand, legal, params, scratch, rng)
    me = obs[L.O_SEAT]
    _, e = best_estimate(obs, hand, params)
    x = e - bid_margin(obs, me, params)
    for c in range(-1, 63):
        if c >= 0 and not (legal >> np.uint64(c)) & U1:
            continue
        call = L.BID_PASS if c <= 0 else c
        if c == 0:
            continue
        lo, hi = call_bounds(obs, me, call, obs[L.O_HIGH_BID], obs[L.O_HIGH_BIDDER], params)
        made = call == (b if b > 0 else L.BID_PASS)
        if (lo <= x < hi) != made:
            return np.int64(100)
    return b


@njit(cache=True)
def _score_own_calls(obs, params, dealt):
    """Count one check, and a failure unless the player's own calls and trump, with
    ``dealt`` his dealt hand, have likelihood 1 under the exact model."""
    me = obs[L.O_SEAT]
    hands = np.zeros(L.MAX_PLAYERS, np.uint64)
    hands[me] = dealt
    bid_model = params[P_BID_MODEL : P_BID_MODEL + MODEL_LEN]
    trump_model = params[P_TRUMP_MODEL : P_TRUMP_MODEL + MODEL_LEN]
    ll = calls_log_likelihood(obs, hands, 1 << me, bid_model, trump_model, 0.0)
    params[COUNT] += 1
    if ll != 0.0:
        params[BAD] += 1


@njit(cache=True)  # compiled when a test loads it (loading.load_policy)
def check_own_calls(obs, hand, legal, params, scratch, rng):
    _score_own_calls(obs, params, hand | np.uint64(obs[L.O_PLAYED_BY + obs[L.O_SEAT]]))
    return _play(obs, hand, legal, scratch, rng)


@njit(cache=True)
def _subsets(mask, k, out):
    """Every k-card subset of ``mask`` (k 1 or 2) into ``out``; returns how many."""
    n = 0
    m = mask
    while m:
        a = lowbit_index(m)
        m &= m - U1
        if k == 1:
            out[n] = U1 << np.uint64(a)
            n += 1
            continue
        r = m
        while r:
            b = lowbit_index(r)
            r &= r - U1
            out[n] = (U1 << np.uint64(a)) | (U1 << np.uint64(b))
            n += 1
    return n


@njit(cache=True)
def _exact(obs, unseen, params, post, prior):
    """The exact posterior and the prior of 'card c in seat s' over every deal of the
    unseen cards to seats 1-3, each its cards left (``post[s, c]``, ``prior[s, c]``)."""
    bid_model = params[P_BID_MODEL : P_BID_MODEL + MODEL_LEN]
    trump_model = params[P_TRUMP_MODEL : P_TRUMP_MODEL + MODEL_LEN]
    subsets = np.zeros((4, 1400), np.uint64)
    n = np.zeros(4, np.int64)
    f = np.zeros((4, 1400))  # each seat's likelihood alone, for each hand it might hold
    hands = np.zeros(L.MAX_PLAYERS, np.uint64)
    for s in range(1, 4):
        n[s] = _subsets(unseen, obs[L.O_CARDS_LEFT + s], subsets[s])
        for i in range(n[s]):
            hands[s] = subsets[s, i] | np.uint64(obs[L.O_PLAYED_BY + s])
            f[s, i] = np.exp(calls_log_likelihood(obs, hands, 1 << s, bid_model, trump_model,
                                                  params[P_NOISE]))  # fmt: skip
    total = 0.0
    count = 0.0
    for i in range(n[1]):
        a = subsets[1, i]
        for j in range(n[2]):
            b = subsets[2, j]
            if a & b:
                continue
            for k in range(n[3]):
                c3 = subsets[3, k]
                if (a | b) & c3:
                    continue
                w = f[1, i] * f[2, j] * f[3, k]
                total += w
                count += 1.0
                for s in range(1, 4):
                    m = a if s == 1 else b if s == 2 else c3
                    while m:
                        c = lowbit_index(m)
                        m &= m - U1
                        post[s, c] += w
                        prior[s, c] += 1.0
    post /= total
    prior /= count


@njit(cache=True)  # compiled when a test loads it (loading.load_policy)
def check_posterior(obs, hand, legal, params, scratch, rng):
    if obs[L.O_SEAT] != 0 or popcount(hand) != 2 or params[COUNT] > 0:
        return _play(obs, hand, legal, scratch, rng)
    params[COUNT] = 1
    o = obs.copy()
    for s in range(L.MAX_PLAYERS):
        o[L.O_VOIDS + s] = 0
    seen = hand | np.uint64(o[L.O_PLAYED]) | np.uint64(o[L.O_DEAD_UP])
    unseen = ALL & ~seen
    post = np.zeros((4, 52))
    prior = np.zeros((4, 52))
    _exact(o, unseen, params, post, prior)
    base = np.empty(Q.P_LEN, np.int64)
    from_observation(o, hand, base, np.uint64(0))
    cand = np.zeros((N_SAMPLES, L.MAX_PLAYERS), np.int64)
    logw = np.empty(N_SAMPLES)
    top = weighted_deals(o, hand, base, params, rng, False, cand, logw)
    w = np.exp(logw - top)
    ess = w.sum() ** 2 / (w * w).sum()
    est = np.zeros((4, 52))
    for i in range(N_SAMPLES):
        for s in range(1, 4):
            m = np.uint64(cand[i, s])
            while m:
                c = lowbit_index(m)
                m &= m - U1
                est[s, c] += w[i]
    est /= w.sum()
    z = 0.0
    shift = 0.0
    for s in range(1, 4):
        for c in range(52):
            p = post[s, c]
            if 0.0 < p < 1.0:
                z = max(z, abs(est[s, c] - p) / np.sqrt(p * (1 - p) / ess))
            elif est[s, c] != p:
                z = np.inf  # a card the exact posterior never puts there, or always does
            shift = max(shift, abs(p - prior[s, c]))
    params[Z] = z
    params[SHIFT] = shift
    params[ESS] = ess
    return _play(obs, hand, legal, scratch, rng)


@njit(cache=True)  # compiled when a test loads it (loading.load_policy)
def remember_bid(obs, hand, legal, params, scratch, rng):
    """The heuristic's bid; the hand it was dealt kept in scratch[0] for the play."""
    scratch[0] = np.int64(hand)
    return heuristic_bid(obs, hand, legal, params, scratch, rng)


@njit(cache=True)  # compiled when a test loads it (loading.load_policy)
def check_remembered_calls(obs, hand, legal, params, scratch, rng):
    """``check_own_calls`` with the dealt hand ``remember_bid`` kept (a game with a
    draw: the dealt hand is not what is held and played). A seat never asked to
    bid is skipped."""
    if scratch[0] != 0:
        _score_own_calls(obs, params, np.uint64(scratch[0]))
    return _play(obs, hand, legal, scratch, rng)


@njit(cache=True)
def _distinct(chosen):
    """Distinct deals among the resampled (``chosen`` is in increasing order)."""
    n = 1
    for i in range(1, chosen.shape[0]):
        n += chosen[i] != chosen[i - 1]
    return n


@njit(cache=True)  # compiled when a test loads it (loading.load_policy)
def check_resampling(obs, hand, legal, params, scratch, rng):
    if popcount(legal) > 1:
        base = np.empty(Q.P_LEN, np.int64)
        from_observation(obs, hand, base, np.uint64(0))
        samples = np.int64(params[P_SAMPLES])
        chosen = np.zeros(samples, np.int64)
        fixed = params.copy()
        fixed[P_MAX_CANDIDATES] = fixed[P_CANDIDATES]
        _resampled_deals(obs, hand, base, fixed, rng, True, samples, chosen)
        few_fixed = _distinct(chosen) < samples // 4
        _resampled_deals(obs, hand, base, params, rng, True, samples, chosen)
        params[COUNT] += 1
        params[FEW_FIXED] += few_fixed
        params[FEW_MORE] += _distinct(chosen) < samples // 4
    return _play(obs, hand, legal, scratch, rng)
