"""The ``pimc`` play policy: perfect-information Monte Carlo on the double-dummy solver.

At each decision it deals the cards it cannot see to the other seats, many
times over, each deal consistent with what it has seen (``deal_unseen``), solves
every deal double-dummy (``solver.search.card_values``) and plays the card whose
mean is best for its side. The mean is of the hand's score margin by default:
the maker's side's score change minus the defenders' (made or set, docs/rules.md
§1.14), so a maker fights for his contract and not for a stray point. With
more than two sides (cut-throat) the search is paranoid: each player solves
for himself against all the others as one, the maker for his score change, a
defender for his own points.

What it may know, and uses: its own cards; every card played, by whom and in
which trick won by whom; the voids shown; the face-up dead cards; its own
discards (and, as the robber or with a widow, the stock it put back); how many cards each
player discarded and drew. Under the usual discards (trumps kept, the rest
thrown: the built-in discard policies) a drawer kept only trumps and perhaps
side aces (``kept_aces``), so he holds at most as many other cards as he drew,
less those he has shown; and every trump still unseen is in a hand unless the
stock kept some. It reads nothing else: the bids do not weight the deals.

The deals are sampled, not weighted: each respects every constraint above, the
cards placed at random (trumps first, so that the trumps that must be in play
are). Where the constraints cannot all be met (a player broke the convention:
kept a plain card) they are dropped one kind at a time, the drawn-card bound
first, then the voids.

Two decks (docs/rules.md §3.4): the unseen cards are dealt with multiplicity (each
face twice in the 104 cards, less the copies the player has seen: his hand's two
planes, every copy played, ``O_PLAYED_BY2``), into both planes of each hand, under
the same constraints (``deal_unseen2``); the face-up dead cards and his own
discards are face masks there, so each counts as one copy seen. The search is the
two-deck one (``search.card_values2``).

A twelve-trick two-deck hand, or a hand of six seats, is far dearer to solve
(docs/solver.md gives the cost: a deal can take minutes from the start of
play; a six-seat hand with PIMC at every seat took 212 s). So ``pimc`` solves
only from the trick at which the solver answers quickly
(``solver.limits.first_quick_trick``: two decks from trick 5, when each hand
holds 8 cards; six seats from trick 2; every other game from the first card)
and plays the heuristic's card before that; with two decks, at most
``TWO_DECK_SAMPLES`` deals while it holds more than ``TWO_DECK_FULL_CARDS``.

A sequential test can stop the dealing early (off by default: ``P_STOP_Z``): after
``P_MIN_SAMPLES`` deals, each card the best one so far beats by ``P_STOP_Z``
standard errors of their paired differences is dropped (later deals solve only
the cards left), and the dealing stops when one card is left or when choosing
now is expected to cost less than ``P_STOP_LOSS``. Deals that differ only in who
holds which unseen card share the solver's table (``search._prepare``).

Cost: one solve per deal per decision, about 0.4 ms for a full six-card lead
and much less later in the hand, so a decision costs about ``samples`` x that.
Where the engine lends a memo (``pimc_memo``: the hands of one deal at several
bids, or a deal's card-value replays), a decision already solved in another of
those hands is read from it and scored at this hand's bid instead.
``budget_ms`` caps a decision's time instead (the results then depend on the
machine's speed, so a seeded run is no longer reproducible).
"""

import math

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import lowbit_index, popcount, suit_mask
from cinch_sim.jit.clock import monotonic_ns
from cinch_sim.jit.memory import words_at
from cinch_sim.jit.two_decks import with_two_decks
from cinch_sim.policies import heuristic as _heuristic
from cinch_sim.policies.common import U0, U1, seen_cards
from cinch_sim.policies.heuristic import DEFAULT_PARAMS as HEURISTIC_DEFAULTS
from cinch_sim.policies.heuristic import heuristic_play
from cinch_sim.policies.inference import calls_log_likelihood, dealt_hands
from cinch_sim.policies.pimc_memo import (
    E_N,
    E_RNG,
    HEAD,
    KEY_LEN,
    M_HITS,
    M_MISSES,
    M_WORDS,
    MEMO_SLOT,
    memo_close,
    memo_find,
    memo_key,
    memo_room,
    memo_values_at,
)
from cinch_sim.policies.ranks import weakest_card
from cinch_sim.rng import below, uniform
from cinch_sim.signatures import N_PARAMS, POLICY_SIG
from cinch_sim.solver import position as Q
from cinch_sim.solver.limits import quick_trick_of, table_bits_of
from cinch_sim.solver.moves import from_observation
from cinch_sim.solver.outcome import score_change
from cinch_sim.solver.search import (
    W_SIZE,
    W_TT,
    W_TT_BITS,
    card_values_of,
    card_values_of2,
    points_in_play,
)

P_SAMPLES = 0  # deals of the unseen cards solved per decision
P_BUDGET_MS = 1  # >0: stop dealing after this many milliseconds (machine-dependent results)
P_TT_BITS = 2  # the solver's table: 2**tt_bits entries (32 bytes each); 0: _table_bits
P_OBJECTIVE = 3  # 1: the hand's score margin (made or set); 0: the maker's side's points
P_KEPT_ACES = 4  # 1: a drawer may have kept side aces besides his trumps
P_TIES = 5  # 1: among cards of equal value, the heuristic's choice
# The sequential test, off by default: it saves time at a cost in strength that
# results/BENCHMARKS.md measures (issue 29: 1.24x faster at -0.04 points a hand with
# 8 and 3, 1.56x at -0.15 with 4 and 2, against every deal for every card).
P_MIN_SAMPLES = 6  # deals solved before the sequential test may drop a card
P_STOP_Z = 7  # >0: a card the best beats by this many standard errors is dropped (0: no test)
P_STOP_LOSS = 8  # and the dealing stops once choosing now is expected to cost less than this

