"""``cinch-sim stats``: bid-success and Pedro tables on stdout, charts and CSVs under --out."""

from __future__ import annotations

import json
import sys

import click

from cinch_sim import notation as N
from cinch_sim.analysis.features import FEATURES
from cinch_sim.analysis.intervals import FEW_HANDS
from cinch_sim.cli.options import (
    AtLeast,
    BadInput,
    Count,
    ResumableCommand,
    chunk_options,
    dealer_option,
    friendly,
    interrupted_line,
    one_csv_table,
    output_options,
    policy_options,
    rules_option,
    run_folder,
    run_options,
    stopped,
)
from cinch_sim.cli.progress import Progress
from cinch_sim.interrupts import finishing
from cinch_sim.runs.chunks import HANDS_CHUNK, SLOW_HANDS_CHUNK

TABLE_TITLES = {
    "make_rate_by_bid": "Bid success by bid level",
    "make_rate_by_trumps": "Bid success by trumps in the maker's {dealt} dealt cards",
    "make_rate_by_pedros": "Bid success by the Pedros the maker was dealt",
    "make_rate_by_seat": "Bid success by the maker's seat relative to the dealer",
    "make_rate_by_hand_and_bid": "Make rate for each bid given the hand",
    "make_rate_by_trumps_and_bid": "Make rate by trumps held and bid",
    "pedro_capture": "Pedro capture by holder after the draw",
    "pedro_by_trick": "Pedro capture by holder and trick (1 = first)",
    "points": "Points taken per hand",
    "score_by_bid": "Points and score change by bid level",
}
# The names analysis.tables.table_names gives (a test keeps them the same), written out
# so `stats --help` lists them without loading the kernel.
TABLES = tuple(TABLE_TITLES)


def table_title(name: str, rules) -> str:
    """A table's title under these rules: TABLE_TITLES' words for the standard game; the
    rules' own names for their Pedros (all_hands: the Right Pedro and the Left Bower),
    no 'after the draw' without a draw, and with two decks that the Pedro tables follow
    the copy played first (docs/rules.md §3.4)."""
    from cinch_sim.analysis.tables import all_pedros, pedro_capture_title, pedros_phrase

    if name == "pedro_capture":
        return pedro_capture_title(rules)
    if name == "pedro_by_trick":
        return pedro_capture_title(rules, by_trick=True)
    if name == "make_rate_by_pedros" and not all_pedros(rules):
        cards = pedros_phrase(rules)
        if len(rules.pedros) == 1:
            return f"Bid success by whether the maker was dealt {cards}"
        return f"Bid success by which of {cards} the maker was dealt"
    if name == "score_by_bid" and not rules.partnerships:
        return "Points and score change by bid level: the maker and the average opponent"
    return TABLE_TITLES[name].format(dealt=rules.cards_dealt)


CARD_TITLES = {
    "card_values": "What each card is worth to the maker (paired replays)",
    "card_values_by_bid": "Make rate at each bid with and without each card (paired replays)",
}
REPLACEMENTS = ("trump", "plain")  # analysis.card_values.REPLACEMENTS (a test keeps them so)


