"""Double-dummy alpha-beta search: the points the maker's side ends the hand with
when every player sees every card and plays best.

The maker's side maximises and every other side minimises (in a cut-throat game
the others are one coalition: the paranoid reading). The search runs on its own
card numbering, built per position from the rules vector, never from the
canonical game: the trump suit takes bits 48..61 in the rules' trump order
(``R_TRUMP_STRENGTH``) and each plain suit 16 bits by rank, so that

- a trick's winner is one instruction: the highest set bit among its trumps and
  its cards of the suit led (any trump's bit is above any plain card's);
- cards of one suit rank by bit, so "no card still in play between them" is a
  mask test (equivalent cards, collapsed to one move).

Each card's value (what its capturer scores, ``R_*_POINTS``, High and Low fixed
by the cards in play at the start of play) is a table; Low under
``low_to=player`` goes to whoever holds it whatever happens, so it is counted
once, at the root. Nodes at a trick's start are stored in a transposition table
with lower and upper bounds and the best lead, keyed by each suit's cards still
held in rank order as the seats holding them (``_key``). Cuts besides alpha-beta:
no point left means 0; the run of top trumps one side holds is points that side
surely takes (each of them wins the trick it falls in); the last two tricks are
scored outright (``_two_tricks``). Values come from null-window probes
(``_exact``, ``_mtd``). docs/solver.md tells it for users.

Everything lives in one uint64 workspace (``new_workspace``), so jitted callers
(a PIMC player) solve thousands of positions without allocating.

Two decks (docs/rules.md §3.4) do not fit the fixed numbering, but the cards in play
(at most 48 copies with four players) fit 64 bits: ``_prepare`` then numbers each
copy in play, grouped by suit (plain suits low, trumps on top, each group by rank
or strength, the two copies of a face adjacent), and ``_group`` and the trump
mask become workspace lookups. Of two identical cards in a trick the first played
wins; the search keeps "the highest bit wins" true by giving the first played
copy the higher bit: a player who plays the lower copy of a face whose twin
another still holds swaps the two bits' holders (``_swap``; copies are
equivalent, so nothing else changes). The table key is a rank-order one (``_key``:
the twins marked) up to 23 cards held, else the cards held, the leader and which
twins were swapped. The same source is compiled twice: the
module global ``TWO_DECKS`` is a constant to numba, so in the one-deck functions
every two-deck branch is pruned before typing, and ``with_two_decks`` compiles
the copies (``solve2``, ``card_values2``) with it true, as the kernel does.
"""

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import deposit, extract, highbit_index, lowbit_index, popcount
from cinch_sim.jit.cache import refresh
from cinch_sim.jit.memory import NO_REFCOUNT, address, view_at
from cinch_sim.jit.two_decks import with_two_decks
from cinch_sim.solver import position as Q


def _here() -> None:
    """Locates this folder's numba cache."""


refresh(_here)  # a stale cache of this folder is flushed first (cache.py says why)

U0 = np.uint64(0)
U1 = np.uint64(1)
TRUMPS = np.uint64(0x3FFF << 48)  # the trump suit in the search's numbering
GROUP = np.uint64(0xFFFF)  # one suit's 16 bits, at the low end
LEADER_SHIFT = np.uint64(13)  # the leader's seat sits in bits 13..15 of a key (no card)
ALL_CARDS = np.uint64((1 << 52) - 1)
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
GOLDEN2 = np.uint64(0xC2B2AE3D27D4EB4F)
LANES = np.uint64(0x5555555555555555)
INF = 1 << 20
# A constant to numba: the one-deck functions prune every ``if TWO_DECKS`` branch; the
# two-deck copies (``with_two_decks``) are the same source compiled with it true.
TWO_DECKS = False
KEY_SEAT_SHIFT2 = np.uint64(61)  # two decks: the leader in a key's bits 61..63 (no card)
MAX_COPIES2 = 61  # two decks: the copies in play the numbering (and the key) can hold
# (limits.MAX_COPIES2 says the same below the jit layer, for the refusals)

# ---------------------------------------------------------------- the workspace
W_PLAYERS = 0
W_STRICT = 1  # 1 under follow_rule=strict
W_MAXER = 2  # seat bits of the maker's side
W_STAMP = 3  # table entries of other stamps are empty (a new deal needs no clearing)
W_NODES = 4  # nodes searched since the last reset (for the benchmark)
W_POINTS = 5  # cards (search numbering) whose capturer scores
W_MAX_CARDS = 6  # cards the maker's side holds (search numbering)
W_TRUMP = 7
W_TT_BITS = 8
W_CANON = 9  # 1: table keys by rank order and holders (4 players at most, see _key)
W_SUMS_OK = 10  # 1: W_SUMS holds the value of every subset of the point cards
W_SIZE = 11  # the workspace's length
W_LOW_HELD = 12  # Low's points when they go to its holder (low_to=player), else 0
W_TRUMPS = 13  # two decks: the trump group's bits
W_SWAPPED = 14  # two decks: lower bits of the twin pairs whose holders the search swapped
W_DECKS = 15  # the decks of the position last read
W_IN1 = 16  # two decks: the faces in play at least once (the numbering's source)
W_IN2 = 17  # two decks: the faces in play twice
W_TWINS = 18  # two decks: bits c whose bit c + 1 is the other copy of the same face
W_GMASK = 19  # two decks: 4 slots, each group's bits (the plain suits, then the trumps)
CANON_MAX = 31  # one deck: the most cards held a rank-order key holds (two bits a card)
CANON2_MAX = 23  # two decks: the most cards held a rank-order key holds (4 n + 35 bits)
CANON2_FLAG = np.uint64(1) << np.uint64(63)  # two decks: a rank-order key's second word
W_HAND = 24  # per seat: its cards (search numbering); held now = rem & hand
W_OWNER = W_HAND + L.MAX_PLAYERS  # per search card: the seat holding it
W_VALUE = W_OWNER + 64  # per search card: what its capturer scores
W_TO_SEARCH = W_VALUE + 64  # per card: its search number
W_TO_CARD = W_TO_SEARCH + 52  # per search number: the card (-1 as uint64 none)
W_OLD_VALUE = W_TO_CARD + 64  # the values of the last position, to tell a new deal
W_MOVES = W_OLD_VALUE + 64  # per depth: MAX_MOVES ordered moves (score << 8 | card)
MAX_MOVES = 32
MAX_DEPTH = 56
FRAME = 24  # words of a search frame (F_* below)
MAX_SUMS = 12  # point cards the subset table covers (2**12 sums; two decks: 12 copies)
W_FRAMES = W_MOVES + MAX_DEPTH * MAX_MOVES  # per depth: the search's frame
W_SCRATCH = W_FRAMES + MAX_DEPTH * FRAME  # the two-trick endgame's seats and leaves
W_SUMS = W_SCRATCH + 64  # per subset of the point cards: its value
W_GROUP = W_SUMS + (1 << MAX_SUMS)  # two decks: per search card, its group's bits
# scratch while a position is read (_prepare; the frames are free until the search)
W_FACE_VALUE = W_SCRATCH  # per face: what a copy of it scores its capturer
W_TRICK_BIT = W_SCRATCH + 56  # per seat: its trick card's bit
W_BY_STRENGTH = W_FRAMES  # per trump strength 1..14: its face (-1 as uint64 none)
W_NEXT = W_FRAMES + 16  # per face: the bit its next copy takes
# the table: 4 words an entry (key, second key word, stamp << 32 | move << 16 | lo << 8
# | hi, unused: a power of two keeps an entry inside one cache line)
W_TT = W_GROUP + 64
DEFAULT_TT_BITS = 16