# Inference from the auction (issue 31; policies/inference.py), off in ``pimc``:
P_INFER = 9  # 1: deals resampled by the likelihood of the calls and the trump named
P_NOISE = 10  # the model's error on a bidder's estimate, in points (0: exact)
P_CANDIDATES = 11  # deals drawn for each one solved, before the resampling
# and while the drawn deals' effective sample is below the deals to solve, more are
# drawn, that many at a time, up to this many for each one solved (weights that fall
# on a few deals would otherwise have the player solve the same deals again)
P_MAX_CANDIDATES = 13
# Exact endgames: when at most this many deals of the unseen cards are possible, every
# one is solved and weighted (by its likelihood with P_INFER) instead of sampling
P_EXACT = 12
EXACT_COMPLETIONS = 16  # completions of the dealt hands averaged for a deal's likelihood
# the modelled bidder and trump chooser: a heuristic bid vector (heuristic.B_* slots)
# from P_BID_MODEL, a heuristic trump vector from P_TRUMP_MODEL; PolicySet.params puts
# the preset's own hand model in both, as it does for the heuristic itself
P_BID_MODEL = 14
MODEL_LEN = 24  # heuristic.B_INTERCEPT .. B_PAIR
P_TRUMP_MODEL = P_BID_MODEL + MODEL_LEN
MAX_CANDIDATES = 4096
# the models' slots by name for strategy files (``model_margin``: heuristic.B_MARGIN's)
for _name, _slot in vars(_heuristic).copy().items():
    if _name.startswith("B_") and isinstance(_slot, int) and _slot < MODEL_LEN:
        globals()[f"P_MODEL_{_name[2:]}"] = P_BID_MODEL + _slot
        globals()[f"P_TRUMP_MODEL_{_name[2:]}"] = P_TRUMP_MODEL + _slot

_PIMC = (32.0, 0.0, 0.0, 1.0, 1.0, 1.0, 8.0, 0.0, 0.0)
_MODELS = tuple(
    float(x)
    for kind in ("heuristic_bid", "heuristic_trump")  # each MODEL_LEN slots, zeros after
    for x in (*HEURISTIC_DEFAULTS[kind], *(0.0,) * (MODEL_LEN - len(HEURISTIC_DEFAULTS[kind])))
)
assert len(_MODELS) == 2 * MODEL_LEN
DEFAULT_PARAMS = {
    "pimc_play": _PIMC + (0.0, 1.0, 8.0, 0.0, 128.0) + (0.0,) * (P_BID_MODEL - 14) + _MODELS,
    "pimc_infer_play": _PIMC + (1.0, 1.0, 8.0, 32.0, 128.0) + (0.0,) * (P_BID_MODEL - 14) + _MODELS,
}
assert all(len(v) <= MEMO_SLOT for v in DEFAULT_PARAMS.values())

# the trick from which the solver answers quickly (solver.limits: two decks from trick
# 5, six seats from trick 2, else the first); before it, the heuristic's card
_quick_trick = njit(inline="always")(quick_trick_of)
_table_bits_of = njit(inline="always")(table_bits_of)

ALL52 = np.uint64((1 << 52) - 1)
ACES = np.uint64((1 << 12) | (1 << 25) | (1 << 38) | (1 << 51))
STRICT_TRIES = 24  # attempts at a deal meeting every constraint
LOOSE_TRIES = 8  # then attempts without the drawn-card bound, then without voids
# Two decks: what a decision may cost (module docstring). Measured in docs/solver.md.
TWO_DECK_FULL_CARDS = 6  # more cards than this: at most TWO_DECK_SAMPLES deals
TWO_DECK_SAMPLES = 4
# The heuristic's card before the quick trick and among ties: its play as the stored
# studies (report/stored) were played, with the partner rules for cut-throat only (1),
# not every player (its default since), and none of the rules after them (their slots
# read 0); making it the default means storing them again
_HEURISTIC = tuple(
    1.0 if i in (_heuristic.P_LEAD_TOP_TRUMP, _heuristic.P_NO_EMPTY_RUFF) else float(x)
    for i, x in enumerate(HEURISTIC_DEFAULTS["heuristic_play"][: _heuristic.P_DUCK_EMPTY_TRUMP + 1])
)


@njit(inline="always")
def _shuffled(mask, out, rng):
    """The cards of ``mask`` into ``out`` in a random order; returns how many."""
    n = 0
    m = mask
    while m:
        c = lowbit_index(m)
        m &= m - U1
        j = below(rng, n + 1)  # Fisher-Yates, inside out
        out[n] = out[j]
        out[j] = c
        n += 1
    return n


@njit(inline="always")
def _random_seat(weights, P, rng):
    """A seat drawn with probability proportional to its weight (-1: all weights 0)."""
    total = 0
    for s in range(P):
        total += weights[s]
    if total <= 0:
        return -1
    r = below(rng, total)
    for s in range(P):
        r -= weights[s]
        if r < 0:
            return s
    return -1


