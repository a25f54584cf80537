"""Each preset's most common bid and how often the heuristic makes it.

Usage: python scripts/preset_make_rates.py [--hands 200000] [--seed 32] [--out DIR]

Writes ``presets.md`` to ``--out`` (committed: ``--out results``).

Issue 32 asks that each preset's players be fitted to their own game and that
the make rate at each preset's most common bid be reported beside the canonical
game's. This is that table for this version's heuristic (bidding from each
preset's own fitted hand model where it has one, naming trump, discarding and playing at every
seat). A make rate far from the standard game's says the bidder misjudges that
game. The first table, before the fitted models, is in the file's history
(19734d8); results/preset_models.md compares the models one by one.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from outdir import add_out_option, out_folder  # noqa: E402

from cinch_sim import api  # noqa: E402
from cinch_sim import notation as N  # noqa: E402
from cinch_sim.rules import VARIANTS  # noqa: E402
from cinch_sim.version import __version__  # noqa: E402


def row(variant: str, hands: int, seed: int) -> dict:
    """The preset's most common bid, its share of contracts and its make rate."""
    sim = api.simulate(hands=hands, seed=seed, variant=variant)
    t = sim.by_bid()
    top = t.loc[t["hands"].idxmax()]
    made = int(t["made"].sum())
    contracts = int(t["hands"].sum())
    return {
        "preset": variant,
        "hands with a contract": contracts,
        "made overall": f"{100 * made / contracts:.1f}%",
        "most common bid": int(top["bid"]),
        "its share": f"{100 * top['hands'] / contracts:.1f}%",
        "made at it": N.rate_with_interval(
            top["make_rate"], top["make_rate_lo"], top["make_rate_hi"]
        ),  # fmt: skip
    }


def _cell(value: object) -> str:
    """A table cell: counts with thousands separators, the rest as they are."""
    return f"{value:,}" if isinstance(value, int) and value >= 1000 else str(value)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=32)
    add_out_option(ap, "presets.md")
    a = ap.parse_args()
    rows = [row(v, a.hands, a.seed) for v in VARIANTS]
    head = list(rows[0])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(_cell(r[k]) for k in head) + " |" for r in rows]
    text = "\n".join(lines)
    print(text)
    intro = INTRO.format(hands=a.hands, seed=a.seed, version=__version__)
    (out_folder(a.out, "presets") / "presets.md").write_text(intro + text + "\n", "utf-8")


INTRO = """# Each preset's bidding under the heuristic

Issue 32 asks for the make rate at each preset's most common bid beside the
canonical game's. For each preset, {hands:,} hands with the heuristic of
cinch_sim {version} bidding (from the preset's own fitted hand model, or the standard
weights where it has none: no_draw), naming
trump, discarding and playing at every seat (seed {seed}): its most common bid,
that bid's share of the contracts and how often it is made, with its 95%
Wilson interval. Made by `python scripts/preset_make_rates.py --out results`.
The table before the fitted models (the baseline they were measured against)
is in this file's history; results/preset_models.md compares each model with
the one before it, in matches.

"""


if __name__ == "__main__":
    main()
