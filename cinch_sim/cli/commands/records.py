"""``cinch-sim referee`` and ``cinch-sim show``: check and read hand/game records."""

from __future__ import annotations

import csv
import json
import sys

import click

from cinch_sim import notation as N
from cinch_sim.cli.files import output_file, results_on_stderr_if_stdout_taken
from cinch_sim.cli.options import AtLeast, BadInput, force_option, format_option, friendly
from cinch_sim.cli.progress import Progress


@click.command(short_help="Check hand and game records against the rules.")
@click.argument("file", type=click.Path(dir_okay=True, allow_dash=True))
@click.option(
    "--write",
    "write_to",
    type=click.Path(dir_okay=False, allow_dash=True),
    default=None,
    help="Write the records back, line for line: each checked record with its computed "
    "fields (winners, result, totals) filled in, each invalid line copied unchanged, so "
    "line N is still line N ('-': stdout, the verdicts then on stderr).",
)
@force_option(files=("--write",), out=False)
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary (json: the counts).")
@format_option(
    help="How the verdicts print on stdout: table, a line per record that is not clean "
    "and the summary; json, one object with the counts and those records' problems; "
    "csv, one row per record (line, kind, status, field, seat, trick, message), the "
    "summary on stderr."
)
@friendly  # e.g. `| head`: a closed pipe ends the run quietly
def referee(file: str, write_to: str | None, force: bool, quiet: bool, fmt: str) -> None:
    """Referee FILE (JSON Lines of cinch-hand/1 and cinch-game/1 records).

    Every record is replayed with its own rule options: the deal, bids,
    discards, draws, robbing, every play, each trick's winner, the points,
    made or set and the score. One line is printed per record that is not
    clean (line, field, seat, trick, what is wrong; tricks count from 1),
    then the summary `N valid, M renege, K misdeal, L invalid`.

    A renege is penalised (docs/rules.md §1.16) and reported, not an error; a
    misdeal is reported as such. Exit status: 0 when nothing is invalid, 1
    when something is, 2 when FILE cannot be opened or --write cannot be written.

    --write keeps every line where it is: an invalid line (bad JSON included)
    is copied byte for byte, so the verdicts' line numbers still point at the
    lines to fix. Writing over FILE itself (--force) is safe: the new file
    replaces it whole once every line is written.
    """
    from cinch_sim.outputs import Output, OutputError
    from cinch_sim.records.io import STATUSES, RecordFileError
    from cinch_sim.records.writer import dumps

    output_file("--write", write_to, force)
    try:
        verdicts = _verdicts_with_lines(file)
    except RecordFileError as e:
        click.echo(f"Error: {e}", err=True)
        sys.exit(2)
    counts = dict.fromkeys(STATUSES, 0)
    problems: list[dict] = []
    copied = 0  # invalid lines written back as they were
    rows = None
    if fmt == "csv":
        columns = ["line", "kind", "status", "field", "seat", "trick", "message"]
        stream = sys.stderr if write_to == "-" else sys.stdout  # stdout holds the records
        rows = csv.DictWriter(stream, columns, lineterminator="\n")
        rows.writeheader()

    bar = Progress(None, "refereeing", unit="records")  # a line every 10 s on stderr

    def run(out) -> None:
        nonlocal copied
        for v, before, raw in verdicts:
            if out is not None:
                for blank in before:  # blank lines keep their place too
                    out.write(blank)
            if v is None:  # the blank lines after the last record
                continue
            bar(1)
            counts[v.status] += 1
            if rows is not None:
                rows.writerow(v.problem())
            elif not v.clean and not quiet:
                if fmt == "json":
                    problems.append(v.problem())
                else:
                    click.echo(v.describe())
            if out is not None:
                rec = None if v.status == "invalid" else v.record
                if rec is None:  # the line as it was, byte for byte, for the user to fix
                    copied += 1
                    out.write(raw)
                else:
                    out.write(dumps(rec) + "\n")

    try:
        if write_to:
            with Output(write_to) as out, results_on_stderr_if_stdout_taken(write_to):
                run(out)
        else:
            run(None)
        bar.close()
    except (RecordFileError, OutputError) as e:  # a broken pipe ends quietly (`friendly`)
        click.echo(f"Error: {e}", err=True)
        sys.exit(2)
    summary = (
        f"{counts['valid']} valid, {counts['renege']} renege, "
        f"{counts['misdeal']} misdeal, {counts['invalid']} invalid"
    )
    with results_on_stderr_if_stdout_taken(write_to):
        if fmt == "json":
            d: dict = {"file": file, "counts": counts, "summary": summary}
            if not quiet:
                d["problems"] = problems
            click.echo(json.dumps(d))
        else:
            click.echo(summary, err=fmt == "csv")  # CSV on stdout is the one table
    if write_to and copied:
        where = "stdout" if write_to == "-" else write_to
        click.echo(
            f"{copied} invalid record(s) copied unchanged to {where} (same line numbers)",
            err=True,
        )
    sys.exit(1 if counts["invalid"] else 0)


