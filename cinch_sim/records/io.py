"""Reading JSON Lines record files and refereeing them line by line.

A file that cannot be opened is a :class:`RecordFileError` (the only error for a
whole run). Everything else, bad bytes, bad JSON, a broken record, becomes a
:class:`Verdict` for that line, and reading goes on with the next line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from dataclasses import field as dc_field
from pathlib import Path
from typing import Any

from cinch_sim.records.parse import (
    GAME_FORMAT,
    HAND_FORMAT,
    RecordError,
    place,
    short,
    type_name,
)
from cinch_sim.records.referee import GameCheck, HandCheck, check_game, check_hand, side_name
from cinch_sim.views import Tables

STATUSES = ("valid", "renege", "misdeal", "invalid")


class RecordFileError(OSError, ValueError):
    """A record file that cannot be opened or read at all: an OSError, as a file's
    trouble is, and a ValueError, as every bad input of the API is (docs/api.md)."""


@dataclass
class Line:
    """One non-blank line of a record file: its number, its raw bytes, its JSON or an error."""

    number: int
    raw: bytes
    data: Any = None
    error: str | None = None


@dataclass
class Verdict:
    """The referee's verdict on one record (a line of a file, or one dict).

    ``trick`` is an index into the record's ``tricks`` (0 first, as the field
    path ``tricks[2]`` and ``result.renege`` count); what people read, the text
    and the rows, counts tricks from 1 (``trick 3``).
    """

    line: int | None
    kind: str  # "hand", "game" or "?" (not readable as either)
    status: str  # valid, renege, misdeal, invalid
    message: str = ""
    field: str | None = None
    seat: int | None = None
    trick: int | None = None
    check: HandCheck | GameCheck | None = dc_field(default=None, repr=False)

    @property
    def clean(self) -> bool:
        return self.status == "valid"

    @property
    def record(self) -> dict[str, Any] | None:
        """The record in the writer's form with computed fields filled in (None if invalid)."""
        return None if self.check is None else self.check.to_record()

    def where(self) -> str:
        return place(self.field, self.seat, self.trick)

    def detail(self) -> str:
        """Where and what: ``tricks[2].winner, seat 3, trick 3: ...`` ('' if nothing)."""
        return ": ".join(x for x in (self.where(), self.message) if x)

    def describe(self) -> str:
        """One line: ``line 7: invalid: tricks[2].winner, seat 3, trick 3: ...``."""
        head = f"line {self.line}" if self.line is not None else "record"
        text = self.detail()
        return f"{head}: {self.status}" + (f": {text}" if text else "")

    def problem(self) -> dict[str, Any]:
        """What the verdict says, as a row: line, kind, status, field, seat, trick (1 first),
        message (the fields of ``describe``'s line)."""
        return {
            "line": self.line,
            "kind": self.kind,
            "status": self.status,
            "field": self.field,
            "seat": self.seat,
            "trick": None if self.trick is None else self.trick + 1,
            "message": self.message,
        }

    def as_row(self) -> dict[str, Any]:
        """``problem()`` and what the record came to (maker, bid, points, score...)."""
        row = self.problem()
        c = self.check
        if isinstance(c, HandCheck):
            row.update(_hand_row(c))
        elif isinstance(c, GameCheck):
            row.update(
                {
                    "dealer": c.first_dealer,
                    "hands": len(c.hands),
                    "winner": c.winner,
                    "reason": c.reason,
                    "total_0": c.totals[-1][0] if c.totals else 0,
                    "total_1": c.totals[-1][1] if c.totals and len(c.totals[-1]) > 1 else None,
                }
            )
        return row


def _hand_row(c: HandCheck) -> dict[str, Any]:
    from cinch_sim.cards import SUITS

    row: dict[str, Any] = {
        "dealer": c.dealer,
        "maker": c.maker,
        "bid": c.bid,
        "trump": None if c.trump is None else SUITS[c.trump],
        "thrown_in": c.thrown_in,
        "made": c.made,
        "shortage": c.shortage,
    }
    for t, p in enumerate(c.points):
        row[f"points_{t}"] = p
    for t, s in enumerate(c.score):
        row[f"score_{t}"] = s
    for name, team in c.captured.items():
        row[f"captured_{name}"] = team
    return row


