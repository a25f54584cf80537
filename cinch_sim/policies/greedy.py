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
def greedy_core(legal, tm, trump, left, trick, win_card, led, seat, players, win_seat):
    """The W3 rule itself, from the trick's state as values: the kernel's fast path
    passes what it holds in registers, ``greedy_play`` reads the same off ``obs``."""
    ped = pedros_in(legal, trump, left)
    if trick == U0:
        if legal & ~ped:
            return strongest(legal & ~ped, tm, left)
        return strongest(ped, tm, left)
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
    partner = seat + 2  # (seat + 2) mod players, without a division
    if partner >= players:
        partner -= players
    trick_has_pedro = pedros_in(trick, trump, left) != U0
    if winning and (trick_has_pedro or win_seat != partner):
        return weakest(winning, tm, left)
    if legal & ~ped:
        return weakest(legal & ~ped, tm, left)
    return weakest(ped, tm, left)


@njit(POLICY_SIG, cache=True, **NO_REFCOUNT)
def greedy_play(obs, hand, legal, params, scratch, rng):
    return greedy_core(
        legal,
        trump_mask(obs),
        obs[L.O_TRUMP],
        obs[L.O_LEFT_CARD],
        np.uint64(obs[L.O_TRICK_MASK]),
        obs[L.O_WIN_CARD],
        obs[L.O_LED_CARD],
        obs[L.O_SEAT],
        obs[L.O_PLAYERS],
        obs[L.O_WIN_SEAT],
    )
