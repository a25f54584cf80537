"""``cinch-sim compare`` and ``cinch-sim ladder``: strategies over whole games, in duplicate."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable

import click

from cinch_sim import notation as N
from cinch_sim.checks import LADDER_BOOTSTRAP
from cinch_sim.cli.files import output_file, results_on_stderr_if_stdout_taken
from cinch_sim.cli.options import (
    AtLeast,
    BadInput,
    Count,
    ResumableCommand,
    StrategyType,
    chunk_options,
    csv_table_of,
    friendly,
    interrupted_line,
    match_pairing_checked,
    output_options,
    rules_option,
    run_folder,
    run_options,
    stopped,
    table_option,
)
from cinch_sim.cli.progress import Progress
from cinch_sim.interrupts import finishing
from cinch_sim.runs.chunks import PAIRS_CHUNK, SLOW_MATCH_GAMES, SLOW_PAIRS_CHUNK
from cinch_sim.text_tables import text_table

# the slow default in words: a cut-throat rotation is a game a seat, so fewer a chunk
SLOW_MATCH_TEXT = f"{SLOW_PAIRS_CHUNK} (cut-throat: rotations of about {SLOW_MATCH_GAMES} games)"

COMPARE_TABLES = ("sides", "games")  # --format csv prints one; --out writes NAME.csv each
LADDER_TABLES = ("ladder", "matchups", "games")
LADDER_ALIASES = {"ratings": "ladder"}  # the Python API's name of the ladder table


def _match_options(f):
    f = click.option(
        "--pairing",
        type=click.Choice(["swap", "rotate"]),
        default="swap",
        help="swap: same dealer, the strategies swap seats; rotate: the next seat deals "
        "the replay. Either way each strategy keeps its own random streams. Cut-throat "
        "(more than two sides): swap only, A rotated through every seat.",
    )(f)
    f = click.option(
        "--max-hands",
        type=AtLeast("max-hands", 1, 65535),
        default=256,
        help="A game still going after this many hands is unfinished: half a win each "
        "(in cut-throat, a share of 1/players each).",
    )(f)
    f = run_options(f)
    f = click.option(
        "--games",
        type=Count("games", 1),
        default=1000,
        help="Games per match (pairs of games: an odd number is rounded up).",
    )(f)
    return f


STRATEGY_HELP = """
    A STRATEGY is a built-in bundle (random, simple, greedy, heuristic,
    heuristic_v1 and heuristic_v2: the heuristic before its fixes; pimc,
    pimc_infer, pimc_fitted: PIMC play) or a TOML file naming the four
    policies and their parameters (docs/policies.md).

    Cost, on two cores: heuristic against heuristic plays 1,000 games in
    about a second; a PIMC side about 10 s a 100 games (the default 1,000:
    some 2 minutes a match).
