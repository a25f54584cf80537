"""How a result shows itself: named pandas tables, a short repr, an HTML view.

Every result the API returns (a simulation, an analysis, advice, a match, a
ladder, a report, a referee's verdicts) mixes in ``Tables``, so in a notebook
each one prints as a line or two of headline numbers and shows as a small
HTML table, and ``.table(name)`` gives its tables as DataFrames, the first
name when none is given. pandas is imported by the results, not here.
"""

from __future__ import annotations

import html
import math
import numbers
from typing import Any

HTML_ROWS = 30  # rows of the main table a notebook shows (the DataFrame holds all)
# a run stops early at Ctrl-C, or when its Dask scheduler is lost (stderr says which)
INTERRUPTED = (
    "Interrupted (Ctrl-C or a lost cluster): the numbers below are of the work finished before it"
)


class Tables:
    """A result with named tables. A class says ``table_names()`` (the main table
    first), how to build one (``_table``) and its headline (``headline``)."""

    def table_names(self) -> tuple[str, ...]:
        raise NotImplementedError

    def _table(self, name: str) -> Any:
        raise NotImplementedError

    def headline(self) -> str:
        """One line: what this is, how many, the headline numbers."""
        raise NotImplementedError

    def notes(self) -> list[str]:
        """Lines the repr adds under the headline (a result played with double-dummy
        play says so, as the command line does)."""
        return []

    def table(self, name: str | None = None) -> Any:
        """The table called ``name`` as a pandas DataFrame (the main one by default)."""
        names = self.table_names()
        if name is None:
            name = names[0]
        if name not in names:
            raise ValueError(f"table: no table {name!r} (tables: {', '.join(names)})")
        return self._table(name)

    def __repr__(self) -> str:
        names = self.table_names()
        # a run Ctrl-C cut short says so first: a notebook reader takes it as complete
        head = (INTERRUPTED + "\n" if getattr(self, "interrupted", False) else "") + self.headline()
        head += "".join(f"\n{note}" for note in self.notes())
        if len(names) < 2:
            return head
        if len(names) > 4:  # a line, not a list: .table_names() has them all
            shown = f"{', '.join(names[:3])}, ... ({len(names)} in all: .table_names())"
        else:
            shown = f"{', '.join(names)} (.table(name))"
        return f"{head}\ntables: {shown}"

    def _repr_html_(self) -> str:
        head = "<br>".join(html.escape(line) for line in repr(self).splitlines())
        return f"<p>{head}</p>\n" + self.table().to_html(index=False, max_rows=HTML_ROWS)


def no_nan(x: Any) -> Any:
    """A result made strict JSON (``json.dumps(..., allow_nan=False)`` takes it): every
    NaN or infinity (an undefined rate, an interval with too few games) as None, in
    nested dicts, lists and tuples. Every result's ``to_dict`` goes through it, so
    ``--format json`` never prints a bare ``NaN``."""
    if isinstance(x, dict):
        return {k: no_nan(v) for k, v in x.items()}
    if isinstance(x, list):
        return [no_nan(v) for v in x]
    if isinstance(x, tuple):
        return tuple(no_nan(v) for v in x)
    if isinstance(x, numbers.Real) and not isinstance(x, numbers.Integral) and not math.isfinite(x):
        return None
    return x


def json_records(df: Any) -> list[dict[str, Any]]:
    """A table's rows for JSON: a missing value (NaN, pandas' NA: an unplayed
    strategy's rank) as None, never ``NaN``, which is not JSON."""
    return no_nan(df.astype(object).where(df.notna(), None).to_dict(orient="records"))
