"""Coordinate search over the heuristic's parameters by duplicate self-play.

Usage: python scripts/tune_heuristic.py [--games 20000] [--seconds 300] [--seed 1]
       [--threads 1] [--out DIR]

Starting from the built-in ``heuristic`` (or ``--start``), each round tries
every coordinate of the search space one step up and one step down (a flag:
its other value) and plays the changed strategy against the current best in
a duplicate match (``cinch_sim.api.compare``: the same deals for both sides,
seats swapped). A change is kept only when the lower end of its win rate's
95% interval is above 0.5, so noise does not walk the vector; a step that
finds nothing in a round is halved. The deals change every round (the seed
counts up), so a change must win on fresh deals too. The search stops when
the time budget is spent or a round keeps nothing at the smallest steps.

It prints each trial and writes everything it found to tune_heuristic.json in
``--out`` (``--out results``: the committed one; without ``--out``, a new
temporary folder, printed): the start
and best parameter vectors (by name), every trial with its win rate and
interval, and a final match of the best against the start and against
``heuristic_v1`` on deals the search never saw.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from outdir import add_out_option, out_folder  # noqa: E402

from cinch_sim.api import compare  # noqa: E402
from cinch_sim.policies.strategies import BUILTIN, Strategy, param_names  # noqa: E402


@dataclass(frozen=True)
class Coordinate:
    """One searched parameter: its plug point, name, first step and bounds."""

    kind: str
    name: str
    step: float
    lo: float
    hi: float
    flag: bool = False  # 0/1: try the other value instead of steps
    whole: bool = False  # read as a whole number: the step is never halved

    @property
    def smallest(self) -> float:
        return self.step if self.whole or self.flag else self.step / 4


SPACE = (
    Coordinate("bid", "margin", 0.5, -2.0, 4.0),
    Coordinate("bid", "behind", 0.5, 0.0, 4.0),
    Coordinate("bid", "ahead", 0.5, 0.0, 4.0),
    Coordinate("bid", "near", 2.0, 0.0, 14.0),
    Coordinate("bid", "min_bid", 1.0, 1.0, 8.0, whole=True),
    Coordinate("bid", "steal", 1.0, 0.0, 4.0, whole=True),
    Coordinate("bid", "intercept", 0.25, 3.0, 7.0),
    Coordinate("bid", "right", 0.25, 0.0, 5.0),
    Coordinate("bid", "left", 0.25, 0.0, 5.0),
    Coordinate("bid", "ace", 0.25, 0.0, 3.0),
    Coordinate("bid", "king", 0.25, 0.0, 3.0),
    Coordinate("bid", "jack", 0.25, 0.0, 3.0),
    Coordinate("bid", "length", 0.1, 0.0, 1.5),
    Coordinate("discard", "keep_ace_trumps", 1.0, 3.0, 9.0, whole=True),
    Coordinate("play", "catch_points", 1.0, 0.0, 10.0, whole=True),
    Coordinate("play", "cover_points", 1.0, 0.0, 6.0, whole=True),
    Coordinate("play", "pull_trumps", 1.0, 0.0, 1.0, flag=True),
    Coordinate("play", "cheap_on_sure", 1.0, 0.0, 1.0, flag=True),
    Coordinate("play", "lead_sure_pedro", 1.0, 0.0, 1.0, flag=True),
    Coordinate("play", "ace_needs_safe", 1.0, 0.0, 1.0, flag=True),
)


def value(s: Strategy, c: Coordinate) -> float:
    """The coordinate's current value in strategy s."""
    names = param_names(c.kind, s.spec(c.kind))
    return float(s.policy(c.kind).params[names.index(c.name)])


def named_params(s: Strategy) -> dict[str, dict[str, float]]:
    """Every parameter of s by plug point and name (what the JSON records)."""
    out: dict[str, dict[str, float]] = {}
    for kind in ("bid", "trump", "discard", "play"):
        names = param_names(kind, s.spec(kind))
        out[kind] = dict(zip(names, map(float, s.policy(kind).params), strict=True))
    return out


