"""``cinch-sim variants``: the presets of the rules (docs/rules.md §3), one row each."""

from __future__ import annotations

import json

import click

from cinch_sim.cli.options import format_option, friendly


@click.command(short_help="List the variants (rule presets) --variant takes.")
@format_option(
    help="How the list prints: table, csv (one row per variant) or json (a list of objects)."
)
@friendly
def variants(fmt: str) -> None:
    """List every variant of the rules: players, sides, deck, cards dealt and kept,
    tricks, points in play, bid range, target, whether it can be played yet, and
    what it is. --variant NAME on simulate, stats, advise, compare, ladder and
    report plays one; --rule options apply on top of it (docs/rules.md).
    """
    from cinch_sim import notation as N
    from cinch_sim.api import variants as table
    from cinch_sim.text_tables import text_table

    df = table()
    if fmt == "json":
        click.echo(json.dumps(df.to_dict(orient="records")))
    elif fmt == "csv":
        click.echo(N.csv_text(df), nl=False)
    else:
        shown = df.assign(playable=df["playable"].map({True: "yes", False: "not yet"}))
        rows = [[str(v) for v in r] for r in shown.itertuples(index=False)]
        click.echo(text_table(rows, list(df.columns), "lrlrrrrrrrll"))
