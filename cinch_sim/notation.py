"""How numbers read wherever people read them: one notation for rates, means and intervals.

Every table, report, chart title and advice line prints through these, so a
rate is always ``77.7%``, an interval always ``[76.9, 78.5]`` after its
value (in the value's units: percentage points after a rate), and a missing
value always a dash. Machine outputs (CSV, JSON) keep fractions; CSV floats
are rounded to ``CSV_DECIMALS`` so a file never holds ``0.9999999999999999``.
"""

from __future__ import annotations

import math
from typing import Any

DASH = "–"  # a value that does not exist (no hands, no interval)
CSV_DECIMALS = 6


def _missing(*xs: Any) -> bool:
    return any(x is None or (isinstance(x, float) and math.isnan(x)) for x in xs)


def rate(p: float, digits: int = 1) -> str:
    """A share as a percentage: ``0.7774 -> '77.7%'``."""
    return DASH if _missing(p) else f"{100 * float(p):.{digits}f}%"


def rate_interval(lo: float, hi: float, digits: int = 1) -> str:
    """A rate's interval in percentage points: ``(0.769, 0.785) -> '[76.9, 78.5]'``."""
    if _missing(lo, hi):
        return DASH
    return f"[{100 * float(lo):.{digits}f}, {100 * float(hi):.{digits}f}]"


def rate_with_interval(p: float, lo: float, hi: float, digits: int = 1) -> str:
    """``'77.7% [76.9, 78.5]'``; the interval left out where there is none."""
    if _missing(lo, hi):
        return rate(p, digits)
    return f"{rate(p, digits)} {rate_interval(lo, hi, digits)}"


def number(x: float, digits: int = 2, signed: bool = False) -> str:
    """A mean or a difference: ``8.49``, or ``+0.26`` when ``signed``."""
    if _missing(x):
        return DASH
    return f"{float(x):{'+' if signed else ''}.{digits}f}"


def interval(lo: float, hi: float, digits: int = 2, signed: bool = False) -> str:
    """A mean's interval: ``'[8.30, 8.69]'``."""
    if _missing(lo, hi):
        return DASH
    return f"[{number(lo, digits, signed)}, {number(hi, digits, signed)}]"


def number_with_interval(
    x: float, lo: float, hi: float, digits: int = 2, signed: bool = False
) -> str:
    """``'8.49 [8.30, 8.69]'``; the interval left out where there is none."""
    if _missing(lo, hi):
        return number(x, digits, signed)
    return f"{number(x, digits, signed)} {interval(lo, hi, digits, signed)}"


def count(n: int) -> str:
    """A count with thousands separators: ``1,829``."""
    return f"{int(n):,}"


def label(name: str) -> str:
    """A field or point name as people write it: ``right_pedro -> 'Right Pedro'``."""
    return name.replace("_", " ").title()


def heading(column: str) -> str:
    """A table column's name as a header: ``make_rate -> 'make rate'``."""
    return column.replace("_", " ")


def csv_ready(frame: Any) -> Any:
    """A DataFrame with its float columns rounded for CSV (a copy; ints untouched)."""
    floats = frame.select_dtypes(include="float").columns
    if len(floats) == 0:
        return frame
    out = frame.copy()
    out[floats] = out[floats].round(CSV_DECIMALS)
    return out


def csv_text(frame: Any) -> str:
    """A DataFrame as CSV text: no index, floats rounded (``csv_ready``)."""
    return csv_ready(frame).to_csv(index=False)
