"""``cinch-sim simulate``: play hands and print bid-success and Pedro tables."""

from __future__ import annotations

import json
import sys

import click

from cinch_sim.cli.options import (
    AtLeast,
    dealer_option,
    friendly,
    one_csv_table,
    output_options,
    policy_options,
    rules_option,
    run_options,
)
from cinch_sim.cli.progress import Progress

TABLES = ("by_bid", "pedros")  # what simulate prints, and the files --out writes


@click.command(context_settings={"show_default": True})
@click.option("--hands", type=AtLeast("hands", 1), default=100_000, help="Hands to simulate.")
@run_options
@dealer_option
@rules_option
@policy_options
@click.option(
    "--records",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write every hand as a cinch-hand/1 JSON Lines record to this file.",
)
@click.option(
    "--table",
    "table",
    type=click.Choice(list(TABLES)),
    default=None,
    help="With --format csv: which table to print (by_bid unless named); --out writes both.",
)
@output_options()
@friendly
def simulate(
    hands,
    seed,
    threads,
    dealer,
    rules,
    policies,
    records,
    table,
    fmt,
    out,
    force,
):
    """Simulate hands and print the make rate by bid level and Pedro capture.

    Seats are numbered 0-3 clockwise; seats 0 and 2 are partners. Tables are
    printed on stdout, progress on stderr.
    """
    from cinch_sim.api import simulate as run_simulation
    from cinch_sim.outputs import atomic_write_text, prepare_out_dir, write_run_json
    from cinch_sim.rules import seat_name

    csv_table = one_csv_table(list(TABLES), (table,) if table else ()) if fmt == "csv" else None
    out_dir = prepare_out_dir(out, force) if out else None
    bar = Progress(hands, "simulating")
    try:
        sim = run_simulation(
            hands=hands,
            seed=seed,
            rules=rules,
            dealer=dealer,
            threads=threads,
            records=records or None,
            progress=bar,
            **policies,
        )
    finally:
        bar.close()
    by_bid = sim.by_bid()
    pedros = sim.pedros()
    if fmt == "json":
        click.echo(json.dumps(sim.to_dict(), default=float))
    elif fmt == "csv":
        click.echo({"by_bid": by_bid, "pedros": pedros}[csv_table].to_csv(index=False), nl=False)
    else:
        rel = ", ".join(f"{s}={seat_name(s, dealer)}" for s in range(rules.players))
        click.echo(
            f"{sim.hands:,} hands, seed {seed}, dealer seat {dealer} ({rel}); "
            f"{sim.counts.thrown_in:,} thrown in; {sim.seconds:.2f} s"
        )
        click.echo("\nBid success (95% Wilson interval)")
        click.echo(_format_by_bid(by_bid))
        click.echo("\nPedro capture")
        click.echo(_format_pedros(pedros))
    if out_dir is not None:
        atomic_write_text(out_dir / "by_bid.csv", by_bid.to_csv(index=False))
        atomic_write_text(out_dir / "pedros.csv", pedros.to_csv(index=False))
        settings = dict(sim.settings)
        settings.update(command="simulate", hands_done=sim.hands, interrupted=sim.interrupted)
        write_run_json(out_dir, settings)
    if sim.interrupted:
        click.echo(f"interrupted: kept the {sim.hands:,} finished hands", err=True)
        sys.exit(130)


def _format_by_bid(df) -> str:
    lines = [f"{'bid':>4} {'hands':>10} {'made':>10} {'rate':>7}  {'95% interval':<17}"]
    for r in df.itertuples():
        lines.append(
            f"{r.bid:>4} {r.hands:>10,} {r.made:>10,} {r.make_rate:>7.3f}  "
            f"[{r.make_rate_lo:.3f}, {r.make_rate_hi:.3f}]"
        )
    return "\n".join(lines)


def _format_pedros(df) -> str:
    wide = df.pivot(index="pedro", columns="fate", values="rate")
    lines = [f"{'pedro':<12} {'bidding side':>13} {'defenders':>10} {'not in play':>12}"]
    for name in ("right_pedro", "left_pedro"):
        r = wide.loc[name]
        lines.append(
            f"{name:<12} {r['bidding_side']:>13.3f} {r['defenders']:>10.3f} "
            f"{r['not_in_play']:>12.3f}"
        )
    return "\n".join(lines)
