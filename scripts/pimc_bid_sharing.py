"""How much of PIMC's advice could be shared between the bids of one suit.

Usage: python scripts/pimc_bid_sharing.py "AS KS 5S 5C 2S 9H 3D 7C JD" S [--deals 60]
                                          [--bids 7-14] [--seed 11]

The advisor plays each deal in which the player is the maker once per bid and suit,
because PIMC reads the contract. In one suit the bids differ only in how each
sampled deal's solved values are scored, so up to the first card PIMC plays
differently at two bids the positions, the samples and the solves are the same.
This plays the hand (seat 0, dealer 3) as the maker at every bid in the suit, PIMC
at every seat, compares the card sequences, and prints how many deals played alike
at every bid, how many sequences a deal, and what a play solving each distinct
position once would cost against today's, each position weighted by its share of
PIMC's time (results/BENCHMARKS.md: the first trick 85%, its four cards 42, 21, 13
and 10%; the second 12%; the last four 3%).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cinch_sim import layout as L  # noqa: E402
from cinch_sim.cards import parse_cards, parse_suit, to_mask  # noqa: E402
from cinch_sim.engine.run import Conditions, PolicySet, run_chunk  # noqa: E402
from cinch_sim.rules import Rules  # noqa: E402

CARD_WEIGHTS = np.array([0.42, 0.21, 0.13, 0.10] + [0.03] * 4 + [0.03 / 16] * 16)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("hand")
    ap.add_argument("suit", help="the trump: C, S, D or H")
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--bids", default="7-14", help="lowest-highest")
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args()
    rules = Rules()
    lo, hi = (int(x) for x in a.bids.split("-"))
    policies = PolicySet.from_specs(4, "heuristic", "heuristic", "heuristic", "pimc")
    hand = to_mask(parse_cards(a.hand))
    start = time.perf_counter()
    plays = []
    for bid in range(lo, hi + 1):
        cond = Conditions(fixed={0: hand}, force_maker=0, force_trump=parse_suit(a.suit),
                          force_bid=bid)  # fmt: skip
        _, trace = run_chunk(rules, policies, a.seed, 0, a.deals, 3, cond, trace=True)
        plays.append(trace[:, L.T_PLAYS : L.T_PLAYS + len(CARD_WEIGHTS)])
    seqs = np.stack(plays, axis=1)  # [deal, bid, card]
    alike = sum(all(np.array_equal(d[0], d[b]) for b in range(len(d))) for d in seqs)
    distinct = [len({s.tobytes() for s in d}) for d in seqs]
    shared = full = 0.0
    for d in seqs:
        for k, w in enumerate(CARD_WEIGHTS):
            shared += w * len({s[:k].tobytes() for s in d})  # positions reached at card k
            full += w * len(d)
    print(f"{a.deals} deals, bids {lo}-{hi}, {time.perf_counter() - start:.0f} s")
    print(f"played alike at every bid: {alike} deals; card sequences a deal: "
          f"{np.mean(distinct):.1f} on average, {max(distinct)} at most")  # fmt: skip
    print(f"each position solved once, against today's: {shared / full:.2f} of the cost")


if __name__ == "__main__":
    main()