"""


def strategies_told(f: Callable) -> Callable:
    """Append the strategies' paragraph and their cost to a command's help (compare,
    ladder): one text for both."""
    f.__doc__ = (f.__doc__ or "").rstrip() + "\n" + STRATEGY_HELP
    return f


_GAME_ORDER = (
    "pair by pair: the game with A in seats 0 and 2, then its replay; in cut-throat "
    "rotation by rotation, A alone in seat 0, then 1, ..."
)


def records_option(order: str) -> Callable:
    """--records for a match (compare, ladder): every game as a record, in ``order``."""
    return click.option(
        "--records",
        type=click.Path(dir_okay=False, allow_dash=True),
        default=None,
        help=f"Write every game as a cinch-game/1 JSON Lines record ({order}); '-': "
        "stdout, the results then on stderr.",
    )


@click.command(
    cls=ResumableCommand,
    context_settings={"show_default": True},
    short_help="Play two strategies against each other in duplicate games.",
)
@click.argument("strategy_a", type=StrategyType())
@click.argument("strategy_b", type=StrategyType())
@_match_options
@rules_option
@records_option(_GAME_ORDER)
@table_option(COMPARE_TABLES)
@output_options(
    files=("--records",),
    out_help="Folder for CSV tables, charts (PNG) and run.json.",
    format_help="How results print on stdout: json, the settings and the summary; csv, "
    "one table: sides (bids, made, set, Pedros per strategy) or games (one row a game).",
)
@chunk_options("pairs (cut-throat: rotations)", PAIRS_CHUNK, SLOW_MATCH_TEXT)
@click.option(
    "--until",
    type=click.Choice(["decided"]),
    default=None,
    help="Stop early: decided ends the match at the first look (every 50 pairs) where "
    "the win rate's always-valid 95% confidence sequence leaves out 50%; --games is "
    "then the most it plays. Two sides only.",
)
@friendly
@match_pairing_checked
@strategies_told
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
    table,
    fmt,
    out,
    force,
    chunk,
    resume,
    scheduler,
    workers,
    until,
):
    """Play STRATEGY_A against STRATEGY_B in duplicate games to the target.

    Every deal sequence is played twice, the strategies trading places, so the
    luck of the cards cancels. Reports A's game win rate and the paired points
    per hand difference, each with a 95% interval and a p-value for "no
    difference".

    With more than two sides (--variant cutthroat3, cutthroat5, cutthroat6,
    heasly) the match is cut-throat: each deal set is played once per seat,
    A alone in that seat and B in all the others, and A's share of the wins
    is reported against the fair share 1/players, with a 95% interval over
    these rotations (--games is rounded up to whole rotations; --pairing
    stays swap).

    """
    from cinch_sim.api import compare as run_compare
    from cinch_sim.policies.strategies import distinct_names

    a, b = distinct_names([strategy_a, strategy_b])
    csv_table = csv_table_of(list(COMPARE_TABLES), table, fmt)
    out_dir = run_folder(out, resume, force)
    output_file("--records", records, force)
    n_games = _match_games(rules, games)
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
            chunk=chunk,
            save=out_dir if resume is None else None,
            resume=resume,
            force=force,
            scheduler=scheduler,
            workers=workers,
            until=until,
        )
    finally:
        bar.close()
    with finishing():  # a Ctrl-C now waits for every table, chart and file
        if out_dir is not None:  # first: a reader of stdout that goes away loses no file
            write_compare_outputs(cmp, out_dir, records)
        print_comparison(cmp, fmt, csv_table, seed, records)
    if cmp.interrupted:
        stopped(f"{cmp.games:,} finished games", out_dir, bool(records))
        sys.exit(130)


def print_comparison(cmp, fmt: str, csv_table: str | None, seed: int | str, records) -> None:
    """The match's result on stdout (on stderr when the records take stdout)."""
    s = cmp.summary()
    with results_on_stderr_if_stdout_taken(records):
        if fmt == "json":
            d = cmp.to_dict()
            click.echo(json.dumps(d, default=_json_default))
        elif fmt == "csv":
            df = cmp.table() if csv_table == "sides" else cmp.games_frame()
            click.echo(N.csv_text(df), nl=False)
        else:
            if cmp.interrupted:
                click.echo(interrupted_line(cmp.games, cmp.settings["games_requested"], "games"))
            form = format_cutthroat if cmp.cutthroat else format_comparison
            click.echo(_with_rules(form(s, seed, cmp.seconds), cmp.settings))


def write_compare_outputs(cmp, out_dir, records=None) -> None:
    """compare's files under --out (``cinch-sim merge`` writes the same)."""
    from cinch_sim.matches import plots as P
    from cinch_sim.outputs import atomic_write_text, write_run_json

    s = cmp.summary()
    a, b = cmp.a, cmp.b
    gf = cmp.games_frame()
    atomic_write_text(out_dir / "games.csv", N.csv_text(gf))
    atomic_write_text(out_dir / "sides.csv", N.csv_text(cmp.table()))
    atomic_write_text(
        out_dir / "summary.json",
        json.dumps(cmp.to_dict(), indent=2, default=_json_default) + "\n",
    )
    if cmp.cutthroat:
        P.save(P.share_figure(s), out_dir / "win_share.png")
        margins = gf.assign(margin=gf["a_total"] - gf["best_b_total"])
        P.save(P.margin_figure(margins, a.name, f"best {b.name}"), out_dir / "margins.png")
    else:
        P.save(P.win_rate_figure(s), out_dir / "win_rate.png")
        P.save(P.margin_figure(gf, a.name, b.name), out_dir / "margins.png")
    settings = dict(cmp.settings)
    settings.update(games_done=cmp.games, interrupted=cmp.interrupted, records=records)
    write_run_json(out_dir, settings)


