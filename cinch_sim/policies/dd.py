"""``dd``: double-dummy play, the bound of perfect play, not a player.

Every seat given ``dd`` plays the card the double-dummy solver values best for
its side (the maker's side maximises the maker's side's points, everyone else
minimises them), every card seen; among equal cards the lowest-numbered. With
``dd`` at every seat the hand follows the solver's principal line, so each
seat's side ends with exactly what best play by both sides gives it.

It must see every hand, which no policy may: the kernel hands it the hands of
the start of play in its seat's scratch (``layout.DD_HANDS + s`` seat s's faces,
``DD_HANDS2 + s`` with two decks the faces it holds twice), and it works out
what each seat holds now from the cards played since. The kernel also leaves
where every seat's scratch lies and which seats play dd, so the first dd seat to
move works the principal line out once and writes it into every dd seat's
scratch: with dd at every seat, one search a hand. That is the one
exception to docs/policies.md's information boundary, which is why ``dd`` is
refused where strategies are compared (``compare``, ``ladder``): it is an
analysis of what the cards are worth under perfect play, not a strategy.
"""

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import lowbit_index, popcount
from cinch_sim.jit.memory import words_at
from cinch_sim.policies.common import U0, U1
from cinch_sim.signatures import N_SCRATCH, POLICY_SIG
from cinch_sim.solver import position as Q
from cinch_sim.solver.limits import table_bits_of
from cinch_sim.solver.moves import from_observation, legal_mask, play, to_move
from cinch_sim.solver.search import (
    W_SIZE,
    W_TT,
    W_TT_BITS,
    at_least,
    at_least2,
    solve,
    solve2,
)

# the table for a hand's search from its first card: sized by the cards held
_table_bits_of = njit(inline="always")(table_bits_of)

# The scratch past the kernel's slots: the principal line worked out at the first dd
# decision, so that the next ones only read it (one search a hand, not one a card):
# its length, the cards played when it was worked out, then its cards, ten a slot
# in 6 bits each. A seat that leaves the line makes the next dd seat work out a new one.
LINE_LEN = L.DD_FREE
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
        once = np.uint64(scratch[L.DD_HANDS + s])
        played = np.uint64(obs[L.O_PLAYED_BY + s])
        if two:  # a face held twice and played once is still held once
            twice = np.uint64(scratch[L.DD_HANDS2 + s])
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
    it: one search for the value, then one null-window probe a card tried (does
    it keep the value?), all on one workspace whose table already holds most of
    the positions."""
    held = 0
    for s in range(rules[L.R_PLAYERS]):
        held += popcount(np.uint64(pos[Q.P_HANDS + s])) + popcount(np.uint64(pos[Q.P_HANDS2 + s]))
    bits = _table_bits_of(held)
    ws = np.zeros(W_TT + (4 << bits), np.uint64)
    ws[W_TT_BITS] = bits
    ws[W_SIZE] = ws.shape[0]
    two = rules[L.R_DECKS] == 2
    value = solve2(pos, rules, ws) if two else solve(pos, rules, ws)
    maker_team = rules[L.R_SEAT_TEAM + pos[Q.P_MAKER]]
    child = np.empty(Q.P_LEN, np.int64)
    n = 0
    while True:
        m = legal_mask(pos, rules)
        if m == U0:
            return n
        # a maximiser's card keeps the value if its child reaches it; a minimiser's,
        # if its child does not exceed it
        maxing = rules[L.R_SEAT_TEAM + to_move(pos, rules)] == maker_team
        target = value if maxing else value + 1
        c = lowbit_index(m)
        while m & (m - U1):  # the last legal card needs no search
            child[:] = pos
            play(child, rules, c)
            reached = (at_least2 if two else at_least)(child, rules, ws, target)
            if reached == maxing:
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


@njit(cache=True)
def _store_line(sc, line, n, now):
    """A seat's scratch given the line's first n cards, worked out after ``now`` cards."""
    for k in range(LINE, N_SCRATCH):
        sc[k] = 0
    for i in range(n):
        sc[LINE + i // PER_SLOT] |= line[i] << (6 * (i % PER_SLOT))
    sc[LINE_LEN] = n
    sc[LINE_FROM] = now


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
    table = words_at(scratch[L.DD_TABLE], L.MAX_PLAYERS * N_SCRATCH)
    for s in range(obs[L.O_PLAYERS]):  # every dd seat reads the same line
        if (scratch[L.DD_SEATS] >> s) & 1:
            _store_line(table[s * N_SCRATCH : (s + 1) * N_SCRATCH], line, keep, now)
    return line[0]
