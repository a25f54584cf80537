"""What ``stats`` returns: the hands' counts and settings, tables and charts on demand.

The hands are played by ``cinch_sim.runs.hands`` (``cinch_sim.api.stats``, the
report's bid study); counting is ``counts.HandCounts``, tables are built by
``tables.py`` and charts by ``plots.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cinch_sim import notation as N
from cinch_sim.analysis.counts import HandCounts
from cinch_sim.analysis.intervals import FEW_HANDS
from cinch_sim.views import Tables, no_nan


@dataclass(repr=False)
class Analysis(Tables):
    """What ``stats`` produced: the counts, the settings, tables and charts on demand
    (``.table(name)``: one of ``tables()``, ``make_rate_by_bid`` by default)."""

    settings: dict[str, Any]
    counts: HandCounts
    by: tuple[str, ...] = ("trumps",)
    min_hands: int = FEW_HANDS
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
        return (
            f"Analysis: {self.counts.hands:,} hands, {N.seeds(self.settings)}; "
            f"{self.counts.contracts_line()}"
        )

    def notes(self) -> list[str]:
        from cinch_sim.policies.registry import dd_note

        note = dd_note(self.settings.get("policies") or {})
        return [note] if note else []

    def summary(self) -> dict[str, Any]:
        c = self.counts
        return {
            "hands": c.hands,
            "hands_requested": self.settings.get("hands"),
            "played": c.played,
            "thrown_in": c.thrown_in,
            "contracts": c.contracts,
            "shortages": c.shortages,
            "made": c.contracts_made,
            **c.make_rate_fields(),
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
        return no_nan(d)  # a run without contracts has no make rate: None, not NaN
