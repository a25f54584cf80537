"""How the PIMC player's cost and strength grow with its samples per decision:
pimc_samples.md and pimc_samples.json in ``--out``.

    python scripts/pimc_samples.py --samples 4 8 16 32 64 --hands 200 --games 400 --out results

(``--out results``: the committed ones; without ``--out`` it writes to a new
temporary folder and prints where.)

For each sample count: the time a hand takes with PIMC at every seat (one
thread, compiled beforehand, the heuristic's bidding and discards), per hand
and per PIMC decision; and a duplicate match against the heuristic
(``compare``: win rate and points per hand with 95% intervals), on the same
seed for every count, so the counts meet the same deals.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from outdir import add_out_option, out_folder

from cinch_sim import layout as L
from cinch_sim.api import compare
from cinch_sim.engine import threads
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.outputs import atomic_write_text, versions
from cinch_sim.policies.strategies import BUILTIN
from cinch_sim.rules import Rules


def decisions(out: np.ndarray) -> int:
    """Play decisions with a choice are not counted by the kernel: an upper bound,
    every card of every hand played (the last trick is never a choice)."""
    played = out[out[:, L.H_MAKER] >= 0]
    return int(played[:, L.H_N_TRICKS].sum()) * 4


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, nargs="+", default=[4, 8, 16, 32, 64])
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=11)
    add_out_option(ap, "pimc_samples.md and pimc_samples.json")
    args = ap.parse_args()
    out_dir = out_folder(args.out, "pimc-samples")
    rules = Rules()
    rows = []
    for n in args.samples:
        strat = BUILTIN["pimc"].with_params("play", samples=float(n))
        pol = strat.policies()
        ps = PolicySet(*([pol[k]] * 4 for k in ("bid", "trump", "discard", "play")))
        run_chunk(rules, ps, args.seed, 0, 1)
        with threads.using(1):
            t0 = time.perf_counter()
            out, _ = run_chunk(rules, ps, args.seed, 0, args.hands)
            sec = time.perf_counter() - t0
        match = compare(strat.renamed(f"pimc{n}"), "heuristic", games=args.games, seed=args.seed)
        s = match.summary()
        row = {
            "samples": n,
            "ms_per_hand": 1000 * sec / args.hands,
            "ms_per_card_at_most": 1000 * sec / max(1, decisions(out)),
            "win_rate": s["win_rate"],
            "win_rate_ci": s["win_rate_ci"],
            "points_per_hand_diff": s["points_per_hand_diff"],
            "points_per_hand_diff_ci": s["points_per_hand_diff_ci"],
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
    cmd = (
        "python scripts/pimc_samples.py --samples "
        + " ".join(map(str, args.samples))
        + f" --hands {args.hands} --games {args.games} --seed {args.seed}"
    )
    md = [
        "# PIMC: cost and strength by samples per decision",
        "",
        f"Made by `{cmd}`, standard rules. Time: a hand with PIMC at all four seats "
        f"({args.hands} hands, one thread, compiled beforehand). Strength: "
        f"{args.games} duplicate games against `heuristic` (95% intervals over pairs).",
        "",
        "| samples | ms a hand (4 PIMC seats) | win rate vs heuristic | 95% interval "
        "| points a hand | 95% interval |",
        "|---:|---:|---:|---|---:|---|",
    ]
    for r in rows:
        lo, hi = r["win_rate_ci"]
        plo, phi = r["points_per_hand_diff_ci"]
        md.append(
            f"| {r['samples']} | {r['ms_per_hand']:.1f} | {100 * r['win_rate']:.1f}% | "
            f"[{100 * lo:.1f}, {100 * hi:.1f}] | {r['points_per_hand_diff']:+.2f} | "
            f"[{plo:+.2f}, {phi:+.2f}] |"
        )
    atomic_write_text(out_dir / "pimc_samples.md", "\n".join(md) + "\n")
    settings = {"command": cmd, **versions()}
    atomic_write_text(
        out_dir / "pimc_samples.json",
        json.dumps({"settings": settings, "rows": rows}, indent=2) + "\n",
    )


if __name__ == "__main__":
    main()