def workspace_size(tt_bits: int = DEFAULT_TT_BITS) -> int:
    return W_TT + (4 << tt_bits)


def new_workspace(tt_bits: int = DEFAULT_TT_BITS) -> np.ndarray:
    """A solver's workspace: context, frames and a 2**tt_bits-entry table (32 bytes an
    entry: the default 2 MiB). One per thread; reuse it across positions."""
    if not 8 <= tt_bits <= 26:
        raise ValueError(f"tt_bits={tt_bits} must be 8..26")
    ws = np.zeros(workspace_size(tt_bits), dtype=np.uint64)
    ws[W_TT_BITS] = tt_bits
    ws[W_SIZE] = ws.shape[0]
    return ws


# ---------------------------------------------------------------- small pieces
@njit(inline="always")
def _group(ws, c):
    """The bits of search card c's suit: 16 of them, or (two decks) a lookup."""
    if TWO_DECKS:
        return ws[W_GROUP + np.int64(c)]
    return GROUP << (np.uint64(c) & np.uint64(48))


@njit(inline="always")
def _trumps(ws):
    """The trump suit's bits: TRUMPS, or (two decks) a lookup."""
    if TWO_DECKS:
        return ws[W_TRUMPS]
    return TRUMPS


@njit(inline="always")
def _twin(ws, c):
    """Whether bit c + 1 is the other copy of search card c's face (two decks)."""
    return ws[W_TO_CARD + np.int64(c) + 1] == ws[W_TO_CARD + np.int64(c)]


@njit(inline="always")
def _swap(ws, c):
    """Exchange the holders of twin bits c and c + 1 (two decks; held by two seats): so
    the copy played first is the higher bit. Its own inverse."""
    a = np.int64(ws[W_OWNER + c])
    b = np.int64(ws[W_OWNER + c + 1])
    pair = (U1 << np.uint64(c)) | (U1 << np.uint64(c + 1))
    ws[W_HAND + a] ^= pair
    ws[W_HAND + b] ^= pair
    ws[W_OWNER + c] = b
    ws[W_OWNER + c + 1] = a
    if _is_max(ws, a) != _is_max(ws, b):
        ws[W_MAX_CARDS] ^= pair
    ws[W_SWAPPED] ^= U1 << np.uint64(c)


@njit(inline="always")
def _winner(ws, cards, led, leader, P):
    """The seat whose card of ``cards`` (one card a seat, played in turn from
    ``leader``) takes the trick: the highest bit among the trumps and the suit led;
    with two decks, of two copies of that face the one played first."""
    hb = highbit_index(cards & (_trumps(ws) | led))
    w = np.int64(ws[W_OWNER + hb])
    if TWO_DECKS:
        if hb > 0 and (cards >> np.uint64(hb - 1)) & U1 and _twin(ws, hb - 1):
            o = np.int64(ws[W_OWNER + hb - 1])
            dw = w - leader if w >= leader else w - leader + P
            do = o - leader if o >= leader else o - leader + P
            if do < dw:
                w = o
    return w


@njit(inline="always")
def _value_of(ws, m):
    """The capture value of the cards of mask m (a subset of the point cards): a table
    lookup by the subset, or a loop where the rules have too many point cards."""
    if ws[W_SUMS_OK]:
        return np.int64(ws[W_SUMS + extract(m, ws[W_POINTS])])
    v = 0
    while m:
        v += np.int64(ws[W_VALUE + lowbit_index(m)])
        m &= m - U1
    return v


@njit(inline="always")
def _above(m, c):
    """The cards of m above bit c (c <= 61)."""
    return m & ~((U1 << np.uint64(c + 1)) - U1)


@njit(inline="always")
def _next_seat(todo, seat, P):
    """The first seat of the bit set todo after seat, clockwise."""
    s = seat + 1 if seat + 1 < P else 0
    while not (todo >> np.uint64(s)) & U1:
        s = s + 1 if s + 1 < P else 0
    return s


@njit(inline="always")
def _legal(ws, hand, trick, led):
    """The cards of hand that may be played (docs/rules.md §1.11; follow_rule)."""
    if trick == U0:
        return hand
    f = hand & led
    if f == U0:
        return hand
    tr = _trumps(ws)
    if led & tr or ws[W_STRICT]:  # a trump lead, or strict: follow suit
        return f
    return f | (hand & tr)


@njit(inline="always")
def _is_max(ws, seat):
    return (ws[W_MAXER] >> np.uint64(seat)) & U1 != U0


@njit(inline="always")
def _key(ws, rem, seat):
    """The table key of a trick's start, two words: what the rest of the hand depends
    on and nothing more. Each suit's cards still held, in rank order, as the seats
    holding them (two bits a card, so up to four players), and which of them score;
    so two positions that differ only in which of two cards, now next to each other,
    went earlier share an entry. Beyond 31 cards held, or with a plain card that
    scores, the key is the cards themselves and the leader (the second word all
    ones, which an ordered key never is). With two decks: the cards held, the
    leader in the top bits and, second word, which twins the search swapped (the
    holders of the cards held are then known)."""
    if TWO_DECKS:
        P = np.int64(ws[W_PLAYERS])
        if ws[W_CANON] and popcount(rem) <= CANON2_MAX:
            # rank order: per group its count, which held cards are twins of the next,
            # which score, and their holders, two bits each; which point copies are
            # still held (their values); the leader. At most 4 n + 35 bits.
            pts = rem & ws[W_POINTS]
            k0 = np.uint64(seat) | (extract(rem, ws[W_POINTS]) << np.uint64(3))
            k1 = CANON2_FLAG
            at = 15
            for g in range(4):
                held = rem & ws[W_GMASK + g]
                n = popcount(held)
                code = U0
                for s in range(1, P):
                    code |= deposit(extract(ws[W_HAND + s] & held, held), LANES) * np.uint64(s)
                tw = extract(held & (held >> U1) & ws[W_TWINS], held)
                k0, k1, at = _push(k0, k1, at, np.uint64(n), 5)
                k0, k1, at = _push(k0, k1, at, tw, n)
                k0, k1, at = _push(k0, k1, at, extract(pts, held), n)
                k0, k1, at = _push(k0, k1, at, code, 2 * n)
            return k0, k1
        return rem | (np.uint64(seat) << KEY_SEAT_SHIFT2), ws[W_SWAPPED] & rem
    if ws[W_CANON]:
        P = np.int64(ws[W_PLAYERS])
        pts = rem & ws[W_POINTS]
        k0 = np.uint64(seat) | ((pts >> np.uint64(48)) << np.uint64(19))
        k0 |= extract(pts, rem & TRUMPS) << np.uint64(33)
        k1 = U0
        sh = 0
        for g in range(4):
            held = rem & (GROUP << np.uint64(16 * g))
            k0 |= np.uint64(popcount(held)) << np.uint64(3 + 4 * g)
            code = U0
            for s in range(1, P):
                code |= deposit(extract(ws[W_HAND + s] & held, held), LANES) * np.uint64(s)
            if sh < 62:
                k1 |= code << np.uint64(sh)
            sh += 2 * popcount(held)
        if sh <= 62:
            return k0, k1
    return rem | (np.uint64(seat) << LEADER_SHIFT), ~U0


