"""``cinch-sim simulate``: play hands and print bid-success and Pedro tables."""

from __future__ import annotations

import json
import sys

import click

from cinch_sim import notation as N
from cinch_sim.analysis.intervals import FEW_HANDS
from cinch_sim.cli.files import output_file, results_on_stderr_if_stdout_taken
from cinch_sim.cli.options import (
    Count,
    ResumableCommand,
    chunk_options,
    csv_table_of,
    dealer_option,
    friendly,
    interrupted_line,
    output_options,
    policy_options,
    rules_option,
    run_folder,
    run_options,
    stopped,
    table_option,
)
from cinch_sim.cli.progress import Progress
from cinch_sim.interrupts import finishing
from cinch_sim.runs.chunks import HANDS_CHUNK, SLOW_HANDS_CHUNK
from cinch_sim.text_tables import starred_table, text_table

TABLES = ("by_bid", "pedros")  # what simulate prints, and the files --out writes


@click.command(
    cls=ResumableCommand,
    context_settings={"show_default": True},
    short_help="Simulate hands: make rate by bid and Pedro capture.",
)
@click.option("--hands", type=Count("hands", 1), default=100_000, help="Hands to simulate.")
@run_options
@dealer_option
@rules_option
@policy_options
@click.option(
    "--records",
    type=click.Path(dir_okay=False, allow_dash=True),
    default=None,
    help="Also write every hand as a cinch-hand/1 JSON Lines record to this file "
    "('-': stdout, the tables then on stderr).",
)
@table_option(TABLES)
@output_options(files=("--records",))
@chunk_options("hands", HANDS_CHUNK, SLOW_HANDS_CHUNK)
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
    chunk,
    resume,
    scheduler,
    workers,
):
    """Simulate hands and print the make rate by bid level and Pedro capture.

    Seats are numbered 0-3 clockwise; seats 0 and 2 are partners. Tables are
    printed on stdout, progress on stderr.

    With --out DIR every finished chunk is saved there as it goes; Ctrl-C stops
    between chunks and prints the command that resumes (--resume DIR), which
    ends with exactly the numbers of a run never stopped.
    """
    from cinch_sim.api import simulate as run_simulation

    csv_table = csv_table_of(list(TABLES), table, fmt)
    out_dir = run_folder(out, resume, force)
    output_file("--records", records, force)
    bar = Progress(hands, "simulating")
    try:
        sim = run_simulation(
            hands=hands,
            seed=seed,
            rules=rules,
            dealer=dealer,
            threads=threads,
            chunk=chunk,
            records=records or None,
            progress=bar,
            save=out_dir if resume is None else None,
            resume=resume,
            force=force,
            scheduler=scheduler,
            workers=workers,
            **policies,
        )
    finally:
        bar.close()
    with finishing():  # a Ctrl-C now waits for every table and file
        if out_dir is not None:  # first: a reader of stdout that goes away loses no file
            write_outputs(sim, out_dir)
        with results_on_stderr_if_stdout_taken(records):
            print_simulation(sim, fmt, csv_table, seed, dealer, rules.players)
    if sim.interrupted:
        stopped(f"{sim.hands:,} finished hands", out_dir, bool(records))
        sys.exit(130)


def write_outputs(sim, out_dir) -> None:
    """simulate's files under --out (``cinch-sim merge`` writes the same)."""
    from cinch_sim.outputs import atomic_write_text, write_run_json

    atomic_write_text(out_dir / "by_bid.csv", N.csv_text(sim.by_bid()))
    atomic_write_text(out_dir / "pedros.csv", N.csv_text(sim.pedros()))
    settings = dict(sim.settings)
    settings.update(command="simulate", hands_done=sim.hands, interrupted=sim.interrupted)
    write_run_json(out_dir, settings)


