"""Tables from ``HandCounts``: pandas DataFrames with intervals, sample sizes and a low-n flag.

Every table has its sample size on each row (``hands``), 95% intervals
(Wilson for rates; for means Student's t fitted to the row's n and clipped to
the values possible, ``intervals.mean_interval``) and a ``low_n`` column
marking rows with fewer than ``min_hands`` hands: such rows are kept, not hidden. The ``hands``
of a table's rows add up to the played hands (per Pedro for Pedro tables), but for the
make-rate tables, which count contracts only: a hand everybody passed (bid 0) has no
contract, and only the table by bid alone keeps a row for it (its hands and points).

In cut-throat (``rules.partnerships`` false) every other player is an opponent of the
maker: what a partnership game gives the defenders (all the other seats together) is
the *other players'* in a split that adds up (who took a Pedro, points per hand), and
the *average opponent's*, the other players' total divided by their number, in a mean
(the score change by bid: ``opponent_share``), so that it reads as one player's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pandas as pd

from cinch_sim import notation as N
from cinch_sim.analysis.counts import FATES, HOLDERS, HandCounts, check_features
from cinch_sim.analysis.intervals import FEW_HANDS, wilson
from cinch_sim.analysis.summaries import (  # noqa: F401 (re-exported: the tables' numbers)
    RATE_COLUMNS,
    group_mean,
    grouped,
    pedro_side_rows,
    rate_columns,
    value_ranges,
)
from cinch_sim.analysis.words import (  # noqa: F401 (re-exported: the tables' words)
    after_the_draw,
    all_pedros,
    capture_each,
    capture_noun,
    capture_phrase,
    captured_names,
    copies_note,
    mean_columns,
    mean_labels,
    only_pedros_captured,
    opponent_share,
    pedro_capture_title,
    pedro_names,
    pedro_noun,
    pedros_phrase,
    side_columns,
    side_labels,
)
from cinch_sim.text_tables import starred_table

BID_FEATURES = ("bid", "trumps", "pedros", "seat")
PASSED_OUT = "0 (passed out)"  # how a bid-0 row's bid is shown, as ``simulate`` shows it


def make_rate(counts: HandCounts, by: Sequence[str] | str = ("bid",), min_hands: int = FEW_HANDS):
    """Make rate for each combination of the features ``by`` (FEATURES), with intervals
    (the numbers: ``summaries.rate_columns``).

    Columns: the features, ``hands``, ``made``, ``make_rate`` and its 95%
    Wilson interval, the bidding side's mean points and mean score change
    with 95% t intervals (``mean_interval``), ``low_n``.

    A hand everybody passed (bid 0) has no contract to make: it is left out, but
    for the table by bid alone, which keeps its row (hands and points; ``made``
    and the make rate empty), as ``simulate`` shows it.
    """
    by = check_features(by)
    cols = rate_columns(counts, by, min_hands)
    out = pd.DataFrame({f: counts.feature_labels(f, cols[f]) for f in by})
    for c in RATE_COLUMNS:
        out[c] = cols[c]
    if "bid" in by:  # bid 0's row: no contract, so no count of contracts made
        out["made"] = pd.array(cols["made"], dtype="Int64")
        out.loc[cols["bid"] == 0, "made"] = pd.NA
    return out


def bid_summary(counts: HandCounts) -> pd.DataFrame:
    """Per bid level: hands, made, make rate (95% Wilson interval), the bidding side's
    mean points and mean score change (95% interval): ``cinch-sim simulate``'s table."""
    t = make_rate(counts, "bid")
    return t[["bid", *(c for c in RATE_COLUMNS if c != "low_n")]]


def pedro_sides(counts: HandCounts) -> pd.DataFrame:
    """For each Pedro: how often the bidding side, the defenders or nobody took it (in
    cut-throat the fates are ``maker``, ``other_players`` and ``not_in_play``)."""
    return pd.DataFrame(pedro_side_rows(counts))