@click.command(
    cls=ResumableCommand,
    context_settings={"show_default": True},
    short_help="Bid-success and Pedro statistics: tables and charts.",
)
@click.option("--hands", type=Count("hands", 1), default=100_000, help="Hands to simulate.")
@run_options
@dealer_option
@rules_option
@policy_options
@click.option(
    "--by",
    "by",
    multiple=True,
    type=click.Choice(FEATURES),
    metavar="FEATURE",
    help="Hand feature(s) for the make-rate-by-bid table and chart lines (repeatable): "
    + "; ".join(f"{name}, {what}" for name, what in FEATURES.items())
    + ". [default: trumps]",
)
@click.option(
    "--table",
    "only",
    multiple=True,
    type=click.Choice(TABLES + tuple(CARD_TITLES)),
    metavar="NAME",
    help="Print only this table (repeatable; one with --format csv; --out writes all): "
    f"{', '.join(TABLES)}; with --card-values also {', '.join(CARD_TITLES)}.",
)
@click.option(
    "--card-values",
    is_flag=True,
    help="Also value each high trump, point card and the Pedro pair by controlled "
    "experiment: every deal whose maker held the card is replayed with the contract "
    "forced, as dealt and with the card swapped for --replacement (docs/statistics.md).",
)
@click.option(
    "--card-values-hands",
    type=Count("card-values-hands", 1),
    default=None,
    help="Hands played for --card-values (each replayed about twice per card held). "
    "[default: --hands]",
)
@click.option(
    "--replacement",
    type=click.Choice(REPLACEMENTS),
    default="trump",
    help="What stands in for the card: the lowest trump not dealt that is no point card, "
    "or the lowest plain card not dealt.",
)
@click.option(
    "--min-hands",
    type=AtLeast("min-hands", 1),
    default=FEW_HANDS,
    help="Rows with fewer hands are flagged low_n (kept, not hidden).",
)
@click.option(
    "--hand-data",
    is_flag=True,
    help="Also write one row per hand to OUT/hands.parquet (needs --out and pyarrow).",
)
@click.option("--no-charts", is_flag=True, help="Do not draw the charts under --out.")
@output_options()
@chunk_options("hands", HANDS_CHUNK, SLOW_HANDS_CHUNK)
@friendly
def stats(
    hands,
    seed,
    threads,
    dealer,
    rules,
    policies,
    by,
    only,
    min_hands,
    card_values,
    card_values_hands,
    replacement,
    hand_data,
    no_charts,
    fmt,
    out,
    force,
    chunk,
    resume,
    scheduler,
    workers,
):
    """Simulate hands and print bid success and Pedro statistics.

    Tables: make rate by bid level, trumps held, Pedros held and seat (95%
    Wilson intervals); the make rate for each bid given the --by features;
    Pedro capture by holder and trick; points and score change by bid. Every
    row shows its number of hands; rows below --min-hands are starred.

    With --card-values: what each high trump, point card and the Pedro pair
    is worth to the maker, by replaying each deal with the card swapped for
    a stand-in and the contract forced (paired 95% intervals).

    With --out DIR: every table as CSV, charts as PNG and SVG, run.json with
    the settings, and with --hand-data the per-hand rows as Parquet. Every
    finished chunk's counts are saved there as the run goes: Ctrl-C prints the
    command that resumes it (--resume DIR), to exactly the same tables.
    """
    from cinch_sim.analysis.counts import check_features
    from cinch_sim.analysis.tables import table_names

    features = check_features(by or ("trumps",))
    names = table_names(features) + (list(CARD_TITLES) if card_values else [])
    asked_cards = [t for t in only if t in CARD_TITLES]
    if asked_cards and not card_values:
        raise BadInput("--table", f"{asked_cards[0]} needs --card-values")
    if card_values_hands is not None and not card_values:
        raise BadInput("--card-values-hands", "needs --card-values")
    if replacement != "trump" and not card_values:
        raise BadInput("--replacement", "needs --card-values")
    if card_values and (scheduler or workers):
        raise BadInput("--card-values", "runs locally only; leave out --scheduler and --workers")
    if fmt == "csv":  # CSV on stdout is one table: chosen before any work is done
        only = (one_csv_table(names, only),)
    if hand_data and not (out or resume):
        raise BadInput("--hand-data", "needs --out DIR to write hands.parquet into")
    if hand_data:
        from cinch_sim.analysis.hand_rows import require_pyarrow

        require_pyarrow()
    from cinch_sim.api import stats as analyse

    out_dir = run_folder(out, resume, force)
    bar = Progress(hands, "simulating")
    try:
        result = analyse(
            hands=hands,
            seed=seed,
            rules=rules,
            dealer=dealer,
            threads=threads,
            by=features,
            min_hands=min_hands,
            chunk=chunk,
            progress=bar,
            hand_data=out_dir / "hands.parquet" if hand_data else None,
            save=out_dir if resume is None else None,
            resume=resume,
            force=force,
            scheduler=scheduler,
            workers=workers,
            **policies,
        )
    finally:
        bar.close()
    values = None
    if card_values and not result.interrupted:
        from cinch_sim.api import card_values as value_cards

        n = card_values_hands or hands
        bar = Progress(n, "card values")
        try:
            values = value_cards(
                hands=n, seed=seed, rules=rules, dealer=dealer, threads=threads,
                replacement=replacement, progress=bar, **policies,
            )  # fmt: skip
        finally:
            bar.close()
    tables = result.tables()
    if values is not None:
        tables.update({name: values.table(name) for name in CARD_TITLES})
    shown = {k: v for k, v in tables.items() if not only or k in only}
    with finishing():  # a Ctrl-C now waits for every table, chart and file
        if out_dir is not None:  # first: a reader of stdout that goes away loses no file
            write_outputs(result, out_dir, tables, no_charts, hand_data, values)
        print_analysis(result, shown, fmt, dealer, rules.players, values)
    if result.interrupted or (values is not None and values.interrupted):
        what = f"{result.hands:,} finished hands"
        if values is not None and values.interrupted:
            cv = values.to_dict()
            what += f" and the card values of {cv['hands_played']:,} of {cv['hands']:,}"
        stopped(what, out_dir, hand_data)
        sys.exit(130)


