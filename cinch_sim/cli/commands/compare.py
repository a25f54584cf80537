"""``cinch-sim compare`` and ``cinch-sim ladder``: strategies over whole games, in duplicate."""

from __future__ import annotations

import json
import sys

import click

from cinch_sim.cli.options import AtLeast, friendly, output_options, rules_option, run_options
from cinch_sim.cli.progress import Progress


def _match_options(f):
    f = click.option(
        "--pairing",
        type=click.Choice(["swap", "rotate"]),
        default="swap",
        help="swap: same dealer, the strategies swap seats; rotate: the next seat deals "
        "the replay. Either way each strategy keeps its own random streams.",
    )(f)
    f = click.option(
        "--max-hands",
        type=click.IntRange(1, 65535),
        default=256,
        help="A game still going after this many hands is unfinished (half a win each).",
    )(f)
    f = run_options(f)
    f = click.option(
        "--games",
        type=AtLeast("games", 1),
        default=1000,
        help="Games per match (pairs of games: an odd number is rounded up).",
    )(f)
    return f


def _strategy(spec: str):
    from cinch_sim.policies.strategies import StrategyError, resolve_strategy

    try:
        return resolve_strategy(spec)
    except StrategyError as exc:
        raise click.ClickException(str(exc)) from None


@click.command(context_settings={"show_default": True})
@click.argument("strategy_a")
@click.argument("strategy_b")
@_match_options
@rules_option
@click.option(
    "--records",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write every game as a cinch-game/1 JSON Lines record (pair by pair: the game "
    "with A in seats 0 and 2, then its replay).",
)
@output_options(("table", "json"), "Folder for CSV tables, charts (PNG) and run.json.")
@friendly
def compare(
    strategy_a,
    strategy_b,
    games,
    seed,
    threads,
    max_hands,
    pairing,
    rules,
    records,
    fmt,
    out,
    force,
):
    """Play STRATEGY_A against STRATEGY_B in duplicate games to the target.

    Every deal sequence is played twice, the strategies trading places, so the
    luck of the cards cancels. Reports A's game win rate and the paired points
    per hand difference, each with a 95% interval and a p-value for "no
    difference".

    A STRATEGY is a built-in bundle (random, simple, greedy, heuristic) or a
    TOML file naming the four policies and their parameters.
    """
    from cinch_sim.api import compare as run_compare
    from cinch_sim.outputs import atomic_write_text, prepare_out_dir, write_run_json
    from cinch_sim.policies.strategies import distinct_names

    a, b = distinct_names([_strategy(strategy_a), _strategy(strategy_b)])
    out_dir = prepare_out_dir(out, force) if out else None
    n_games = 2 * ((games + 1) // 2)
    bar = Progress(n_games, "playing", unit="games", threshold=20_000)
    try:
        cmp = run_compare(
            a,
            b,
            games,
            seed,
            rules,
            max_hands,
            pairing,
            threads=threads,
            records=records or None,
            progress=bar,
        )
    finally:
        bar.close()
    s = cmp.summary()
    if fmt == "json":
        d = cmp.to_dict()
        click.echo(json.dumps(d, default=_json_default))
    else:
        click.echo(format_comparison(s, seed, cmp.seconds))
    if out_dir is not None:
        from cinch_sim.matches import plots as P

        gf = cmp.games_frame()
        atomic_write_text(out_dir / "games.csv", gf.to_csv(index=False))
        atomic_write_text(out_dir / "sides.csv", cmp.table().to_csv(index=False))
        atomic_write_text(
            out_dir / "summary.json",
            json.dumps(cmp.to_dict(), indent=2, default=_json_default) + "\n",
        )
        P.save(P.win_rate_figure(s), out_dir / "win_rate.png")
        P.save(P.margin_figure(gf, a.name, b.name), out_dir / "margins.png")
        settings = dict(cmp.settings)
        settings.update(games_done=cmp.games, interrupted=cmp.interrupted, records=records)
        write_run_json(out_dir, settings)
    if cmp.interrupted:
        click.echo(f"interrupted: kept the {cmp.games:,} finished games", err=True)
        sys.exit(130)


def _json_default(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return str(x)


def format_comparison(s: dict, seed: int, seconds: float) -> str:
    a, b = s["a"], s["b"]
    lo, hi = s["win_rate_ci"]
    plo, phi = s["points_per_hand_diff_ci"]
    lines = [
        f"{a} vs {b}: {s['games']:,} games ({s['pairs']:,} duplicate pairs), seed {seed}; "
        f"{seconds:.2f} s",
        f"games won: {a} {s['a_wins']:,}, {b} {s['b_wins']:,}, unfinished {s['unfinished']:,}",
        "",
        f"win rate of {a}:        {s['win_rate']:.4f}  [{lo:.4f}, {hi:.4f}]  "
        f"p = {s['win_rate_p_value']:.3g}",
        f"points per hand, {a} - {b}: {s['points_per_hand_diff']:+.3f}  [{plo:+.3f}, {phi:+.3f}]"
        f"  p = {s['points_p_value']:.3g}  ({s['paired_hands']:,} paired hands)",
        f"average game length:     {s['mean_game_length']:.2f} hands",
        "",
        f"{'':<14}{'bids':>9}{'made':>9}{'set':>9}{'make %':>8}{'avg bid':>8}"
        f"{'RP taken':>9}{'LP taken':>9}",
    ]
    for key, name in (("a_side", a), ("b_side", b)):
        x = s[key]
        lines.append(
            f"{name[:13]:<14}{x['contracts']:>9,}{x['made']:>9,}{x['set']:>9,}"
            f"{100 * x['make_rate']:>8.1f}{x['average_bid']:>8.2f}"
            f"{x['right_pedro_capture']:>9.3f}{x['left_pedro_capture']:>9.3f}"
        )
    lines.append(f"({s['level']:.0%} intervals over duplicate pairs; p-values for no difference)")
    return "\n".join(lines)


@click.command(context_settings={"show_default": True})
@click.argument("strategies", nargs=-1, required=True)
@_match_options
@rules_option
@click.option(
    "--bootstrap",
    type=click.IntRange(min=0),
    default=200,
    help="Bootstrap resamples for the rating intervals.",
)
@output_options(("table", "json"), "Folder for CSV tables, charts (PNG) and run.json.")
@friendly
def ladder(strategies, games, seed, threads, max_hands, pairing, rules, bootstrap, fmt, out, force):
    """Play every pair of STRATEGIES in duplicate and rate them (Bradley-Terry, Elo scale).

    --games counts games per pair of strategies. Ratings have 95% bootstrap
    intervals (pairs of games resampled within each matchup).

    A STRATEGY is a built-in bundle (random, simple, greedy, heuristic) or a
    TOML file naming the four policies and their parameters.
    """
    from cinch_sim.api import ladder as run_ladder
    from cinch_sim.outputs import atomic_write_text, prepare_out_dir, write_run_json

    strats = [_strategy(s) for s in strategies]
    if len(strats) < 2:
        raise click.UsageError("a ladder needs at least two strategies")
    out_dir = prepare_out_dir(out, force) if out else None
    n_pairs = len(strats) * (len(strats) - 1) // 2
    bar = Progress(n_pairs * 2 * ((games + 1) // 2), "playing", unit="games", threshold=20_000)
    try:
        lad = run_ladder(strats, games, seed, rules, max_hands, pairing, threads, bar, bootstrap)
    finally:
        bar.close()
    ratings = lad.ratings(seed)
    matchups = lad.matchups()
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    **lad.settings,
                    "interrupted": lad.interrupted,
                    "seconds": round(lad.seconds, 3),
                    "ratings": ratings.to_dict(orient="records"),
                    "matchups": matchups.to_dict(orient="records"),
                },
                default=_json_default,
            )
        )
    else:
        click.echo(
            format_ladder(ratings, matchups, lad.settings["games_per_matchup"], seed, lad.seconds)
        )
    if out_dir is not None:
        from cinch_sim.matches import plots as P

        atomic_write_text(out_dir / "ladder.csv", ratings.to_csv(index=False))
        atomic_write_text(out_dir / "matchups.csv", matchups.to_csv(index=False))
        P.save(P.ladder_figure(ratings), out_dir / "ladder.png")
        settings = dict(lad.settings)
        settings.update(interrupted=lad.interrupted)
        write_run_json(out_dir, settings)
    if lad.interrupted:
        click.echo("interrupted: rated the finished games only", err=True)
        sys.exit(130)


def format_ladder(ratings, matchups, games, seed, seconds) -> str:
    lines = [
        f"{games:,} games per matchup in duplicate, seed {seed}; {seconds:.1f} s",
        "",
        f"{'rank':>4}  {'strategy':<14}{'rating':>8}  {'95% interval':<18}{'games':>8}{'score':>8}",
    ]
    for r in ratings.itertuples():
        lines.append(
            f"{r.rank:>4}  {r.strategy[:13]:<14}{r.rating:>8.0f}  "
            f"[{r.rating_lo:>6.0f}, {r.rating_hi:>6.0f}]  {r.games:>8,}{r.score:>8.3f}"
        )
    lines += [
        "",
        f"{'A':<12}{'B':<12}{'win rate A':>11}  {'95% interval':<17}"
        f"{'pts/hand':>9}  {'hands/game':>10}",
    ]
    for m in matchups.itertuples():
        lines.append(
            f"{m.a[:11]:<12}{m.b[:11]:<12}{m.win_rate_a:>11.3f}  "
            f"[{m.win_rate_lo:.3f}, {m.win_rate_hi:.3f}]  {m.points_per_hand_diff:>+9.2f}  "
            f"{m.mean_game_length:>10.1f}"
        )
    return "\n".join(lines)
