"""The one heavy jitted module: deal, bid, trump, discard/draw/rob, tricks, score.

Rules arrive as the int vector of ``Rules.to_array`` (never as globals, which
numba would freeze into its cache). Policies arrive as a table of function
addresses (policy_table.py), so the kernel compiles once, is cached on disk,
and takes any user policy without recompiling.

Each batch kernel is a serial, GIL-free loop over its own work buffers; the
engine runs one range of a batch per thread (threads.py). Every hand draws from
streams keyed by its global index, so results are bit-identical for any thread
count or chunk size.
"""

import threading

import numpy as np
from numba import njit, types

from cinch_sim import layout as L
from cinch_sim.bits import bit, lowbit_index, popcount, suit_mask
from cinch_sim.engine.policy_table import ADDRESSES, policy_at
from cinch_sim.jit.cache import refresh
from cinch_sim.jit.hints import unlikely
from cinch_sim.jit.memory import NO_REFCOUNT, address, address_word, borrow, view_at
from cinch_sim.jit.notice import first_compile
from cinch_sim.jit.two_decks import with_two_decks
from cinch_sim.policies import registry as BI
from cinch_sim.policies.common import random_member
from cinch_sim.policies.greedy import beaten_by, greedy_core, pedro_mask
from cinch_sim.policies.heuristic import (
    heuristic_bid,
    heuristic_discard,
    heuristic_play,
    heuristic_trump,
)
from cinch_sim.policies.random import random_discard
from cinch_sim.policies.simple import best_suit, simple_bid_core, simple_discard_core
from cinch_sim.rng import (
    GOLDEN,
    hand_key,
    mix64,
    next_u64,
    policy_stream,
    policy_streams,
    stream_from_key,
    stream_state,
)  # fmt: skip
from cinch_sim.signatures import N_PARAMS, N_SCRATCH
from cinch_sim.solver.outcome import is_made, score_change

U1 = np.uint64(1)
U0 = np.uint64(0)
LOW32 = np.uint64(0xFFFFFFFF)
ALL52 = np.uint64((1 << 52) - 1)

POLICY_TABLE = types.uint64[:, ::1]  # [kind * MAX_PLAYERS + seat, address] (policy_table.py)

# Workspaces (allocated once per kernel call, never per hand).
W_FIXED = 0  # uint64 work: fixed cards still to place, per seat
W_DEALT = L.MAX_PLAYERS  # dealt hands
W_STOCK = 2 * L.MAX_PLAYERS  # 53: the first i stock cards, as one mask
W_DEALT2 = W_STOCK + 53  # two decks: the faces each seat was dealt twice
W_FIXED2 = W_DEALT2 + L.MAX_PLAYERS  # two decks: fixed faces whose second copy is to place
W_LEN = W_FIXED2 + L.MAX_PLAYERS
TWICE = L.MAX_PLAYERS  # hands[TWICE + s]: the faces seat s holds twice (two decks)
DECK_MAX = 104  # cards in the deck buffer: two decks of faces 0..51
IW_NEED = 0  # int64 work: cards each drawer asks for
IW_ACTIVE = L.MAX_PLAYERS  # still in the auction
IW_WINNERS = 2 * L.MAX_PLAYERS  # winner of each trick
IW_POINTS = IW_WINNERS + L.MAX_TRICKS  # points per team
# per card: the trick it was played in; with two decks, [52 + face] for the copy
# played second
IW_TRICK_OF = IW_POINTS + L.MAX_TEAMS
IW_PLAYER_OF = IW_TRICK_OF + DECK_MAX  # per card (copy): the seat that played it
# The rule tables, built by the first hand played on the buffers (they start zeroed):
IW_TABLES_READY = IW_PLAYER_OF + DECK_MAX  # 1 once they are built
IW_BY_STRENGTH = IW_TABLES_READY + 1  # [trump suit * 14 + v]: the trump of strength v + 1, or -1
IW_ORDER = IW_BY_STRENGTH + 4 * 14  # [leader * players + k]: the seat playing k-th
IW_CARD_STRENGTH = IW_ORDER + L.MAX_PLAYERS * L.MAX_PLAYERS  # [trump suit * 52 + card]
IW_BEATS = IW_CARD_STRENGTH + 4 * 52  # [trump suit * 52 + card]: the cards that beat it
IW_KNOWN_OUT = IW_BEATS + 4 * 52  # per seat: the cards it saw leave play (its discards)
IW_LEN = IW_KNOWN_OUT + L.MAX_PLAYERS

# play_hand's phases: each typed and lowered on its own, then inlined by LLVM (the
# alwaysinline attribute of forceinline), so play_hand is still one machine function
# (no calls left: checked in its IR). numba's inline="always" instead copies the
# callee's IR block by block, each block's copy taking the whole scope along: with
# phases this size that cost about 3.6 s of cold compile per play_hand (measured,
# alternating runs). A function first compiled while a phase compiles inherits
# forceinline, hence _build_tables's explicit False (it stays a cold call).
PHASE = {"forceinline": True, **NO_REFCOUNT}
# The two-deck phase _second_copies is a phase too, and _tricks is inlined twice,
# with ``double`` a constant in each copy. Measured in instructions a hand
# (scripts/count_instructions.py, one deck played), W2 6,940 and W3 7,243 before two
# decks, 7,010 and 7,322 so; W2 7,106 with one _tricks testing ``double`` at run
# time, 7,213 with the two-deck phases as cold calls.
#
# The discard, the draw and the rob are one phase each for one deck and two: a hand
# is two planes (the mask helpers below), plane 2 empty with one deck, and the
# ``double`` _discard_draw_rob passes them is ``TWO_DECKS and ...``: a constant
# False in the one-deck kernel, where the two-deck passes are pruned and the
# helpers fold to one plane.
#
# The two-deck code is compiled only when two decks are played: every site of it
# tests TWO_DECKS first, a global numba reads as a constant, so in this module's
# entries (TWO_DECKS False) the branch is pruned before typing and its phases never
# compile. ``with_two_decks`` (cinch_sim/jit/two_decks.py) compiles the same source
# again with TWO_DECKS true, as the entries ``simulate_hands2``, ``play_games2`` and
# ``deal_hands2`` the engine calls for ``decks == 2`` (the deal, the draw's phases,
# the maker's features and the trick loop are copied too, so their two-deck code is
# pruned in the one-deck kernel). Cold compile of the one-deck kernel: 26.7 s with the
# two-deck code in it, 20.8 s without the phases, below 5d1ae0b's (before the
# variants) once the deal and the tricks were pruned and the policies' helpers
# inlined by LLVM (results/BENCHMARKS.md).
TWO_DECKS = False


@njit(inline="always")
def _views(kind, s, obs, params, scratch, rngs):
    """Seat s's borrowed views (memory.py: no refcount traffic in the policy)."""
    ob = borrow(obs, 0, L.OBS_LEN)
    p = borrow(params, (kind * L.MAX_PLAYERS + s) * N_PARAMS, N_PARAMS)
    sc = borrow(scratch, s * N_SCRATCH, N_SCRATCH)
    r = borrow(rngs, s, 1)
    return ob, p, sc, r


# Asking seat s's policy of one kind. Built-ins are called directly, the simple,
# greedy and random ones through the core their public function wraps, with only
# the arguments they read (passing an array costs seven machine words); any other
# policy through its function pointer. Both paths run the same source, so they
# give the same bits (tested). One function per kind keeps each call site small,
# which keeps the kernel's compile time down.


@njit(inline="always")
def _ask_bid(fns, pids, s, obs, hand, legal, params, scratch, rngs):
    ob, p, sc, r = _views(L.KIND_BID, s, obs, params, scratch, rngs)
    pid = pids[np.uint64(L.KIND_BID * L.MAX_PLAYERS + s)]  # unsigned: no index fix-up
    if unlikely(pid != BI.SIMPLE_BID and pid != BI.RANDOM_CHOICE):
        if pid == BI.HEURISTIC_BID:
            return heuristic_bid(ob, hand, legal, p, sc, r)
        return policy_at(fns, L.KIND_BID * L.MAX_PLAYERS + s)(ob, hand, legal, p, sc, r)
    if pid == BI.SIMPLE_BID:
        return simple_bid_core(ob, hand, legal)
    return random_member(legal, r)  # random_choice's whole body


@njit(inline="always")
def _ask_trump(fns, pids, s, obs, hand, legal, params, scratch, rngs):
    ob, p, sc, r = _views(L.KIND_TRUMP, s, obs, params, scratch, rngs)
    pid = pids[np.uint64(L.KIND_TRUMP * L.MAX_PLAYERS + s)]  # unsigned: no index fix-up
    if unlikely(pid != BI.SIMPLE_TRUMP and pid != BI.RANDOM_CHOICE):
        if pid == BI.HEURISTIC_TRUMP:
            return heuristic_trump(ob, hand, legal, p, sc, r)
        return policy_at(fns, L.KIND_TRUMP * L.MAX_PLAYERS + s)(ob, hand, legal, p, sc, r)
    if pid == BI.SIMPLE_TRUMP:
        return best_suit(hand)[0]
    return random_member(legal, r)


@njit(inline="always")
def _ask_discard(fns, pids, s, obs, hand, legal, params, scratch, rngs):
    ob, p, sc, r = _views(L.KIND_DISCARD, s, obs, params, scratch, rngs)
    pid = pids[np.uint64(L.KIND_DISCARD * L.MAX_PLAYERS + s)]  # unsigned: no index fix-up
    if unlikely(pid != BI.SIMPLE_DISCARD and pid != BI.RANDOM_DISCARD):
        if pid == BI.HEURISTIC_DISCARD:
            return heuristic_discard(ob, hand, legal, p, sc, r)
        return policy_at(fns, L.KIND_DISCARD * L.MAX_PLAYERS + s)(ob, hand, legal, p, sc, r)
    if pid == BI.SIMPLE_DISCARD:
        return simple_discard_core(ob, hand, legal)
    return random_discard(ob, hand, legal, p, sc, r)


@njit(inline="always")
def _ask_play(fns, pids, s, obs, hand, legal, params, scratch, rngs, trick_state):
    """``trick_state`` is what greedy reads, as the kernel holds it: the random and
    greedy built-ins read nothing off ``obs``, so the kernel writes the trick's
    public state there only for other policies (``_reads_trick``)."""
    ob, p, sc, r = _views(L.KIND_PLAY, s, obs, params, scratch, rngs)
    pid = pids[np.uint64(L.KIND_PLAY * L.MAX_PLAYERS + s)]  # unsigned: no index fix-up
    if unlikely(pid != BI.RANDOM_CHOICE and pid != BI.GREEDY_PLAY):
        if pid == BI.HEURISTIC_PLAY:
            return heuristic_play(ob, hand, legal, p, sc, r)
        return policy_at(fns, L.KIND_PLAY * L.MAX_PLAYERS + s)(ob, hand, legal, p, sc, r)
    if pid == BI.RANDOM_CHOICE:
        return random_member(legal, r)
    tm, trump, left, iwork, trick, win_card, win_seat = trick_state
    # on a lead (no winner yet, win_card -1) greedy reads no beats: index 0 stands in
    beats = np.uint64(iwork[np.uint64(IW_BEATS + trump * 52 + max(win_card, 0))])
    # my side wins the trick so far (never me, who is to play); on a lead greedy reads
    # no partner_wins, and seat 0 stands in for the winner (unsigned: no index fix-up)
    team = obs[np.uint64(L.O_SEAT_TEAM + s)]
    partner_wins = obs[np.uint64(L.O_SEAT_TEAM + max(win_seat, 0))] == team
    return greedy_core(legal, tm, left, pedro_mask(trump, left), trick, beats, partner_wins)


