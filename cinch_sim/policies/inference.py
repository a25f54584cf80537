"""What the auction says about the hidden hands: weights for PIMC's deals (issue 31).

A deal of the unseen cards (``pimc.deal_unseen``) fixes what each other seat
holds now. What it was dealt at the auction also holds the cards it has played
and, in a game with a draw, the cards it discarded face down. ``dealt_hands``
completes each seat's dealt hand, uniformly among the completions the
observation allows: a drawer kept as many cards as it was dealt less its
discards, and the built-in discards keep trumps, so its kept cards are that
many of the trumps it has held (chosen at random), and its discards are
non-trumps from the cards nobody has shown (the pool: the discards and what
is left of the stock). The robber's dealt hand (with widows, every seat's) is
that many of the cards he has held and thrown. Without a draw the dealt hand is the cards held and
played.

``calls_log_likelihood`` scores the completed hands by how likely the seats
were to make the calls they made under a model of their bidder: the
heuristic's (``heuristic.heuristic_bid``, its vector given as ``model``, and
``heuristic_trump`` as ``trump_model``).
That bidder bids from one number, its best suit's estimate less a margin
(``x``): it passes when ``x`` is below the lowest bid it may and will make
here, bids ``floor(x)`` above that, and its cap beyond. So each call is an
interval of ``x``, a seat's calls the intersection of theirs (scores do not
change within a hand, so neither does the margin), and the maker's trump is
the suit with the best estimate. With ``noise`` 0 the model is taken as exact
(in self-play it is: the weight is 1 or 0); with ``noise`` > 0 the seat's ``x``
is read with a normal error of that many points, and the trump named with
probability Phi(gap / noise), the gap between the trump's estimate and the
best other suit's. Forced calls (the dealer's forced minimum, a pass when no
bid is legal) say nothing and count 1.

Not used (documented in docs/policies.md): the plays so far beyond the voids
and the drawn-card bound that ``deal_unseen`` already respects; face-up dead
trumps (more trumps dealt than the hand size: rare), which belonged to a
seat the observation does not name; two decks.

One random completion per deal makes the weight an unbiased estimate of the
deal's likelihood (the completions' average), so weighting or resampling the
deals by it targets the posterior as the number of deals grows.
"""

import math

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import lowbit_index, popcount
from cinch_sim.policies.common import U0, U1, seen_cards
from cinch_sim.policies.heuristic import (
    bid_cap,
    bid_margin,
    lowest_bid,
    raises,
    suit_estimate,
)
from cinch_sim.rng import below
from cinch_sim.solver import position as Q

ALL52 = np.uint64((1 << 52) - 1)
NO_CALL = 1e18  # an interval end beyond every estimate


@njit(inline="always")
def _random_subset(mask, k, rng):
    """k cards of ``mask`` chosen uniformly (all of it when it holds k or fewer)."""
    n = popcount(mask)
    if k >= n:
        return mask
    out = U0
    m = mask
    left = n
    need = k
    while need > 0:
        c = lowbit_index(m)
        m &= m - U1
        if below(rng, left) < need:  # selection sampling: each k-subset alike
            out |= U1 << np.uint64(c)
            need -= 1
        left -= 1
    return out


@njit(cache=True)
def dealt_hands(obs, hand, pos, rng, out):
    """``out[s]``: a dealt hand for each seat s other than the player, completing the
    deal in ``pos`` (the module's docstring). The player's own slot is left 0."""
    P = obs[L.O_PLAYERS]
    me = obs[L.O_SEAT]
    tm = np.uint64(obs[L.O_TRUMP_MASK])
    dealt = obs[L.O_RULES + L.R_CARDS_DEALT]
    draw = obs[L.O_RULES + L.R_DRAW] != L.DRAW_NONE
    widow = obs[L.O_RULES + L.R_DRAW] == L.DRAW_WIDOW  # every seat keeps as a robber
    robber = obs[L.O_ROBBER]
    pool = ALL52 & ~seen_cards(obs, hand)
    for s in range(P):
        if s != me:
            pool &= ~np.uint64(pos[Q.P_HANDS + s])
    for s in range(L.MAX_PLAYERS):
        out[s] = U0
    for s in range(P):
        if s == me:
            continue
        held = np.uint64(pos[Q.P_HANDS + s]) | np.uint64(obs[L.O_PLAYED_BY + s])
        n_held = popcount(held)
        robs = s == robber or widow
        if draw and not robs:
            thrown = obs[L.O_DISCARDED + s]
            kept = dealt - thrown
            k = _random_subset(held & tm, kept, rng)
            if popcount(k) < kept:  # he kept a plain card: any of the others
                k |= _random_subset(held & ~k, kept - popcount(k), rng)
        else:
            k = held
            thrown = dealt + obs[L.O_DRAWN + s] - n_held if draw else dealt - n_held
        d = _random_subset(pool & ~tm, thrown, rng)  # built-in discards keep trumps
        if popcount(d) < thrown:
            d |= _random_subset(pool & ~d, thrown - popcount(d), rng)
        pool &= ~d
        h = k | d
        if draw and robs:  # which of what he held and threw were dealt him
            h = _random_subset(h, dealt, rng)
        out[s] = h
    return out


