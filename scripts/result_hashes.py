"""Hashes of traced hands and games: proof that a change left every result bit-identical.

A restructuring or a kernel speed-up must not change a single number. This
script plays fixed workloads with tracing on and hashes every result row and
trace row (SHA-256 of the raw arrays):

- ``hands/*``: 50,000 traced hands under each of W2, W3, heuristic, random,
  heuristic_v1 and heuristic_v2 (earlier heuristics, kept: their hashes are the
  ones ``hands/heuristic`` had before issue 18's and issue 29's play fixes);
- ``options/*``: 20,000 traced hands under each of 17 option sets (the
  docs/rules.md §2 options, plus structural rule sets the kernel already plays);
- ``games/*``: 400 traced games under each of 5 policy mixes.

``--scale`` shrinks every count (the test suite runs a small sample).
``--write FILE`` stores the hashes under a key (``full`` or ``sample``);
``--check FILE`` compares with the stored ones and exits 1 naming each
workload that differs.

    python scripts/result_hashes.py --check scripts/result_hashes.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from cinch_sim.engine.run import PolicySet, run_chunk, run_games
from cinch_sim.rules import VARIANTS, Rules

RANDOM = dict(bid="random", trump="random", discard="random", play="random")
W2 = dict(bid="simple", trump="simple", discard="simple", play="random")
W3 = dict(W2, play="greedy")
HEURISTIC = dict(bid="heuristic", trump="heuristic", discard="heuristic", play="heuristic")
HEURISTIC_V1 = {k: "heuristic_v1" for k in HEURISTIC}
HEURISTIC_V2 = {k: "heuristic_v2" for k in HEURISTIC}
SIMPLE_GREEDY = dict(W3)

BENCH_RULES = Rules(robber="dealer")  # docs/benchmarks.md's W2/W3 rules

HAND_SETS = {
    "w2": (BENCH_RULES, W2),
    "w3": (BENCH_RULES, W3),
    "heuristic": (Rules(), HEURISTIC),
    "random": (Rules(), RANDOM),
    # the first heuristic, kept as it played: equal to hands/heuristic before the fixes
    "heuristic_v1": (Rules(), HEURISTIC_V1),
    # the heuristic before issue 29's fixes: equal to hands/heuristic before them
    "heuristic_v2": (Rules(), HEURISTIC_V2),
}

_CUTTHROAT3 = Rules(players=3, partnerships=False, robber="none")
OPTION_SETS: dict[str, tuple[Rules, dict[str, str]]] = {
    "default": (Rules(), RANDOM),
    "robber_dealer": (Rules(robber="dealer"), HEURISTIC),
    "robber_none": (Rules(robber="none"), SIMPLE_GREEDY),
    "in_order": (Rules(robber="none", shortage="in_order"), SIMPLE_GREEDY),
    "limit_discards": (
        Rules(robber="none", shortage="limit_discards", must_discard_nontrumps=True),
        SIMPLE_GREEDY,
    ),
    "strict": (Rules(follow_rule="strict"), HEURISTIC),
    "non_point_only": (Rules(excess_trump_discard="non_point_only"), RANDOM),
    "low_high": (
        Rules(low_rule="deuce_only", low_to="player", high_rule="highest_in_play"),
        HEURISTIC,
    ),
    "difference": (Rules(scoring="difference", bid_min=3, bid_max=9), RANDOM),
    "forced_min": (Rules(all_pass="dealer_forced_min", bid_min=5), SIMPLE_GREEDY),
    "redeal_next": (Rules(all_pass="redeal_next"), SIMPLE_GREEDY),
    "face_up": (Rules(discards_face_up=True, min_score_loss=2), HEURISTIC),
    "no_draw": (Rules(draw=False, cards_dealt=6, robber="none"), RANDOM),
    "auction": (Rules(bid_rounds=0), RANDOM),
    "cutthroat3": (_CUTTHROAT3, RANDOM),
    "six_players": (
        replace(Rules(robber="none"), players=6, cards_dealt=6, hand_size=6, draw=False),
        RANDOM,
    ),
    "widow": (VARIANTS["widow"], RANDOM),  # every seat keeps six of thirteen
}

GAME_SETS = {
    "heuristic": (Rules(), HEURISTIC),
    "heuristic_v1": (Rules(), HEURISTIC_V1),
    "heuristic_v2": (Rules(), HEURISTIC_V2),
    "w3": (Rules(), W3),
    "mixed": (Rules(robber="dealer"), dict(RANDOM, bid="heuristic", play="greedy")),
}


def _digest(*arrays: np.ndarray) -> str:
    h = hashlib.sha256()
    for a in arrays:
        h.update(str(a.dtype).encode() + str(a.shape).encode())
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def _policies(rules: Rules, specs: dict[str, str]) -> PolicySet:
    return PolicySet.from_specs(rules.players, **specs)


def compute(scale: float = 1.0) -> dict[str, str]:
    """Every workload's hash, keyed ``group/name``."""
    n_hands, n_options, n_games = (max(1, int(n * scale)) for n in (50_000, 20_000, 400))
    out: dict[str, str] = {}
    for name, (rules, specs) in HAND_SETS.items():
        rows, tr = run_chunk(rules, _policies(rules, specs), 7, 0, n_hands, dealer=3, trace=True)
        out[f"hands/{name}"] = _digest(rows, tr)
    for i, (name, (rules, specs)) in enumerate(OPTION_SETS.items()):
        dealer = i % rules.players
        rows, tr = run_chunk(
            rules, _policies(rules, specs), 100 + i, 0, n_options, dealer, trace=True
        )
        out[f"options/{name}"] = _digest(rows, tr)
    for name, (rules, specs) in GAME_SETS.items():
        games, hands, tr = run_games(rules, _policies(rules, specs), 11, 0, n_games, trace=True)
        out[f"games/{name}"] = _digest(games, hands, tr)
    return out


def differences(found: dict[str, str], stored: dict[str, str]) -> list[str]:
    """The workloads whose hash differs from (or is missing in) the stored set."""
    names = sorted(set(found) | set(stored))
    return [n for n in names if found.get(n) != stored.get(n)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every count (0 < x <= 1)")
    ap.add_argument("--key", help="which stored set: full (scale 1) or sample (otherwise)")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--write", type=Path, help="store the hashes in this JSON file")
    group.add_argument("--check", type=Path, help="compare with the hashes stored in this file")
    args = ap.parse_args()
    if not 0 < args.scale <= 1:
        ap.error("--scale must be in (0, 1]")
    key = args.key or ("full" if args.scale == 1 else "sample")
    found = compute(args.scale)
    if args.write:
        stored = json.loads(args.write.read_text()) if args.write.exists() else {}
        stored[key] = {"scale": args.scale, "hashes": found}
        args.write.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(found)} hashes under {key!r} to {args.write}")
        return 0
    if args.check:
        stored = json.loads(args.check.read_text())[key]
        if stored["scale"] != args.scale:
            print(f"{args.check} holds {key!r} at scale {stored['scale']}, not {args.scale}")
            return 2
        bad = differences(found, stored["hashes"])
        for name in bad:
            print(f"differs: {name}")
        print(f"{len(found) - len(bad)} of {len(found)} workloads identical")
        return 1 if bad else 0
    for name, digest in found.items():
        print(f"{digest}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