@njit(inline="always")
def _reads_trick(pids, players):
    """Whether any seat's play policy reads the trick's state off ``obs``: all but
    the random and greedy built-ins may (heuristic, user policies). The same test
    is written out in ``_ask_play``: one shared inline helper for it measured
    about 250 more instructions a W3 hand (the trick loop compiled differently)."""
    reads = False
    for s in range(players):
        pid = pids[L.KIND_PLAY * L.MAX_PLAYERS + s]
        reads |= pid != BI.RANDOM_CHOICE and pid != BI.GREEDY_PLAY
    return reads


@njit(inline="always")
def _b(a):
    """A whole 1-D buffer, borrowed (see memory.py): refcount-free inside play_hand."""
    return borrow(a, 0, a.shape[0])


@njit(inline="always")
def _wrap(x, n):
    """x % n for 0 <= x < 2n, without a division (a hot-loop cost: measured)."""
    return x - n if x >= n else x


@njit(inline="always")
def _team(rules, seat):
    """The seat's side, from the rules vector's seat -> team table (Rules.seat_teams)."""
    return rules[np.uint64(L.R_SEAT_TEAM + seat)]  # unsigned: no index fix-up


# ---- the two-plane hand (two decks): every update of a hand's masks goes through
# these, so the representation can change in one place. Plane 1 (hands[s]) holds
# each face held at least once, plane 2 (hands[TWICE + s]) each face held twice;
# with one deck plane 2 stays 0. A phase's ``double`` is ``TWO_DECKS and ...``, a
# constant False in the one-deck kernel, so there these helpers fold to the
# single-plane statements the canonical game's speed needs.


@njit(inline="always")
def _plus(once, twice, m):
    """(once, twice) with one more copy of each face of ``m`` (none already held twice)."""
    return once | m, twice | (once & m)


@njit(inline="always")
def _minus(once, twice, m):
    """(once, twice) with one copy less of each face of ``m`` (each held at least once)."""
    two = twice & m
    return once ^ (m & ~two), twice ^ two


@njit(inline="always")
def _add_cards(hands, s, m, double):
    """Seat s takes one copy of each face of ``m``."""
    if double:
        hands[s], hands[TWICE + s] = _plus(hands[s], hands[TWICE + s], m)
    else:
        hands[s] |= m


@njit(inline="always")
def _keep_passes(hands, s, once, twice, k1, k2, double):
    """Seat s keeps ``k1`` of his faces (``once``) and ``k2`` of his second copies
    (``twice``): a face kept in both passes twice. Returns the faces set aside at
    least once and twice (the discard's two planes)."""
    hands[s] = k1 | k2
    if double:
        hands[TWICE + s] = k1 & k2
    gone1 = once & ~k1
    gone2 = twice & ~k2
    return gone1 | gone2, gone1 & gone2


@njit(inline="always")
def _copies(once, twice):
    """How many cards the two planes hold."""
    return popcount(once) + popcount(twice)


@njit(inline="always")
def _plane2(hands, s, double):
    """Seat s's second plane: the faces he holds twice (none with one deck)."""
    return hands[TWICE + s] if double else U0


@njit(inline="always")
def _trace_at(trace, base, base2, i, value):
    """trace[base + i] for i < 52, else the second deck's block at base2 (two decks)."""
    if i < 52:
        trace[base + i] = value
    else:
        trace[base2 + i - 52] = value


@njit(inline="always")
def _fail(out, kind, seat, value):
    """Stop the hand: a policy returned ``value`` (int64), which the int32 row keeps in
    two halves, so the message shows what was returned, not its low 32 bits."""
    out[L.H_ERROR] = L.ERR_ILLEGAL
    out[L.H_ERROR_KIND] = kind
    out[L.H_ERROR_SEAT] = seat
    out[L.H_ERROR_VALUE] = value & np.int64(0xFFFFFFFF)  # stored as int32: wraps
    out[L.H_ERROR_VALUE_HIGH] = value >> np.int64(32)


@njit(inline="always")
def _fail_keep(out, seat, value, hand):
    """``_fail`` for a discard, with the cards it was asked about (in the legal slots:
    the message names what the keep broke)."""
    _fail(out, L.KIND_DISCARD, seat, value)
    out[L.H_ERROR_LEGAL] = np.int64(hand & np.uint64(0xFFFFFFFF))  # wraps
    out[L.H_ERROR_LEGAL_HIGH] = np.int64(hand >> np.uint64(32))


@njit(inline="always")
def _trump_features(dealt, trump, left, tmask):
    """(trumps held, pedro bits, A K Q J T bits) of a dealt hand."""
    ntr = popcount(dealt & tmask)
    ped = np.int64((dealt >> np.uint64(trump * 13 + 3)) & U1)
    if left >= 0:
        ped |= np.int64((dealt >> np.uint64(left)) & U1) << 1
    hi = np.int64((dealt >> np.uint64(trump * 13 + 8)) & np.uint64(31))  # T J Q K A
    return ntr, ped, hi


@njit(inline="always")
def _discard_ok(rules, hand, keep, legal, tmask, min_keep, hs):
    """Whether a drawer's keep mask obeys docs/rules.md §1.6 and the §2 options."""
    if keep & ~hand:
        return False
    nk = popcount(keep)
    if nk < min_keep or nk > hs:
        return False
    disc = hand & ~keep
    if disc & ~legal:
        return False
    ntr = popcount(hand & tmask)
    kept_tr = popcount(keep & tmask)
    if ntr > hs:
        if kept_tr != hs:
            return False
    elif kept_tr != ntr:
        return False
    if rules[L.R_MUST_DISCARD] == 1:
        allowed_plain = 0
        if rules[L.R_SHORTAGE] == L.SHORT_LIMIT_DISCARDS:
            allowed_plain = max(0, min_keep - kept_tr)
        if popcount(keep & ~tmask) > allowed_plain:
            return False
    return True


@njit(inline="always")
def _trumps_pass_ok(hand, keep, legal, tmask, lo, hi):
    """Two decks, a first pass over more trumps than the hand size: ``lo`` to ``hi`` of
    his trump faces kept, nothing else, and only what ``legal`` lets go set aside."""
    n = popcount(keep)
    return (
        keep & ~hand == U0 and keep & ~tmask == U0 and lo <= n <= hi
        and hand & ~keep & ~legal == U0
    )  # fmt: skip


@njit(inline="always")
def _point_trumps(rules, trump, left):
    """Mask of trumps that may not go as excess under excess_trump_discard=non_point_only."""
    m = bit(trump * 13 + 12) | bit(trump * 13)  # A and 2
    for i in range(rules[L.R_N_RANK_POINTS]):
        m |= bit(trump * 13 + rules[L.R_RANK_POINTS + 2 * i])
    if left >= 0:
        m |= bit(left)
    return m


@njit(inline="always")
def _left_card(rules, trump):
    """The left card of a trump suit (the same-colour suit's card of the left rank), or -1."""
    if rules[L.R_LEFT_RANK] < 0:
        return -1
    return (trump ^ 1) * 13 + rules[L.R_LEFT_RANK]


@njit(forceinline=False, **NO_REFCOUNT)
def _build_tables(rules, iwork):
    """What depends only on the rules, once per set of buffers: the seat order from each
    leader and, for each trump suit, its trumps by strength, each card's strength
    in a trick (a trump's 100 + its strength, another card's rank) and, for
    greedy's fast path, the cards that take a trick from each card."""
    P = rules[L.R_PLAYERS]
    for i in range(P):
        for k in range(P):
            iwork[IW_ORDER + i * P + k] = _wrap(i + k, P)
    for t in range(4):
        for v in range(14):
            iwork[IW_BY_STRENGTH + t * 14 + v] = -1
        for c in range(52):
            iwork[IW_CARD_STRENGTH + t * 52 + c] = c % 13
        for slot in range(14):
            c = t * 13 + slot if slot < 13 else _left_card(rules, t)
            if c >= 0:
                iwork[IW_BY_STRENGTH + t * 14 + rules[L.R_TRUMP_STRENGTH + slot] - 1] = c
                iwork[IW_CARD_STRENGTH + t * 52 + c] = 100 + rules[L.R_TRUMP_STRENGTH + slot]
        left = _left_card(rules, t)
        tm = suit_mask(t) | (bit(left) if left >= 0 else U0)
        for c in range(52):
            iwork[IW_BEATS + t * 52 + c] = np.int64(beaten_by(c, tm, left, t * 13))
    iwork[IW_TABLES_READY] = 1


