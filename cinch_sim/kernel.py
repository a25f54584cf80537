"""The one heavy jitted module: deal, bid, trump, discard/draw/rob, tricks, score.

Rules arrive as the int vector of ``Rules.to_array`` (never as globals, which
numba would freeze into its cache). Policies arrive as tuples of first-class
functions typed by an explicit signature, so the kernel compiles once, is
cached on disk, and takes any user policy without recompiling.

Hands are processed in blocks; each block owns its scratch buffers, and every
hand draws from streams keyed by its global index, so results are bit-identical
for any thread count or chunk size.
"""

import numpy as np
from numba import njit, prange, types

from . import layout as L
from .bits import lowbit_index, popcount
from .rng import below, stream_state
from .signatures import N_PARAMS, N_SCRATCH, POLICY_TYPE

U1 = np.uint64(1)
U0 = np.uint64(0)
SUIT13 = np.uint64((1 << 13) - 1)
BLOCK = 256  # hands per block of work

POLICIES = types.UniTuple(POLICY_TYPE, L.MAX_PLAYERS)


@njit(inline="always")
def _bit(c):
    return U1 << np.uint64(c)


@njit(inline="always")
def _suit_mask(s):
    return SUIT13 << np.uint64(13 * s)


@njit(inline="always")
def _team(rules, seat):
    if rules[L.R_PARTNERSHIPS] == 1:
        return seat % rules[L.R_TEAMS]
    return seat


@njit(inline="always")
def _trump_strength(rules, c, left):
    if c == left:
        return rules[L.R_TRUMP_STRENGTH + 13]
    return rules[L.R_TRUMP_STRENGTH + c % 13]


@njit(inline="always")
def _fail(out, kind, seat, value):
    out[L.H_ERROR] = L.ERR_ILLEGAL
    out[L.H_ERROR_KIND] = kind
    out[L.H_ERROR_SEAT] = seat
    out[L.H_ERROR_VALUE] = value


@njit(inline="always")
def _trump_features(dealt, trump, left, tmask):
    """(trumps held, pedro bits, A K Q J T bits) of a dealt hand."""
    ntr = popcount(dealt & tmask)
    ped = 0
    if (dealt >> np.uint64(trump * 13 + 3)) & U1:
        ped |= 1
    if left >= 0 and (dealt >> np.uint64(left)) & U1:
        ped |= 2
    hi = 0
    for k in range(5):  # T J Q K A = ranks 8..12 -> bits 0..4
        if (dealt >> np.uint64(trump * 13 + 8 + k)) & U1:
            hi |= 1 << k
    return ntr, ped, hi


@njit(inline="always")
def _discard_ok(rules, hand, keep, legal, tmask, min_keep, hs):
    """Whether a drawer's keep mask obeys RULES.md §1.6 and the §2 options."""
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
def _point_trumps(rules, trump, left):
    """Mask of trumps that may not go as excess under excess_trump_discard=non_point_only."""
    m = _bit(trump * 13 + 12) | _bit(trump * 13)  # A and 2
    for i in range(rules[L.R_N_RANK_POINTS]):
        m |= _bit(trump * 13 + rules[L.R_RANK_POINTS + 2 * i])
    if left >= 0:
        m |= _bit(left)
    return m


