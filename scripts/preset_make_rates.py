"""Each preset's most common bid and how often the heuristic makes it.

Usage: python scripts/preset_make_rates.py [--hands 200000] [--seed 32] [--write FILE]

Issue 32 asks that each preset's players be fitted to their own game and that
the make rate at each preset's most common bid be reported beside the canonical
game's. This is that table for today's heuristic (bidding, trump, discards and
play at every seat): the baseline a fitted player is measured against. A make
rate far from the standard game's says the bidder misjudges that game.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cinch_sim import api  # noqa: E402
from cinch_sim.rules import VARIANTS  # noqa: E402


def row(variant: str, hands: int, seed: int) -> dict:
    """The preset's most common bid, its share of contracts and its make rate."""
    sim = api.simulate(hands=hands, seed=seed, variant=variant)
    t = sim.by_bid()
    top = t.loc[t["hands"].idxmax()]
    made = int(t["made"].sum())
    contracts = int(t["hands"].sum())
    return {
        "preset": variant,
        "contracts": contracts,
        "made overall": f"{100 * made / contracts:.1f}%",
        "most common bid": int(top["bid"]),
        "its share": f"{100 * top['hands'] / contracts:.1f}%",
        "made at it": f"{100 * top['make_rate']:.1f}% [{100 * top['make_rate_lo']:.1f}, "
        f"{100 * top['make_rate_hi']:.1f}]",
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=32)
    ap.add_argument("--write", type=Path, default=None, help="append the table here")
    a = ap.parse_args()
    rows = [row(v, a.hands, a.seed) for v in VARIANTS]
    head = list(rows[0])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(f"{r[k]:,}" if isinstance(r[k], int) and k == "contracts"
                                else str(r[k]) for k in head) + " |" for r in rows]  # fmt: skip
    text = "\n".join(lines)
    print(text)
    if a.write:
        with open(a.write, "a", encoding="utf-8") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
