"""A play policy that checks the PIMC player's deals of the unseen cards (loaded as
"tests/pimc_check_policy.py:check_deals"), then plays as PIMC does.

At every decision it deals the unseen cards 16 times (``pimc.deal_unseen``) and
checks each deal against what the observation says, worked out here on its
own: every other seat gets exactly its cards left; no card the player has seen
(his hand, the cards played, the face-up dead cards, his own discards) and no
card twice; no card of a suit a seat has shown void in (unless the voids had to
be dropped, level 2); no drawer holding more non-trumps than he drew, less the
non-trumps he has shown (at level 0, with trumps the only cards kept, in a
game with a draw); and,
where the stock is empty (in a game with a draw), every unseen trump in a hand. On the first failed
check it returns 100 + the check's number, an illegal card the kernel reports.

With two decks (``deal_unseen2``) the same checks count copies: each seat gets
its cards left counting both planes (8), no face more often than the copies the
player has not seen (9: two, less his hand's, the played ones, one for a face-up
dead card or his own discard), the second plane within the first (10), and the
voids and the drawn-card bound as above, per copy.
"""

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import lowbit_index, popcount
from cinch_sim.policies.pimc import (
    deal_unseen,
    deal_unseen2,
    enumerate_deals,
    pimc_play,
    pimc_values,
)
from cinch_sim.signatures import POLICY_SIG
from cinch_sim.solver import position as Q
from cinch_sim.solver.moves import from_observation

ALL = np.uint64((1 << 52) - 1)


@njit(cache=True)
def _suit_cards(suit, tm):
    return np.uint64(0x1FFF << (13 * suit)) & ~tm


@njit(cache=True)
def _check(obs, hand, pos, level):
    P = obs[L.O_PLAYERS]
    me = obs[L.O_SEAT]
    tm = np.uint64(obs[L.O_TRUMP_MASK])
    seen = hand | np.uint64(obs[L.O_PLAYED] | obs[L.O_DEAD_UP] | obs[L.O_KNOWN_OUT])
    dealt = np.uint64(0)
    for s in range(P):
        if s == me:
            continue
        h = np.uint64(pos[Q.P_HANDS + s])
        if popcount(h) != obs[L.O_CARDS_LEFT + s]:
            return 1
        if h & seen:
            return 2
        if h & dealt:
            return 3
        dealt |= h
        v = obs[L.O_VOIDS + s]
        if level < 2:
            for x in range(4):
                if (v >> x) & 1 and h & _suit_cards(x, tm):
                    return 4
            if (v >> L.VOID_TRUMP) & 1 and h & tm:
                return 5
        if level == 0 and obs[L.O_RULES + L.R_DRAW] == 1 and s != obs[L.O_ROBBER]:
            shown = popcount(np.uint64(obs[L.O_PLAYED_BY + s]) & ~tm)
            if popcount(h & ~tm) + shown > obs[L.O_DRAWN + s]:
                return 6
    # without a draw the dead cards hide trumps; a stock drawn out or widows never do
    draw = obs[L.O_RULES + L.R_DRAW] != L.DRAW_NONE
    if draw and obs[L.O_STOCK_LEFT] == 0 and level < 3 and (ALL & ~seen & tm) & ~dealt:
        return 7
    return 0


@njit(cache=True)
def _copies(mask, c):
    return np.int64((np.uint64(mask) >> np.uint64(c)) & np.uint64(1))


@njit(cache=True)
def _check2(obs, hand, pos, level):
    """The checks with two decks, counting copies (the module's docstring)."""
    P = obs[L.O_PLAYERS]
    me = obs[L.O_SEAT]
    tm = np.uint64(obs[L.O_TRUMP_MASK])
    left = np.zeros(52, np.int64)  # copies the player has not seen
    for c in range(52):
        n = 2 - _copies(hand, c) - _copies(obs[L.O_HAND2], c)
        for s in range(P):
            n -= _copies(obs[L.O_PLAYED_BY + s], c) + _copies(obs[L.O_PLAYED_BY2 + s], c)
        if _copies(obs[L.O_DEAD_UP] | obs[L.O_KNOWN_OUT], c):
            n -= 1
        left[c] = n
    for s in range(P):
        if s == me:
            continue
        h1 = np.uint64(pos[Q.P_HANDS + s])
        h2 = np.uint64(pos[Q.P_HANDS2 + s])
        if popcount(h1) + popcount(h2) != obs[L.O_CARDS_LEFT + s]:
            return 8
        if h2 & ~h1:
            return 10
        for c in range(52):
            left[c] -= _copies(h1, c) + _copies(h2, c)
            if left[c] < 0:
                return 9
        v = obs[L.O_VOIDS + s]
        if level < 2:
            for x in range(4):
                if (v >> x) & 1 and h1 & _suit_cards(x, tm):
                    return 4
            if (v >> L.VOID_TRUMP) & 1 and h1 & tm:
                return 5
        if level == 0 and obs[L.O_RULES + L.R_DRAW] == 1 and s != obs[L.O_ROBBER]:
            shown = popcount(np.uint64(obs[L.O_PLAYED_BY + s]) & ~tm)
            shown += popcount(np.uint64(obs[L.O_PLAYED_BY2 + s]) & ~tm)
            if popcount(h1 & ~tm) + popcount(h2 & ~tm) + shown > obs[L.O_DRAWN + s]:
                return 6
    if obs[L.O_RULES + L.R_DRAW] == 1 and obs[L.O_STOCK_LEFT] == 0 and level < 3:
        for c in range(52):
            if (tm >> np.uint64(c)) & np.uint64(1) and left[c] > 0:
                return 7
    return 0


