"""Fit the heuristic bidder's hand model for a preset: expected points of the maker's side.

Usage: python scripts/fit_hand_model.py [--variant standard] [--hands 200000] [--seed 5]
                                        [--rule NAME=VALUE ...] [--play heuristic|dd|pimc]
                                        [--write]

The eldest hand is made the maker at each trump suit in turn (contract 0, so
nothing depends on the bid) on the same deals, with the preset's default
policies bidding, naming trump and discarding and ``--play`` playing (the
heuristic by default; ``dd``, perfect play, or ``pimc`` for a bidder of strong
play: issue 31). The side's points are regressed by least squares on what the
maker was dealt in that suit, as ``heuristic.hand_features`` reads it from the
preset's tables: the five strongest trumps, the point cards outside them, the
number of trumps, a low trump. Prints the weights by slot name and the fit's
residual spread; ``--write`` stores them as the preset's model
(``cinch_sim/policies/hand_models.json``), which the heuristic then bids and names
trump with in that preset. With ``--play pimc`` they are stored as ``PRESET@pimc``,
the model a heuristic vector with ``preset_model = 2`` takes (the strategy
``pimc_fitted``); its margin is scanned as below, ``pimc_fitted`` against itself
under PIMC play, only when ``--games`` is given (a few minutes a shift in the
six-card classic games, hours in most others; the standard game's margin is
``pimc_fitted``'s own, set by the matches in results/pimc.md). A slot
the preset has no card for (a fourth point card in the standard game) gets
weight 0.

A least-squares fit says what a hand is worth, not how far below that to bid:
the bidder's margin was tuned in the standard game, where a hand's points
spread less than in, say, two decks. So ``--write`` then tries each shift of
the margin in ``MARGIN_SHIFTS`` against none, in duplicate games (rotations
with more than two sides) on seed ``--scan-seed``, and stores the best shift
whose 95% interval lies above an even result (else 0) as ``margin_shift``.
scripts/preset_models_match.py measures the result on other seeds.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import warnings
from dataclasses import replace
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cinch_sim import layout as L  # noqa: E402
from cinch_sim.api import compare  # noqa: E402
from cinch_sim.engine.run import Conditions, PolicySet, run_chunk, run_deals  # noqa: E402
from cinch_sim.policies.hand_models import MODEL_SLOTS, write_model  # noqa: E402
from cinch_sim.policies.heuristic import B_MARGIN as MARGIN_SLOT  # noqa: E402
from cinch_sim.policies.heuristic import hand_features  # noqa: E402
from cinch_sim.policies.strategies import resolve_strategy  # noqa: E402
from cinch_sim.rules import make_rules, parse_rule_assignments  # noqa: E402

# the regression's columns, in MODEL_SLOTS order (other_points last)
N_FEATURES = len(MODEL_SLOTS)
MARGIN_SHIFTS = (-1.0, -0.5, 0.5, 1.0, 1.5, 2.0, 3.0)


@njit  # not cached: the tests load this script by path, where numba cannot cache
def features(rules, hands, suit):
    """Per hand, the model's columns for ``suit`` as trump (the intercept's 1 first)."""
    obs = np.zeros(L.OBS_LEN, np.int64)
    obs[L.O_RULES : L.O_RULES + L.R_LEN] = rules
    out = np.zeros((hands.shape[0], N_FEATURES))
    for i in range(hands.shape[0]):
        t0, t1, t2, t3, t4, p0, p1, p2, p3, other, length, low = hand_features(obs, hands[i], suit)
        out[i, 0] = 1.0
        out[i, 1:5] = (p0, p1, p2, p3)
        out[i, 5:10] = (t0, t1, t2, t3, t4)
        out[i, 10] = length
        out[i, 11] = low
        out[i, 12] = other
    return out


def fit(variant: str, options: dict, hands: int, seed: int, play: str):
    """Weights by slot name, the residual sd and R^2."""
    rules = make_rules(variant, options)
    policies = PolicySet.from_specs(rules.players, play=play)
    dealer, maker = rules.players - 1, 0  # the maker is eldest
    dealt = run_deals(rules, seed, 0, hands, dealer)[:, maker].copy()
    xs, ys = [], []
    for trump in range(4):
        cond = Conditions(force_maker=maker, force_trump=trump, force_bid=0)
        rows, _ = run_chunk(rules, policies, seed, 0, hands, dealer, cond)
        x = features(rules.to_array(), dealt, trump)
        # the number of trumps from the kernel's own count (both copies with two decks)
        x[:, 10] = rows[:, L.H_MAKER_TRUMPS_DEALT]
        xs.append(x)
        ys.append(rows[:, L.H_POINTS + rules.seat_teams[maker]])
    x = np.vstack(xs)
    y = np.concatenate(ys).astype(float)
    used = x.std(axis=0) > 0
    used[0] = True
    coef = np.zeros(N_FEATURES)
    coef[used], *_ = np.linalg.lstsq(x[:, used], y, rcond=None)
    resid = y - x @ coef
    r2 = 1 - resid.var() / y.var()
    return dict(zip(MODEL_SLOTS, (float(c) for c in coef), strict=True)), float(resid.std()), r2


def match_rate(m) -> tuple[float, float, float, float]:
    """A match's measure of its side A: (rate, lo, hi, fair): the win rate in duplicate
    games against an even 0.5, or with more sides A's share of the wins against the
    fair share 1/players."""
    s = m.summary()
    if m.cutthroat:
        return s["a_share"], *s["a_share_ci"], s["fair_share"]
    return s["win_rate"], *s["win_rate_ci"], 0.5


def scan_margin(variant: str, games: int, seed: int, strategy: str) -> tuple[float, list[dict]]:
    """The best margin shift for ``strategy`` with the preset's stored model (0 unless
    one beats none)."""
    rules = make_rules(variant)
    base = resolve_strategy(strategy)
    margin = base.policy("bid").params[MARGIN_SLOT]
    best, best_rate, tried = 0.0, -1.0, []
    for shift in MARGIN_SHIFTS:
        other = replace(base.with_params("bid", margin=margin + shift), name=f"margin{shift:+}")
        rate, lo, hi, fair = match_rate(compare(other, base, games=games, seed=seed, rules=rules))
        tried.append(dict(shift=shift, rate=round(rate, 4), lo=round(lo, 4), hi=round(hi, 4)))
        print(f"margin {shift:+.1f}: {100 * rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] "
              f"(even: {100 * fair:.1f}%)", flush=True)  # fmt: skip
        if lo > fair and rate - fair > best_rate:
            best, best_rate = shift, rate - fair
    return best, tried


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="standard", help="the preset (default standard)")
    ap.add_argument("--hands", type=int, default=200_000, help="deals per trump suit")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--play", default="heuristic", help="every seat's play policy")
    ap.add_argument("--write", action="store_true", help="store as the preset's model")
    games_help = "games a margin shift (--write; 10,000, none with --play pimc)"
    ap.add_argument("--games", type=int, default=None, help=games_help)
    ap.add_argument("--scan-seed", type=int, default=3100, help="seed of the margin scan")
    args = ap.parse_args()
    if args.write and (args.play not in ("heuristic", "pimc") or args.rule):
        ap.error("--write stores a preset's model for heuristic or pimc play, without --rule")
    warnings.simplefilter("ignore")
    options = parse_rule_assignments(args.rule)
    weights, sd, r2 = fit(args.variant, options, args.hands, args.seed, args.play)
    for name in MODEL_SLOTS:
        print(f"{name:13s} {weights[name]:+.3f}")
    print(f"residual sd {sd:.2f} points; R^2 {r2:.3f}")
    if args.write:
        command = "python scripts/fit_hand_model.py " + shlex.join(sys.argv[1:])
        fitted = dict(command=command, hands_per_suit=args.hands, seed=args.seed,
                      residual_sd=round(sd, 3), r2=round(r2, 4))  # fmt: skip
        strong = args.play == "pimc"
        name = f"{args.variant}@pimc" if strong else args.variant
        strategy = "pimc_fitted" if strong else "heuristic"
        default_games = None if strong else 10_000  # PIMC play: a scan only when asked
        games = default_games if args.games is None else args.games
        if strong:
            fitted["play"] = "pimc"
        write_model(name, weights | {"margin_shift": 0.0}, fitted)
        if games is None:
            print(f"stored as {name} (the model preset_model = 2 takes), margin not scanned")
            return
        shift, tried = scan_margin(args.variant, games, args.scan_seed, strategy)
        fitted |= dict(margin_games=games, margin_seed=args.scan_seed, margin_scan=tried)
        write_model(name, weights | {"margin_shift": shift}, fitted)
        print(f"stored as {name}, margin shift {shift:+.1f}")


if __name__ == "__main__":
    main()