@njit(inline="always")
def _push(k0, k1, at, v, w):
    """Append the w low bits of v at bit ``at`` of the two-word key (k0, k1); ``at``
    from 15 on (the first bits are set directly), so no shift is 64."""
    if w == 0:
        return k0, k1, at
    if at < 64:
        k0 |= v << np.uint64(at)
        if at + w > 64:
            k1 |= v >> np.uint64(64 - at)
    else:
        k1 |= v << np.uint64(at - 64)
    return k0, k1, at + w


@njit(inline="always")
def _two_tricks(ws, rem, seat, P, alpha, beta):
    """The exact value of a trick's start with at most two cards in any hand: every
    way the first trick can go (each seat has at most two legal cards, the second
    trick is forced) scored directly and folded by minimax, seat by seat from the
    last, with no table and no frames: about half the search's nodes were here.
    Once one lead reaches past (alpha, beta) the other is not tried: the value is
    then a bound (the second result says so), else exact."""
    points = ws[W_POINTS]
    seats = W_SCRATCH  # the seats in turn from the leader
    k = 0
    for j in range(P):
        s = seat + j if seat + j < P else seat + j - P
        if rem & ws[W_HAND + s]:
            ws[seats + k] = s
            k += 1
    lead_hand = rem & ws[W_HAND + seat]
    lead_max = _is_max(ws, seat)
    best = -INF if lead_max else INF
    leaves = W_SCRATCH + 8
    choices = W_SCRATCH + 48  # per follower: its legal cards (one or two)
    m = lead_hand
    while m:
        lead = lowbit_index(m)
        m &= m - U1
        led = _group(ws, lead)
        nbits = 0
        for j in range(1, k):
            s = np.int64(ws[seats + j])
            c = _legal(ws, rem & ws[W_HAND + s], U1, led)
            ws[choices + j] = c
            if c & (c - U1):
                nbits += 1
        for leaf in range(1 << nbits):
            trick = U1 << np.uint64(lead)
            bitpos = nbits
            for j in range(1, k):
                c = ws[choices + j]
                if c & (c - U1):
                    bitpos -= 1
                    if (leaf >> bitpos) & 1:
                        c &= c - U1  # the higher card
                    else:
                        c &= ~(c - U1)  # the lower
                trick |= c
            w = _winner(ws, trick, led, seat, P)
            v = _value_of(ws, trick & points) if _is_max(ws, w) else 0
            rest = rem ^ trick
            if rest:
                while rest & ws[W_HAND + w] == U0:
                    w = w + 1 if w + 1 < P else 0
                g = _group(ws, lowbit_index(rest & ws[W_HAND + w]))
                w2 = _winner(ws, rest, g, w, P)
                if _is_max(ws, w2):
                    v += _value_of(ws, rest & points)
            ws[leaves + leaf] = np.uint64(v)
        # fold: the last seat with a choice is bit 0
        size = 1 << nbits
        for j in range(k - 1, 0, -1):
            c = ws[choices + j]
            if c & (c - U1) == U0:
                continue
            maxing = _is_max(ws, ws[seats + j])
            size >>= 1
            for i in range(size):
                a = ws[leaves + 2 * i]
                b = ws[leaves + 2 * i + 1]
                ws[leaves + i] = (a if a > b else b) if maxing else (a if a < b else b)
        v = np.int64(ws[leaves])
        if lead_max:
            best = max(best, v)
            if best >= beta and m:
                return best, True
        else:
            best = min(best, v)
            if best <= alpha and m:
                return best, True
    return best, False


# ---------------------------------------------------------------- the search
# A node's frame, one per depth: the search is a loop over an explicit stack (numba
# cannot cache a recursive function, and the kernel that will call this is cached).
F_REM, F_TRICK, F_LED, F_SEAT, F_REST, F_TVAL = 0, 1, 2, 3, 4, 5
F_A, F_B, F_ALPHA, F_BETA, F_BEST, F_BEST_C, F_CUR = 6, 7, 8, 9, 10, 11, 12
F_I, F_N, F_TT, F_K0, F_K1, F_LAST, F_NSEAT, F_GAIN, F_MAX = 13, 14, 15, 16, 17, 18, 19, 20, 21
F_SWAP = 22  # two decks: 1 + the lower bit of the twins the current move swapped, or 0
BIAS = np.int64(1 << 40)  # signed numbers are kept in the uint64 frames biased


@njit(inline="always")
def _enc(v):
    return np.uint64(v + BIAS)


@njit(inline="always")
def _dec(x):
    return np.int64(x) - BIAS


@njit(inline="always")
def _move_score(
    c, rank, is_trump, trumps, val, trick, led, win, hint, top, partner_wins, last, tval
):
    """A move's score (tried highest first): the table's best lead, the top trump,
    then trumps high to low and plain suits high to low; following, smear points on
    a trick the side wins, win as cheaply as possible, throw the cheapest card; with
    no point in the trick yet, throw before winning."""
    cost = rank + (16 if is_trump else 0)
    if trick == U0:
        if c == hint:
            return 4000
        if c == top:
            return 3000
        if is_trump:
            return 1000 + cost
        return 500 + rank
    beats = (trumps | led) >> np.uint64(c) & U1 != U0 and c > win
    if partner_wins:
        return 100 - cost if beats else 2000 + 16 * val - cost
    if not last and tval + val == 0:
        return 1000 - cost if beats else 1500 - cost
    return 3000 - cost if beats else 1000 - 16 * val - cost