def write_outputs(result, out_dir, tables, no_charts=False, hand_data=False, values=None):
    """stats' files under --out (``cinch-sim merge`` writes the same)."""
    from cinch_sim.outputs import atomic_write_text, write_run_json

    for name, df in tables.items():
        atomic_write_text(out_dir / f"{name}.csv", N.csv_text(df))
    charts = []
    if not no_charts:
        from cinch_sim.analysis.plots import save_figure

        for stem, fig in result.figures().items():
            charts += save_figure(fig, out_dir, stem)
    settings = dict(result.settings)
    settings.update(
        command="stats",
        by=list(result.by),
        min_hands=result.min_hands,
        summary=result.summary(),
        tables=[f"{n}.csv" for n in tables],
        charts=charts,
        hand_data="hands.parquet" if hand_data else None,
    )
    if values is not None:
        cv = values.to_dict()
        settings["card_values"] = {
            k: cv[k] for k in ("hands", "hands_played", "replacement", "method", "seconds")
        }
        settings["card_values"]["interrupted"] = values.interrupted
        if values.interrupted:  # the hands are whole, the card values' replays are not
            settings["interrupted"] = True
    write_run_json(out_dir, settings)


def print_analysis(result, tables, fmt, dealer, players, values=None) -> None:
    """The tables on stdout: as JSON, CSV or text (a merged run's first line names its
    seeds and no time)."""
    from cinch_sim.analysis.tables import to_text
    from cinch_sim.policies.registry import dd_note
    from cinch_sim.rules import seat_name

    if fmt == "json":
        d = result.to_dict()
        d["tables"] = {k: v for k, v in d["tables"].items() if k in tables}
        if values is not None:
            cv = values.to_dict()
            for name in CARD_TITLES:  # top-level lists of rows: card, value, lo, hi, ...
                if name in tables:
                    d[name] = cv[name]
            d["card_values_settings"] = {
                k: cv[k] for k in ("hands", "hands_played", "replacement", "method", "seconds")
            }
            d["card_values_settings"]["interrupted"] = values.interrupted
        click.echo(json.dumps(d, default=str))
        return
    if fmt == "csv":
        (df,) = tables.values()  # one table: the command chose it
        click.echo(N.csv_text(df), nl=False)
        return
    s = result.summary()
    if result.interrupted:
        click.echo(interrupted_line(s["hands"], s["hands_requested"], "hands"))
    elif values is not None and values.interrupted:
        cv = values.to_dict()
        unit = "hands of the card values (the other tables: every hand)"
        click.echo(interrupted_line(cv["hands_played"], cv["hands"], unit))
    rel = ", ".join(f"{p}={seat_name(p, dealer, players)}" for p in range(players))
    seed = N.seed_of(result.settings)
    click.echo(
        f"{s['hands']:,} hands, {N.seed_words(seed)}, dealer seat {dealer} ({rel}); "
        f"{result.counts.contracts_line()}{N.time_words(seed, s['seconds'])}"
    )
    click.echo(N.capital(N.settings_words(result.settings)))
    note = dd_note(result.settings["policies"])
    if note:
        click.echo(note)
    same = SAME_TABLE if [f for f in result.by if f != "bid"] == ["trumps"] else {}
    for name, df in tables.items():
        if same.get(name) in tables:  # printed once, under both names
            continue
        click.echo()
        if name in CARD_TITLES:
            from cinch_sim.analysis.card_values import display, display_by_bid

            shown = display(df) if name == "card_values" else display_by_bid(df)
            click.echo(f"{CARD_TITLES[name]} [{name}]")
            click.echo(shown.to_string(index=False))
            click.echo(f"{values.hands_played:,} hands played. {values.method()}")
            continue
        title = table_title(name, result.counts.rules)
        names = ", ".join([name] + [k for k, v in same.items() if v == name and k in tables])
        click.echo(to_text(df, f"{title} [{names}]", result.min_hands))
        note = table_note(name, result.counts)
        if note:
            click.echo(note)


# by trumps (the default --by), the table for each bid given the hand is the table by
# trumps and bid: the text prints it once (the files keep both names)
SAME_TABLE = {"make_rate_by_trumps_and_bid": "make_rate_by_hand_and_bid"}


def table_note(name: str, counts) -> str:
    """A line under a table that needs one: why a make rate may rise with the bid; what
    the Pedro tables' two shares count; in cut-throat, what 'average opponent' is."""
    from cinch_sim.analysis.tables import opponent_share

    if name == "make_rate_by_bid":
        from cinch_sim.analysis.words import CHOSEN_BIDS_NOTE

        return f"{CHOSEN_BIDS_NOTE} What one hand can bid: cinch-sim advise."
    if name == "pedro_capture":
        return (
            "rate: of the hands that holder held the card, the share with that fate; "
            "share: of all hands played."
        )
    if name == "pedro_by_trick":
        return (
            "saved rate: of the hands the card fell in that trick from that holder, the "
            "share the holder's side kept; share: of all hands played."
        )
    others = opponent_share(counts)
    if others == 1:
        return ""
    if name == "points":
        return f"other players: the points the {others} other players took together."
    if name == "score_by_bid":
        return (
            f"average opponent: the {others} other players' points (score change) together, "
            f"divided by {others}."
        )
    return ""
