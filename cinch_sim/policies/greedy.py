"""The ``greedy`` play policy: exactly docs/benchmarks.md's W3 (no random numbers).

Lead the strongest non-Pedro; take a trick with the weakest winning card
unless the partner already wins a trick without a Pedro in it; otherwise
throw the weakest non-Pedro.
"""

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import bit, has, suit_mask
from cinch_sim.jit.memory import NO_REFCOUNT
from cinch_sim.policies.common import (
    U0,
    U1,
    on_my_side,
    strongest,
    trump_cards,
    trump_key,
    trump_mask,
    weakest,
)
from cinch_sim.signatures import POLICY_SIG


@njit(forceinline=True)
def pedro_mask(trump, left):
    """The two Pedros (one without a left card)."""
    m = bit(trump * 13 + 3)
    if left >= 0:
        m |= bit(left)
    return m


@njit(forceinline=True)
def beaten_by(win_card, tm, left, base):
    """The cards that take a trick from ``win_card``, its winner: the stronger trumps
    of a trump; of a non-trump (of the suit led) every trump and its suit's higher
    cards. ``base`` is 13 * the trump suit. The kernel reads these off a table it
    builds with this function (``kernel._build_tables``)."""
    if has(tm, win_card):
        above = ~(trump_key(bit(win_card), base, left) * np.uint64(2) - U1)
        return trump_cards(trump_key(tm, base, left) & above, base, left)
    higher = ~((bit(win_card) << U1) - U1)
    return tm | (suit_mask(win_card // 13) & ~tm & higher)


@njit(forceinline=True)
def greedy_core(legal, tm, left, pedros, trick, beats, partner_wins):
    """The W3 rule itself, from the trick's state as values: ``pedros`` is the
    Pedros' mask, ``beats`` what takes the trick from its current winner
    (``beaten_by``). The kernel's fast path passes what it holds already;
    ``greedy_play`` works the same values out of ``obs``."""
    ped = legal & pedros
    if trick == U0:
        if legal & ~ped:
            return strongest(legal & ~ped, tm, left)
        return strongest(ped, tm, left)
    winning = legal & beats
    if winning and (trick & pedros or not partner_wins):
        return weakest(winning, tm, left)
    if legal & ~ped:
        return weakest(legal & ~ped, tm, left)
    return weakest(ped, tm, left)


@njit(POLICY_SIG, cache=True, **NO_REFCOUNT)
def greedy_play(obs, hand, legal, params, scratch, rng):
    tm = trump_mask(obs)
    trump = obs[L.O_TRUMP]
    left = obs[L.O_LEFT_CARD]
    win_card = obs[L.O_WIN_CARD]
    beats = beaten_by(win_card, tm, left, trump * 13) if win_card >= 0 else U0
    return greedy_core(
        legal,
        tm,
        left,
        pedro_mask(trump, left),
        np.uint64(obs[L.O_TRICK_MASK]),
        beats,
        on_my_side(obs, obs[L.O_WIN_SEAT]),  # W3's "the partner wins"
    )