def _match_games(rules, games: int) -> int:
    """The games a match plays: whole pairs, or whole rotations (one a seat) cut-throat."""
    per = rules.players if rules.teams > 2 else 2
    return per * -(-games // per)


def _with_rules(text: str, settings: dict) -> str:
    """A match's text with the game it was played under below its first line (a table
    pasted elsewhere says which game: ``Rules: sancho (target=62)``)."""
    head, _, rest = text.partition("\n")
    return f"{head}\nRules: {N.rules_words(settings.get('rules', {}))}\n{rest}"


def _json_default(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return str(x)


def _no_interval(lo: float | None, hi: float | None) -> str:
    """Said where an interval is missing: one pair (``--games 2``) has no spread to
    estimate, and a bare dash would read as a value."""
    missing = any(x is None or math.isnan(x) for x in (lo, hi))
    return " (too few games for an interval)" if missing else ""


def _p_value(p: float | None) -> str:
    """``p = 0.0192``, always three figures (``1.40e-13`` beside ``6.49e-15``, not
    ``1.4e-13``); one below 1e-15 is ``p < 1e-15`` (a t tail that far out says no more
    than that, and a float would print 0 for less)."""
    if p is None or math.isnan(p):
        return f"p = {N.DASH}"
    return "p < 1e-15" if p < 1e-15 else f"p = {p:#.3g}"


def format_comparison(s: dict, seed: int | str, seconds: float) -> str:
    """A match as text (``seed`` as words for runs merged: ``N.seed_time``)."""
    from cinch_sim.matches.compare import win_rate_shown

    a, b = s["a"], s["b"]
    plo, phi = s["points_per_hand_diff_ci"]
    win = win_rate_shown(s)
    if "until" not in s:  # a fixed-size test; after a sequential stop only the interval
        win += f", {_p_value(s['win_rate_p_value'])}"
    fixed = ""  # what a data-led stop does to the fixed-size intervals
    if s.get("stopped_early"):
        fixed = " (fixed-size interval: too narrow after the early stop)"
    lines = [
        f"{a} vs {b}: {N.counted(s['games'], 'game')} "
        f"({N.counted(s['pairs'], 'duplicate pair')}), {N.seed_time(seed, seconds)}",
        f"games won: {a} {s['a_wins']:,}, {b} {s['b_wins']:,}, unfinished {s['unfinished']:,}",
        "",
        f"win rate of {a}: {win}",
        _luck_adjusted(s) + fixed,
        f"points per hand, {a} - {b}: "
        + N.number_with_interval(s["points_per_hand_diff"], plo, phi, 2, signed=True)
        + _no_interval(plo, phi)
        + f", {_p_value(s['points_p_value'])} ({s['paired_hands']:,} paired hands){fixed}",
        f"average game length: {s['mean_game_length']:.2f} hands",
        "",
    ]
    if "until" in s:
        from cinch_sim.matches.compare import until_text

        lines[-1:-1] = [f"--until {s['until']}: {until_text(s)}"]
    lines.append(_sides_table(s))
    lines.append(f"({s['level']:.0%} intervals over duplicate pairs; p-values for no difference)")
    return "\n".join(lines)


def _luck_adjusted(s: dict) -> str:
    """The win rate with the luck of the unshared deals taken out, and how much that
    luck explained (docs/statistics.md, "The win rate, luck-adjusted")."""
    lo, hi = s["win_rate_luck_adjusted_ci"]
    if any(x is None or math.isnan(x) for x in (lo, hi)):
        return f"win rate, luck-adjusted: {N.DASH} (too few pairs, or no luck measured)"
    share = s["luck_variance_share"]
    return (
        f"win rate, luck-adjusted: {N.rate_with_interval(s['win_rate_luck_adjusted'], lo, hi)}"
        f", {_p_value(s['win_rate_luck_adjusted_p_value'])} (luck explained "
        f"{N.rate(share)} of the variance)"
    )


def _sides_table(s: dict) -> str:
    """Each side's bids and key cards; one column per key card of the rules, by its name
    (``left_bower`` in all_hands, none for a left card in the classic presets, Sancho
    and Dom where played)."""
    pedros = [k for k in s["a_side"] if k.endswith("_capture")]
    seats = "seats" in s["a_side"]
    rows = []
    for key, name in (("a_side", s["a"]), ("b_side", s["b"])):
        x = s[key]
        rows.append(
            [name]
            + ([f"{x['seats']}"] if seats else [])
            + [
                f"{x['contracts']:,}",
                f"{x['made']:,}",
                f"{x['set']:,}",
                N.rate_with_interval(x["make_rate"], x["make_rate_lo"], x["make_rate_hi"]),
                N.number(x["average_bid"]),
            ]
            + [N.rate_with_interval(x[k], x[f"{k}_lo"], x[f"{k}_hi"]) for k in pedros]
        )
    headers = (
        ["strategy"]
        + (["seats"] if seats else [])
        + ["contracts", "made", "set", "make rate", "average bid"]
        + [f"{N.label(k.removesuffix('_capture'))} taken" for k in pedros]
    )
    table = text_table(rows, headers, "l" + "r" * (len(headers) - 1))
    labels = [N.label(k.removesuffix("_capture")) for k in pedros]
    noun = "Pedro" if all(label.endswith("Pedro") for label in labels) else "card"
    return table + (
        f"\n(make rate: of its contracts; a {noun} taken: of the hands that {noun} was in "
        "play; 95% Wilson intervals over hands)"
    )


def format_cutthroat(s: dict, seed: int | str, seconds: float) -> str:
    """A cut-throat match as text: A's share of the wins against the fair share, B's
    share per seat, the points a hand against the field, each side's bids."""
    a, b, p = s["a"], s["b"], s["players"]
    lo, hi = s["a_share_ci"]
    blo, bhi = s["b_share_per_seat_ci"]
    plo, phi = s["points_per_hand_diff_ci"]
    fair = N.rate(s["fair_share"])
    lines = [
        f"{a} vs {b}, cut-throat, {p} players: {s['games']:,} games ({s['rotations']:,} "
        f"rotations: each deal set played {p} times, {a} alone in each seat in turn, {b} in "
        f"the other {p - 1}), {N.seed_time(seed, seconds)}",
        f"games won: {a} {s['a_wins']:,}, {b}'s seats {s['b_wins']:,}, unfinished "
        f"{s['unfinished']:,}",
        "",
        f"share of the wins, {a} (one seat): {N.rate_with_interval(s['a_share'], lo, hi)}"
        + _no_interval(lo, hi)
        + f"; fair share {fair}, {_p_value(s['a_share_p_value'])}",
        f"share of the wins per seat, {b} (the field, {p - 1} seats): "
        + N.rate_with_interval(s["b_share_per_seat"], blo, bhi)
        + _no_interval(blo, bhi)
        + f"; fair share {fair}",
        f"points per hand, {a} - the mean {b} seat: "
        + N.number_with_interval(s["points_per_hand_diff"], plo, phi, 2, signed=True)
        + _no_interval(plo, phi)
        + f", {_p_value(s['points_p_value'])} ({s['paired_hands']:,} paired hands)",
        f"average game length: {s['mean_game_length']:.2f} hands",
        "",
        _sides_table(s),
        f"({s['level']:.0%} intervals over rotations; p-values for the fair share of the "
        "wins and for no difference in points; "
        f"{b}'s bids and Pedros are its {p - 1} seats' together)",
    ]
    return "\n".join(lines)


@click.command(
    cls=ResumableCommand,
    context_settings={"show_default": True},
    short_help="Rate several strategies against each other in duplicate games.",
)
@click.argument("strategies", nargs=-1, required=True, type=StrategyType())
@_match_options
@rules_option
@click.option(
    "--bootstrap",
    type=AtLeast("bootstrap", 0),
    default=LADDER_BOOTSTRAP,
    help="Bootstrap resamples for the intervals of the ratings and of their differences "
    "from the best.",
)
@records_option(
    "matchup by matchup, in the order of the matchups table, each as compare writes "
    "its games: " + _GAME_ORDER
)
@table_option(LADDER_TABLES + tuple(LADDER_ALIASES))
@output_options(
    files=("--records",),
    out_help="Folder for CSV tables, charts (PNG) and run.json.",
    format_help="How results print on stdout: json, the settings, ratings and matchups; "
    "csv, one table: ladder (the ratings; --table ratings, the Python name, is the same), "
    "matchups, or games (every game of every matchup).",
)
@chunk_options("pairs (cut-throat: rotations) of a matchup", PAIRS_CHUNK, SLOW_MATCH_TEXT)
@friendly
@match_pairing_checked
@strategies_told
def ladder(
    strategies,
    games,
    seed,
    threads,
    max_hands,
    pairing,
    rules,
    bootstrap,
    records,
    table,
    fmt,
    out,
    force,
    chunk,
    resume,
    scheduler,
    workers,
):
    """Play every pair of STRATEGIES in duplicate and rate them (Bradley-Terry, Elo scale).

    --games counts games per pair of strategies. Each matchup's pairs of games
    are pooled with one pair won and one lost, as its win-rate interval has
    them; the ratings are fitted to that pool, and their 95% bootstrap
    intervals resample it within each matchup, as do the intervals of each
    strategy's difference from the best ("vs best"). With more than two sides
    every pair plays a cut-throat match both ways round (see compare) and the
    ratings are the Luce model's, Bradley-Terry for a winner among many.

    """
    from cinch_sim.api import ladder as run_ladder

    strats = list(strategies)
    if len(strats) < 2:
        raise BadInput("STRATEGIES", "a ladder needs at least two strategies")
    csv_table = csv_table_of(list(LADDER_TABLES), LADDER_ALIASES.get(table, table), fmt)
    out_dir = run_folder(out, resume, force)
    output_file("--records", records, force)
    n_pairs = len(strats) * (len(strats) - 1) // 2
    if rules.teams > 2:
        n_pairs *= 2  # cut-throat: every pair both ways round
    bar = Progress(n_pairs * _match_games(rules, games), "playing", unit="games", threshold=20_000)
    try:
        lad = run_ladder(strats, games, seed, rules, max_hands, pairing, threads, bar, bootstrap,
                         chunk=chunk, save=out_dir if resume is None else None, resume=resume,
                         force=force, scheduler=scheduler, workers=workers,
                         records=records or None)  # fmt: skip
    finally:
        bar.close()
    ratings = lad.table()  # the ratings, bootstrapped once: to_dict reuses them
    matchups = lad.matchups()
    with finishing():  # a Ctrl-C now waits for every table, chart and file
        if out_dir is not None:  # first: a reader of stdout that goes away loses no file
            write_ladder_outputs(lad, out_dir, ratings, matchups, records)
        print_ladder(lad, ratings, matchups, fmt, csv_table, seed, records)
    if lad.interrupted:
        stopped("finished games (the ratings use them only)", out_dir, bool(records))
        sys.exit(130)


def print_ladder(
    lad, ratings, matchups, fmt: str, csv_table: str | None, seed: int | str, records=None
) -> None:
    """The ladder's ratings and matchups on stdout (on stderr when the records take it)."""
    with results_on_stderr_if_stdout_taken(records):
        if fmt == "json":
            click.echo(json.dumps(lad.to_dict(), default=_json_default))
        elif fmt == "csv":
            df = {"ladder": ratings, "games": lad.games_frame()}.get(csv_table, matchups)
            click.echo(N.csv_text(df), nl=False)
        else:
            if lad.interrupted:
                asked = lad.settings["games_per_matchup"] * lad.matchup_count
                click.echo(interrupted_line(lad.games_played, asked, "games"))
            text = format_ladder(
                ratings, matchups, lad.settings["games_per_matchup"], seed, lad.seconds,
                lad.players if lad.cutthroat else None, lad.unplayed(),
            )  # fmt: skip
            click.echo(_with_rules(text, lad.settings))


def write_ladder_outputs(lad, out_dir, ratings=None, matchups=None, records=None) -> None:
    """ladder's files under --out (``cinch-sim merge`` writes the same)."""
    from cinch_sim.matches import plots as P
    from cinch_sim.outputs import atomic_write_text, write_run_json

    ratings = lad.ratings(lad.settings["seed"]) if ratings is None else ratings
    matchups = lad.matchups() if matchups is None else matchups
    atomic_write_text(out_dir / "ladder.csv", N.csv_text(ratings))
    atomic_write_text(out_dir / "matchups.csv", N.csv_text(matchups))
    atomic_write_text(out_dir / "games.csv", N.csv_text(lad.games_frame()))
    model = "Luce" if lad.cutthroat else "Bradley-Terry"
    P.save(P.ladder_figure(ratings, model), out_dir / "ladder.png")
    settings = dict(lad.settings)
    settings.update(interrupted=lad.interrupted, games_played=lad.games_played, records=records)
    write_run_json(out_dir, settings)


def _per_matchup(matchups, games: int, unplayed: int = 0) -> str:
    """``40,000 games per matchup``, as the matchups played them: a range where they
    differ (a run Ctrl-C stopped, runs merged; ``unplayed`` matchups, with no row,
    played 0), and the games asked where fewer were played."""
    played = [int(g) for g in matchups["games"]] + [0] * unplayed
    played = played or [0]
    lo, hi = min(played), max(played)
    words = f"{hi:,} games per matchup" if lo == hi else f"{lo:,} to {hi:,} games per matchup"
    return words + (f" (of {games:,} asked)" if hi < games else "")


def format_ladder(
    ratings, matchups, games, seed, seconds, cutthroat: int | None = None, unplayed=()
) -> str:
    """The ratings and the matchups as text; ``cutthroat``: the players of a cut-throat
    ladder (its matchups are A alone against B in the other seats, both ways round);
    ``unplayed``: the matchups (A, B) a stopped run never reached, named under them."""
    gap = len(unplayed)
    missing = (
        [f"(not played before the stop: {N.joined([f'{a} v {b}' for a, b in unplayed])}; "
         "the ratings rest on the matchups above)"]
        if unplayed
        else []
    )  # fmt: skip
    rows = [
        [
            f"{r.rank}",
            r.strategy,
            f"{r.rating:.0f}",
            N.interval(r.rating_lo, r.rating_hi, 0),
            N.number_with_interval(r.vs_best, r.vs_best_lo, r.vs_best_hi, 0, signed=True),
            f"{r.games:,}",
            N.rate_with_interval(
                r.wins_per_seat if cutthroat else r.score, r.score_lo, r.score_hi
            ),  # fmt: skip
        ]
        if r.games
        else [N.DASH, r.strategy, "unplayed", N.DASH, N.DASH, "0", N.DASH]  # not ranked
        for r in ratings.itertuples()
    ]
    # the ratings' headers: the last, the score, is the wins a seat in cut-throat
    score = "wins a seat" if cutthroat else "score"
    head = ["rank", "strategy", "rating", "95% interval", "vs best [95%]", "games",
            f"{score} [95%]"]  # fmt: skip
    if cutthroat:
        pairs = [
            [
                m.a,
                m.b,
                N.rate(m.share_a),
                N.rate_interval(m.share_lo, m.share_hi),
                N.rate(m.fair_share),
                N.number_with_interval(
                    m.points_per_hand_diff, m.points_diff_lo, m.points_diff_hi, 2, signed=True
                ),
                f"{m.mean_game_length:.1f}",
            ]
            for m in matchups.itertuples()
        ]
        return "\n".join(
            [
                f"{_per_matchup(matchups, games, gap)}, cut-throat with {cutthroat} players "
                f"(A alone in each seat in turn, B in the other {cutthroat - 1}; every pair both "
                f"ways round), {N.seed_time(seed, seconds, 1)}",
                "",
                text_table(rows, head, "rlrlrrr"),
                "",
                text_table(
                    pairs,
                    [
                        "A (alone)",
                        "B (the field)",
                        "A's share of wins",
                        "95% interval",
                        "fair share",
                        "points a hand, A - a B seat [95%]",
                        "hands a game",
                    ],
                    "llrlrrr",
                ),  # fmt: skip
                "(Luce ratings on the Elo scale: 400 = 10 to 1 odds, one seat against another)",
                *missing,
            ]
        )
    pairs = [
        [
            m.a,
            m.b,
            N.rate(m.win_rate_a),
            N.rate_interval(m.win_rate_lo, m.win_rate_hi),
            N.number_with_interval(
                m.points_per_hand_diff, m.points_diff_lo, m.points_diff_hi, 2, signed=True
            ),
            f"{m.mean_game_length:.1f}",
        ]
        for m in matchups.itertuples()
    ]
    return "\n".join(
        [
            f"{_per_matchup(matchups, games, gap)} in duplicate, {N.seed_time(seed, seconds, 1)}",
            "",
            text_table(rows, head, "rlrlrrr"),
            "",
            text_table(
                pairs,
                [
                    "A",
                    "B",
                    "A's win rate",
                    "95% interval",
                    "points a hand, A - B [95%]",
                    "hands a game",
                ],
                "llrlrr",
            ),
            "(Bradley-Terry ratings on the Elo scale: 400 = 10 to 1 odds; score: the share "
            "of its games a strategy won, over all its matchups)",
            *_sweep_note(ratings),
            *missing,
        ]
    )


def _sweep_note(ratings) -> list[str]:
    """Where a strategy won or lost every game, its rating rests on the pseudo-pairs
    each matchup adds, not on the games alone: the text says so (two sides)."""
    played = ratings[ratings["games"] > 0]
    swept = [(r.strategy, "won") for r in played.itertuples() if r.score == 1] + [
        (r.strategy, "lost") for r in played.itertuples() if r.score == 0
    ]
    if not swept:
        return []
    who = N.joined([f"{name} {how} every game" for name, how in swept])
    bounded = played[["rating_lo", "rating_hi"]].notna().all(axis=None)
    read = "; read its interval's far end as open" if bounded else ""
    return [
        f"({who}: such a rating rests on the one pair won and one lost that each matchup "
        f"adds, as its win-rate interval does, not on its games alone{read})"
    ]
