"""How numbers read wherever people read them: one notation for rates, means and intervals.

Every table, report, chart title and advice line prints through these, so a
rate is always ``77.7%``, an interval always ``[76.9, 78.5]`` after its
value (in the value's units: percentage points after a rate), and a missing
value always a dash. A shown interval is rounded outwards (its lower end down, its
upper end up), so it never claims more than the numbers behind it, and no number
is ever shown as a negative zero. Machine outputs (CSV, JSON) keep fractions; CSV floats
are rounded to ``CSV_DECIMALS`` so a file never holds ``0.9999999999999999``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

DASH = "–"  # a value that does not exist (no hands, no interval)
CSV_DECIMALS = 6


def _missing(*xs: Any) -> bool:
    return any(x is None or (isinstance(x, float) and math.isnan(x)) for x in xs)


def _fixed(x: float, digits: int, signed: bool = False) -> str:
    """``x`` with ``digits`` decimals; a value that shows as zero is ``0.00``, never
    ``-0.00`` (nor ``+0.00``)."""
    text = f"{float(x):{'+' if signed else ''}.{digits}f}"
    if text.lstrip("+-").strip("0.") == "":
        return text.lstrip("+-")
    return text


def _outward(lo: float, hi: float, digits: int) -> tuple[float, float]:
    """An interval's ends rounded outwards to ``digits`` decimals: the lower end down,
    the upper end up (a binary float a hair off its decimal, ``0.7 * 100``, is taken
    at its decimal first, so a bound of exactly 70% stays ``70.0``)."""
    scale = 10.0**digits
    down = math.floor(round(float(lo) * scale, 6)) / scale
    up = math.ceil(round(float(hi) * scale, 6)) / scale
    return down, up


def shown_above(lo: float, hi: float, digits: int = 2) -> bool:
    """Whether a lower end, rounded down as shown, is above another interval's upper end,
    rounded up: a sentence that calls one value larger then never contradicts the two
    intervals printed beside it (outward rounding can make them touch).

    >>> shown_above(0.019975, 0.014436), shown_above(0.03, 0.014436)
    (False, True)
    """
    down, _ = _outward(lo, lo, digits)
    _, up = _outward(hi, hi, digits)
    return down > up


def rate(p: float, digits: int = 1) -> str:
    """A share as a percentage: ``0.7774 -> '77.7%'``."""
    return DASH if _missing(p) else f"{_fixed(100 * float(p), digits)}%"


def rate_whole(p: float) -> str:
    """A share as a whole percentage that never rounds a rare event away: ``'0%'`` only
    for none, ``'<1%'`` for some below half a point, ``'>99%'`` just short of all.

    >>> rate_whole(0.0), rate_whole(0.0012), rate_whole(0.22), rate_whole(0.9996), rate_whole(1)
    ('0%', '<1%', '22%', '>99%', '100%')
    """
    if _missing(p):
        return DASH
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 <= p < 1:
        return ">99%"
    return rate(p, 0)


def rate_floor(p: float, digits: int = 1) -> str:
    """A lower bound as a percentage, rounded down (an interval's lower end shown
    alone): ``0.69978 -> '69.9%'``."""
    if _missing(p):
        return DASH
    return f"{_fixed(_outward(100 * float(p), 0.0, digits)[0], digits)}%"


def rate_interval(lo: float, hi: float, digits: int = 1) -> str:
    """A rate's interval in percentage points, rounded outwards:
    ``(0.769, 0.7851) -> '[76.9, 78.6]'``."""
    if _missing(lo, hi):
        return DASH
    down, up = _outward(100 * float(lo), 100 * float(hi), digits)
    return f"[{_fixed(down, digits)}, {_fixed(up, digits)}]"


def rate_with_interval(p: float, lo: float, hi: float, digits: int = 1) -> str:
    """``'77.7% [76.9, 78.5]'``; the interval left out where there is none."""
    if _missing(lo, hi):
        return rate(p, digits)
    return f"{rate(p, digits)} {rate_interval(lo, hi, digits)}"


def number(x: float, digits: int = 2, signed: bool = False) -> str:
    """A mean or a difference: ``8.49``, or ``+0.26`` when ``signed``."""
    if _missing(x):
        return DASH
    return _fixed(x, digits, signed)


def interval(lo: float, hi: float, digits: int = 2, signed: bool = False) -> str:
    """A mean's interval, rounded outwards: ``'[8.30, 8.69]'``."""
    if _missing(lo, hi):
        return DASH
    down, up = _outward(lo, hi, digits)
    return f"[{_fixed(down, digits, signed)}, {_fixed(up, digits, signed)}]"


def sign_digits(lo: float, hi: float, digits: int, around: float = 0.0) -> int:
    """The decimals an interval that leaves out ``around`` needs for its outward
    rounding to leave it out too (at most three more): ``[-0.22, -0.04]`` at one
    decimal would be ``[-0.3, 0.0]``, read as "might break even"; it is shown
    ``[-0.22, -0.04]``. (A decided win rate: 50.06% is not "50.0".)

    >>> sign_digits(-0.22, -0.04, 1), sign_digits(-0.3, 0.1, 1), sign_digits(50.06, 60, 1, 50)
    (2, 1, 2)
    """
    if _missing(lo, hi) or not (lo > around or hi < around):
        return digits
    for more in range(digits, digits + 4):
        down, up = _outward(lo, hi, more)
        if down > around or up < around:
            return more
    return digits + 3