@njit(inline="always")
def _sure_bounds(ws, rem, points, total):
    """Bounds on the points still out (``total``) from the top trumps: each trump above
    the other side's top one wins the trick it falls in, so its points are sure."""
    lo = 0
    hi = total
    tr = rem & _trumps(ws)
    if tr:
        mx = ws[W_MAX_CARDS]
        theirs = tr & ~mx
        mine = tr & mx
        if theirs == U0:
            lo = _value_of(ws, tr & points)
        elif mine == U0:
            hi = total - _value_of(ws, tr & points)
        else:
            ht = highbit_index(theirs)
            hm = highbit_index(mine)
            if TWO_DECKS:  # a twin above a side's top card is not sure: it may fall second
                if (tr >> np.uint64(ht + 1)) & U1 and _twin(ws, ht):
                    ht += 1
                if (tr >> np.uint64(hm + 1)) & U1 and _twin(ws, hm):
                    hm += 1
            lo = _value_of(ws, _above(tr, ht) & points)
            hi = total - _value_of(ws, _above(tr, hm) & points)
    return lo, hi


@njit(inline="always")
def _settled(lo, hi, alpha, beta):
    """(True, the value) when the bounds lo..hi decide a node searched in (alpha, beta),
    else (False, 0)."""
    if lo >= beta:
        return True, lo
    if hi <= alpha:
        return True, hi
    if lo == hi:
        return True, lo
    return False, 0


@njit(inline="always")
def _holding(ws, rem, P):
    """The seats still holding cards (seat bits) and the most cards one of them holds."""
    todo = U0
    most = 0
    for s in range(P):
        h = rem & ws[W_HAND + s]
        if h:
            todo |= U1 << np.uint64(s)
            most = max(most, popcount(h))
    return todo, most


@njit(inline="always")
def _probe(ws, rem, seat, lo, hi):
    """The table's entry for a trick's start: its key (two words) and address, lo and
    hi tightened by the bounds it holds, and its best lead (-1: none)."""
    key, key1 = _key(ws, rem, seat)
    shift = np.uint64(64) - ws[W_TT_BITS]
    tt_at = W_TT + 4 * np.int64(((key * GOLDEN) ^ (key1 * GOLDEN2)) >> shift)
    hint = -1
    e = ws[tt_at + 2]
    if ws[tt_at] == key and ws[tt_at + 1] == key1 and (e >> np.uint64(32)) == ws[W_STAMP]:
        lo = max(lo, np.int64((e >> np.uint64(8)) & np.uint64(255)))
        hi = min(hi, np.int64(e & np.uint64(255)))
        hint = np.int64((e >> np.uint64(16)) & np.uint64(255))
    return key, key1, tt_at, lo, hi, hint


@njit(inline="always")
def _last_two(ws, rem, seat, P, alpha, beta, tt_at, key, key1):
    """The value of the last two tricks (``_two_tricks``), its bounds stored."""
    v, cut = _two_tricks(ws, rem, seat, P, alpha, beta)
    if not cut:
        _store(ws, tt_at, key, key1, v, v, -1)
    elif v >= beta:
        _store(ws, tt_at, key, key1, v, 255, -1)
    else:
        _store(ws, tt_at, key, key1, 0, v, -1)
    return v


@njit(inline="always")
def _order_moves(ws, d, rem, trick, led, hand, maxing, last, tval, hint):
    """Write the legal moves at depth d best first (``_move_score``), equivalent cards
    collapsed; return how many."""
    legal = _legal(ws, hand, trick, led)
    live = rem | trick
    base = W_MOVES + d * MAX_MOVES
    n = 0
    win = -1
    partner_wins = False
    trumps = _trumps(ws)
    if trick:
        win = highbit_index(trick & (trumps | led))
        partner_wins = _is_max(ws, ws[W_OWNER + win]) == maxing
    top = highbit_index(rem & trumps) if rem & trumps else -1
    m = legal
    while m:
        c = lowbit_index(m)
        m &= m - U1
        grp = _group(ws, c)
        up = _above(live & grp, c)
        if up:
            nh = lowbit_index(up)
            if (hand >> np.uint64(nh)) & U1 and ws[W_VALUE + nh] == ws[W_VALUE + c]:
                continue  # the next card up is ours and worth the same: the same move
        val = np.int64(ws[W_VALUE + c])
        if TWO_DECKS:
            is_trump = (trumps >> np.uint64(c)) & U1 != U0
            rank = c - lowbit_index(grp)
        else:
            is_trump = c >= 48
            rank = c & 15
        score = _move_score(
            c, rank, is_trump, trumps, val, trick, led, win, hint, top, partner_wins, last, tval
        )
        word = np.uint64(score) << np.uint64(8) | np.uint64(c)
        i = n
        while i > 0 and ws[base + i - 1] < word:
            ws[base + i] = ws[base + i - 1]
            i -= 1
        ws[base + i] = word
        n += 1
    return n


@njit(inline="always")
def _enter(ws, d, rem, trick, led, seat, todo, tval, alpha, beta):
    """Open the node at depth d: (True, its value) when bounds, the table or the last
    trick decide it; else (False, 0), its frame and ordered moves written.

    rem: cards still held; trick: cards of the trick in progress; led: the suit
    led (its 16 bits, 0 before the lead); seat: to play; todo: seat bits still to
    play in this trick (seat included; computed here at a trick's start); tval:
    capture value of the trick's cards. Values are the points the maker's side
    takes from here on, the trick in progress included, fail-soft in (alpha, beta).
    """
    ws[W_NODES] += U1
    points = ws[W_POINTS]
    if (rem | trick) & points == U0:
        return True, 0
    P = np.int64(ws[W_PLAYERS])
    tt_at = -1
    hint = -1
    key = U0
    key1 = U0
    if trick == U0:
        while rem & ws[W_HAND + seat] == U0:
            seat = seat + 1 if seat + 1 < P else 0
        total = _value_of(ws, rem & points)
        lo, hi = _sure_bounds(ws, rem, points, total)
        done, v = _settled(lo, hi, alpha, beta)
        if done:
            return True, v
        todo, most = _holding(ws, rem, P)
        if most == 1:
            # the last trick: one card each, nothing to choose
            g = _group(ws, lowbit_index(rem & ws[W_HAND + seat]))
            w = _winner(ws, rem, g, seat, P)
            return True, total if _is_max(ws, w) else 0
        key, key1, tt_at, lo, hi, hint = _probe(ws, rem, seat, lo, hi)
        done, v = _settled(lo, hi, alpha, beta)
        if done:
            return True, v
        if most == 2:
            return True, _last_two(ws, rem, seat, P, alpha, beta, tt_at, key, key1)
        alpha = max(alpha, lo)
        beta = min(beta, hi)
    hand = rem & ws[W_HAND + seat]
    rest = todo & ~(U1 << np.uint64(seat))
    last = rest == U0
    maxing = _is_max(ws, seat)
    n = _order_moves(ws, d, rem, trick, led, hand, maxing, last, tval, hint)
    f = W_FRAMES + d * FRAME
    ws[f + F_REM] = rem
    ws[f + F_TRICK] = trick
    ws[f + F_LED] = led
    ws[f + F_SEAT] = seat
    ws[f + F_REST] = rest
    ws[f + F_TVAL] = tval
    ws[f + F_A] = _enc(alpha)
    ws[f + F_B] = _enc(beta)
    ws[f + F_ALPHA] = _enc(alpha)
    ws[f + F_BETA] = _enc(beta)
    ws[f + F_BEST] = _enc(-INF if maxing else INF)
    ws[f + F_BEST_C] = 255  # none yet
    ws[f + F_I] = 0
    ws[f + F_N] = n
    ws[f + F_TT] = _enc(tt_at)
    ws[f + F_K0] = key
    ws[f + F_K1] = key1
    ws[f + F_LAST] = 1 if last else 0
    ws[f + F_NSEAT] = seat if last else _next_seat(rest, seat, P)
    ws[f + F_MAX] = 1 if maxing else 0
    return False, 0