def open_record_file(path: str | os.PathLike):
    """A binary file object for ``path`` (``-``: standard input)."""
    if str(path) == "-":
        import sys

        return sys.stdin.buffer
    p = Path(path)
    if p.is_dir():
        raise RecordFileError(f"cannot open {str(p)!r}: it is a directory")
    try:
        return open(p, "rb")  # noqa: SIM115 - closed by read_records
    except OSError as e:
        raise RecordFileError(f"cannot open {str(p)!r}: {e.strerror or e}") from None


# JSON's whitespace. The line's own end ("\n", "\r\n") is cut before parsing, so a
# line cut short is reported at its last column, not at column 1 of a "line 2".
_JSON_SPACE = " \t\r\n"


def iter_lines(raw_lines: Iterable[bytes]) -> Iterator[Line]:
    """Decode and parse lines of bytes one by one, never raising. A JSON error's column
    counts characters from the start of the line, as an editor shows it."""
    for i, raw in enumerate(raw_lines, 1):
        if i == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        if not raw.strip():
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            # the column in characters, as for bad JSON: the good text before the byte
            column = len(raw[: e.start].decode("utf-8", errors="replace")) + 1
            yield Line(i, raw, error=f"not UTF-8: byte 0x{raw[e.start]:02x} at column {column}")
            continue
        try:
            obj = json.loads(text.rstrip(_JSON_SPACE))
        except json.JSONDecodeError as e:
            yield Line(i, raw, error=f"bad JSON: {e.msg} (column {e.pos + 1})")
            continue
        except RecursionError:
            yield Line(i, raw, error="bad JSON: nested too deeply")
            continue
        except ValueError as e:  # e.g. an integer with too many digits
            yield Line(i, raw, error=f"bad JSON: {e}")
            continue
        yield Line(i, raw, data=obj)


def read_records(path: str | os.PathLike) -> Iterator[Line]:
    """The non-blank lines of a record file, streamed, each parsed or carrying its error.

    Raises RecordFileError (at once, not on first iteration) only when the file
    cannot be opened, or reading it fails part way.
    """
    fh = open_record_file(path)

    def gen() -> Iterator[Line]:
        try:
            try:
                yield from iter_lines(fh)
            except OSError as e:
                raise RecordFileError(f"cannot read {str(path)!r}: {e.strerror or e}") from None
        finally:
            if fh is not getattr(__import__("sys").stdin, "buffer", None):
                fh.close()

    return gen()


def load_records(path: str | os.PathLike) -> list[dict[str, Any]]:
    """The JSON objects of a record file, for notebooks; raises on the first bad line."""
    out = []
    for ln in read_records(path):
        if ln.error:
            raise RecordError(f"line {ln.number}: {ln.error}")
        out.append(ln.data)
    return out


def referee_record(obj: Any, line: int | None = None) -> Verdict:
    """Referee one decoded record (a hand or a game dict). Never raises."""
    kind = "?"
    try:
        if not isinstance(obj, dict):
            raise RecordError(f"a record must be a JSON object, got {type_name(obj)}")
        fmt = obj.get("format")
        if fmt == HAND_FORMAT:
            kind = "hand"
            hc = check_hand(obj)
            if hc.misdeal:
                return Verdict(line, kind, "misdeal", hc.misdeal, None, None, None, hc)
            if hc.renege:
                return Verdict(
                    line,
                    kind,
                    "renege",
                    _renege_message(hc),
                    None,
                    hc.renege["seat"],
                    hc.renege["trick"],
                    hc,
                )
            return Verdict(line, kind, "valid", "", check=hc)
        if fmt == GAME_FORMAT:
            kind = "game"
            gc = check_game(obj)
            status = gc.status
            return Verdict(line, kind, status, "; ".join(gc.notes()), check=gc)
        if "format" not in obj:
            raise RecordError('missing field "format"', field="format")
        raise RecordError(
            f"unknown format {short(fmt)} (expected {short(HAND_FORMAT)} or {short(GAME_FORMAT)})",
            field="format",
        )
    except RecordError as e:
        return Verdict(line, kind, "invalid", e.message, e.field, e.seat, e.trick)
    except RecursionError:
        return Verdict(line, kind, "invalid", "record nested too deeply")
    except Exception as e:  # a referee bug must not stop the run
        return Verdict(
            line, kind, "invalid", f"internal error while checking: {type(e).__name__}: {e}"
        )