def score_by_bid(counts: HandCounts, min_hands: int = FEW_HANDS) -> pd.DataFrame:
    """Per bid level: both sides' mean points and mean score change, with 95% intervals
    (in cut-throat the maker's and the average opponent's: ``opponent_share``)."""
    g = grouped(counts, ("bid",))
    n = g["hands"]
    out = pd.DataFrame({"bid": g["bid"].astype(np.int64), "hands": n})
    other = mean_columns(counts)[1]
    share = opponent_share(counts)
    for col, key in (
        ("points", "points"),
        (f"{other}_points", "def_points"),
        ("score_change", "score"),
        (f"{other}_score_change", "def_score"),
    ):
        m, lo, hi = group_mean(g, key, n, counts)
        if key.startswith("def_") and share != 1:  # the average opponent's: a linear scale
            m, lo, hi = m / share, lo / share, hi / share
        out[f"mean_{col}"] = m
        out[f"{col}_lo"] = lo
        out[f"{col}_hi"] = hi
    out["low_n"] = n < min_hands
    return out


def points_distribution(counts: HandCounts, min_hands: int = FEW_HANDS, by_bid: bool = False):
    """How often the bidding side and the defenders (in cut-throat the maker and the
    other players together) took each number of points.

    One row per points value (per bid level too with ``by_bid``); ``hands``
    is the sample size of the distribution, the counts of each column sum to it.
    """
    h = counts.points_hist  # bid x side x points
    pts = np.arange(h.shape[2])
    frames = []
    groups = (
        [(b, h[b]) for b in range(h.shape[0]) if h[b, 0].sum()]
        if by_bid
        else [(None, h.sum(axis=0))]
    )
    for b, hist in groups:
        n = int(hist[0].sum())
        d = {} if b is None else {"bid": np.full(len(pts), b, np.int64)}
        d["points"] = pts
        d["hands"] = np.full(len(pts), n, np.int64)
        for side, name in enumerate(side_columns(counts)):
            k = hist[side].astype(np.int64)
            lo, hi = wilson(k, np.full(len(k), n))
            d[name] = k
            d[f"{name}_share"] = k / n if n else np.full(len(k), np.nan)
            d[f"{name}_lo"] = lo
            d[f"{name}_hi"] = hi
        d["low_n"] = np.full(len(pts), n < min_hands)
        frames.append(pd.DataFrame(d))
    out = (
        pd.concat(frames, ignore_index=True)
        if frames
        else pd.DataFrame(columns=["points", "hands", *side_columns(counts), "low_n"])
    )
    out.attrs["headings"] = {"hands": "out of"}  # the shares' denominator, every row alike
    return out


def _holders(counts: HandCounts) -> list[int]:
    return [i for i, h in enumerate(HOLDERS) if counts.partnerships or h != "partner"]


def pedro_capture(counts: HandCounts, min_hands: int = FEW_HANDS) -> pd.DataFrame:
    """Each Pedro's fate by who held it after the draw (maker, partner, defender, none).

    ``rate`` is the share of the holder's hands with that fate (saved by the
    holder's side, lost to the other side), ``share`` the share of all
    played hands. Per Pedro, ``hands`` sums to the played hands.
    """
    rows = []
    total = counts.played
    for i, (name, _) in enumerate(counts.key_cards):
        a = counts.pedro[i].sum(axis=2)  # holder x fate
        for r in _holders(counts):
            holder_n = int(a[r].sum())
            fates = (2,) if HOLDERS[r] == "none" else (0, 1)
            for f in fates:
                k = int(a[r, f])
                rows.append(
                    {
                        "pedro": name,
                        "holder": HOLDERS[r],
                        "fate": FATES[f],
                        "hands": k,
                        "holder_hands": holder_n,
                    }
                )
    df = pd.DataFrame(rows, columns=["pedro", "holder", "fate", "hands", "holder_hands"]).astype(
        {"hands": np.int64, "holder_hands": np.int64}
    )
    k, hn = df["hands"].to_numpy(), df["holder_hands"].to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        df["rate"] = k / hn
        df["share"] = k / total if total else np.nan
    df["rate_lo"], df["rate_hi"] = wilson(k, hn)
    df["share_lo"], df["share_hi"] = wilson(k, np.full(len(k), total))
    df["low_n"] = hn < min_hands
    return df[
        [
            "pedro",
            "holder",
            "fate",
            "hands",
            "holder_hands",
            "rate",
            "rate_lo",
            "rate_hi",
            "share",
            "share_lo",
            "share_hi",
            "low_n",
        ]
    ]


