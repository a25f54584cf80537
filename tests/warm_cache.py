"""Compile the kernels, the policies and the solver into numba's disk cache, a group a
process (``python tests/warm_cache.py GROUP``); conftest.py runs the groups side by
side before the tests, so a cold start compiles on every core once instead of in
whichever test comes first, in every worker. With a warm cache each group only loads."""

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


def solver() -> None:
    from cinch_sim import api

    api.simulate(hands=4, seed=1, play="pimc")
    api.simulate(hands=1, seed=1, play="pimc", variant="two_deck")


GROUPS = {"one_deck": one_deck, "two_decks": two_decks, "solver": solver}

if __name__ == "__main__":
    GROUPS[sys.argv[1]]()
