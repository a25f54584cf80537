"""Does the luck of the deals a duplicate pair does not share explain its score?

Usage: python scripts/luck_control_variate.py A B [--pairs N] [--seed S]

Issue 31 asked for a control variate for ``compare``: a number known to average
zero, correlated with the pair score, to subtract from it. In a duplicate pair
the shared deals' luck cancels (each strategy holds each side's cards once), so
the only luck left is in the hands one game plays after the other has ended.
This script measures it: for each hand, each side's strength is the heuristic
bidder's own estimate of its best seat's best suit (its fitted hand model:
intercept, Pedros, A K Q J 10, trumps), a function of the cards dealt alone, so
that A's side's strength less B's averages zero over any hand a game goes on
to play (Wald: whether a hand is played depends only on the hands before it).
The pair's luck is the sum over both games; the script prints its mean (near
zero), its correlation with the pair score, and the share of the pair score's
variance a control variate built on it would remove (rho squared).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cinch_sim import layout as L  # noqa: E402
from cinch_sim.analysis.card_values import maker_positions  # noqa: E402
from cinch_sim.cards import card, left_card  # noqa: E402
from cinch_sim.matches.play import play_pairs  # noqa: E402
from cinch_sim.policies import heuristic as H  # noqa: E402
from cinch_sim.policies.strategies import resolve_strategy  # noqa: E402
from cinch_sim.rules import Rules  # noqa: E402

# the heuristic bidder's fitted weights (policies/heuristic.py): the Right and Left
# Pedro, A K Q J 10 of trumps, each trump held (the intercept is the same for all)
_W = H.DEFAULT_PARAMS["heuristic_trump"]
WEIGHTS = {
    "right": _W[H.B_RIGHT],
    "left": _W[H.B_LEFT],
    "A": _W[H.B_ACE],
    "K": _W[H.B_KING],
    "Q": _W[H.B_QUEEN],
    "J": _W[H.B_JACK],
    "T": _W[H.B_TEN],
}
PER_TRUMP = _W[H.B_LENGTH]


def suit_weights() -> np.ndarray:
    """[suit, card]: what holding the card adds to the estimate with that suit trumps."""
    w = np.zeros((4, 52))
    for s in range(4):
        for c in range(52):
            if c // 13 == s or c == left_card(s):
                w[s, c] += PER_TRUMP
        w[s, card(s, 3)] += WEIGHTS["right"]
        w[s, left_card(s)] += WEIGHTS["left"]
        for rank, letter in zip((12, 11, 10, 9, 8), "AKQJT", strict=True):
            w[s, card(s, rank)] += WEIGHTS[letter]
    return w


def game_luck(rules: Rules, games: np.ndarray, trace: np.ndarray, a_team: int) -> np.ndarray:
    """Per game: the sum over its hands of A's side's strength less B's."""
    w = suit_weights()
    teams = np.array(rules.seat_teams)
    out = np.zeros(len(games))
    for i, g in enumerate(games):
        for h in range(int(g[L.G_N_HANDS])):
            deck = trace[i, h, L.T_DECK : L.T_DECK + 52].astype(int)
            dealer = (int(g[L.G_FIRST_DEALER]) + h) % rules.players
            best = np.array(
                [w[:, deck[maker_positions(rules, dealer, seat)]].sum(axis=1).max()
                 for seat in range(rules.players)]
            )  # fmt: skip
            out[i] += best[teams == a_team].max() - best[teams != a_team].max()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--pairs", type=int, default=600)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    rules = Rules()
    a, b = resolve_strategy(args.a), resolve_strategy(args.b)
    scores, luck = [], []
    for start in range(0, args.pairs, 50):
        n = min(50, args.pairs - start)
        ch = play_pairs(rules, a, b, args.seed, start, n, trace=True)
        wins, lucks = [], []
        for j in range(2):
            g, ta = ch.games[j], ch.a_team[j]
            winner = g[:, L.G_WINNER]
            wins.append(np.where(winner == ta, 1.0, np.where(winner == 1 - ta, 0.0, 0.5)))
            lucks.append(game_luck(rules, g, ch.trace[j], ta))
        scores.append((wins[0] + wins[1]) / 2)
        luck.append(lucks[0] + lucks[1])
    y, x = np.concatenate(scores), np.concatenate(luck)
    rho = float(np.corrcoef(y, x)[0, 1])
    print(f"{args.a} vs {args.b}, {len(y)} pairs, seed {args.seed}: pair score "
          f"{y.mean():.3f} (sd {y.std(ddof=1):.3f}); luck {x.mean():+.3f} "
          f"(se {x.std(ddof=1) / np.sqrt(len(x)):.3f}); correlation {rho:+.3f}: a "
          f"control variate removes {100 * rho**2:.1f}% of the variance")  # fmt: skip


if __name__ == "__main__":
    main()