def pedro_by_trick(counts: HandCounts, min_hands: int = FEW_HANDS) -> pd.DataFrame:
    """Per Pedro, holder and trick it fell in (1 = first): saved and lost counts.

    Pedros out of play form one row per Pedro with holder ``none`` and no
    trick. ``saved_rate`` and ``share`` (of the hands played) have their 95% Wilson
    intervals; per Pedro, ``hands`` sums to the played hands.
    """
    rows = []
    hs = counts.hand_size
    for i, (name, _) in enumerate(counts.key_cards):
        a = counts.pedro[i]  # holder x fate x trick
        for r in _holders(counts):
            if HOLDERS[r] == "none":
                n = int(a[r].sum())
                rows.append((name, "none", pd.NA, n, 0, 0, n))
                continue
            for t in range(hs):
                saved, lost = int(a[r, 0, t]), int(a[r, 1, t])
                if saved + lost:
                    rows.append((name, HOLDERS[r], t + 1, saved + lost, saved, lost, 0))
    cols = ["pedro", "holder", "trick", "hands", "saved", "lost", "out_of_play"]
    df = pd.DataFrame(rows, columns=cols)
    df = df.astype({"trick": "Int64", **{c: np.int64 for c in cols[3:]}})
    n = df["hands"].to_numpy()
    s = df["saved"].to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        df["saved_rate"] = np.where(df["holder"] == "none", np.nan, s / np.maximum(n, 1))
    lo, hi = wilson(s, np.where(df["holder"] == "none", 0, n))
    df["saved_lo"], df["saved_hi"] = lo, hi
    total = counts.played
    df["share"] = n / total if total else np.nan
    share_lo, share_hi = wilson(n, np.full(n.shape, total))  # of the hands played
    df["share_lo"], df["share_hi"] = share_lo, share_hi
    df["low_n"] = n < min_hands
    return df


def table_names(by: Sequence[str]) -> list[str]:
    return list(all_tables_spec(tuple(by)))


def all_tables_spec(by: tuple[str, ...]) -> dict[str, tuple]:
    spec: dict[str, tuple] = {f"make_rate_by_{f}": ("make_rate", (f,)) for f in BID_FEATURES}
    spec["make_rate_by_hand_and_bid"] = ("make_rate", (*[f for f in by if f != "bid"], "bid"))
    spec["make_rate_by_trumps_and_bid"] = ("make_rate", ("trumps", "bid"))
    spec["pedro_capture"] = ("pedro_capture", ())
    spec["pedro_by_trick"] = ("pedro_by_trick", ())
    spec["points"] = ("points", ())
    spec["score_by_bid"] = ("score_by_bid", ())
    return spec


def all_tables(counts: HandCounts, by: Sequence[str] = ("trumps",), min_hands: int = FEW_HANDS):
    """Every table of ``cinch-sim stats`` by name (the CSV file stems under ``--out``)."""
    by = check_features(by)
    return {name: one_table(counts, name, by, min_hands) for name in all_tables_spec(by)}


def one_table(
    counts: HandCounts, name: str, by: Sequence[str] = ("trumps",), min_hands: int = FEW_HANDS
):
    """The table ``name`` of ``all_tables`` alone."""
    kind, feats = all_tables_spec(check_features(by))[name]
    if kind == "make_rate":
        return make_rate(counts, feats, min_hands)
    if kind == "pedro_capture":
        return pedro_capture(counts, min_hands)
    if kind == "pedro_by_trick":
        return pedro_by_trick(counts, min_hands)
    if kind == "points":
        return points_distribution(counts, min_hands)
    return score_by_bid(counts, min_hands)


