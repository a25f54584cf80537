"""``dd``: double-dummy play, the bound of perfect play, not a player.

Every seat given ``dd`` plays the card the double-dummy solver values best for
its side (the maker's side maximises the maker's side's points, everyone else
minimises them), every card seen; among equal cards the lowest-numbered. With
``dd`` at every seat the hand follows the solver's principal line, so each
seat's side ends with exactly what best play by both sides gives it.

It must see every hand, which no policy may: the kernel hands it the hands of
the start of play in its seat's scratch (``scratch[s]`` seat s's faces,
``scratch[MAX_PLAYERS + s]`` with two decks the faces it holds twice), and it
works out what each seat holds now from the cards played since. That is the one
exception to docs/policies.md's information boundary, which is why ``dd`` is
refused where strategies are compared (``compare``, ``ladder``): it is an
analysis of what the cards are worth under perfect play, not a strategy.
"""

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import lowbit_index, popcount
from cinch_sim.policies.common import U0, U1
from cinch_sim.signatures import N_SCRATCH, POLICY_SIG
from cinch_sim.solver import position as Q
from cinch_sim.solver.moves import from_observation, legal_mask, play
from cinch_sim.solver.search import W_SIZE, W_TT, W_TT_BITS, solve, solve2

TT_BITS = 12  # 4,096 table entries (128 KiB): a hand's search from its first card
# The scratch past the hands: the principal line worked out at the seat's first
# decision, so that the next ones only read it (one search a seat and hand, not one a
# card): its length, the cards played when it was worked out, then its cards, ten a
# slot in 6 bits each. Another seat that leaves the line makes it work out a new one.
LINE_LEN = 2 * L.MAX_PLAYERS
LINE_FROM = LINE_LEN + 1
LINE = LINE_FROM + 1
PER_SLOT = 10


@njit(cache=True)
def dd_position(obs, hand, scratch, pos):
    """``pos`` filled from the observation and the hands of the start of play in
    ``scratch``: each seat's cards now, the trick in progress, what is taken."""
    two = obs[L.O_RULES + L.R_DECKS] == 2
    from_observation(obs, hand, pos, np.uint64(obs[L.O_HAND2]) if two else U0)
    for s in range(obs[L.O_PLAYERS]):
        once = np.uint64(scratch[s])
        played = np.uint64(obs[L.O_PLAYED_BY + s])
        if two:  # a face held twice and played once is still held once
            twice = np.uint64(scratch[L.MAX_PLAYERS + s])
            played2 = np.uint64(obs[L.O_PLAYED_BY2 + s])
            pos[Q.P_HANDS + s] = np.int64((once & ~played) | (twice & played & ~played2))
            pos[Q.P_HANDS2 + s] = np.int64(twice & ~played)
        else:
            pos[Q.P_HANDS + s] = np.int64(once & ~played)


@njit(cache=True)
def principal_line(pos, rules, line):
    """Play the position out, every seat choosing its side's best card (the maker's
    side maximising its points, the others minimising them; of equal cards the
    lowest-numbered); the cards in ``line``, their number returned. The value never
    changes along the line, so each seat's card is the first whose position keeps
    it: one search for the value, then a search a card tried, all on one workspace
    whose table already holds most of the positions."""
    ws = np.zeros(W_TT + (4 << TT_BITS), np.uint64)
    ws[W_TT_BITS] = TT_BITS
    ws[W_SIZE] = ws.shape[0]
    two = rules[L.R_DECKS] == 2
    value = solve2(pos, rules, ws) if two else solve(pos, rules, ws)
    child = np.empty(Q.P_LEN, np.int64)
    n = 0
    while True:
        m = legal_mask(pos, rules)
        if m == U0:
            return n
        c = lowbit_index(m)
        while m & (m - U1):  # the last legal card needs no search
            child[:] = pos
            play(child, rules, c)
            if (solve2(child, rules, ws) if two else solve(child, rules, ws)) == value:
                break
            m &= m - U1
            c = lowbit_index(m)
        line[n] = c
        n += 1
        play(pos, rules, c)


@njit(cache=True)
def _played(obs):
    """Cards played so far, each copy counted."""
    n = 0
    for s in range(obs[L.O_PLAYERS]):
        n += popcount(np.uint64(obs[L.O_PLAYED_BY + s]))
        if obs[L.O_RULES + L.R_DECKS] == 2:
            n += popcount(np.uint64(obs[L.O_PLAYED_BY2 + s]))
    return n


@njit(cache=True)
def _on_line(obs, scratch, at):
    """Whether the cards of the stored line before ``at`` have all been played."""
    played = np.uint64(obs[L.O_PLAYED])
    for i in range(at):
        c = (scratch[LINE + i // PER_SLOT] >> (6 * (i % PER_SLOT))) & 63
        if not (played >> np.uint64(c)) & U1:
            return False
    return True


@njit(POLICY_SIG, cache=True)
def dd_play(obs, hand, legal, params, scratch, rng):
    if legal & (legal - U1) == U0:
        return lowbit_index(legal)
    now = _played(obs)
    at = now - scratch[LINE_FROM]
    if 0 <= at < scratch[LINE_LEN] and _on_line(obs, scratch, at):
        c = (scratch[LINE + at // PER_SLOT] >> (6 * (at % PER_SLOT))) & 63
        if (legal >> np.uint64(c)) & U1:
            return c
    pos = np.empty(Q.P_LEN, np.int64)
    dd_position(obs, hand, scratch, pos)
    line = np.empty(2 * 52, np.int64)
    n = principal_line(pos, obs[L.O_RULES : L.O_RULES + L.R_LEN], line)
    keep = min(n, PER_SLOT * (N_SCRATCH - LINE))
    for k in range(LINE, N_SCRATCH):
        scratch[k] = 0
    for i in range(keep):
        scratch[LINE + i // PER_SLOT] |= line[i] << (6 * (i % PER_SLOT))
    scratch[LINE_LEN] = keep
    scratch[LINE_FROM] = now
    return line[0]
