"""Positions for the solver tests: random ones near the end of a hand, and the
kernel's own hands (the start of play after a real discard and draw)."""

from __future__ import annotations

import numpy as np

from cinch_sim import layout as L
from cinch_sim.cards import RANKS, suit_mask, trump_mask
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.rules import Rules
from cinch_sim.solver import position as Q
from cinch_sim.solver.moves import play
from cinch_sim.solver.reference import legal_cards, reference_play


def deal(rules: Rules, rng: np.random.Generator, short: bool = False) -> np.ndarray:
    """A start-of-play position: hands of ``hand_size`` cards (a few seats short when
    ``short``), trump-heavy as after a Cinch draw, a random maker."""
    P, hs = rules.players, rules.hand_size
    trump = int(rng.integers(4))
    lrank = RANKS.index(rules.left_rank) if rules.left_rank else -1
    tm = trump_mask(trump, lrank) if lrank >= 0 else suit_mask(trump)
    sizes = [hs] * P
    if short:
        for s in rng.choice(P, size=int(rng.integers(1, P)), replace=False):
            sizes[s] = int(rng.integers(0, hs))
    n = sum(sizes)
    copies = rules.decks  # two decks: each card twice, a hand may hold both copies
    trumps = [c for c in range(52) for _ in range(copies) if tm >> c & 1]
    plains = [c for c in range(52) for _ in range(copies) if not tm >> c & 1]
    k = int(rng.integers(min(n, 3), min(n, len(trumps)) + 1))
    cards = list(rng.choice(trumps, k, replace=False)) + list(
        rng.choice(plains, n - k, replace=False)
    )
    rng.shuffle(cards)
    hands, at = [], 0
    for size in sizes:
        hands.append([int(c) for c in cards[at : at + size]])
        at += size
    return Q.start_position(rules, hands, trump, int(rng.integers(P)))


def random_play(rules: Rules, pos: np.ndarray, rng: np.random.Generator, cards: int) -> None:
    """Play ``cards`` random legal cards (fewer if the hand ends), in place."""
    for _ in range(cards):
        if not any(pos[Q.P_HANDS : Q.P_HANDS + rules.players]):
            return
        legal = legal_cards(rules, pos)
        reference_play(rules, pos, int(legal[int(rng.integers(len(legal)))]))


def end_position(
    rules: Rules, rng: np.random.Generator, tricks_left: int, short: bool = False
) -> np.ndarray:
    """A random position with at most ``tricks_left`` cards in any hand, a random part
    of the trick in progress played."""
    pos = deal(rules, rng, short)
    P = rules.players
    while max(len(Q.hand_cards(pos, s)) for s in range(P)) > tricks_left:
        random_play(rules, pos, rng, 1)
    random_play(rules, pos, rng, int(rng.integers(P)))
    return pos


def kernel_hands(rules: Rules, n: int, seed: int, play_policy: str = "heuristic"):
    """(start-of-play position, plays, result row) of the hands the kernel played."""
    ps = PolicySet.from_specs(rules.players, play=play_policy)
    out, tr = run_chunk(rules, ps, seed, 0, n, trace=True)
    hands = []
    for i in range(n):
        if out[i, L.H_THROWN_IN]:
            continue
        pos, plays = Q.from_trace(rules, out[i], tr[i])
        hands.append((pos, plays, out[i]))
    return hands


def advance(rules: Rules, pos: np.ndarray, plays, k: int) -> np.ndarray:
    """The position after the first k plays (the jitted stepper)."""
    p = pos.copy()
    rv = rules.to_array()
    for _, c in plays[:k]:
        assert play(p, rv, c)
    return p
