"""Per-hand data as Parquet: one row per simulated hand, streamed chunk by chunk.

Only written when asked for (``--hand-data``); the tables never need it. The
file is written beside its final name and renamed when complete, so a reader
never sees half a file; Ctrl-C keeps the finished chunks.
"""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path

import numpy as np

from cinch_sim import layout as L
from cinch_sim.analysis.counts import (
    HOLDERS,
    PEDRO_LABELS,
    AnalysisError,
)
from cinch_sim.analysis.row_codes import pedro_code_rows, side_values_rows
from cinch_sim.cards import SUITS

FATE_NAMES = ("saved", "lost", "out_of_play")


def require_pyarrow():
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet as pq
    except ImportError:
        raise AnalysisError(
            "per-hand data needs pyarrow: pip install pyarrow "
            "(from a checkout: pip install '.[parquet]')"
        ) from None
    return pq


def hand_frame(rows: np.ndarray, rules, first: int = 0):
    """One row per hand: the deal's facts, the contract, the result, each Pedro's fate.

    ``first`` is the global index of the first row (the ``hand`` column).
    Thrown-in hands keep their row with ``thrown_in`` true and -1 elsewhere.
    """
    import pandas as pd

    P, hs = rules.players, rules.hand_size
    thrown = rows[:, L.H_THROWN_IN] != 0
    seat_teams = np.asarray(rules.seat_teams, np.int64)
    sv = side_values_rows(np.where(thrown[:, None], 0, rows), seat_teams)
    v = {"points": sv[:, 1], "def_points": sv[:, 2], "score": sv[:, 3], "def_score": sv[:, 4]}
    maker = rows[:, L.H_MAKER].astype(np.int64)
    dealer = rows[:, L.H_DEALER].astype(np.int64)
    seat = np.where(thrown, -1, (maker - dealer - 1) % P)

    def played(x, fill=-1):
        return np.where(thrown, fill, x)

    df = pd.DataFrame(
        {
            "hand": np.arange(first, first + len(rows), dtype=np.int64),
            "dealer": dealer.astype(np.int8),
            "thrown_in": thrown,
            "maker": maker.astype(np.int8),
            "seat": seat.astype(np.int8),
            "bid": rows[:, L.H_BID].astype(np.int16),
            # the suit's letter, as every table and record names it (none: thrown in)
            "trump": pd.Categorical.from_codes(played(rows[:, L.H_TRUMP]), list(SUITS)),
            # no contract (thrown in, or bid 0: the dealer named trump after all passed):
            # nothing to make, <NA>, as the tables' own make rate leaves it out
            "made": pd.arrays.BooleanArray(
                rows[:, L.H_MADE] == 1, thrown | (rows[:, L.H_BID] == 0)
            ),
            "trumps": played(rows[:, L.H_MAKER_TRUMPS_DEALT]).astype(np.int8),
            "pedros": pd.Categorical.from_codes(
                played(rows[:, L.H_MAKER_PEDROS_DEALT] & 3, 0), list(PEDRO_LABELS)
            ),
            "honours": played(rows[:, L.H_MAKER_HONOURS_DEALT] & 31).astype(np.int8),
            "partner_trumps": played(rows[:, L.H_PARTNER_TRUMPS_DEALT]).astype(np.int8),
            "partner_pedros": played(rows[:, L.H_PARTNER_PEDROS_DEALT] & 3).astype(np.int8),
            "trumps_after_draw": played(rows[:, L.H_MAKER_TRUMPS_KEPT]).astype(np.int8),
            "points": played(v["points"]).astype(np.int16),
            "defenders_points": played(v["def_points"]).astype(np.int16),
            "score_change": played(v["score"], 0).astype(np.int16),
            "defenders_score_change": played(v["def_score"], 0).astype(np.int16),
        }
    )
    if rules.split_card:  # the Sancho games: whether the maker was dealt it
        held = rows[:, L.H_MAKER_PEDROS_DEALT] >> 2 & 1
        df[f"{rules.split_card[0]}_dealt"] = played(held, 0) == 1
    for name, slot in rules.pedros:
        codes = pedro_code_rows(rows, slot, np.where(thrown, 0, maker), seat_teams, hs)
        role, fate, trick = codes[:, 0], codes[:, 1], codes[:, 2]
        role = np.where(thrown, 3, role)
        fate = np.where(thrown, 2, fate)
        df[f"{name}_holder_seat"] = rows[:, L.H_SLOT_HOLDER + slot].astype(np.int8)
        df[f"{name}_holder"] = pd.Categorical.from_codes(role, list(HOLDERS))
        df[f"{name}_fate"] = pd.Categorical.from_codes(fate, list(FATE_NAMES))
        df[f"{name}_trick"] = np.where(trick >= hs, -1, trick + 1).astype(np.int8)
    return df


# the key of the Parquet file's metadata that holds the run's settings, as JSON
SETTINGS_KEY = b"cinch_sim.settings"


class HandDataWriter:
    """Stream hand rows to a Parquet file through ``outputs.Output`` (a temporary
    name renamed into place on close); the path is opened, so checked, at once. The
    run's ``settings`` (seed, rules, policies, version) go into the file's metadata
    under ``SETTINGS_KEY``: the file says what made it wherever it is copied."""

    def __init__(self, path: str | Path, rules, settings: dict | None = None) -> None:
        from cinch_sim.outputs import Output

        self.pq = require_pyarrow()
        self.path = Path(path)
        self.rules = rules
        self.settings = settings or {}
        self.done = 0
        self.out = Output(path)
        self.writer = None

    def _table(self, rows: np.ndarray):
        """One chunk's rows as an Arrow table carrying the settings in its schema."""
        import json

        import pyarrow as pa

        table = pa.Table.from_pandas(hand_frame(rows, self.rules, self.done), preserve_index=False)
        meta = dict(table.schema.metadata or {})
        meta[SETTINGS_KEY] = json.dumps(self.settings, default=str).encode("utf-8")
        return table.replace_schema_metadata(meta)

    def write_chunk(self, rows: np.ndarray, trace: object = None) -> None:
        """Append one chunk's result rows (``trace`` is not needed: a row per hand)."""
        table = self._table(rows)
        if self.writer is None:
            self.writer = self.pq.ParquetWriter(self.out.file, table.schema)
        self.writer.write_table(table)
        self.done += len(rows)

    def close(self) -> None:
        """Finish the file and move it into place (an empty run writes an empty table)."""
        try:
            if self.writer is None:
                table = self._table(np.zeros((0, L.H_LEN), np.int32))
                self.pq.write_table(table, self.out.file)
            else:
                self.writer.close()
        except BaseException:
            self.out.discard()
            raise
        self.out.commit()

    def abort(self) -> None:
        try:
            if self.writer is not None:
                with suppress(Exception):  # a full disk: the footer cannot be written
                    self.writer.close()
        finally:
            self.out.discard()
