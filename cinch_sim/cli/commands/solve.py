"""``cinch-sim solve``: recorded hands against double-dummy play."""

from __future__ import annotations

import json
import sys

import click

from cinch_sim.checks import from_text
from cinch_sim.cli.options import AtLeast, BadInput, format_option, friendly
from cinch_sim.cli.progress import Progress


@click.command(short_help="Value recorded hands against double-dummy play.")
@click.argument("file", type=click.Path(dir_okay=True, allow_dash=True))
@click.option(
    "--line",
    "-n",
    "line_no",
    type=AtLeast("line", 1),
    default=None,
    help="Only the record on this line of FILE, shown trick by trick.",
)
@click.option(
    "--from-trick",
    "from_trick",
    default="1",
    show_default=True,
    metavar="N|quick",
    help="Value the cards from trick N (1 first) on; the tricks before are listed "
    "without values. quick: from the first trick the solver answers in about a second "
    "(the first, but with two decks or six seats a later one).",
)
@format_option(
    formats=("table", "json"),
    help="How the hands print on stdout: table, a line per hand (with --line, the hand "
    "trick by trick) and the means; json, one object per hand (line, dd_start, lost by "
    "team, points, tricks with each card's value before and after).",
)
@friendly  # e.g. `| head`: a closed pipe ends the run quietly
def solve(file: str, line_no: int | None, from_trick: str, fmt: str) -> None:
    """Solve the hands of FILE (JSON Lines of cinch-hand/1 and cinch-game/1 records)
    double-dummy, every card seen by every player.

    For each hand the referee accepts: the points the maker's side takes under
    best play from the start of play (dd start) and from each later trick as it
    was played, what it took, and what each team's play gave away: for every
    card, the drop from the best value its player could keep to the value after
    the card, summed by team. A game record gives one line per hand. Hands that
    were thrown in, misdealt or reneged are listed but not solved.

    About 0.1 ms to 10 ms a hand on one core at four players; at six, seconds and
    some hands minutes; with two decks (twelve tricks) many hands take minutes
    and some far longer: study single hands (docs/solver.md).
    Exit status: 0
    when every record could be read, 1 when a record is invalid, 2 when FILE
    cannot be opened or --line holds no record.
    """
    from cinch_sim.records.io import RecordFileError
    from cinch_sim.records.review import (
        LEGEND,
        SolveReport,
        TrickOutOfRange,
        hand_text,
        iter_summaries,
    )

    first: int | str | float = from_trick
    if from_trick != "quick":
        first = from_text(from_trick)  # plain ASCII digits, as every number typed
        if not isinstance(first, int):
            raise BadInput("--from-trick", f"{from_trick!r} is not a trick number or 'quick'")
        if first < 1:  # the hand's last trick is known only once its record is read
            raise BadInput("--from-trick", f"{first} is out of range: tricks count from 1")
    try:
        hands = iter_summaries(file, line_no, first)
    except RecordFileError as e:
        click.echo(f"Error: {e}", err=True)
        sys.exit(2)
    done: list[dict] = []
    bar = Progress(None, "solving", unit="hands")
    teams = None
    try:
        for s in _announced(hands):
            bar(1)
            done.append(s)
            if fmt == "json":
                click.echo(json.dumps(s))
            elif line_no is not None:
                click.echo(("\n" if len(done) > 1 else "") + hand_text(s))
            else:
                teams = _print_row(s, teams)
        bar.close()
    except RecordFileError as e:
        click.echo(f"Error: {e}", err=True)
        sys.exit(2)
    except LookupError as e:
        raise BadInput("--line", str(e)) from None
    except TrickOutOfRange as e:
        bar.close()
        raise BadInput("--from-trick", str(e)) from None
    report = SolveReport(done)
    if fmt == "table" and line_no is None:
        click.echo("")
        click.echo(report.headline().removeprefix("Solve: "))
        if report.solved():
            click.echo(f"({LEGEND})")
        firsts = sorted({s["from_trick"] for s in done if s.get("from_trick", 1) > 1})
        if firsts:  # --from-trick: the tricks before were listed, not solved
            tricks = ", ".join(str(t) for t in firsts)
            click.echo(
                f"dd start: the value at the first trick solved ({tricks}), not at the "
                "start of play (--from-trick)"
            )
    sys.exit(1 if any(s["status"] == "invalid" for s in done) else 0)


def _announced(hands):
    """The hands, the first one under a compile notice: the solver is compiled (or
    loaded from the cache) on its first use."""
    from cinch_sim.jit.notice import first_compile
    from cinch_sim.solver.review import line_values, line_values2

    def compiling() -> bool:
        return not (line_values.overloads or line_values2.overloads)

    it = iter(hands)
    with first_compile("the double-dummy solver", compiling):
        first = next(it, None)
    if first is None:
        return
    yield first
    yield from it


def _print_row(s: dict, teams: int | None) -> int | None:
    """A hand's line, the column heads before the first solved one."""
    from cinch_sim.records.review import header_text, row_text

    if teams is None and s["lost"] is not None:
        teams = len(s["lost"])
        click.echo(header_text(teams))
    click.echo(row_text(s, teams or 2))
    return teams
