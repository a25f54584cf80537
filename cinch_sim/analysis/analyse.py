"""The ``analyse`` API: play hands, count them, and hold tables and charts on demand.

(``cinch_sim.api.stats`` plays the same hands through ``cinch_sim.runs``, in
chunks that can be saved, resumed and merged; the report calls ``analyse``.)

Counting is ``counts.HandCounts``; tables are built by ``tables.py`` and charts
by ``plots.py``; ``analyse`` runs the simulation and returns an ``Analysis``
holding the counts and the settings that made them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cinch_sim import notation as N
from cinch_sim.analysis.counts import AnalysisError, HandCounts, check_features
from cinch_sim.views import Tables


@dataclass(repr=False)
class Analysis(Tables):
    """What ``analyse`` produced: the counts, the settings, tables and charts on demand
    (``.table(name)``: one of ``tables()``, ``make_rate_by_bid`` by default)."""

    settings: dict[str, Any]
    counts: HandCounts
    by: tuple[str, ...] = ("trumps",)
    min_hands: int = 30
    seconds: float = 0.0
    interrupted: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def hands(self) -> int:
        return self.counts.hands

    def table_names(self) -> tuple[str, ...]:
        from cinch_sim.analysis.tables import table_names

        return tuple(table_names(self.by))

    def _table(self, name: str):
        from cinch_sim.analysis.tables import one_table

        return one_table(self.counts, name, self.by, self.min_hands)

    def headline(self) -> str:
        s = self.summary()
        return (
            f"Analysis: {s['hands']:,} hands, {N.seeds(self.settings)}; made "
            f"{N.rate(s['make_rate'])} of {s['played']:,} contracts; {s['thrown_in']:,} thrown in"
        )

    def summary(self) -> dict[str, Any]:
        c = self.counts
        made = int(c.made.sum())
        return {
            "hands": c.hands,
            "hands_requested": self.settings.get("hands"),
            "played": c.played,
            "thrown_in": c.thrown_in,
            "shortages": c.shortages,
            "made": made,
            "make_rate": made / c.played if c.played else float("nan"),
            "interrupted": self.interrupted,
            "seconds": round(self.seconds, 3),
        }

    def make_rate(self, by: Sequence[str] | str = ("bid",)):
        """Make rate (95% Wilson interval) for each combination of the features ``by``."""
        from cinch_sim.analysis.tables import make_rate

        return make_rate(self.counts, by, self.min_hands)

    def tables(self) -> dict[str, Any]:
        """Every table, by name (the names of the CSV files under ``--out``)."""
        from cinch_sim.analysis.tables import all_tables

        return all_tables(self.counts, self.by, self.min_hands)

    def figures(self) -> dict[str, Any]:
        """Every chart as a matplotlib Figure, by file stem."""
        from cinch_sim.analysis.plots import all_figures

        return all_figures(self)

    def caption(self) -> str:
        from cinch_sim.analysis.plots import caption

        return caption(self)

    def to_dict(self) -> dict[str, Any]:
        """Settings, summary and every table as JSON-ready records (NaN -> None)."""
        import json

        d = dict(self.settings)
        d["by"] = list(self.by)
        d["min_hands"] = self.min_hands
        d["summary"] = self.summary()
        d["tables"] = {
            name: json.loads(df.to_json(orient="records")) for name, df in self.tables().items()
        }
        return d


def analyse(
    hands: int = 100_000,
    seed: int = 0,
    rules=None,
    bid: str | Sequence[str] = "heuristic",
    trump: str | Sequence[str] = "heuristic",
    discard: str | Sequence[str] = "heuristic",
    play: str | Sequence[str] = "heuristic",
    dealer: int = 3,
    by: Sequence[str] | str = ("trumps",),
    min_hands: int = 30,
    threads: int | None = None,
    chunk: int = 65536,
    hand_data: str | Path | None = None,
    progress: Callable[[int], None] | None = None,
    on_chunk: Callable[[Any, Any], None] | None = None,
) -> Analysis:
    """Play ``hands`` hands and count bid success and Pedro capture by hand features.

    ``by`` names the features (``FEATURES``) of the "make rate for each bid
    given a hand" table and of the chart's lines. ``min_hands``: rows with
    fewer hands are flagged ``low_n``. ``hand_data``: a Parquet file to stream
    one row per hand to (needs pyarrow). The same seed gives the same numbers
    whatever ``threads`` and ``chunk`` are; Ctrl-C between chunks stops the
    run and keeps what was finished (``interrupted``).
    """
    from cinch_sim.engine.run import iter_chunks, prepare_run

    by = check_features(by)
    if min_hands < 1:
        raise AnalysisError(f"min_hands must be at least 1, got {min_hands}")
    r, policies, settings = prepare_run(hands, seed, rules, dealer, bid, trump, discard, play)
    writer = None
    if hand_data is not None:
        from cinch_sim.analysis.hand_rows import HandDataWriter

        writer = HandDataWriter(hand_data, r)
    counts = HandCounts(r)
    start = time.perf_counter()
    interrupted = False
    try:
        for rows, tr in iter_chunks(
            r, policies, hands, seed, dealer, chunk, threads, progress=progress
        ):
            counts.add(rows)
            if writer is not None:
                writer.write(rows)
            if on_chunk is not None:
                on_chunk(rows, tr)
    except KeyboardInterrupt:
        interrupted = True
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    if writer is not None:
        writer.close()
    extra = {"hand_data": str(hand_data)} if hand_data is not None else {}
    return Analysis(
        settings, counts, by, min_hands, time.perf_counter() - start, interrupted, extra
    )
