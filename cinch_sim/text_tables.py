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


def starred_table(
    rows: list[list[str]], heads: list[str], align: str, few: list[bool], limit: str
) -> str:
    """A text table whose rows of few hands (``few``) are starred in a column of their
    own, with a line saying what the star means (``limit``: the threshold's words);
    no column and no line where no row is starred. ``stats`` and ``simulate`` both."""
    if not any(few):
        return text_table(rows, heads, align)
    rows = [[*r, "*" if f else ""] for r, f in zip(rows, few, strict=True)]
    text = text_table(rows, [*heads, "*"], align + "l")
    return f"{text}\n* {sum(few)} row(s) with fewer than {limit} hands: read with care"