@njit(cache=True, **NO_REFCOUNT)
def _search(wsp, rem, trick, led, seat, todo, tval, depth, alpha, beta):
    """The value of a node (see ``_enter``) by alpha-beta over an explicit stack of
    frames from ``depth`` (cards played since the root) down."""
    # the workspace arrives as its address: one word where an array is seven
    ws = view_at(wsp, view_at(wsp, W_SIZE + 1)[W_SIZE])
    d = depth
    while True:
        done, v = _enter(ws, d, rem, trick, led, seat, todo, tval, alpha, beta)
        while done:
            if d == depth:
                return v
            d -= 1  # back to the parent, with its current move's value
            f = W_FRAMES + d * FRAME
            if TWO_DECKS:
                sw = ws[f + F_SWAP]
                if sw:
                    _swap(ws, np.int64(sw) - 1)
            v += _dec(ws[f + F_GAIN])
            best = _dec(ws[f + F_BEST])
            a = _dec(ws[f + F_A])
            b = _dec(ws[f + F_B])
            if ws[f + F_MAX]:
                if v > best:
                    best = v
                    ws[f + F_BEST_C] = ws[f + F_CUR]
                    a = max(a, v)
            elif v < best:
                best = v
                ws[f + F_BEST_C] = ws[f + F_CUR]
                b = min(b, v)
            ws[f + F_BEST] = _enc(best)
            ws[f + F_A] = _enc(a)
            ws[f + F_B] = _enc(b)
            if a >= b or ws[f + F_I] >= ws[f + F_N]:
                tt_at = _dec(ws[f + F_TT])
                if tt_at >= 0:
                    lo = best if best > _dec(ws[f + F_ALPHA]) else 0
                    hi = best if best < _dec(ws[f + F_BETA]) else 255
                    move = np.int64(ws[f + F_BEST_C] & np.uint64(255))
                    _store(ws, tt_at, ws[f + F_K0], ws[f + F_K1], lo, hi, move)
                v = best
            else:
                done = False
        # the frame's next move: its child is the next node to open
        f = W_FRAMES + d * FRAME
        i = ws[f + F_I]
        ws[f + F_I] = i + U1
        c = np.int64(ws[W_MOVES + d * MAX_MOVES + np.int64(i)] & np.uint64(255))
        ws[f + F_CUR] = c
        if TWO_DECKS:  # the lower copy of a face its twin's holder still holds: swap
            ws[f + F_SWAP] = 0
            if (ws[f + F_REM] >> np.uint64(c + 1)) & U1 and _twin(ws, c):
                if ws[W_OWNER + c + 1] != ws[W_OWNER + c]:
                    _swap(ws, c)
                    ws[f + F_SWAP] = c + 1
                c += 1
        bc = U1 << np.uint64(c)
        ctrick = ws[f + F_TRICK]
        rem = ws[f + F_REM] ^ bc
        trick = ctrick | bc
        led = ws[f + F_LED] if ctrick else _group(ws, c)
        tval = np.int64(ws[f + F_TVAL]) + np.int64(ws[W_VALUE + c])
        alpha = _dec(ws[f + F_A])
        beta = _dec(ws[f + F_B])
        seat = np.int64(ws[f + F_NSEAT])
        todo = ws[f + F_REST]
        gain = 0
        if ws[f + F_LAST]:  # the card ends the trick: its winner leads the next
            seat = np.int64(ws[W_OWNER + highbit_index(trick & (_trumps(ws) | led))])
            gain = tval if _is_max(ws, seat) else 0
            trick = U0
            led = U0
            todo = U0
            tval = 0
            alpha -= gain
            beta -= gain
        ws[f + F_GAIN] = _enc(gain)
        d += 1


@njit(inline="always")
def _store(ws, at, key, key1, lo, hi, move):
    """Put bounds in the table, tightening an entry of the same position."""
    stamp = ws[W_STAMP]
    e = ws[at + 2]
    if ws[at] == key and ws[at + 1] == key1 and (e >> np.uint64(32)) == stamp:
        lo = max(lo, np.int64((e >> np.uint64(8)) & np.uint64(255)))
        hi = min(hi, np.int64(e & np.uint64(255)))
        if move < 0 or move == 255:
            move = np.int64((e >> np.uint64(16)) & np.uint64(255))
    ws[at] = key
    ws[at + 1] = key1
    mv = np.uint64(move) & np.uint64(255)
    ws[at + 2] = (
        (stamp << np.uint64(32)) | (mv << np.uint64(16)) | (np.uint64(lo) << np.uint64(8))
    ) | np.uint64(hi)


# ---------------------------------------------------------------- the root
@njit(inline="always")
def _card_bit(c):
    return U1 << np.uint64(c)


@njit(inline="always")
def _plus2(once, twice, m):
    """(once, twice) with one more copy of each face of m; one deck holds none twice."""
    if TWO_DECKS:
        return once | m, twice | (once & m)
    return once | m, twice


@njit(inline="always")
def _planes(pos, at, at2, s):
    """Seat (or side) s's faces in one plane and its second, (at least once, twice):
    the second plane is two decks' only."""
    if TWO_DECKS:
        return np.uint64(pos[at + s]), np.uint64(pos[at2 + s])
    return np.uint64(pos[at + s]), U0


@njit(inline="always")
def _copies(once, twice, c):
    """How many copies of face c the planes (once, twice) hold."""
    return np.int64((once >> np.uint64(c)) & U1) + np.int64((twice >> np.uint64(c)) & U1)


@njit(inline="always")
def _read_rules(pos, rules, ws):
    """The players, the trump suit and the left card (-1: none), and whether these, the
    decks and the follow rule are those the table was filled under."""
    P = rules[L.R_PLAYERS]
    trump = pos[Q.P_TRUMP]
    lrank = rules[L.R_LEFT_RANK]
    left = (trump ^ 1) * 13 + lrank if lrank >= 0 else -1
    decks = np.uint64(2 if TWO_DECKS else 1)
    same = ws[W_STAMP] != U0
    same &= ws[W_PLAYERS] == np.uint64(P) and ws[W_TRUMP] == np.uint64(trump)
    same &= ws[W_DECKS] == decks
    ws[W_DECKS] = decks
    ws[W_PLAYERS] = P
    ws[W_TRUMP] = trump
    strict = np.uint64(1 if rules[L.R_FOLLOW] == L.FOLLOW_STRICT else 0)
    same &= ws[W_STRICT] == strict
    ws[W_STRICT] = strict
    return P, trump, left, same