def print_simulation(
    sim, fmt: str, csv_table: str | None, seed: int | str, dealer: int, players: int
) -> None:
    """The tables: as JSON or CSV from the result's DataFrames; as text from their
    numbers alone (``analysis.summaries``), so that the default output does not wait
    for pandas to load."""
    from cinch_sim.analysis.summaries import pedro_side_rows, rate_columns
    from cinch_sim.analysis.words import CHOSEN_BIDS_NOTE
    from cinch_sim.policies.registry import dd_note
    from cinch_sim.rules import seat_name

    if fmt == "json":
        click.echo(json.dumps(sim.to_dict(), default=float))
    elif fmt == "csv":
        table = sim.by_bid() if csv_table == "by_bid" else sim.pedros()
        click.echo(N.csv_text(table), nl=False)
    else:
        if sim.interrupted:
            click.echo(interrupted_line(sim.hands, sim.settings["hands"], "hands"))
        rel = ", ".join(f"{s}={seat_name(s, dealer, players)}" for s in range(players))
        click.echo(
            f"{sim.hands:,} hands, {N.seed_words(seed)}, dealer seat {dealer} ({rel}); "
            f"{sim.counts.contracts_line()}{N.time_words(seed, sim.seconds)}"
        )
        click.echo(N.capital(N.settings_words(sim.settings)))
        note = dd_note(sim.settings["policies"])
        if note:
            click.echo(note)
        click.echo("\nBid success (95% Wilson interval)")
        click.echo(_format_by_bid(rate_columns(sim.counts, "bid")))
        click.echo(f"{CHOSEN_BIDS_NOTE} What one hand can bid: cinch-sim advise.")
        click.echo("\n" + _pedros_title(sim.counts.rules))
        click.echo(_format_pedros(pedro_side_rows(sim.counts), sim.counts))


def _format_by_bid(cols) -> str:
    """The table by bid from its columns (``summaries.rate_columns``)."""
    rows = [
        [
            f"{bid}" + (" (passed out)" if bid == 0 else ""),
            f"{hands:,}",
            N.DASH if bid == 0 else f"{made:,}",
            N.rate(rate),
            N.rate_interval(lo, hi),
        ]
        for bid, hands, made, rate, lo, hi in zip(
            cols["bid"].tolist(),
            cols["hands"].tolist(),
            cols["made"].tolist(),
            cols["make_rate"].tolist(),
            cols["make_rate_lo"].tolist(),
            cols["make_rate_hi"].tolist(),
            strict=True,
        )  # fmt: skip
    ]
    few = [  # as stats and the report mark them; a passed-out row has no rate to doubt
        bid != 0 and 0 < n < FEW_HANDS
        for bid, n in zip(cols["bid"].tolist(), cols["hands"].tolist(), strict=True)
    ]
    heads = ["bid", "hands", "made", "make rate", "95% interval"]
    return starred_table(rows, heads, "rrrrl", few, str(FEW_HANDS))


def _pedros_title(rules) -> str:
    """'Pedro capture'; in all_hands 'Capture of the Right Pedro and the Left Bower'; with
    two decks, that each row follows the copy played first (docs/rules.md §3.4)."""
    from cinch_sim.analysis.words import capture_subject, copies_note

    title = capture_subject(rules)
    note = copies_note(rules)
    return title + (f" ({note}; 95% Wilson intervals)" if note else " (95% Wilson intervals)")


def _format_pedros(fates, counts) -> str:
    """Who took each Pedro: the bidding side, the defenders, nobody; in cut-throat the
    maker, another player (any of the others) or nobody (``fates``: the rows of
    ``summaries.pedro_side_rows``)."""
    from cinch_sim.analysis.words import captured_names, side_columns

    sides = side_columns(counts)
    shown = {(f["pedro"], f["fate"]): N.rate_with_interval(f["rate"], f["rate_lo"], f["rate_hi"])
             for f in fates}  # fmt: skip
    rows = []
    for name in dict.fromkeys(f["pedro"] for f in fates):  # the rules' Pedros, in order
        rows.append([N.label(name), *(shown[name, c] for c in (*sides, "not_in_play"))])
    card = "pedro" if all(n.endswith("Pedro") for n in captured_names(counts.rules)) else "card"
    head = [card, *(N.heading(c) for c in sides), "not in play"]
    return text_table(rows, head, "lrrr")
