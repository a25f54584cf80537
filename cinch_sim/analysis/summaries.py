"""The numbers of the tables without pandas: each table's columns as numpy arrays.

``analysis.tables`` turns them into the DataFrames the API and the report show;
the command line prints ``simulate``'s tables from them directly, so that its
start does not pay for importing pandas (0.14 s, issue 34). Intervals as the
tables give them: Wilson for rates, ``intervals.mean_interval`` for means.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cinch_sim.analysis.counts import SIDES, HandCounts, check_features
from cinch_sim.analysis.intervals import FEW_HANDS, mean_interval, wilson
from cinch_sim.analysis.words import side_columns

RATE_COLUMNS = (
    "hands", "made", "make_rate", "make_rate_lo", "make_rate_hi", "mean_points", "points_lo",
    "points_hi", "mean_score_change", "score_change_lo", "score_change_hi", "low_n",
)  # fmt: skip


def value_ranges(counts: HandCounts) -> dict[str, tuple[float, float]]:
    """The least and most each running sum's value can be in one hand (the range a
    mean's interval is clipped to): points 0 to every point of the deal; a set
    contract costs at most ``bid_max``; under ``difference`` scoring each other
    side may also gain the bid. A hand everybody passed (bid 0) cannot be set: its
    score change starts at 0 (``group_mean`` sees to it, row by row)."""
    rules = counts.rules
    total, top = float(counts.total_points), float(rules.bid_max)
    gain = (counts.teams - 1) * top if rules.scoring == "difference" else 0.0
    return {
        "points": (0.0, total),
        "def_points": (0.0, total),
        "score": (-top if rules.scoring == "setback" else 0.0, total),
        "def_score": (0.0, total + gain),
    }


def group_mean(g, key: str, n: np.ndarray, counts: HandCounts):
    """``mean_interval`` of one running sum over the groups of ``g`` (``grouped``'s sums,
    or a DataFrame of them). By bid, a maker's score change is at least minus his own
    bid (a set costs the bid, not the top bid), and 0 for bid 0 (all passed: no
    contract to be set); under ``difference`` scoring the defenders gain at most the
    points of the deal plus that bid, each other side."""
    low, high = value_ranges(counts)[key]
    if "bid" in g:
        bid = np.asarray(g["bid"], dtype=float)
        if key == "score":
            low = np.maximum(low, -bid)
        elif key == "def_score" and counts.rules.scoring == "difference":
            high = float(counts.total_points) + (counts.teams - 1) * bid
    return mean_interval(np.asarray(g[key]), np.asarray(g[key + "_sq"]), n, low, high)


def grouped(
    counts: HandCounts, by: Sequence[str], contracts_only: bool = False
) -> dict[str, np.ndarray]:
    """The counts summed over the cells that share the values of the features ``by``,
    the groups in ascending order of them (the first feature first): each feature's
    sort codes, ``hands``, ``made`` and every running sum. ``contracts_only`` leaves
    out the hands everybody passed (bid 0)."""
    by = tuple(by)
    codes, values = counts.cell_codes(("bid", *by) if contracts_only else by)
    if contracts_only:
        keep = codes["bid"] > 0
        codes = {f: c[keep] for f, c in codes.items()}
        values = {k: v[keep] for k, v in values.items()}
    keys = np.stack([np.asarray(codes[f], dtype=np.int64) for f in by])
    first, where = np.unique(keys, axis=1, return_inverse=True)
    where = where.reshape(-1)
    out: dict[str, np.ndarray] = {f: first[i] for i, f in enumerate(by)}
    for name, v in values.items():
        total = np.zeros(first.shape[1], dtype=v.dtype)
        np.add.at(total, where, v)
        out[name] = total
    return out


def rate_columns(
    counts: HandCounts, by: Sequence[str] | str = ("bid",), min_hands: int = FEW_HANDS
) -> dict[str, np.ndarray]:
    """Make rate for each combination of the features ``by``: their sort codes and
    ``RATE_COLUMNS`` (``tables.make_rate`` says what each holds). A hand everybody
    passed (bid 0) has no contract to make: it is left out, but for the table by bid
    alone, which keeps its row (hands and points) with ``made`` 0 and no make rate."""
    by = check_features(by)
    if not by:
        raise ValueError("make_rate needs at least one feature")
    g = grouped(counts, by, contracts_only=tuple(by) != ("bid",))
    n, k = g["hands"], g["made"]
    lo, hi = wilson(k, n)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = k / n
    out: dict[str, Any] = {f: g[f] for f in by}
    out.update(hands=n, made=k, make_rate=rate, make_rate_lo=lo, make_rate_hi=hi)
    if "bid" in by:  # bid 0's row keeps its hands and points, but made means nothing
        none = g["bid"] == 0
        out["made"] = np.where(none, 0, k)
        for c in ("make_rate", "make_rate_lo", "make_rate_hi"):
            out[c] = np.where(none, np.nan, out[c])
    pts, pts_lo, pts_hi = group_mean(g, "points", n, counts)
    sc, sc_lo, sc_hi = group_mean(g, "score", n, counts)
    out.update(mean_points=pts, points_lo=pts_lo, points_hi=pts_hi)
    out.update(mean_score_change=sc, score_change_lo=sc_lo, score_change_hi=sc_hi)
    out["low_n"] = n < min_hands
    return out


def pedro_side_rows(counts: HandCounts) -> list[dict[str, Any]]:
    """For each Pedro and each fate (the bidding side, the defenders, nobody; in
    cut-throat the maker, the other players, nobody): the Pedro's hands, how many
    had that fate, its rate and 95% Wilson interval."""
    rows = []
    fates = (*side_columns(counts), SIDES[2])
    for i, (name, _) in enumerate(counts.key_cards):
        n = int(counts.pedro_side[i].sum())
        for j, side in enumerate(fates):
            k = int(counts.pedro_side[i, j])
            lo, hi = wilson(k, n)
            rows.append(
                {
                    "pedro": name,
                    "fate": side,
                    "hands": n,
                    "count": k,
                    "rate": k / n if n else float("nan"),
                    "rate_lo": float(lo),
                    "rate_hi": float(hi),
                }
            )
    return rows