@njit(inline="always")
def _in_play(pos, P):
    """The faces in play (held, played or in the trick), at least once and twice."""
    in1 = U0
    in2 = U0
    for s in range(P):
        for at, at2 in ((Q.P_HANDS, Q.P_HANDS2), (Q.P_PLAYED, Q.P_PLAYED2)):
            once, twice = _planes(pos, at, at2, s)
            in1, in2 = _plus2(in1, in2, once)
            in1, in2 = _plus2(in1, in2, twice)
        if pos[Q.P_TRICK + s] >= 0:
            in1, in2 = _plus2(in1, in2, _card_bit(pos[Q.P_TRICK + s]))
    return in1, in2


@njit(inline="always")
def _by_strength(ws, rules, trump, left):
    """Each trump strength's face (1..14; -1 as uint64 none), into scratch."""
    for v in range(15):
        ws[W_BY_STRENGTH + v] = ~U0
    for slot in range(14):
        c = left if slot == 13 else trump * 13 + slot
        if c >= 0:
            ws[W_BY_STRENGTH + rules[L.R_TRUMP_STRENGTH + slot]] = c


@njit(inline="always")
def _face_points(ws, rules, trump, left, in1):
    """What a copy of each face scores for its capturer (docs/rules.md §1.13; _point_slots),
    into scratch, High and Low fixed by the faces in play (in1); return the Low face
    (-1: none). Under low_to=player Low scores nothing here (see ``_decided``)."""
    fv = W_FACE_VALUE
    for c in range(52):
        ws[fv + c] = U0
    tmask = (np.uint64(0x1FFF) << np.uint64(13 * trump)) | (_card_bit(left) if left >= 0 else U0)
    trumps_in = in1 & tmask
    low_card = -1
    if trumps_in:
        if rules[L.R_HIGH_RULE] == 0:
            high = trump * 13 + 12
            if (in1 >> np.uint64(high)) & U1:
                ws[fv + high] += np.uint64(rules[L.R_HIGH_POINTS])
        else:
            for v in range(14, 0, -1):
                c = np.int64(ws[W_BY_STRENGTH + v])
                if c >= 0 and (trumps_in >> np.uint64(c)) & U1:
                    ws[fv + c] += np.uint64(rules[L.R_HIGH_POINTS])
                    break
        if rules[L.R_LOW_RULE] == 1:
            if (in1 >> np.uint64(trump * 13)) & U1:
                low_card = trump * 13
        else:
            for v in range(1, 15):
                c = np.int64(ws[W_BY_STRENGTH + v])
                if c >= 0 and (trumps_in >> np.uint64(c)) & U1:
                    low_card = c
                    break
    if low_card >= 0 and rules[L.R_LOW_TO] != 1:
        ws[fv + low_card] += np.uint64(rules[L.R_LOW_POINTS])
    for k in range(rules[L.R_N_RANK_POINTS]):
        c = trump * 13 + rules[L.R_RANK_POINTS + 2 * k]
        if (in1 >> np.uint64(c)) & U1:
            ws[fv + c] += np.uint64(rules[L.R_RANK_POINTS + 2 * k + 1])
    if left >= 0 and (in1 >> np.uint64(left)) & U1:
        ws[fv + left] += np.uint64(rules[L.R_LEFT_POINTS])
    return low_card


@njit(inline="always")
def _face_at(ws, trump, left, g, j):
    """The face in slot j of group g (the plain suits by rank, then the trumps by
    strength), -1 for none."""
    if g < 3:
        suit = g if g < trump else g + 1
        c = suit * 13 + j if j < 13 else -1
        return -1 if c == left else c
    return np.int64(ws[W_BY_STRENGTH + j + 1])


@njit(inline="always")
def _number_faces(ws, trump, left, in1, in2):
    """Number the copies: each face's first bit (``W_TO_SEARCH``, and ``W_NEXT`` for
    ``_hold``), each copy's face and value. One deck: slot j of group g is bit
    16 g + j, every face numbered; two decks: the copies in play packed, a face's
    adjacent, and each group's mask recorded."""
    for i in range(64):
        ws[W_TO_CARD + i] = ~U0
        ws[W_OLD_VALUE + i] = ws[W_VALUE + i]
        ws[W_VALUE + i] = U0
        if TWO_DECKS:
            ws[W_GROUP + i] = U0
    b = 0
    for g in range(4):
        gstart = b
        for j in range(14):
            c = _face_at(ws, trump, left, g, j)
            if c < 0:
                continue
            k = 1
            if TWO_DECKS:
                k = _copies(in1, in2, c)
                if k == 0:
                    continue
            else:
                b = 16 * g + j
            ws[W_TO_SEARCH + c] = b
            ws[W_NEXT + c] = b
            for i in range(b, b + k):
                ws[W_TO_CARD + i] = c
                ws[W_VALUE + i] = ws[W_FACE_VALUE + c]
            b += k
        if TWO_DECKS:
            gm = ((U1 << np.uint64(b)) - U1) ^ ((U1 << np.uint64(gstart)) - U1)
            ws[W_GMASK + g] = gm
            for i in range(gstart, b):
                ws[W_GROUP + i] = gm
            if g == 3:
                ws[W_TRUMPS] = gm
    if TWO_DECKS:
        twins = U0
        for i in range(63):
            if ws[W_TO_CARD + i] != ~U0 and ws[W_TO_CARD + i + 1] == ws[W_TO_CARD + i]:
                twins |= U1 << np.uint64(i)
        ws[W_TWINS] = twins


@njit(inline="always")
def _next_copy(ws, c):
    """The bit of a copy of face c: the face's next free one."""
    i = np.int64(ws[W_NEXT + c])
    ws[W_NEXT + c] = i + 1
    return i


@njit(inline="always")
def _hold(ws, s, m, same):
    """Give seat s a copy of each face of m; return their bits and whether each holder
    is the one the table was filled under."""
    h = U0
    while m:
        c = lowbit_index(m)
        m &= m - U1
        i = _next_copy(ws, c)
        same &= ws[W_OWNER + i] == np.uint64(s)
        ws[W_OWNER + i] = s
        h |= U1 << np.uint64(i)
    return h, same