@njit(inline="always")
def _deal(rules, setup, seed, hidx, dealer, deck, hands, work, rngs, trace, want_trace):
    """Shuffle the cards not fixed to a seat and deal them in packets of three.

    Returns (index of the stock's top card in deck, number of cards in deck).
    work[MAX_PLAYERS + s] keeps each seat's dealt hand. With two decks the deck
    holds every face twice (a fixed card is one copy of its face), and so does
    the trace; the hands are two planes (``_add_cards``).
    """
    P = rules[L.R_PLAYERS]
    D = rules[L.R_CARDS_DEALT]
    double = rules[L.R_DECKS] == 2
    fixed_all = U0
    fixed2_all = U0  # two decks: faces fixed twice, to one seat or two (both copies placed)
    for s in range(P):
        m = np.uint64(setup[L.S_FIXED + s])
        if TWO_DECKS and double:
            fixed2_all |= (fixed_all & m) | np.uint64(setup[L.S_FIXED2 + s])
        fixed_all |= m
    if fixed_all == U0:
        for c in range(52):
            deck[c] = c
        n = 52
    else:
        n = 0
        for c in range(52):
            if not (fixed_all >> np.uint64(c)) & U1:
                deck[n] = c
                n += 1
    if TWO_DECKS and double:  # the second deck: every face once more, but those fixed twice
        for c in range(52):
            if not (fixed2_all >> np.uint64(c)) & U1:
                deck[n] = c
                n += 1
    if setup[L.S_DECK_GIVEN] == 1:
        n = 52
        for i in range(52):
            deck[i] = setup[L.S_DECK + i]
        if TWO_DECKS and double:
            n = DECK_MAX
            for i in range(52):
                deck[52 + i] = setup[L.S_DECK2 + i]
    else:
        # Fisher-Yates on the deal's own stream (as rng.next_u64, kept in a
        # register), two 32-bit draws from each 64-bit output (Lemire's
        # multiply-shift: bias below n / 2**32, far under any sampling error)
        state = stream_from_key(hand_key(seed, hidx), 0)
        i = n - 1
        while i > 0:
            state += GOLDEN
            r = mix64(state)
            j = np.int64(((r >> np.uint64(32)) * np.uint64(i + 1)) >> np.uint64(32))
            tmp = deck[i]
            deck[i] = deck[j]
            deck[j] = tmp
            i -= 1
            if i > 0:
                j = np.int64(((r & LOW32) * np.uint64(i + 1)) >> np.uint64(32))
                tmp = deck[i]
                deck[i] = deck[j]
                deck[j] = tmp
                i -= 1
    for s in range(L.MAX_PLAYERS):  # a constant count: no memset call
        hands[s] = U0
    if TWO_DECKS and double:
        for s in range(L.MAX_PLAYERS):
            hands[TWICE + s] = U0
    eldest = _wrap(dealer + 1, P)
    if TWO_DECKS and double and fixed_all == U0:  # packets of three, one card (copy) at a time
        upos = U0
        for _r in range(D // 3):
            s = eldest
            for _j in range(P):
                for _k in range(3):
                    _add_cards(hands, s, bit(deck[upos]), True)
                    upos += U1
                s = _wrap(s + 1, P)
        pos = np.int64(upos)
        if unlikely(want_trace):
            for i in range(n):
                _trace_at(trace, L.T_DECK, L.T_DECK2, i, deck[i])
    elif fixed_all == U0:  # packets of three straight off the deck
        upos = U0  # unsigned indices: numba adds no negative-index fix-up
        for _r in range(D // 3):
            s = eldest
            for _j in range(P):
                c0 = deck[upos]
                c1 = deck[upos + U1]
                c2 = deck[upos + np.uint64(2)]
                hands[np.uint64(s)] |= bit(c0) | bit(c1) | bit(c2)
                upos += np.uint64(3)
                s = _wrap(s + 1, P)
        pos = np.int64(upos)
        if unlikely(want_trace):
            for i in range(n):
                trace[L.T_DECK + i] = deck[i]
    else:  # a seat's fixed cards come first in its packets
        for s in range(P):
            work[W_FIXED + s] = np.uint64(setup[L.S_FIXED + s])
            if TWO_DECKS and double:
                work[W_FIXED2 + s] = np.uint64(setup[L.S_FIXED2 + s])
        pos = 0
        dpos = 0
        for _r in range(D // 3):
            s = eldest
            for _j in range(P):
                for _k in range(3):
                    if work[W_FIXED + s]:
                        c = lowbit_index(work[W_FIXED + s])
                        work[W_FIXED + s] &= work[W_FIXED + s] - U1
                    elif TWO_DECKS and double and work[W_FIXED2 + s]:  # the second copies
                        c = lowbit_index(work[W_FIXED2 + s])
                        work[W_FIXED2 + s] &= work[W_FIXED2 + s] - U1
                    else:
                        c = deck[pos]
                        pos += 1
                    _add_cards(hands, s, bit(c), double)
                    if unlikely(want_trace):
                        _trace_at(trace, L.T_DECK, L.T_DECK2, dpos, c)
                    dpos += 1
                s = _wrap(s + 1, P)
        if unlikely(want_trace):
            for i in range(n - pos):
                _trace_at(trace, L.T_DECK, L.T_DECK2, dpos + i, deck[pos + i])
    for s in range(P):
        work[W_DEALT + s] = hands[s]  # dealt hands, kept for features
    if TWO_DECKS and double:
        for s in range(P):
            work[W_DEALT2 + s] = hands[TWICE + s]
    return pos, n


@njit(**PHASE)
def _start_row(rules, dealer, iwork, out, trace, want_trace):
    """Reset the result row (and the trace) to "nothing happened yet", and build the
    rule tables if these buffers are new: a hand that stops early (a broken policy,
    a thrown-in deal) leaves every later field at its reset value."""
    for i in range(L.H_LEN):  # constant lengths: stores in line, not a memset call
        out[i] = 0
    for s in range(L.MAX_PLAYERS):
        out[L.H_BIDS + s] = -2
    for k in range(L.N_POINT_SLOTS):
        out[L.H_SLOT_TEAM + k] = -1
        out[L.H_SLOT_TRICK + k] = -1
        out[L.H_SLOT_HOLDER + k] = -1
        out[L.H_SLOT_PLAYER + k] = -1
    out[L.H_DEALER] = dealer
    if unlikely(want_trace):
        trace[:] = -1
        trace[L.T_N_BIDS] = 0
        trace[L.T_N_TRICKS] = 0
        trace[L.T_ROBBER_DISCARD] = 0
        for s in range(L.MAX_PLAYERS):
            trace[L.T_DISCARD + s] = 0

    if unlikely(iwork[IW_TABLES_READY] == 0):
        _build_tables(rules, iwork)


@njit(inline="always")
def _start_row2(out_w, trace_w, want_trace):
    """Two decks: reset the wide row's second-copy slots and the trace's second-deck
    blocks, as ``_start_row`` resets the rest."""
    for i in range(L.H_LEN, L.H_LEN2):
        out_w[i] = -1
    if unlikely(want_trace):
        for i in range(L.T_LEN, L.T_LEN2):
            trace_w[i] = -1
        for s in range(L.MAX_PLAYERS):
            trace_w[L.T_DISCARD2 + s] = 0
        trace_w[L.T_ROBBER_DISCARD2] = 0


@njit(**PHASE)
def _start_obs(rules, setup, seed, hidx, dealer, pids, obs, scratch, rngs, scores, hand_in_game):
    """Reset the observation to the hand's public start (the rules, the dealer, the
    running score, nothing bid or played), clear the scratch of seats whose policies
    may read it, and seed each seat's random stream: all from the hand's index, so a
    hand plays the same on any buffers, thread or chunk."""
    P = rules[L.R_PLAYERS]
    T = rules[L.R_TEAMS]
    for i in range(L.O_RULES):
        obs[i] = 0
    for i in range(L.O_TAKEN, L.O_CALLS):  # the calls past O_N_CALLS are never read
        obs[i] = 0
    if unlikely(obs[L.O_RULES + L.R_PLAYERS] == 0):  # new buffers: the rules, once
        for i in range(L.R_LEN):
            obs[L.O_RULES + i] = rules[i]
    obs[L.O_DEALER] = dealer
    obs[L.O_PLAYERS] = P
    obs[L.O_HAND_SIZE] = rules[L.R_HAND_SIZE]
    obs[L.O_HIGH_BIDDER] = -1
    obs[L.O_MAKER] = -1
    obs[L.O_TRUMP] = -1
    obs[L.O_LEFT_CARD] = -1
    obs[L.O_WIN_SEAT] = -1
    obs[L.O_WIN_CARD] = -1
    obs[L.O_LED_CARD] = -1
    obs[L.O_ROBBER] = -1
    obs[L.O_TARGET] = rules[L.R_TARGET]
    obs[L.O_FOLLOW_RULE] = rules[L.R_FOLLOW]
    obs[L.O_BID_MIN] = rules[L.R_BID_MIN]
    obs[L.O_BID_MAX] = rules[L.R_BID_MAX]
    obs[L.O_TEAMS] = T
    obs[L.O_PARTNERSHIPS] = rules[L.R_PARTNERSHIPS]
    for s in range(P):
        obs[L.O_SEAT_TEAM + s] = rules[L.R_SEAT_TEAM + s]
    obs[L.O_HAND_INDEX] = hand_in_game
    obs[L.O_MUST_DISCARD] = rules[L.R_MUST_DISCARD]
    for s in range(L.MAX_PLAYERS):
        obs[L.O_BIDS + s] = L.BID_NOT_YET
        obs[L.O_TRICK_CARDS + s] = -1
    for t in range(T):
        obs[L.O_SCORE + t] = scores[t]
    for s in range(P):  # built-in policies never read scratch: zero only other seats'
        if (
            pids[L.KIND_BID * L.MAX_PLAYERS + s] == 0
            or pids[L.KIND_TRUMP * L.MAX_PLAYERS + s] == 0
            or pids[L.KIND_DISCARD * L.MAX_PLAYERS + s] == 0
            or pids[L.KIND_PLAY * L.MAX_PLAYERS + s] == 0
        ):
            borrow(scratch, s * N_SCRATCH, N_SCRATCH)[:] = 0
    if pids[L.PIDS_STREAMS] != 0:  # else no policy at the table draws a random number
        first = policy_streams(seed, hidx, 0)  # streams 1-4: one block for four seats
        for s in range(P):
            n = setup[L.S_STREAMS + s]
            rngs[s] = first[n - 1] if n <= 4 else policy_stream(seed, hidx, n)


@njit(**PHASE)
def _auction(
    rules, setup, dealer, fns, pids, obs, hands, params, scratch, rngs, iwork, out, trace,
    want_trace,
):  # fmt: skip
    """The bidding (docs/rules.md §1.4, §3.2), clockwise from eldest, then the contract:
    the high bidder's, the one a setup forces, or the all-pass rule's.

    Returns (maker, bid); maker -1 when the hand ends here: a policy's illegal bid,
    a bid that differs from the setup's required sequence (a rejected sample), or
    a deal thrown in when all pass. The result row already says which.
    """
    P = rules[L.R_PLAYERS]
    eldest = _wrap(dealer + 1, P)
    bid_min = rules[L.R_BID_MIN]
    bid_max = rules[L.R_BID_MAX]
    high = 0
    high_bidder = -1
    n_req = setup[L.S_N_REQUIRED]
    force_maker = setup[L.S_FORCE_MAKER]
    nb = 0
    if force_maker < 0 or n_req > 0:
        rounds = rules[L.R_BID_ROUNDS]
        calls = pids[L.PIDS_READ_CALLS] != 0  # some policy may read O_CALLS
        for s in range(P):
            iwork[IW_ACTIVE + s] = 1
        n_active = P
        turn = 0
        obs[L.O_PHASE] = L.PHASE_BID
        s = _wrap(eldest + P - 1, P)  # the seat before eldest
        while True:
            if rounds > 0 and turn >= rounds * P:
                break
            s = _wrap(s + 1, P)
            turn += 1
            if iwork[IW_ACTIVE + s] == 0:
                continue
            if s == high_bidder:
                if n_active == 1:
                    break
                continue
            if rounds != 1 and high >= bid_max and high_bidder >= 0:
                break
            legal = U1
            forced = 0
            if (
                s == dealer
                and high_bidder < 0
                and n_active == 1  # all others passed: the dealer may be stuck
                and (
                    rules[L.R_ALL_PASS] == L.ALL_PASS_FORCED_MIN
                    or rules[L.R_ALL_PASS] == L.ALL_PASS_FORCED_ANY
                )
            ):
                if rules[L.R_ALL_PASS] == L.ALL_PASS_FORCED_MIN:
                    legal = bit(bid_min)
                    forced = 1
                else:  # no pass: he bids what he likes, bid_min..bid_max
                    legal = ((U1 << np.uint64(bid_max + 1)) - U1) & ~(
                        (U1 << np.uint64(bid_min)) - U1
                    )
            else:
                lo = max(bid_min, high + 1)
                if lo <= bid_max:  # bits lo..bid_max
                    legal |= ((U1 << np.uint64(bid_max + 1)) - U1) & ~((U1 << np.uint64(lo)) - U1)
            obs[L.O_SEAT] = s
            obs[L.O_FORCED] = forced
            if legal == U1 and forced == 0:
                b = 0
            elif forced == 1:
                b = bid_min
            else:
                if unlikely(rules[L.R_DECKS] == 2):
                    obs[L.O_HAND2] = np.int64(hands[TWICE + s])
                b = _ask_bid(fns, pids, s, obs, hands[s], legal, params, scratch, rngs)
                if unlikely(b < 0 or b > 62 or not (legal >> np.uint64(b)) & U1):
                    _fail(out, L.KIND_BID, s, b)
                    return -1, 0
            if unlikely(want_trace or calls) and nb < L.MAX_BIDS:
                if want_trace:
                    trace[L.T_BIDS + 2 * nb] = s
                    trace[L.T_BIDS + 2 * nb + 1] = b if b > 0 else -1
                if calls:
                    obs[L.O_CALLS + 2 * nb] = s
                    obs[L.O_CALLS + 2 * nb + 1] = b if b > 0 else L.BID_PASS
                    obs[L.O_N_CALLS] = nb + 1
            if nb < n_req:
                want = setup[L.S_REQUIRED + nb]
                got = b if b > 0 else L.BID_PASS
                if want != got:
                    out[L.H_REJECTED] = 1
                    return -1, 0
            nb += 1
            bids = b > 0  # branch-free: whether a player bids is the data's coin
            out[L.H_BIDS + s] = b if bids else -1
            obs[L.O_BIDS + s] = b if bids else L.BID_PASS
            high = b if bids else high
            high_bidder = s if bids else high_bidder
            obs[L.O_HIGH_BID] = high
            obs[L.O_HIGH_BIDDER] = high_bidder
            iwork[IW_ACTIVE + s] = 1 if bids else 0
            n_active -= 0 if bids else 1
            if n_active == 0:
                break
            if force_maker >= 0 and nb >= n_req:
                break  # the required bids matched; the contract is forced from here
        obs[L.O_FORCED] = 0
    if unlikely(want_trace):
        trace[L.T_N_BIDS] = nb
    if force_maker >= 0:
        maker = force_maker
        bid = setup[L.S_FORCE_BID]
    elif high_bidder >= 0:
        maker = high_bidder
        bid = high
    elif rules[L.R_ALL_PASS] == L.ALL_PASS_NO_CONTRACT:
        maker = dealer
        bid = 0
    else:  # redeal: the hand is thrown in
        out[L.H_THROWN_IN] = 1
        out[L.H_MAKER] = -1
        out[L.H_BID] = -1
        out[L.H_TRUMP] = -1
        out[L.H_MADE] = -1
        return -1, 0
    out[L.H_MAKER] = maker
    out[L.H_BID] = bid
    obs[L.O_MAKER] = maker
    obs[L.O_BID] = bid
    return maker, bid


@njit(**PHASE)
def _name_trump(rules, setup, maker, fns, pids, obs, hands, params, scratch, rngs, out):
    """The maker names trumps (docs/rules.md §1.5), unless the setup forces a suit.

    Returns (trump, left card or -1, mask of the trumps); trump -1 when the
    maker's policy named no suit (the result row says so).
    """
    trump = setup[L.S_FORCE_TRUMP]
    if trump < 0:
        obs[L.O_PHASE] = L.PHASE_TRUMP
        obs[L.O_SEAT] = maker
        if rules[L.R_DECKS] == 2:
            obs[L.O_HAND2] = np.int64(hands[TWICE + maker])
        trump = _ask_trump(
            fns, pids, maker, obs, hands[maker], np.uint64(15), params, scratch, rngs
        )
        if unlikely(trump < 0 or trump > 3):
            _fail(out, L.KIND_TRUMP, maker, trump)
            return -1, -1, U0
    out[L.H_TRUMP] = trump
    left = _left_card(rules, trump)
    tmask = suit_mask(trump)
    if left >= 0:
        tmask |= bit(left)
    obs[L.O_TRUMP] = trump
    obs[L.O_TRUMP_MASK] = np.int64(tmask)
    obs[L.O_LEFT_CARD] = left
    return trump, left, tmask


@njit(inline="always")
def _excess_legal(h, tmask, protected, keep_tr):
    """Two decks, more trumps than the hand size: what one pass over the cards ``h``
    may set aside when ``keep_tr`` of its trumps stay. Every plain card, and the
    trumps but the protected ones (``_protected_overflow`` leaves no more of them
    than stay); none of the trumps when all of them stay."""
    if popcount(h & tmask) <= keep_tr:
        return h & ~tmask
    return h & ~(tmask & protected)


@njit(inline="always")
def _protected_overflow(a, b2, tmask, protected, keep_tr):
    """More protected trumps (non_point_only) in the planes ``a``, ``b2`` than the
    ``keep_tr`` trumps that stay (docs/rules.md §3.6): every non-point trump is set
    aside by the rule itself, face up, and he chooses among the protected ones, all
    of which may go. Returns (a, b2, protected) as his policy is asked them; the
    phase sets aside what it drops from the hand with his discard."""
    if popcount(a & tmask & protected) + popcount(b2 & tmask & protected) > keep_tr:
        gone = tmask & ~protected
        return a & ~gone, b2 & ~gone, U0
    return a, b2, protected


@njit(inline="always")
def _ask_keep(
    fns, pids, s, obs, hand, legal, params, scratch, rngs, phase, lo, hi, pas, kept, double
):  # fmt: skip
    """One discard question: its hand, its keep bounds and (two decks) its pass in obs."""
    obs[L.O_PHASE] = phase
    obs[L.O_SEAT] = s
    obs[L.O_MIN_KEEP] = lo
    obs[L.O_MAX_KEEP] = hi
    if double:
        obs[L.O_DISCARD_PASS] = pas
        obs[L.O_KEPT] = np.int64(kept)
    return np.uint64(_ask_discard(fns, pids, s, obs, hand, legal, params, scratch, rngs))


@njit(**PHASE)
def _discards(
    rules, eldest, robber, n_stock, tmask, protected, face_up, double, fns, pids, obs, hands,
    params, scratch, rngs, iwork, out, trace, want_trace,
):  # fmt: skip
    """Each drawer in turn from eldest discards (docs/rules.md §1.6; the robber waits),
    and asks for the cards that bring him back to the hand size (iwork's need).

    With two decks (§3.4) he answers in two passes, each a one-deck discard
    question with its own keep bounds (docs/policies.md). Pass 1 is over his faces
    (``hand``: each face once), with room left for the second copies of his
    trumps; pass 2 over the second copies of his doubled faces (``hand``: the
    second plane), the first keep in O_KEPT. Whatever a policy does that is legal
    in each pass is legal for the hand: every trump kept (or exactly the hand size
    of them, none of the rest, when he holds more). With one deck pass 1 is the
    whole question. Holding more protected trumps than the hand size, he is asked
    about the hand without its non-point trumps (``_protected_overflow``).

    Returns (cards requested in all, the face-up dead cards); requested -1 when
    a policy's discard broke the rules (the result row says so).
    """
    P = rules[L.R_PLAYERS]
    HS = rules[L.R_HAND_SIZE]
    shortage = rules[L.R_SHORTAGE]
    dead_up = U0
    requested = 0
    need = borrow(iwork, IW_NEED, L.MAX_PLAYERS)
    for s in range(L.MAX_PLAYERS):
        need[s] = 0
    for j in range(P):
        s = _wrap(eldest + j, P)
        if s == robber:
            continue
        a = hands[s]
        b2 = _plane2(hands, s, double)
        ta = popcount(a & tmask)
        t2 = popcount(b2 & tmask)
        excess = ta + t2 > HS
        min_keep = 0
        if shortage == L.SHORT_LIMIT_DISCARDS:
            min_keep = max(0, HS - (n_stock - requested))
        # pass 1 (one deck: the only one) keeps the trumps, or exactly HS of them when he
        # holds more, the protected ones among them; (a1, p1, prot): what he is asked
        a1, p1, prot = a, b2, protected
        legal1 = a & ~tmask
        if excess:
            a1, p1, prot = _protected_overflow(a, b2, tmask, protected, HS)
            legal1 = a1 & ~(tmask & prot)
        if TWO_DECKS and double:
            obs[L.O_HAND2] = np.int64(p1)
        # exactly HS trumps, nothing else, when he holds more (two decks: see below)
        lo1 = HS if excess else min_keep
        hs1 = HS - t2  # two decks: room for the trumps' second copies (pass 2 keeps them)
        if TWO_DECKS and double:
            lo1 = max(0, min_keep - popcount(b2))
            if excess:  # exactly HS trumps in all: here any of them (the protected ones
                # kept), as many as leave the second copies room for the rest
                hs1 = min(popcount(a1 & tmask), HS - popcount(p1 & tmask & prot))
                lo1 = max(0, HS - popcount(p1 & tmask))
                legal1 = a1 & ~(tmask & prot)
        k1 = _ask_keep(
            fns, pids, s, obs, a1, legal1, params, scratch, rngs, L.PHASE_DISCARD, lo1, hs1, 0,
            U0, double,
        )  # fmt: skip
        if TWO_DECKS and double and excess:
            ok1 = _trumps_pass_ok(a1, k1, legal1, tmask, lo1, hs1)
        else:
            ok1 = _discard_ok(rules, a1, k1, legal1, tmask, lo1, hs1)
        if unlikely(not ok1):
            _fail_keep(out, s, np.int64(k1), a1)
            return -1, dead_up
        k2 = U0
        if TWO_DECKS and double:  # pass 2: the second copies (their trumps stay, or HS's rest)
            hs2 = HS - popcount(k1)
            if excess:  # the rest of the HS trumps, exactly
                legal2 = _excess_legal(p1, tmask, prot, hs2)
                lo2 = hs2
            else:
                legal2 = p1 & ~tmask
                lo2 = max(0, min_keep - popcount(k1))
            k2 = p1 & tmask
            if legal2:
                k2 = _ask_keep(
                    fns, pids, s, obs, p1, legal2, params, scratch, rngs, L.PHASE_DISCARD, lo2,
                    hs2, 1, k1, double,
                )  # fmt: skip
                if unlikely(not _discard_ok(rules, p1, k2, legal2, tmask, lo2, hs2)):
                    _fail_keep(out, s, np.int64(k2), p1)
                    return -1, dead_up
            obs[L.O_DISCARD_PASS] = 0
            obs[L.O_KEPT] = 0
        disc, disc2 = _keep_passes(hands, s, a, b2, k1, k2, double)  # set aside once, twice
        dead_up |= disc & face_up
        obs[L.O_DISCARDED + s] = _copies(disc, disc2)
        obs[L.O_DEAD_UP] = np.int64(dead_up)
        need[s] = HS - _copies(k1, k2)
        requested += need[s]
        if unlikely(want_trace):
            trace[L.T_DISCARD + s] = np.int64(disc)
            if TWO_DECKS and double:
                trace[L.T_DISCARD2 + s] = np.int64(disc2)
    return requested, dead_up


@njit(inline="always")
def _stock_cards(a, b2, deck, stock_upto, stock0, top, k, double):
    """(a, b2) with the k cards deck[top:top + k] off the stock: with one deck in one
    step from the table of its top cards (``_draw``'s stock_upto), with two card by
    card into the two planes (the stock may hold both copies of a face)."""
    if double:
        for i in range(top, top + k):
            a, b2 = _plus(a, b2, bit(deck[i]))
        return a, b2
    return a | (stock_upto[top - stock0 + k] & ~stock_upto[top - stock0]), b2


@njit(inline="always")
def _stock_runs(stock_upto, deck, stock0, n_stock):
    """One deck: ``stock_upto[i]``, the mask of the stock's top i cards, for i up to
    ``n_stock`` (``_stock_cards`` takes any run of the stock from two of them)."""
    m = U0
    stock_upto[0] = m
    for i in range(n_stock):
        m |= bit(deck[np.uint64(stock0 + i)])  # unsigned: no index fix-up
        stock_upto[np.uint64(i + 1)] = m


@njit(inline="always")
def _trace_draws(trace, at, k, s):
    """Seat s drew the cards of the trace's draw slots at..at+k-1 (two decks: past 52,
    the second deck's block)."""
    for i in range(at, at + k):
        _trace_at(trace, L.T_DRAW_SEAT, L.T_DRAW_SEAT2, i, s)


@njit(**PHASE)
def _draw(
    rules, eldest, robber, stock0, n, requested, double, deck, hands, work, iwork, obs, out,
    trace, want_trace,
):  # fmt: skip
    """The drawers take their requests off the stock (docs/rules.md §1.7), clockwise from
    eldest, each his cards in one step (``_stock_cards``); when they ask for more
    than it holds, the shortage rule decides (§1.9).

    Returns the index in deck of the stock's new top card.
    """
    P = rules[L.R_PLAYERS]
    D = rules[L.R_CARDS_DEALT]
    n_stock = n - stock0
    top = stock0
    need = borrow(iwork, IW_NEED, L.MAX_PLAYERS)
    short = requested > n_stock
    stock_upto = borrow(work, W_STOCK, 53)  # [i]: the top i stock cards (the robber's too)
    if not double:  # one deck: each face once, so a run of the stock is a mask
        _stock_runs(stock_upto, deck, stock0, n_stock)
    if short:
        out[L.H_SHORTAGE] = 1
    # round robin: turns of a card each until the stock is out (they ask for more than
    # it holds, so someone draws in every turn); else one turn, each his request
    round_robin = short and rules[L.R_SHORTAGE] == L.SHORT_ROUND_ROBIN
    most = 1 if round_robin else n_stock
    while True:
        for j in range(P):
            s = _wrap(eldest + j, P)
            if s == robber:
                continue
            k = min(need[s], n - top, most)
            a, b2 = _stock_cards(
                hands[s], _plane2(hands, s, double), deck, stock_upto, stock0, top, k, double
            )
            hands[s] = a
            if TWO_DECKS and double:
                hands[TWICE + s] = b2
            if unlikely(want_trace):
                _trace_draws(trace, top - stock0 + P * D, k, s)
            need[s] -= k
            obs[L.O_DRAWN + s] += k
            top += k
        if not round_robin or top >= n:
            break
    obs[L.O_STOCK_LEFT] = n - top
    return top


@njit(**PHASE)
def _rob(
    rules, robber, stock0, n, top, tmask, protected, face_up, dead_up, double, fns, pids, obs,
    deck, hands, params, scratch, rngs, work, iwork, out, trace, want_trace, widow, left_after,
):  # fmt: skip
    """The robber takes the rest of the stock and keeps the hand size (docs/rules.md §1.8):
    min(hand size, his trumps) trumps, the point trumps first under non_point_only
    (more of those than the hand size: ``_protected_overflow``).

    ``widow``: the seat picks up its widow, deck[top:n], and keeps as a robber does
    (§3.7); what it sets aside is then its discard, and ``left_after``
    cards (the later seats' widows) stay in the stock.

    With two decks he keeps in two passes, as a drawer discards (``_discards``):
    pass 1 keeps from ``lo1`` to ``hi1`` of his faces (his trumps among them), pass
    2 exactly the rest of the hand size from his second copies. Every legal keep
    can be reached but with more trumps than the hand size, where pass 1 keeps as
    many different trump faces as there is room for (docs/policies.md, "Two
    decks"). With one deck pass 1 keeps exactly the hand size.

    Returns False when his policy's keep broke the rules (the result row says so).
    """
    P = rules[L.R_PLAYERS]
    D = rules[L.R_CARDS_DEALT]
    HS = rules[L.R_HAND_SIZE]
    stock_upto = borrow(work, W_STOCK, 53)
    a, b2 = _stock_cards(
        hands[robber], _plane2(hands, robber, double), deck, stock_upto, stock0, top, n - top,
        double,
    )  # fmt: skip
    if unlikely(want_trace):
        _trace_draws(trace, top - stock0 + P * D, n - top, robber)
    obs[L.O_DRAWN + robber] = n - top
    obs[L.O_STOCK_LEFT] = left_after
    k1 = a
    k2 = b2
    if TWO_DECKS and double:
        obs[L.O_HAND2] = np.int64(b2)
    if _copies(a, b2) > HS:
        ta = popcount(a & tmask)
        tb = popcount(b2 & tmask)
        lo1 = HS
        hi1 = HS
        # (a1, p1, prot): what he is asked; HS trumps stay when he holds more
        a1, p1, prot = a, b2, protected
        if ta + tb > HS:
            a1, p1, prot = _protected_overflow(a, b2, tmask, protected, HS)
            ta = popcount(a1 & tmask)
            tb = popcount(p1 & tmask)
            if TWO_DECKS and double:
                obs[L.O_HAND2] = np.int64(p1)
        # one deck: when the hand size in trumps stays, non_point_only keeps the point trumps
        legal1 = a1 & ~(tmask & prot) if ta >= HS else a
        if TWO_DECKS and double:
            if ta + tb > HS:  # exactly HS trumps in all: here any of them (the protected
                # ones kept), as many as leave the second copies room for the rest
                hi1 = min(ta, HS - popcount(p1 & tmask & prot))
                lo1 = max(0, HS - tb)
                legal1 = a1 & ~(tmask & prot)
            else:
                hi1 = min(popcount(a), HS - tb)
                lo1 = max(ta, HS - popcount(b2))
                legal1 = a
        k1 = _ask_keep(
            fns, pids, robber, obs, a1, legal1, params, scratch, rngs, L.PHASE_ROB, lo1, hi1, 0,
            U0, double,
        )  # fmt: skip
        n1 = popcount(k1)
        if unlikely(
            k1 & ~a1 != U0
            or n1 < lo1
            or n1 > hi1
            or popcount(k1 & tmask) != min(n1, ta)
            or a1 & ~k1 & ~legal1 != U0
        ):
            _fail_keep(out, robber, np.int64(k1), a1)
            return False
        if TWO_DECKS and double:  # pass 2: the rest of the hand size from the second copies
            hs2 = HS - n1
            k2 = p1
            if hs2 < popcount(p1):
                legal2 = _excess_legal(p1, tmask, prot, hs2)
                k2 = _ask_keep(
                    fns, pids, robber, obs, p1, legal2, params, scratch, rngs, L.PHASE_ROB, hs2,
                    hs2, 1, k1, double,
                )  # fmt: skip
                if unlikely(
                    k2 & ~p1 != U0
                    or popcount(k2) != hs2
                    or popcount(k2 & tmask) != min(hs2, tb)
                    or p1 & ~k2 & ~legal2 != U0
                ):
                    _fail_keep(out, robber, np.int64(k2), p1)
                    return False
            obs[L.O_DISCARD_PASS] = 0
            obs[L.O_KEPT] = 0
    rdisc, rdisc2 = _keep_passes(hands, robber, a, b2, k1, k2, double)
    iwork[IW_KNOWN_OUT + robber] = np.int64(rdisc)  # he saw the stock he put back
    dead_up |= rdisc & face_up
    obs[L.O_DEAD_UP] = np.int64(dead_up)
    if widow:  # his widow's discard: counted in public, traced as a drawer's
        obs[L.O_DISCARDED + robber] = popcount(rdisc)
        if unlikely(want_trace):
            trace[L.T_DISCARD + robber] = np.int64(rdisc)
        return True
    if unlikely(want_trace):
        trace[L.T_ROBBER] = robber
        trace[L.T_ROBBER_DISCARD] = np.int64(rdisc)
        if TWO_DECKS and double:
            trace[L.T_ROBBER_DISCARD2] = np.int64(rdisc2)
    return True


@njit(**PHASE)
def _widows(
    rules, eldest, stock0, n, tmask, protected, face_up, fns, pids, obs, deck, hands, params,
    scratch, rngs, work, iwork, out, trace, want_trace,
):  # fmt: skip
    """Each seat in turn from eldest picks up its widow, its share of the stock in
    order, and keeps the hand size as a robber does (docs/rules.md §3.7);
    the trumps it sets aside are shown. One deck only (``Rules`` says so).

    Returns False when a policy's keep broke the rules (the result row says so).
    """
    P = rules[L.R_PLAYERS]
    k = (n - stock0) // P
    _stock_runs(borrow(work, W_STOCK, 53), deck, stock0, n - stock0)
    top = stock0
    dead_up = U0
    for j in range(P):
        s = _wrap(eldest + j, P)
        if not _rob(
            rules, s, stock0, top + k, top, tmask, protected, face_up, dead_up, False, fns,
            pids, obs, deck, hands, params, scratch, rngs, work, iwork, out, trace, want_trace,
            True, n - top - k,
        ):  # fmt: skip
            return False
        dead_up = np.uint64(obs[L.O_DEAD_UP])
        top += k
    if unlikely(want_trace):
        trace[L.T_ROBBER] = -1
    return True


@njit(**PHASE)
def _discard_draw_rob(
    rules, dealer, maker, stock0, n, trump, left, tmask, fns, pids, obs, deck, hands, params,
    scratch, rngs, work, iwork, out, trace, trace_w, want_trace,
):  # fmt: skip
    """The draw (docs/rules.md §1.6-1.9): discards, the drawers' cards off the stock, then
    the robber's. The rules' choices the three share are made once here.

    Returns False when a policy's discard broke the rules (the result row says so).
    """
    P = rules[L.R_PLAYERS]
    eldest = _wrap(dealer + 1, P)
    n_stock = n - stock0
    rob_rule = rules[L.R_ROBBER]
    robber = -1
    if rob_rule == L.ROBBER_MAKER:
        robber = maker
    elif rob_rule == L.ROBBER_DEALER:
        robber = dealer
    obs[L.O_ROBBER] = robber
    obs[L.O_STOCK_LEFT] = n_stock
    nonpoint_only = rules[L.R_EXCESS_TRUMP] == 1
    protected = _point_trumps(rules, trump, left) if nonpoint_only else U0
    # discarded trumps are always shown; every discard under discards_face_up
    face_up = ALL52 if rules[L.R_FACE_UP] == 1 else tmask
    # two decks: the two-plane hand, the trace's wide rows; else ``double`` is a constant
    # False and the phases compile to the one-plane hand
    double = TWO_DECKS and rules[L.R_DECKS] == 2
    if rules[L.R_DRAW] == L.DRAW_WIDOW:
        return _widows(
            rules, eldest, stock0, n, tmask, protected, face_up, fns, pids, obs, deck, hands,
            params, scratch, rngs, work, iwork, out, trace, want_trace,
        )  # fmt: skip
    tr = trace_w if double else trace
    requested, dead_up = _discards(
        rules, eldest, robber, n_stock, tmask, protected, face_up, double, fns, pids, obs,
        hands, params, scratch, rngs, iwork, out, tr, want_trace,
    )  # fmt: skip
    if requested < 0:
        return False
    top = _draw(
        rules, eldest, robber, stock0, n, requested, double, deck, hands, work, iwork, obs, out,
        tr, want_trace,
    )  # fmt: skip
    if robber >= 0:
        return _rob(
            rules, robber, stock0, n, top, tmask, protected, face_up, dead_up, double, fns,
            pids, obs, deck, hands, params, scratch, rngs, work, iwork, out, tr, want_trace,
            False, 0,
        )  # fmt: skip
    if unlikely(want_trace):
        trace[L.T_ROBBER] = -1
    return True


@njit(**PHASE)
def _maker_features(rules, maker, trump, left, tmask, obs, hands, work, out):
    """What the maker's side held, for the hand-strength fits (analysis): the trumps,
    pedros and honours dealt to the maker and his partner, the maker's trumps after
    the draw. Also sets each seat's cards left.

    Returns the masks of the cards in play (held after the draw): the faces, and
    (two decks; else 0) the faces both copies of which are in play.
    """
    P = rules[L.R_PLAYERS]
    in_play = U0
    in_play2 = U0
    double = rules[L.R_DECKS] == 2
    if TWO_DECKS and double:
        for s in range(P):  # a face is in play twice if one seat holds both or two seats one
            in_play2 |= hands[TWICE + s] | (in_play & hands[s])
            in_play |= hands[s]
            obs[L.O_CARDS_LEFT + s] = _copies(hands[s], hands[TWICE + s])
    else:
        for s in range(P):
            in_play |= hands[s]
            obs[L.O_CARDS_LEFT + s] = popcount(hands[s])
    ntr, ped, hi = _trump_features(work[W_DEALT + maker], trump, left, tmask)
    split = rules[L.R_SPLIT_RANK]
    if split >= 0:  # the preset's own big point card (the Sancho): bit 2
        dealt = work[W_DEALT + maker]
        if TWO_DECKS and double:
            dealt |= work[W_DEALT2 + maker]
        ped |= np.int64((dealt >> np.uint64(trump * 13 + split)) & U1) << 2
    out[L.H_MAKER_TRUMPS_DEALT] = ntr
    out[L.H_MAKER_PEDROS_DEALT] = ped
    out[L.H_MAKER_HONOURS_DEALT] = hi
    out[L.H_MAKER_TRUMPS_KEPT] = popcount(hands[maker] & tmask)
    if TWO_DECKS and double:  # the trumps counted per copy
        out[L.H_MAKER_TRUMPS_DEALT] += popcount(work[W_DEALT2 + maker] & tmask)
        out[L.H_MAKER_TRUMPS_KEPT] += popcount(hands[TWICE + maker] & tmask)
    # the partner: the maker's next teammate clockwise, two seats on, in a partnership
    # game of an even number of players (seat_teams alternate there); a seat -> seat
    # step, not a team lookup (no divisions: P is data)
    if rules[L.R_PARTNERSHIPS] == 1 and P & 1 == 0:
        partner = _wrap(maker + 2, P)
        ntr, ped, hi = _trump_features(work[W_DEALT + partner], trump, left, tmask)
        out[L.H_PARTNER_TRUMPS_DEALT] = ntr
        out[L.H_PARTNER_PEDROS_DEALT] = ped
        if TWO_DECKS and double:
            out[L.H_PARTNER_TRUMPS_DEALT] += popcount(work[W_DEALT2 + partner] & tmask)
    return in_play, in_play2


@njit(inline="always")
def _show_voids(obs, iwork, leader, P, tmask, strict):
    """The voids the trick's cards so far show (``O_VOIDS``): a card off the suit led,
    unless it is a trump the rules let him play holding the suit (may_trump). Run
    before each policy is asked and at the trick's end; showing one twice is no
    change. Only for policies that read the trick (``public``), off the hot path."""
    led = obs[L.O_TRICK_CARDS]
    led_trump = (tmask >> np.uint64(led)) & U1 != U0
    follow = tmask if led_trump else suit_mask(led // 13) & ~tmask
    shows = np.int64(1) << np.int64(L.VOID_TRUMP if led_trump else led // 13)
    for k in range(1, P):
        c = obs[L.O_TRICK_CARDS + k]
        if c >= 0:
            b = bit(c)
            if follow & b == U0 and (strict or tmask & b == U0):
                obs[L.O_VOIDS + iwork[IW_ORDER + leader * P + k]] |= shows


@njit(inline="always")
def _fixed_points(rules, trick, trump, left):
    """The fixed point cards in a trick's mask (High only under ace_only), branch-free:
    whether a trick holds a point card is the deal's coin."""
    taken = 0
    for i in range(rules[L.R_N_RANK_POINTS]):
        got = (trick >> np.uint64(trump * 13 + rules[L.R_RANK_POINTS + 2 * i])) & U1
        taken += rules[L.R_RANK_POINTS + 2 * i + 1] * np.int64(got)
    if left >= 0:
        taken += rules[L.R_LEFT_POINTS] * np.int64((trick >> np.uint64(left)) & U1)
    if rules[L.R_HIGH_RULE] == 0:
        got = (trick >> np.uint64(trump * 13 + 12)) & U1
        taken += rules[L.R_HIGH_POINTS] * np.int64(got)
    return taken


@njit(inline="always")
def _start_tricks(obs, iwork, work, hands, P, public, double):
    """Before the first lead: the discard's bounds and the observation's second planes
    cleared (two decks) and, for policies that read the trick, what each seat knows is
    out of play filed (its discards; the robber's: _rob)."""
    # the last seat asked to keep left its bounds: with two decks they tell how many
    # faces it holds twice (a hidden fact), so no play policy may see them
    obs[L.O_MIN_KEEP] = 0
    obs[L.O_MAX_KEEP] = 0
    if double:  # the second planes of what each seat played and each team took
        for i in range(L.O_PLAYED_BY2, L.OBS_LEN):
            obs[i] = 0
    if public and obs[L.O_RULES + L.R_DRAW] != L.DRAW_WIDOW:  # widows: _rob filed them
        robber = obs[L.O_ROBBER]
        for s in range(P):
            if s != robber:
                iwork[IW_KNOWN_OUT + s] = np.int64(work[W_DEALT + s] & ~hands[s])


@njit(inline="always")
def _show_hands(scratch, s, hands, P, double, dd_seats):
    """A dd seat's scratch (layout.DD_*): every seat's hand at the start of play (two
    decks: then the faces held twice), where every seat's scratch lies and which
    seats play dd; the rest cleared. For the double-dummy bound alone."""
    sc = borrow(scratch, s * N_SCRATCH, N_SCRATCH)
    sc[:] = 0
    for s2 in range(P):
        sc[L.DD_HANDS + s2] = np.int64(hands[s2])
        sc[L.DD_HANDS2 + s2] = np.int64(hands[TWICE + s2]) if double else 0
    sc[L.DD_TABLE] = address_word(scratch)
    sc[L.DD_SEATS] = dd_seats


@njit(inline="always")
def _end_trick(
    rules, obs, iwork, trick, trick2, dup, win_seat, leader, P, trump, left, tmask, strict,
    double,
):  # fmt: skip
    """A trick's end in obs, for policies that read it: the voids it showed, its points
    and cards to the winner's side (two decks: each copy, the taken planes too)."""
    taken = _fixed_points(rules, trick, trump, left)
    if double:  # each copy scores
        taken += _fixed_points(rules, trick2, trump, left)
    _show_voids(obs, iwork, leader, P, tmask, strict)
    wteam = np.uint64(_team(rules, win_seat))
    obs[np.uint64(L.O_POINTS_TAKEN) + wteam] += taken
    if double:  # each copy to the taken planes
        at = np.uint64(L.O_TAKEN) + wteam
        at2 = np.uint64(L.O_TAKEN2) + wteam
        t1, t2 = _plus(np.uint64(obs[at]), np.uint64(obs[at2]), trick)
        t1, t2 = _plus(t1, t2, dup)
        obs[at2] = np.int64(t2)
    obs[np.uint64(L.O_TAKEN) + wteam] |= np.int64(trick)


@njit(**PHASE)
def _tricks(
    rules, maker, trump, left, tmask, in_play, in_play2, double, fns, pids, obs, hands, params,
    scratch, rngs, work, iwork, out, trace, want_trace,
):  # fmt: skip
    """The tricks (docs/rules.md §1.10-1.12), the maker leading the first, until every card
    in play is played: who played each card in which trick, and each trick's
    winner, go to iwork for the score. With two decks (§3.4) the first played of
    two identical cards stays the stronger (a later card must be strictly
    stronger to win), and the copy played second of a face is filed at 52 + face.
    ``double`` is a constant at each call (``play_hand``): inlined, the one-deck
    copy compiles to the single-plane loop, with nothing of the second plane left.

    Returns False when a policy's play broke the rules (the result row says so).
    """
    P = rules[L.R_PLAYERS]
    played2 = U0  # two decks: faces both copies of which are played
    # Selects rather than branches where the deal decides (which cards are legal,
    # which card is stronger): measured faster here (BENCHMARKS.md, de05ee5).
    follow_strict = rules[L.R_FOLLOW] == L.FOLLOW_STRICT
    trumps_only = rules[L.R_FOLLOW] == L.FOLLOW_TRUMPS_ONLY
    # the trick's public state in obs (cards in it, cards left, points taken), kept
    # only when a policy will read it: the built-in random and greedy plays read none
    public = _reads_trick(pids, P)
    _start_tricks(obs, iwork, work, hands, P, public, TWO_DECKS and double)
    leader = maker
    n_tricks = 0
    obs[L.O_PHASE] = L.PHASE_PLAY
    winners = borrow(iwork, IW_WINNERS, L.MAX_TRICKS)
    played = U0
    card_strength = borrow(iwork, IW_CARD_STRENGTH + trump * 52, 52)
    while (in_play & ~played) | (in_play2 & ~played2):
        while unlikely(hands[leader] == U0):
            leader = _wrap(leader + 1, P)
        if public:
            for k in range(L.MAX_PLAYERS):
                obs[L.O_TRICK_CARDS + k] = -1
        trick = U0
        trick2 = U0  # two decks: faces played a second time in this trick
        win_seat = -1
        win_card = -1
        win_str = -1
        led = -1
        test = U0  # a hand holding one of these must play from `allowed`
        allowed = U0
        if unlikely(want_trace):
            trace[L.T_LEADER + n_tricks] = leader
        for k in range(P):
            # the seat as a loaded value, not leader + k: LLVM then keeps one
            # pointer per array rather than one per array and offset (spills)
            s = iwork[np.uint64(IW_ORDER + leader * P + k)]
            us = np.uint64(s)  # unsigned indices: numba adds no negative-index fix-up
            h = hands[us]
            if unlikely(h == U0):  # out of cards, or (trumps_only) out: seen to hold no trump
                if public and trumps_only:
                    obs[np.uint64(L.O_VOIDS) + us] |= 1 << L.VOID_TRUMP
                continue
            legal = h & allowed if h & test else h
            if legal & (legal - U1):
                if public:
                    obs[L.O_SEAT] = s
                    obs[L.O_TRICK] = n_tricks
                    obs[L.O_LEADER] = leader
                    obs[L.O_TRICK_COUNT] = popcount(trick)
                    obs[L.O_WIN_SEAT] = win_seat
                    obs[L.O_WIN_CARD] = win_card
                    obs[L.O_LED_CARD] = led
                    obs[L.O_TRICK_MASK] = np.int64(trick)
                    obs[L.O_PLAYED] = np.int64(played | trick)
                    obs[L.O_KNOWN_OUT] = iwork[np.uint64(IW_KNOWN_OUT) + us]
                    if TWO_DECKS and double:
                        obs[L.O_HAND2] = np.int64(hands[TWICE + us])
                    if k > 1:
                        _show_voids(obs, iwork, leader, P, tmask, follow_strict)
                state = (tmask, trump, left, iwork, trick, win_card, win_seat)
                c = _ask_play(fns, pids, s, obs, h, legal, params, scratch, rngs, state)
                if unlikely(c < 0 or c > 51 or not (legal >> np.uint64(c)) & U1):
                    _fail(out, L.KIND_PLAY, s, c)
                    out[L.H_ERROR_LEGAL] = np.int64(legal & np.uint64(0xFFFFFFFF))  # wraps
                    out[L.H_ERROR_LEGAL_HIGH] = np.int64(legal >> np.uint64(32))
                    return False
            else:
                c = lowbit_index(legal)
            b = bit(c)
            uc = np.uint64(c)
            # two decks: one copy leaves the hand; the second of a face is filed at 52 + c
            if TWO_DECKS and double:
                hands[us], hands[TWICE + us] = _minus(h, hands[TWICE + us], b)
                again = (played | trick) & b
                trick2 |= again
                uc += np.uint64(52) if again else U0
            else:
                hands[us] = h ^ b
            trick |= b
            iwork[np.uint64(IW_TRICK_OF) + uc] = n_tricks
            iwork[np.uint64(IW_PLAYER_OF) + uc] = s
            uc = np.uint64(c)
            is_trump = (tmask & b) != U0
            if k == 0:
                follow = suit_mask(np.int64(np.uint64(c) // np.uint64(13))) & ~tmask
                test = tmask if is_trump else follow  # on a plain lead: its suit's cards
                if is_trump:
                    allowed = tmask
                else:
                    allowed = follow if follow_strict else follow | tmask
                led = c
            # a non-trump counts only in the suit led (a trump lead sets test to tmask);
            # loaded before the test, so the choice is a select, not a branch
            st = card_strength[uc]
            strength = st if (tmask | test) & b else -1
            better = strength > win_str
            win_str = max(strength, win_str)
            win_seat = s if better else win_seat
            win_card = c if better else win_card
            if public:
                obs[L.O_TRICK_CARDS + k] = c
                if TWO_DECKS and double:  # a face this seat played before: its second copy
                    at = np.uint64(L.O_PLAYED_BY2) + us
                    obs[at] |= obs[np.uint64(L.O_PLAYED_BY) + us] & np.int64(b)
                obs[np.uint64(L.O_PLAYED_BY) + us] |= np.int64(b)
                obs[np.uint64(L.O_CARDS_LEFT) + us] -= 1
            if unlikely(want_trace):
                trace[L.T_PLAYS + n_tricks * L.MAX_PLAYERS + k] = c
        winners[n_tricks] = win_seat
        dup = U0  # two decks: faces both copies of which fell in this trick
        if TWO_DECKS and double:
            dup = trick2 & ~played
        played |= trick
        played2 |= trick2
        if unlikely(want_trace):
            trace[L.T_WINNER + n_tricks] = win_seat
        if public:
            _end_trick(
                rules, obs, iwork, trick, trick2, dup, win_seat, leader, P, trump, left, tmask,
                follow_strict, TWO_DECKS and double,
            )  # fmt: skip
        leader = win_seat
        n_tricks += 1
    out[L.H_N_TRICKS] = n_tricks
    if unlikely(want_trace):
        trace[L.T_N_TRICKS] = n_tricks
    return True


@njit(**PHASE)
def _point_slots(rules, trump, left, tmask, in_play, in_play2, iwork, out, out_w):
    """Each point slot (docs/rules.md §1.13) to the side capturing its card, or playing it
    (Low under low_to=player); which side, trick and player, into the result row.
    With two decks (§3.4) each copy in play scores: the copy played first in the
    H_SLOT_* blocks, the second in the H2_SLOT_* blocks of the wide row ``out_w``.

    The points each side took go to iwork's points.
    """
    points = borrow(iwork, IW_POINTS, L.MAX_TEAMS)
    winners = borrow(iwork, IW_WINNERS, L.MAX_TRICKS)
    for t in range(L.MAX_TEAMS):
        points[t] = 0
    trumps_in = in_play & tmask
    high_card = trump * 13 + 12  # ace_only
    low_card = trump * 13  # deuce_only
    if trumps_in and (rules[L.R_HIGH_RULE] != 0 or rules[L.R_LOW_RULE] != 1):
        # the highest and lowest trumps in play, in the rules' trump order: every
        # trump is in the table, so each scan stops at a card in play
        by_strength = borrow(iwork, IW_BY_STRENGTH + trump * 14, 14)
        if rules[L.R_HIGH_RULE] != 0:
            v = 13
            while by_strength[v] < 0 or not (trumps_in >> np.uint64(by_strength[v])) & U1:
                v -= 1
            high_card = by_strength[v]
        if rules[L.R_LOW_RULE] != 1:
            v = 0
            while by_strength[v] < 0 or not (trumps_in >> np.uint64(by_strength[v])) & U1:
                v += 1
            low_card = by_strength[v]
    low_to_player = rules[L.R_LOW_TO] == 1
    for slot in range(L.N_POINT_SLOTS):  # unrolled; branch-free on which cards are out
        if slot == L.SLOT_HIGH:
            c = high_card
            value = rules[L.R_HIGH_POINTS]
            pool = trumps_in
        elif slot == L.SLOT_LOW:
            c = low_card
            value = rules[L.R_LOW_POINTS]
            pool = trumps_in
        elif slot == L.SLOT_LEFT:
            c = left
            value = rules[L.R_LEFT_POINTS]
            pool = in_play
        else:
            i = slot - L.SLOT_RANK0
            if i >= rules[L.R_N_RANK_POINTS]:
                continue
            c = trump * 13 + rules[L.R_RANK_POINTS + 2 * i]
            value = rules[L.R_RANK_POINTS + 2 * i + 1]
            pool = in_play
        cs = max(c, 0)
        present = (c >= 0) & ((pool >> np.uint64(cs)) & U1 != U0)
        t = iwork[IW_TRICK_OF + cs]  # stale (but in range) when the card is out of play
        player = iwork[IW_PLAYER_OF + cs]
        team = _team(rules, player if slot == L.SLOT_LOW and low_to_player else winners[t])
        out[L.H_SLOT_TEAM + slot] = team if present else -1
        out[L.H_SLOT_TRICK + slot] = t if present else -1
        # every card held after the draw is played by its holder
        out[L.H_SLOT_HOLDER + slot] = player if present else -1
        out[L.H_SLOT_PLAYER + slot] = player if present else -1
        points[team] += value if present else 0
    if TWO_DECKS and rules[L.R_DECKS] == 2:
        _second_copies(rules, trump, left, high_card, low_card, in_play2 & tmask, in_play2,
                       iwork, out_w)  # fmt: skip


@njit(**PHASE)
def _second_copies(rules, trump, left, high_card, low_card, trumps_in2, in_play2, iwork, out):
    """The point slots' second copies (two decks, docs/rules.md §3.4), as ``_point_slots``
    scores the first: a copy is in play when both copies of its face are, and was
    played second (filed at 52 + face by ``_tricks``). Low is each copy of the
    lowest trump rank in play, so its second copy scores when both are in play."""
    points = borrow(iwork, IW_POINTS, L.MAX_TEAMS)
    winners = borrow(iwork, IW_WINNERS, L.MAX_TRICKS)
    low_to_player = rules[L.R_LOW_TO] == 1
    for slot in range(L.N_POINT_SLOTS):
        pool = in_play2
        if slot == L.SLOT_HIGH:
            c = high_card
            value = rules[L.R_HIGH_POINTS]
            pool = trumps_in2
        elif slot == L.SLOT_LOW:
            c = low_card
            value = rules[L.R_LOW_POINTS]
            pool = trumps_in2
        elif slot == L.SLOT_LEFT:
            c = left
            value = rules[L.R_LEFT_POINTS]
        else:
            i = slot - L.SLOT_RANK0
            if i >= rules[L.R_N_RANK_POINTS]:
                continue
            c = trump * 13 + rules[L.R_RANK_POINTS + 2 * i]
            value = rules[L.R_RANK_POINTS + 2 * i + 1]
        if c < 0 or not (pool >> np.uint64(c)) & U1:
            continue
        t = iwork[IW_TRICK_OF + 52 + c]
        player = iwork[IW_PLAYER_OF + 52 + c]
        team = _team(rules, player if slot == L.SLOT_LOW and low_to_player else winners[t])
        out[L.H2_SLOT_TEAM + slot] = team
        out[L.H2_SLOT_TRICK + slot] = t
        out[L.H2_SLOT_HOLDER + slot] = player
        out[L.H2_SLOT_PLAYER + slot] = player
        points[team] += value


@njit(**PHASE)
def _settle(rules, maker, bid, iwork, out):
    """Made or set (docs/rules.md §1.14): each side's points and score change."""
    points = borrow(iwork, IW_POINTS, L.MAX_TEAMS)
    mteam = _team(rules, maker)
    made = is_made(points[mteam], bid)
    out[L.H_MADE] = 1 if made else 0
    for t in range(rules[L.R_TEAMS]):
        out[L.H_POINTS + t] = points[t]
        out[L.H_SCORE + t] = score_change(rules, t == mteam, made, points[t], bid)


@njit(**NO_REFCOUNT)
def play_hand(
    rules_at,
    setup_at,
    seed,
    hidx,
    dealer,
    fns_at,
    pids_at,
    params_at,
    obs_at,
    scratch_at,
    rngs_at,
    deck_at,
    hands_at,
    work_at,
    iwork_at,
    scores_at,
    hand_in_game,
    out_at,
    trace_at,
    want_trace,
):
    """Play one hand from the deal to the score; write its result row (and trace).

    Every array arrives as its data pointer (one machine word, where an array is
    seven: the call's largest cost) and is viewed again at its fixed length. The
    phases are inlined into it (``PHASE``: one machine function, as before the
    split); each that can end the hand early says so in its return value, the
    result row saying why.
    """
    rules = view_at(rules_at, L.R_LEN)
    setup = view_at(setup_at, L.S_LEN)
    fns = view_at(fns_at, 4 * L.MAX_PLAYERS * ADDRESSES)
    pids = view_at(pids_at, L.PIDS_LEN)
    params = view_at(params_at, 4 * L.MAX_PLAYERS * N_PARAMS)
    obs = view_at(obs_at, L.OBS_LEN)
    scratch = view_at(scratch_at, L.MAX_PLAYERS * N_SCRATCH)
    rngs = view_at(rngs_at, L.MAX_PLAYERS + 1)
    deck = view_at(deck_at, DECK_MAX)
    hands = view_at(hands_at, 2 * L.MAX_PLAYERS)  # two planes (two decks): _add_cards
    work = view_at(work_at, W_LEN)
    iwork = view_at(iwork_at, IW_LEN)
    scores = view_at(scores_at, L.MAX_TEAMS)
    out = view_at(out_at, L.H_LEN)
    trace = view_at(trace_at, L.T_LEN)
    # the wide rows of two decks (layout.row_len, trace_len), only read with two decks
    out_w = view_at(out_at, L.H_LEN2)
    trace_w = view_at(trace_at, L.T_LEN2)
    _start_row(rules, dealer, iwork, out, trace, want_trace)
    if TWO_DECKS and rules[L.R_DECKS] == 2:
        _start_row2(out_w, trace_w, want_trace)
    # ---- observation and per-seat state
    _start_obs(rules, setup, seed, hidx, dealer, pids, obs, scratch, rngs, scores, hand_in_game)
    # ---- deal
    stock0, n = _deal(
        rules, setup, seed, hidx, dealer, deck, hands, work, rngs, trace_w, want_trace
    )
    # ---- bidding
    maker, bid = _auction(
        rules, setup, dealer, fns, pids, obs, hands, params, scratch, rngs, iwork, out, trace,
        want_trace,
    )  # fmt: skip
    if maker < 0:
        return
    # ---- trump
    trump, left, tmask = _name_trump(
        rules, setup, maker, fns, pids, obs, hands, params, scratch, rngs, out
    )
    if trump < 0:
        return
    # ---- discard, draw, rob
    if rules[L.R_DRAW] != L.DRAW_NONE and not _discard_draw_rob(
        rules, dealer, maker, stock0, n, trump, left, tmask, fns, pids, obs, deck, hands,
        params, scratch, rngs, work, iwork, out, trace, trace_w, want_trace,
    ):  # fmt: skip
        return
    # ---- features of the maker's side (what a player knows before bidding)
    in_play, in_play2 = _maker_features(rules, maker, trump, left, tmask, obs, hands, work, out)
    if unlikely(rules[L.R_FOLLOW] == L.FOLLOW_TRUMPS_ONLY):  # only trumps are played:
        for s in range(L.MAX_PLAYERS):  # plain cards are dead, a seat with none sits out
            hands[s] &= tmask  # (its cards left, as the others count them, keep them)
            if TWO_DECKS:
                hands[TWICE + s] &= tmask
        in_play &= tmask
        in_play2 &= tmask
    if unlikely(pids[L.PIDS_DD] != 0):  # the double-dummy bound (policies/dd.py): every hand
        P = rules[L.R_PLAYERS]
        dd_seats = 0
        for s in range(P):
            if pids[L.KIND_PLAY * L.MAX_PLAYERS + s] == BI.DD_PLAY:
                dd_seats |= 1 << s
        for s in range(P):
            if (dd_seats >> s) & 1:
                _show_hands(scratch, s, hands, P, TWO_DECKS and rules[L.R_DECKS] == 2, dd_seats)
    # ---- tricks: two copies of the phase, each with ``double`` a constant (see _tricks)
    if TWO_DECKS and rules[L.R_DECKS] == 2:
        played = _tricks(
            rules, maker, trump, left, tmask, in_play, in_play2, True, fns, pids, obs, hands,
            params, scratch, rngs, work, iwork, out, trace, want_trace,
        )  # fmt: skip
    else:
        played = _tricks(
            rules, maker, trump, left, tmask, in_play, U0, False, fns, pids, obs, hands,
            params, scratch, rngs, work, iwork, out, trace, want_trace,
        )  # fmt: skip
    if not played:
        return
    # ---- points: each point slot (each copy) to the side capturing (or playing) its card
    _point_slots(rules, trump, left, tmask, in_play, in_play2, iwork, out, out_w)
    # ---- made or set, score change
    _settle(rules, maker, bid, iwork, out)


@njit(inline="always")
def _work_buffers():
    """The work buffers of play_hand (allocated once per kernel call, never per hand)."""
    return (
        np.zeros(L.OBS_LEN, np.int64),  # obs
        np.zeros(L.MAX_PLAYERS * N_SCRATCH, np.int64),  # scratch
        np.zeros(L.MAX_PLAYERS + 1, np.uint64),  # rngs (the last: a game's cut)
        np.zeros(DECK_MAX, np.int64),  # deck (two decks: every face twice)
        np.zeros(2 * L.MAX_PLAYERS, np.uint64),  # hands: faces held, then faces held twice
        np.zeros(W_LEN, np.uint64),  # work
        np.zeros(IW_LEN, np.int64),  # iwork
        np.zeros(L.MAX_TEAMS, np.int64),  # scores
        np.zeros(L.T_LEN2, np.int64),  # a trace row nobody reads (wide enough for two decks)
    )


@njit(inline="always")
def _play_borrowed(
    rules, setup, seed, hidx, dealer, fns, pids, flat_params, bufs, game_hand, out, tr, want_trace
):
    """play_hand on one set of work buffers, every array passed as its address: the one
    place both batch kernels call it from."""
    obs, scratch, rngs, deck, hands, work, iwork, scores = bufs
    play_hand(
        address(rules), address(setup), seed, hidx, dealer,
        address(fns), address(pids), address(flat_params),
        address(obs), address(scratch), address(rngs), address(deck), address(hands),
        address(work), address(iwork), address(scores),
        game_hand, address(out), address(tr), want_trace,
    )  # fmt: skip


SIMULATE_SIG = types.void(
    types.int64[::1],  # rules
    types.int64[::1],  # setup
    types.uint64,  # seed
    types.int64,  # hand offset (global index of row 0)
    types.int64,  # number of hands
    POLICY_TABLE,  # the policies' addresses (policy_table.py)
    types.int64[::1],  # built-in id of each [kind, seat] policy (0: call the function)
    types.float64[:, :, ::1],  # params[kind, seat, :]
    types.int32[:, ::1],  # out[hand, H_*]
    types.int64[:, ::1],  # trace[hand, T_*] (0 rows: no trace)
)


@njit(cache=True, nogil=True)
def simulate_hands(
    rules,
    setup,
    seed,
    offset,
    n_hands,
    policies,
    pids,
    params,
    out,
    trace,
):
    """Play ``n_hands`` independent hands with global indices offset..offset+n-1, or
    with ``S_LISTED`` set, the hands whose indices the setup lists after ``S_LEN``,
    from position ``offset`` on (the advisor replays only the deals it kept); with
    ``LISTED_FIXED`` each index comes with that hand's fixed cards per seat, dealt
    in place of ``S_FIXED`` (the advisor's deals drawn to fit earlier bids).

    Serial and GIL-free: ``threads.run_split`` hands each thread pieces of a batch."""
    want_trace = trace.shape[0] > 0
    listed = setup[L.S_LISTED] != 0
    per_hand = setup[L.S_LISTED] == L.LISTED_FIXED
    stride = 1 + L.MAX_PLAYERS if per_hand else 1
    # a copy whose S_FIXED each hand overwrites: the batch's setup is shared by threads
    own = setup[: L.S_LEN].copy() if per_hand else setup
    dealer = setup[L.S_DEALER]
    flat_params = params.reshape(-1)
    flat_out = out.reshape(-1)
    flat_trace = trace.reshape(-1)
    fns = policies.reshape(-1)
    obs, scratch, rngs, deck, hands, work, iwork, scores, dummy = _work_buffers()
    bufs = (obs, scratch, rngs, deck, hands, work, iwork, scores)
    ow = out.shape[1]  # layout.row_len and trace_len: wider with two decks
    tw = trace.shape[1]
    # not the literal 0: that types play_hand's argument as Literal[int](0), and
    # play_games then compiles a second play_hand for its int64 hand in game
    not_in_game = np.int64(0)
    for i in range(n_hands):
        tr = borrow(flat_trace, i * tw, tw) if want_trace else _b(dummy)
        out_row = borrow(flat_out, i * ow, ow)
        at = L.S_LEN + (offset + i) * stride
        hidx = setup[at] if listed else offset + i
        if unlikely(per_hand):
            for s in range(L.MAX_PLAYERS):
                own[L.S_FIXED + s] = setup[at + 1 + s]
        _play_borrowed(
            rules, own, seed, hidx, dealer, fns, pids, flat_params,
            bufs, not_in_game, out_row, tr, want_trace,
        )  # fmt: skip


DEAL_SIG = types.void(
    types.int64[::1], types.int64[::1], types.uint64, types.int64, types.uint64[:, ::1]
)


@njit(cache=True, nogil=True)
def deal_hands(rules, setup, seed, offset, hands_out):
    """Only shuffle and deal (docs/benchmarks.md W1): hands_out[i, seat] is a card mask."""
    dealer = setup[L.S_DEALER]
    P = rules[L.R_PLAYERS]
    _, _, rngs, deck, hands, work, _, _, dummy = _work_buffers()
    for i in range(hands_out.shape[0]):
        _deal(rules, setup, seed, offset + i, dealer, deck, hands, work, rngs, dummy, False)
        for s in range(P):
            hands_out[i, s] = hands[s]


GAMES_SIG = types.void(
    types.int64[::1],  # rules
    types.int64[::1],  # setup (S_DEALER < 0: cut for the first dealer)
    types.uint64,  # seed
    types.int64,  # game offset (global index of row 0)
    types.int64,  # hand stride: hand h of game g uses hand index g * stride + h
    POLICY_TABLE,
    types.int64[::1],
    types.float64[:, :, ::1],
    types.int32[:, ::1],  # games[game, G_*]
    types.int32[:, :, ::1],  # hands[game, hand, H_*]; its middle size caps a game's length
    types.int64[:, :, ::1],  # trace[game, hand, T_*] (0 games: no trace)
)


@njit(cache=True, nogil=True)
def play_games(
    rules,
    setup,
    seed,
    offset,
    stride,
    policies,
    pids,
    params,
    games,
    hand_rows,
    trace,
):
    """Play whole games to the target (docs/rules.md §1.15), one game per row.

    The dealer moves clockwise after each hand, except that a thrown-in hand
    under all_pass=redeal_same is dealt again by the same dealer. Policies see
    the running score. A game that reaches the row buffer's length unfinished
    is reported as such.
    """
    n_games = games.shape[0]
    max_hands = hand_rows.shape[1]
    want_trace = trace.shape[0] > 0
    P = rules[L.R_PLAYERS]
    T = rules[L.R_TEAMS]
    target = rules[L.R_TARGET]
    neg = rules[L.R_MIN_SCORE_LOSS]
    flat_params = params.reshape(-1)
    fns = policies.reshape(-1)
    obs, scratch, rngs, deck, hands, work, iwork, scores, dummy = _work_buffers()
    bufs = (obs, scratch, rngs, deck, hands, work, iwork, scores)
    for g in range(n_games):
        for t in range(L.MAX_TEAMS):  # the one buffer that carries over between hands
            scores[t] = 0
        gidx = offset + g
        row = games[g]
        row[:] = 0
        dealer = setup[L.S_DEALER]
        if dealer < 0:  # cut: the game's own stream, apart from every hand's
            st = borrow(rngs, L.MAX_PLAYERS, 1)
            st[0] = stream_state(seed, gidx, L.GAME_STREAM)
            dealer = np.int64(((next_u64(st) >> np.uint64(32)) * np.uint64(P)) >> np.uint64(32))
        row[L.G_FIRST_DEALER] = dealer
        row[L.G_WINNER] = -1
        row[L.G_REASON] = L.REASON_UNFINISHED
        hand_rows[g, :, :] = 0
        for h in range(max_hands):
            out = hand_rows[g, h]
            tr = trace[g, h] if want_trace else dummy
            _play_borrowed(
                rules, setup, seed, gidx * stride + h, dealer, fns, pids, flat_params,
                bufs, h, out, tr, want_trace,
            )  # fmt: skip
            row[L.G_N_HANDS] = h + 1
            if out[L.H_ERROR] != 0:
                break
            if out[L.H_THROWN_IN] == 1:
                if rules[L.R_ALL_PASS] != L.ALL_PASS_REDEAL_SAME:
                    dealer = (dealer + 1) % P
                continue
            for t in range(T):
                scores[t] += out[L.H_SCORE + t]
            dealer = (dealer + 1) % P
            # records.game_end.game_end, jitted (a test holds the two together): the
            # bidding side first, then the others, then the negative limit; a tie goes
            # to the first side clockwise from the maker's
            mteam = _team(rules, out[L.H_MAKER])
            winner = -1
            if out[L.H_MADE] == 1 and scores[mteam] >= target:
                winner = mteam
            else:
                best = -(1 << 40)
                for k in range(1, T):
                    t = _wrap(mteam + k, T)
                    if scores[t] >= target and scores[t] > best:
                        best = scores[t]
                        winner = t
            if winner >= 0:
                row[L.G_WINNER] = winner
                row[L.G_REASON] = L.REASON_TARGET
                break
            if neg > 0:
                lost = False
                for t in range(T):
                    lost |= scores[t] <= -neg
                if lost:  # the best side not at the limit wins (none: nobody)
                    best = -(1 << 40)
                    for k in range(T):
                        t = _wrap(mteam + k, T)
                        if scores[t] > -neg and scores[t] > best:
                            best = scores[t]
                            winner = t
                    row[L.G_WINNER] = winner
                    row[L.G_REASON] = L.REASON_NEGATIVE_LIMIT
                    break
        for t in range(T):
            row[L.G_SCORE + t] = scores[t]


_deal2 = with_two_decks(_deal)
_discard_draw_rob2 = with_two_decks(
    _discard_draw_rob,
    _discards=with_two_decks(_discards),
    _draw=with_two_decks(_draw),
    _rob=with_two_decks(_rob),
)
_point_slots2 = with_two_decks(_point_slots)
play_hand2 = with_two_decks(
    play_hand,
    _deal=_deal2,
    _discard_draw_rob=_discard_draw_rob2,
    _maker_features=with_two_decks(_maker_features),
    _tricks=with_two_decks(_tricks),
    _point_slots=_point_slots2,
)
_play_borrowed2 = with_two_decks(_play_borrowed, play_hand=play_hand2)
simulate_hands2 = with_two_decks(simulate_hands, _play_borrowed=_play_borrowed2)
play_games2 = with_two_decks(play_games, _play_borrowed=_play_borrowed2)
deal_hands2 = with_two_decks(deal_hands, _deal=_deal2)

_SIGNATURES = {
    "simulate_hands": SIMULATE_SIG,
    "simulate_hands2": SIMULATE_SIG,
    "deal_hands": DEAL_SIG,
    "deal_hands2": DEAL_SIG,
    "play_games": GAMES_SIG,
    "play_games2": GAMES_SIG,
}


def entry(name: str):
    """One batch kernel, compiled (or loaded from the disk cache) on first use.

    Compiling only the entry a command needs keeps a cold start short; the
    explicit signature takes the policies as a table of addresses, so the
    cache hits whatever policies are plugged in (policy_table.py), and compilation
    is then disabled so no call can add a specialisation.
    """
    disp = globals()[name]
    if disp.overloads:
        return disp
    # one thread loads it (the web page's queries run in threads): a second compile
    # racing the first's disable_compile failed with "compilation disabled"
    with _ENTRY_LOCK:
        if not disp.overloads:
            _load_entry(disp, name)
    return disp


_ENTRY_LOCK = threading.Lock()


def _load_entry(disp, name: str) -> None:
    """Compile (or load from the disk cache) one batch kernel, then disable compiling;
    a compile is said (``jit.notice``: a cache load takes under a second)."""
    refresh(entry)  # a stale cache of this folder is flushed first (cache.py says why)
    with first_compile(f"the kernel ({name})", lambda: not disp.overloads, "in under a minute"):
        disp.compile(_SIGNATURES[name].args)
    disp.disable_compile()


def compiled(name: str):
    """The batch kernel's one compiled overload, to call without numba's dispatch.

    The dispatcher types every argument of every call: serial work, under the
    GIL, for every thread's range of every chunk. The overload's wrapper does not check argument
    types as the dispatcher does (a float rules vector crashes it), so only
    engine.run_chunk and engine.run_games call it: they build every argument
    themselves, from validated rules and policies.
    """
    return next(iter(entry(name).overloads.values())).entry_point