@njit(forceinline=True)
def _seat_bounds(obs, P, me, tm, keep, unseen, double):
    """What each other seat's deal must meet: the cards it holds now (``need``), the
    most non-keep cards it can hold (``cap``: what it drew, less the non-keep
    cards it has shown; copies counted with two decks) and the unseen cards its
    shown voids allow (``allowed``)."""
    draw = obs[L.O_RULES + L.R_DRAW] == L.DRAW_STOCK  # a widow's seats keep as robbers
    robber = obs[L.O_ROBBER]
    need = np.zeros(L.MAX_PLAYERS, np.int64)
    cap = np.zeros(L.MAX_PLAYERS, np.int64)
    allowed = np.zeros(L.MAX_PLAYERS, np.uint64)
    for s in range(P):
        if s == me:
            continue
        need[s] = obs[L.O_CARDS_LEFT + s]
        cap[s] = need[s]
        if draw and s != robber:
            shown = popcount(np.uint64(obs[L.O_PLAYED_BY + s]) & ~keep)
            if double:
                shown += popcount(np.uint64(obs[L.O_PLAYED_BY2 + s]) & ~keep)
            bound = obs[L.O_DRAWN + s] - shown
            if bound >= 0:  # else he kept a plain card after all: no bound
                cap[s] = min(bound, need[s])
        v = obs[L.O_VOIDS + s]
        out = U0
        for x in range(4):
            if (v >> x) & 1:
                out |= suit_mask(x) & ~tm
        if (v >> L.VOID_TRUMP) & 1:
            out |= tm
        allowed[s] = unseen & ~out
    return need, cap, allowed


@njit(inline="always")
def _unseen_bounds(obs, hand, kept_aces):
    """One deck: the cards the player cannot see, the cards a drawer may have kept
    (trumps, and side aces with ``kept_aces``), each other seat's bounds
    (``_seat_bounds``) and how many unseen cards the stock may hide."""
    P = obs[L.O_PLAYERS]
    tm = np.uint64(obs[L.O_TRUMP_MASK])
    unseen = ALL52 & ~seen_cards(obs, hand)
    keep = tm | (ACES & ~tm if kept_aces else U0)
    need, cap, allowed = _seat_bounds(obs, P, obs[L.O_SEAT], tm, keep, unseen, False)
    dealt = obs[L.O_RULES + L.R_CARDS_DEALT]
    stock = obs[L.O_STOCK_LEFT] if obs[L.O_RULES + L.R_DRAW] != L.DRAW_NONE else 52 - P * dealt
    return unseen, keep, need, cap, allowed, stock


@njit(cache=True)
def _deal_with_retries(
    u1, u2, tm, keep, need, allowed, cap, stock, P, rng, cards, seats, h1, h2, weights
):
    """``_try_deal`` until it succeeds, dropping constraints as the tries run out
    (``STRICT_TRIES`` with all, ``LOOSE_TRIES`` without the drawn-card bound, as many
    without the voids), else the unseen copies in a random order, seat by seat.
    Returns how many kinds of constraint were dropped (0 to 3)."""
    for attempt in range(STRICT_TRIES + 2 * LOOSE_TRIES):
        if attempt == STRICT_TRIES:
            for s in range(P):
                cap[s] = need[s]
        elif attempt == STRICT_TRIES + LOOSE_TRIES:
            for s in range(P):
                allowed[s] = u1
        if _try_deal(
            u1, u2, tm, keep, need, allowed, cap, stock, P, rng, cards, seats, h1, h2, weights
        ):
            return 0 if attempt < STRICT_TRIES else 1 if attempt < STRICT_TRIES + LOOSE_TRIES else 2
    n = _shuffled2(u1, u2, cards, rng)
    i = 0
    for s in range(P):
        h1[s] = U0
        h2[s] = U0
        for _ in range(need[s]):
            if i < n:
                h1[s], h2[s] = _plus(h1[s], h2[s], U1 << np.uint64(cards[i]))
                i += 1
    return 3


@njit(cache=True)
def deal_unseen(obs, hand, pos, rng, kept_aces):
    """Deal the cards the player to move cannot see to the other seats of ``pos`` (a
    position from ``moves.from_observation``), ``O_CARDS_LEFT`` each, consistent
    with what he has seen (the module's docstring). Returns how many kinds of
    constraint had to be dropped: 0 (none), 1 (the drawn-card bound), 2 (voids too),
    3 (every one: the unseen cards dealt at random)."""
    P = obs[L.O_PLAYERS]
    me = obs[L.O_SEAT]
    tm = np.uint64(obs[L.O_TRUMP_MASK])
    unseen, keep, need, cap, allowed, stock = _unseen_bounds(obs, hand, kept_aces)
    cards = np.empty(52, np.int64)
    seats = np.empty(L.MAX_PLAYERS, np.int64)
    held = np.zeros(L.MAX_PLAYERS, np.uint64)
    held2 = np.zeros(L.MAX_PLAYERS, np.uint64)  # stays empty: one deck
    weights = np.zeros(L.MAX_PLAYERS, np.int64)
    level = _deal_with_retries(
        unseen, U0, tm, keep, need, allowed, cap, stock, P, rng, cards, seats, held, held2,
        weights,
    )  # fmt: skip
    for s in range(P):
        if s != me:
            pos[Q.P_HANDS + s] = np.int64(held[s])
    return level


