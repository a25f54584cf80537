"""A seat played by a person, one decision at a time: the ``replay`` policies.

The kernel plays whole hands, so a person's hand is played again from the deal
at each of their decisions, with the same seed: the other seats decide exactly
as before, and this seat replays the choices made so far from its parameter
vector. When the choices run out it writes what it was asked (the legal
options, its hand, the trump, the phase) back into that vector and returns an
illegal choice, which stops the hand there: ``web.table`` reads the question,
asks the person, adds the answer and plays the hand again. Replaying costs
microseconds a hand under the heuristic, so the page does not wait for it.

Parameter slots, the same for every kind (one vector per kind and seat):
``R_GIVEN`` choices given, ``R_USED`` used so far this run (0 at the start),
``R_CHOICES``... the choices in order; ``R_DELEGATE`` for a hint (the next
decision made by the heuristic or PIMC in the person's place, read back from the
trace); then the record of the question; from ``R_BOT`` on, the heuristic's own
vector of the kind as a heuristic seat holds it under these rules (a preset's play
choices, ``PolicySet.params``), which a heuristic hint plays with.
"""

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import lowbit_index
from cinch_sim.policies.heuristic import heuristic_discard, heuristic_play
from cinch_sim.policies.pimc import DEFAULT_PARAMS as PIMC_DEFAULTS
from cinch_sim.policies.pimc import pimc_play_why
from cinch_sim.signatures import N_PARAMS, POLICY_SIG

R_GIVEN = 0
R_USED = 1
R_CHOICES = 2  # up to MAX_CHOICES choices (a play per trick: 12 with two decks)
MAX_CHOICES = 18
R_DELEGATE = 20  # a hint: once the choices run out, one decision by a bot (DELEGATES)
R_PASS = 21  # two decks: O_DISCARD_PASS of the discard asked (0 first, 1 the second copies)
R_KEPT = 22  # two decks, second discard pass: the faces kept in the first (O_KEPT)
R_ANSWER = 23  # the delegate's answer (a hint: the cards a bot keeps, or its card)
# A PIMC play hint also leaves, from R_CHOICES + R_GIVEN on, each legal card's mean
# utility in card order (NaN: not solved): the free choice slots, as many as the
# cards still held (a hand holds at most MAX_CHOICES - R_GIVEN cards at a decision).
R_ASKED = 24  # 1: the choices ran out here, and the slots below say what was asked
R_LEGAL = 25  # the legal mask (bids: bit b for bid b, bit 0 pass; cards: the card bits)
R_HAND = 26  # the hand (the robber: his hand with the stock)
R_TRUMP = 27  # the trump suit (-1 before it is named)
R_PHASE = 28  # O_PHASE: bidding, trump, discard, rob, play
R_MAX_KEEP = 29  # discards: the most cards kept, and the fewest
R_MIN_KEEP = 30
R_HAND2 = 31  # two decks: the faces held twice
R_BOT = 32  # the heuristic's discard or play vector under these rules (a hint's)
# R_DELEGATE's codes: the next decision by a bot; "rest": every one left by the
# heuristic (the hand played out, for the solver's hint: it needs the whole deal)
DELEGATES = {"heuristic": 1, "pimc": 2, "rest": -1}
BOT_SLOTS = N_PARAMS - R_BOT  # room for it: the heuristic's play vector needs 17
_PIMC_PLAY = tuple(float(x) for x in PIMC_DEFAULTS["pimc_play"])


@njit(inline="always")
def _vector(values):
    v = np.zeros(N_PARAMS, np.float64)
    for i in range(len(values)):
        v[i] = values[i]
    return v


@njit(inline="always")
def _bot_vector(params):
    """The heuristic's vector the table put at ``R_BOT``."""
    v = np.zeros(N_PARAMS, np.float64)
    for i in range(BOT_SLOTS):
        v[i] = params[R_BOT + i]
    return v


@njit(inline="always")
def _replay(obs, hand, legal, params):
    """The next choice replayed (>= 0), -2 to hand this one decision to the delegate,
    or -1 (illegal: the kernel stops the hand) with the question recorded."""
    used = np.int64(params[R_USED])
    given = np.int64(params[R_GIVEN])
    if used < given and used < MAX_CHOICES:
        params[R_USED] = used + 1
        return np.int64(params[R_CHOICES + used])
    if used == given and params[R_DELEGATE] > 0:
        params[R_USED] = used + 1
        return np.int64(-2)
    if used >= given and params[R_DELEGATE] < 0:
        return np.int64(-2)
    params[R_ASKED] = 1.0
    params[R_LEGAL] = np.float64(legal)
    params[R_HAND] = np.float64(hand)
    params[R_TRUMP] = np.float64(obs[L.O_TRUMP])
    params[R_PHASE] = np.float64(obs[L.O_PHASE])
    params[R_MAX_KEEP] = np.float64(obs[L.O_MAX_KEEP])
    params[R_MIN_KEEP] = np.float64(obs[L.O_MIN_KEEP])
    params[R_HAND2] = np.float64(obs[L.O_HAND2])
    params[R_PASS] = np.float64(obs[L.O_DISCARD_PASS])
    params[R_KEPT] = np.float64(obs[L.O_KEPT])
    return np.int64(-1)  # illegal for every kind: the kernel stops the hand here


@njit(POLICY_SIG, cache=True)
def replay_bid(obs, hand, legal, params, scratch, rng):
    c = _replay(obs, hand, legal, params)
    return np.int64(-1) if c == -2 else c


@njit(POLICY_SIG, cache=True)
def replay_trump(obs, hand, legal, params, scratch, rng):
    c = _replay(obs, hand, legal, params)
    return np.int64(-1) if c == -2 else c


@njit(POLICY_SIG, cache=True)
def replay_discard(obs, hand, legal, params, scratch, rng):
    c = _replay(obs, hand, legal, params)
    if c == -2:
        c = heuristic_discard(obs, hand, legal, _bot_vector(params), scratch, rng)
        params[R_ANSWER] = np.float64(c)
    return c


@njit(POLICY_SIG, cache=True)
def replay_play(obs, hand, legal, params, scratch, rng):
    c = _replay(obs, hand, legal, params)
    if c == -2:
        if params[R_DELEGATE] == 2:
            means = np.empty(52, np.float64)
            c = pimc_play_why(obs, hand, legal, _vector(_PIMC_PLAY), scratch, rng, means)
            at = R_CHOICES + np.int64(params[R_GIVEN])
            m = legal
            while m and at < R_CHOICES + MAX_CHOICES:
                k = lowbit_index(m)
                m &= m - np.uint64(1)
                params[at] = means[k]
                at += 1
        else:
            c = heuristic_play(obs, hand, legal, _bot_vector(params), scratch, rng)
        params[R_ANSWER] = np.float64(c)
    return c
