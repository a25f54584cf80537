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
    trump_base,
    trump_cards,
    trump_key,
    trump_mask,
    weakest,
)


@njit(inline="always")
def pedros_in(mask, trump, left):
    m = bit(trump * 13 + 3)
    if left >= 0:
        m |= bit(left)
    return mask & m


@njit(inline="always")
def greedy_core(obs, legal):
    """The W3 rule itself; the kernel's fast path calls it with only what it reads."""
    tm = trump_mask(obs)
    trump = obs[L.O_TRUMP]
    left = obs[L.O_LEFT_CARD]
    ped = pedros_in(legal, trump, left)
    if obs[L.O_TRICK_COUNT] == 0:
        if legal & ~ped:
            return strongest(legal & ~ped, tm, left)
        return strongest(ped, tm, left)
    win_card = obs[L.O_WIN_CARD]
    led = obs[L.O_LED_CARD]
    if has(tm, led):
        eligible = tm
    else:
        eligible = tm | (suit_mask(led // 13) & ~tm)
    cand = legal & eligible
    if has(tm, win_card):  # only higher trumps beat a trump
        base = trump_base(tm, left)
        above = ~(trump_key(bit(win_card), base, left) * np.uint64(2) - U1)
        winning = trump_cards(trump_key(cand, base, left) & above, base, left)
    else:  # every trump, and the higher cards of the suit led
        winning = (cand & tm) | (cand & ~tm & ~((bit(win_card) << U1) - U1))
    seat = obs[L.O_SEAT]
    partner = seat + 2  # (seat + 2) mod players, without a division
    if partner >= obs[L.O_PLAYERS]:
        partner -= obs[L.O_PLAYERS]
    trick_has_pedro = pedros_in(np.uint64(obs[L.O_TRICK_MASK]), trump, left) != U0
    if winning and (trick_has_pedro or obs[L.O_WIN_SEAT] != partner):
        return weakest(winning, tm, left)
    if legal & ~ped:
        return weakest(legal & ~ped, tm, left)
    return weakest(ped, tm, left)


@njit(POLICY_SIG, cache=True, **NO_REFCOUNT)
def greedy_play(obs, hand, legal, params, scratch, rng):
    return greedy_core(obs, legal)