@njit(inline="always")
def _gosper_next(x):
    """The next larger integer with as many bits set as ``x`` (Gosper's hack)."""
    c = x & (~x + U1)
    r = x + c
    return (((r ^ x) >> np.uint64(2)) // c) | r


@njit(inline="always")
def _spread(x, cards):
    """The cards ``cards[i]`` for each bit i of ``x``, as a mask."""
    m = U0
    while x:
        m |= U1 << np.uint64(cards[lowbit_index(x)])
        x &= x - U1
    return m


@njit(cache=True)
def enumerate_deals(obs, hand, kept_aces, limit, out):
    """Every deal of the unseen cards that ``deal_unseen`` may draw at its strictest
    (every constraint met), into ``out`` (row: the hands by seat), up to ``limit``
    of them. Returns how many there are, or ``limit + 1`` for more than ``limit``
    (or more search than a few such counts should take)."""
    P = obs[L.O_PLAYERS]
    me = obs[L.O_SEAT]
    tm = np.uint64(obs[L.O_TRUMP_MASK])
    unseen, keep, need, cap, allowed, stock = _unseen_bounds(obs, hand, kept_aces)
    order = np.empty(L.MAX_PLAYERS, np.int64)
    n_seats = 0
    for s in range(P):
        if s != me:
            order[n_seats] = s
            n_seats += 1
    cards = np.empty((L.MAX_PLAYERS, 52), np.int64)  # per level: the cards it may take
    n_cards = np.zeros(L.MAX_PLAYERS, np.int64)
    word = np.zeros(L.MAX_PLAYERS, np.uint64)  # per level: its subset, over its cards
    held = np.zeros(L.MAX_PLAYERS, np.uint64)
    left = np.zeros(L.MAX_PLAYERS + 1, np.uint64)  # the unseen cards not dealt above
    found = 0
    budget = 64 * (limit + 1) + 4096  # subsets tried before giving up
    left[0] = unseen
    j = 0
    fresh = True  # level j starts its subsets
    while j >= 0:
        s = order[j]
        k = need[s]
        if fresh:
            n = 0
            m = left[j] & allowed[s]
            while m:
                cards[j, n] = lowbit_index(m)
                m &= m - U1
                n += 1
            n_cards[j] = n
            word[j] = (U1 << np.uint64(k)) - U1  # the first k-subset
            fresh = False
            if k > n:
                j -= 1
                continue
        else:
            if k == 0:
                j -= 1  # its one (empty) subset was taken
                continue
            word[j] = _gosper_next(word[j])
            if word[j] >= U1 << np.uint64(n_cards[j]):
                j -= 1  # this level is done: back to the one above
                continue
        budget -= 1
        if budget < 0:
            return limit + 1
        h = _spread(word[j], cards[j])
        if popcount(h & ~keep) > cap[s]:
            continue
        held[s] = h
        left[j + 1] = left[j] & ~h
        if j + 1 < n_seats:
            j += 1
            fresh = True
            continue
        if popcount(left[n_seats] & tm) > stock:
            continue  # a trump the stock cannot hide
        if found < limit:
            for t in range(L.MAX_PLAYERS):
                out[found, t] = np.int64(held[t]) if t < P and t != me else 0
        found += 1
        if found > limit:
            return limit + 1
    return found


@njit(inline="always")
def _plus(once, twice, m):
    """(once, twice) with one more copy of each face of m."""
    return once | m, twice | (once & m)


@njit(inline="always")
def _shuffled2(once, twice, out, rng):
    """The copies of two face masks (each face of ``once``, again each of ``twice``)
    into ``out`` in a random order; returns how many."""
    n = _shuffled(once, out, rng)
    m = twice
    while m:
        c = lowbit_index(m)
        m &= m - U1
        j = below(rng, n + 1)
        out[n] = out[j]
        out[j] = c
        n += 1
    return n


@njit(cache=True)
def _try_deal(u1, u2, tm, keep, need, allowed, cap, stock, P, rng, cards, seats, h1, h2, weights):
    """One attempt at a deal of the unseen cards (faces ``u1`` once, ``u2`` a second
    time: two decks; one deck leaves it 0 and ``h2`` empty) into two planes per
    seat (``h1``, ``h2``). Trumps first (the keep-card bounds, then the trumps that
    must be in a hand, then the rest, which the stock may hold too), side aces for
    a bound the trumps left short, then the plain cards seat by seat in a random
    order. False when the constraints could not all be met this time."""
    got = np.zeros(L.MAX_PLAYERS, np.int64)
    kept = np.zeros(L.MAX_PLAYERS, np.int64)
    plain = np.zeros(L.MAX_PLAYERS, np.int64)
    for s in range(P):
        h1[s] = U0
        h2[s] = U0
    n_tr = _shuffled2(u1 & tm, u2 & tm, cards, rng)
    must = n_tr - stock
    in_stock = 0
    placed = 0
    for i in range(n_tr):
        b = U1 << np.uint64(cards[i])
        for s in range(P):
            short = need[s] - cap[s] - kept[s]
            weights[s] = short if short > 0 and allowed[s] & b else 0
        s = _random_seat(weights, P, rng)
        if s < 0:
            for t in range(P):
                weights[t] = need[t] - got[t] if allowed[t] & b else 0
            room = stock - in_stock if placed >= must else 0
            total = room
            for t in range(P):
                total += weights[t]
            if total <= 0:
                return False
            if below(rng, total) < room:
                in_stock += 1
                continue
            s = _random_seat(weights, P, rng)
        h1[s], h2[s] = _plus(h1[s], h2[s], b)
        got[s] += 1
        kept[s] += 1
        placed += 1
    n_pl = _shuffled2(u1 & ~tm, u2 & ~tm, cards, rng)
    for i in range(n_pl):
        b = U1 << np.uint64(cards[i])
        if not keep & b:
            continue
        for s in range(P):
            short = need[s] - cap[s] - kept[s]
            weights[s] = short if short > 0 and allowed[s] & b else 0
        s = _random_seat(weights, P, rng)
        if s >= 0:
            h1[s], h2[s] = _plus(h1[s], h2[s], b)
            got[s] += 1
            kept[s] += 1
            cards[i] = -1
    for s in range(P):
        if need[s] - cap[s] - kept[s] > 0:
            return False
    n_seats = _shuffled(np.uint64((1 << P) - 1), seats, rng)
    for k in range(n_seats):
        s = seats[k]
        for i in range(n_pl):
            if got[s] == need[s]:
                break
            c = cards[i]
            if c < 0:
                continue
            b = U1 << np.uint64(c)
            if not allowed[s] & b:
                continue
            if not keep & b:
                if plain[s] >= cap[s]:
                    continue
                plain[s] += 1
            h1[s], h2[s] = _plus(h1[s], h2[s], b)
            got[s] += 1
            cards[i] = -1
        if got[s] < need[s]:
            return False
    return True


@njit(cache=True)
def deal_unseen2(obs, hand, pos, rng, kept_aces):
    """``deal_unseen`` with two decks (docs/rules.md §3.4): the copies the player to move
    cannot see, dealt into both planes of the other seats of ``pos``. Seen: his two
    planes (``hand``, ``O_HAND2``), every copy played (``O_PLAYED_BY``, ``O_PLAYED_BY2``),
    one copy of each face-up dead card and of each of his own discards (face masks).
    Returns the constraint level as ``deal_unseen`` does."""
    P = obs[L.O_PLAYERS]
    me = obs[L.O_SEAT]
    tm = np.uint64(obs[L.O_TRUMP_MASK])
    s1 = U0  # the seen copies: faces once, twice
    s2 = U0
    s1, s2 = _plus(s1, s2, hand)
    s1, s2 = _plus(s1, s2, np.uint64(obs[L.O_HAND2]))
    for s in range(P):
        s1, s2 = _plus(s1, s2, np.uint64(obs[L.O_PLAYED_BY + s]))
        s1, s2 = _plus(s1, s2, np.uint64(obs[L.O_PLAYED_BY2 + s]))
    s1, s2 = _plus(s1, s2, np.uint64(obs[L.O_DEAD_UP]))
    s1, s2 = _plus(s1, s2, np.uint64(obs[L.O_KNOWN_OUT]) & ~np.uint64(obs[L.O_DEAD_UP]))
    u1 = ALL52 & ~s2  # unseen at least once: seen fewer than twice
    u2 = ALL52 & ~s1  # unseen twice: never seen
    keep = tm | (ACES & ~tm if kept_aces else U0)
    need, cap, allowed = _seat_bounds(obs, P, me, tm, keep, u1, True)
    dealt = obs[L.O_RULES + L.R_CARDS_DEALT]
    stock = obs[L.O_STOCK_LEFT] if obs[L.O_RULES + L.R_DRAW] != L.DRAW_NONE else 104 - P * dealt
    cards = np.empty(104, np.int64)
    seats = np.empty(L.MAX_PLAYERS, np.int64)
    h1 = np.zeros(L.MAX_PLAYERS, np.uint64)
    h2 = np.zeros(L.MAX_PLAYERS, np.uint64)
    weights = np.zeros(L.MAX_PLAYERS, np.int64)
    level = _deal_with_retries(
        u1, u2, tm, keep, need, allowed, cap, stock, P, rng, cards, seats, h1, h2, weights
    )
    for s in range(P):
        if s != me:
            pos[Q.P_HANDS + s] = np.int64(h1[s])
            pos[Q.P_HANDS2 + s] = np.int64(h2[s])
    return level


@njit(inline="always")
def _paranoid(obs):
    """Whether the search is paranoid: with more than two sides (cut-throat) each
    player maximises his own points against all the others as one."""
    return obs[L.O_TEAMS] > 2


@njit(inline="always")
def _utility(rules, objective, v, total, bid, maker):
    """What one deal's value ``v`` (the maximising side's points at the end) is worth
    to that side: its points, or its score change less the other side's. With more
    than two sides: the maker's own score change, or a defender's own points (his
    score change under setback; the bid a set maker pays others under
    ``difference`` is left out)."""
    if objective == 0:
        return np.float64(v)
    if rules[L.R_TEAMS] != 2 and not maker:
        return np.float64(v)
    made = v >= bid
    mine = score_change(rules, True, made, v, bid)
    if rules[L.R_TEAMS] != 2:
        return np.float64(mine)
    return np.float64(mine - score_change(rules, False, made, total - v, bid))


@njit(cache=True)
def _heuristic_card(obs, hand, legal, scratch, rng):
    hp = np.zeros(N_PARAMS, np.float64)
    for i in range(len(_HEURISTIC)):
        hp[i] = _HEURISTIC[i]
    return heuristic_play(obs, hand, legal, hp, scratch, rng)


@njit(cache=True)
def weighted_deals(obs, hand, base, params, rng, kept_aces, cand, logw):
    """Fill ``cand`` (row i: deal i's hands by seat) with deals of the unseen cards drawn
    as ``deal_unseen`` draws them, and ``logw`` with each one's log-likelihood of the
    calls and the trump named (policies/inference.py: one random completion of the
    dealt hands each). ``base``: the position ``from_observation`` gives. Returns the
    largest log-weight."""
    P = obs[L.O_PLAYERS]
    model = params[P_BID_MODEL : P_BID_MODEL + MODEL_LEN]
    trump_model = params[P_TRUMP_MODEL : P_TRUMP_MODEL + MODEL_LEN]
    noise = params[P_NOISE]
    dealt = np.zeros(L.MAX_PLAYERS, np.uint64)
    pos = np.empty(Q.P_LEN, np.int64)
    others = ((1 << P) - 1) & ~(1 << obs[L.O_SEAT])
    top = -np.inf
    for i in range(cand.shape[0]):
        pos[:] = base
        deal_unseen(obs, hand, pos, rng, kept_aces)
        dealt_hands(obs, hand, pos, rng, dealt)
        logw[i] = calls_log_likelihood(obs, dealt, others, model, trump_model, noise)
        top = max(top, logw[i])
        for s in range(P):
            cand[i, s] = pos[Q.P_HANDS + s]
    return top


@njit(inline="always")
def _set_hands(pos, base, row):
    """``pos``: the position ``base`` with the other seats' hands of one deal (``row``)."""
    pos[:] = base
    for s in range(L.MAX_PLAYERS):
        pos[Q.P_HANDS + s] = row[s]


@njit(inline="always")
def _solve_into(pos, rules, ws, vals, live, sign, objective, bid, is_maker, row, playable):
    """Solve one deal for the ``live`` cards; ``row[c]``: card c's utility to the player,
    ``vals[c]`` its value; returns the points in play. ``playable``: the cards that can
    be played at all (the trumps under trumps_only, where a deal's plain cards are
    dead), the rest taken out of the hands first."""
    for s in range(L.MAX_PLAYERS):
        pos[Q.P_HANDS + s] &= np.int64(playable)
        pos[Q.P_HANDS2 + s] &= np.int64(playable)
    card_values_of(pos, rules, ws, vals, live)
    total = points_in_play(ws)
    m = live
    while m:
        c = lowbit_index(m)
        m &= m - U1
        row[c] = sign * _utility(rules, objective, vals[c], total, bid, is_maker)
    return total


_solve_into2 = with_two_decks(_solve_into, card_values_of=card_values_of2)


@njit(cache=True)
def _deal_weights(obs, hand, base, params, rng, kept_aces, deals, n, infer):
    """Each of the ``n`` enumerated ``deals``' share of the posterior (summing to 1): its
    likelihood of the calls and the trump named, averaged over ``EXACT_COMPLETIONS``
    completions of the dealt hands, with ``infer``; else every deal alike. Where
    none is possible under the model, every one weighs alike."""
    P = obs[L.O_PLAYERS]
    model = params[P_BID_MODEL : P_BID_MODEL + MODEL_LEN]
    trump_model = params[P_TRUMP_MODEL : P_TRUMP_MODEL + MODEL_LEN]
    noise = params[P_NOISE]
    others = ((1 << P) - 1) & ~(1 << obs[L.O_SEAT])
    dealt = np.zeros(L.MAX_PLAYERS, np.uint64)
    pos = np.empty(Q.P_LEN, np.int64)
    w = np.ones(n, np.float64)
    total = 0.0
    if infer:
        for i in range(n):
            _set_hands(pos, base, deals[i])
            like = 0.0
            for _ in range(EXACT_COMPLETIONS):
                dealt_hands(obs, hand, pos, rng, dealt)
                like += np.exp(calls_log_likelihood(obs, dealt, others, model, trump_model, noise))
            w[i] = like
            total += like
    if total <= 0.0:
        w[:] = 1.0
        total = n
    return w / total


@njit(inline="always")
def _effective_sample(logw, n, top):
    """Kish's effective sample size of the first ``n`` weights exp(logw - top)."""
    if top == -np.inf:
        return 0.0
    s1 = 0.0
    s2 = 0.0
    for i in range(n):
        w = np.exp(logw[i] - top)
        s1 += w
        s2 += w * w
    return s1 * s1 / s2


@njit(cache=True)
def _resampled_deals(obs, hand, base, params, rng, kept_aces, samples, chosen):
    """``weighted_deals`` (``P_CANDIDATES`` for each deal to solve, and more, to at most
    ``P_MAX_CANDIDATES`` for each, while their effective sample is below ``samples``),
    then ``samples`` of them resampled by their weights (systematic resampling:
    ``chosen``, in increasing order). Returns the candidates' hands. Where no candidate
    is possible under the model (a bidder that does not bid as modelled), every one
    weighs alike."""
    block = min(MAX_CANDIDATES, max(samples, np.int64(samples * params[P_CANDIDATES])))
    cap = min(MAX_CANDIDATES, max(block, np.int64(samples * params[P_MAX_CANDIDATES])))
    cand = np.zeros((cap, L.MAX_PLAYERS), np.int64)
    logw = np.empty(cap, np.float64)
    n_cand = 0
    top = -np.inf
    while n_cand < cap:
        end = min(cap, n_cand + block)
        part = weighted_deals(
            obs, hand, base, params, rng, kept_aces, cand[n_cand:end], logw[n_cand:end]
        )
        top = max(top, part)
        n_cand = end
        if _effective_sample(logw, n_cand, top) >= samples:
            break
    w = np.empty(n_cand, np.float64)
    total = 0.0
    for i in range(n_cand):
        w[i] = 1.0 if top == -np.inf else np.exp(logw[i] - top)
        total += w[i]
    step = total / samples
    u = uniform(rng) * step
    acc = 0.0
    j = 0
    for i in range(n_cand):
        acc += w[i]
        while j < samples and u + j * step < acc:
            chosen[j] = i
            j += 1
    while j < samples:  # rounding: the last candidate with weight
        chosen[j] = chosen[j - 1] if j > 0 else n_cand - 1
        j += 1
    return cand


@njit(inline="always")
def _mean(util, n, c):
    """Card c's mean utility over the first n deals."""
    s = 0.0
    for i in range(n):
        s += util[i, c]
    return s / n


@njit(cache=True)
def _race(util, n, live, drop_z, stop_loss):
    """The sequential test after ``n`` deals (``util[i, c]``: card c's utility in deal i,
    in the player's view). The best card so far is compared with each other live
    card by their paired differences: a card it beats by more than ``drop_z``
    standard errors (or on every deal, by a constant) is dropped; the others add
    their expected loss, what choosing the best card now would cost were that card
    better after all (the normal approximation: se phi(m/se) - m Phi(-m/se)).
    Returns the cards kept and whether the decision is made: one card is left, or
    the summed expected loss is below ``stop_loss`` (cards equal on every deal so
    far add none, so with no loss allowed they keep the dealing going)."""
    best = -1
    top = -np.inf
    m = live
    while m:
        c = lowbit_index(m)
        m &= m - U1
        s = _mean(util, n, c)
        if s > top:
            top = s
            best = c
    loss = 0.0
    keep = live
    m = live & ~(U1 << np.uint64(best))
    while m:
        c = lowbit_index(m)
        m &= m - U1
        s = 0.0
        ss = 0.0
        for i in range(n):
            d = util[i, best] - util[i, c]
            s += d
            ss += d * d
        mean = s / n
        var = max(0.0, (ss - s * mean) / (n - 1))
        se = np.sqrt(var / n)
        if se == 0.0:
            if mean > 0.0:
                keep &= ~(U1 << np.uint64(c))  # beaten on every deal by the same margin
            continue
        r = mean / se
        if r > drop_z:
            keep &= ~(U1 << np.uint64(c))
            continue
        phi = np.exp(-0.5 * r * r) / np.sqrt(2.0 * np.pi)
        loss += se * phi - mean * 0.5 * math.erfc(r / np.sqrt(2.0))
    return keep, keep & (keep - U1) == U0 or loss < stop_loss


@njit(inline="always")
def _table_bits(obs, rules, asked):
    """The solver table's size, in bits: ``asked`` (kept within 8..22), or with 0 by the
    cards the hands hold between them (``solver.limits.table_bits_of``)."""
    if asked > 0:
        return min(22, max(8, asked))
    held = 0
    for s in range(rules[L.R_PLAYERS]):
        held += obs[L.O_CARDS_LEFT + s]
    return _table_bits_of(held)


@njit(inline="always")
def _memo(memo_at):
    """The memo at the address the engine lent (pimc_memo)."""
    return words_at(memo_at, words_at(memo_at, HEAD)[M_WORDS])


@njit(cache=True)
def _memo_lookup(memo_at, key, h):
    """The memo's entry for ``key`` (-1: none), counted as a hit or a miss."""
    memo = _memo(memo_at)
    found = memo_find(memo, key, h)
    memo[M_HITS if found >= 0 else M_MISSES] += 1
    return found


@njit(cache=True)
def _memo_put(memo_at, at, i, total, vals, legal):
    """Deal i's points in play and each legal card's value into the entry at ``at``."""
    memo = _memo(memo_at)
    w = memo_values_at(memo, at, i)
    memo[w] = total
    m = legal
    while m:
        w += 1
        memo[w] = vals[lowbit_index(m)]
        m &= m - U1


@njit(cache=True)
def _recalled(memo_at, at, legal, rng, rules, objective, bid, is_maker, sign, util):
    """The entry at ``at`` scored at this hand's bid into ``util`` as ``_solve_into``
    scores a solve, the stream left where the solves left it; returns its deals."""
    memo = _memo(memo_at)
    n = memo[at + E_N]
    for i in range(n):
        w = memo_values_at(memo, at, i)
        total = memo[w]
        m = legal
        while m:
            c = lowbit_index(m)
            m &= m - U1
            w += 1
            util[i, c] = sign * _utility(rules, objective, memo[w], total, bid, is_maker)
    rng[0] = np.uint64(memo[at + E_RNG])
    return n


@njit(cache=True)
def pimc_values(obs, hand, legal, params, rng, means):
    """Deal and solve; ``means[c]`` each legal card's mean utility over the deals it was
    solved in, in the player's own view (higher is better), or -inf for a card the
    sequential test dropped. Returns the number of deals solved.

    The search maximises the maker's side, or the player himself when it is
    paranoid; utilities are turned to the player's view here. With ``P_STOP_Z`` > 0,
    after ``P_MIN_SAMPLES`` deals each further deal is solved only for the cards
    still in the race (``_race``), and the dealing stops once the race is decided.
    With a memo lent (``MEMO_SLOT``), a decision found there is not solved again."""
    rules = obs[L.O_RULES : L.O_RULES + L.R_LEN]
    samples = max(1, np.int64(params[P_SAMPLES]))
    budget = np.int64(params[P_BUDGET_MS] * 1e6)
    bits = _table_bits(obs, rules, np.int64(params[P_TT_BITS]))
    objective = np.int64(params[P_OBJECTIVE])
    kept_aces = params[P_KEPT_ACES] > 0
    z = params[P_STOP_Z]
    stop_loss = params[P_STOP_LOSS]
    n_min = max(2, np.int64(params[P_MIN_SAMPLES]))
    ws = np.zeros(W_TT + (4 << bits), np.uint64)
    ws[W_TT_BITS] = bits
    ws[W_SIZE] = ws.shape[0]
    base = np.empty(Q.P_LEN, np.int64)
    two = obs[L.O_RULES + L.R_DECKS] == 2
    from_observation(obs, hand, base, np.uint64(obs[L.O_HAND2]) if two else U0)
    if two and obs[L.O_CARDS_LEFT + obs[L.O_SEAT]] > TWO_DECK_FULL_CARDS:
        samples = min(samples, TWO_DECK_SAMPLES)
    me = obs[L.O_SEAT]
    is_maker = me == obs[L.O_MAKER]
    paranoid = _paranoid(obs)
    if paranoid:
        base[Q.P_MAKER] = me  # the seat the search maximises: only that
    mine = paranoid or obs[L.O_SEAT_TEAM + me] == obs[L.O_SEAT_TEAM + obs[L.O_MAKER]]
    sign = 1.0 if mine else -1.0
    pos = np.empty(Q.P_LEN, np.int64)
    vals = np.empty(52, np.int64)
    util = np.empty((samples, 52), np.float64)
    bid = obs[L.O_BID]
    # the inference rebuilds each hand as dealt from what it holds: under trumps_only the
    # dead plain cards are gone from the hands, so pimc_infer plays as pimc there
    trumps_only = obs[L.O_FOLLOW_RULE] == L.FOLLOW_TRUMPS_ONLY
    playable = np.uint64(obs[L.O_TRUMP_MASK]) if trumps_only else ALL52
    infer = params[P_INFER] > 0 and not two and not trumps_only
    limit = 0 if two else np.int64(params[P_EXACT])
    if limit > 0:
        deals = np.zeros((limit + 1, L.MAX_PLAYERS), np.int64)
        n_deals = enumerate_deals(obs, hand, kept_aces, limit, deals)
        if 0 < n_deals <= limit:  # exact: every possible deal, each solved once
            weight = _deal_weights(obs, hand, base, params, rng, kept_aces, deals, n_deals, infer)
            exact_util = np.empty((n_deals, 52), np.float64)
            for i in range(n_deals):
                _set_hands(pos, base, deals[i])
                row = exact_util[i]
                _solve_into(pos, rules, ws, vals, legal, sign, objective, bid, is_maker, row,
                            playable)  # fmt: skip
            for c in range(52):
                means[c] = -np.inf
            m = legal
            while m:
                c = lowbit_index(m)
                m &= m - U1
                means[c] = np.sum(weight * exact_util[:, c])
            return n_deals
    # a memo the engine lent (pimc_memo): this deal's solves at the other bids; not with
    # the inference (it reads the calls) nor a test or budget (they read the utilities)
    memo_at = np.int64(params[MEMO_SLOT]) if not infer and z <= 0 and budget <= 0 else 0
    key = np.empty(KEY_LEN if memo_at else 0, np.int64)
    h = np.int64(0)
    at = -1
    live = legal
    n = 0
    if memo_at:
        h = memo_key(obs, hand, legal, params, rng, key)
        found = _memo_lookup(memo_at, key, h)
        if found >= 0:
            n = _recalled(memo_at, found, legal, rng, rules, objective, bid, is_maker, sign, util)
            samples = 0  # nothing to solve
        else:
            at = memo_room(_memo(memo_at), samples, popcount(legal))
    chosen = np.zeros(samples, np.int64)
    cand = np.zeros((1, L.MAX_PLAYERS), np.int64)
    if infer:
        cand = _resampled_deals(obs, hand, base, params, rng, kept_aces, samples, chosen)
    start = monotonic_ns() if budget > 0 else 0
    for i in range(samples):
        if infer and i > 0 and chosen[i] == chosen[i - 1]:
            util[n] = util[n - 1]  # the same deal drawn again: the same values
            n += 1
            continue
        if infer:
            _set_hands(pos, base, cand[chosen[i]])
        else:
            pos[:] = base
            deal_unseen(obs, hand, pos, rng, kept_aces)
        total = _solve_into(pos, rules, ws, vals, live, sign, objective, bid, is_maker,
                            util[n], playable)  # fmt: skip
        if at >= 0:
            _memo_put(memo_at, at, n, total, vals, legal)
        n += 1
        if z > 0 and n >= n_min and live & (live - U1):
            live, decided = _race(util, n, live, z, stop_loss)
            if decided:
                break
        if budget > 0 and monotonic_ns() - start > budget:
            break
    if at >= 0:
        memo_close(_memo(memo_at), at, key, h, n, rng)
    for c in range(52):
        means[c] = -np.inf
    m = live
    while m:
        c = lowbit_index(m)
        m &= m - U1
        means[c] = _mean(util, n, c)
    return n


# pimc_values for two decks: the two-deck deal and search
pimc_values2 = with_two_decks(pimc_values, deal_unseen=deal_unseen2, _solve_into=_solve_into2)


@njit(inline="always")
def _choose(obs, hand, legal, params, scratch, rng, means):
    """The card ``pimc_play`` plays; ``means[c]`` each legal card's mean utility over the
    deals solved (NaN where nothing was solved: one legal card, or before the first
    quick trick)."""
    for c in range(52):
        means[c] = np.nan
    if legal & (legal - U1) == U0:
        return lowbit_index(legal)
    rules = obs[L.O_RULES : L.O_RULES + L.R_LEN]
    trick = rules[L.R_HAND_SIZE] - obs[L.O_CARDS_LEFT + obs[L.O_SEAT]] + 1
    if trick < _quick_trick(rules[L.R_DECKS], rules[L.R_PLAYERS], rules[L.R_HAND_SIZE]):
        return _heuristic_card(obs, hand, legal, scratch, rng)
    if rules[L.R_DECKS] == 2:
        pimc_values2(obs, hand, legal, params, rng, means)
    else:
        pimc_values(obs, hand, legal, params, rng, means)
    best = -np.inf
    m = legal
    while m:
        c = lowbit_index(m)
        m &= m - U1
        best = max(best, means[c])
    ties = U0
    m = legal
    while m:
        c = lowbit_index(m)
        m &= m - U1
        if means[c] >= best - 1e-9 * max(1.0, abs(best)):
            ties |= U1 << np.uint64(c)
    if ties & (ties - U1) and params[P_TIES] > 0:
        h = _heuristic_card(obs, hand, legal, scratch, rng)
        if (ties >> np.uint64(h)) & U1:
            return h
    return weakest_card(obs, ties, np.uint64(obs[L.O_TRUMP_MASK]), obs[L.O_LEFT_CARD])


@njit(POLICY_SIG, cache=True)
def pimc_play(obs, hand, legal, params, scratch, rng):
    means = np.empty(52, np.float64)
    return _choose(obs, hand, legal, params, scratch, rng, means)


pimc_infer_play = pimc_play  # the same function: its defaults infer from the auction


@njit(cache=True)
def pimc_play_why(obs, hand, legal, params, scratch, rng, means):
    """``pimc_play``'s card, and why: ``means`` as ``_choose`` leaves it (a hint)."""
    return _choose(obs, hand, legal, params, scratch, rng, means)
