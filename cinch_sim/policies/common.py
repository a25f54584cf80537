"""Small jitted helpers that built-in and user policies share.

Everything here reads only what a policy is given (its observation, hand and
legal mask), so a policy built from these stays honest.
"""

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import (
    SUIT13,
    bit,
    deposit,
    extract,
    has,
    highbit_index,
    lowbit_index,
    nth_set_bit,
    popcount,
)
from cinch_sim.cards import TIE_ORDER  # clubs < diamonds < hearts < spades
from cinch_sim.jit.cache import refresh
from cinch_sim.jit.memory import NO_REFCOUNT
from cinch_sim.rng import below


def _here() -> None:
    """Locates this folder's numba cache."""


# Every built-in policy module imports this one first, so a stale cache of the
# folder is flushed before any of them loads a cached function (cache.py says why).
refresh(_here)

U0 = np.uint64(0)
U1 = np.uint64(1)
SUITS_BY_TIE = (0, 2, 3, 1)  # our suit numbers in that order
# docs/benchmarks.md keep order for trumps by rank; -1 is the left card
KEEP_RANKS = (3, -1, 12, 9, 8, 11, 10, 7, 6, 5, 4, 2, 1, 0)

# Strength keys: a mask re-laid so that bit order is strength order, so the
# strongest card is the highest bit and "the k strongest" one pdep, with no
# data-dependent branch (each mispredicted one costs about 15 cycles).
# Non-trumps: bit 4 * rank + tie position of the suit. Trumps (14 bits): ranks
# 2 3 4, the left card, then 5 ... A, as ``strength`` orders them.
STRIDE4 = np.uint64(0x1111111111111)  # bits 0, 4, ..., 48
TIE_SUIT_NIBBLES = 0x1320  # tie position -> our suit number, four bits each


@njit(forceinline=True)
def team_of(obs, seat):
    """The side ``seat`` plays for, from the rules' seat -> team table."""
    return obs[L.O_SEAT_TEAM + seat]


@njit(forceinline=True)
def on_my_side(obs, seat):
    """Whether ``seat`` (-1 for nobody) is a teammate of the player asked, not himself."""
    me = obs[L.O_SEAT]
    return seat >= 0 and seat != me and team_of(obs, seat) == team_of(obs, me)


@njit(forceinline=True)
def seen_cards(obs, hand):
    """The cards the player has seen (one deck): his hand, every card played, the
    face-up dead cards and those he knows are out of play (his own discards)."""
    return (
        hand
        | np.uint64(obs[L.O_PLAYED])
        | np.uint64(obs[L.O_DEAD_UP])
        | np.uint64(obs[L.O_KNOWN_OUT])
    )


@njit(forceinline=True)
def trump_mask(obs):
    return np.uint64(obs[L.O_TRUMP_MASK])


