"""Moving through a position: who is to play, which cards he may play, playing one.

Jitted, on the ``position.P_*`` vector and the rules vector, in the package's card
numbers (the search has its own numbering; these are for its callers: replaying
a record's plays, stepping a sampled deal in a PIMC player). Two decks
(docs/rules.md §3.4) are the same code: a copy leaves the hand's two planes, each copy
played is filed in the played and taken planes, and of two identical cards in
a trick the one played first wins (a later card must be strictly stronger).
"""

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import bit, suit_mask
from cinch_sim.jit.memory import NO_REFCOUNT
from cinch_sim.solver import position as Q

U0 = np.uint64(0)
U1 = np.uint64(1)


@njit(inline="always")
def _left(rules, trump):
    return (trump ^ 1) * 13 + rules[L.R_LEFT_RANK] if rules[L.R_LEFT_RANK] >= 0 else -1


@njit(inline="always")
def _trumps(rules, trump):
    left = _left(rules, trump)
    return suit_mask(trump) | (bit(left) if left >= 0 else U0)


@njit(inline="always")
def _plus(pos, at, at2, b):
    """One more copy of the faces of mask b (none held twice) in planes at, at2."""
    once = pos[at]
    pos[at2] |= once & b
    pos[at] = once | b


@njit(cache=True, **NO_REFCOUNT)
def to_move(pos, rules):
    """The seat to play: the next seat in turn in the trick in progress, or the
    leader (the next seat clockwise with cards, docs/rules.md §1.9); -1 when every card
    has been played."""
    P = rules[L.R_PLAYERS]
    leader = pos[Q.P_LEADER]
    if pos[Q.P_TRICK + leader] < 0:
        for k in range(P):
            s = leader + k if leader + k < P else leader + k - P
            if pos[Q.P_HANDS + s]:
                return s
        return -1
    for k in range(1, P):
        s = leader + k if leader + k < P else leader + k - P
        if pos[Q.P_TRICK + s] < 0 and pos[Q.P_HANDS + s]:
            return s
    return -1


