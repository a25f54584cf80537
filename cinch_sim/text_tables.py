"""Text tables for people: columns as wide as their longest cell, so names are never cut."""

from __future__ import annotations

from collections.abc import Sequence

_ALIGN = {"l": "left", "r": "right"}


def text_table(rows: Sequence[Sequence[str]], headers: Sequence[str], align: str) -> str:
    """``rows`` of cells already formatted (the numbers' notation is the caller's), one
    letter of ``align`` per column, ``l`` or ``r``; tabulate's simple layout."""
    from tabulate import tabulate

    return tabulate(
        [list(r) for r in rows],
        headers=list(headers),
        tablefmt="simple",
        colalign=[_ALIGN[a] for a in align],
        disable_numparse=True,
    )