# ------------------------------------------------------------------ comparing runs
def chi2_sf(x: float, df: int) -> float:
    """Upper tail of the chi-square distribution."""
    if df <= 0:
        return 1.0
    from scipy.special import gammaincc

    return float(gammaincc(df / 2, x / 2))


def homogeneity(
    a: pd.DataFrame,
    b: pd.DataFrame,
    keys: Sequence[str],
    counts: Sequence[str],
    min_expected: float = 5.0,
) -> dict:
    """Chi-square test that two runs' tables come from the same distribution.

    Each (row, count column) is one cell of a 2 x C contingency table: e.g.
    ``counts=("made", "set")`` tests bid levels' frequencies and make rates at
    once. Cells whose expected count is below ``min_expected`` in either run
    are pooled into one, so the chi-square approximation holds. Returns
    ``statistic``, ``df``, ``p_value`` and the number of ``cells`` used.
    """
    keys = list(keys)
    m = a[keys + list(counts)].merge(
        b[keys + list(counts)], on=keys, how="outer", suffixes=("_a", "_b")
    )
    oa = np.concatenate([m[f"{c}_a"].fillna(0).to_numpy(float) for c in counts])
    ob = np.concatenate([m[f"{c}_b"].fillna(0).to_numpy(float) for c in counts])
    keep = (oa + ob) > 0
    oa, ob = oa[keep], ob[keep]
    na, nb = oa.sum(), ob.sum()
    if na == 0 or nb == 0:
        return {"statistic": 0.0, "df": 0, "p_value": 1.0, "cells": 0}
    col = oa + ob
    ea, eb = col * na / (na + nb), col * nb / (na + nb)
    small = (ea < min_expected) | (eb < min_expected)
    if small.any():
        oa = np.append(oa[~small], oa[small].sum())
        ob = np.append(ob[~small], ob[small].sum())
        col = oa + ob
        ea, eb = col * na / (na + nb), col * nb / (na + nb)
    stat = float(np.sum((oa - ea) ** 2 / ea) + np.sum((ob - eb) ** 2 / eb))
    df = len(oa) - 1
    return {"statistic": stat, "df": df, "p_value": chi2_sf(stat, df), "cells": len(oa)}


def compare_counts(
    a: HandCounts, b: HandCounts, by: Sequence[str] = ("trumps",), alpha: float = 1e-3
) -> dict:
    """One global test that two runs agree on every table (Bonferroni over the tables).

    Each table is tested with ``homogeneity`` at ``alpha / k`` (k tables), so
    two runs of the same setup disagree by chance with probability at most
    ``alpha``. Returns ``agree``, ``alpha`` and each table's test.
    """
    ta, tb = all_tables(a, by), all_tables(b, by)
    tests = {}
    for name in ta:
        x, y = ta[name].copy(), tb[name].copy()
        if name.startswith("make_rate"):
            for t in (x, y):
                t["set"] = t["hands"] - t["made"]
            keys = [c for c in x.columns if c not in _VALUE_COLUMNS]
            tests[name] = homogeneity(x, y, keys, ("made", "set"))
        elif name == "pedro_capture":
            for pedro in x["pedro"].unique():
                tests[f"{name}:{pedro}"] = homogeneity(
                    x[x["pedro"] == pedro], y[y["pedro"] == pedro], ["holder", "fate"], ["hands"]
                )
        elif name == "pedro_by_trick":
            for pedro in x["pedro"].unique():
                xs, ys = x[x["pedro"] == pedro], y[y["pedro"] == pedro]
                for t in (xs, ys):
                    t.loc[:, "trick"] = t["trick"].fillna(0)
                tests[f"{name}:{pedro}"] = homogeneity(
                    xs, ys, ["holder", "trick"], ["saved", "lost", "out_of_play"]
                )
        elif name == "points":
            for side in side_columns(a):
                tests[f"{name}:{side}"] = homogeneity(x, y, ["points"], [side])
    level = alpha / max(len(tests), 1)
    return {
        "agree": all(t["p_value"] >= level for t in tests.values()),
        "alpha": alpha,
        "level": level,
        "tests": tests,
    }


