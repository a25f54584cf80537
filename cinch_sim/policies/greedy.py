"""The ``greedy`` play policy: exactly BENCHMARK.md's W3 (no random numbers).

Lead the strongest non-Pedro; take a trick with the weakest winning card
unless the partner already wins a trick without a Pedro in it; otherwise
throw the weakest non-Pedro.
"""

import numpy as np
from numba import njit

from .. import layout as L
from ..memory import NO_REFCOUNT
from ..signatures import POLICY_SIG
from .common import (
    U0,
    U1,
    bit,
    has,
    strongest,
    suit_mask,
    trump_cards,
    trump_key,
    trump_mask,
    weakest,
)


@njit(inline="always")
def pedro_mask(trump, left):
    """The two Pedros (one without a left card)."""
    m = bit(trump * 13 + 3)
    if left >= 0:
        m |= bit(left)
    return m


@njit(inline="always")
def partner_of(seat, players):
    """W3's partner: (seat + 2) mod players, without a division."""
    partner = seat + 2
    return partner - players if partner >= players else partner


@njit(inline="always")
def greedy_core(legal, tm, left, base, pedros, eligible, trick, win_card, partner_wins):
    """The W3 rule itself, from the trick's state as values. ``base`` is 13 * the
    trump suit, ``pedros`` the Pedros' mask, ``eligible`` the cards that can win
    the trick (the trumps and the suit led). The kernel's fast path passes what it
    holds already; ``greedy_play`` works the same values out of ``obs``."""
    ped = legal & pedros
    if trick == U0:
        if legal & ~ped:
            return strongest(legal & ~ped, tm, left)
        return strongest(ped, tm, left)
    cand = legal & eligible
    if has(tm, win_card):  # only higher trumps beat a trump
        above = ~(trump_key(bit(win_card), base, left) * np.uint64(2) - U1)
        winning = trump_cards(trump_key(cand, base, left) & above, base, left)
    else:  # every trump, and the higher cards of the suit led
        winning = (cand & tm) | (cand & ~tm & ~((bit(win_card) << U1) - U1))
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
    led = obs[L.O_LED_CARD]
    eligible = tm  # on a trump lead (or none yet: no card led), only trumps win
    if led >= 0 and not has(tm, led):
        eligible = tm | (suit_mask(led // 13) & ~tm)
    return greedy_core(
        legal,
        tm,
        left,
        trump * 13,
        pedro_mask(trump, left),
        eligible,
        np.uint64(obs[L.O_TRICK_MASK]),
        obs[L.O_WIN_CARD],
        obs[L.O_WIN_SEAT] == partner_of(obs[L.O_SEAT], obs[L.O_PLAYERS]),
    )