def _verdicts_with_lines(file: str):
    """The referee's verdict on each record line of ``file``, streamed, with the file's
    own bytes: ``(verdict, blank lines before it, its line)``, then ``(None, blank lines
    at the end, None)``. Together the bytes are the whole file (a byte-order mark
    included), so ``--write`` can copy any line unchanged and keep every line number.

    Raises RecordFileError at once if ``file`` cannot be opened, and while iterating
    if reading it fails part way (as ``records.io.read_records`` does).
    """
    from cinch_sim.records.io import RecordFileError, iter_lines, open_record_file, referee_lines

    fh = open_record_file(file)
    taken: list[bytes] = []  # the raw lines read since the last verdict

    def tap():
        for raw in fh:
            taken.append(raw)
            yield raw

    def gen():
        try:
            try:
                for v in referee_lines(iter_lines(tap())):
                    before, raw = taken[:-1], taken[-1]
                    taken.clear()
                    yield v, before, raw
            except OSError as e:
                raise RecordFileError(f"cannot read {file!r}: {e.strerror or e}") from None
            yield None, list(taken), None
        finally:
            if fh is not getattr(sys.stdin, "buffer", None):
                fh.close()

    return gen()


@click.command(short_help="Print a recorded hand or game for people.")
@click.argument("file", type=click.Path(dir_okay=True, allow_dash=True))
@click.option(
    "--line", "-n", "line_no", type=AtLeast("line", 1), default=1, help="Line of FILE to show."
)
@click.option(
    "--hand",
    "hand_no",
    type=AtLeast("hand", 1),
    default=None,
    help="For a game record: which hand (1 first, as the game's list numbers them) to show "
    "in full.",
)
@format_option(
    help="How the record prints on stdout: table, for people; json, the record as "
    "`referee --write` writes it (with --hand, that hand as a cinch-hand/1 record); csv, "
    "one row per trick (trick, leader, each seat's card, winner, points), or for a game "
    "without --hand one row per hand (dealer, maker, bid, score, totals)."
)
@friendly
def show(file: str, line_no: int, hand_no: int | None, fmt: str) -> None:
    """Show the hand on line --line of FILE: the four hands with suit symbols,
    the bids, trump, discards and draws, each trick with its winner, the points
    and who took them. A game record shows its hands and running totals.
    Tricks and a game's hands are numbered from 1.
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
        raise BadInput("--line", f"line {line_no} of {file} holds no record")
    if found.error:
        click.echo(f"line {line_no}: invalid: {found.error}", err=True)
        sys.exit(1)
    v = referee_record(found.data, line_no)
    if v.check is None:
        click.echo(v.describe(), err=True)
        sys.exit(1)
    game = v.check if isinstance(v.check, GameCheck) else None
    if hand_no is not None:
        if game is None:
            raise BadInput("--hand", f"line {line_no} holds a hand record, not a game")
        if hand_no > len(game.hands):
            raise BadInput("--hand", f"the game has {len(game.hands)} hands (1..{len(game.hands)})")
    if fmt != "table":
        _print_record(v, game, hand_no, fmt)
        return
    if game is not None:
        click.echo(show_game(game, hand_no))
    else:
        click.echo(show_hand(v.check, title=f"Line {line_no}: "))
    if not v.clean:
        click.echo("")
        click.echo(v.describe())


def _print_record(v, game, hand_no: int | None, fmt: str) -> None:
    """The shown record as JSON (the refereed record) or as one CSV table."""
    import pandas as pd

    from cinch_sim.records.show import game_columns, game_rows, trick_columns, trick_rows
    from cinch_sim.records.writer import dumps

    hand = v.check if game is None else (game.hands[hand_no - 1] if hand_no else None)
    if fmt == "json":
        click.echo(dumps(hand.to_record() if hand is not None else v.record))
        return
    if hand is None:
        df = pd.DataFrame(game_rows(game), columns=game_columns(game.rules.teams))
    else:
        df = pd.DataFrame(trick_rows(hand), columns=trick_columns(hand.rules.players))
    click.echo(N.csv_text(df), nl=False)
