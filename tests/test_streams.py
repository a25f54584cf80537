"""The random streams: Threefry's known answers, the kernel handing each seat its
one-way stream, an attack that used to rebuild the deal from a policy's state,
and chi-square checks that the deal and the seats' streams are independent.

Each statistical assertion fails by chance with probability ALPHA (fewer than 20
of them: the file fails by chance less than once in 5000 runs).
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest
from helpers import KINDS, ScriptedPolicies
from numba import njit
from scipy import stats

from cinch_sim import layout as L
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.jit.cache import refresh_user_file
from cinch_sim.policies.loading import load_policy
from cinch_sim.rng import below, policy_stream, threefry4x64
from cinch_sim.rules import Rules
from cinch_sim.signatures import N_PARAMS

ALPHA = 1e-5
TAP = Path(__file__).parent / "tap_policy.py"
MASK = (1 << 64) - 1
# the helpers below are cached: flushed when the package's jitted sources change
refresh_user_file(Path(__file__))


@njit(cache=True)
def _threefry(c, k):
    return threefry4x64(c[0], c[1], c[2], c[3], k[0], k[1], k[2], k[3])


@njit(cache=True)
def _first_draws(seed, first, n, players, sides, out):
    """out[h, s]: seat s's first ``below(rng, sides)`` in hand first + h."""
    rng = np.zeros(1, np.uint64)
    for h in range(n):
        for s in range(players):
            rng[0] = policy_stream(seed, first + h, 1 + s)
            out[h, s] = below(rng, sides)


def _words(text: str) -> np.ndarray:
    return np.array([int(w, 16) for w in text.split()], dtype=np.uint64)


@pytest.mark.parametrize(
    ("counter", "key", "expected"),
    [  # Random123's known-answer vectors for threefry4x64, 20 rounds
        ("0 0 0 0", "0 0 0 0",
         "09218ebde6c85537 55941f5266d86105 4bd25e16282434dc ee29ec846bd2e40b"),
        (" ".join(["ffffffffffffffff"] * 4), " ".join(["ffffffffffffffff"] * 4),
         "29c24097942bba1b 0371bbfb0f6f4e11 3c231ffa33f83a1c cd29113fde32d168"),
        ("243f6a8885a308d3 13198a2e03707344 a4093822299f31d0 082efa98ec4e6c89",
         "452821e638d01377 be5466cf34e90c6c be5466cf34e90c6c c0ac29b7c97c50dd",
         "a7e8fde591651bd9 baafd0c30138319b 84a5c1a729e685b9 901d406ccebc1ba4"),
    ],
)  # fmt: skip
def test_threefry_gives_the_known_answers(counter, key, expected):
    assert list(_threefry(_words(counter), _words(key))) == list(_words(expected))


@functools.cache
def _tap_policies() -> dict:
    return {k: load_policy(k, f"{TAP}:tap_{k}") for k in KINDS}


def _tapped(rules: Rules, seed: int, hand: int, dealer: int):
    """Hand ``hand`` played by the tap policies: (trace row, their records)."""
    loaded = _tap_policies()
    ps = ScriptedPolicies(**{k: [loaded[k]] * rules.players for k in KINDS})
    ps.board = np.full((4, L.MAX_PLAYERS, N_PARAMS), -1.0)
    _, tr = run_chunk(rules, ps, seed, hand, 1, dealer, trace=True)
    return tr[0], ps.board


def _first_state(board, seat: int) -> int:
    """The random state the tap saw at the seat's first bid (-1: never asked)."""
    v = board[L.KIND_BID, seat]
    return -1 if v[0] < 0 else (int(v[29]) << 32) | int(v[30])


def test_the_kernel_hands_each_seat_its_own_policy_stream():
    seed = 77
    for hand in range(40):
        _, board = _tapped(Rules(), seed, hand, 3)
        for s in range(4):
            state = _first_state(board, s)
            assert state in (-1, int(policy_stream(np.uint64(seed), hand, 1 + s)))


# ---- the attack that read the deal off a seat's state under the old streams
_M1, _M2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_GOLDEN, _OLD_STREAM = 0x9E3779B97F4A7C15, 0xD1B54A32D192ED03


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * _M1) & MASK
    z = ((z ^ (z >> 27)) * _M2) & MASK
    return z ^ (z >> 31)