def _renege_message(hc: HandCheck) -> str:
    pen = ", ".join(f"{side_name(hc.rules, t)} {s:+d}" for t, s in enumerate(hc.score))
    return f"{hc.renege_text}; penalty (docs/rules.md §1.16): score {pen}"


def referee_lines(lines: Iterable[Line]) -> Iterator[Verdict]:
    for ln in lines:
        if ln.error:
            yield Verdict(ln.number, "?", "invalid", ln.error)
        else:
            yield referee_record(ln.data, ln.number)


def referee_records(records: Iterable[Any]) -> list[Verdict]:
    """Referee record dicts (numbered from 1 like lines); never raises."""
    return [referee_record(r, i) for i, r in enumerate(records, 1)]


@dataclass(repr=False)
class RefereeReport(Tables):
    """Verdicts on every record of a file, with the summary counts (``.table()``: one
    row per record)."""

    verdicts: list[Verdict]

    def table_names(self) -> tuple[str, ...]:
        return ("records",)

    def _table(self, name: str):
        return self.to_frame()

    def headline(self) -> str:
        n = len(self.verdicts)
        return f"Referee: {n:,} record{'' if n == 1 else 's'}: {self.summary()}"

    def counts(self) -> dict[str, int]:
        c = dict.fromkeys(STATUSES, 0)
        for v in self.verdicts:
            c[v.status] += 1
        return c

    def summary(self) -> str:
        c = self.counts()
        return (
            f"{c['valid']} valid, {c['renege']} renege, "
            f"{c['misdeal']} misdeal, {c['invalid']} invalid"
        )

    @property
    def ok(self) -> bool:
        return all(v.status != "invalid" for v in self.verdicts)

    def to_dict(self) -> dict[str, Any]:
        """The counts, the summary and every record's problem, as ``cinch-sim referee
        --format json`` prints them (without the file's name)."""
        return {
            "counts": self.counts(),
            "summary": self.summary(),
            "problems": [v.problem() for v in self.verdicts if not v.clean],
        }

    def to_frame(self):
        """A pandas DataFrame, one row per record."""
        return verdicts_frame(self.verdicts)


def referee_file(path: str | os.PathLike) -> RefereeReport:
    """Referee every line of a file. Raises RecordFileError only if it cannot be opened."""
    return RefereeReport(list(referee_lines(read_records(path))))


def iter_referee_file(path: str | os.PathLike) -> Iterator[Verdict]:
    """Verdicts streamed line by line (constant memory); opening errors raise at once."""
    return referee_lines(read_records(path))


def verdicts_frame(verdicts: Iterable[Verdict]):
    """One row per record; a column of whole numbers with gaps (the seat and trick of
    a problem, which a valid record has not) stays whole: pandas' Int64, not floats."""

    return typed_frame([v.as_row() for v in verdicts], PROBLEM_TYPES)


def typed_frame(rows: list[dict[str, Any]], types: dict[str, str], columns: tuple = ()):
    """A DataFrame of ``rows`` whose columns keep one type whatever the rows hold: whole
    numbers with gaps as Int64 (not floats), yes/no with gaps as boolean, the columns of
    ``types`` as given even when every value is missing; ``columns`` are there even
    with no row."""
    import pandas as pd

    frame = pd.DataFrame(rows, columns=list(columns) or None)
    for column in frame.columns[frame.dtypes.map(lambda t: t.kind in "fO")]:
        values = [r[column] for r in rows if r.get(column) is not None]
        if values and all(isinstance(x, int) and not isinstance(x, bool) for x in values):
            frame[column] = frame[column].astype("Int64")
        elif values and all(isinstance(x, bool) for x in values):
            frame[column] = frame[column].astype("boolean")
    for column, dtype in types.items():
        if column in frame:
            frame[column] = frame[column].astype(dtype)
    return frame


# a problem's columns: all empty when every record is valid
PROBLEM_TYPES = {"field": "string", "seat": "Int64", "trick": "Int64", "message": "string"}