_VALUE_COLUMNS = {
    "hands",
    "made",
    "set",
    "make_rate",
    "make_rate_lo",
    "make_rate_hi",
    "mean_points",
    "points_lo",
    "points_hi",
    "mean_score_change",
    "score_change_lo",
    "score_change_hi",
    "low_n",
}


# ------------------------------------------------------------------ text rendering
SHARES = {"rate", "share"}  # columns that are shares of 1 besides *_rate and *_share
_NUMERIC = re.compile(r"[-+–0-9.,%]*")  # a cell that is a number, right-aligned


def to_text(df: pd.DataFrame, title: str = "", min_hands: int | None = None) -> str:
    """A table for people: intervals as [lo, hi], low-n rows starred; a bid-0 row (a hand
    everybody passed) as ``simulate`` shows it: '0 (passed out)', '–' for what it has not."""
    d = df.copy()
    cols = list(d.columns)
    shown: dict[str, pd.Series] = {}
    words: set[str] = set()  # columns of words, left-aligned; numbers to the right
    low = d["low_n"] if "low_n" in d else pd.Series(False, index=d.index)
    passed = (d["bid"] == 0).to_numpy() if "bid" in d else np.zeros(len(d), bool)
    for c in cols:
        if c == "low_n" or c.endswith("_lo") or c.endswith("_hi"):
            continue
        s = d[c]
        stem = c.removeprefix("mean_").removesuffix("_rate").removesuffix("_share")
        pair = [(f"{x}_lo", f"{x}_hi") for x in (c, stem, c.removesuffix("_rate"))]
        lohi = next(((lo, hi) for lo, hi in pair if lo in d and hi in d), None)
        if c == "bid":
            shown[c] = pd.Series(
                [PASSED_OUT if p else f"{v}" for v, p in zip(s, passed, strict=True)], d.index
            )
        elif c == "points" and pd.api.types.is_float_dtype(s):  # cut-throat: 3.5 points
            shown[c] = s.map(lambda v: f"{v:g}")
        elif pd.api.types.is_float_dtype(s):
            # a value and its interval in one cell, as simulate's tables show them
            share = c.endswith(("_rate", "_share")) or c in SHARES
            both = N.rate_with_interval if share else N.number_with_interval
            lo, hi = (d[lohi[0]], d[lohi[1]]) if lohi else (s * np.nan, s * np.nan)
            key = f"{c} [95%]" if lohi else c
            shown[key] = pd.Series(
                [
                    (N.DASH if p else "") if pd.isna(v) else both(v, x, y)
                    for v, x, y, p in zip(s, lo, hi, passed, strict=True)
                ],
                d.index,
            )
        elif pd.api.types.is_integer_dtype(s) and c in (
            "hands",
            "made",
            "holder_hands",
            "bidding_side",
            "defenders",
            "maker",
            "other_players",
            "saved",
            "lost",
            "out_of_play",
        ):
            shown[c] = s.map(lambda v: N.DASH if pd.isna(v) else f"{v:,}")
        elif pd.api.types.is_bool_dtype(s):  # a yes-or-no feature (the ace dealt)
            shown[c] = s.map(lambda v: "yes" if v else "no")
            words.add(c)
        else:
            name = N.label if c == "pedro" else N.heading  # right_pedro -> Right Pedro
            shown[c] = s.astype(object).map(lambda v, w=name: "-" if pd.isna(v) else w(str(v)))
            words.add(c)
    # words to the left, numbers (a feature's values too: trumps 2, 3, ...) to the right
    align = "".join(
        "l" if c in words and not all(_NUMERIC.fullmatch(str(x)) for x in shown[c]) else "r"
        for c in shown
    )
    rows = [list(cells) for cells in zip(*shown.values(), strict=True)]
    named = df.attrs.get("headings", {})  # a table's own words for a column
    heads = [named.get(c, N.heading(c)) for c in shown]
    limit = f"{min_hands}" if min_hands else "the low-n threshold"
    text = starred_table(rows, heads, align, [bool(f) for f in low], limit)
    return f"{title}\n{text}" if title else text