def _unshift(z: int, k: int) -> int:
    """The inverse of z ^ (z >> k)."""
    x = z
    for _ in range(64 // k + 1):
        x = z ^ (x >> k)
    return x


def _unmix(z: int) -> int:
    """splitmix64's finaliser inverted: it is a bijection."""
    z = _unshift(z, 31)
    z = (z * pow(_M2, -1, 1 << 64)) & MASK
    z = _unshift(z, 27)
    z = (z * pow(_M1, -1, 1 << 64)) & MASK
    return _unshift(z, 30)


def _deck_from_key(key: int) -> list[int]:
    """The kernel's Fisher-Yates on stream 0 of a hand key (two draws a word)."""
    deck, state, i = list(range(52)), _mix(key), 51
    while i > 0:
        state = (state + _GOLDEN) & MASK
        r = _mix(state)
        for word in (r >> 32, r & 0xFFFFFFFF):
            if i > 0:
                j = (word * (i + 1)) >> 32
                deck[i], deck[j] = deck[j], deck[i]
                i -= 1
    return deck


def test_a_policy_cannot_rebuild_the_deal_from_its_random_state():
    """The old seat streams were splitmix(key + stream * C) of the hand's key, whose
    stream 0 deals: inverting splitmix gave a bid policy the whole deal in 200 of
    200 hands. With Threefry-keyed starts the same attack rebuilds none."""
    assert _unmix(_mix(0x0123456789ABCDEF)) == 0x0123456789ABCDEF
    rebuilt = tried = 0
    for hand in range(200):
        tr, board = _tapped(Rules(), 2026, hand, 3)
        seat = next(s for s in range(4) if _first_state(board, s) >= 0)
        key = (_unmix(_first_state(board, seat)) - (1 + seat) * _OLD_STREAM) & MASK
        rebuilt += _deck_from_key(key) == list(tr[L.T_DECK : L.T_DECK + 52])
        tried += 1
    assert tried == 200 and rebuilt == 0


# ---- statistics: the deal and the seats' streams
N = 40_000
SEED = 20261202


@pytest.fixture(scope="module")
def draws():
    """The decks of N hands, and each seat's first draw (0..5) in each."""
    ps = PolicySet.from_specs(4, bid="random", trump="random", discard="random", play="random")
    _, tr = run_chunk(Rules(), ps, SEED, 0, N, dealer=2, trace=True)
    deck = tr[:, L.T_DECK : L.T_DECK + 52]
    first = np.zeros((N, 4), np.int64)
    _first_draws(np.uint64(SEED), 0, N, 4, 6, first)
    return deck, first


def _independent(a: np.ndarray, b: np.ndarray) -> float:
    table = np.zeros((a.max() + 1, b.max() + 1))
    np.add.at(table, (a, b), 1)
    return stats.chi2_contingency(table)[1]


def test_each_seat_stream_is_uniform(draws):
    _, first = draws
    for s in range(4):
        counts = np.bincount(first[:, s], minlength=6)
        assert stats.chisquare(counts).pvalue > ALPHA


def test_seat_streams_are_independent_of_each_other(draws):
    _, first = draws
    for s in range(1, 4):
        assert _independent(first[:, 0], first[:, s]) > ALPHA


def test_seat_streams_are_independent_of_the_deal(draws):
    """Where a card lies in the deck (13 groups of 4 positions) against each seat's
    first draw: an independent deal and stream give a flat contingency table."""
    deck, first = draws
    ace_of_spades = np.argmax(deck == 25, axis=1) // 4
    top_card_suit = deck[:, 0] // 13
    for s in range(4):
        assert _independent(ace_of_spades, first[:, s]) > ALPHA
        assert _independent(top_card_suit, first[:, s]) > ALPHA


@pytest.mark.parametrize(
    "specs",
    [
        dict(bid="heuristic", trump="heuristic", discard="heuristic", play="heuristic"),
        dict(bid="simple", trump="simple", discard="simple", play="greedy"),
        dict(bid="heuristic_v1", trump="heuristic_v1", discard="heuristic_v1", play="heuristic_v1"),
    ],
    ids=["heuristic", "simple-greedy", "heuristic_v1"],
)
def test_a_table_that_draws_no_random_number_plays_alike_without_its_streams(specs, monkeypatch):
    """engine.run.BLIND_TO_STREAM's built-ins never draw: with only them at the table the
    kernel skips the streams (``L.PIDS_STREAMS`` 0), and every hand comes out as when
    the streams are set up (the flag forced on by emptying the set)."""
    import cinch_sim.engine.run as run

    ps = PolicySet.from_specs(4, **specs)
    assert ps.builtin_ids()[L.PIDS_STREAMS] == 0
    skipped, _ = run_chunk(Rules(), ps, 17, 0, 3000)
    monkeypatch.setattr(run, "BLIND_TO_STREAM", frozenset())
    assert ps.builtin_ids()[L.PIDS_STREAMS] == 1
    with_streams, _ = run_chunk(Rules(), ps, 17, 0, 3000)
    assert np.array_equal(skipped, with_streams)


def test_a_random_policy_at_the_table_sets_the_streams(monkeypatch):
    """The random play draws, so its table sets the streams; claimed blind (put in
    BLIND_TO_STREAM), the kernel skips them and the hands come out otherwise: the
    flag is what the test above turns off, not a no-op."""
    import cinch_sim.engine.run as run
    from cinch_sim.policies import registry as BI

    ps = PolicySet.from_specs(4, bid="simple", trump="simple", discard="simple", play="random")
    assert ps.builtin_ids()[L.PIDS_STREAMS] == 1
    right, _ = run_chunk(Rules(), ps, 17, 0, 500)
    monkeypatch.setattr(run, "BLIND_TO_STREAM", run.BLIND_TO_STREAM | {BI.RANDOM_CHOICE})
    assert ps.builtin_ids()[L.PIDS_STREAMS] == 0
    wrong, _ = run_chunk(Rules(), ps, 17, 0, 500)
    assert not np.array_equal(right, wrong)
