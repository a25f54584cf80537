"""Interval estimates used by every table: small, exact where it matters."""

from __future__ import annotations

import numpy as np

Z95 = 1.959963984540054


def wilson(successes, trials, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial proportion (vectorised).

    Chosen over the normal interval because make rates sit near 0 or 1 for
    extreme bids, where the normal interval leaves [0, 1] and undercovers.
    Rows with no trials get NaN.
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = np.where(n > 0, np.clip(centre - half, 0, 1), np.nan)
    hi = np.where(n > 0, np.clip(centre + half, 0, 1), np.nan)
    return lo, hi


def mean_interval(total, total_sq, n, z: float = Z95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean and normal-approximation interval from running sums (streaming-friendly)."""
    total = np.asarray(total, dtype=float)
    total_sq = np.asarray(total_sq, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / n
        var = np.maximum(total_sq / n - mean * mean, 0) * n / np.maximum(n - 1, 1)
        half = z * np.sqrt(var / n)
    return mean, mean - half, mean + half


def t_interval(
    values: np.ndarray, null: float, level: float = 0.95
) -> tuple[float, float, float, float]:
    """(mean, low, high, p-value of mean == null): Student's t over independent units."""
    from scipy import stats as sst

    v = np.asarray(values, dtype=float)
    k = v.size
    if k == 0:
        return float("nan"), float("nan"), float("nan"), float("nan")
    m = float(v.mean())
    if k < 2:
        return m, float("nan"), float("nan"), float("nan")
    se = float(v.std(ddof=1)) / np.sqrt(k)
    q = float(sst.t.ppf(0.5 + level / 2, k - 1))
    if se == 0:
        return m, m, m, (1.0 if m == null else 0.0)
    p = float(2 * sst.t.sf(abs(m - null) / se, k - 1))
    return m, m - q * se, m + q * se, p


def ratio_interval(
    sums: np.ndarray, counts: np.ndarray, level: float = 0.95
) -> tuple[float, float, float, float]:
    """Pooled mean sum/count with a cluster (ratio estimator) interval; p-value of mean == 0.

    Each unit (cluster) contributes a sum over its ``counts`` items; units with
    no items are left out. The standard error is the ratio estimator's, with
    Student's t on units - 1 degrees of freedom.
    """
    from scipy import stats as sst

    s = np.asarray(sums, dtype=float)
    n = np.asarray(counts, dtype=float)
    keep = n > 0
    s, n = s[keep], n[keep]
    k = s.size
    if k == 0:
        return float("nan"), float("nan"), float("nan"), float("nan")
    m = float(s.sum() / n.sum())
    if k < 2:
        return m, float("nan"), float("nan"), float("nan")
    resid = s - m * n
    se = float(np.sqrt((resid**2).sum() / (k * (k - 1))) / n.mean())
    q = float(sst.t.ppf(0.5 + level / 2, k - 1))
    if se == 0:
        return m, m, m, (1.0 if m == 0 else 0.0)
    p = float(2 * sst.t.sf(abs(m) / se, k - 1))
    return m, m - q * se, m + q * se, p
