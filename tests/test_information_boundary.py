"""The information boundary, tested: what the kernel hands a policy depends only on
what its seat may know.

For every preset, a deal is played by the tap policies (tests/tap_policy.py),
then played again with two cards the watched seat was not dealt swapped (with two
decks, every copy of the two faces), every seat replaying its first answers with
the two cards swapped in them too. The public history is then the same until
one of the two cards is seen (or a replayed answer is illegal in the new deal,
which ends the hand). Every call the watched seat gets until then (bid, trump,
discard or rob, play) must hand it the same observation, slot for slot, the same
hand, legal mask and random state: a slot that depends on a hidden card (even on
how many of a suit another seat holds) changes the call's hash.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from helpers import KINDS, ScriptedPolicies
from tap_policy import CALLS, REPLAY, SCRIPT

from cinch_sim import layout as L
from cinch_sim.engine.run import Conditions, run_chunk
from cinch_sim.policies.loading import PolicyError, load_policy
from cinch_sim.rules import VARIANTS, Rules
from cinch_sim.signatures import N_PARAMS

TAP = Path(__file__).parent / "tap_policy.py"
ORDER = (L.KIND_BID, L.KIND_TRUMP, L.KIND_DISCARD, L.KIND_PLAY)
NAMES = {L.KIND_BID: "bid", L.KIND_TRUMP: "trump", L.KIND_DISCARD: "discard", L.KIND_PLAY: "play"}


def _taps(players: int) -> ScriptedPolicies:
    loaded = {k: load_policy(k, f"{TAP}:tap_{k}") for k in KINDS}
    return ScriptedPolicies(**{k: [loaded[k]] * players for k in KINDS})


def _play(rules: Rules, ps: ScriptedPolicies, deck: list[int], hand: int, board: np.ndarray):
    """Play the deal with the taps on ``board``: its error code (0: none)."""
    ps.board = board
    try:
        out, _ = run_chunk(rules, ps, 99, hand, 1, rules.players - 1, Conditions(deck=deck))
    except PolicyError:
        return 1  # a replayed answer illegal in the swapped deal: the hand ends there
    return int(out[0, L.H_ERROR])


def _board(watched: int) -> np.ndarray:
    board = np.full((4, L.MAX_PLAYERS, N_PARAMS), -1.0)
    board[:, :, 1] = watched
    board[:, :, REPLAY] = 0
    return board


def _replay(board: np.ndarray, a: int, b: int) -> np.ndarray:
    """The script of every seat's answers on ``board`` with cards a and b swapped."""
    out = _board(int(board[0, 0, 1]))
    out[:, :, SCRIPT:] = board[:, :, SCRIPT:]
    out[:, :, REPLAY] = 1
    play = out[L.KIND_PLAY, :, SCRIPT:]
    is_a, is_b = play == a, play == b
    play[is_a], play[is_b] = b, a
    keeps = out[L.KIND_DISCARD, :, SCRIPT : SCRIPT + 4]
    for i, k in np.ndenumerate(keeps):
        if k >= 0:
            m = int(k)
            ma, mb = (m >> a) & 1, (m >> b) & 1
            keeps[i] = (m & ~((1 << a) | (1 << b))) | (ma << b) | (mb << a)
    return out


def _calls(board: np.ndarray, seat: int):
    """The seat's calls in the order they came: (kind, hash, saw a watched card)."""
    for kind in ORDER:
        v = board[kind, seat]
        for i in range(min(int(v[0]), CALLS) if v[0] > 0 else 0):
            rec = int(v[2 + i])
            yield kind, rec >> 1, rec & 1


def _compare(rules: Rules, hands: int, seed: int) -> dict[str, int]:
    """Positions compared per kind of decision over ``hands`` swapped deals."""
    gen = np.random.default_rng(seed)
    ps = _taps(rules.players)
    compared = dict.fromkeys(NAMES.values(), 0)
    for hand in range(hands):
        deck = [int(c) for c in gen.permutation(list(range(52)) * rules.decks)]
        seat = int(gen.integers(rules.players))
        board = _board(0)
        assert _play(rules, ps, deck, hand, board) == 0, "a tap's own answer was refused"
        dealt = int(board[L.KIND_BID, seat, 31])
        if dealt < 0:
            continue  # never asked to bid: nothing to watch from the start
        a, b = gen.choice([c for c in range(52) if not (dealt >> c) & 1], 2, replace=False)
        a, b = int(a), int(b)
        board = _board((1 << a) | (1 << b))
        _play(rules, ps, deck, hand, board)
        swapped = [b if c == a else a if c == b else c for c in deck]
        board2 = _replay(board, a, b)
        _play(rules, ps, swapped, hand, board2)  # may end early: see the module's text
        for one, two in zip(_calls(board, seat), _calls(board2, seat), strict=False):
            if one[2] or two[2]:
                break  # the seat has seen one of the two cards: its view may differ
            assert one[0] == two[0], f"{rules.preset} hand {hand}: a different question"
            assert one[1] == two[1], (
                f"{rules.preset}, hand {hand}, seat {seat}: the {NAMES[one[0]]} policy was "
                f"handed something that depends on where {a} and {b} lie"
            )
            compared[NAMES[one[0]]] += 1
    return compared


@pytest.mark.parametrize("preset", list(VARIANTS))
def test_a_policy_is_handed_nothing_of_the_cards_it_cannot_see(preset):
    """300 deals: over a thousand positions a preset, every kind of decision it asks."""
    rules = VARIANTS[preset]
    compared = _compare(rules, 300, 11)
    assert sum(compared.values()) >= 1000, compared
    kinds = ("bid", "trump", "discard", "play") if rules.draw else ("bid", "trump", "play")
    assert all(compared[k] >= 20 for k in kinds), compared


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(VARIANTS))
def test_ten_thousand_positions_of_every_preset(preset):
    rules = VARIANTS[preset]
    compared = _compare(rules, 3000, 12)
    assert sum(compared.values()) >= 10_000, compared
