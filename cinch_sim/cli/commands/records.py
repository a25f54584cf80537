"""``cinch-sim referee`` and ``cinch-sim show``: check and read hand/game records."""

from __future__ import annotations

import sys

import click


@click.command(short_help="Check hand and game records against the rules.")
@click.argument("file", type=click.Path(dir_okay=True, allow_dash=True))
@click.option(
    "--write",
    "write_to",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write the records back, computed fields (winners, result, totals) filled in.",
)
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary line.")
def referee(file: str, write_to: str | None, quiet: bool) -> None:
    """Referee FILE (JSON Lines of cinch-hand/1 and cinch-game/1 records).

    Every record is replayed with its own rule options: the deal, bids,
    discards, draws, robbing, every play, each trick's winner, the points,
    made or set and the score. One line is printed per record that is not
    clean (line, field, seat, trick, what is wrong), then the summary
    `N valid, M renege, K misdeal, L invalid`.

    A renege is penalised (docs/rules.md, "Renege") and reported, not an error; a
    misdeal is reported as such. Exit status: 0 when nothing is invalid, 1
    when something is, 2 when FILE cannot be opened.
    """
    from cinch_sim.records.io import STATUSES, RecordFileError, iter_referee_file
    from cinch_sim.records.writer import AtomicText, dumps

    try:
        verdicts = iter_referee_file(file)
    except RecordFileError as e:
        click.echo(f"Error: {e}", err=True)
        sys.exit(2)
    counts = dict.fromkeys(STATUSES, 0)
    skipped = 0

    def run(out) -> None:
        nonlocal skipped
        for v in verdicts:
            counts[v.status] += 1
            if not v.clean and not quiet:
                click.echo(v.describe())
            if out is not None:
                rec = v.record
                if rec is None:
                    skipped += 1
                else:
                    out.write(dumps(rec) + "\n")

    try:
        if write_to:
            with AtomicText(write_to) as out:
                run(out)
        else:
            run(None)
    except RecordFileError as e:
        click.echo(f"Error: {e}", err=True)
        sys.exit(2)
    except OSError as e:
        click.echo(f"Error: cannot write {write_to!r}: {e.strerror or e}", err=True)
        sys.exit(2)
    click.echo(
        f"{counts['valid']} valid, {counts['renege']} renege, "
        f"{counts['misdeal']} misdeal, {counts['invalid']} invalid"
    )
    if write_to and skipped:
        click.echo(f"{skipped} invalid record(s) not written to {write_to}", err=True)
    sys.exit(1 if counts["invalid"] else 0)


@click.command(short_help="Print one recorded hand for people.")
@click.argument("file", type=click.Path(dir_okay=True, allow_dash=True))
@click.option(
    "--line", "-n", "line_no", type=click.IntRange(min=1), default=1, help="Line of FILE to show."
)
@click.option(
    "--hand",
    "hand_no",
    type=click.IntRange(min=0),
    default=None,
    help="For a game record: which hand (0 first) to show in full.",
)
def show(file: str, line_no: int, hand_no: int | None) -> None:
    """Show the hand on line --line of FILE: the four hands with suit symbols,
    the bids, trump, discards and draws, each trick with its winner, the points
    and who took them. A game record shows its hands and running totals.
    """
    from cinch_sim.records.io import RecordFileError, read_records, referee_record
    from cinch_sim.records.referee import GameCheck
    from cinch_sim.records.show import show_game, show_hand

    try:
        lines = read_records(file)
    except RecordFileError as e:
        click.echo(f"Error: {e}", err=True)
        sys.exit(2)
    found = None
    try:
        for ln in lines:
            if ln.number == line_no:
                found = ln
                break
            if ln.number > line_no:
                break
    except RecordFileError as e:
        click.echo(f"Error: {e}", err=True)
        sys.exit(2)
    if found is None:
        click.echo(f"Error: line {line_no} of {file} holds no record", err=True)
        sys.exit(1)
    if found.error:
        click.echo(f"line {line_no}: invalid: {found.error}", err=True)
        sys.exit(1)
    v = referee_record(found.data, line_no)
    if v.check is None:
        click.echo(v.describe(), err=True)
        sys.exit(1)
    if isinstance(v.check, GameCheck):
        if hand_no is not None and hand_no >= len(v.check.hands):
            click.echo(f"Error: the game has {len(v.check.hands)} hands", err=True)
            sys.exit(1)
        click.echo(show_game(v.check, hand_no))
    else:
        click.echo(show_hand(v.check, title=f"Line {line_no}: "))
    if not v.clean:
        click.echo("")
        click.echo(v.describe())