@njit(cache=True, **NO_REFCOUNT)
def legal_mask(pos, rules):
    """The cards the seat to move may play (docs/rules.md §1.11, ``follow_rule``), as a mask."""
    seat = to_move(pos, rules)
    if seat < 0:
        return U0
    hand = np.uint64(pos[Q.P_HANDS + seat])
    leader = pos[Q.P_LEADER]
    led = pos[Q.P_TRICK + leader]
    if led < 0:
        return hand
    trump = pos[Q.P_TRUMP]
    tm = _trumps(rules, trump)
    led_trump = (tm >> np.uint64(led)) & U1 != U0
    follow = tm if led_trump else suit_mask(led // 13) & ~tm
    if hand & follow == U0:
        return hand
    if led_trump or rules[L.R_FOLLOW] == L.FOLLOW_STRICT:
        return hand & follow
    return hand & (follow | tm)


@njit(cache=True, **NO_REFCOUNT)
def trick_winner(pos, rules):
    """The seat whose card wins the trick in progress so far (-1 before the lead):
    the highest trump in the rules' order, else the highest card of the suit led."""
    P = rules[L.R_PLAYERS]
    leader = pos[Q.P_LEADER]
    led = pos[Q.P_TRICK + leader]
    if led < 0:
        return -1
    trump = pos[Q.P_TRUMP]
    left = _left(rules, trump)
    tm = _trumps(rules, trump)
    led_suit = -1 if (tm >> np.uint64(led)) & U1 else led // 13
    best = -2
    win = -1
    for k in range(P):
        s = leader + k if leader + k < P else leader + k - P
        c = pos[Q.P_TRICK + s]
        if c < 0:
            continue
        if (tm >> np.uint64(c)) & U1:
            slot = 13 if c == left else c % 13
            v = 100 + rules[L.R_TRUMP_STRENGTH + slot]
        elif c // 13 == led_suit:
            v = c % 13
        else:
            v = -1
        if v > best:
            best = v
            win = s
    return win


@njit(cache=True, **NO_REFCOUNT)
def play(pos, rules, c):
    """Play card c for the seat to move, in place; a full trick goes to its winner's
    side, who leads next. False (and nothing changes) when c is not legal."""
    if c < 0 or c > 51 or not (legal_mask(pos, rules) >> np.uint64(c)) & U1:
        return False
    seat = to_move(pos, rules)
    if pos[Q.P_TRICK + pos[Q.P_LEADER]] < 0:
        pos[Q.P_LEADER] = seat
    b = np.int64(1) << c
    if pos[Q.P_HANDS2 + seat] & b:  # two decks: the second copy stays
        pos[Q.P_HANDS2 + seat] &= ~b
    else:
        pos[Q.P_HANDS + seat] &= ~b
    pos[Q.P_TRICK + seat] = c
    if to_move(pos, rules) >= 0:
        return True  # a seat after this one still plays to the trick
    w = trick_winner(pos, rules)
    team = rules[L.R_SEAT_TEAM + w]
    P = rules[L.R_PLAYERS]
    for s in range(P):
        x = pos[Q.P_TRICK + s]
        if x >= 0:
            b = np.int64(1) << x
            _plus(pos, Q.P_PLAYED + s, Q.P_PLAYED2 + s, b)
            _plus(pos, Q.P_TAKEN + team, Q.P_TAKEN2 + team, b)
            pos[Q.P_TRICK + s] = -1
    pos[Q.P_LEADER] = w
    return True


@njit(cache=True, **NO_REFCOUNT)
def from_observation(obs, hand, pos, hand2=U0):
    """Fill ``pos`` from a play-phase observation (``layout.O_*``) and the player's own
    cards: the trump, the maker, the trick in progress, each seat's played cards.
    The other seats' hands are left empty for the caller to deal (a sample of the
    cards it cannot see, ``O_CARDS_LEFT`` of them each). Each side's taken cards
    come from ``O_TAKEN``, so values count the points already decided. With two
    decks the second planes come from ``O_PLAYED_BY2`` and ``O_TAKEN2`` and
    ``hand2`` (``O_HAND2``: the player's faces held twice); 0 with one deck."""
    P = obs[L.O_PLAYERS]
    leader = obs[L.O_LEADER]
    pos[Q.P_TRUMP] = obs[L.O_TRUMP]
    pos[Q.P_MAKER] = obs[L.O_MAKER]
    pos[Q.P_LEADER] = leader
    two = obs[L.O_RULES + L.R_DECKS] == 2
    for s in range(L.MAX_PLAYERS):
        pos[Q.P_HANDS + s] = 0
        pos[Q.P_TRICK + s] = -1
        pos[Q.P_PLAYED + s] = 0
        pos[Q.P_HANDS2 + s] = 0
        pos[Q.P_PLAYED2 + s] = 0
    for t in range(L.MAX_TEAMS):
        pos[Q.P_TAKEN + t] = obs[L.O_TAKEN + t]
        pos[Q.P_TAKEN2 + t] = obs[L.O_TAKEN2 + t] if two else 0
    trick = np.int64(0)
    for k in range(P):  # the k-th card of the trick is the k-th seat's from the leader
        c = obs[L.O_TRICK_CARDS + k]
        if c >= 0:
            pos[Q.P_TRICK + (leader + k) % P] = c
            trick |= np.int64(1) << c
    for s in range(P):
        c = pos[Q.P_TRICK + s]
        once = obs[L.O_PLAYED_BY + s]
        twice = obs[L.O_PLAYED_BY2 + s] if two else np.int64(0)
        if c >= 0:  # its trick card is not in a completed trick: one copy less
            b = np.int64(1) << c
            if twice & b:
                twice &= ~b
            else:
                once &= ~b
        pos[Q.P_PLAYED + s] = once
        pos[Q.P_PLAYED2 + s] = twice
    pos[Q.P_HANDS + obs[L.O_SEAT]] = np.int64(hand)
    pos[Q.P_HANDS2 + obs[L.O_SEAT]] = np.int64(hand2)