def candidates(s: Strategy, c: Coordinate, step: float) -> list[float]:
    v = value(s, c)
    if c.flag:
        return [1.0 - v if v in (0.0, 1.0) else 0.0]
    return [x for x in (round(v + step, 6), round(v - step, 6)) if c.lo <= x <= c.hi]


def match(a: Strategy, b: Strategy, games: int, seed: int, threads: int) -> dict:
    s = compare(a.renamed("candidate"), b.renamed("best"), games=games, seed=seed, threads=threads)
    out = s.summary()
    lo, hi = out["win_rate_ci"]
    return dict(win_rate=out["win_rate"], ci=[lo, hi], ppd=out["points_per_hand_diff"])


def search(args: argparse.Namespace) -> dict:
    start = BUILTIN[args.start]
    best = start
    steps = {c: c.step for c in SPACE}
    trials: list[dict] = []
    t0 = time.monotonic()
    seed = args.seed
    rounds = 0
    while time.monotonic() - t0 < args.seconds:
        rounds += 1
        kept = 0
        for c in SPACE:
            if time.monotonic() - t0 >= args.seconds:
                break
            found = False
            for x in candidates(best, c, steps[c]):
                trial = best.with_params(c.kind, **{c.name: x})
                seed += 1
                r = match(trial, best, args.games, seed, args.threads)
                keep = r["ci"][0] > 0.5
                trials.append(dict(round=rounds, kind=c.kind, name=c.name, value=x, **r, kept=keep))
                lo, hi = r["ci"]
                mark = "kept" if keep else ""
                print(
                    f"round {rounds} {c.kind}.{c.name} = {x:g}: win rate {r['win_rate']:.3f} "
                    f"[{lo:.3f}, {hi:.3f}] {mark}",
                    flush=True,
                )
                if keep:
                    best, found = trial, True
                    kept += 1
                    break
            if not found:
                steps[c] = max(steps[c] / 2, c.smallest)
        if kept == 0 and all(steps[c] <= c.smallest for c in SPACE):
            break
    final_seed = args.seed + 100_000  # deals the search never played
    n, th = args.final_games, args.threads
    final = dict(
        vs_start=match(best, start, n, final_seed, th),
        vs_heuristic_v1=match(best, BUILTIN["heuristic_v1"], n, final_seed, th),
    )
    return dict(
        games_per_trial=args.games,
        seconds=round(time.monotonic() - t0, 1),
        rounds=rounds,
        seed=args.seed,
        start=args.start,
        start_params=named_params(start),
        best_params=named_params(best),
        changed={
            f"{c.kind}.{c.name}": [value(start, c), value(best, c)]
            for c in SPACE
            if value(start, c) != value(best, c)
        },
        final_games=args.final_games,
        final=final,
        trials=trials,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000, help="duplicate games per trial")
    ap.add_argument("--seconds", type=float, default=300.0, help="time budget of the search")
    ap.add_argument("--final-games", type=int, default=8000, help="games of the final matches")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--start", default="heuristic", choices=sorted(BUILTIN))
    add_out_option(ap, "tune_heuristic.json")
    args = ap.parse_args()
    if args.games < 2 or args.final_games < 2 or args.seconds <= 0:
        ap.error("--games and --final-games must be at least 2, --seconds positive")
    out = out_folder(args.out, "tune-heuristic") / "tune_heuristic.json"
    warnings.simplefilter("ignore")
    found = search(args)
    out.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    print("changed:", found["changed"] or "nothing")
    for k, r in found["final"].items():
        lo, hi = r["ci"]
        print(f"best {k}: win rate {r['win_rate']:.3f} [{lo:.3f}, {hi:.3f}], ppd {r['ppd']:+.3f}")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