@njit(inline="always")
def _estimates(obs, hand, model, est):
    """Each suit's estimate of ``hand``; returns the best (the first of equal ones)."""
    best = 0
    for s in range(4):
        est[s] = suit_estimate(obs, hand, s, model)
        if est[s] > est[best]:
            best = s
    return best


@njit(inline="always")
def _normal_cdf(z):
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


@njit(inline="always")
def _interval_probability(x, lo, hi, noise):
    """P(lo <= x + e < hi), e normal with sd ``noise`` (0: whether lo <= x < hi)."""
    if lo >= hi:
        return 0.0
    if noise <= 0.0:
        return 1.0 if lo <= x < hi else 0.0
    p_hi = 1.0 if hi >= NO_CALL else _normal_cdf((hi - x) / noise)
    p_lo = 0.0 if lo <= -NO_CALL else _normal_cdf((lo - x) / noise)
    return max(0.0, p_hi - p_lo)


@njit(cache=True)
def call_bounds(obs, seat, call, high, high_bidder, model):
    """The interval [lo, hi) of the seat's ``x`` (best estimate less his margin) in which
    the modelled bidder makes ``call`` (a bid, or ``BID_PASS``) over the high bid
    ``high`` held by ``high_bidder`` (-1 nobody). ``heuristic_bid`` made plain."""
    cap = bid_cap(obs, model)
    lowest = lowest_bid(obs, seat, high, high_bidder, model)
    if call == L.BID_PASS:
        if cap < lowest:
            return -NO_CALL, NO_CALL
        return -NO_CALL, np.float64(lowest)
    if call < lowest or call > cap:
        return NO_CALL, NO_CALL  # the modelled bidder never makes it: empty
    if raises(obs, model):  # an open auction: it raises by the least, whatever its x above
        return (np.float64(call), NO_CALL) if call == lowest else (NO_CALL, NO_CALL)
    return np.float64(call), NO_CALL if call == cap else np.float64(call + 1)


@njit(cache=True)
def calls_log_likelihood(obs, hands, seats, model, trump_model, noise):
    """The log-probability that the seats of the mask ``seats``, dealt ``hands`` (by seat:
    ``dealt_hands``'s ``out``), made their calls of the observation and, the maker
    among them, named the trump, under the modelled bidder (``model``, a heuristic bid
    vector) and trump chooser (``trump_model``, a heuristic trump vector: its weights
    may differ) (the module's docstring); -inf if impossible. PIMC scores every seat
    but its own."""
    P = obs[L.O_PLAYERS]
    dealer = obs[L.O_DEALER]
    lo = np.full(L.MAX_PLAYERS, -NO_CALL)
    hi = np.full(L.MAX_PLAYERS, NO_CALL)
    asked = np.zeros(L.MAX_PLAYERS, np.bool_)
    high = 0
    high_bidder = -1
    n_active = P
    all_pass = obs[L.O_RULES + L.R_ALL_PASS]
    bid_max = obs[L.O_BID_MAX]
    for i in range(obs[L.O_N_CALLS]):
        s = obs[L.O_CALLS + 2 * i]
        call = obs[L.O_CALLS + 2 * i + 1]
        stuck = s == dealer and high_bidder < 0 and n_active == 1
        # a stuck dealer's bid_min says nothing: forced, or (free to bid) the lowest
        # bid the bidder makes in place of the pass he may not make
        forced = stuck and (
            all_pass == L.ALL_PASS_FORCED_MIN
            or (all_pass == L.ALL_PASS_FORCED_ANY and call == obs[L.O_BID_MIN])
        )
        no_bid = max(obs[L.O_BID_MIN], high + 1) > bid_max
        if (seats >> s) & 1 and not forced and not no_bid:
            a, b = call_bounds(obs, s, call, high, high_bidder, model)
            lo[s] = max(lo[s], a)
            hi[s] = min(hi[s], b)
            asked[s] = True
        if call != L.BID_PASS:
            high = call
            high_bidder = s
        else:
            n_active -= 1
    est = np.empty(4, np.float64)
    total = 0.0
    maker = obs[L.O_MAKER]
    trump = obs[L.O_TRUMP]
    for s in range(P):
        if not (seats >> s) & 1:
            continue
        names = s == maker and trump >= 0
        if not asked[s] and not names:
            continue
        p = 1.0
        if asked[s]:
            best = _estimates(obs, np.uint64(hands[s]), model, est)
            x = est[best] - bid_margin(obs, s, model)
            p = _interval_probability(x, lo[s], hi[s], noise)
        if names:
            best = _estimates(obs, np.uint64(hands[s]), trump_model, est)
            if noise <= 0.0:
                p *= 1.0 if best == trump else 0.0
            else:
                other = -NO_CALL
                for t in range(4):
                    if t != trump:
                        other = max(other, est[t])
                p *= _normal_cdf((est[trump] - other) / noise)
        if p <= 0.0:
            return -np.inf
        total += math.log(p)
    return total
