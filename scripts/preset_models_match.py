"""Each preset's fitted heuristic against the heuristic before the fit (issue 32, part 3).

Usage: python scripts/preset_models_match.py [--games 10000] [--seed 3200] [--hands 200000]
                                             [--variant NAME ...] [--out DIR]

Writes ``preset_models.md`` and ``preset_models.json`` to ``--out`` (committed:
``--out results``).

For every preset with a stored hand model (``cinch_sim/policies/hand_models.json``),
the built-in ``heuristic`` (bidding and naming trump with that model) plays
``today``: the same heuristic with the weights it had before the presets got
models. ``today``'s vectors are the standard game's weights moved to the slots that
now hold the same cards (``Rules.bid_slots``: in sancho the first point slot is
Sancho, which the old bidder counted at ``other_points`` a point), with its
intercept scaled to the game as before, so it bids as the old heuristic did.
Two sides play duplicate games (the win rate); more sides play rotations (A's
share of the wins against a fair 1/players). Beside it, each side's make rate at
the preset's most common bid, from ``--hands`` hands with one strategy at every
seat, and the standard game's for comparison.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fit_hand_model import match_rate  # noqa: E402
from outdir import add_out_option, out_folder  # noqa: E402

from cinch_sim import layout as L  # noqa: E402
from cinch_sim.analysis.intervals import wilson  # noqa: E402
from cinch_sim.api import compare  # noqa: E402
from cinch_sim.cards import RANKS  # noqa: E402
from cinch_sim.engine.run import PolicySet, run_chunk  # noqa: E402
from cinch_sim.policies import heuristic as H  # noqa: E402
from cinch_sim.policies.hand_models import preset_model  # noqa: E402
from cinch_sim.policies.loading import load_policy  # noqa: E402
from cinch_sim.policies.strategies import Strategy  # noqa: E402
from cinch_sim.rules import VARIANTS, Rules, make_rules  # noqa: E402

TOP = (H.B_ACE, H.B_KING, H.B_QUEEN, H.B_JACK, H.B_TEN)  # the five strongest trumps
POINT = (H.B_RIGHT, H.B_LEFT, H.B_POINT3, H.B_POINT4)  # the point cards outside them


def today_vector(rules: Rules, kind: str) -> tuple[float, ...]:
    """The heuristic's ``kind`` (bid or trump) vector as it bid before the presets had
    models: each weight where the card it weighed now sits, cards the old model had
    no slot for at ``other_points`` a point, the intercept scaled (game_fitted 0)."""
    v = np.array(load_policy(kind, "heuristic").param_vector())
    out = v.copy()
    for s in TOP + POINT:
        out[s] = 0.0
    out[H.B_PRESET_MODEL] = 0.0
    slots = rules.bid_slots()

    def put(slot: int, weight: float) -> None:
        code = slots[slot]
        if 0 <= code < L.BID_TOP_SLOTS:
            out[TOP[code]] += weight
        elif L.BID_POINT_SLOT <= code < L.BID_OTHER_POINTS:
            out[POINT[code - L.BID_POINT_SLOT]] += weight

    # the old slots named cards by rank: the 5 (B_RIGHT), the left card, A K Q J 10
    put(RANKS.index("5"), v[H.B_RIGHT])
    if rules.left_rank:
        put(13, v[H.B_LEFT])
    for rank, s in zip("AKQJT", TOP, strict=True):
        put(RANKS.index(rank), v[s])
    for _, rank, pts in rules.point_cards:  # a point card with no slot of its own
        if rank not in "5TJ":
            put(RANKS.index(rank), v[H.B_OTHER_POINTS] * pts)
    return tuple(float(x) for x in out)


def today(rules: Rules) -> Strategy:
    return Strategy(
        "today",
        params={k: today_vector(rules, k) for k in ("bid", "trump")},
        description="the heuristic before each preset had its own hand model",
    )


def make_rate(rules: Rules, strategy: Strategy, hands: int, seed: int) -> dict:
    """The most common bid with one strategy at every seat, and how often it is made."""
    ps = PolicySet.from_specs(rules.players)
    for kind in ("bid", "trump"):
        getattr(ps, kind)[:] = [strategy.policy(kind)] * rules.players
    rows, _ = run_chunk(rules, ps, seed, 0, hands, rules.players - 1)
    bid = rows[:, L.H_BID]
    made = rows[:, L.H_MADE]
    bids, counts = np.unique(bid[bid > 0], return_counts=True)
    top = int(bids[counts.argmax()])
    at = bid == top
    k, n = int((made[at] == 1).sum()), int(at.sum())
    lo, hi = (float(x) for x in wilson(k, n))
    return dict(bid=top, share=n / int((bid > 0).sum()), made=k / n, lo=lo, hi=hi)


def match(rules: Rules, games: int, seed: int) -> dict:
    t0 = time.perf_counter()
    m = compare("heuristic", today(rules), games=games, seed=seed, rules=rules)
    s = m.summary()
    rate, lo, hi, fair = match_rate(m)
    return dict(
        games=s["games"],
        measure="share of wins" if m.cutthroat else "win rate",
        fair=fair,
        rate=rate,
        ci=[lo, hi],
        points=s["points_per_hand_diff"],
        points_ci=s["points_per_hand_diff_ci"],
        seconds=time.perf_counter() - t0,
    )


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=3200)
    ap.add_argument("--hands", type=int, default=200_000, help="hands for the make rates")
    ap.add_argument("--variant", action="append", default=None, help="only these presets")
    add_out_option(ap, "preset_models.md and .json")
    a = ap.parse_args()
    warnings.simplefilter("ignore")
    names = a.variant or [v for v in VARIANTS if preset_model(v) is not None]
    std = make_rules("standard")
    base = make_rate(std, Strategy("heuristic"), a.hands, a.seed)
    out = {"settings": vars(a) | {"out": str(a.out)}, "standard": base, "presets": {}}
    lines = [
        "| preset | games | fitted vs today | 95% interval | points a hand | "
        "most common bid (fitted / today) | made at it, fitted | made at it, today |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name in names:
        rules = make_rules(name)
        games = a.games // 4 if rules.decks == 2 else a.games
        res = match(rules, games, a.seed)
        res["fitted"] = make_rate(rules, Strategy("heuristic"), a.hands, a.seed)
        res["today"] = make_rate(rules, today(rules), a.hands, a.seed)
        out["presets"][name] = res
        f, t = res["fitted"], res["today"]
        fair = "" if res["fair"] == 0.5 else f" (fair {_pct(res['fair'])}%)"
        lines.append(
            f"| {name} | {res['games']:,} | {_pct(res['rate'])}% {res['measure']}{fair} | "
            f"[{_pct(res['ci'][0])}, {_pct(res['ci'][1])}] | {res['points']:+.2f} "
            f"[{res['points_ci'][0]:+.2f}, {res['points_ci'][1]:+.2f}] | {f['bid']} / {t['bid']} | "
            f"{_pct(f['made'])}% [{_pct(f['lo'])}, {_pct(f['hi'])}] | "
            f"{_pct(t['made'])}% [{_pct(t['lo'])}, {_pct(t['hi'])}] |"
        )
        print(lines[-1], flush=True)
    std_line = (
        f"The standard game (its model is the tuned default, unchanged): most common bid "
        f"{base['bid']}, made {_pct(base['made'])}% [{_pct(base['lo'])}, {_pct(base['hi'])}]."
    )
    text = INTRO.format(**vars(a)) + "\n".join(lines) + "\n\n" + std_line + "\n"
    folder = out_folder(a.out, "preset-models")
    (folder / "preset_models.md").write_text(text, "utf-8")
    (folder / "preset_models.json").write_text(json.dumps(out, indent=1) + "\n", "utf-8")
    print(std_line)
    print(f"wrote {folder / 'preset_models.md'}")


INTRO = """# Each preset's own hand model against the heuristic before it

Issue 32: the heuristic bids and names trump with a hand model fitted to each
preset's own game (`python scripts/fit_hand_model.py --variant NAME --write`).
Here it plays `today`, the same heuristic with the standard game's weights
moved to the same cards and its intercept scaled as before. Two sides:
duplicate games, the fitted side's win rate; more sides: rotations (the fitted
player at each seat in turn against the others), its share of the wins against
the fair share. Points a hand: the fitted side's minus the other's, per paired
hand. Make rates: {hands:,} hands with one strategy at every seat. Seed {seed};
{games:,} games a preset (a quarter of that with two decks). Made by
`python scripts/preset_models_match.py --out results`.

"""


if __name__ == "__main__":
    main()