@njit(inline="always")
def _seat_copies(ws, pos, P, maxer, same):
    """Hand out the copies: the held ones (a face's lowest bits, by seat), then the
    trick's (the first played highest, so the highest bit of a trick wins); the
    copies already played keep the rest. Return the cards held and the trick's."""
    rem = U0
    max_cards = U0
    for s in range(P):
        once, twice = _planes(pos, Q.P_HANDS, Q.P_HANDS2, s)
        h, same = _hold(ws, s, once, same)
        if TWO_DECKS:
            h2, same = _hold(ws, s, twice, same)
            h |= h2
        ws[W_HAND + s] = h
        rem |= h
        if (maxer >> np.uint64(s)) & U1:
            max_cards |= h
    ws[W_MAX_CARDS] = max_cards
    leader = pos[Q.P_LEADER]
    trick = U0
    for k in range(P - 1, -1, -1):
        s = leader + k if leader + k < P else leader + k - P
        c = pos[Q.P_TRICK + s]
        if c >= 0:
            i = _next_copy(ws, c)
            ws[W_OWNER + i] = s
            ws[W_TRICK_BIT + s] = i
            trick |= U1 << np.uint64(i)
    return rem, trick, same


@njit(inline="always")
def _point_sums(ws):
    """The point cards' mask and, for up to MAX_SUMS of them, every subset's value;
    return how many there are and whether every value is the table's."""
    same = True
    points = U0
    for i in range(64):
        if ws[W_VALUE + i]:
            points |= U1 << np.uint64(i)
        same &= ws[W_VALUE + i] == ws[W_OLD_VALUE + i]
    ws[W_POINTS] = points
    npts = popcount(points)
    ws[W_SUMS_OK] = 1 if npts <= MAX_SUMS else 0
    if npts <= MAX_SUMS:
        for j in range(1 << npts):
            ws[W_SUMS + j] = U0
            m = deposit(np.uint64(j), points)
            while m:
                ws[W_SUMS + j] += ws[W_VALUE + lowbit_index(m)]
                m &= m - U1
    return npts, same


@njit(inline="always")
def _decided(ws, pos, rules, P, mteam, maxer, low_card, in1, in2):
    """The points already decided: each copy the maker's side took, and Low's where it
    goes to its holder (low_to=player; ``W_LOW_HELD``: Low's points in play)."""
    decided = 0
    for m in _planes(pos, Q.P_TAKEN, Q.P_TAKEN2, mteam):
        while m:
            decided += np.int64(ws[W_FACE_VALUE + lowbit_index(m)])
            m &= m - U1
    ws[W_LOW_HELD] = 0
    if low_card >= 0 and rules[L.R_LOW_TO] == 1:
        lp = rules[L.R_LOW_POINTS]
        ws[W_LOW_HELD] = lp * _copies(in1, in2, low_card)
        for s in range(P):
            if (maxer >> np.uint64(s)) & U1:
                n = 1 if pos[Q.P_TRICK + s] == low_card else 0
                for at, at2 in ((Q.P_HANDS, Q.P_HANDS2), (Q.P_PLAYED, Q.P_PLAYED2)):
                    once, twice = _planes(pos, at, at2, s)
                    n += _copies(once, twice, low_card)
                decided += n * lp
    return decided


@njit(inline="always")
def _trick_state(ws, pos, P, trick):
    """The trick in progress: the suit led, the seat to play, the seats still to play
    and the value of its cards."""
    leader = pos[Q.P_LEADER]
    led = U0
    tval = 0
    todo = U0
    seat = leader
    if trick:
        led = _group(ws, ws[W_TRICK_BIT + leader])
        first = -1
        for k in range(P):
            s = leader + k if leader + k < P else leader + k - P
            if pos[Q.P_TRICK + s] >= 0:
                tval += np.int64(ws[W_VALUE + ws[W_TRICK_BIT + s]])
            elif ws[W_HAND + s]:
                todo |= U1 << np.uint64(s)
                if first < 0:
                    first = s
        seat = first
    return led, seat, todo, tval


@njit(cache=True, **NO_REFCOUNT)
def _prepare(pos, rules, ws):
    """Read a position into the workspace; return the root's search state
    (rem, trick, led, seat, todo, tval) and the points already decided.

    A new deal gets a new table stamp; a later position of the same deal (same
    holders of the cards still held, same values) keeps the table: with two decks
    the numbering depends only on the cards in play, so it holds there too.
    """
    P, trump, left, same = _read_rules(pos, rules, ws)
    in1, in2 = _in_play(pos, P)
    if TWO_DECKS:
        ws[W_SWAPPED] = U0
        same &= ws[W_IN1] == in1 and ws[W_IN2] == in2
        ws[W_IN1] = in1
        ws[W_IN2] = in2
    mteam = rules[L.R_SEAT_TEAM + pos[Q.P_MAKER]]
    maxer = U0
    for s in range(P):
        if rules[L.R_SEAT_TEAM + s] == mteam:
            maxer |= U1 << np.uint64(s)
    same &= ws[W_MAXER] == maxer
    ws[W_MAXER] = maxer
    _by_strength(ws, rules, trump, left)
    low_card = _face_points(ws, rules, trump, left, in1)
    _number_faces(ws, trump, left, in1, in2)
    rem, trick, same_holders = _seat_copies(ws, pos, P, maxer, True)
    npts, same_values = _point_sums(ws)
    same &= same_values
    if TWO_DECKS:  # the rank-order key's room
        canon = np.uint64(1 if P <= 4 and npts <= 12 else 0)
    else:
        canon = np.uint64(1 if P <= 4 and ws[W_POINTS] & ~TRUMPS == U0 else 0)
    same &= ws[W_CANON] == canon
    # A rank-order key names every holder, so another deal of the same cards in play
    # and values may share the table; a key of the cards themselves may not.
    if TWO_DECKS or canon == U0 or popcount(rem) > CANON_MAX:
        same &= same_holders
    ws[W_CANON] = canon
    if not same:
        ws[W_STAMP] += U1
    decided = _decided(ws, pos, rules, P, mteam, maxer, low_card, in1, in2)
    led, seat, todo, tval = _trick_state(ws, pos, P, trick)
    return rem, trick, led, seat, todo, tval, decided


@njit(cache=True, **NO_REFCOUNT)
def _exact(wsp, rem, trick, led, seat, todo, tval, depth):
    """The exact value of a node by null-window probes (is it at least beta?),
    bisecting 0..the points still out: a probe of a narrow window cuts far more
    than one full-window search, and the table keeps each probe's bounds."""
    ws = view_at(wsp, view_at(wsp, W_SIZE + 1)[W_SIZE])
    lower = 0
    upper = tval + _value_of(ws, rem & ws[W_POINTS])
    while lower < upper:
        beta = (lower + upper + 1) // 2
        g = _search(wsp, rem, trick, led, seat, todo, tval, depth, beta - 1, beta)
        if g < beta:
            upper = g
        else:
            lower = g
    return lower


