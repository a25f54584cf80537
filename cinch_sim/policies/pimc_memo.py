"""A memo of PIMC's solves, lent by the engine to the hands of one deal played at several bids.

The advisor plays each deal at every candidate bid, and PIMC reads the contract, so
nothing could be shared as the heuristic's hands are. But PIMC's solves do not read
the bid: a deal's value is the maximising side's points, scored against the bid only
afterwards (``pimc._utility``). Where two hands of a deal reach the same position
with the same random stream, PIMC deals and solves the same deals; the second reads
the first's values from here and scores them at its own bid. The key is everything
``pimc_values`` reads (the observation, the hand, the legal cards, the stream's
state, the parameters) except the slots the bid alone changes (``MASKED``),
compared in full, so a hit gives the very means a solve would, bit for bit
(tests/test_pimc_memo.py).

Layout (int64 words): a header (``M_*``), then ``M_CAP`` entries of ``entry_words``
each: the key's hash, the deals solved, the stream's state after them, the key, and
per deal its points in play and each legal card's value in low-bit order.
"""

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.rng import GOLDEN, mix64
from cinch_sim.signatures import N_PARAMS

# the parameter slot where the engine lends a memo's address (0: none). Not a P_ name:
# no strategy file can set it, and PolicySet.params clears it (policies/registry.py)
MEMO_SLOT = N_PARAMS - 1

MEMO_SAMPLES = 64  # the most deals a decision kept here may have solved

M_WORDS = 0  # the memo's length in words
M_CAP = 1  # entries it can hold
M_USED = 2  # entries written
M_SAMPLES = 3  # most deals an entry holds
M_CARDS = 4  # most legal cards an entry holds
M_HITS = 5  # decisions read from an entry
M_MISSES = 6  # decisions solved (and stored while there was room)
HEAD = 8

E_HASH = 0
E_N = 1  # deals solved
E_RNG = 2  # the stream's state after them
E_KEY = 3
KEY_LEN = L.OBS_LEN + 3 + N_PARAMS  # the observation, hand, legal cards, stream, params

# the observation's slots that only the bids set: a hand at another bid differs there
MASKED = (
    (L.O_HIGH_BID, 1),
    (L.O_BID, 1),
    (L.O_BIDS, L.MAX_PLAYERS),
    (L.O_N_CALLS, 1),
    (L.O_CALLS, 2 * L.MAX_BIDS),
)


@njit(inline="always")
def entry_words(samples, cards):
    """An entry's length in words (from Python too: ``new_memo``)."""
    return E_KEY + KEY_LEN + samples * (1 + cards)


def new_memo(entries: int, samples: int, cards: int) -> np.ndarray:
    """An empty memo for ``entries`` decisions of at most ``samples`` deals and ``cards``
    legal cards (only the header is written: entries are filled as they are used)."""
    words = HEAD + entries * entry_words(samples, cards)
    memo = np.empty(words, np.int64)
    memo[:HEAD] = 0
    memo[M_WORDS] = words
    memo[M_CAP] = entries
    memo[M_SAMPLES] = samples
    memo[M_CARDS] = cards
    return memo


@njit(inline="always")
def _entry_words(memo):
    return entry_words(memo[M_SAMPLES], memo[M_CARDS])


@njit(cache=True)
def memo_key(obs, hand, legal, params, rng, key):
    """Fill ``key`` with what the decision reads but the bid; return its hash."""
    for i in range(L.OBS_LEN):
        key[i] = obs[i]
    for at, n in MASKED:
        for i in range(at, at + n):
            key[i] = 0
    key[L.OBS_LEN] = np.int64(hand)
    key[L.OBS_LEN + 1] = np.int64(legal)
    key[L.OBS_LEN + 2] = np.int64(rng[0])
    bits = params.view(np.int64)
    for i in range(N_PARAMS):
        key[L.OBS_LEN + 3 + i] = bits[i]
    h = GOLDEN
    for i in range(KEY_LEN):
        h = mix64(h ^ np.uint64(key[i])) + GOLDEN
    return np.int64(h)


@njit(cache=True)
def memo_find(memo, key, h):
    """The word where the entry of ``key`` starts, or -1."""
    ew = _entry_words(memo)
    for e in range(memo[M_USED]):
        at = HEAD + e * ew
        if memo[at + E_HASH] != h:
            continue
        same = True
        for i in range(KEY_LEN):
            if memo[at + E_KEY + i] != key[i]:
                same = False
                break
        if same:
            return at
    return -1


@njit(inline="always")
def memo_room(memo, samples, legal_count):
    """Where the next entry would start, or -1 when the memo is full or the decision
    is larger than its entries."""
    if memo[M_USED] >= memo[M_CAP] or samples > memo[M_SAMPLES] or legal_count > memo[M_CARDS]:
        return -1
    return HEAD + memo[M_USED] * _entry_words(memo)


@njit(inline="always")
def memo_values_at(memo, at, i):
    """Where deal i's values start in the entry at ``at``: its points in play, then each
    legal card's value."""
    return at + E_KEY + KEY_LEN + i * (1 + memo[M_CARDS])


@njit(cache=True)
def memo_close(memo, at, key, h, n, rng):
    """Make the entry at ``at`` (its values written) findable: its hash, key, deals and
    the stream's state after them."""
    memo[at + E_HASH] = h
    memo[at + E_N] = n
    memo[at + E_RNG] = np.int64(rng[0])
    for i in range(KEY_LEN):
        memo[at + E_KEY + i] = key[i]
    memo[M_USED] += 1
