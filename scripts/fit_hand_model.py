"""Fit the heuristic bidder's hand model: expected points of the maker's side.

Usage: python scripts/fit_hand_model.py [--hands 200000] [--seed 5] [--rule NAME=VALUE ...]
                                        [--play heuristic|dd|pimc]

The eldest hand is made the maker at each trump suit in turn (contract 0, so
nothing depends on the bid) on the same deals, with the default policies
bidding, naming trump and discarding and ``--play`` playing (the heuristic by
default; ``dd``, perfect play, for the bidder of strong play: issue 31); the
side's points are regressed by least squares on what the maker
was dealt in that suit: the Right and Left Pedro, A K Q J 10, the number of
trumps. Prints the weights in the order of the bid parameter slots
(B_INTERCEPT, B_RIGHT, B_LEFT, B_ACE, B_KING, B_QUEEN, B_JACK, B_TEN,
B_LENGTH) and the fit's residual spread. (B_LOW, a low trump, is not in the
kernel's per-hand features; its weight was set by a duplicate match.)
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cinch_sim import layout as L  # noqa: E402
from cinch_sim.engine.run import Conditions, PolicySet, run_chunk  # noqa: E402
from cinch_sim.rules import make_rules, parse_rule_assignments  # noqa: E402

NAMES = ("intercept", "right", "left", "ace", "king", "queen", "jack", "ten", "length")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200_000, help="deals per trump suit")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--play", default="heuristic", help="every seat's play policy")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    rules = make_rules(options=parse_rule_assignments(args.rule))
    policies = PolicySet.from_specs(rules.players, play=args.play)
    dealer, maker = 3, 0
    xs, ys = [], []
    for trump in range(4):
        cond = Conditions(force_maker=maker, force_trump=trump, force_bid=0)
        rows, _ = run_chunk(rules, policies, args.seed, 0, args.hands, dealer, cond)
        ped, hi = rows[:, L.H_MAKER_PEDROS_DEALT], rows[:, L.H_MAKER_HONOURS_DEALT]
        xs.append(
            np.column_stack(
                [np.ones(len(rows)), ped & 1, ped >> 1 & 1]
                + [hi >> b & 1 for b in (4, 3, 2, 1, 0)]
                + [rows[:, L.H_MAKER_TRUMPS_DEALT]]
            )
        )
        ys.append(rows[:, L.H_POINTS + maker % rules.teams])
    x = np.vstack(xs).astype(float)
    y = np.concatenate(ys).astype(float)
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    resid = y - x @ coef
    for name, c in zip(NAMES, coef, strict=True):
        print(f"{name:10s} {c:+.3f}")
    print(f"residual sd {resid.std():.2f} points; R^2 {1 - resid.var() / y.var():.3f}")


if __name__ == "__main__":
    main()