@njit(POLICY_SIG, cache=True)
def check_deals(obs, hand, legal, params, scratch, rng):
    pos = np.empty(Q.P_LEN, np.int64)
    two = obs[L.O_RULES + L.R_DECKS] == 2
    for _ in range(16):
        if two:
            from_observation(obs, hand, pos, np.uint64(obs[L.O_HAND2]))
            level = deal_unseen2(obs, hand, pos, rng, False)
            failed = _check2(obs, hand, pos, level)
        else:
            from_observation(obs, hand, pos)
            level = deal_unseen(obs, hand, pos, rng, False)
            failed = _check(obs, hand, pos, level)
        if failed:
            return 100 + failed
    return pimc_play(obs, hand, legal, params, scratch, rng)


@njit(cache=True)
def _lowest(legal):
    """The lowest legal card: the checks need hands played out, not played well."""
    return lowbit_index(legal)


ENUM_LIMIT = 48
ENUM_DRAWS = 600
SMALL, COVERED, DEALS = 60, 61, 62  # parameter slots check_enumeration counts into


@njit(cache=True)
def _same_deal(pos, row, P, me):
    for s in range(P):
        if s != me and pos[Q.P_HANDS + s] != row[s]:
            return False
    return True


@njit(cache=True)  # compiled when a test loads it
def check_enumeration(obs, hand, legal, params, scratch, rng):
    """Where ``enumerate_deals`` finds at most ENUM_LIMIT deals: each passes the checks
    above (101-107 otherwise), each appears once (108), and every deal
    ``deal_unseen`` draws meeting every constraint is among them (109). Counts the
    positions (``SMALL``), the deals and those the draws found (``DEALS``,
    ``COVERED``) into its parameters, then plays its lowest card."""
    P = obs[L.O_PLAYERS]
    out = np.zeros((ENUM_LIMIT + 1, L.MAX_PLAYERS), np.int64)
    n = enumerate_deals(obs, hand, False, ENUM_LIMIT, out)
    if n <= ENUM_LIMIT and legal & (legal - np.uint64(1)):
        pos = np.empty(Q.P_LEN, np.int64)
        for i in range(n):
            from_observation(obs, hand, pos)
            for s in range(P):
                if s != obs[L.O_SEAT]:
                    pos[Q.P_HANDS + s] = out[i, s]
            failed = _check(obs, hand, pos, 0)
            if failed:
                return 100 + failed
            for j in range(i):
                if _same_deal(pos, out[j], P, obs[L.O_SEAT]):
                    return 108
        hit = np.zeros(n, np.bool_)
        for _ in range(ENUM_DRAWS):
            from_observation(obs, hand, pos)
            if deal_unseen(obs, hand, pos, rng, False) != 0:
                continue
            found = False
            for i in range(n):
                if _same_deal(pos, out[i], P, obs[L.O_SEAT]):
                    hit[i] = True
                    found = True
            if not found:
                return 109
        params[SMALL] += 1
        params[DEALS] += n
        params[COVERED] += hit.sum()
    return _lowest(legal)


EXACT_CHECKED = 63  # the parameter slot check_exact counts its positions into


@njit(cache=True)  # compiled when a test loads it
def check_exact(obs, hand, legal, params, scratch, rng):
    """Exact endgames (``P_EXACT``, here without inference): where at most 32 deals are
    possible, ``pimc_values`` solves each once (it returns their number, else 110)
    and its means do not depend on the random stream (111 otherwise). Counts the
    positions into ``EXACT_CHECKED``; plays its lowest card."""
    if not legal & (legal - np.uint64(1)):
        return _lowest(legal)
    out = np.zeros((33, L.MAX_PLAYERS), np.int64)
    n = enumerate_deals(obs, hand, True, 32, out)
    if n <= 32:
        p = np.zeros(params.shape[0])
        p[:13] = (32.0, 0.0, 14.0, 1.0, 1.0, 1.0, 8.0, 0.0, 0.0, 0.0, 0.5, 8.0, 32.0)
        a = np.empty(52)
        b = np.empty(52)
        r1 = rng.copy()
        r2 = rng.copy()
        r2[0] += np.uint64(12345)
        if pimc_values(obs, hand, legal, p, r1, a) != n:
            return 110
        pimc_values(obs, hand, legal, p, r2, b)
        for c in range(52):
            if (legal >> np.uint64(c)) & np.uint64(1) and a[c] != b[c]:
                return 111
        params[EXACT_CHECKED] += 1
    return _lowest(legal)