@njit(cache=True, **NO_REFCOUNT)
def _mtd(wsp, rem, trick, led, seat, todo, tval, depth, guess):
    """The exact value of a node by null-window probes that start at a guess and step
    towards the value (MTD(f)): for the cards of one hand after another, the last
    card's value is a close guess."""
    ws = view_at(wsp, view_at(wsp, W_SIZE + 1)[W_SIZE])
    lower = 0
    upper = tval + _value_of(ws, rem & ws[W_POINTS])
    g = min(max(guess, lower), upper)
    while lower < upper:
        beta = g + 1 if g == lower else g
        g = _search(wsp, rem, trick, led, seat, todo, tval, depth, beta - 1, beta)
        if g < beta:
            upper = g
        else:
            lower = g
    return lower


@njit(cache=True, nogil=True, **NO_REFCOUNT)  # called from Python: Ctrl-C's watcher runs
def solve(pos, rules, ws):
    """The points the maker's side ends the hand with under best play from ``pos``
    (a ``position.P_*`` vector; ``rules`` the ``Rules.to_array`` vector; ``ws`` from
    ``new_workspace``). ``ws[W_NODES]`` counts the nodes searched."""
    rem, trick, led, seat, todo, tval, decided = _prepare(pos, rules, ws)
    return decided + _exact(address(ws), rem, trick, led, seat, todo, tval, np.int64(0))


@njit(cache=True, nogil=True, **NO_REFCOUNT)  # called from Python: Ctrl-C's watcher runs
def at_least(pos, rules, ws, target):
    """Whether ``solve`` would give at least ``target``: one null-window probe, where
    the exact value takes several (a principal line tests each card this way)."""
    rem, trick, led, seat, todo, tval, decided = _prepare(pos, rules, ws)
    t = target - decided
    if t <= 0:
        return True
    if t > tval + _value_of(ws, rem & ws[W_POINTS]):
        return False
    return _search(address(ws), rem, trick, led, seat, todo, tval, np.int64(0), t - 1, t) >= t


@njit(cache=True, nogil=True, **NO_REFCOUNT)  # called from Python: Ctrl-C's watcher runs
def card_values(pos, rules, ws, out):
    """Each legal card's value for the player to move: ``out[card]`` the points the
    maker's side ends the hand with if that card is played and then everyone plays
    best, -1 for the cards that may not be played. Returns the player to move
    (-1 when the hand is over)."""
    return card_values_of(pos, rules, ws, out, ALL_CARDS)


@njit(cache=True, nogil=True, **NO_REFCOUNT)  # called from Python: Ctrl-C's watcher runs
def card_values_of(pos, rules, ws, out, wanted):
    """``card_values`` for the legal cards of the mask ``wanted`` (card numbers) only;
    the others read -1 (a PIMC player that has ruled some cards out asks for the
    rest). The first card is valued by bisection (there is no guess yet), each
    later one by probes from the value of the card before it."""
    for c in range(52):
        out[c] = -1
    rem, trick, led, seat, todo, tval, decided = _prepare(pos, rules, ws)
    wsp = address(ws)
    if rem == U0:
        return -1
    P = np.int64(ws[W_PLAYERS])
    if trick == U0:
        while rem & ws[W_HAND + seat] == U0:
            seat = seat + 1 if seat + 1 < P else 0
        todo = U0
        for s in range(P):
            if rem & ws[W_HAND + s]:
                todo |= U1 << np.uint64(s)
    hand = rem & ws[W_HAND + seat]
    legal = _legal(ws, hand, trick, led)
    rest = todo & ~(U1 << np.uint64(seat))
    last = rest == U0
    nseat = seat if last else _next_seat(rest, seat, P)
    live = rem | trick
    prev = -1
    guess = 0
    first = True
    m = legal
    while m:  # high to low: an equivalent card takes the value of the one above it
        c = highbit_index(m)
        m ^= U1 << np.uint64(c)
        if (wanted >> ws[W_TO_CARD + c]) & U1 == U0:
            prev = -1  # not valued: the card below cannot take its value
            continue
        up = _above(live & _group(ws, c), c)
        if prev >= 0 and up and lowbit_index(up) == prev and ws[W_VALUE + prev] == ws[W_VALUE + c]:
            out[ws[W_TO_CARD + c]] = out[ws[W_TO_CARD + prev]]
            prev = c
            continue
        cc = c  # the bit played: two decks, the twin above when another holds it (_swap)
        swapped = False
        if TWO_DECKS:
            if (rem >> np.uint64(c + 1)) & U1 and _twin(ws, c):
                if ws[W_OWNER + c + 1] != ws[W_OWNER + c]:
                    _swap(ws, c)
                    swapped = True
                cc = c + 1
        bc = U1 << np.uint64(cc)
        nrem = rem ^ bc
        if last:  # the card ends the trick: the value is its winner's gain and the rest
            ntrick = trick | bc
            nled = led if trick else _group(ws, c)
            w = np.int64(ws[W_OWNER + highbit_index(ntrick & (_trumps(ws) | nled))])
            gain = tval + np.int64(ws[W_VALUE + c]) if _is_max(ws, w) else 0
            if first:
                v = gain + _exact(wsp, nrem, U0, U0, w, U0, np.int64(0), np.int64(1))
            else:
                v = gain + _mtd(wsp, nrem, U0, U0, w, U0, np.int64(0), np.int64(1), guess - gain)
        else:
            nled = led if trick else _group(ws, c)
            ntval = tval + np.int64(ws[W_VALUE + c])
            if first:
                v = _exact(wsp, nrem, trick | bc, nled, nseat, rest, ntval, np.int64(1))
            else:
                v = _mtd(wsp, nrem, trick | bc, nled, nseat, rest, ntval, np.int64(1), guess)
        first = False
        if swapped:
            _swap(ws, c)
        out[ws[W_TO_CARD + c]] = decided + v
        guess = v
        prev = c
    return seat


@njit(cache=True, **NO_REFCOUNT)
def points_in_play(ws):
    """Every point the position last read (``solve``, ``card_values``) has in play, taken
    or still out: what the sides' points add up to at the end of its hand."""
    return _value_of(ws, ws[W_POINTS]) + np.int64(ws[W_LOW_HELD])


# ---------------------------------------------------------------- two decks
def _two_deck_search():
    """The search's functions compiled for two decks, calling each other."""
    scope = {**globals()}
    names = (
        "_group _trumps _twin _swap _winner _legal _key _two_tricks _move_score "
        "_sure_bounds _probe _last_two _order_moves _enter _search "
        "_plus2 _planes _read_rules _in_play _number_faces _seat_copies _decided _trick_state "
        "_prepare _exact _mtd solve at_least card_values_of card_values"
    ).split()
    out = {n: with_two_decks(globals()[n], scope) for n in names}
    scope.update(out)
    return out


_TWO = _two_deck_search()
solve2 = _TWO["solve"]  # ``solve`` for two decks (rules with R_DECKS 2)
at_least2 = _TWO["at_least"]  # ``at_least`` for two decks
card_values2 = _TWO["card_values"]  # ``card_values`` for two decks
card_values_of2 = _TWO["card_values_of"]  # ``card_values_of`` for two decks