@njit
def play_hand(
    rules,
    setup,
    seed,
    hidx,
    dealer,
    bid_pols,
    trump_pols,
    discard_pols,
    play_pols,
    params,
    obs,
    scratch,
    rngs,
    deck,
    hands,
    work,
    scores,
    hand_in_game,
    out,
    trace,
    want_trace,
):
    """Play one hand from the deal to the score; write its result row (and trace)."""
    P = rules[L.R_PLAYERS]
    D = rules[L.R_CARDS_DEALT]
    HS = rules[L.R_HAND_SIZE]
    T = rules[L.R_TEAMS]
    out[:] = 0
    for s in range(L.MAX_PLAYERS):
        out[L.H_BIDS + s] = -2
    for k in range(L.N_POINT_SLOTS):
        out[L.H_SLOT_TEAM + k] = -1
        out[L.H_SLOT_TRICK + k] = -1
        out[L.H_SLOT_HOLDER + k] = -1
        out[L.H_SLOT_PLAYER + k] = -1
    out[L.H_DEALER] = dealer
    if want_trace:
        trace[:] = -1
        trace[L.T_N_BIDS] = 0
        trace[L.T_N_TRICKS] = 0
        trace[L.T_ROBBER_DISCARD] = 0
        for s in range(L.MAX_PLAYERS):
            trace[L.T_DISCARD + s] = 0

    # ---- observation and per-seat state
    obs[:] = 0
    obs[L.O_DEALER] = dealer
    obs[L.O_PLAYERS] = P
    obs[L.O_HAND_SIZE] = HS
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
    obs[L.O_HAND_INDEX] = hand_in_game
    obs[L.O_MUST_DISCARD] = rules[L.R_MUST_DISCARD]
    for s in range(L.MAX_PLAYERS):
        obs[L.O_BIDS + s] = L.BID_NOT_YET
        obs[L.O_TRICK_CARDS + s] = -1
    for t in range(T):
        obs[L.O_SCORE + t] = scores[t]
    scratch[:, :] = 0
    for s in range(P):
        rngs[s] = stream_state(seed, hidx, 1 + s)

    # ---- deal: shuffle the cards not fixed to a seat, deal in packets of three
    fixed_all = U0
    for s in range(P):
        fixed_all |= np.uint64(setup[L.S_FIXED + s])
    n = 0
    for c in range(52):
        if not (fixed_all >> np.uint64(c)) & U1:
            deck[n] = c
            n += 1
    if setup[L.S_DECK_GIVEN] == 1:
        n = 52
        for i in range(52):
            deck[i] = setup[L.S_DECK + i]
    else:
        st = rngs[L.MAX_PLAYERS : L.MAX_PLAYERS + 1]  # the deal's own stream
        st[0] = stream_state(seed, hidx, 0)
        for i in range(n - 1, 0, -1):
            j = below(st, i + 1)
            tmp = deck[i]
            deck[i] = deck[j]
            deck[j] = tmp
    pos = 0
    dpos = 0
    for s in range(P):
        hands[s] = U0
        work[s] = np.uint64(setup[L.S_FIXED + s])  # fixed cards still to place
    for _r in range(D // 3):
        for j in range(P):
            s = (dealer + 1 + j) % P
            for _k in range(3):
                if work[s]:
                    c = lowbit_index(work[s])
                    work[s] &= work[s] - U1
                else:
                    c = deck[pos]
                    pos += 1
                hands[s] |= _bit(c)
                if want_trace:
                    trace[L.T_DECK + dpos] = c
                dpos += 1
    stock0 = pos  # deck[stock0:n] is the stock, top first
    n_stock = n - stock0
    if want_trace:
        for i in range(n_stock):
            trace[L.T_DECK + dpos + i] = deck[stock0 + i]
    for s in range(P):
        work[L.MAX_PLAYERS + s] = hands[s]  # dealt hands, kept for features

    # ---- bidding
    eldest = (dealer + 1) % P
    bid_min = rules[L.R_BID_MIN]
    bid_max = rules[L.R_BID_MAX]
    high = 0
    high_bidder = -1
    n_req = setup[L.S_N_REQUIRED]
    force_maker = setup[L.S_FORCE_MAKER]
    nb = 0
    if force_maker < 0 or n_req > 0:
        rounds = rules[L.R_BID_ROUNDS]
        active = np.ones(L.MAX_PLAYERS, np.bool_)
        n_active = P
        turn = 0
        obs[L.O_PHASE] = L.PHASE_BID
        while True:
            if rounds > 0 and turn >= rounds * P:
                break
            s = (eldest + turn) % P
            turn += 1
            if not active[s]:
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
                and n_active == 1
                and rules[L.R_ALL_PASS] == L.ALL_PASS_FORCED_MIN
            ):
                legal = _bit(bid_min)
                forced = 1
            else:
                for b in range(max(bid_min, high + 1), bid_max + 1):
                    legal |= _bit(b)
            obs[L.O_SEAT] = s
            obs[L.O_FORCED] = forced
            if legal == U1 and forced == 0:
                b = 0
            elif forced == 1:
                b = bid_min
            else:
                b = bid_pols[s](obs, hands[s], legal, params[0, s], scratch[s], rngs[s : s + 1])
                if b < 0 or b > 62 or not (legal >> np.uint64(b)) & U1:
                    _fail(out, L.KIND_BID, s, b)
                    return
            if nb < L.MAX_BIDS and want_trace:
                trace[L.T_BIDS + 2 * nb] = s
                trace[L.T_BIDS + 2 * nb + 1] = b if b > 0 else -1
            if nb < n_req:
                want = setup[L.S_REQUIRED + nb]
                got = b if b > 0 else L.BID_PASS
                if want != got:
                    out[L.H_REJECTED] = 1
                    return
            nb += 1
            out[L.H_BIDS + s] = b if b > 0 else -1
            if b > 0:
                high = b
                high_bidder = s
                obs[L.O_BIDS + s] = b
                obs[L.O_HIGH_BID] = b
                obs[L.O_HIGH_BIDDER] = s
            else:
                obs[L.O_BIDS + s] = L.BID_PASS
                active[s] = False
                n_active -= 1
                if n_active == 0:
                    break
        obs[L.O_FORCED] = 0
    if want_trace:
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
        return
    out[L.H_MAKER] = maker
    out[L.H_BID] = bid
    obs[L.O_MAKER] = maker
    obs[L.O_BID] = bid

    # ---- trump
    trump = setup[L.S_FORCE_TRUMP]
    if trump < 0:
        obs[L.O_PHASE] = L.PHASE_TRUMP
        obs[L.O_SEAT] = maker
        trump = trump_pols[maker](
            obs, hands[maker], np.uint64(15), params[1, maker], scratch[maker],
            rngs[maker : maker + 1],
        )
        if trump < 0 or trump > 3:
            _fail(out, L.KIND_TRUMP, maker, trump)
            return
    out[L.H_TRUMP] = trump
    left = -1
    if rules[L.R_LEFT_RANK] >= 0:
        left = (trump ^ 1) * 13 + rules[L.R_LEFT_RANK]
    tmask = _suit_mask(trump)
    if left >= 0:
        tmask |= _bit(left)
    obs[L.O_TRUMP] = trump
    obs[L.O_TRUMP_MASK] = np.int64(tmask)
    obs[L.O_LEFT_CARD] = left

    # ---- discard, draw, rob
    dead_up = U0
    top = stock0
    if rules[L.R_DRAW] == 1:
        rob_rule = rules[L.R_ROBBER]
        robber = -1
        if rob_rule == L.ROBBER_MAKER:
            robber = maker
        elif rob_rule == L.ROBBER_DEALER:
            robber = dealer
        obs[L.O_ROBBER] = robber
        obs[L.O_STOCK_LEFT] = n_stock
        shortage = rules[L.R_SHORTAGE]
        nonpoint_only = rules[L.R_EXCESS_TRUMP] == 1
        protected = _point_trumps(rules, trump, left) if nonpoint_only else U0
        requested = 0
        need = np.zeros(L.MAX_PLAYERS, np.int64)
        for j in range(P):
            s = (eldest + j) % P
            if s == robber:
                continue
            h = hands[s]
            ntr = popcount(h & tmask)
            legal = h & ~tmask
            if ntr > HS:
                legal |= h & tmask & ~protected
            min_keep = 0
            if shortage == L.SHORT_LIMIT_DISCARDS:
                min_keep = max(0, HS - (n_stock - requested))
            obs[L.O_PHASE] = L.PHASE_DISCARD
            obs[L.O_SEAT] = s
            obs[L.O_MIN_KEEP] = min_keep
            obs[L.O_MAX_KEEP] = HS
            keep = np.uint64(
                discard_pols[s](obs, h, legal, params[2, s], scratch[s], rngs[s : s + 1])
            )
            if not _discard_ok(rules, h, keep, legal, tmask, min_keep, HS):
                _fail(out, L.KIND_DISCARD, s, np.int64(keep))
                return
            disc = h & ~keep
            hands[s] = keep
            dead_up |= disc & tmask
            obs[L.O_DISCARDED + s] = popcount(disc)
            obs[L.O_DEAD_UP] = np.int64(dead_up)
            need[s] = HS - popcount(keep)
            requested += need[s]
            if want_trace:
                trace[L.T_DISCARD + s] = np.int64(disc)
        short = requested > n_stock
        if short:
            out[L.H_SHORTAGE] = 1
        if short and shortage == L.SHORT_ROUND_ROBIN:
            while top < n:
                for j in range(P):
                    s = (eldest + j) % P
                    if s == robber or need[s] == 0 or top >= n:
                        continue
                    c = deck[top]
                    hands[s] |= _bit(c)
                    need[s] -= 1
                    obs[L.O_DRAWN + s] += 1
                    if want_trace:
                        trace[L.T_DRAW_SEAT + top - stock0 + P * D] = s
                    top += 1
        else:
            for j in range(P):
                s = (eldest + j) % P
                if s == robber:
                    continue
                while need[s] > 0 and top < n:
                    c = deck[top]
                    hands[s] |= _bit(c)
                    need[s] -= 1
                    obs[L.O_DRAWN + s] += 1
                    if want_trace:
                        trace[L.T_DRAW_SEAT + top - stock0 + P * D] = s
                    top += 1
        obs[L.O_STOCK_LEFT] = n - top
        if robber >= 0:
            cand = hands[robber]
            for i in range(top, n):
                cand |= _bit(deck[i])
                if want_trace:
                    trace[L.T_DRAW_SEAT + i - stock0 + P * D] = robber
            obs[L.O_DRAWN + robber] = n - top
            top = n
            obs[L.O_STOCK_LEFT] = 0
            keep = cand
            if popcount(cand) > HS:
                must_tr = min(HS, popcount(cand & tmask))
                obs[L.O_PHASE] = L.PHASE_ROB
                obs[L.O_SEAT] = robber
                obs[L.O_MIN_KEEP] = HS
                obs[L.O_MAX_KEEP] = HS
                keep = np.uint64(
                    discard_pols[robber](
                        obs, cand, cand, params[2, robber], scratch[robber],
                        rngs[robber : robber + 1],
                    )
                )
                if (
                    keep & ~cand
                    or popcount(keep) != HS
                    or popcount(keep & tmask) != must_tr
                ):
                    _fail(out, L.KIND_DISCARD, robber, np.int64(keep))
                    return
            rdisc = cand & ~keep
            hands[robber] = keep
            dead_up |= rdisc & tmask
            obs[L.O_DEAD_UP] = np.int64(dead_up)
            if want_trace:
                trace[L.T_ROBBER] = robber
                trace[L.T_ROBBER_DISCARD] = np.int64(rdisc)
        elif want_trace:
            trace[L.T_ROBBER] = -1

    # ---- features of the maker's side (what a player knows before bidding)
    in_play = U0
    for s in range(P):
        in_play |= hands[s]
        work[2 * L.MAX_PLAYERS + s] = hands[s]  # hands after the draw
        obs[L.O_CARDS_LEFT + s] = popcount(hands[s])
    ntr, ped, hi = _trump_features(work[L.MAX_PLAYERS + maker], trump, left, tmask)
    out[L.H_MAKER_TRUMPS9] = ntr
    out[L.H_MAKER_PEDROS9] = ped
    out[L.H_MAKER_HIGH9] = hi
    out[L.H_MAKER_TRUMPS6] = popcount(hands[maker] & tmask)
    if rules[L.R_PARTNERSHIPS] == 1 and P % 2 == 0:
        partner = (maker + P // 2) % P if P == 4 else (maker + 2) % P
        ntr, ped, hi = _trump_features(work[L.MAX_PLAYERS + partner], trump, left, tmask)
        out[L.H_PARTNER_TRUMPS9] = ntr
        out[L.H_PARTNER_PEDROS9] = ped

    # ---- tricks
    follow_strict = rules[L.R_FOLLOW] == L.FOLLOW_STRICT
    leader = maker
    n_tricks = 0
    obs[L.O_PHASE] = L.PHASE_PLAY
    tricks = np.zeros(L.MAX_TRICKS, np.uint64)
    winners = np.zeros(L.MAX_TRICKS, np.int64)
    played_by = np.zeros(L.MAX_PLAYERS, np.uint64)
    while in_play & ~np.uint64(obs[L.O_PLAYED]):
        while hands[leader] == U0:
            leader = (leader + 1) % P
        obs[L.O_TRICK] = n_tricks
        obs[L.O_LEADER] = leader
        obs[L.O_TRICK_COUNT] = 0
        obs[L.O_WIN_SEAT] = -1
        obs[L.O_WIN_CARD] = -1
        obs[L.O_LED_CARD] = -1
        obs[L.O_TRICK_MASK] = 0
        for k in range(L.MAX_PLAYERS):
            obs[L.O_TRICK_CARDS + k] = -1
        trick = U0
        win_seat = -1
        win_str = -1
        led_trump = False
        follow = U0
        if want_trace:
            trace[L.T_LEADER + n_tricks] = leader
        for k in range(P):
            s = (leader + k) % P
            h = hands[s]
            if h == U0:
                continue
            if k == 0:
                legal = h
            elif led_trump:
                legal = h & tmask
                if legal == U0:
                    legal = h
            else:
                legal = h & follow
                if legal == U0:
                    legal = h
                elif not follow_strict:
                    legal |= h & tmask
            if legal & (legal - U1):
                obs[L.O_SEAT] = s
                c = play_pols[s](obs, h, legal, params[3, s], scratch[s], rngs[s : s + 1])
                if c < 0 or c > 51 or not (legal >> np.uint64(c)) & U1:
                    _fail(out, L.KIND_PLAY, s, c)
                    return
            else:
                c = lowbit_index(legal)
            b = _bit(c)
            hands[s] = h ^ b
            trick |= b
            played_by[s] |= b
            is_trump = (tmask & b) != U0
            if k == 0:
                led_trump = is_trump
                follow = _suit_mask(c // 13) & ~tmask
                obs[L.O_LED_CARD] = c
            if is_trump:
                strength = 100 + _trump_strength(rules, c, left)
            elif follow & b:
                strength = c % 13
            else:
                strength = -1
            if strength > win_str:
                win_str = strength
                win_seat = s
                obs[L.O_WIN_SEAT] = s
                obs[L.O_WIN_CARD] = c
            obs[L.O_TRICK_CARDS + k] = c
            obs[L.O_TRICK_COUNT] += 1
            obs[L.O_TRICK_MASK] = np.int64(trick)
            obs[L.O_PLAYED] = np.int64(np.uint64(obs[L.O_PLAYED]) | b)
            obs[L.O_PLAYED_BY + s] = np.int64(played_by[s])
            obs[L.O_CARDS_LEFT + s] -= 1
            if want_trace:
                trace[L.T_PLAYS + n_tricks * L.MAX_PLAYERS + k] = c
        tricks[n_tricks] = trick
        winners[n_tricks] = win_seat
        if want_trace:
            trace[L.T_WINNER + n_tricks] = win_seat
        # public running count of the fixed point cards taken (High only under ace_only)
        wt = _team(rules, win_seat)
        for i in range(rules[L.R_N_RANK_POINTS]):
            if (trick >> np.uint64(trump * 13 + rules[L.R_RANK_POINTS + 2 * i])) & U1:
                obs[L.O_POINTS_TAKEN + wt] += rules[L.R_RANK_POINTS + 2 * i + 1]
        if left >= 0 and (trick >> np.uint64(left)) & U1:
            obs[L.O_POINTS_TAKEN + wt] += rules[L.R_LEFT_POINTS]
        if rules[L.R_HIGH_RULE] == 0 and (trick >> np.uint64(trump * 13 + 12)) & U1:
            obs[L.O_POINTS_TAKEN + wt] += rules[L.R_HIGH_POINTS]
        leader = win_seat
        n_tricks += 1
    out[L.H_N_TRICKS] = n_tricks
    if want_trace:
        trace[L.T_N_TRICKS] = n_tricks

    # ---- points: each point slot to the side capturing (or playing) its card
    points = np.zeros(L.MAX_TEAMS, np.int64)
    trumps_in = in_play & tmask
    for slot in range(L.N_POINT_SLOTS):
        c = -1
        value = 0
        if slot == L.SLOT_HIGH:
            value = rules[L.R_HIGH_POINTS]
            if rules[L.R_HIGH_RULE] == 0:
                if (trumps_in >> np.uint64(trump * 13 + 12)) & U1:
                    c = trump * 13 + 12
            else:
                best = -1
                m = trumps_in
                while m:
                    x = lowbit_index(m)
                    m &= m - U1
                    sx = _trump_strength(rules, x, left)
                    if sx > best:
                        best = sx
                        c = x
        elif slot == L.SLOT_LOW:
            value = rules[L.R_LOW_POINTS]
            if rules[L.R_LOW_RULE] == 1:
                if (trumps_in >> np.uint64(trump * 13)) & U1:
                    c = trump * 13
            else:
                best = 1000
                m = trumps_in
                while m:
                    x = lowbit_index(m)
                    m &= m - U1
                    sx = _trump_strength(rules, x, left)
                    if sx < best:
                        best = sx
                        c = x
        elif slot == L.SLOT_LEFT:
            if left >= 0 and (in_play >> np.uint64(left)) & U1:
                c = left
                value = rules[L.R_LEFT_POINTS]
        else:
            i = slot - L.SLOT_RANK0
            if i < rules[L.R_N_RANK_POINTS]:
                x = trump * 13 + rules[L.R_RANK_POINTS + 2 * i]
                if (in_play >> np.uint64(x)) & U1:
                    c = x
                    value = rules[L.R_RANK_POINTS + 2 * i + 1]
        if c < 0:
            continue
        b = _bit(c)
        t = 0
        while not tricks[t] & b:
            t += 1
        player = 0
        while not played_by[player] & b:
            player += 1
        holder = 0
        while not work[2 * L.MAX_PLAYERS + holder] & b:
            holder += 1
        team = _team(rules, winners[t])
        if slot == L.SLOT_LOW and rules[L.R_LOW_TO] == 1:
            team = _team(rules, player)
        out[L.H_SLOT_TEAM + slot] = team
        out[L.H_SLOT_TRICK + slot] = t
        out[L.H_SLOT_HOLDER + slot] = holder
        out[L.H_SLOT_PLAYER + slot] = player
        points[team] += value

    # ---- made or set, score change
    mteam = _team(rules, maker)
    made = points[mteam] >= bid
    out[L.H_MADE] = 1 if made else 0
    for t in range(T):
        out[L.H_POINTS + t] = points[t]
        if t == mteam:
            if made:
                out[L.H_SCORE + t] = points[t]
            elif rules[L.R_SCORING] == 0:
                out[L.H_SCORE + t] = -bid
            else:
                out[L.H_SCORE + t] = 0
        else:
            extra = bid if (not made and rules[L.R_SCORING] == 1) else 0
            out[L.H_SCORE + t] = points[t] + extra


SIMULATE_SIG = types.void(
    types.int64[::1],  # rules
    types.int64[::1],  # setup
    types.uint64,  # seed
    types.int64,  # hand offset (global index of row 0)
    types.int64,  # number of hands
    POLICIES,
    POLICIES,
    POLICIES,
    POLICIES,
    types.float64[:, :, ::1],  # params[kind, seat, :]
    types.int32[:, ::1],  # out[hand, H_*]
    types.int64[:, ::1],  # trace[hand, T_*] (0 rows: no trace)
)


@njit(SIMULATE_SIG, cache=True, parallel=True, nogil=True)
def simulate_hands(
    rules, setup, seed, offset, n_hands, bid_p, trump_p, disc_p, play_p, params, out, trace
):
    """Play ``n_hands`` independent hands with global indices offset..offset+n-1."""
    want_trace = trace.shape[0] > 0
    n_blocks = (n_hands + BLOCK - 1) // BLOCK
    dealer = setup[L.S_DEALER]
    for blk in prange(n_blocks):
        obs = np.zeros(L.OBS_LEN, np.int64)
        scratch = np.zeros((L.MAX_PLAYERS, N_SCRATCH), np.int64)
        rngs = np.zeros(L.MAX_PLAYERS + 1, np.uint64)
        deck = np.zeros(52, np.int64)
        hands = np.zeros(L.MAX_PLAYERS, np.uint64)
        work = np.zeros(3 * L.MAX_PLAYERS, np.uint64)
        scores = np.zeros(L.MAX_TEAMS, np.int64)
        dummy = np.zeros(L.T_LEN, np.int64)
        lo = blk * BLOCK
        hi = min(n_hands, lo + BLOCK)
        for i in range(lo, hi):
            tr = trace[i] if want_trace else dummy
            play_hand(
                rules, setup, seed, offset + i, dealer, bid_p, trump_p, disc_p, play_p,
                params, obs, scratch, rngs, deck, hands, work, scores, 0, out[i], tr,
                want_trace,
            )


assert N_PARAMS > 0
