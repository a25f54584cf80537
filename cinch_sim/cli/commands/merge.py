"""``cinch-sim merge``: runs saved with --out, of different seeds, as one run's outputs."""

from __future__ import annotations

import json

import click

from cinch_sim import notation as N
from cinch_sim.cli.options import friendly, out_folder, output_options
from cinch_sim.interrupts import finishing

# the command whose outputs a merged result's files are, by the result's class
COMMAND_OF = {"Simulation": "simulate", "Analysis": "stats", "Ladder": "ladder"}


@click.command(
    context_settings={"show_default": True},
    short_help="Merge saved runs of one command into one result.",
)
@click.argument("dirs", nargs=-1, required=True, type=click.Path(file_okay=False, exists=True))
@output_options(
    out_help="Folder for the merged run: the files a single run writes, and its chunks "
    "(so it can be merged again). Required.",
    format_help="How the merged result prints on stdout: as its command prints a run "
    "(table), its first table (csv) or its settings and summary (json).",
)
@friendly
def merge(dirs, fmt, out, force):
    """Merge runs that simulate, stats, compare or ladder saved with --out DIR.

    The runs must have the same settings but for the seed and how many hands or
    games they ran (a difference is refused, naming it), and no two may hold
    the same seed's chunk. The merged folder holds what a single run of all
    of them writes, with run.json naming every seed and range merged; numbers
    are exact whatever the order of DIRS.
    """
    from cinch_sim.api import merge as run_merge
    from cinch_sim.cli.options import BadInput

    if out is None:
        raise BadInput("--out", "name the folder for the merged run")
    out_dir = out_folder(out, force, resumable=False, make=False)  # made once merged
    result = run_merge(list(dirs), out_dir, force)
    _left_out(dirs)
    command = COMMAND_OF.get(type(result).__name__, "compare")
    with finishing():  # a Ctrl-C now waits for every table, chart and file
        _write(result, command, out_dir, no_charts=_drew_no_charts(dirs))
        if fmt == "json":
            d = result.to_dict() if hasattr(result, "to_dict") else dict(result.settings)
            click.echo(json.dumps(d, default=str))
        elif fmt == "csv":
            click.echo(N.csv_text(result.table()), nl=False)
        else:
            _print_table(result, command)


def _left_out(dirs) -> None:
    """Say which of a run's files a merge cannot hold: stats' card values are a study of
    their own, played after the chunks, so there is nothing to add up."""
    from pathlib import Path

    with_cards = [d for d in dirs if (Path(d) / "card_values.csv").exists()]
    if with_cards:
        click.echo(
            f"card values not merged (from {', '.join(with_cards)}): they are not counted "
            "chunk by chunk; run stats --card-values for them",
            err=True,
        )


def _drew_no_charts(dirs) -> bool:
    """Whether every run merged was saved without its charts (stats --no-charts, as its
    run.json's empty ``charts`` says): the merged run then draws none either."""
    from pathlib import Path

    said = []
    for d in dirs:
        path = Path(d) / "run.json"
        try:
            said.append(json.loads(path.read_text(encoding="utf-8")).get("charts"))
        except (OSError, ValueError, AttributeError):
            return False
    return all(isinstance(c, list) and not c for c in said)


def _write(result, command: str, out_dir, no_charts: bool = False) -> None:
    """The files the merged run's own command writes under --out (stats' charts only
    where a run merged drew them)."""
    if command == "simulate":
        from cinch_sim.cli.commands.simulate import write_outputs

        write_outputs(result, out_dir)
    elif command == "stats":
        from cinch_sim.cli.commands.stats import write_outputs

        write_outputs(result, out_dir, result.tables(), no_charts=no_charts)
    elif command == "compare":
        from cinch_sim.cli.commands.compare import write_compare_outputs

        write_compare_outputs(result, out_dir)
    else:
        from cinch_sim.cli.commands.compare import write_ladder_outputs

        write_ladder_outputs(result, out_dir)


def _print_table(result, command: str) -> None:
    """The merged run as its own command prints a run: the same tables, its first line
    naming every seed merged (and no time: the runs' own are not kept)."""
    seed = N.seed_of(result.settings)
    if command == "simulate":
        from cinch_sim.cli.commands.simulate import print_simulation

        dealer, players = result.settings["dealer"], result.counts.rules.players
        print_simulation(result, "table", None, seed, dealer, players)
    elif command == "stats":
        from cinch_sim.cli.commands.stats import print_analysis

        dealer, players = result.settings["dealer"], result.counts.rules.players
        print_analysis(result, result.tables(), "table", dealer, players)
    elif command == "compare":
        from cinch_sim.cli.commands.compare import print_comparison

        print_comparison(result, "table", None, seed, None)
    else:
        from cinch_sim.cli.commands.compare import print_ladder

        print_ladder(result, result.table(), result.matchups(), "table", None, seed)
