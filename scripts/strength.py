"""How many points a hand each built-in play policy gives away against double-dummy
play, on the same deals: strength.md and strength.json in ``--out``.

    python scripts/strength.py --hands 1000 --seed 3 --out results   # the committed ones

Without ``--out`` it writes to a new temporary folder and prints where.

Every play policy plays the same hands at all four seats, after the same
bidding, trump and discards (the heuristic's, which the play does not change),
so every policy starts its play from the same positions. Each hand is then
solved card by card (``cinch_sim.solver.review``): a card "gives away" the drop
from the best double-dummy value its player had to the value after it. The
table gives the mean per hand per side with a 95% t interval over hands, the
double-dummy value at the start of play (the same for every policy: a check),
the make rate, and the play's cost per hand on one thread. Each policy after the
first is also compared with the first on the same hands: the paired difference
of what they give away, with its 95% interval.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from outdir import add_out_option, out_folder
from scipy import stats

from cinch_sim import layout as L
from cinch_sim.engine import threads
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.outputs import atomic_write_text, versions
from cinch_sim.policies.registry import names
from cinch_sim.rules import Rules
from cinch_sim.solver import position as Q
from cinch_sim.solver.review import Solver


def _mean_ci(x: np.ndarray) -> tuple[float, float, float]:
    m = float(x.mean())
    h = float(stats.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x)))
    return m, m - h, m + h


def measure(play: str, hands: int, seed: int) -> dict:
    """Play ``hands`` hands with ``play`` at every seat; review each against DD play."""
    rules = Rules()
    ps = PolicySet.from_specs(4, "heuristic", "heuristic", "heuristic", play)
    run_chunk(rules, ps, seed, 0, 1)  # compile outside the timing
    with threads.using(1):
        t0 = time.perf_counter()
        out, trace = run_chunk(rules, ps, seed, 0, hands, trace=True)
        seconds = time.perf_counter() - t0
    solver = Solver(rules)
    maker_lost, defence_lost, start, made, which = [], [], [], [], []
    for i, (row, tr) in enumerate(zip(out, trace, strict=True)):
        if row[L.H_MAKER] < 0:
            continue
        which.append(i)
        pos, plays = Q.from_trace(rules, row, tr)
        review = solver.review(pos, plays)
        lost = review.lost
        maker_lost.append(lost[review.maker_team])
        defence_lost.append(sum(lost) - lost[review.maker_team])
        start.append(review.start)
        made.append(row[L.H_MADE])
    maker_a, defence_a = np.array(maker_lost, float), np.array(defence_lost, float)
    mean, lo, hi = _mean_ci((maker_a + defence_a) / 2)  # both sides play the policy
    return {
        "play": play,
        "hands": len(start),
        "given_away_per_side": mean,
        "given_away_ci": [lo, hi],
        "given_away_by_maker_side": float(maker_a.mean()),
        "given_away_by_defenders": float(defence_a.mean()),
        "dd_start_mean": float(np.mean(start)),
        "make_rate": float(np.mean(made)),
        "us_per_hand": 1e6 * seconds / hands,
        # per hand, for the paired differences (not written: one number a hand)
        "_per_hand": dict(zip(which, (maker_a + defence_a) / 2, strict=True)),
    }


def paired(row: dict, base: dict) -> tuple[float, float, float]:
    """``row``'s points given away a side a hand minus ``base``'s on the same hands, with
    a paired 95% t interval: far tighter than the two intervals apart, since a hand's
    difficulty is common to both."""
    both = sorted(set(row["_per_hand"]) & set(base["_per_hand"]))
    d = np.array([row["_per_hand"][i] - base["_per_hand"][i] for i in both], float)
    return _mean_ci(d)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=3)
    add_out_option(ap, "strength.md and strength.json")
    ap.add_argument("plays", nargs="*", default=list(names("play")))
    args = ap.parse_args()
    out = out_folder(args.out, "strength")
    rows = []
    for play in args.plays:
        r = measure(play, args.hands, args.seed)
        if rows:  # against the first policy named, hand by hand
            m, lo, hi = paired(r, rows[0])
            r["paired_vs_first"] = {"against": rows[0]["play"], "mean": m, "ci": [lo, hi]}
        rows.append(r)
        vs = r.get("paired_vs_first")
        print(
            f"{play:13s} gives away {r['given_away_per_side']:.3f} "
            f"[{r['given_away_ci'][0]:.3f}, {r['given_away_ci'][1]:.3f}] a side a hand"
            + (f", {vs['mean']:+.3f} [{vs['ci'][0]:+.3f}, {vs['ci'][1]:+.3f}] against "
               f"{vs['against']} on the same hands" if vs else "")
            + f"; {r['us_per_hand']:,.1f} µs a hand",
            flush=True,
        )  # fmt: skip
    cmd = f"python scripts/strength.py --hands {args.hands} --seed {args.seed}"
    md = [
        "# Points given away against double-dummy play",
        "",
        f"Made by `{cmd}`, standard rules. Each play policy plays the same "
        f"{args.hands} deals at all four seats after the heuristic's bidding, trump "
        "and discards (so every policy starts from the same positions: the same "
        "double-dummy value at the start). For every card played, the drop from the "
        "best double-dummy value its player had to the value after the card, summed "
        "per side and hand. 95% t intervals over hands. Time: the whole hand's play "
        "on one thread, the bidding and draw included (they are the same for all).",
        "",
        "| play policy | given away a side a hand | 95% interval | by the maker's side "
        "| by the defenders | DD value at start | make rate | µs a hand |",
        "|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        md.append(
            f"| {r['play']} | {r['given_away_per_side']:.3f} | "
            f"[{r['given_away_ci'][0]:.3f}, {r['given_away_ci'][1]:.3f}] | "
            f"{r['given_away_by_maker_side']:.3f} | {r['given_away_by_defenders']:.3f} | "
            f"{r['dd_start_mean']:.2f} | {100 * r['make_rate']:.1f}% | "
            f"{r['us_per_hand']:,.1f} |"
        )
    atomic_write_text(out / "strength.md", "\n".join(md) + "\n")
    settings = {"command": cmd, "hands": args.hands, "seed": args.seed, **versions()}
    shown = [{k: v for k, v in r.items() if not k.startswith("_")} for r in rows]
    atomic_write_text(
        out / "strength.json", json.dumps({"settings": settings, "rows": shown}, indent=2) + "\n"
    )


if __name__ == "__main__":
    main()
