"""How much the tuned `heuristic` strategy gained over its first version.

Usage: python scripts/heuristic_versions.py [--games 20000] [--seed 31]

The first version is the same code with its first parameters: the
traditional "Pedros first" hand model, bid margin 0.6, waiting on a partner's
bid by 2, side aces kept from four trumps, and trumping in for any point.
Prints the duplicate-match win rate and points per hand of the current
defaults against it, with 95% intervals.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cinch_sim.matches.compare import compare  # noqa: E402
from cinch_sim.policies.strategies import BUILTIN  # noqa: E402

TRADITIONAL = dict(
    intercept=0.9, right=4.2, left=3.4, ace=1.3, king=0.45, queen=0.25, jack=0.55, ten=0.35,
    length=0.45, low=0.25,
)  # fmt: skip


def first_version():
    h = BUILTIN["heuristic_v1"]  # the same code, the play fixes off
    return (
        h.with_params("bid", **TRADITIONAL, margin=0.6, cap=62, steal=2.0)
        .with_params("trump", **TRADITIONAL)
        .with_params("discard", keep_ace_trumps=4.0)
        .with_params("play", catch_points=1.0)
        .renamed("heuristic-v0")
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=31)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    s = compare(BUILTIN["heuristic"], first_version(), games=args.games, seed=args.seed).summary()
    lo, hi = s["win_rate_ci"]
    plo, phi = s["points_per_hand_diff_ci"]
    print(
        f"heuristic vs heuristic-v0 over {s['games']:,} games: win rate {s['win_rate']:.3f} "
        f"[{lo:.3f}, {hi:.3f}], points per hand {s['points_per_hand_diff']:+.2f} "
        f"[{plo:+.2f}, {phi:+.2f}]"
    )


if __name__ == "__main__":
    main()
