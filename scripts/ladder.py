"""The ladder of the built-in strategies: ladder.{md,csv,png}, matchups.csv, ladder_run.json.

    python scripts/ladder.py --games 2000 --seed 2024 --out results   # the committed ones

Without ``--out`` it writes to a new temporary folder and prints where.

Every pair of strategies plays ``--games`` games in duplicate (the same seed,
so every matchup sees the same deals); Bradley-Terry ratings on the Elo scale
with 95% bootstrap intervals (cinch_sim.matches.ladder says how).
"""

from __future__ import annotations

import argparse
import json

from outdir import add_out_option, out_folder

from cinch_sim import notation as N
from cinch_sim.checks import LADDER_BOOTSTRAP
from cinch_sim.cli.commands.compare import format_ladder
from cinch_sim.matches.ladder import ladder
from cinch_sim.matches.plots import ladder_figure, save
from cinch_sim.outputs import atomic_write_text, versions
from cinch_sim.policies.strategies import BUILTIN


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--bootstrap", type=int, default=LADDER_BOOTSTRAP)
    add_out_option(ap, "the ladder's files")
    players = [n for n, s in BUILTIN.items() if s.play.strip() != "dd"]  # dd is no player
    ap.add_argument("strategies", nargs="*", default=players)
    args = ap.parse_args()
    out = out_folder(args.out, "ladder")
    lad = ladder(args.strategies, games=args.games, seed=args.seed, bootstrap=args.bootstrap)
    ratings = lad.ratings(args.seed)
    matchups = lad.matchups()
    text = format_ladder(
        ratings, matchups, lad.settings["games_per_matchup"], args.seed, lad.seconds
    )
    print(text)
    cmd = (  # the strategies too: the default list grows as players are added
        f"python scripts/ladder.py --games {args.games} --seed {args.seed} "
        f"--bootstrap {args.bootstrap} {' '.join(args.strategies)}"
    )
    md = [
        "# Ladder of the built-in strategies",
        "",
        f"Made by `{cmd}` "
        f"(same as `cinch-sim ladder {' '.join(args.strategies)} --games {args.games} "
        f"--seed {args.seed} --bootstrap {args.bootstrap}`), standard rules, games to 51.",
        "",
        "Every pair of strategies plays duplicate games: each deal sequence twice, the "
        "strategies swapping seats. Ratings: Bradley-Terry on the Elo scale (mean 0), "
        "fitted to each matchup's duplicate pairs with one pair won and one lost added, "
        "and 95% bootstrap intervals that resample those pairs, on each rating and on its "
        'difference from the best (docs/statistics.md, "The ladder"). Win-rate '
        "intervals: t over pairs (``cinch_sim.matches.compare``).",
        "",
        "| rank | strategy | rating | 95% interval | vs best | 95% interval | games | score |",
        "|---:|---|---:|---|---:|---|---:|---:|",
    ]
    for r in ratings.itertuples():
        md.append(
            f"| {r.rank} | {r.strategy} | {N.number(r.rating, 0, signed=True)} | "
            f"{N.interval(r.rating_lo, r.rating_hi, 0, signed=True)} | "
            f"{N.number(r.vs_best, 0, signed=True)} | "
            f"{N.interval(r.vs_best_lo, r.vs_best_hi, 0, signed=True)} | {r.games:,} | "
            f"{N.rate(r.score)} |"
        )
    md += [
        "",
        "| A | B | games | win rate of A | 95% interval | points/hand A-B | "
        "95% interval | hands/game |",
        "|---|---|---:|---:|---|---:|---|---:|",
    ]
    for m in matchups.itertuples():
        md.append(
            f"| {m.a} | {m.b} | {m.games:,} | {m.win_rate_a:.3f} | "
            f"[{m.win_rate_lo:.3f}, {m.win_rate_hi:.3f}] | {m.points_per_hand_diff:+.2f} | "
            f"[{m.points_diff_lo:+.2f}, {m.points_diff_hi:+.2f}] | {m.mean_game_length:.1f} |"
        )
    md += ["", "![ladder](ladder.png)", "", "```", text, "```", ""]
    atomic_write_text(out / "ladder.md", "\n".join(md))
    atomic_write_text(out / "ladder.csv", ratings.to_csv(index=False))
    atomic_write_text(out / "matchups.csv", matchups.to_csv(index=False))
    save(ladder_figure(ratings), out / "ladder.png")
    settings = dict(lad.settings)
    settings.update(script=cmd, seconds=round(lad.seconds, 3), versions=versions())
    atomic_write_text(out / "ladder_run.json", json.dumps(settings, indent=2, default=str) + "\n")


if __name__ == "__main__":
    main()
