"""``cinch-sim report``: the strategy report, as HTML and Markdown with charts and tables."""

from __future__ import annotations

import sys

import click

from cinch_sim.cli.options import (
    SEED_HELP,
    Count,
    Seed,
    StrategyListType,
    Threads,
    force_option,
    friendly,
    out_folder,
    rules_option,
)
from cinch_sim.cli.progress import Progress
from cinch_sim.interrupts import EXIT_STATUS


@click.command(context_settings={"show_default": True})
@click.option(
    "--hands",
    type=Count("hands", 1000),
    default=1_000_000,
    help="Hands simulated for each hand study.",
)
@click.option(
    "--games",
    type=Count("games", 2),
    default=4000,
    help="Games for each pair of strategies in the ladder.",
)
@click.option(
    "--card-values-hands",
    type=Count("card-values-hands", 1),
    default=None,
    help="Play the PIMC player's card values here, on N hands (about 0.15 s each with "
    "their replays, two cores), instead of taking the study stored with cinch_sim (the "
    "standard game's, 16,000 hands). The heuristic's are --hands / 20, at most 50,000; "
    "perfect play's are stored, or --hands / 50, at most 8,000. A game whose hands cost "
    "more to search than the standard game's (no_draw, cutthroat5) plays its strong "
    "studies on that many times fewer hands, so that its report takes about as long; "
    "an N given here is played as asked (at no_draw about 10 s a hand). "
    "[default: the stored study; where none answers, --hands / 5000, at most 200, and "
    "none below 20]",
)
@click.option(
    "--seed",
    type=Seed(),
    default=0,
    help=SEED_HELP + " The same seed, the same report.",
)
@rules_option
@click.option(
    "--strategies",
    type=StrategyListType(),
    default="heuristic,greedy,simple,random",
    help="Comma-separated strategies for the ladder: built-in names or TOML files.",
)
@click.option(
    "--threads",
    type=Threads(),
    default=None,
    help="Worker threads (results do not depend on it). [default: all cores]",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default="cinch-report",
    help="Folder for report.html, report.md, figures/, tables/ and run.json.",
)
@click.option(
    "--quick",
    is_flag=True,
    help="A smaller report in well under a minute: 100,000 hands, 400 games a pair "
    "(--hands or --games given still counts); its example hands are not advised under "
    "perfect play (only from 500,000 hands on), and the report says so.",
)
@force_option()
@friendly
@click.pass_context
def report(ctx, hands, games, card_values_hands, seed, rules, strategies, threads, out, force,
           quick):  # fmt: skip
    """Write a strategy report for Cinch players.

    Runs the bid-success, hand-value, card-value (the heuristic and PIMC players and
    perfect play),
    robbing, Pedro-capture and strategy-ladder studies and advice for example
    hands, then writes a self-contained HTML page (open report.html in any
    browser, no network needed) and the same
    content as Markdown with PNG charts, plus CSV tables and run.json.

    Cost, on two cores: under a minute (48-52 s measured on quiet cores; the
    PIMC studies are stored with cinch_sim); the very first run compiles for
    about two minutes more; --quick 11-16 s.
    """
    from cinch_sim.api import report as build

    if quick:
        from click.core import ParameterSource

        from cinch_sim.report.build import QUICK

        given = {k for k in QUICK if ctx.get_parameter_source(k) != ParameterSource.DEFAULT}
        asked = {"hands": hands, "games": games}
        hands, games = (asked[k] if k in given else QUICK[k] for k in QUICK)
    out_folder(out, force)  # a bad --out is a usage error before any work
    names = tuple(strategies)
    # the report tells the total (estimated milliseconds of work) once it is set up
    bar = Progress(None, "building the report", unit=None, threshold=0, heartbeat=True)
    try:
        doc = build(
            hands, games, seed, rules, names, threads, out, force, progress=bar,
            card_values_hands=card_values_hands,
        )  # fmt: skip
    finally:
        bar.close()
    click.echo(f"report written: {doc.out / 'report.html'} (and report.md)")
    if doc.interrupted:
        click.echo("interrupted: the report holds the studies that ran, and says so", err=True)
        sys.exit(EXIT_STATUS)