def number_with_interval(
    x: float, lo: float, hi: float, digits: int = 2, signed: bool = False
) -> str:
    """``'8.49 [8.30, 8.69]'``; the interval left out where there is none; an interval
    that leaves out zero keeps doing so (``sign_digits``), the number with it."""
    if _missing(lo, hi):
        return number(x, digits, signed)
    digits = sign_digits(lo, hi, digits)
    return f"{number(x, digits, signed)} {interval(lo, hi, digits, signed)}"


def counted(n: int, noun: str) -> str:
    """``1 game``, ``2,000 games``: a count and its noun, plural but for one.

    >>> counted(1, "duplicate pair"), counted(1000, "game")
    ('1 duplicate pair', '1,000 games')
    """
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def joined(items: Iterable[str]) -> str:
    """Words as a sentence lists them.

    >>> joined(["a"]), joined(["a", "b"]), joined(["a", "b", "c"])
    ('a', 'a and b', 'a, b and c')
    """
    items = list(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def count(n: int) -> str:
    """A count with thousands separators: ``1,829``."""
    return f"{int(n):,}"


def seeds(settings: dict[str, Any]) -> str:
    """The seed a result was run with, as its headline names it: ``seed 1``, or for
    runs merged from several seeds every one of them, ``seeds 1, 2``."""
    merged = {int(p["seed"]) for p in settings.get("merged") or () if "seed" in p}
    if len(merged) > 1:
        return "seeds " + ", ".join(str(x) for x in sorted(merged))
    return f"seed {settings.get('seed')}"


def seed_of(settings: dict[str, Any]) -> int | str:
    """The seed a result's first line names: its seed, or for runs merged the words
    (``seeds``: ``seeds 1, 2``), which leave out the time (``time_words``)."""
    return seeds(settings) if settings.get("merged") else settings.get("seed")


def seed_words(seed: int | str) -> str:
    """A run's seed for its first line, ``seed 1``; given as words (``seeds`` of runs
    merged: ``seeds 1, 2``), those."""
    return seed if isinstance(seed, str) else f"seed {seed}"


def time_words(seed: int | str, seconds: float, digits: int = 2) -> str:
    """``; 0.42 s`` after a run's first line; nothing for runs merged (their seed given
    as words), which keep no time of their own."""
    return "" if isinstance(seed, str) else f"; {seconds:.{digits}f} s"


def seed_time(seed: int | str, seconds: float, digits: int = 2) -> str:
    """``seed 1; 0.42 s``, or for runs merged ``seeds 1, 2`` alone."""
    return seed_words(seed) + time_words(seed, seconds, digits)


def rules_words(rules: dict[str, Any]) -> str:
    """The game a result was played under (its settings' ``rules``, ``Rules.describe()``):
    the preset, with the options that differ from it: ``pidro``, ``standard
    (robber=none)``."""
    changed = [f"{k}={v}" for k, v in rules.get("options", {}).items()]
    return rules.get("preset", "standard") + (f" ({', '.join(changed)})" if changed else "")


def policies_words(policies: dict[str, list[str]]) -> str:
    """The policies of a result's settings, by plug point, one name where every seat
    has it, else seat by seat: ``bid=heuristic, ..., play=pimc | heuristic | pimc |
    heuristic`` (not ``/``, which a policy file's path holds)."""
    parts = []
    for kind, specs in policies.items():
        parts.append(f"{kind}={specs[0] if len(set(specs)) == 1 else ' | '.join(specs)}")
    return ", ".join(parts)


def settings_words(settings: dict[str, Any]) -> str:
    """``rules: pidro; policies: bid=heuristic, ...``: what a result was played under,
    as its text outputs and charts say it."""
    return (
        f"rules: {rules_words(settings.get('rules', {}))}; "
        f"policies: {policies_words(settings.get('policies', {}))}"
    )


def capital(text: str) -> str:
    """``text`` with its first letter a capital (the rest left as written)."""
    return text[:1].upper() + text[1:]


def label(name: str) -> str:
    """A field or point name as people write it: ``right_pedro -> 'Right Pedro'``."""
    return name.replace("_", " ").title()


def heading(column: str) -> str:
    """A table column's name as a header: ``make_rate -> 'make rate'``."""
    return column.replace("_", " ")


def csv_ready(frame: Any) -> Any:
    """A DataFrame with its float columns rounded for CSV (a copy; ints untouched): to
    ``CSV_DECIMALS`` places, but a value those places would make 0 (a p-value of 2.5e-19)
    keeps ``CSV_DECIMALS`` significant digits instead."""
    import numpy as np

    floats = frame.select_dtypes(include="float").columns
    if len(floats) == 0:
        return frame
    out = frame.copy()
    for name in floats:
        x = out[name].to_numpy(dtype=float, na_value=np.nan)
        rounded = np.round(x, CSV_DECIMALS)
        tiny = (rounded == 0) & (x != 0) & np.isfinite(x)
        if tiny.any():
            rounded[tiny] = [float(f"{v:.{CSV_DECIMALS}g}") for v in x[tiny]]
        out[name] = rounded
    return out


def csv_text(frame: Any) -> str:
    """A DataFrame as CSV text: no index, floats rounded (``csv_ready``)."""
    return csv_ready(frame).to_csv(index=False)
