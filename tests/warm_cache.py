"""Compile the kernels, the policies and the solver into numba's disk cache, a group a
process (``python tests/warm_cache.py GROUP``); conftest.py runs the groups on every
core before the tests, so a cold start compiles each function once instead of in
whichever test comes first, in every worker. With a warm cache each group only loads.

A group starts only when the groups it ``NEEDS`` have saved: PIMC links the solver's
cached search instead of compiling its own copy, and ``ORDER`` puts the long groups
first so that two cores finish together."""

from __future__ import annotations

import sys


def one_deck() -> None:
    from cinch_sim import api
    from cinch_sim.engine.kernel import entry

    for name in ("simulate_hands", "play_games", "deal_hands"):
        entry(name)
    api.simulate(hands=50, seed=1, bid="simple", trump="simple", discard="simple", play="greedy")
    api.simulate(hands=50, seed=1, bid="random", trump="random", discard="random", play="random")


def two_decks() -> None:
    from cinch_sim.engine.kernel import entry

    for name in ("simulate_hands2", "play_games2", "deal_hands2"):
        entry(name)


def pimc() -> None:
    """PIMC's and dd's plays compile on import (for one deck and two), over the solver's
    cache."""
    import cinch_sim.policies.dd  # noqa: F401
    import cinch_sim.policies.pimc  # noqa: F401
    import cinch_sim.policies.replay  # noqa: F401  (the play page's seat: it calls both)


def _solve(variant: str, hands: list[str], solve, card_values) -> None:
    import numpy as np

    from cinch_sim.cards import parse_cards
    from cinch_sim.rules import make_rules
    from cinch_sim.solver import position as Q
    from cinch_sim.solver.search import new_workspace

    rules = make_rules(variant)
    pos = Q.start_position(rules, [parse_cards(h) for h in hands], 3, 0)  # hearts
    ws, out = new_workspace(), np.zeros(52, np.int64)
    solve(pos, rules.to_array(), ws)
    card_values(pos, rules.to_array(), ws, out)


def solver() -> None:
    """The solver's own entries, and the search PIMC links."""
    from cinch_sim.solver.search import card_values, solve

    _solve("standard", ["AH 5H", "KH 2C", "3C 4C", "6C 7C"], solve, card_values)


def solver_two_decks() -> None:
    from cinch_sim.solver.search import card_values2, solve2

    _solve("two_deck", ["AH 5H", "AH 2C", "3C 4C", "6C 7C"], solve2, card_values2)


GROUPS = {  # in the order they start (the longest chains first)
    "solver": solver,
    "one_deck": one_deck,
    "solver_two_decks": solver_two_decks,
    "two_decks": two_decks,
    "pimc": pimc,
}
NEEDS = {"pimc": ("solver", "solver_two_decks")}

if __name__ == "__main__":
    GROUPS[sys.argv[1]]()
