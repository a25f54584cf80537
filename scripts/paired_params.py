"""One built-in parameter changed, measured on the very same hands.

Usage: python scripts/paired_params.py KIND NAME=VALUE [--variant V] [--hands N]
                                       [--seed S] [--policy heuristic]

Plays ``--hands`` hands twice with the same seed at every seat under the built-in
``--policy`` (bidding, trump, discards and play): once with its defaults, once with
parameter NAME of KIND (bid, trump, discard or play) set to VALUE at every seat.
The deals and streams are the same, so only the hands where the change changed a
choice differ. Prints how many differ and, over those, the mean change in the
maker's side's margin (its points minus the other sides') with a 95% t interval,
and the make rates. A change that touches few hands (a two-deck keep with more
trumps than the hand holds: 0.86% of two_deck hands) is measured far more tightly
this way than in whole games, where its effect is lost among the hands it leaves
alone. Made for this release with:

    python scripts/paired_params.py discard best_of_both_copies=0 --variant two_deck \\
        --hands 400000 --seed 2001     # then --seed 2002

(the default then plays as the changed parameter's ``A``, the other as ``B``: a
positive difference favours the default).

``--seats 0,2`` changes the parameter at those seats only (a side's seats), and the
measure is then that side's score change minus the other sides' (their mean), on
the hands that differ: for a bidding change, whose maker is not the same on both
plays, the maker's margin says nothing. Made for this release with:

    python scripts/paired_params.py bid min_bid=7.3 --variant no_draw --seats 0,2 \
        --hands 400000 --seed 2101     # then --seed 2102

``--others POLICY`` plays the other seats' cards with another play policy (with
``--seats``): whether a rule found and tuned in self-play still gains against
another player's defence, PIMC's above all. Made for this release with:

    python scripts/paired_params.py play lead_top_trump=0 --seats 0,2 --others pimc \
        --hands 3000 --seed 7302
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
from scipy import stats  # noqa: E402

from cinch_sim import layout as L  # noqa: E402
from cinch_sim.engine.run import PolicySet, run_chunk  # noqa: E402
from cinch_sim.policies.strategies import param_names  # noqa: E402
from cinch_sim.rules import make_rules  # noqa: E402

KINDS = ("bid", "trump", "discard", "play")


class _Fixed(PolicySet):
    """A policy set whose parameter array is given (one slot changed at every seat)."""

    board: np.ndarray

    def params(self, rules: object = None) -> np.ndarray:
        return self.board


def play(rules, base: PolicySet, params: np.ndarray, seed: int, hands: int) -> np.ndarray:
    ps = _Fixed(**base.by_kind())
    ps.board = params
    return run_chunk(rules, ps, seed, 0, hands, rules.players - 1)[0]


def margins(rows: np.ndarray, rules) -> np.ndarray:
    """The maker's side's points minus the other sides' (their mean in cut-throat)."""
    teams = np.asarray(rules.seat_teams)
    maker = teams[np.maximum(rows[:, L.H_MAKER], 0)]
    pts = rows[:, L.H_POINTS : L.H_POINTS + rules.teams].astype(float)
    own = pts[np.arange(len(rows)), maker]
    return own - (pts.sum(axis=1) - own) / max(rules.teams - 1, 1)


def side_scores(rows: np.ndarray, rules, seats: list[int]) -> np.ndarray:
    """The score change of ``seats``' side minus the other sides' mean."""
    teams = np.asarray(rules.seat_teams)
    side = int(teams[seats[0]])
    score = rows[:, L.H_SCORE : L.H_SCORE + rules.teams].astype(float)
    own = score[:, side]
    return own - (score.sum(axis=1) - own) / max(rules.teams - 1, 1)


def policy_set(rules, policy: str, seats: list[int], others: str | None) -> PolicySet:
    """``policy`` at every seat for every decision, but the play of the seats outside
    ``seats`` by ``others`` where it is given."""
    plays = [policy if s in seats or not others else others for s in range(rules.players)]
    return PolicySet.from_specs(rules.players, policy, policy, policy, plays)


def parse_seats(text: str | None, rules) -> list[int]:
    """Every seat, or the seats named (one side's: the measure is that side's)."""
    if text is None:
        return list(range(rules.players))
    seats = sorted({int(s) for s in text.split(",")})
    if not seats or seats[0] < 0 or seats[-1] >= rules.players:
        sys.exit(f"--seats: seats 0 to {rules.players - 1}")
    if len({rules.seat_teams[s] for s in seats}) != 1:
        sys.exit("--seats: the seats of one side")
    return seats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=KINDS)
    ap.add_argument("setting", metavar="NAME=VALUE")
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--seats", help="change only these seats (one side's), e.g. 0,2")
    ap.add_argument("--others", help="with --seats: the other seats' play policy, e.g. pimc")
    args = ap.parse_args()
    name, _, value = args.setting.partition("=")
    names = param_names(args.kind, args.policy)
    if name not in names or not value:
        sys.exit(f"{args.kind} parameter NAME=VALUE: {args.policy}'s are {', '.join(names)}")
    rules = make_rules(args.variant)
    seats = parse_seats(args.seats, rules)
    if args.others and args.seats is None:
        sys.exit("--others: with --seats (the side whose parameter changes)")
    base = policy_set(rules, args.policy, seats, args.others)
    default = base.params(rules)
    changed = default.copy()
    changed[KINDS.index(args.kind), seats, names.index(name)] = float(value)
    a = play(rules, base, default, args.seed, args.hands)
    b = play(rules, base, changed, args.seed, args.hands)
    differ = np.flatnonzero(np.any(a != b, axis=1))
    print(f"{args.variant}, {args.hands:,} hands, seed {args.seed}: {len(differ):,} differ "
          f"({len(differ) / args.hands:.2%}) with {args.kind} {name}={value}")  # fmt: skip
    if len(differ) < 2:
        return
    if args.seats is None:
        d = (margins(a, rules) - margins(b, rules))[differ]
        measure = "the maker's side's margin"
    else:
        d = (side_scores(a, rules, seats) - side_scores(b, rules, seats))[differ]
        measure = f"seats {args.seats}' side's score change against the others'"
    half = stats.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
    print(f"{measure}, defaults minus {name}={value}, on those hands: "
          f"{d.mean():+.2f} [{d.mean() - half:+.2f}, {d.mean() + half:+.2f}]; "
          f"over all hands {d.sum() / args.hands:+.4f} a hand")  # fmt: skip
    contracts = differ[a[differ, L.H_BID] > 0]
    if len(contracts):
        made_a, made_b = a[contracts, L.H_MADE].mean(), b[contracts, L.H_MADE].mean()
        print(f"made there: {made_a:.1%} with the defaults, {made_b:.1%} with {name}={value}")


if __name__ == "__main__":
    main()