@njit(forceinline=True)
def strength(c, tmask, left):
    """docs/benchmarks.md card strength: a total order, every trump above every non-trump."""
    if has(tmask, c):
        r = c % 13
        if c == left:
            return 100 + 7
        return 100 + 2 * r + 2
    return (c % 13) * 4 + TIE_ORDER[c // 13]


@njit(forceinline=True)
def plain_key(mask):
    """Strength key of non-trump cards: bit 4 * rank + the suit's tie position."""
    return (
        deposit(mask & SUIT13, STRIDE4)
        | deposit((mask >> np.uint64(13)) & SUIT13, STRIDE4 << np.uint64(3))
        | deposit((mask >> np.uint64(26)) & SUIT13, STRIDE4 << U1)
        | deposit((mask >> np.uint64(39)) & SUIT13, STRIDE4 << np.uint64(2))
    )


@njit(forceinline=True)
def plain_cards(key):
    """The card mask of a non-trump strength key."""
    return (
        extract(key, STRIDE4)
        | (extract(key, STRIDE4 << np.uint64(3)) << np.uint64(13))
        | (extract(key, STRIDE4 << U1) << np.uint64(26))
        | (extract(key, STRIDE4 << np.uint64(2)) << np.uint64(39))
    )


@njit(forceinline=True)
def plain_card(kb):
    """The card at bit kb of a non-trump strength key."""
    suit = (TIE_SUIT_NIBBLES >> (4 * (kb & 3))) & 15
    return suit * 13 + (kb >> 2)


@njit(forceinline=True)
def trump_base(tmask, left):
    """13 * the trump suit, read off the trump mask."""
    if left >= 0:
        return lowbit_index(tmask & ~bit(left))
    return lowbit_index(tmask)


@njit(forceinline=True)
def trump_key(mask, base, left):
    """Strength key of the trumps in mask: ranks 2 3 4, the left card, 5 ... A."""
    f = (mask >> np.uint64(base)) & SUIT13
    k = (f & np.uint64(7)) | ((f >> np.uint64(3)) << np.uint64(4))
    if left >= 0:
        k |= ((mask >> np.uint64(left)) & U1) << np.uint64(3)
    return k


@njit(forceinline=True)
def trump_cards(key, base, left):
    """The card mask of a trump strength key."""
    f = (key & np.uint64(7)) | ((key >> np.uint64(4)) << np.uint64(3))
    m = f << np.uint64(base)
    if left >= 0:
        m |= ((key >> np.uint64(3)) & U1) << np.uint64(left)
    return m


@njit(forceinline=True)
def trump_card(kb, base, left):
    """The card at bit kb of a trump strength key."""
    c = base + kb - (1 if kb > 3 else 0)
    return left if kb == 3 else c


@njit(forceinline=True)
def top_bits(key, k):
    """The k highest set bits of key (all of them if it has fewer)."""
    n = popcount(key)
    if k >= n:
        return key
    if k <= 0:
        return U0
    return deposit(((U1 << np.uint64(k)) - U1) << np.uint64(n - k), key)


@njit
def strongest(mask, tmask, left):
    """The strongest card of mask by ``strength`` (-1 for an empty mask)."""
    tr = mask & tmask
    if tr:
        base = trump_base(tmask, left)
        return trump_card(highbit_index(trump_key(tr, base, left)), base, left)
    if mask:
        return plain_card(highbit_index(plain_key(mask)))
    return -1


@njit
def weakest(mask, tmask, left):
    """The weakest card of mask by ``strength`` (-1 for an empty mask)."""
    plain = mask & ~tmask
    if plain:
        return plain_card(lowbit_index(plain_key(plain)))
    if mask:
        base = trump_base(tmask, left)
        return trump_card(lowbit_index(trump_key(mask, base, left)), base, left)
    return -1


@njit(forceinline=True)
def keep_key(trumps, trump, left):
    """Trumps re-laid in keep order, lowest priority first: 2 3 4 6 7 8 9 Q K 10 J A, L, 5."""
    f = (trumps >> np.uint64(trump * 13)) & SUIT13
    k = (f & np.uint64(7)) | (((f >> np.uint64(4)) & np.uint64(15)) << np.uint64(3))
    k |= ((f >> np.uint64(10)) & np.uint64(3)) << np.uint64(7)  # Q K
    k |= ((f >> np.uint64(8)) & np.uint64(3)) << np.uint64(9)  # 10 J
    k |= ((f >> np.uint64(12)) & U1) << np.uint64(11)  # A
    k |= ((f >> np.uint64(3)) & U1) << np.uint64(13)  # the right Pedro
    if left >= 0:
        k |= ((trumps >> np.uint64(left)) & U1) << np.uint64(12)
    return k


@njit(forceinline=True)
def keep_cards(key, trump, left):
    """The card mask of a keep-order key."""
    f = (key & np.uint64(7)) | (((key >> np.uint64(3)) & np.uint64(15)) << np.uint64(4))
    f |= ((key >> np.uint64(7)) & np.uint64(3)) << np.uint64(10)
    f |= ((key >> np.uint64(9)) & np.uint64(3)) << np.uint64(8)
    f |= ((key >> np.uint64(11)) & U1) << np.uint64(12)
    f |= ((key >> np.uint64(13)) & U1) << np.uint64(3)
    m = f << np.uint64(trump * 13)
    if left >= 0:
        m |= ((key >> np.uint64(12)) & U1) << np.uint64(left)
    return m


@njit(forceinline=True)
def first_in_keep_order(trumps, k, trump, left):
    """``top_trumps_by_keep_order``, inlined where it is called (the W2 discard)."""
    return keep_cards(top_bits(keep_key(trumps, trump, left), k), trump, left)


@njit
def top_trumps_by_keep_order(trumps, k, trump, left):
    """The k trumps of ``trumps`` that come first in keep order (docs/benchmarks.md):
    Right Pedro, Left Pedro, A, J, 10, K, Q, 9, 8, 7, 6, 4, 3, 2."""
    return first_in_keep_order(trumps, k, trump, left)


@njit(forceinline=True)
def strongest_k(mask, k, tmask, left):
    """``top_by_strength``, inlined where it is called (the W2 discard)."""
    tr = mask & tmask
    nt = popcount(tr)
    if tr and k < nt:
        base = trump_base(tmask, left)
        return trump_cards(top_bits(trump_key(tr, base, left), k), base, left)
    return tr | plain_cards(top_bits(plain_key(mask & ~tmask), k - nt))


@njit
def top_by_strength(mask, k, tmask, left):
    """The k strongest cards of mask."""
    return strongest_k(mask, k, tmask, left)


@njit(forceinline=True)
def random_member(mask, rng):
    """A uniformly chosen set bit of a non-empty mask."""
    return nth_set_bit(mask, below(rng, popcount(mask)))


@njit(**NO_REFCOUNT)
def random_subset(mask, k, rng):
    """A uniformly chosen k-element subset of mask's bits."""
    out = U0
    m = mask
    for _ in range(k):
        c = random_member(m, rng)
        out |= bit(c)
        m &= ~bit(c)
    return out


@njit
def binom(n, k):
    if k < 0 or k > n:
        return 0.0
    r = 1.0
    for i in range(k):
        r = r * (n - i) / (i + 1)
    return r


@njit(**NO_REFCOUNT)
def keep_count_bounds(obs, hand, legal):
    """(must keep mask, lowest, highest number of optional cards kept) for a drawer.

    Encodes docs/rules.md §1.6: trumps stay (more than hand size: exactly hand size of
    them stay), at most hand size cards are kept, at least ``O_MIN_KEEP``
    (limit_discards), and no non-trump under must_discard_nontrumps.
    """
    hs = obs[L.O_MAX_KEEP]
    tm = trump_mask(obs)
    must = hand & ~legal
    n_must = popcount(must)
    ntr = popcount(hand & tm)
    if ntr > hs:
        k = hs - n_must
        return must, k, k
    lo = max(0, obs[L.O_MIN_KEEP] - n_must)
    hi = hs - n_must
    if obs[L.O_MUST_DISCARD] == 1:
        hi = lo
    hi = min(hi, popcount(legal))
    return must, lo, hi
